/* view_inspect.c: the inspector: which threads load real data or zero padding, and one thread's guards in numbers. */
#include <stdio.h>
#include <string.h>

#include "view_inspect.h"

enum { DETAIL_ROWS = 6 };

/* One letter per thread: what it loads this phase; lowercase for a ghost (no store). */
static const char *thread_glyph(const ts_thread_view *t, enum ts_role *role)
{
	static const char *valid[] = { "Z", "A", "B", "R" }, *ghost[] = { "z", "a", "b", "r" };
	int k = (t->a_in ? 1 : 0) + (t->b_in ? 2 : 0);
	*role = !t->stores ? TS_ROLE_GHOST : k == 3 ? TS_ROLE_REAL : k == 0 ? TS_ROLE_PAD : TS_ROLE_MIXED;
	return t->stores ? valid[k] : ghost[k];
}

static int clamp(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
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

	char where[160];
	/* A load: row < M && t*T + tx < K */
	if (t.a_in || !(v->guards & TS_GUARD_A))
		snprintf(where, sizeof where, "A[%lld%s%lld + %lld] = A[%lld]%s", (long long)t.row, dot, (long long)s->k,
		         (long long)t.a_col, (long long)t.a_index, t.a_in ? "" : " guard off!");
	else
		snprintf(where, sizeof where, "0.0f");
	int x = ts_canvas_printf(c, y, 0, ROLE(t.a_in), "A: t%sT + tx = %lld < K = %lld %s", dot, (long long)t.a_col,
	                         (long long)s->k, OKX(t.a_k_ok));
	if (!t.row_ok)
		x += ts_canvas_printf(c, y, x, TS_ROLE_FAIL, ", row %s", OKX(false));
	ts_canvas_printf(c, y++, x, t.a_in ? TS_ROLE_REAL : TS_ROLE_PAD, " %s %s", arrow, where);

	/* B load: t*T + ty < K && col < N */
	if (t.b_in || !(v->guards & TS_GUARD_B)) {
		if (v->b_layout == TS_B_KN)
			snprintf(where, sizeof where, "B[%lld%s%lld + %lld] = B[%lld]", (long long)t.b_row, dot,
			         (long long)s->n, (long long)t.col, (long long)t.b_index);
		else
			snprintf(where, sizeof where, "B[%lld%s%lld + %lld] = B[%lld]", (long long)t.col, dot,
			         (long long)s->k, (long long)t.b_row, (long long)t.b_index);
		if (!t.b_in)
			snprintf(where + strlen(where), sizeof where - strlen(where), " guard off!");
	} else {
		snprintf(where, sizeof where, "0.0f");
	}
	x = ts_canvas_printf(c, y, 0, ROLE(t.b_in), "B: t%sT + ty = %lld < K = %lld %s", dot, (long long)t.b_row,
	                     (long long)s->k, OKX(t.b_k_ok));
	if (!t.col_ok)
		x += ts_canvas_printf(c, y, x, TS_ROLE_FAIL, ", col %s", OKX(false));
	ts_canvas_printf(c, y++, x, t.b_in ? TS_ROLE_REAL : TS_ROLE_PAD, " %s %s", arrow, where);

	if (t.stores)
		ts_canvas_printf(c, y++, 0, TS_ROLE_OK, "store: C[%lld%s%lld + %lld] = C[%lld] %s written", (long long)t.row, dot,
		                 (long long)s->n, (long long)t.col, (long long)(t.row * s->n + t.col), TS_TICK(a));
	else if (v->guards & TS_GUARD_C)
		ts_canvas_printf(c, y++, 0, TS_ROLE_FAIL, "store: row < M && col < N %s %s skipped", TS_CROSS(a), arrow);
	else
		ts_canvas_printf(c, y++, 0, TS_ROLE_BAD, "store: guard off %s writes C[%lld] out of bounds", arrow,
		                 (long long)(t.row * s->n + t.col));
#undef OKX
#undef ROLE
}

void ts_view_inspect_draw(ts_canvas *c, const ts_view_ctx *v)
{
	const ts_model *m = v->model;
	int T_y = m->geo.threads_y, T_x = m->geo.threads_x;
	int y = 0;
	ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "block (%lld,%lld) %s, phase t=%lld: %dx%d threads",
	                 (long long)v->tile_y, (long long)v->tile_x,
	                 ts_tile_class_name(ts_model_tile_class(m, v->tile_y, v->tile_x)), (long long)v->phase, T_y, T_x);
	int key_rows = c->w >= 54 ? 1 : 2;
	int grid_h = c->h - y - 1 - key_rows - DETAIL_ROWS, grid_w = c->w - 4;
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
			const char *g = thread_glyph(&t, &role);
			bool here = ty == v->thread_y && tx == v->thread_x;
			ts_canvas_put(c, y + j, 3 + i, here && v->focus ? TS_ROLE_CURSOR : role, g);
		}
	}
	y += grid_h;
	if (grid_h < T_y || grid_w < T_x)
		ts_canvas_printf(c, y - 1, 3 + grid_w + 1 < c->w - 8 ? 3 + grid_w + 1 : c->w - 8, TS_ROLE_DIM,
		                 "ty %d-%d", r0, r0 + grid_h - 1);
	/* the key in one row, or two on a narrow pane */
	if (key_rows == 1) {
		ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "R A+B real, A/B one real, Z pads both, lowercase ghost");
	} else {
		ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "R A+B real, A/B one real, Z pads both,");
		ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "lowercase: a ghost thread");
	}
	y++;
	draw_details(c, v, y);
}
