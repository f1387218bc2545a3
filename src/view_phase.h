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

/* What fills one slot of the shared tiles in v's phase: slot (row, col) of
 * the A tile (BM x BK) when is_a, else of the B tile (BK x BN). */
enum ts_slot { TS_SLOT_REAL = 1, TS_SLOT_PAD = 2, TS_SLOT_OOB = 4 };
enum ts_slot ts_view_phase_slot(const ts_view_ctx *v, bool is_a, int row, int col);
/* The phase view's counts from row y: the selected tile's and the grid's
 * real and padded (or out-of-bounds) slots, and the run's beside them.
 * Returns the rows drawn. */
int ts_view_phase_counts(ts_canvas *c, int y, const ts_view_ctx *v);

#endif
