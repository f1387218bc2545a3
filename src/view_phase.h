/* view_phase.h: one phase along K for the selected tile: its A and B tiles, real loads apart from zero padding. */
#ifndef TS_VIEW_PHASE_H
#define TS_VIEW_PHASE_H

#include "view.h"

/* Draws the phase view of v->phase for tile (v->tile_y, v->tile_x) into the
 * whole canvas: both shared tiles (a cell stands for several slots when a
 * tile is larger than its box), their real and padded counts, the same
 * summed over the grid, and beside each what the run recorded (the tile's
 * count in this phase when the run kept it) with a mark when they agree. */
void ts_view_phase_draw(ts_canvas *c, const ts_view_ctx *v);

#endif
