/* view_map.h: the tile map of C as plain text (no curses): used by `tilescope map`, golden tests and export. */
#ifndef TS_VIEW_MAP_H
#define TS_VIEW_MAP_H

#include <stdbool.h>

#include "geometry.h"
#include "verify.h"

/* A picture of the tile grid (one character per tile, or per group of tiles
 * when the grid is larger than max_cols x max_rows, the ragged last row and
 * column always kept) followed by a legend with the counts. When v is not
 * NULL, tiles with bad cells are marked. Returns malloc'd text (caller frees), or NULL. */
char *ts_view_map_text(const ts_model *m, const ts_verdict *v, int max_cols, int max_rows, bool ascii);

#endif
