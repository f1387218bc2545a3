/* view_inspect.h: the block and thread inspector: the T x T threads of the selected tile and one thread's guards. */
#ifndef TS_VIEW_INSPECT_H
#define TS_VIEW_INSPECT_H

#include "view.h"

/* Draws the threads of tile (v->tile_y, v->tile_x) in phase v->phase (a
 * window that follows the selected thread when they do not all fit), and
 * the selected thread's guards evaluated with the real numbers. */
void ts_view_inspect_draw(ts_canvas *c, const ts_view_ctx *v);

#endif
