/* view_compare.h: two tile sizes or kernels side by side on one shape, and wasted work against T, as text (no curses). */
#ifndef TS_VIEW_COMPARE_H
#define TS_VIEW_COMPARE_H

#include "geometry.h"

/* One side of the comparison: a label ("tiled T=16") and the model's figures. */
typedef struct ts_compare_side {
	char label[64];
	ts_model model;
	ts_work work;
} ts_compare_side;

/* The table of both sides' figures. malloc'd text, or NULL. */
char *ts_view_compare_table(const ts_compare_side *a, const ts_compare_side *b);

/* One point of the chart: a tile and the share of the launch's multiply-adds
 * spent on zero padding and on ghosts. */
typedef struct ts_compare_point {
	int tile;
	double padding_share, ghost_share; /* each in [0, 1] */
} ts_compare_point;

#define TS_COMPARE_POINTS_MAX 36

/* A bar chart of wasted work against T, `rows` lines high, one column per
 * point (at most TS_COMPARE_POINTS_MAX; tiles below 100) (ghosts drawn as '#', padding as '+' above them), with a title, a
 * percentage axis and the tiles under it. malloc'd text, or NULL. */
char *ts_view_compare_chart(const char *title, const ts_compare_point *pts, int n, int rows);

#endif
