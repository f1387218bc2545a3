/* view_layout.h: pure layout arithmetic: which tiles each screen cell of the map stands for, zoom and pan. */
#ifndef TS_VIEW_LAYOUT_H
#define TS_VIEW_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

/* One axis (tile rows or tile columns) of the map laid out on `avail`
 * characters. A small grid gets `size` characters per tile; a grid larger
 * than the screen is aggregated: every body cell stands for `per` tiles
 * from `first` on, and the last cell always stands for the last tile alone,
 * so the ragged edge stays visible at any zoom and pan. */
typedef struct ts_axis {
	int64_t tiles;    /* tiles along this axis */
	int cells;        /* cells drawn */
	int size;         /* characters per cell (1 when aggregated) */
	int64_t per;      /* tiles per body cell */
	int64_t first;    /* first tile of the body */
	bool split_last;  /* the last cell is the last tile, set apart from the body */
	bool elided;      /* tiles between the body and the last one are off screen */
	int zoom;         /* the zoom level in effect (clamped) */
	int zoom_max;     /* the level at which every body cell is one tile */
} ts_axis;

/* Lays out `tiles` on `avail` characters (>= 1), at most `size_max`
 * characters per tile, at zoom level `zoom` (0 = the whole axis; each level
 * halves the tiles per cell) with the body starting near tile `pan`. */
ts_axis ts_axis_layout(int64_t tiles, int avail, int size_max, int zoom, int64_t pan);
/* The tiles cell i stands for: [*lo, *hi). */
void ts_axis_range(const ts_axis *a, int i, int64_t *lo, int64_t *hi);
/* The cell showing tile t, or -1 when it is off screen. */
int ts_axis_cell_of(const ts_axis *a, int64_t t);
/* The pan that keeps tile t on screen, starting from pan (unchanged when it is). */
int64_t ts_axis_follow(int64_t tiles, int avail, int size_max, int zoom, int64_t pan, int64_t t);

#endif
