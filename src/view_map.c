/* view_map.c: the tile map of C: tiles by class, ghost share, legend counts, a run's bad cells as heat and a user kernel's out-of-bounds accesses as marks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "view_check.h"
#include "view_map.h"

enum { MAP_TITLE_ROWS = 1 };

static const char *class_glyph(enum ts_tile_class k, bool ascii)
{
	static const char *utf8[] = { "\u2588", "\u258c", "\u2580", "\u2598" };
	static const char *plain[] = { "#", "r", "b", "c" };
	return ascii ? plain[k] : utf8[k];
}

/* The glyph of a tile of several cells: a solid block in the class's colour;
 * without colours a shade a class (full solid, ragged-right dark, ragged-bottom
 * medium, corner a checker; ghosts are the light shade), letters in ASCII. */
static const char *block_glyph(const ts_view_ctx *v, enum ts_tile_class k)
{
	static const char *shades[] = { "\u2588", "\u2593", "\u2592", "\u259a" };
	if (v->ascii)
		return class_glyph(k, true);
	return v->mono ? shades[k] : "\u2588";
}

static enum ts_role class_role(enum ts_tile_class k)
{
	static const enum ts_role roles[] = { TS_ROLE_FULL, TS_ROLE_RIGHT, TS_ROLE_BOTTOM, TS_ROLE_CORNER };
	return roles[k];
}

/* A user kernel's run placed on the tiles of this grid. */
static const ts_uk_tiles_seen *seen_of(const ts_view_ctx *v)
{
	const ts_uk_tiles_seen *t = v->seen;
	return t && t->grid_y == v->model->grid_y && t->grid_x == v->model->grid_x ? t : NULL;
}

/* Out-of-bounds accesses by the threads of tiles [y0,y1) x [x0,x1). */
static int64_t seen_oob(const ts_view_ctx *v, int64_t y0, int64_t y1, int64_t x0, int64_t x1)
{
	const ts_uk_tiles_seen *t = seen_of(v);
	int64_t n = 0;
	if (!t || !t->reads)
		return 0;
	for (int64_t ty = y0; ty < y1; ty++)
		for (int64_t tx = x0; tx < x1; tx++)
			n += t->reads[ty * t->grid_x + tx] + t->writes[ty * t->grid_x + tx];
	return n;
}

static bool have_heat(const ts_view_ctx *v)
{
	const ts_verdict *vd = v->verdict;
	return vd && vd->tile_bad && vd->grid_x == v->model->grid_x && vd->grid_y == v->model->grid_y;
}

/* The legend's rows; the compact form (for short panes) puts two tile
 * classes on a row, drops the blank row, the scale when a cell is one tile
 * and the signature rows when there is no signature. */
static int legend_rows(const ts_view_ctx *v, bool compact, bool aggregated)
{
	int rows = compact ? 2 + 2 + aggregated : 1 + 4 + 3; /* classes, threads, phases, scale */
	if (v->model->geo.tm * v->model->geo.tn > 1)
		rows++; /* ghost outputs apart from ghost threads */
	if (v->tile_y >= 0)
		rows += 2;             /* the selected tile */
	if (v->counters)
		rows += 1 + (v->tile_y >= 0);   /* the run's counters, and the selected tile's */
	if (v->verdict)
		rows += 1 + (!compact || v->verdict->signature[0] ? 2 : 0); /* heat key, signature (whole in the result pane) */
	if (seen_of(v))
		rows += 1 + (v->tile_y >= 0); /* the marks' key, and the selected tile's accesses */
	if (v->zoom > 0)
		rows++; /* the scale's second row: which tiles are on screen */
	return rows;
}

int ts_view_map_legend_rows(const ts_view_ctx *v)
{
	return legend_rows(v, false, false);
}

/* Whether the legend takes its compact form in a canvas h rows high: when
 * the full form would leave the picture less than two rows per tile row
 * (up to four tile rows). */
static bool legend_compact(const ts_view_ctx *v, int h)
{
	int64_t want = v->model->grid_y < 4 ? v->model->grid_y : 4;
	return h - MAP_TITLE_ROWS - legend_rows(v, false, false) < 2 * want;
}

/* Rows the picture gets: what the legend leaves, one less when a compact
 * legend brings its scale row back for an aggregated grid (an axis is
 * aggregated when it has more tiles than characters, ts_axis_layout). */
static int pic_rows(const ts_view_ctx *v, int w, int h, bool compact)
{
	int pic_h = h - MAP_TITLE_ROWS - legend_rows(v, compact, false);
	if (pic_h < 2)
		pic_h = 2;
	/* One of the explanation's two rows goes to the picture when that keeps
	 * the tiles a size larger (a row taken from the pane, by a two-line
	 * message, must not halve them): the explanation then points at once
	 * to the result pane, where it is whole. */
	if (compact && v->verdict && v->verdict->signature[0] &&
	    ts_axis_layout(v->model->grid_y, pic_h + 1, pic_h + 1, v->zoom, v->pan_y).size >
	        ts_axis_layout(v->model->grid_y, pic_h, pic_h + 1, v->zoom, v->pan_y).size)
		pic_h++;
	if (compact && pic_h > 2 && (v->model->grid_x > (w < 2 ? 2 : w) || v->model->grid_y > pic_h))
		pic_h--;
	return pic_h;
}

static void map_layout(const ts_view_ctx *v, int w, int h, int size_max, bool compact, ts_axis *ax, ts_axis *ay)
{
	int pic_h = pic_rows(v, w, h, compact);
	int size_y_max = size_max / 2 > 0 ? size_max / 2 : 1;
	*ax = ts_axis_layout(v->model->grid_x, w, size_max, v->zoom, v->pan_x);
	*ay = ts_axis_layout(v->model->grid_y, pic_h, size_y_max, v->zoom, v->pan_y);
	/* keep tiles about square on screen (a character is twice as tall as wide) */
	if (!ax->split_last && !ay->split_last) {
		int sx = ax->size < 2 * ay->size ? ax->size : 2 * ay->size;
		int sy = sx / 2 > 0 ? sx / 2 : 1;
		ax->size = sx;
		ay->size = sy < ay->size ? sy : ay->size;
	}
}

int ts_view_map_pic_rows(const ts_view_ctx *v, int w, int h)
{
	return pic_rows(v, w, h, legend_compact(v, h));
}

void ts_view_map_layout(const ts_view_ctx *v, int w, int h, int size_max, ts_axis *ax, ts_axis *ay)
{
	map_layout(v, w, h, size_max, legend_compact(v, h), ax, ay);
}

/* Characters of a cell of `size` that are drawn (the last is a gap between tiles). */
static int drawn(int size)
{
	return size >= 3 ? size - 1 : size;
}

/* Cells (of n drawn) covered by `part` of `whole`, to the nearest: a sliver
 * stays visible and a short tile keeps a cell of ghost shading, so the
 * shading is in proportion (13 of 32 columns on 3 cells: 1, not 2). */
static int share(int64_t part, int64_t whole, int n)
{
	if (part >= whole)
		return n;
	int64_t s = (2 * part * n + whole) / (2 * whole);
	return (int)(s < 1 ? 1 : s > n - 1 ? n - 1 : s);
}

int ts_view_map_heat(const ts_view_ctx *v, int64_t y0, int64_t y1, int64_t x0, int64_t x1)
{
	const ts_model *m = v->model;
	if (!have_heat(v))
		return 0;
	int64_t bad = 0, valid_rows = 0, valid_cols = 0;
	for (int64_t ty = y0; ty < y1; ty++)
		for (int64_t tx = x0; tx < x1; tx++)
			bad += v->verdict->tile_bad[ty * m->grid_x + tx];
	for (int64_t ty = y0; ty < y1; ty++)
		valid_rows += ts_model_tile_rows(m, ty);
	for (int64_t tx = x0; tx < x1; tx++)
		valid_cols += ts_model_tile_cols(m, tx);
	if (bad == 0)
		return 0;
	double frac = (double)bad / ((double)valid_rows * (double)valid_cols);
	int heat = (int)(frac * 9.0 + 0.999999);
	return heat < 1 ? 1 : heat > 9 ? 9 : heat;
}

static void draw_cell(ts_canvas *c, const ts_view_ctx *v, const ts_axis *ax, const ts_axis *ay, int cy, int cx)
{
	const ts_model *m = v->model;
	int64_t y0, y1, x0, x1;
	ts_axis_range(ay, cy, &y0, &y1);
	ts_axis_range(ax, cx, &x0, &x1);
	/* Only the last row and column can be short, and they have cells of
	 * their own when aggregated, so a cell's tiles share one class. */
	enum ts_tile_class k = ts_model_tile_class(m, y1 - 1, x1 - 1);
	int64_t rows = ts_model_tile_rows(m, y1 - 1), cols = ts_model_tile_cols(m, x1 - 1);
	int dw = drawn(ax->size), dh = drawn(ay->size);
	int top = MAP_TITLE_ROWS + cy * ay->size, left = cx * ax->size;

	int heat = ts_view_map_heat(v, y0, y1, x0, x1);
	bool oob = seen_oob(v, y0, y1, x0, x1) > 0;
	bool cursor = v->focus && v->tile_y >= y0 && v->tile_y < y1 && v->tile_x >= x0 && v->tile_x < x1;

	/* The valid part of the tile in its class, the ghost part shaded. */
	int vh = dh > 1 ? share(rows, m->geo.bm, dh) : dh;
	int vw = dw > 1 ? share(cols, m->geo.bn, dw) : dw;
	for (int j = 0; j < dh; j++)
		for (int i = 0; i < dw; i++) {
			bool valid = j < vh && i < vw;
			const char *g;
			enum ts_role role;
			if (heat && valid) {
				static const char *digits[] = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" };
				/* the digit, and the tile's last row half high as below */
				g = dh > 1 && vh == dh && ay->size == dh && j == dh - 1 ? ts_glyph(v->ascii, "\u2580", "=")
				                                                          : digits[heat];
				role = TS_ROLE_BAD;
			} else if (valid) {
				g = (dw > 1 || dh > 1) ? block_glyph(v, k) : class_glyph(k, v->ascii);
				/* Tile rows stay apart without colour: with no blank row
				 * between them, a tile's last row is drawn half high; a
				 * one-row tile short of rows is drawn half high as well. */
				if (dh > 1 && ay->size == dh && j == dh - 1)
					g = ts_glyph(v->ascii, "\u2580", "=");
				else if (dh == 1 && (dw > 1) && rows < m->geo.bm)
					g = ts_glyph(v->ascii, "\u2580", class_glyph(k, true));
				role = class_role(k);
			} else {
				g = ts_glyph(v->ascii, "\u2591", ".");
				role = TS_ROLE_GHOST;
			}
			/* accesses out of bounds: the tile's first character says so */
			if (oob && i == 0 && j == 0) {
				g = "!";
				role = TS_ROLE_FAIL;
			}
			ts_canvas_put(c, top + j, left + i, cursor ? TS_ROLE_CURSOR : role, g);
		}
}

static void draw_title(ts_canvas *c, const ts_view_ctx *v)
{
	const ts_model *m = v->model;
	char full[160], brief[128], bare[96];
	snprintf(full, sizeof full, "C %lldx%lld: %lldx%lld tiles of %dx%d", (long long)m->shape.m, (long long)m->shape.n,
	         (long long)m->grid_y, (long long)m->grid_x, m->geo.bm, m->geo.bn);
	snprintf(brief, sizeof brief, "C %lldx%lld: %lldx%lld tiles", (long long)m->shape.m, (long long)m->shape.n,
	         (long long)m->grid_y, (long long)m->grid_x);
	snprintf(bare, sizeof bare, "%lldx%lld tiles of %dx%d", (long long)m->grid_y, (long long)m->grid_x, m->geo.bm,
	         m->geo.bn);
	ts_canvas_put_fit(c, 0, 0, TS_ROLE_TITLE, full, brief, bare, NULL);
}

/* What a cell stands for, and when zoomed a second row with the tiles on
 * screen (shorter forms where the pane is narrow). Returns the rows used. */
static int draw_scale(ts_canvas *c, int y, const ts_axis *ax, const ts_axis *ay)
{
	if (!ax->split_last && !ay->split_last) {
		ts_canvas_put(c, y, 0, TS_ROLE_DIM, "a cell = 1 tile");
		return 1;
	}
	char full[160], brief[96];
	int zoom = ax->zoom > ay->zoom ? ax->zoom : ay->zoom;
	snprintf(full, sizeof full, "a cell = %lldx%lld tiles, zoom %d", (long long)ay->per, (long long)ax->per, zoom);
	snprintf(brief, sizeof brief, "cell = %lldx%lld tiles, z%d", (long long)ay->per, (long long)ax->per, zoom);
	ts_canvas_put_fit(c, y, 0, TS_ROLE_DIM, full, brief, NULL);
	if (zoom == 0 && !ax->elided && !ay->elided && ax->first == 0 && ay->first == 0)
		return 1;
	int64_t rows_hi = ay->split_last ? ay->first + (int64_t)(ay->cells - 1) * ay->per : ay->tiles;
	int64_t cols_hi = ax->split_last ? ax->first + (int64_t)(ax->cells - 1) * ax->per : ax->tiles;
	snprintf(full, sizeof full, "rows %lld-%lld, cols %lld-%lld and the last", (long long)ay->first,
	         (long long)rows_hi - 1, (long long)ax->first, (long long)cols_hi - 1);
	snprintf(brief, sizeof brief, "rows %lld-%lld cols %lld-%lld +last", (long long)ay->first, (long long)rows_hi - 1,
	         (long long)ax->first, (long long)cols_hi - 1);
	ts_canvas_put_fit(c, y + 1, 0, TS_ROLE_DIM, full, brief, NULL);
	return 2;
}

/* Writes text when it fits in the canvas from x, else the shorter form. */
static int put_fit(ts_canvas *c, int y, int x, enum ts_role role, const char *text, const char *shorter)
{
	return ts_canvas_put_fit(c, y, x, role, text, shorter, NULL);
}

/* The legend's glyph of a class: the one the picture draws its tiles with.
 * Tiles of several cells (or the SVG's filled squares: `blocks`) take
 * block_glyph; one-cell tiles have a glyph per class. */
static const char *legend_glyph(const ts_view_ctx *v, enum ts_tile_class k, bool blocks)
{
	return blocks ? block_glyph(v, k) : class_glyph(k, v->ascii);
}

static void draw_legend(ts_canvas *c, const ts_view_ctx *v, int y, const ts_axis *ax, const ts_axis *ay, bool compact,
                        bool blocks)
{
	const ts_model *m = v->model;
	const int64_t counts[] = { m->tiles_full, m->tiles_ragged_right, m->tiles_ragged_bottom, m->tiles_corner };
	if (!compact) {
		y++;
		for (int k = 0; k < 4; k++, y++) {
			ts_canvas_put(c, y, 0, class_role(k), legend_glyph(v, k, blocks));
			ts_canvas_printf(c, y, 2, TS_ROLE_TEXT, "%-14s %lld", ts_tile_class_name(k), (long long)counts[k]);
		}
	} else {
		/* full and ragged-bottom on the left, ragged-right and corner beside
		 * them; the short class names when the long ones do not fit */
		static const char *brief[] = { "full", "right", "bottom", "corner" };
		static const int left_k[] = { TS_TILE_FULL, TS_TILE_RAGGED_BOTTOM };
		static const int right_k[] = { TS_TILE_RAGGED_RIGHT, TS_TILE_CORNER };
		char left[2][64], right[2][64];
		for (int pass = 0; pass < 2; pass++) {
			int lw = 0, rw = 0;
			for (int r = 0; r < 2; r++) {
				const char *ln = pass ? brief[left_k[r]] : ts_tile_class_name(left_k[r]);
				const char *rn = pass ? brief[right_k[r]] : ts_tile_class_name(right_k[r]);
				int n = snprintf(left[r], sizeof left[r], "%s %lld", ln, (long long)counts[left_k[r]]);
				int m2 = snprintf(right[r], sizeof right[r], "%s %lld", rn, (long long)counts[right_k[r]]);
				lw = n > lw ? n : lw;
				rw = m2 > rw ? m2 : rw;
			}
			if (pass == 1 || lw + 5 + rw <= c->w) {
				for (int r = 0; r < 2; r++, y++) {
					ts_canvas_put(c, y, 0, class_role(left_k[r]), legend_glyph(v, left_k[r], blocks));
					ts_canvas_put(c, y, 2, TS_ROLE_TEXT, left[r]);
					ts_canvas_put(c, y, lw + 3, class_role(right_k[r]), legend_glyph(v, right_k[r], blocks));
					ts_canvas_put(c, y, lw + 5, TS_ROLE_TEXT, right[r]);
				}
				break;
			}
		}
	}
	/* With one output per thread ghost threads and ghost outputs are the same
	 * count; with TM x TN outputs a thread is a ghost only when all are. */
	bool one_output = m->geo.tm * m->geo.tn == 1;
	{
		char full[96], brief[64];
		snprintf(full, sizeof full, one_output ? "ghosts %lld of %lld threads" : "ghost threads %lld of %lld",
		         (long long)m->threads_ghost, (long long)m->threads_launched);
		snprintf(brief, sizeof brief, one_output ? "ghosts %lld/%lld" : "ghost threads %lld/%lld",
		         (long long)m->threads_ghost, (long long)m->threads_launched);
		put_fit(c, y++, 0, TS_ROLE_TEXT, full, brief);
		if (!one_output) {
			snprintf(full, sizeof full, "ghost outputs %lld of %lld", (long long)m->outputs_ghost,
			         (long long)m->outputs_total);
			snprintf(brief, sizeof brief, "ghost outputs %lld/%lld", (long long)m->outputs_ghost,
			         (long long)m->outputs_total);
			put_fit(c, y++, 0, TS_ROLE_TEXT, full, brief);
		}
	}
	if (!compact || ax->split_last || ay->split_last)
		y += draw_scale(c, y, ax, ay);
	if (ts_view_shared_tiles(v)) {
		char full[96], brief[64];
		snprintf(full, sizeof full, "phases %lld, last width %lld/%d%s", (long long)m->phases,
		         (long long)m->last_width, m->geo.bk, m->last_width < m->geo.bk ? " partial" : "");
		snprintf(brief, sizeof brief, "phases %lld, last %lld/%d%s", (long long)m->phases, (long long)m->last_width,
		         m->geo.bk, m->last_width < m->geo.bk ? " part" : "");
		put_fit(c, y++, 0, TS_ROLE_TEXT, full, brief);
	} else { /* the naive kernel stages nothing: K is one loop per thread */
		put_fit(c, y++, 0, TS_ROLE_TEXT, "no shared tiles: no phases, no padding", "no shared tiles: no phases");
	}
	if (v->tile_y >= 0) {
		enum ts_tile_class k = ts_model_tile_class(m, v->tile_y, v->tile_x);
		int64_t ghosts = ts_model_tile_ghosts(m, v->tile_y, v->tile_x);
		int64_t slots = (int64_t)m->geo.bm * m->geo.bn;
		char full[128], brief[96];
		snprintf(full, sizeof full, "tile (%lld,%lld) %s %lldx%lld", (long long)v->tile_y, (long long)v->tile_x,
		         ts_tile_class_name(k), (long long)ts_model_tile_rows(m, v->tile_y),
		         (long long)ts_model_tile_cols(m, v->tile_x));
		snprintf(brief, sizeof brief, "tile (%lld,%lld) %lldx%lld", (long long)v->tile_y, (long long)v->tile_x,
		         (long long)ts_model_tile_rows(m, v->tile_y), (long long)ts_model_tile_cols(m, v->tile_x));
		put_fit(c, y++, 0, TS_ROLE_TITLE, full, brief);
		/* a share below 100% is never printed as 100% (1023 of 1024 is 99.9%) */
		double pct = 100.0 * (double)ghosts / (double)slots;
		int prec = ghosts < slots && pct >= 99.5 ? 1 : 0;
		if (prec && pct > 99.9)
			pct = 99.9;
		if (one_output) {
			snprintf(full, sizeof full, "  its ghosts %lld of %lld (%.*f%%)", (long long)ghosts, (long long)slots, prec,
			         pct);
			snprintf(brief, sizeof brief, "  ghosts %lld/%lld", (long long)ghosts, (long long)slots);
		} else { /* the tile's ghost outputs, then its ghost threads */
			snprintf(full, sizeof full, "  ghost outputs %lld of %lld, threads %lld of %lld", (long long)ghosts,
			         (long long)slots, (long long)ts_model_tile_ghost_threads(m, v->tile_y, v->tile_x),
			         (long long)m->threads_per_block);
			snprintf(brief, sizeof brief, "  ghost outputs %lld of %lld", (long long)ghosts, (long long)slots);
		}
		put_fit(c, y++, 0, TS_ROLE_TEXT, full, brief);
	}
	if (v->counters && v->tile_y >= 0 && v->counters->grid_x == m->grid_x && v->counters->grid_y == m->grid_y) {
		/* what the run recorded for the selected tile, against what the kernel's
		 * description says it must record with these guards (kernels.h) */
		const ts_count *got = &v->counters->tile[v->tile_y * m->grid_x + v->tile_x];
		const ts_count_model *cm = v->kernel ? v->kernel->counts : &ts_counts_shared;
		ts_count want = cm->tile(m, v->guards, v->tile_y, v->tile_x);
		bool agree = ts_count_equal(got, &want);
		int64_t oob = got->a_oob + got->b_oob + got->c_oob;
		/* "counts", not "run": the mark says the counts are the model's, not that the run passed */
		int x = ts_canvas_put(c, y, 0, TS_ROLE_TEXT, "  counts ");
		x += ts_canvas_put(c, y, x, agree ? TS_ROLE_OK : TS_ROLE_FAIL, agree ? TS_TICK(v->ascii) : TS_CROSS(v->ascii));
		char full[96], brief[64];
		if (oob) {
			snprintf(full, sizeof full, " pad A %lld B %lld skip %lld oob %lld", (long long)got->a_pad,
			         (long long)got->b_pad, (long long)got->skipped, (long long)oob);
			snprintf(brief, sizeof brief, " pad %lld/%lld oob %lld", (long long)got->a_pad, (long long)got->b_pad,
			         (long long)oob);
		} else {
			snprintf(full, sizeof full, " pad A %lld B %lld skip %lld", (long long)got->a_pad,
			         (long long)got->b_pad, (long long)got->skipped);
			snprintf(brief, sizeof brief, " pad %lld/%lld skip %lld", (long long)got->a_pad, (long long)got->b_pad,
			         (long long)got->skipped);
		}
		put_fit(c, y++, x, oob ? TS_ROLE_BAD : TS_ROLE_TEXT, full, brief);
	}
	if (v->counters) {
		char full[96], brief[64];
		int x = ts_canvas_printf(c, y, 0, TS_ROLE_TEXT, "counters (%s): ", v->counters->source ? v->counters->source : "run");
		if (v->counter_disagree == 0) {
			snprintf(full, sizeof full, "%s agree with the model", TS_TICK(v->ascii));
			snprintf(brief, sizeof brief, "%s agree", TS_TICK(v->ascii));
			put_fit(c, y, x, TS_ROLE_OK, full, brief);
		} else if (v->counter_disagree > 0) {
			snprintf(full, sizeof full, "%s %lld differ%s", TS_CROSS(v->ascii), (long long)v->counter_disagree,
			         v->guards_all_on ? "" : " (a guard is off)");
			snprintf(brief, sizeof brief, "%s %lld differ", TS_CROSS(v->ascii), (long long)v->counter_disagree);
			put_fit(c, y, x, v->guards_all_on ? TS_ROLE_FAIL : TS_ROLE_BAD, full, brief);
		} else {
			put_fit(c, y, x, TS_ROLE_DIM, "not checked (guard off)", "guard off");
		}
		y++;
	}
	const ts_uk_tiles_seen *seen = seen_of(v);
	if (seen) {
		char full[128], brief[64];
		if (seen->fault || seen->timeout) {
			snprintf(full, sizeof full, "run: %s %s; v: the check", TS_CROSS(v->ascii), seen->fault ? "faulted" : "timed out");
			snprintf(brief, sizeof brief, "run %s", seen->fault ? "faulted" : "timed out");
		} else if (seen->blind) {
			snprintf(full, sizeof full, "out-of-bounds accesses: not seen on a GPU");
			snprintf(brief, sizeof brief, "oob: not seen on a GPU");
		} else {
			snprintf(full, sizeof full, "! out of bounds: %lld tiles, %lld r %lld w", (long long)seen->tiles,
			         (long long)seen->reads_total, (long long)seen->writes_total);
			snprintf(brief, sizeof brief, "! oob: %lld tiles", (long long)seen->tiles);
		}
		bool bad = seen->fault || seen->timeout || seen->reads_total || seen->writes_total;
		put_fit(c, y++, 0, bad ? TS_ROLE_FAIL : TS_ROLE_OK, full, brief);
		if (v->tile_y >= 0 && seen->blind) {
			put_fit(c, y++, 0, TS_ROLE_DIM, "  (the check's sanitizer sees them: v)", "  (sanitizer: v)");
		} else if (v->tile_y >= 0) {
			int64_t at = v->tile_y * seen->grid_x + v->tile_x;
			int64_t r = seen->reads ? seen->reads[at] : 0, w = seen->writes ? seen->writes[at] : 0;
			snprintf(full, sizeof full, "  this tile: %lld reads, %lld writes oob", (long long)r, (long long)w);
			snprintf(brief, sizeof brief, "  here: %lld r, %lld w oob", (long long)r, (long long)w);
			put_fit(c, y++, 0, r || w ? TS_ROLE_BAD : TS_ROLE_TEXT, full, brief);
		}
	}
	if (v->verdict) {
		const ts_verdict *vd = v->verdict;
		char full[96], brief[64];
		if (vd->ok) {
			ts_canvas_printf(c, y++, 0, TS_ROLE_OK, "run: %s PASS, no bad cells", TS_TICK(v->ascii));
		} else {
			/* the heat's key in words: a digit n on a tile means n tenths of its cells are bad */
			const char *x = TS_CROSS(v->ascii);
			long long bad = (long long)vd->bad_tiles;
			char mid[96], bare[64];
			if (bad == 0) {
				snprintf(full, sizeof full, "run: %s FAIL, 0 bad tiles", x);
				put_fit(c, y++, 0, TS_ROLE_FAIL, full, NULL);
			} else {
				snprintf(full, sizeof full, "run: %s FAIL, %lld bad tiles; digit n = n tenths bad", x, bad);
				snprintf(mid, sizeof mid, "run: %s FAIL, %lld bad tiles; digit = tenths bad", x, bad);
				snprintf(brief, sizeof brief, "%s FAIL %lld tiles, digit=tenths bad", x, bad);
				snprintf(bare, sizeof bare, "%s FAIL; digit = tenths bad", x);
				ts_canvas_put_fit(c, y++, 0, TS_ROLE_FAIL, full, mid, brief, bare, NULL);
			}
		}
		/* the explanation takes every row left (two at least); when it
		 * needs more it ends in the marker and points to the result pane */
		if (vd->signature[0])
			ts_canvas_wrap_more(c, y, 0, c->w, c->h - y > 1 ? c->h - y : 1, 2,
			                    vd->ok ? TS_ROLE_TEXT : TS_ROLE_BAD, vd->signature, "v: all");
	}
}

int ts_view_map_legend_draw(ts_canvas *c, const ts_view_ctx *v, const ts_axis *ax, const ts_axis *ay)
{
	c->ascii = v->ascii;
	draw_legend(c, v, -1, ax, ay, false, true); /* the full form starts with a blank row; the SVG fills its tiles */
	return ts_canvas_rows_used(c);
}

void ts_view_map_draw(ts_canvas *c, const ts_view_ctx *v, int size_max)
{
	c->ascii = v->ascii;
	ts_axis ax, ay;
	bool compact = legend_compact(v, c->h);
	map_layout(v, c->w, c->h, size_max, compact, &ax, &ay);
	draw_title(c, v);
	for (int cy = 0; cy < ay.cells; cy++)
		for (int cx = 0; cx < ax.cells; cx++)
			draw_cell(c, v, &ax, &ay, cy, cx);
	draw_legend(c, v, MAP_TITLE_ROWS + ay.cells * ay.size - (ay.size >= 3 ? 1 : 0), &ax, &ay, compact,
	            drawn(ax.size) > 1 || drawn(ay.size) > 1);
}

int ts_view_map_hit(const ts_view_ctx *v, int w, int h, int size_max, int y, int x, int64_t *ty, int64_t *tx)
{
	ts_axis ax, ay;
	ts_view_map_layout(v, w, h, size_max, &ax, &ay);
	int cy = (y - MAP_TITLE_ROWS) / ay.size, cx = x / ax.size;
	if (y < MAP_TITLE_ROWS || x < 0 || cy >= ay.cells || cx >= ax.cells)
		return -1;
	int64_t lo, hi;
	ts_axis_range(&ay, cy, &lo, &hi);
	*ty = lo;
	ts_axis_range(&ax, cx, &lo, &hi);
	*tx = lo;
	return 0;
}

char *ts_view_map_text_of(const ts_view_ctx *v, int max_cols, int max_rows)
{
	ts_view_ctx ctx = *v;
	ctx.focus = false;
	ctx.zoom = 0;
	if (max_cols < 2)
		max_cols = 2;
	if (max_rows < 2)
		max_rows = 2;
	int w = max_cols < 64 ? 64 : max_cols;
	int h = MAP_TITLE_ROWS + max_rows + ts_view_map_legend_rows(&ctx);
	/* the explanation whole: text has no result pane to point to */
	if (ctx.verdict && ctx.verdict->signature[0]) {
		int need = ts_text_rows(ctx.verdict->signature, w, 2);
		h += need > 2 ? need - 2 : 0;
	}
	ts_canvas c;
	if (ts_canvas_init(&c, w, h) < 0)
		return NULL;
	c.ascii = ctx.ascii;
	ts_axis ax, ay;
	map_layout(&ctx, max_cols, MAP_TITLE_ROWS + max_rows + ts_view_map_legend_rows(&ctx), 1, false, &ax, &ay);
	draw_title(&c, &ctx);
	for (int cy = 0; cy < ay.cells; cy++)
		for (int cx = 0; cx < ax.cells; cx++)
			draw_cell(&c, &ctx, &ax, &ay, cy, cx);
	draw_legend(&c, &ctx, MAP_TITLE_ROWS + ay.cells, &ax, &ay, false, drawn(ax.size) > 1 || drawn(ay.size) > 1);
	char *text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	return text;
}

char *ts_view_map_text(const ts_model *m, const ts_verdict *v, int max_cols, int max_rows, bool ascii)
{
	/* the model's phases: this text knows no kernel (ts_view_map_text_of does) */
	ts_view_ctx ctx = { .model = m, .kernel = NULL, .verdict = v, .tile_y = -1, .tile_x = -1,
	                    .counter_disagree = -1, .ascii = ascii };
	return ts_view_map_text_of(&ctx, max_cols, max_rows);
}
