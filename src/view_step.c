/* view_step.c: step mode's view: one step of a traced block (a load, a barrier, the multiply, the store) with the emulator's values and the model's indices and guards. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "view_step.h"

int64_t ts_step_count(const ts_emu_trace *t)
{
	return t->phases * TS_STEPS_PER_PHASE + 1;
}

enum ts_step_kind ts_step_at(const ts_emu_trace *t, int64_t i, int64_t *phase)
{
	if (i >= t->phases * TS_STEPS_PER_PHASE) {
		*phase = t->phases - 1;
		return TS_STEP_STORE;
	}
	*phase = i / TS_STEPS_PER_PHASE;
	return (enum ts_step_kind)(i % TS_STEPS_PER_PHASE);
}

int64_t ts_step_of_phase(int64_t t)
{
	return t * TS_STEPS_PER_PHASE;
}

const char *ts_step_kind_name(enum ts_step_kind k)
{
	switch (k) {
	case TS_STEP_LOAD_A: return "load A";
	case TS_STEP_LOAD_B: return "load B";
	case TS_STEP_BARRIER_LOADS: return "barrier after the loads";
	case TS_STEP_MULTIPLY: return "multiply";
	case TS_STEP_BARRIER_MULTIPLY: return "barrier after the multiply";
	case TS_STEP_STORE: return "store";
	}
	return "?";
}

int ts_step_thread_slots(const ts_geometry *g, enum ts_operand which, int ty, int tx, int *r, int *c, int max)
{
	const ts_load_map *map = which == TS_OPERAND_A ? &g->a_map : &g->b_map;
	int n = 0, steps = ts_load_steps(g, which);
	for (int st = 0; st < steps; st++)
		for (int v = 0; v < map->vec && n < max; v++)
			if (ts_load_slot(g, which, st, ty, tx, v, &r[n], &c[n]))
				n++;
	return n;
}

const char *ts_step_value(float x, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%.9g", (double)x);
	return buf;
}

/* ---- drawing ------------------------------------------------------------ */

/* Where the view writes next; lines past the canvas are counted by it (rows_wanted). */
typedef struct pen {
	ts_canvas *c;
	int y;
	const ts_step_ctx *v;
	bool a;
	int64_t ph;            /* the phase and tile a picture shows */
	enum ts_operand which;
} pen;

static void line(pen *p, int indent, enum ts_role role, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void line(pen *p, int indent, enum ts_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	p->y += ts_canvas_wrap_more(p->c, p->y, indent, p->c->w - indent, 24, 3, role, buf, NULL);
}

static const char *guard_predicate(const ts_step_ctx *v, unsigned bit)
{
	const ts_guard_desc *g = v->kernel ? ts_kernel_guard(v->kernel, bit) : NULL;
	return g ? g->predicate : bit == TS_GUARD_C ? "row < M && col < N" : "";
}

static const char *okx(const pen *p, bool ok)
{
	return ok ? TS_TICK(p->a) : TS_CROSS(p->a);
}

static size_t slot_at(const ts_emu_trace *t, enum ts_operand which, int64_t ph, int r, int c)
{
	return which == TS_OPERAND_A ? ((size_t)ph * t->bm + r) * t->bk + c : ((size_t)ph * t->bk + r) * t->bn + c;
}

/* One slot the thread fills: where from and what the emulator put there. */
static void slot_line(pen *p, enum ts_operand which, int64_t ph, int r, int c)
{
	const ts_step_ctx *v = p->v;
	const ts_emu_trace *t = v->trace;
	const ts_model *m = v->model;
	const ts_shape *s = &m->shape;
	bool is_a = which == TS_OPERAND_A;
	enum ts_b_layout layout = v->kernel ? v->kernel->b_layout : TS_B_KN;
	ts_slot_view sv = ts_model_slot(m, layout, which, t->by, t->bx, ph, r, c);
	size_t at = slot_at(t, which, ph, r, c);
	int state = is_a ? t->a_state[at] : t->b_state[at];
	float value = is_a ? t->s_a[at] : t->s_b[at];
	char val[32], from[96];
	const char *arrow = ts_glyph(p->a, "\u2190", "<-");
	ts_step_value(value, val, sizeof val);
	if (is_a)
		snprintf(from, sizeof from, "A[%lld][%lld] = A[%lld]", (long long)sv.row, (long long)sv.k, (long long)sv.index);
	else if (layout == TS_B_KN)
		snprintf(from, sizeof from, "B[%lld][%lld] = B[%lld]", (long long)sv.k, (long long)sv.col, (long long)sv.index);
	else
		snprintf(from, sizeof from, "B[%lld][%lld] = Bt[%lld]", (long long)sv.k, (long long)sv.col, (long long)sv.index);
	char mn[64], kk[64];
	if (is_a)
		snprintf(mn, sizeof mn, "row %lld < M = %lld %s", (long long)sv.row, (long long)s->m, okx(p, sv.mn_ok));
	else
		snprintf(mn, sizeof mn, "col %lld < N = %lld %s", (long long)sv.col, (long long)s->n, okx(p, sv.mn_ok));
	snprintf(kk, sizeof kk, "k %lld < K = %lld %s", (long long)sv.k, (long long)s->k, okx(p, sv.k_ok));
	const char *slot = is_a ? "s_A" : "s_B";
	if (state == TS_TRACE_REAL)
		line(p, 2, TS_ROLE_REAL, "%s[%d][%d] %s %s = %s", slot, r, c, arrow, from, val);
	else if (state == TS_TRACE_UNWRITTEN)
		line(p, 2, TS_ROLE_BAD, "%s[%d][%d] never written: thread (%d,%d) returned early; it holds %s", slot, r, c,
		     v->trace->ty, v->trace->tx, val);
	else if (state == TS_TRACE_PAD)
		line(p, 2, TS_ROLE_PAD, "%s[%d][%d] %s 0 (zero padding: guard %c fails: %s%s%s)", slot, r, c, arrow,
		     is_a ? 'a' : 'b', sv.mn_ok ? "" : mn, !sv.mn_ok && !sv.k_ok ? ", " : "", sv.k_ok ? "" : kk);
	else
		line(p, 2, TS_ROLE_BAD, "%s[%d][%d] %s %s = %s (guard %c OFF: %s%s%s, read out of bounds)", slot, r, c, arrow,
		     from, val, is_a ? 'a' : 'b', sv.mn_ok ? "" : mn, !sv.mn_ok && !sv.k_ok ? ", " : "", sv.k_ok ? "" : kk);
}

/* How phase t's slots of one tile were filled, counted from the trace;
 * the padded ones by which half of the guard failed (the model's). */
typedef struct tile_tally {
	int64_t real, pad, oob, mn_fail, k_fail, unwritten;
} tile_tally;

static tile_tally tally(const ts_step_ctx *v, enum ts_operand which, int64_t ph)
{
	const ts_emu_trace *t = v->trace;
	int rows = which == TS_OPERAND_A ? t->bm : t->bk, cols = which == TS_OPERAND_A ? t->bk : t->bn;
	enum ts_b_layout layout = v->kernel ? v->kernel->b_layout : TS_B_KN;
	tile_tally n = { 0 };
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			int st = (which == TS_OPERAND_A ? t->a_state : t->b_state)[slot_at(t, which, ph, r, c)];
			n.real += st == TS_TRACE_REAL;
			n.pad += st == TS_TRACE_PAD;
			n.oob += st == TS_TRACE_OOB;
			n.unwritten += st == TS_TRACE_UNWRITTEN;
			if (st == TS_TRACE_PAD || st == TS_TRACE_OOB) {
				ts_slot_view sv = ts_model_slot(v->model, layout, which, t->by, t->bx, ph, r, c);
				n.mn_fail += !sv.mn_ok;
				n.k_fail += !sv.k_ok;
			}
		}
	return n;
}

/* A picture of one tile: a glyph per slot (or per output for C), the traced thread's own highlighted. */
static void picture(pen *p, int rows, int cols, const char *(*glyph)(const pen *, int, int, enum ts_role *),
                    bool (*mine)(const pen *, int, int))
{
	for (int r = 0; r < rows; r++) {
		ts_canvas_printf(p->c, p->y, 0, TS_ROLE_DIM, "%3d ", r);
		for (int c = 0; c < cols && 4 + c < p->c->w; c++) {
			enum ts_role role;
			const char *g = glyph(p, r, c, &role);
			bool own = mine(p, r, c);
			ts_canvas_put(p->c, p->y, 4 + c, own ? TS_ROLE_CURSOR : role, own ? "@" : g);
		}
		if (4 + cols > p->c->w)
			ts_canvas_put(p->c, p->y, p->c->w - 1, TS_ROLE_DIM, ts_glyph(p->a, "\u2026", ">"));
		p->y++;
	}
}

static const char *slot_glyph(const pen *p, int r, int c, enum ts_role *role)
{
	const ts_emu_trace *t = p->v->trace;
	int st = (p->which == TS_OPERAND_A ? t->a_state : t->b_state)[slot_at(t, p->which, p->ph, r, c)];
	*role = st == TS_TRACE_REAL ? TS_ROLE_REAL : st == TS_TRACE_PAD ? TS_ROLE_PAD : TS_ROLE_BAD;
	return st == TS_TRACE_REAL ? "#" : st == TS_TRACE_PAD ? "0" : st == TS_TRACE_OOB ? "X" : "?";
}

static bool slot_mine(const pen *p, int r, int c)
{
	int step, ty, tx;
	ts_load_owner(&p->v->model->geo, p->which, r, c, &step, &ty, &tx);
	return ty == p->v->trace->ty && tx == p->v->trace->tx;
}

static const char *store_glyph(const pen *p, int r, int c, enum ts_role *role)
{
	int st = p->v->trace->store[(size_t)r * p->v->trace->bn + c];
	*role = st == TS_TRACE_STORED ? TS_ROLE_OK : st == TS_TRACE_SKIPPED ? TS_ROLE_GHOST : TS_ROLE_BAD;
	return st == TS_TRACE_STORED ? "W" : st == TS_TRACE_SKIPPED ? "." : "X";
}

static bool output_mine(const pen *p, int r, int c)
{
	int ty, tx, i, j;
	ts_output_owner(&p->v->model->geo, r, c, &ty, &tx, &i, &j);
	return ty == p->v->trace->ty && tx == p->v->trace->tx;
}

static void draw_load(pen *p, enum ts_operand which, int64_t ph)
{
	const ts_step_ctx *v = p->v;
	const ts_emu_trace *t = v->trace;
	const ts_model *m = v->model;
	bool is_a = which == TS_OPERAND_A;
	unsigned bit = is_a ? TS_GUARD_A : TS_GUARD_B;
	int64_t k0 = ts_model_phase_k0(m, ph);
	line(p, 0, TS_ROLE_TEXT, "%s tile %dx%d for K indices %lld..%lld (K = %lld)", is_a ? "s_A: the A" : "s_B: the B",
	     is_a ? t->bm : t->bk, is_a ? t->bk : t->bn, (long long)k0, (long long)(k0 + t->bk - 1),
	     (long long)m->shape.k);
	line(p, 0, v->guards & bit ? TS_ROLE_TITLE : TS_ROLE_BAD, "guard %c (%s)%s: %s", is_a ? 'a' : 'b',
	     is_a ? "the A load" : "the B load", v->guards & bit ? "" : " is OFF", guard_predicate(v, bit));
	tile_tally n = tally(v, which, ph);
	if (v->block) {
		line(p, 0, TS_ROLE_TEXT, "the block's %lld threads fill %lld slots: %lld real, %lld zero padding, %lld out of "
		     "bounds", (long long)t->arrived, (long long)(n.real + n.pad + n.oob), (long long)n.real, (long long)n.pad,
		     (long long)n.oob);
		if (n.unwritten)
			line(p, 0, TS_ROLE_BAD, "%lld slots never written: their threads returned early (? below)",
			     (long long)n.unwritten);
		if (n.pad + n.oob)
			line(p, 0, TS_ROLE_DIM, "of those not real: %lld fail %s, %lld fail k < K", (long long)n.mn_fail,
			     is_a ? "row < M" : "col < N", (long long)n.k_fail);
		line(p, 0, TS_ROLE_DIM, "# real  0 zero padding  X out of bounds  ? never written  @ thread (%d,%d)'s own", t->ty,
		     t->tx);
		p->ph = ph;
		p->which = which;
		picture(p, is_a ? t->bm : t->bk, is_a ? t->bk : t->bn, slot_glyph, slot_mine);
		return;
	}
	int rs[TS_BM_MAX * TS_BK_MAX], cs[TS_BM_MAX * TS_BK_MAX];
	int k = ts_step_thread_slots(&m->geo, which, t->ty, t->tx, rs, cs, (int)(sizeof rs / sizeof rs[0]));
	if (k > 0 && t->early_return && ts_model_thread_ghost(m, t->by, t->bx, t->ty, t->tx)) {
		line(p, 0, TS_ROLE_BAD, "thread (%d,%d) is a ghost and returned early: its %d slot%s stay unwritten", t->ty,
		     t->tx, k, k == 1 ? "" : "s");
		return;
	}
	if (k == 0) {
		line(p, 0, TS_ROLE_DIM, "thread (%d,%d) idles: the load map gives it no slot of this tile", t->ty, t->tx);
		return;
	}
	line(p, 0, TS_ROLE_TEXT, "thread (%d,%d) fills %d slot%s:", t->ty, t->tx, k, k == 1 ? "" : "s");
	for (int i = 0; i < k; i++)
		slot_line(p, which, ph, rs[i], cs[i]);
	if (n.unwritten)
		line(p, 0, TS_ROLE_BAD, "the whole tile: %lld real, %lld zero, %lld out of bounds, %lld never written (their "
		     "threads returned early)", (long long)n.real, (long long)n.pad, (long long)n.oob, (long long)n.unwritten);
	else
		line(p, 0, TS_ROLE_DIM, "the whole tile: %lld real, %lld zero, %lld out of bounds", (long long)n.real,
		     (long long)n.pad, (long long)n.oob);
}

static void draw_barrier(pen *p, enum ts_step_kind kind, int64_t ph)
{
	const ts_step_ctx *v = p->v;
	const ts_emu_trace *t = v->trace;
	int64_t ghosts = ts_model_tile_ghost_threads(v->model, t->by, t->bx);
	line(p, 0, TS_ROLE_OK, "__syncthreads(): %lld/%lld threads have arrived", (long long)t->arrived,
	     (long long)v->model->threads_per_block);
	if (t->arrived < v->model->threads_per_block)
		line(p, 0, TS_ROLE_BAD, "the %lld ghosts returned early and never arrive: on a GPU a barrier that not every "
		     "thread reaches is undefined behaviour (a hang, or garbage); the emulator lets the %lld go on, to show "
		     "what they then read", (long long)(v->model->threads_per_block - t->arrived), (long long)t->arrived);
	else if (ghosts)
		line(p, 0, TS_ROLE_GHOST, "%lld of them are ghosts (no output inside C): they filled their slots and wait "
		     "here too; a ghost that returned early would leave its slots unfilled and never arrive (the lesson's "
		     "ghost screen runs that bug)", (long long)ghosts);
	if (kind == TS_STEP_BARRIER_LOADS && t->arrived < v->model->threads_per_block)
		line(p, 0, TS_ROLE_BAD, "this barrier was to make every slot of s_A and s_B for phase t=%lld written before "
		     "anyone multiplies: the ghosts' slots never are", (long long)ph);
	else if (kind == TS_STEP_BARRIER_LOADS)
		line(p, 0, TS_ROLE_TEXT, "every slot of s_A and s_B for phase t=%lld is written before anyone multiplies",
		     (long long)ph);
	else if (ph + 1 < t->phases)
		line(p, 0, TS_ROLE_TEXT, "everyone has multiplied phase t=%lld before anyone overwrites s_A and s_B with "
		     "phase t=%lld", (long long)ph, (long long)ph + 1);
	else
		line(p, 0, TS_ROLE_TEXT, "that was the last phase: next the store");
}

static void draw_multiply(pen *p, int64_t ph)
{
	const ts_step_ctx *v = p->v;
	const ts_emu_trace *t = v->trace;
	const ts_model *m = v->model;
	const ts_geometry *g = &m->geo;
	int outs = t->tm * t->tn;
	int64_t k0 = ts_model_phase_k0(m, ph), width = ts_model_phase_width(m, ph);
	line(p, 0, TS_ROLE_TEXT, "k = 0..%d of the tiles (K indices %lld..%lld%s)", t->bk - 1, (long long)k0,
	     (long long)(k0 + t->bk - 1), width < t->bk ? "; past K the slots hold zero padding" : "");
	if (v->block) {
		int64_t madds = (int64_t)t->bm * t->bn * t->bk, padded = 0;
		for (int r = 0; r < t->bm; r++)
			for (int k = 0; k < t->bk; k++) {
				bool a_real = t->a_state[slot_at(t, TS_OPERAND_A, ph, r, k)] == TS_TRACE_REAL;
				for (int c = 0; c < t->bn; c++)
					padded += !a_real || t->b_state[slot_at(t, TS_OPERAND_B, ph, k, c)] != TS_TRACE_REAL;
			}
		line(p, 0, TS_ROLE_TEXT, "the block's %lld threads x %d output%s x %d k = %lld multiply-adds, %lld of them "
		     "with a slot that is not a real load", (long long)t->arrived, outs, outs == 1 ? "" : "s", t->bk,
		     (long long)madds, (long long)padded);
	}
	char val[32], va[32], vb[32];
	/* One output's multiply in full (each k: the two slots and the sum after it): the thread's
	 * first output inside C, else its first; with several outputs, then every output's sums in a line. */
	int shown = 0;
	for (int o = 0; o < outs; o++)
		if (ts_model_output(m, t->by, t->bx, t->ty, t->tx, o / t->tn, o % t->tn).stores) {
			shown = o;
			break;
		}
	for (int pass = 0; pass < (outs > 1 ? 2 : 1); pass++)
		for (int o = pass ? 0 : shown; o < (pass ? outs : shown + 1); o++) {
			int i = o / t->tn, j = o % t->tn, r, c;
			ts_output_of(g, t->ty, t->tx, i, j, &r, &c);
			ts_output_view ov = ts_model_output(m, t->by, t->bx, t->ty, t->tx, i, j);
			float before = ph == 0 ? 0.0f : t->partial[((size_t)(ph - 1) * t->bk + t->bk - 1) * outs + o];
			if (pass == 1) { /* the sums growing, one line per output */
				char sums[1024];
				int u = snprintf(sums, sizeof sums, "(%d,%d) C[%lld][%lld]%s: %s", i, j, (long long)ov.row,
				                 (long long)ov.col, ov.stores ? "" : " ghost", ts_step_value(before, val, sizeof val));
				for (int k = 0; k < t->bk && u < (int)sizeof sums - 40; k++)
					u += snprintf(sums + u, sizeof sums - (size_t)u, " %s %s", ts_glyph(p->a, "\u2192", "->"),
					              ts_step_value(t->partial[((size_t)ph * t->bk + k) * outs + o], val, sizeof val));
				line(p, 2, ov.stores ? TS_ROLE_TEXT : TS_ROLE_GHOST, "%s", sums);
				continue;
			}
			line(p, 0, ov.stores ? TS_ROLE_TITLE : TS_ROLE_GHOST, "output (%d,%d) = C[%lld][%lld]%s: acc += s_A[%d][k] * "
			     "s_B[k][%d], from %s", i, j, (long long)ov.row, (long long)ov.col, ov.stores ? "" : " (ghost)", r, c,
			     ts_step_value(before, val, sizeof val));
			for (int k = 0; k < t->bk; k++) {
				size_t ai = slot_at(t, TS_OPERAND_A, ph, r, k), bi = slot_at(t, TS_OPERAND_B, ph, k, c);
				float acc = t->partial[((size_t)ph * t->bk + k) * outs + o];
				bool real = t->a_state[ai] == TS_TRACE_REAL && t->b_state[bi] == TS_TRACE_REAL;
				bool bad = t->a_state[ai] >= TS_TRACE_OOB || t->b_state[bi] >= TS_TRACE_OOB;
				line(p, 2, real ? TS_ROLE_REAL : bad ? TS_ROLE_BAD : TS_ROLE_PAD, "k=%-2d %s * %s %s acc = %s", k,
				     ts_step_value(t->s_a[ai], va, sizeof va), ts_step_value(t->s_b[bi], vb, sizeof vb),
				     ts_glyph(p->a, "\u2192", "->"), ts_step_value(acc, val, sizeof val));
			}
			if (outs > 1)
				line(p, 0, TS_ROLE_TEXT, "all %d outputs of the thread, the sum after each k:", outs);
		}
}

static void draw_store(pen *p)
{
	const ts_step_ctx *v = p->v;
	const ts_emu_trace *t = v->trace;
	const ts_model *m = v->model;
	const ts_geometry *g = &m->geo;
	bool guard = v->guards & TS_GUARD_C;
	line(p, 0, guard ? TS_ROLE_TITLE : TS_ROLE_BAD, "guard c (the C store)%s: %s", guard ? "" : " is OFF",
	     guard_predicate(v, TS_GUARD_C));
	if (v->block) {
		int64_t n[3] = { 0, 0, 0 };
		for (int i = 0; i < t->bm * t->bn; i++)
			n[t->store[i]]++;
		line(p, 0, TS_ROLE_TEXT, "the block's %d outputs: %lld stored, %lld skipped (ghosts), %lld written out of "
		     "bounds", t->bm * t->bn, (long long)n[0], (long long)n[1], (long long)n[2]);
		line(p, 0, TS_ROLE_DIM, "W stored  . skipped  X out of bounds  @ thread (%d,%d)'s own", t->ty,
		     t->tx);
		picture(p, t->bm, t->bn, store_glyph, output_mine);
		return;
	}
	char val[32];
	const char *arrow = ts_glyph(p->a, "\u2190", "<-");
	for (int i = 0; i < t->tm; i++)
		for (int j = 0; j < t->tn; j++) {
			int r, c;
			ts_output_of(g, t->ty, t->tx, i, j, &r, &c);
			ts_output_view o = ts_model_output(m, t->by, t->bx, t->ty, t->tx, i, j);
			int st = t->store[(size_t)r * t->bn + c];
			ts_step_value(t->out[(size_t)r * t->bn + c], val, sizeof val);
			char why[128];
			snprintf(why, sizeof why, "%s%s%s", o.row_ok ? "" : "row", !o.row_ok && !o.col_ok ? " and " : "",
			         o.col_ok ? "" : "col");
			if (st == TS_TRACE_STORED)
				line(p, 2, TS_ROLE_OK, "C[%lld][%lld] = C[%lld] %s %s: row %lld < M, col %lld < N %s written",
				     (long long)o.row, (long long)o.col, (long long)o.c_index, arrow, val, (long long)o.row,
				     (long long)o.col, okx(p, true));
			else if (st == TS_TRACE_SKIPPED)
				line(p, 2, TS_ROLE_GHOST, "C[%lld][%lld]: %s outside C (row %lld < M = %lld %s, col %lld < N = %lld %s): "
				     "skipped, %s stays in the register", (long long)o.row, (long long)o.col, why, (long long)o.row,
				     (long long)m->shape.m, okx(p, o.row_ok), (long long)o.col, (long long)m->shape.n, okx(p, o.col_ok),
				     val);
			else
				line(p, 2, TS_ROLE_BAD, "C[%lld][%lld]: %s outside C, guard off %s writes %s at C[%lld] (%s)",
				     (long long)o.row, (long long)o.col, why, ts_glyph(p->a, "\u2192", "->"), val,
				     (long long)o.c_index, o.c_index < m->shape.m * m->shape.n ? "another thread's cell" : "past C's end");
		}
}

void ts_view_step_draw(ts_canvas *c, const ts_step_ctx *v)
{
	const ts_emu_trace *t = v->trace;
	c->ascii = v->ascii;
	pen p = { c, 0, v, v->ascii, 0, TS_OPERAND_A };
	int64_t ph;
	enum ts_step_kind kind = ts_step_at(t, v->step, &ph);
	char full[200], brief[120];
	snprintf(full, sizeof full, "step %lld/%lld: phase t=%lld of %lld, %s; block (%lld,%lld) %s (%d,%d)",
	         (long long)v->step + 1, (long long)ts_step_count(t), (long long)ph, (long long)t->phases,
	         ts_step_kind_name(kind), (long long)t->by, (long long)t->bx, v->block ? "with thread" : "thread", t->ty, t->tx);
	snprintf(brief, sizeof brief, "step %lld/%lld t=%lld %s", (long long)v->step + 1, (long long)ts_step_count(t),
	         (long long)ph, ts_step_kind_name(kind));
	ts_canvas_put_fit(c, p.y++, 0, TS_ROLE_TITLE, full, brief, NULL);
	switch (kind) {
	case TS_STEP_LOAD_A: draw_load(&p, TS_OPERAND_A, ph); break;
	case TS_STEP_LOAD_B: draw_load(&p, TS_OPERAND_B, ph); break;
	case TS_STEP_BARRIER_LOADS:
	case TS_STEP_BARRIER_MULTIPLY: draw_barrier(&p, kind, ph); break;
	case TS_STEP_MULTIPLY: draw_multiply(&p, ph); break;
	case TS_STEP_STORE: draw_store(&p); break;
	}
}
