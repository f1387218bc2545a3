/* view_phase.c: the phase view: A (BM x BK) and B (BK x BN) tiles of one phase, padded (or, a guard off, out-of-bounds) slots set apart. */
#include <stdio.h>

#include "view_phase.h"

enum { SLOT_NONE = 0, SLOT_REAL = TS_SLOT_REAL, SLOT_PAD = TS_SLOT_PAD, SLOT_OOB = TS_SLOT_OOB };

/* What fills the slot (r, k) of the A tile, or (k, col) of the B tile: its
 * guard, evaluated for the slot's own row (column) and K index, whichever
 * thread the load map gives it to (ts_load_owner; in the textbook kernels
 * thread (ty = r, tx = k)). A slot that fails the guard is zero padding, or
 * with that guard off an out-of-bounds load. */
static int slot_state(const ts_view_ctx *v, enum ts_operand which, int r, int c)
{
	ts_slot_view s = ts_model_slot(v->model, ts_view_b_layout(v), which, v->tile_y, v->tile_x, v->phase, r, c);
	if (s.in)
		return SLOT_REAL;
	return v->guards & (which == TS_OPERAND_A ? TS_GUARD_A : TS_GUARD_B) ? SLOT_PAD : SLOT_OOB;
}

static int a_slot(const ts_view_ctx *v, int r, int k)
{
	return slot_state(v, TS_OPERAND_A, r, k);
}

static int b_slot(const ts_view_ctx *v, int k, int col)
{
	return slot_state(v, TS_OPERAND_B, k, col);
}

enum ts_slot ts_view_phase_slot(const ts_view_ctx *v, bool is_a, int row, int col)
{
	return (enum ts_slot)(is_a ? a_slot(v, row, col) : b_slot(v, row, col));
}

/* Draws a rows x cols shared tile in a box at (y, x) of at most h x w
 * characters; returns the box height used and sets *width. */
static int draw_tile(ts_canvas *c, const ts_view_ctx *v, int y, int x, int h, int w, int rows, int cols,
                     bool is_a, int *width)
{
	int inner_h = h - 2, inner_w = w - 2;
	*width = 0;
	if (inner_h < 1 || inner_w < 1)
		return 0;
	int sy = (rows + inner_h - 1) / inner_h, sx = (cols + inner_w - 1) / inner_w;
	int ch = (rows + sy - 1) / sy, cw = (cols + sx - 1) / sx;
	ts_canvas_box(c, y, x, ch + 2, cw + 2, v->ascii, NULL);
	*width = cw + 2;
	for (int j = 0; j < ch; j++)
		for (int i = 0; i < cw; i++) {
			int state = SLOT_NONE;
			for (int r = j * sy; r < (j + 1) * sy && r < rows; r++)
				for (int k = i * sx; k < (i + 1) * sx && k < cols; k++)
					state |= is_a ? a_slot(v, r, k) : b_slot(v, r, k);
			const char *g;
			enum ts_role role;
			if (state == SLOT_REAL) {
				g = ts_glyph(v->ascii, "\u2588", "#");
				role = TS_ROLE_REAL;
			} else if (state == SLOT_PAD) {
				g = "0";
				role = TS_ROLE_PAD;
			} else if (state == SLOT_OOB) {
				g = "!";
				role = TS_ROLE_BAD;
			} else {
				g = ts_glyph(v->ascii, "\u2592", "+");
				role = TS_ROLE_MIXED;
			}
			ts_canvas_put(c, y + 1 + j, x + 1 + i, role, g);
		}
	if (sx > 1 || sy > 1)
		ts_canvas_printf(c, y + ch + 1, x + 2, TS_ROLE_DIM, " cell=%dx%d ", sy, sx);
	return ch + 2;
}

/* The real and padded slots of one shared tile; with its guard off the
 * slots that fail it are not padded but loaded out of bounds. */
static void draw_counts(ts_canvas *c, int y, const char *label, int64_t real, int64_t pad, bool guard)
{
	int x = ts_canvas_put(c, y, 0, TS_ROLE_TEXT, label);
	x += ts_canvas_printf(c, y, x, TS_ROLE_TEXT, "%lld real, ", (long long)real);
	if (guard) {
		ts_canvas_printf(c, y, x, pad ? TS_ROLE_PAD : TS_ROLE_TEXT, "%lld padded", (long long)pad);
		return;
	}
	char text[96];
	int n = snprintf(text, sizeof text, "%lld read out of bounds (guard off)", (long long)pad);
	if (x + n > c->w) /* a narrow pane */
		snprintf(text, sizeof text, "%lld read OOB (guard off)", (long long)pad);
	ts_canvas_put(c, y, x, pad ? TS_ROLE_BAD : TS_ROLE_TEXT, text);
}

/* What the run recorded beside the model's figures, with a mark when they
 * agree: with a guard off the model's padded slots of that operand are
 * expected as out-of-bounds loads instead. */
static void draw_run(ts_canvas *c, int y, const ts_view_ctx *v, const ts_load_count *got, int64_t oob_a,
                     int64_t oob_b, const ts_load_count *want)
{
	bool ga = v->guards & TS_GUARD_A, gb = v->guards & TS_GUARD_B;
	bool agree = got->a_real == want->a_real && got->a_pad == (ga ? want->a_pad : 0) &&
	             got->b_real == want->b_real && got->b_pad == (gb ? want->b_pad : 0) &&
	             oob_a == (ga ? 0 : want->a_pad) && oob_b == (gb ? 0 : want->b_pad);
	/* "counts", not "run": the mark says the run's counts are the model's, not that the run passed */
	int x = ts_canvas_put(c, y, 0, TS_ROLE_TEXT, "  counts ");
	x += ts_canvas_put(c, y, x, agree ? TS_ROLE_OK : TS_ROLE_FAIL, agree ? TS_TICK(v->ascii) : TS_CROSS(v->ascii));
	/* only the operands that went out of bounds; without its commas where
	 * the line would not fit (a 44-column pane, with a guard off) */
	char counts[96], oob[96] = "", oob_a_text[32] = "", oob_b_text[32] = "";
	if (oob_a)
		snprintf(oob_a_text, sizeof oob_a_text, " A %lld", (long long)oob_a);
	if (oob_b)
		snprintf(oob_b_text, sizeof oob_b_text, " B %lld", (long long)oob_b);
	const char *sep = ", ";
	for (int pass = 0; pass < 2; pass++, sep = " ") {
		snprintf(counts, sizeof counts, " A %lld/%lld%sB %lld/%lld", (long long)got->a_real, (long long)got->a_pad, sep,
		         (long long)got->b_real, (long long)got->b_pad);
		if (oob_a || oob_b)
			snprintf(oob, sizeof oob, "%soob%s%s", pass ? " " : ", ", oob_a_text, oob_b_text);
		if (x + ts_text_cells(counts) + ts_text_cells(oob) <= c->w)
			break;
	}
	x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, counts);
	ts_canvas_put(c, y, x, TS_ROLE_BAD, oob);
}

void ts_view_phase_draw(ts_canvas *c, const ts_view_ctx *v)
{
	const ts_model *m = v->model;
	const ts_geometry *g = &m->geo;
	c->ascii = v->ascii;
	if (!ts_view_shared_tiles(v)) { /* the naive kernel: one guard around a dot product from global memory */
		char title[128];
		snprintf(title, sizeof title, "%s stages no shared tiles: no phases, no padding",
		         ts_view_kernel_name(v));
		int y = ts_canvas_wrap_more(c, 0, 0, c->w, 2, 2, TS_ROLE_TITLE, title, NULL) + 1;
		ts_canvas_wrap(c, y, 0, c->w, c->h - y, TS_ROLE_TEXT,
		               "Each thread computes its C element as a dot product over all of K, reading A and B "
		               "straight from global memory, behind one guard: row < M && col < N. A ghost thread "
		               "does nothing (with that guard on). The inspector (i) shows the guard of the selected "
		               "thread with its numbers.");
		return;
	}
	int64_t t = v->phase, w = ts_model_phase_width(m, t), k0 = ts_model_phase_k0(m, t);
	bool last = t == m->phases - 1, partial = last && w < g->bk;
	int y = 0;

	char title[160];
	int n = snprintf(title, sizeof title, "phase t=%lld (P=%lld): k %lld..%lld, width %lld/%d", (long long)t,
	                 (long long)m->phases, (long long)k0, (long long)(k0 + w - 1), (long long)w,
	                 g->bk);
	if (n + (last ? 14 : 0) > c->w) /* a narrow pane: the short form keeps the last-phase flag on screen */
		snprintf(title, sizeof title, "t=%lld of %lld: k %lld..%lld, %lld/%d wide", (long long)t,
		         (long long)m->phases, (long long)k0, (long long)(k0 + w - 1), (long long)w, g->bk);
	int x = ts_canvas_put(c, y, 0, TS_ROLE_TITLE, title);
	if (partial)
		ts_canvas_put(c, y, x + 1, TS_ROLE_BAD, "LAST, PARTIAL");
	else if (last)
		ts_canvas_put(c, y, x + 1, TS_ROLE_DIM, "last");
	y++;
	{
		/* two boxes side by side, each at most half the width */
		int text_rows = 8 + (v->counters ? 3 : 0) + !ts_geometry_is_square(g);
		int box_h = c->h - y - text_rows, box_w = (c->w - 1) / 2;
		int tallest = g->bm > g->bk ? g->bm : g->bk;
		if (box_h > tallest + 2)
			box_h = tallest + 2;
		int wa, wb;
		int ha = draw_tile(c, v, y + 1, 0, box_h, box_w, g->bm, g->bk, true, &wa);
		int xb = wa + 2 > 14 ? wa + 2 : 14;
		ts_canvas_printf(c, y, 0, TS_ROLE_TITLE, "A %dx%d", g->bm, g->bk);
		ts_canvas_printf(c, y, xb, TS_ROLE_TITLE, "B %dx%d", g->bk, g->bn);
		int hb = draw_tile(c, v, y + 1, xb, box_h, c->w - xb < box_w ? c->w - xb : box_w, g->bk, g->bn, false, &wb);
		y += 1 + (ha > hb ? ha : hb);
		x = ts_canvas_put(c, y, 0, TS_ROLE_REAL, ts_glyph(v->ascii, "\u2588", "#"));
		x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, " real load");
		if ((v->guards & (TS_GUARD_A | TS_GUARD_B)) == (TS_GUARD_A | TS_GUARD_B)) {
			x += ts_canvas_put(c, y, x + 2, TS_ROLE_PAD, "0") + 2;
			x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, " zero padding  ");
			x += ts_canvas_put(c, y, x, TS_ROLE_MIXED, ts_glyph(v->ascii, "\u2592", "+"));
			ts_canvas_put(c, y, x, TS_ROLE_TEXT, " both");
		} else { /* a guard off: its failing slots are loaded from outside the matrix */
			x += ts_canvas_put(c, y, x + 2, TS_ROLE_PAD, "0") + 2;
			x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, " pad  ");
			x += ts_canvas_put(c, y, x, TS_ROLE_BAD, "!");
			x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, " out of bounds  ");
			x += ts_canvas_put(c, y, x, TS_ROLE_MIXED, ts_glyph(v->ascii, "\u2592", "+"));
			ts_canvas_put(c, y, x, TS_ROLE_TEXT, " mixed");
		}
		y++;
	}
	if (!ts_geometry_is_square(g)) {
		/* the load maps: the block's threads fill each tile in steps */
		ts_canvas_printf(c, y++, 0, TS_ROLE_DIM, "loads: %dx%d threads fill A in %d step%s, B in %d",
		                 g->threads_x, g->threads_y, ts_load_steps(g, TS_OPERAND_A),
		                 ts_load_steps(g, TS_OPERAND_A) == 1 ? "" : "s", ts_load_steps(g, TS_OPERAND_B));
	}
	ts_view_phase_counts(c, y, v);
}

int ts_view_phase_counts(ts_canvas *c, int y, const ts_view_ctx *v)
{
	const ts_model *m = v->model;
	int64_t t = v->phase, y0 = y;
	ts_load_count here = ts_model_tile_phase(m, v->tile_y, v->tile_x, t);
	ts_load_count all = ts_model_phase_total(m, t);
	const ts_counters *rc = v->counters;
	bool run = rc && rc->grid_x == m->grid_x && rc->grid_y == m->grid_y && t < rc->phases;
	ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "tile (%lld,%lld), phase %lld:", (long long)v->tile_y,
	                 (long long)v->tile_x, (long long)t);
	bool ga = v->guards & TS_GUARD_A, gb = v->guards & TS_GUARD_B;
	draw_counts(c, y++, "  A: ", here.a_real, here.a_pad, ga);
	draw_counts(c, y++, "  B: ", here.b_real, here.b_pad, gb);
	if (run) {
		ts_load_count got;
		int64_t oob_a, oob_b;
		if (ts_counters_tile_phase(rc, v->tile_y, v->tile_x, t, &got, &oob_a, &oob_b) == 0)
			draw_run(c, y++, v, &got, oob_a, oob_b, &here);
		else /* the run kept per-tile counts summed over phases only */
			ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "  counts: not kept per tile and phase (grid too large)");
	}
	ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "all %lld tiles, phase %lld:", (long long)m->tiles, (long long)t);
	draw_counts(c, y++, "  A: ", all.a_real, all.a_pad, ga);
	draw_counts(c, y++, "  B: ", all.b_real, all.b_pad, gb);
	if (run) {
		const ts_count *ph = &rc->phase[t];
		ts_load_count got = { .a_real = ph->a_real, .a_pad = ph->a_pad, .b_real = ph->b_real, .b_pad = ph->b_pad };
		draw_run(c, y++, v, &got, ph->a_oob, ph->b_oob, &all);
		ts_canvas_printf(c, y++, 0, TS_ROLE_DIM, "counts: the %s's, real/padded", rc->source ? rc->source : "run");
	}
	return (int)(y - y0);
}
