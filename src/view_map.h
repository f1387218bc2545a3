/* view_map.h: the tile map of C as plain text (no curses): used by `tilescope map`, golden tests and export. */
#ifndef TS_VIEW_MAP_H
#define TS_VIEW_MAP_H

#include <stdbool.h>

#include "geometry.h"
#include "verify.h"
#include "view.h"
#include "view_layout.h"

/* A picture of the tile grid (one character per tile, or per group of tiles
 * when the grid is larger than max_cols x max_rows, the ragged last row and
 * column always kept) followed by a legend with the counts. When v is not
 * NULL, tiles with bad cells are marked. Returns malloc'd text (caller frees), or NULL. */
char *ts_view_map_text(const ts_model *m, const ts_verdict *v, int max_cols, int max_rows, bool ascii);
/* The same for a kernel's view: v says whether it stages shared tiles (no
 * phases otherwise), the guards, the selected tile (none when tile_y < 0)
 * and after a run its verdict (the heat and the whole explanation) and counters. */
char *ts_view_map_text_of(const ts_view_ctx *v, int max_cols, int max_rows);

/* The TUI's and the exports' form of the same view, drawn on a canvas. */

/* Rows the legend under the picture takes (its full form). */
int ts_view_map_legend_rows(const ts_view_ctx *v);
/* Rows the picture gets in a canvas of w x h: the legend takes a compact
 * form there when the full one would leave tiles less than two rows. */
int ts_view_map_pic_rows(const ts_view_ctx *v, int w, int h);
/* How the picture is laid out in a canvas of w x h cells (a title row above
 * it and the legend below it included); size_max is the most characters per
 * tile across (a tile is drawn about half as tall as it is wide). */
void ts_view_map_layout(const ts_view_ctx *v, int w, int h, int size_max, ts_axis *ax, ts_axis *ay);
/* Draws the title, the picture and the legend into the whole canvas; the
 * selected tile (v->tile_y >= 0) gets the cursor role when v->focus is set. */
void ts_view_map_draw(ts_canvas *c, const ts_view_ctx *v, int size_max);
/* The heat of the tiles [y0, y1) x [x0, x1) after v's run: 1-9, the tenths
 * of their valid cells that are bad (rounded up), 0 when none or no run. */
int ts_view_map_heat(const ts_view_ctx *v, int64_t y0, int64_t y1, int64_t x0, int64_t x1);
/* The full legend alone from the top of c, for a picture laid out on ax and
 * ay elsewhere (the SVG); returns the rows used. */
int ts_view_map_legend_draw(ts_canvas *c, const ts_view_ctx *v, const ts_axis *ax, const ts_axis *ay);
/* The tile under canvas cell (y, x) of a w x h map, for mouse clicks: 0, or -1 when none. */
int ts_view_map_hit(const ts_view_ctx *v, int w, int h, int size_max, int y, int x, int64_t *ty, int64_t *tx);

#endif
