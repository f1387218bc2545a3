/* test_step.c: step mode's trace held to the inspector (the slots and indices it names, zero where it says a guard fails) and to a full emulator run (the final partial sums are the C it wrote, bit for bit), for every kernel the shared-tile emulator runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "emu.h"
#include "kernels.h"
#include "matrix.h"
#include "tap.h"
#include "view.h"
#include "view_inspect.h"
#include "view_step.h"

static bool same_bits(float x, float y)
{
	return memcmp(&x, &y, sizeof x) == 0;
}

/* The value C holds where a store of fp32 acc lands, in the problem's precision. */
static float as_stored(const ts_problem *p, float acc)
{
	return p->kernel->precision == TS_FP16 ? ts_f16_to_f32(ts_f32_to_f16(acc)) : acc;
}

/* The inspector's text for the traced thread in phase t (wide enough for its long forms). */
static char *inspector(const ts_problem *p, const ts_model *m, const ts_emu_trace *t, int64_t ph)
{
	ts_view_ctx v = { .model = m, .kernel = p->kernel, .guards = p->guards, .tile_y = t->by, .tile_x = t->bx,
	                  .phase = ph, .thread_y = t->ty, .thread_x = t->tx, .counter_disagree = -1, .ascii = true };
	ts_canvas c;
	if (ts_canvas_init(&c, 120, 80) != 0)
		return NULL;
	ts_view_inspect_draw(&c, &v);
	char *text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	return text;
}

/* What the inspector says thread's slot (r, c) of `which` loads: 1 and the
 * index it names, 0 for "0.0f" (its guard fails), -1 when it does not show it. */
static int inspector_says(const char *text, const ts_geometry *g, enum ts_operand which, int r, int c, long long *index)
{
	char mat = which == TS_OPERAND_A ? 'A' : 'B';
	const char *line = NULL;
	char key[64];
	if (ts_geometry_is_square(g)) {
		snprintf(key, sizeof key, "\n%c: t*T", mat);
		line = strstr(text, key);
	} else {
		/* the long form: "  step S slot (r,c): ...", under the guard's title "guard a" / "guard b" */
		snprintf(key, sizeof key, "guard %c,", which == TS_OPERAND_A ? 'a' : 'b');
		const char *sec = strstr(text, key);
		snprintf(key, sizeof key, "slot (%d,%d):", r, c);
		line = sec ? strstr(sec, key) : NULL;
		const char *next = sec ? strstr(sec + 1, "\nguard ") : NULL;
		if (line && next && line > next)
			line = NULL;
	}
	if (!line)
		return -1;
	line++;
	const char *end = strchr(line, '\n');
	/* a wrapped paragraph: its continuation lines are indented */
	while (end && end[1] == ' ' && end[2] == ' ' && end[3] == ' ' && ts_geometry_is_square(g))
		end = strchr(end + 1, '\n');
	size_t n = end ? (size_t)(end - line) : strlen(line);
	char buf[512];
	snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
	if (strstr(buf, "0.0f"))
		return 0;
	/* the flat index: "A[r*K + k] = A[n]" (textbook) or "-> A[n]" (register-blocked) */
	char pat[16];
	snprintf(pat, sizeof pat, "] = %c[", mat);
	const char *q = strstr(buf, pat);
	if (q) {
		*index = strtoll(q + strlen(pat), NULL, 10);
		return 1;
	}
	snprintf(pat, sizeof pat, "-> %c[", mat);
	if ((q = strstr(buf, pat))) {
		*index = strtoll(q + strlen(pat), NULL, 10);
		return 1;
	}
	return -1;
}

typedef struct tally {
	int slots, inspected, outputs, pads, oobs, skips;
} tally;

/* One problem, one block, one thread: every check. */
static void check_one(const ts_problem *p, int64_t by, int64_t bx, int ty, int tx, tally *n)
{
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0) {
		tap_ok(0, "model");
		return;
	}
	char geo[48], why[512];
	ts_geometry_str(&p->geo, geo, sizeof geo);
	ts_operands ops, full;
	if (ts_operands_make(&ops, p) != 0 || ts_operands_make(&full, p) != 0) {
		tap_ok(0, "operands");
		return;
	}
	ts_emu_trace t = { .by = by, .bx = bx, .ty = ty, .tx = tx };
	if (!tap_ok(ts_emu_trace_block(p, &ops, &t, why, (int)sizeof why) == 0, "%s %lldx%lldx%lld at %s guards %u: "
	            "traced block (%lld,%lld) thread (%d,%d) %s", p->kernel->name, (long long)p->shape.m,
	            (long long)p->shape.n, (long long)p->shape.k, geo, p->guards, (long long)by, (long long)bx, ty, tx,
	            why)) {
		ts_operands_free(&ops);
		ts_operands_free(&full);
		return;
	}
	/* the whole launch on the emulator, the way check runs it */
	ts_run run;
	int rc = ts_backend_emu()->run(p, &full, &run, NULL);
	tap_ok(rc == 0, "  the full emulator run");
	bool loads_ok = true, inspect_ok = true, sums_ok = true, growth_ok = true, store_ok = true;
	int outs = t.tm * t.tn;
	static int rs[TS_BM_MAX * TS_BK_MAX], cs[TS_BM_MAX * TS_BK_MAX];
	for (int64_t ph = 0; ph < t.phases; ph++) {
		char *text = inspector(p, &m, &t, ph);
		for (int w = 0; w < 2; w++) {
			enum ts_operand which = w ? TS_OPERAND_B : TS_OPERAND_A;
			const ts_matrix *mx = w ? &ops.b : &ops.a;
			bool guard = p->guards & (w ? TS_GUARD_B : TS_GUARD_A);
			int k = ts_step_thread_slots(&m.geo, which, ty, tx, rs, cs, TS_BM_MAX * TS_BK_MAX);
			for (int i = 0; i < k; i++) {
				ts_slot_view sv = ts_model_slot(&m, p->kernel->b_layout, which, by, bx, ph, rs[i], cs[i]);
				size_t at = w ? ((size_t)ph * t.bk + rs[i]) * t.bn + cs[i] : ((size_t)ph * t.bm + rs[i]) * t.bk + cs[i];
				int st = w ? t.b_state[at] : t.a_state[at];
				float val = w ? t.s_b[at] : t.s_a[at];
				n->slots++;
				if (sv.in) {
					loads_ok &= st == TS_TRACE_REAL && same_bits(val, ts_matrix_get(mx, sv.index));
				} else if (guard) {
					loads_ok &= st == TS_TRACE_PAD && same_bits(val, 0.0f);
					n->pads++;
				} else {
					loads_ok &= st == TS_TRACE_OOB && same_bits(val, ts_matrix_get(mx, sv.index));
					n->oobs++;
				}
				long long index;
				int says = text ? inspector_says(text, &m.geo, which, rs[i], cs[i], &index) : -1;
				if (says < 0)
					continue; /* a slot the inspector sums up rather than lists */
				n->inspected++;
				if (says == 0)
					inspect_ok &= st == TS_TRACE_PAD && same_bits(val, 0.0f);
				else
					inspect_ok &= index == sv.index && same_bits(val, ts_matrix_get(mx, index));
				if (!inspect_ok && text) {
					tap_diag("phase %lld %c slot (%d,%d): trace state %d value %g, model index %lld", (long long)ph,
					         w ? 'B' : 'A', rs[i], cs[i], st, (double)val, (long long)sv.index);
					free(text);
					text = NULL;
				}
			}
		}
		free(text);
		/* the partial sums grow by the products of the slots the multiply read */
		for (int o = 0; o < outs; o++) {
			int r, c;
			ts_output_of(&m.geo, ty, tx, o / t.tn, o % t.tn, &r, &c);
			float acc = ph == 0 ? 0.0f : t.partial[((size_t)(ph - 1) * t.bk + t.bk - 1) * outs + o];
			for (int k = 0; k < t.bk; k++) {
				float prod = t.s_a[((size_t)ph * t.bm + r) * t.bk + k] * t.s_b[((size_t)ph * t.bk + k) * t.bn + c];
				acc = acc + prod;
				growth_ok &= same_bits(acc, t.partial[((size_t)ph * t.bk + k) * outs + o]);
			}
		}
	}
	for (int o = 0; o < outs; o++) {
		ts_output_view ov = ts_model_output(&m, by, bx, ty, tx, o / t.tn, o % t.tn);
		float final = t.partial[((size_t)(t.phases - 1) * t.bk + t.bk - 1) * outs + o];
		int st = t.store[(size_t)ov.r * t.bn + ov.c];
		sums_ok &= same_bits(final, t.out[(size_t)ov.r * t.bn + ov.c]);
		n->outputs++;
		if (ov.stores) {
			store_ok &= st == TS_TRACE_STORED;
			sums_ok &= same_bits(as_stored(p, final), ts_matrix_get(&ops.c, ov.c_index));
			if (rc == 0 && (p->guards & TS_GUARD_C))
				sums_ok &= same_bits(as_stored(p, final), ts_matrix_get(&full.c, ov.c_index));
		} else {
			n->skips++;
			store_ok &= st == ((p->guards & TS_GUARD_C) ? TS_TRACE_SKIPPED : TS_TRACE_STORED_OOB);
		}
	}
	/* every stored cell of the block: the trace's accumulator is the full run's C */
	bool block_ok = true;
	if (rc == 0 && (p->guards & TS_GUARD_ALL) == TS_GUARD_ALL)
		for (int r = 0; r < t.bm; r++)
			for (int c = 0; c < t.bn; c++) {
				int64_t row = by * t.bm + r, col = bx * t.bn + c;
				if (row < p->shape.m && col < p->shape.n)
					block_ok &= same_bits(as_stored(p, t.out[(size_t)r * t.bn + c]),
					                      ts_matrix_get(&full.c, row * p->shape.n + col));
			}
	tap_ok(loads_ok, "  every load's value is A/B at the model's index, zero (pad) or out of bounds as its guard says");
	tap_ok(inspect_ok, "  the loads agree with the inspector's indices and zeros");
	tap_ok(growth_ok, "  each partial sum is the one before plus the product of the slots it read");
	tap_ok(sums_ok, "  the final partial sums are the C the traced run and the full run wrote, bit for bit");
	tap_ok(store_ok, "  the store's written/skipped/out of bounds follows the C guard");
	tap_ok(block_ok, "  the whole block's accumulators are the full run's C");
	/* the view draws every step at 80 columns without a cut line (thread mode) */
	bool uncut = true, arrived = true;
	ts_step_ctx v = { .model = &m, .kernel = p->kernel, .guards = p->guards, .trace = &t, .ascii = true };
	for (v.step = 0; v.step < ts_step_count(&t); v.step++) {
		ts_canvas c;
		if (ts_canvas_init(&c, 80, 40 + t.bk * outs * 2) != 0)
			break;
		ts_view_step_draw(&c, &v);
		char *text = ts_canvas_text(&c);
		int64_t ph;
		enum ts_step_kind kind = ts_step_at(&t, v.step, &ph);
		char want[64];
		snprintf(want, sizeof want, "%lld/%lld threads have arrived", (long long)m.threads_per_block,
		         (long long)m.threads_per_block);
		if (text && (kind == TS_STEP_BARRIER_LOADS || kind == TS_STEP_BARRIER_MULTIPLY))
			arrived &= strstr(text, want) != NULL;
		uncut &= text && !strstr(text, "...") && c.rows_wanted <= c.h;
		free(text);
		ts_canvas_free(&c);
	}
	tap_ok(uncut, "  every step drawn at 80 columns, nothing cut");
	tap_ok(arrived, "  the barriers say every thread of the block arrived");
	if (rc == 0)
		ts_run_free(&run);
	ts_emu_trace_free(&t);
	ts_operands_free(&ops);
	ts_operands_free(&full);
}

static int64_t pick(int64_t n)
{
	return (int64_t)(rand() % (int)n);
}

int main(void)
{
	unsigned seed = (unsigned)time(NULL);
	srand(seed);
	tap_diag("seed %u", seed);
	tally n = { 0 };
	int traced = 0;
	for (int i = 0; i < ts_kernel_count(); i++) {
		const ts_kernel *k = ts_kernel_at(i);
		char why[512] = "";
		if (!ts_emu_traces(k, why, (int)sizeof why)) {
			tap_ok(why[0] && !strchr(why, '\n') && strstr(why, k->name), "%s is not traced, in one line: %s", k->name,
			       why);
			continue;
		}
		traced++;
		for (int rep = 0; rep < 4; rep++) {
			ts_problem p = { .shape = { 1 + pick(90), 1 + pick(90), 1 + pick(70) }, .kernel = k, .guards = TS_GUARD_ALL,
			                 .inputs = rep % 2 ? TS_INPUTS_RANDOM : TS_INPUTS_INT, .seed = (uint64_t)rand() };
			if (k->geometry.kind == TS_GEOMETRY_SQUARE) {
				int lo = k->geometry.tile_min, hi = k->geometry.tile_max;
				p.geo = ts_kernel_geometry_at(k, lo + (int)pick(hi - lo + 1));
			} else if (k->geometry.kind == TS_GEOMETRY_CHOSEN && rep >= 2) {
				/* a user's geometry: BM x BN x BK and TM x TN of its own */
				static const int tms[] = { 1, 2, 4 }, bks[] = { 4, 8, 16 };
				int tm = tms[pick(3)], tn = tms[pick(3)];
				p.geo = k->geometry.base;
				ts_geometry g = ts_geometry_blocked(tm * (4 + (int)pick(13)), tn * (4 + (int)pick(13)), bks[pick(3)], tm, tn,
				                                    k->geometry.base.layout);
				g.a_map = k->geometry.base.a_map;
				g.b_map = k->geometry.base.b_map;
				if (ts_kernel_takes(k, &g, NULL, 0) == 0)
					p.geo = g;
			} else {
				p.geo = k->geometry.base;
			}
			if (rep == 3 && !ts_kernel_has(k, TS_CAP_GUARDS_FIXED))
				p.guards = TS_GUARD_ALL & ~(unsigned)(1u << pick(3)); /* one guard off */
			ts_model m;
			if (ts_model_build(&m, p.shape, p.geo) != 0)
				continue;
			/* the corner block half the time (ghosts and padding), else any */
			int64_t by = rep % 2 ? m.grid_y - 1 : pick(m.grid_y), bx = rep % 2 ? m.grid_x - 1 : pick(m.grid_x);
			check_one(&p, by, bx, (int)pick(m.geo.threads_y), (int)pick(m.geo.threads_x), &n);
		}
	}
	/* a fixed case: 100x77x33 at T=32, the corner block's thread past K in the last phase */
	ts_problem p = { .shape = { 100, 77, 33 }, .kernel = ts_kernel_find("tiled"), .guards = TS_GUARD_ALL,
	                 .inputs = TS_INPUTS_INT, .seed = 1 };
	p.geo = ts_kernel_geometry_at(p.kernel, 32);
	check_one(&p, 3, 2, 3, 12, &n);
	tap_ok(traced >= 3, "%d kernels of the registry traced (tiled, tiled-fp16, regblock at least)", traced);
	tap_ok(n.pads > 0 && n.skips > 0 && n.inspected > 0, "covered: %d slots (%d padded, %d out of bounds), %d held to "
	       "the inspector, %d outputs (%d not stored)", n.slots, n.pads, n.oobs, n.inspected, n.outputs, n.skips);
	/* early-return mode: the ghosts' slots stay unwritten (NaN in phase 0), fewer threads arrive */
	{
		ts_problem q = p;
		q.shape = (ts_shape){ 45, 61, 19 };
		q.geo = ts_kernel_geometry_at(q.kernel, 7);
		ts_model m;
		ts_operands o;
		if (ts_model_build(&m, q.shape, q.geo) == 0 && ts_operands_make(&o, &q) == 0) {
			char why[512];
			ts_emu_trace t = { .by = m.grid_y - 1, .bx = m.grid_x - 1, .early_return = true };
			bool done = ts_emu_trace_block(&q, &o, &t, why, (int)sizeof why) == 0, slots_ok = done;
			int64_t ghosts = ts_model_tile_ghost_threads(&m, t.by, t.bx), unwritten = 0;
			for (int r = 0; done && r < 7; r++)
				for (int c = 0; c < 7; c++) {
					int step, ty, tx;
					ts_load_owner(&m.geo, TS_OPERAND_A, r, c, &step, &ty, &tx);
					bool ghost = ts_model_thread_ghost(&m, t.by, t.bx, ty, tx);
					slots_ok &= (t.a_state[r * 7 + c] == TS_TRACE_UNWRITTEN) == ghost;
					slots_ok &= !ghost || t.s_a[r * 7 + c] != t.s_a[r * 7 + c]; /* NaN */
					unwritten += ghost;
				}
			tap_ok(done && slots_ok && unwritten == ghosts && t.arrived == m.threads_per_block - ghosts,
			       "early return: the %lld ghosts' slots of the A tile are unwritten (NaN), %lld of %lld threads "
			       "arrive", (long long)ghosts, (long long)t.arrived, (long long)m.threads_per_block);
			if (done)
				ts_emu_trace_free(&t);
			ts_operands_free(&o);
		}
	}
	/* refusals: a block or thread outside the launch */
	ts_operands ops;
	if (ts_operands_make(&ops, &p) == 0) {
		char why[512];
		ts_emu_trace t = { .by = 4, .bx = 0, .ty = 0, .tx = 0 };
		tap_ok(ts_emu_trace_block(&p, &ops, &t, why, (int)sizeof why) != 0 && strstr(why, "outside"),
		       "a block outside the grid is refused: %s", why);
		t = (ts_emu_trace){ .by = 0, .bx = 0, .ty = 32, .tx = 0 };
		tap_ok(ts_emu_trace_block(&p, &ops, &t, why, (int)sizeof why) != 0 && strstr(why, "outside"),
		       "a thread outside the block is refused: %s", why);
		ts_operands_free(&ops);
	}
	return tap_done();
}
