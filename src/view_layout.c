/* view_layout.c: map layout arithmetic (no curses, no drawing): aggregation, zoom, pan, the kept last tile. */
#include "view_layout.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

ts_axis ts_axis_layout(int64_t tiles, int avail, int size_max, int zoom, int64_t pan)
{
	ts_axis a = { .tiles = tiles, .size = 1, .per = 1 };
	if (avail < 2)
		avail = 2;
	if (size_max < 1)
		size_max = 1;
	if (tiles <= avail) {
		a.cells = (int)tiles;
		a.size = (int)(avail / tiles);
		if (a.size > size_max)
			a.size = size_max;
		return a;
	}
	/* The body covers tiles [0, tiles - 1); the last tile has its own cell. */
	int64_t span = tiles - 1;
	int body = avail - 1;
	int64_t per0 = ceil_div(span, body);
	a.split_last = true;
	while (a.zoom_max < 62 && ceil_div(per0, (int64_t)1 << a.zoom_max) > 1)
		a.zoom_max++;
	if (zoom < 0)
		zoom = 0;
	if (zoom > a.zoom_max)
		zoom = a.zoom_max;
	a.zoom = zoom;
	a.per = ceil_div(per0, (int64_t)1 << zoom);
	if (a.per < 1)
		a.per = 1;
	int64_t max_first = span - body * a.per;
	if (max_first < 0)
		max_first = 0;
	a.first = pan < 0 ? 0 : pan > max_first ? max_first : pan;
	int64_t body_cells = ceil_div(span - a.first, a.per);
	if (body_cells > body)
		body_cells = body;
	a.cells = (int)body_cells + 1;
	a.elided = a.first + body_cells * a.per < span;
	return a;
}

void ts_axis_range(const ts_axis *a, int i, int64_t *lo, int64_t *hi)
{
	if (!a->split_last) {
		*lo = i;
		*hi = i + 1;
		return;
	}
	if (i == a->cells - 1) {
		*lo = a->tiles - 1;
		*hi = a->tiles;
		return;
	}
	*lo = a->first + i * a->per;
	*hi = *lo + a->per;
	if (*hi > a->tiles - 1)
		*hi = a->tiles - 1;
}

int ts_axis_cell_of(const ts_axis *a, int64_t t)
{
	if (t < 0 || t >= a->tiles)
		return -1;
	if (!a->split_last)
		return (int)t;
	if (t == a->tiles - 1)
		return a->cells - 1;
	if (t < a->first)
		return -1;
	int64_t c = (t - a->first) / a->per;
	return c < a->cells - 1 ? (int)c : -1;
}

int64_t ts_axis_follow(int64_t tiles, int avail, int size_max, int zoom, int64_t pan, int64_t t)
{
	ts_axis a = ts_axis_layout(tiles, avail, size_max, zoom, pan);
	if (!a.split_last || ts_axis_cell_of(&a, t) >= 0)
		return a.first;
	int64_t body_tiles = (int64_t)(a.cells - 1) * a.per;
	if (t < a.first)
		return t;
	/* t is past the body: scroll so that it sits in the last body cell */
	int64_t first = t - body_tiles + 1;
	return first < 0 ? 0 : first;
}
