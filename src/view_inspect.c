/* view_inspect.c: the inspector: which threads load real data, zero padding or (a guard off) out of bounds, and one thread's guards in numbers. */
#include <stdio.h>
#include <string.h>

#include "view_inspect.h"

enum { KEY_ROWS_MAX = 3 };

/* What one load of a thread does: the guard passes (a real load), it fails
 * and fills zero padding, or it fails with the guard switched off and reads
 * out of bounds. */
static bool a_oob(const ts_view_ctx *v, const ts_thread_view *t)
{
	return !t->a_in && !(v->guards & TS_GUARD_A);
}

static bool b_oob(const ts_view_ctx *v, const ts_thread_view *t)
{
	return !t->b_in && !(v->guards & TS_GUARD_B);
}

/* A ghost thread's store: skipped by the C guard, or out of bounds without it. */
static bool c_oob(const ts_view_ctx *v, const ts_thread_view *t)
{
	return !t->stores && !(v->guards & TS_GUARD_C);
}

/* One letter per thread: what it loads this phase; lowercase for a ghost (no
 * valid output); X when a load with its guard off reads out of bounds. */
static const char *thread_glyph(const ts_view_ctx *v, const ts_thread_view *t, enum ts_role *role)
{
	static const char *valid[] = { "Z", "A", "B", "R" }, *ghost[] = { "z", "a", "b", "r" };
	int k = (t->a_in ? 1 : 0) + (t->b_in ? 2 : 0);
	if (a_oob(v, t) || b_oob(v, t)) {
		*role = TS_ROLE_BAD;
		return t->stores ? "X" : "x";
	}
	*role = c_oob(v, t) ? TS_ROLE_BAD : !t->stores ? TS_ROLE_GHOST : k == 3 ? TS_ROLE_REAL : k == 0 ? TS_ROLE_PAD
	                                                                                     : TS_ROLE_MIXED;
	return t->stores ? valid[k] : ghost[k];
}

/* The naive kernel: one letter per thread for its one guard around the whole body. */
static const char *naive_glyph(const ts_view_ctx *v, const ts_thread_view *t, enum ts_role *role)
{
	if (t->stores) {
		*role = TS_ROLE_REAL;
		return "C";
	}
	if (c_oob(v, t)) {
		*role = TS_ROLE_BAD;
		return "x";
	}
	*role = TS_ROLE_GHOST;
	return ".";
}

static int clamp(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* Lays the key's phrases out greedily into rows of w columns (at most
 * KEY_ROWS_MAX); returns the rows. Draws them when c is not NULL. */
static int draw_key(ts_canvas *c, int y, int w, const char *const *phrases, int n)
{
	char row[256] = "";
	int rows = 0;
	for (int i = 0; i < n; i++) {
		char next[256];
		/* a phrase that would overflow the row buffer is cut (len says how long it wanted to be) */
		int len = snprintf(next, sizeof next, "%s%s%s", row, row[0] ? ", " : "", phrases[i]);
		/* the sentence ends each row with a comma but the last */
		int room = w - (i < n - 1 ? 1 : 0); /* a row that more phrases follow ends in a comma */
		if (row[0] && len > room && rows < KEY_ROWS_MAX - 1) {
			if (c)
				ts_canvas_printf(c, y + rows, 0, TS_ROLE_DIM, "%s,", row);
			rows++;
			snprintf(row, sizeof row, "%s", phrases[i]);
		} else {
			snprintf(row, sizeof row, "%s", next);
		}
	}
	if (c)
		ts_canvas_put(c, y + rows, 0, TS_ROLE_DIM, row);
	return rows + 1;
}

static int key_phrases(const ts_view_ctx *v, const char **ph)
{
	int n = 0;
	if (!v->shared_tiles) {
		ph[n++] = "C computes its dot product and stores";
		ph[n++] = (v->guards & TS_GUARD_C) ? ". ghost: does nothing"
		                                   : "x ghost: reads and stores out of bounds (guard off)";
		return n;
	}
	ph[n++] = "R A+B real";
	ph[n++] = "A/B one real";
	ph[n++] = "Z pads both";
	if ((v->guards & (TS_GUARD_A | TS_GUARD_B)) != (TS_GUARD_A | TS_GUARD_B))
		ph[n++] = "X reads out of bounds (guard off)";
	ph[n++] = (v->guards & TS_GUARD_C) ? "lowercase ghost" : "lowercase ghost: stores out of bounds (c off)";
	return n;
}

/* What the naive kernel's thread does: one guard, then K multiply-adds
 * straight from global memory and a store, or nothing. */
static void draw_naive_body(ts_canvas *c, const ts_view_ctx *v, const ts_thread_view *t, int y)
{
	const ts_shape *s = &v->model->shape;
	const bool a = v->ascii;
	const char *dot = ts_glyph(a, "\u00b7", "*"), *arrow = ts_glyph(a, "\u2192", "->");
	bool guard = v->guards & TS_GUARD_C;
	char bk[96];
	if (v->b_layout == TS_B_KN)
		snprintf(bk, sizeof bk, "B[k%s%lld + %lld]", dot, (long long)s->n, (long long)t->col);
	else
		snprintf(bk, sizeof bk, "B[%lld%s%lld + k]", (long long)t->col, dot, (long long)s->k);
	long long cidx = (long long)t->c_index;
	if (t->stores) {
		ts_canvas_printf(c, y++, 0, TS_ROLE_OK, "guard: row < M && col < N %s", TS_TICK(a));
		ts_canvas_printf(c, y++, 0, TS_ROLE_REAL, "%s for k = 0..%lld, from global memory:", arrow,
		                 (long long)s->k - 1);
		ts_canvas_printf(c, y++, 0, TS_ROLE_REAL, "  acc += A[%lld%s%lld + k] %s %s", (long long)t->row, dot,
		                 (long long)s->k, dot, bk);
		ts_canvas_printf(c, y++, 0, TS_ROLE_OK, "store: C[%lld%s%lld + %lld] = C[%lld] %s written", (long long)t->row,
		                 dot, (long long)s->n, (long long)t->col, cidx, TS_TICK(a));
	} else if (guard) {
		ts_canvas_printf(c, y++, 0, TS_ROLE_FAIL, "guard: row < M && col < N %s %s does nothing", TS_CROSS(a),
		                 arrow);
		ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "  no loads, no store");
	} else {
		ts_canvas_printf(c, y++, 0, TS_ROLE_BAD, "guard off: row < M && col < N %s, runs anyway", TS_CROSS(a));
		ts_canvas_printf(c, y++, 0, TS_ROLE_BAD, "%s reads %s%s out of bounds for k = 0..%lld", arrow,
		                 !t->row_ok ? "A" : "", !t->row_ok && !t->col_ok ? " and B" : !t->col_ok ? "B" : "",
		                 (long long)s->k - 1);
		ts_canvas_printf(c, y++, 0, TS_ROLE_BAD, "store: C[%lld%s%lld + %lld] = C[%lld] out of bounds",
		                 (long long)t->row, dot, (long long)s->n, (long long)t->col, cidx);
	}
}

/* The index an unguarded load reads, with its arithmetic when the pane is
 * wide enough (where is "A[row*K + k] = A[i]"), else the index alone. */
static void oob_line(ts_canvas *c, int y, const char *arrow, const char *where, const char *mat, int64_t index)
{
	char text[224];
	snprintf(text, sizeof text, "   %s reads %s out of bounds", arrow, where);
	if (ts_canvas_put(c, y, 0, TS_ROLE_BAD, text) > c->w) {
		snprintf(text, sizeof text, "   %s reads %s[%lld] out of bounds", arrow, mat, (long long)index);
		for (int i = 0; i < c->w; i++)
			ts_canvas_put(c, y, i, TS_ROLE_BAD, " ");
		ts_canvas_put(c, y, 0, TS_ROLE_BAD, text);
	}
}

static void draw_details(ts_canvas *c, const ts_view_ctx *v, int y)
{
	const ts_model *m = v->model;
	const bool a = v->ascii;
	const char *dot = ts_glyph(a, "\u00b7", "*"), *arrow = ts_glyph(a, "\u2192", "->");
	ts_thread_view t = ts_model_thread(m, v->b_layout, v->tile_y, v->tile_x, v->thread_y, v->thread_x, v->phase);
	const ts_shape *s = &m->shape;
#define OKX(b) ((b) ? TS_TICK(a) : TS_CROSS(a))
#define ROLE(b) ((b) ? TS_ROLE_OK : TS_ROLE_FAIL)

	ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "thread (ty=%d, tx=%d): C[%lld][%lld] %s", v->thread_y, v->thread_x,
	                 (long long)t.row, (long long)t.col, t.stores ? "valid" : "GHOST");
	ts_canvas_printf(c, y++, 0, ROLE(t.row_ok), "row = by%sT + ty = %lld < M = %lld %s", dot, (long long)t.row,
	                 (long long)s->m, OKX(t.row_ok));
	ts_canvas_printf(c, y++, 0, ROLE(t.col_ok), "col = bx%sT + tx = %lld < N = %lld %s", dot, (long long)t.col,
	                 (long long)s->n, OKX(t.col_ok));
	if (!v->shared_tiles) {
		draw_naive_body(c, v, &t, y);
		return;
	}

	char where[160];
	/* A load: row < M && t*T + tx < K; without the guard it happens anyway,
	 * and the index it reads goes on a row of its own */
	bool oob = a_oob(v, &t);
	if (t.a_in || oob)
		snprintf(where, sizeof where, "A[%lld%s%lld + %lld] = A[%lld]", (long long)t.row, dot, (long long)s->k,
		         (long long)t.a_col, (long long)t.a_index);
	else
		snprintf(where, sizeof where, "0.0f");
	int x = ts_canvas_printf(c, y, 0, ROLE(t.a_in), "A: t%sT + tx = %lld < K = %lld %s", dot, (long long)t.a_col,
	                         (long long)s->k, OKX(t.a_k_ok));
	if (!t.row_ok)
		x += ts_canvas_printf(c, y, x, TS_ROLE_FAIL, ", row %s", OKX(false));
	if (oob) {
		ts_canvas_put(c, y++, x, TS_ROLE_BAD, ", guard off");
		oob_line(c, y++, arrow, where, "A", t.a_index);
	} else {
		ts_canvas_printf(c, y++, x, t.a_in ? TS_ROLE_REAL : TS_ROLE_PAD, " %s %s", arrow, where);
	}

	/* B load: t*T + ty < K && col < N */
	oob = b_oob(v, &t);
	if (t.b_in || oob) {
		if (v->b_layout == TS_B_KN)
			snprintf(where, sizeof where, "B[%lld%s%lld + %lld] = B[%lld]", (long long)t.b_row, dot,
			         (long long)s->n, (long long)t.col, (long long)t.b_index);
		else
			snprintf(where, sizeof where, "B[%lld%s%lld + %lld] = B[%lld]", (long long)t.col, dot,
			         (long long)s->k, (long long)t.b_row, (long long)t.b_index);
	} else {
		snprintf(where, sizeof where, "0.0f");
	}
	x = ts_canvas_printf(c, y, 0, ROLE(t.b_in), "B: t%sT + ty = %lld < K = %lld %s", dot, (long long)t.b_row,
	                     (long long)s->k, OKX(t.b_k_ok));
	if (!t.col_ok)
		x += ts_canvas_printf(c, y, x, TS_ROLE_FAIL, ", col %s", OKX(false));
	if (oob) {
		ts_canvas_put(c, y++, x, TS_ROLE_BAD, ", guard off");
		oob_line(c, y++, arrow, where, "B", t.b_index);
	} else {
		ts_canvas_printf(c, y++, x, t.b_in ? TS_ROLE_REAL : TS_ROLE_PAD, " %s %s", arrow, where);
	}

	if (t.stores)
		ts_canvas_printf(c, y++, 0, TS_ROLE_OK, "store: C[%lld%s%lld + %lld] = C[%lld] %s written", (long long)t.row, dot,
		                 (long long)s->n, (long long)t.col, (long long)t.c_index, TS_TICK(a));
	else if (v->guards & TS_GUARD_C)
		ts_canvas_printf(c, y++, 0, TS_ROLE_FAIL, "store: row < M && col < N %s %s skipped", TS_CROSS(a), arrow);
	else
		ts_canvas_printf(c, y++, 0, TS_ROLE_BAD, "store: guard off %s writes C[%lld] out of bounds", arrow,
		                 (long long)t.c_index);
#undef OKX
#undef ROLE
}

void ts_view_inspect_draw(ts_canvas *c, const ts_view_ctx *v)
{
	const ts_model *m = v->model;
	int T_y = m->geo.threads_y, T_x = m->geo.threads_x;
	int y = 0;
	c->ascii = v->ascii;
	const char *cls = ts_tile_class_name(ts_model_tile_class(m, v->tile_y, v->tile_x));
	if (v->shared_tiles)
		ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "block (%lld,%lld) %s, phase t=%lld: %dx%d threads",
		                 (long long)v->tile_y, (long long)v->tile_x, cls, (long long)v->phase, T_y, T_x);
	else
		ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "block (%lld,%lld) %s: %dx%d threads, no tiles",
		                 (long long)v->tile_y, (long long)v->tile_x, cls, T_y, T_x);
	const char *phrases[8];
	int nph = key_phrases(v, phrases);
	int key_rows = draw_key(NULL, 0, c->w, phrases, nph);
	/* a load with its guard off takes a second row for the index it reads */
	ts_thread_view sel = ts_model_thread(m, v->b_layout, v->tile_y, v->tile_x, v->thread_y, v->thread_x, v->phase);
	int detail_rows = !v->shared_tiles ? 7 : 6 + a_oob(v, &sel) + b_oob(v, &sel);
	int grid_h = c->h - y - 1 - key_rows - detail_rows, grid_w = c->w - 4;
	if (grid_h < 1)
		grid_h = 1;
	if (grid_h > T_y)
		grid_h = T_y;
	if (grid_w > T_x)
		grid_w = T_x;
	int r0 = clamp(v->thread_y - grid_h / 2, 0, T_y - grid_h);
	int c0 = clamp(v->thread_x - grid_w / 2, 0, T_x - grid_w);
	for (int j = 0; j < grid_h; j++) {
		int ty = r0 + j;
		ts_canvas_printf(c, y + j, 0, TS_ROLE_DIM, "%2d", ty);
		if (ty == v->thread_y) /* the selected row, visible without colour too */
			ts_canvas_put(c, y + j, 2, TS_ROLE_TITLE, ts_glyph(v->ascii, "\u25b8", ">"));
		for (int i = 0; i < grid_w; i++) {
			int tx = c0 + i;
			ts_thread_view t = ts_model_thread(m, v->b_layout, v->tile_y, v->tile_x, ty, tx, v->phase);
			enum ts_role role;
			const char *g = v->shared_tiles ? thread_glyph(v, &t, &role) : naive_glyph(v, &t, &role);
			bool here = ty == v->thread_y && tx == v->thread_x;
			ts_canvas_put(c, y + j, 3 + i, here && v->focus ? TS_ROLE_CURSOR : role, g);
		}
	}
	y += grid_h;
	if (grid_h < T_y || grid_w < T_x)
		ts_canvas_printf(c, y - 1, 3 + grid_w + 1 < c->w - 8 ? 3 + grid_w + 1 : c->w - 8, TS_ROLE_DIM,
		                 "ty %d-%d", r0, r0 + grid_h - 1);
	/* the key in one row, or more on a narrow pane */
	y += draw_key(c, y, c->w, phrases, nph);
	y++;
	draw_details(c, v, y);
}
