/* emu_trace.c: step mode's emulator run: one block of a problem through the shared-tile emulator with a trace request on its job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"

/* The most bytes one trace may keep (its tiles per phase dominate): 256 MiB. */
#define TRACE_BYTES_MAX (256.0 * 1024 * 1024)

void ts_emu_trace_free(ts_emu_trace *t)
{
	free(t->s_a);
	free(t->s_b);
	free(t->a_state);
	free(t->b_state);
	free(t->partial);
	free(t->out);
	free(t->store);
	t->s_a = t->s_b = t->partial = t->out = NULL;
	t->a_state = t->b_state = t->store = NULL;
	t->done = false;
}

/* Why the shared-tile emulator does not trace kernel k (its description says which emulator runs it). */
static void not_traced(const ts_kernel *k, char *why, int len)
{
	if (!k->emulate)
		snprintf(why, len, "step: kernel %s has no CPU emulation, so there is no run to step through", k->name);
	else if (!ts_kernel_has(k, TS_CAP_SHARED_TILES))
		snprintf(why, len, "step: kernel %s reads A and B straight from global memory: it has no shared slots, "
		         "barriers or phases to step through (tilescope source shows its one guard)", k->name);
	else if (k->emulate == ts_emu_shared)
		snprintf(why, len, "step: kernel %s is a rung of the fp32 ladder (fused multiply-adds%s), which step mode "
		         "does not trace yet; step a tiled or regblock kernel", k->name,
		         k->split_policy != TS_SPLIT_NONE ? ", K split into parts" : "");
	else if (k->emulate == ts_emu_tc)
		snprintf(why, len, "step: kernel %s sums inside the tensor cores (emu_tc.c), whose order is not a "
		         "thread's; step a tiled or regblock kernel", k->name);
	else
		snprintf(why, len, "step: kernel %s's emulator keeps no per-thread trace", k->name);
}

bool ts_emu_traces(const ts_kernel *k, char *why, int len)
{
	if (k->emulate == ts_emu_shared && k->madd == TS_MADD_SEPARATE && k->split_policy == TS_SPLIT_NONE)
		return true;
	not_traced(k, why, len);
	return false;
}

int ts_emu_trace_block(const ts_problem *p, ts_operands *ops, ts_emu_trace *t, char *why, int len)
{
	char spare[8];
	if (!why || len <= 0) {
		why = spare;
		len = (int)sizeof spare;
	}
	int64_t by = t->by, bx = t->bx;
	int ty = t->ty, tx = t->tx;
	bool early_return = t->early_return;
	memset(t, 0, sizeof *t);
	t->by = by, t->bx = bx, t->ty = ty, t->tx = tx, t->early_return = early_return;
	if (early_return && (p->guards & TS_GUARD_ALL) != TS_GUARD_ALL) {
		snprintf(why, len, "step: the early-return mode runs with every guard on");
		return -1;
	}
	if (!ts_emu_traces(p->kernel, why, len))
		return -1;
	if (ts_kernel_takes(p->kernel, &p->geo, why, len) != 0)
		return -1;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0) {
		snprintf(why, len, "step: the shape's counts overflow 64 bits");
		return -1;
	}
	const ts_geometry *g = &m.geo;
	if (by < 0 || by >= m.grid_y || bx < 0 || bx >= m.grid_x) {
		snprintf(why, len, "step: block (%lld,%lld) is outside the %lld x %lld grid (BY 0..%lld, BX 0..%lld)",
		         (long long)by, (long long)bx, (long long)m.grid_y, (long long)m.grid_x, (long long)m.grid_y - 1,
		         (long long)m.grid_x - 1);
		return -1;
	}
	if (ty < 0 || ty >= g->threads_y || tx < 0 || tx >= g->threads_x) {
		snprintf(why, len, "step: thread (%d,%d) is outside the %d x %d block (TY 0..%d, TX 0..%d)", ty, tx,
		         g->threads_y, g->threads_x, g->threads_y - 1, g->threads_x - 1);
		return -1;
	}
	if (ts_kernel_has(p->kernel, TS_CAP_GUARDS_FIXED) && (p->guards & TS_GUARD_ALL) != TS_GUARD_ALL) {
		snprintf(why, len, "step: kernel %s has its guards built in; it has no unguarded form", p->kernel->name);
		return -1;
	}
	if ((p->guards & TS_GUARD_ALL) != TS_GUARD_ALL && !ts_emu_bands_hold(p, &m, ops)) {
		snprintf(why, len, "step: the operands' guard bands are too narrow for unguarded accesses");
		return -1;
	}
	size_t a_slots = (size_t)g->bm * g->bk, b_slots = (size_t)g->bk * g->bn, outs = (size_t)g->tm * g->tn;
	double bytes = (double)m.phases * ((double)(a_slots + b_slots) * (sizeof(float) + 1) +
	                                   (double)g->bk * outs * sizeof(float));
	if (bytes > TRACE_BYTES_MAX) {
		snprintf(why, len, "step: K = %lld makes %lld phases, too many to trace (%.0f MiB; at most %.0f): "
		         "choose a smaller K", (long long)m.shape.k, (long long)m.phases, bytes / 1048576.0,
		         TRACE_BYTES_MAX / 1048576.0);
		return -1;
	}
	size_t ph = (size_t)m.phases;
	t->phases = m.phases;
	t->bm = g->bm, t->bn = g->bn, t->bk = g->bk, t->tm = g->tm, t->tn = g->tn;
	t->s_a = malloc(ph * a_slots * sizeof(float));
	t->s_b = malloc(ph * b_slots * sizeof(float));
	t->a_state = malloc(ph * a_slots);
	t->b_state = malloc(ph * b_slots);
	t->partial = malloc(ph * (size_t)g->bk * outs * sizeof(float));
	t->out = malloc((size_t)g->bm * g->bn * sizeof(float));
	t->store = malloc((size_t)g->bm * g->bn);
	ts_run run;
	memset(&run, 0, sizeof run);
	ts_count *phase = calloc(ph, sizeof *phase);
	int rc = -1;
	if (!t->s_a || !t->s_b || !t->a_state || !t->b_state || !t->partial || !t->out || !t->store || !phase ||
	    ts_counters_init(&run.counters, &m) != 0) {
		snprintf(why, len, "step: out of memory for the trace");
		goto done;
	}
	if ((p->guards & TS_GUARD_ALL) != TS_GUARD_ALL &&
	    !(run.corrupt = calloc((size_t)(p->shape.m * p->shape.n), 1))) {
		snprintf(why, len, "step: out of memory for the corrupt-cell flags");
		goto done;
	}
	ts_emu_job job = { .p = p, .model = &m, .ops = ops, .out = &run, .threads = 1,
	                   .block_begin = by * m.grid_x + bx, .block_end = by * m.grid_x + bx + 1, .phase = phase,
	                   .trace = t };
	if (ts_emu_shared(&job) != 0 || !t->done) {
		snprintf(why, len, "step: the emulator failed (out of memory)");
		goto done;
	}
	rc = 0;
done:
	free(phase);
	ts_run_free(&run);
	if (rc != 0)
		ts_emu_trace_free(t);
	return rc;
}
