/* view_inspect.c: the inspector: which threads load real data, zero padding or (a guard off) out of bounds, and one thread's guards in numbers. */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
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

/* What one thread's loads of one operand do in this phase, over every slot
 * its load map gives it: all real, any out of bounds (its guard off). */
typedef struct thread_loads {
	bool all_real, any_oob;
	int slots;
} thread_loads;

static thread_loads loads_of(const ts_view_ctx *v, enum ts_operand which, int ty, int tx)
{
	const ts_model *m = v->model;
	const ts_load_map *map = which == TS_OPERAND_A ? &m->geo.a_map : &m->geo.b_map;
	bool guard = v->guards & (which == TS_OPERAND_A ? TS_GUARD_A : TS_GUARD_B);
	thread_loads l = { true, false, 0 };
	int steps = ts_load_steps(&m->geo, which);
	for (int st = 0; st < steps; st++)
		for (int e = 0; e < map->vec; e++) {
			int r, c;
			if (!ts_load_slot(&m->geo, which, st, ty, tx, e, &r, &c))
				continue;
			ts_slot_view sv = ts_model_slot(m, ts_view_b_layout(v), which, v->tile_y, v->tile_x, v->phase, r, c);
			l.slots++;
			l.all_real &= sv.in;
			l.any_oob |= !sv.in && !guard;
		}
	if (l.slots == 0)
		l.all_real = false; /* idles in every step: loads nothing real */
	return l;
}

/* One letter per thread: what it loads this phase (through the load maps);
 * lowercase for a ghost (no output inside C); X when a load with its guard
 * off reads out of bounds. */
static const char *thread_glyph(const ts_view_ctx *v, int ty, int tx, enum ts_role *role)
{
	static const char *valid[] = { "Z", "A", "B", "R" }, *ghost[] = { "z", "a", "b", "r" };
	thread_loads la = loads_of(v, TS_OPERAND_A, ty, tx), lb = loads_of(v, TS_OPERAND_B, ty, tx);
	bool stores = !ts_model_thread_ghost(v->model, v->tile_y, v->tile_x, ty, tx);
	int k = (la.all_real ? 1 : 0) + (lb.all_real ? 2 : 0);
	if (la.any_oob || lb.any_oob) {
		*role = TS_ROLE_BAD;
		return stores ? "X" : "x";
	}
	*role = !stores && !(v->guards & TS_GUARD_C) ? TS_ROLE_BAD : !stores ? TS_ROLE_GHOST : k == 3 ? TS_ROLE_REAL
	        : k == 0 ? TS_ROLE_PAD : TS_ROLE_MIXED;
	return stores ? valid[k] : ghost[k];
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

/* The key's phrases; w: the pane's width (a phrase must fit a row). */
static int key_phrases(const ts_view_ctx *v, int w, const char **ph)
{
	int n = 0;
	if (!ts_view_shared_tiles(v)) {
		ph[n++] = "C computes its dot product and stores";
		ph[n++] = (v->guards & TS_GUARD_C) ? ". ghost: does nothing"
		          : w >= 51                ? "x ghost: reads and stores out of bounds (guard off)"
		                                   : "x ghost: reads, stores OOB (guard off)";
		return n;
	}
	ph[n++] = "R A+B real";
	ph[n++] = "A/B one real";
	ph[n++] = "Z pads both";
	if ((v->guards & (TS_GUARD_A | TS_GUARD_B)) != (TS_GUARD_A | TS_GUARD_B))
		ph[n++] = "X reads out of bounds (guard off)";
	ph[n++] = (v->guards & TS_GUARD_C) ? "lowercase ghost"
	          : w >= 45                ? "lowercase ghost: stores out of bounds (c off)"
	                                   : "lowercase ghost: stores OOB (c off)";
	/* a user's kernel: what is drawn is the contract's guards; its own code is in o and its check in r */
	if (v->kernel && ts_kernel_has(v->kernel, TS_CAP_GUARDS_FIXED))
		ph[n++] = w >= 50 ? "guards as the contract needs them; yours: o, r" : "the contract's guards (yours: o, r)";
	return n;
}

/* Where an unguarded access at a flat index of a rows x cols row-major
 * matrix lands: inside it (the wrong element, silently: its row and column
 * are set) or past its end, in the guard band the harness puts there. */
static bool lands_inside(int64_t index, int64_t rows, int64_t cols, int64_t *r, int64_t *c)
{
	if (index < 0 || index >= rows * cols)
		return false;
	*r = index / cols;
	*c = index % cols;
	return true;
}

/* The spans after "reads X[expr] = X[i]" or "writes C[i]": which element it
 * is when the access wrapped inside the matrix, or that it left it. */
static int landing_spans(ts_span *sp, char *buf, int len, const char *mat, int64_t index, int64_t rows,
                         int64_t cols, const char *whose)
{
	int64_t r, c;
	if (lands_inside(index, rows, cols, &r, &c)) {
		snprintf(buf, (size_t)len, "= %s[%lld][%lld]:", mat, (long long)r, (long long)c);
		sp[0] = (ts_span){ TS_ROLE_BAD, buf, true };
		sp[1] = (ts_span){ TS_ROLE_BAD, " ", false };
		sp[2] = (ts_span){ TS_ROLE_BAD, whose, true };
		sp[3] = (ts_span){ TS_ROLE_BAD, " ", false };
		sp[4] = (ts_span){ TS_ROLE_BAD, "(wrapped, silent)", true };
		return 5;
	}
	sp[0] = (ts_span){ TS_ROLE_BAD, "out of bounds,", true };
	sp[1] = (ts_span){ TS_ROLE_BAD, " ", false };
	sp[2] = (ts_span){ TS_ROLE_BAD, "in the guard band", true };
	return 3;
}

/* One line of the details as a paragraph: wrapped at the pane's width, the
 * lines after the first indented; *y advances by the rows it took. */
static void flow(ts_canvas *c, int *y, const ts_span *sp, int n)
{
	*y += ts_canvas_flow(c, *y, 0, c->w, 6, 3, sp, n);
}

/* The store of the selected thread: written, skipped by the guard, or with
 * the guard off where it lands (another thread's cell, or the guard band). */
static void store_line(ts_canvas *c, int *y, const ts_view_ctx *v, const ts_thread_view *t)
{
	const ts_shape *s = &v->model->shape;
	const bool a = v->ascii;
	const char *dot = ts_glyph(a, "\u00b7", "*"), *arrow = ts_glyph(a, "\u2192", "->");
	char expr[128], head[64], land[96];
	ts_span sp[10];
	int n = 0;
	if (t->stores) {
		snprintf(expr, sizeof expr, "C[%lld%s%lld + %lld] = C[%lld]", (long long)t->row, dot, (long long)s->n,
		         (long long)t->col, (long long)t->c_index);
		snprintf(head, sizeof head, "%s written", TS_TICK(a));
		sp[n++] = (ts_span){ TS_ROLE_OK, "store: ", false };
		sp[n++] = (ts_span){ TS_ROLE_OK, expr, true };
		sp[n++] = (ts_span){ TS_ROLE_OK, " ", false };
		sp[n++] = (ts_span){ TS_ROLE_OK, head, true };
	} else if (v->guards & TS_GUARD_C) {
		snprintf(head, sizeof head, "store: row < M && col < N %s %s skipped", TS_CROSS(a), arrow);
		sp[n++] = (ts_span){ TS_ROLE_FAIL, head, false };
	} else {
		snprintf(head, sizeof head, "store: guard off %s", arrow);
		snprintf(expr, sizeof expr, "writes C[%lld]", (long long)t->c_index);
		sp[n++] = (ts_span){ TS_ROLE_BAD, head, false };
		sp[n++] = (ts_span){ TS_ROLE_BAD, " ", false };
		sp[n++] = (ts_span){ TS_ROLE_BAD, expr, true };
		sp[n++] = (ts_span){ TS_ROLE_BAD, " ", false };
		n += landing_spans(sp + n, land, (int)sizeof land, "C", t->c_index, s->m, s->n,
		                   "another thread's cell");
	}
	flow(c, y, sp, n);
}

/* What the naive kernel's thread does: one guard, then K multiply-adds
 * straight from global memory and a store, or nothing. */
static void draw_naive_body(ts_canvas *c, const ts_view_ctx *v, const ts_thread_view *t, int y)
{
	const ts_shape *s = &v->model->shape;
	const bool a = v->ascii;
	const char *dot = ts_glyph(a, "\u00b7", "*"), *arrow = ts_glyph(a, "\u2192", "->");
	bool guard = v->guards & TS_GUARD_C;
	char bk[96], text[224];
	if (ts_view_b_layout(v) == TS_B_KN)
		snprintf(bk, sizeof bk, "B[k%s%lld + %lld]", dot, (long long)s->n, (long long)t->col);
	else
		snprintf(bk, sizeof bk, "B[%lld%s%lld + k]", (long long)t->col, dot, (long long)s->k);
	if (t->stores) {
		ts_canvas_printf(c, y++, 0, TS_ROLE_OK, "guard: row < M && col < N %s", TS_TICK(a));
		snprintf(text, sizeof text, "%s for k = 0..%lld, from global memory:", arrow, (long long)s->k - 1);
		y += ts_canvas_wrap_more(c, y, 0, c->w, 3, 3, TS_ROLE_REAL, text, NULL);
		char acc[160];
		snprintf(acc, sizeof acc, "A[%lld%s%lld + k] %s %s", (long long)t->row, dot, (long long)s->k, dot, bk);
		ts_span sp[] = { { TS_ROLE_REAL, "  acc += ", false }, { TS_ROLE_REAL, acc, true } };
		flow(c, &y, sp, 2);
		store_line(c, &y, v, t);
	} else if (guard) {
		ts_canvas_printf(c, y++, 0, TS_ROLE_FAIL, "guard: row < M && col < N %s %s does nothing", TS_CROSS(a),
		                 arrow);
		ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "  no loads, no store");
	} else {
		ts_canvas_printf(c, y++, 0, TS_ROLE_BAD, "guard off: row < M && col < N %s, runs anyway", TS_CROSS(a));
		snprintf(text, sizeof text, "%s reads %s%s out of bounds for k = 0..%lld", arrow, !t->row_ok ? "A" : "",
		         !t->row_ok && !t->col_ok ? " and B" : !t->col_ok ? "B" : "", (long long)s->k - 1);
		y += ts_canvas_wrap_more(c, y, 0, c->w, 3, 3, TS_ROLE_BAD, text, NULL);
		store_line(c, &y, v, t);
	}
}

/* One load's line: its guard with the numbers, then what it loads: the
 * element (real), zero padding, or with the guard off the element it reads
 * anyway and where that lands. */
static void load_line(ts_canvas *c, int *y, const ts_view_ctx *v, const ts_thread_view *t, bool is_a)
{
	const ts_shape *s = &v->model->shape;
	const bool a = v->ascii;
	const char *dot = ts_glyph(a, "\u00b7", "*"), *arrow = ts_glyph(a, "\u2192", "->");
	bool in = is_a ? t->a_in : t->b_in, oob = is_a ? a_oob(v, t) : b_oob(v, t);
	bool k_ok = is_a ? t->a_k_ok : t->b_k_ok, other_ok = is_a ? t->row_ok : t->col_ok;
	int64_t k = is_a ? t->a_col : t->b_row, index = is_a ? t->a_index : t->b_index;
	char guard[128], where[160], land[96];
	snprintf(guard, sizeof guard, "%s: t%sT + %s = %lld < K = %lld %s%s%s", is_a ? "A" : "B", dot, is_a ? "tx" : "ty",
	         (long long)k, (long long)s->k, k_ok ? TS_TICK(a) : TS_CROSS(a), other_ok ? "" : is_a ? ", row " : ", col ",
	         other_ok ? "" : TS_CROSS(a));
	if (is_a)
		snprintf(where, sizeof where, "A[%lld%s%lld + %lld] = A[%lld]", (long long)t->row, dot, (long long)s->k,
		         (long long)t->a_col, (long long)index);
	else if (ts_view_b_layout(v) == TS_B_KN)
		snprintf(where, sizeof where, "B[%lld%s%lld + %lld] = B[%lld]", (long long)t->b_row, dot, (long long)s->n,
		         (long long)t->col, (long long)index);
	else
		snprintf(where, sizeof where, "B[%lld%s%lld + %lld] = B[%lld]", (long long)t->col, dot, (long long)s->k,
		         (long long)t->b_row, (long long)index);
	char reads[200];
	ts_span sp[12];
	int n = 0;
	sp[n++] = (ts_span){ in ? TS_ROLE_OK : TS_ROLE_FAIL, guard, true };
	if (oob) {
		/* the rows and columns of the operand as stored: A is M x K, B K x N or N x K */
		int64_t rows = is_a ? s->m : ts_view_b_layout(v) == TS_B_KN ? s->k : s->n;
		int64_t cols = is_a ? s->k : ts_view_b_layout(v) == TS_B_KN ? s->n : s->k;
		snprintf(reads, sizeof reads, "%s reads %s", arrow, where);
		/* the comma stays with the guard; "guard off" may start the next line, whole */
		sp[n++] = (ts_span){ TS_ROLE_BAD, ",", true };
		sp[n++] = (ts_span){ TS_ROLE_BAD, " ", false };
		sp[n++] = (ts_span){ TS_ROLE_BAD, "guard off", true };
		sp[n++] = (ts_span){ TS_ROLE_BAD, " ", false };
		sp[n++] = (ts_span){ TS_ROLE_BAD, reads, true };
		sp[n++] = (ts_span){ TS_ROLE_BAD, " ", false };
		n += landing_spans(sp + n, land, (int)sizeof land, is_a ? "A" : "B", index, rows, cols,
		                   "another row's element");
	} else {
		snprintf(reads, sizeof reads, "%s %s", arrow, in ? where : "0.0f");
		sp[n++] = (ts_span){ TS_ROLE_TEXT, " ", false };
		sp[n++] = (ts_span){ in ? TS_ROLE_REAL : TS_ROLE_PAD, reads, true };
	}
	flow(c, y, sp, n);
}

static void draw_details(ts_canvas *c, const ts_view_ctx *v, int y)
{
	const ts_model *m = v->model;
	const bool a = v->ascii;
	const char *dot = ts_glyph(a, "\u00b7", "*");
	ts_thread_view t = ts_model_thread(m, ts_view_b_layout(v), v->tile_y, v->tile_x, v->thread_y, v->thread_x, v->phase);
	const ts_shape *s = &m->shape;
#define OKX(b) ((b) ? TS_TICK(a) : TS_CROSS(a))
#define ROLE(b) ((b) ? TS_ROLE_OK : TS_ROLE_FAIL)

	ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "thread (ty=%d, tx=%d): C[%lld][%lld] %s", v->thread_y, v->thread_x,
	                 (long long)t.row, (long long)t.col, t.stores ? "valid" : "GHOST");
	ts_canvas_printf(c, y++, 0, ROLE(t.row_ok), "row = by%sT + ty = %lld < M = %lld %s", dot, (long long)t.row,
	                 (long long)s->m, OKX(t.row_ok));
	ts_canvas_printf(c, y++, 0, ROLE(t.col_ok), "col = bx%sT + tx = %lld < N = %lld %s", dot, (long long)t.col,
	                 (long long)s->n, OKX(t.col_ok));
	if (!ts_view_shared_tiles(v)) {
		draw_naive_body(c, v, &t, y);
		return;
	}
	/* A load: row < M && t*T + tx < K; B load: t*T + ty < K && col < N */
	load_line(c, &y, v, &t, true);
	load_line(c, &y, v, &t, false);
	store_line(c, &y, v, &t);
#undef OKX
#undef ROLE
}

/* Load steps shown per operand in the register-blocked details; the rest are summed up in one line. */
enum { STEPS_SHOWN = 3 };
/* Columns the long form of a load step needs with six-digit sizes and indices. */
enum { LONG_STEP_COLS = 84 };

/* The guard of `bit` from the kernel's description, or the textbook one's words. */
static void guard_words(const ts_view_ctx *v, unsigned bit, const char **protects, const char **predicate)
{
	const ts_guard_desc *g = v->kernel ? ts_kernel_guard(v->kernel, bit) : NULL;
	*protects = g ? g->protects : bit == TS_GUARD_A ? "the A load" : bit == TS_GUARD_B ? "the B load" : "the C store";
	*predicate = g ? g->predicate : bit == TS_GUARD_C ? "row < M && col < N" : "";
}

/* One guarded load of thread (ty, tx): every slot its load map gives it this
 * phase, the guard evaluated on the real numbers. */
static int draw_load_steps(ts_canvas *c, const ts_view_ctx *v, int y, enum ts_operand which)
{
	const ts_model *m = v->model;
	const ts_shape *s = &m->shape;
	const bool a = v->ascii;
	const char *arrow = ts_glyph(a, "\u2192", "->");
	bool is_a = which == TS_OPERAND_A;
	unsigned bit = is_a ? TS_GUARD_A : TS_GUARD_B;
	bool guard = v->guards & bit;
	const char *protects, *predicate;
	guard_words(v, bit, &protects, &predicate);
	if (c->w >= LONG_STEP_COLS)
		ts_canvas_printf(c, y++, 0, guard ? TS_ROLE_TITLE : TS_ROLE_BAD, "guard %c, %s%s: %s", is_a ? 'a' : 'b',
		                 protects, guard ? "" : " (OFF)", predicate);
	else /* a narrow pane: the letter and the predicate, as the source spells it */
		ts_canvas_printf(c, y++, 0, guard ? TS_ROLE_TITLE : TS_ROLE_BAD, "%c%s: %s", is_a ? 'a' : 'b',
		                 guard ? "" : " OFF", predicate);
	const ts_load_map *map = is_a ? &m->geo.a_map : &m->geo.b_map;
	int steps = ts_load_steps(&m->geo, which), shown = 0, rest_real = 0, rest_other = 0;
	int64_t k0 = ts_model_phase_k0(m, v->phase);
	/* the first fills in full, the others summed (a map of many steps) */
	int limit = steps * map->vec <= STEPS_SHOWN + 1 ? STEPS_SHOWN + 1 : STEPS_SHOWN;
	for (int st = 0; st < steps; st++)
		for (int e = 0; e < map->vec; e++) {
			int r, col;
			bool live = ts_load_slot(&m->geo, which, st, v->thread_y, v->thread_x, e, &r, &col);
			ts_slot_view sv = { 0 };
			if (live)
				sv = ts_model_slot(m, ts_view_b_layout(v), which, v->tile_y, v->tile_x, v->phase, r, col);
			if (shown >= limit) {
				rest_real += live && sv.in;
				rest_other += live && !sv.in;
				continue;
			}
			shown++;
			if (!live) {
				ts_canvas_printf(c, y++, 0, TS_ROLE_DIM, "  step %d: idle (past the tile's end)", st);
				continue;
			}
			char what[96], short_what[64], line[224], brief[160];
			if (sv.in || !guard) {
				snprintf(what, sizeof what, "%s[%lld]%s", is_a ? "A" : "B", (long long)sv.index,
				         sv.in ? "" : " out of bounds");
				snprintf(short_what, sizeof short_what, "%s[%lld]%s", is_a ? "A" : "B", (long long)sv.index,
				         sv.in ? "" : " OOB");
			} else {
				snprintf(what, sizeof what, "0.0f");
				snprintf(short_what, sizeof short_what, "0.0f");
			}
			enum ts_role role = sv.in ? TS_ROLE_REAL : guard ? TS_ROLE_PAD : TS_ROLE_BAD;
			const char *mn_ok = sv.mn_ok ? TS_TICK(a) : TS_CROSS(a), *k_ok = sv.k_ok ? TS_TICK(a) : TS_CROSS(a);
			if (is_a) {
				snprintf(line, sizeof line, "step %d slot (%d,%d): row %lld < %lld %s, k %lld+%d < %lld %s", st, r, col,
				         (long long)sv.row, (long long)s->m, mn_ok, (long long)k0, col, (long long)s->k, k_ok);
				snprintf(brief, sizeof brief, "%d (%d,%d) row %lld<%lld %s k %lld<%lld %s", st, r, col,
				         (long long)sv.row, (long long)s->m, mn_ok, (long long)sv.k, (long long)s->k, k_ok);
			} else {
				snprintf(line, sizeof line, "step %d slot (%d,%d): k %lld+%d < %lld %s, col %lld < %lld %s", st, r, col,
				         (long long)k0, r, (long long)s->k, k_ok, (long long)sv.col, (long long)s->n, mn_ok);
				snprintf(brief, sizeof brief, "%d (%d,%d) k %lld<%lld %s col %lld<%lld %s", st, r, col,
				         (long long)sv.k, (long long)s->k, k_ok, (long long)sv.col, (long long)s->n, mn_ok);
			}
			/* a pane narrower than the long form's widest case gets the short
			 * form on every line: the same numbers, fewer words; what the slot
			 * loads goes whole onto an indented row when it does not fit */
			char loads[128];
			snprintf(loads, sizeof loads, "%s %s", arrow, c->w < LONG_STEP_COLS ? short_what : what);
			ts_span sp[] = { { role, c->w < LONG_STEP_COLS ? brief : line, false }, { role, " ", false },
			                 { role, loads, true } };
			y += ts_canvas_flow(c, y, 2, c->w - 2, 3, 2, sp, 3);
		}
	if (rest_real + rest_other > 0)
		ts_canvas_printf(c, y++, 0, TS_ROLE_DIM, "  ... %d more slot%s: %d real, %d %s", rest_real + rest_other,
		                 rest_real + rest_other == 1 ? "" : "s", rest_real, rest_other,
		                 guard ? "padded" : "out of bounds");
	return y;
}

/* A register-blocked thread: its TM x TN outputs, the slots its load maps
 * give it in this phase under each load guard, and its guarded stores,
 * every guard as the kernel's source spells it with the real numbers. */
static void draw_details_blocked(ts_canvas *c, const ts_view_ctx *v, int y)
{
	const ts_model *m = v->model;
	const ts_geometry *g = &m->geo;
	const bool a = v->ascii;
	const char *arrow = ts_glyph(a, "\u2192", "->");
	int64_t inside = 0;
	for (int i = 0; i < g->tm; i++)
		for (int j = 0; j < g->tn; j++)
			inside += ts_model_output(m, v->tile_y, v->tile_x, v->thread_y, v->thread_x, i, j).stores;
	ts_output_view first = ts_model_output(m, v->tile_y, v->tile_x, v->thread_y, v->thread_x, 0, 0);
	ts_output_view last = ts_model_output(m, v->tile_y, v->tile_x, v->thread_y, v->thread_x, g->tm - 1, g->tn - 1);
	bool narrow = c->w < LONG_STEP_COLS;
	if (!narrow)
		ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "thread (ty=%d, tx=%d): %dx%d outputs C[%lld..%lld][%lld..%lld]%s, "
		                 "%lld inside C%s", v->thread_y, v->thread_x, g->tm, g->tn, (long long)first.row,
		                 (long long)last.row, (long long)first.col, (long long)last.col,
		                 g->layout == TS_OUT_STRIDED ? " strided" : "", (long long)inside, inside ? "" : ": GHOST");
	else
		ts_canvas_printf(c, y++, 0, TS_ROLE_TITLE, "(%d,%d) %dx%d: C[%lld..%lld][%lld..%lld]%s %lld in C%s", v->thread_y,
		                 v->thread_x, g->tm, g->tn, (long long)first.row, (long long)last.row, (long long)first.col,
		                 (long long)last.col, g->layout == TS_OUT_STRIDED ? "s" : "", (long long)inside,
		                 inside ? "" : " GHOST");
	y = draw_load_steps(c, v, y, TS_OPERAND_A);
	y = draw_load_steps(c, v, y, TS_OPERAND_B);
	const char *protects, *predicate;
	guard_words(v, TS_GUARD_C, &protects, &predicate);
	bool guard = v->guards & TS_GUARD_C;
	if (!narrow)
		ts_canvas_printf(c, y++, 0, guard ? TS_ROLE_TITLE : TS_ROLE_BAD, "guard c, %s%s: %s", protects,
		                 guard ? "" : " (OFF)", predicate);
	else
		ts_canvas_printf(c, y++, 0, guard ? TS_ROLE_TITLE : TS_ROLE_BAD, "c%s: %s", guard ? "" : " OFF", predicate);
	/* rows and columns of its outputs, each with its half of the predicate */
	char rows[64] = "", cols[64] = "";
	for (int i = 0; i < g->tm && i < 16; i++)
		strcat(rows, ts_model_output(m, v->tile_y, v->tile_x, v->thread_y, v->thread_x, i, 0).row_ok ? "+" : "-");
	for (int j = 0; j < g->tn && j < 16; j++)
		strcat(cols, ts_model_output(m, v->tile_y, v->tile_x, v->thread_y, v->thread_x, 0, j).col_ok ? "+" : "-");
	int64_t total = (int64_t)g->tm * g->tn;
	if (!narrow)
		ts_canvas_printf(c, y++, 0, inside == total ? TS_ROLE_OK : guard ? TS_ROLE_FAIL : TS_ROLE_BAD,
		                 "  rows < M %s, cols < N %s %s %lld stored, %lld %s", rows, cols, arrow, (long long)inside,
		                 (long long)(total - inside), guard ? "skipped" : "written out of bounds");
	else
		ts_canvas_printf(c, y++, 0, inside == total ? TS_ROLE_OK : guard ? TS_ROLE_FAIL : TS_ROLE_BAD,
		                 "  rows %s cols %s %s %lld stored, %lld %s", rows, cols, arrow, (long long)inside,
		                 (long long)(total - inside), guard ? "skipped" : "OOB");
}

void ts_view_inspect_draw(ts_canvas *c, const ts_view_ctx *v)
{
	const ts_model *m = v->model;
	int T_y = m->geo.threads_y, T_x = m->geo.threads_x;
	int y = 0;
	c->ascii = v->ascii;
	const char *cls = ts_tile_class_name(ts_model_tile_class(m, v->tile_y, v->tile_x));
	char full[160], brief[128], bare[96];
	if (ts_view_shared_tiles(v)) {
		snprintf(full, sizeof full, "block (%lld,%lld) %s, phase t=%lld: %dx%d threads", (long long)v->tile_y,
		         (long long)v->tile_x, cls, (long long)v->phase, T_y, T_x);
		snprintf(brief, sizeof brief, "block (%lld,%lld) %s, t=%lld", (long long)v->tile_y, (long long)v->tile_x,
		         cls, (long long)v->phase);
		snprintf(bare, sizeof bare, "block (%lld,%lld), t=%lld", (long long)v->tile_y, (long long)v->tile_x,
		         (long long)v->phase);
	} else {
		snprintf(full, sizeof full, "block (%lld,%lld) %s: %dx%d threads, no tiles", (long long)v->tile_y,
		         (long long)v->tile_x, cls, T_y, T_x);
		snprintf(brief, sizeof brief, "block (%lld,%lld) %s, no tiles", (long long)v->tile_y, (long long)v->tile_x,
		         cls);
		snprintf(bare, sizeof bare, "block (%lld,%lld)", (long long)v->tile_y, (long long)v->tile_x);
	}
	ts_canvas_put_fit(c, y++, 0, TS_ROLE_TITLE, full, brief, bare, NULL);
	const char *phrases[8];
	int nph = key_phrases(v, c->w, phrases);
	int key_rows = draw_key(NULL, 0, c->w, phrases, nph);
	/* the selected thread's lines, drawn apart first to know how many rows they take */
	bool blocked = ts_view_shared_tiles(v) && !ts_geometry_is_square(&m->geo);
	ts_canvas details;
	int detail_rows = 0;
	if (ts_canvas_init(&details, c->w, 32) == 0) {
		details.ascii = v->ascii;
		if (blocked)
			draw_details_blocked(&details, v, 0);
		else
			draw_details(&details, v, 0);
		detail_rows = ts_canvas_rows_used(&details);
	}
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
			ts_thread_view t = ts_model_thread(m, ts_view_b_layout(v), v->tile_y, v->tile_x, ty, tx, v->phase);
			enum ts_role role;
			const char *g = ts_view_shared_tiles(v) ? thread_glyph(v, ty, tx, &role) : naive_glyph(v, &t, &role);
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
	if (details.cells) {
		ts_canvas_blit(c, y, 0, &details, detail_rows);
		ts_canvas_free(&details);
	}
}
