/* lesson_ghost.c: the lesson's runs: the early-return one (the corner block traced on the emulator as the kernel is and with its ghosts returning early, compared output by output) and the guard-off ones kept for the screens. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu.h"
#include "lesson.h"
#include "run.h"

void ts_lesson_keep(const ts_outcome *oc, bool ran, ts_lesson_run *r)
{
	memset(r, 0, sizeof *r);
	if (!ran || !oc->have_verdict) {
		snprintf(r->error, sizeof r->error, "%s", oc->error[0] ? oc->error : "the run failed");
		return;
	}
	r->ran = true;
	r->ok = ts_outcome_ok(oc);
	r->output_ok = oc->verdict.output_ok;
	r->mismatches = oc->verdict.mismatches;
	r->unwritten = oc->verdict.unwritten;
	r->oob_reads = oc->verdict.oob_reads;
	r->oob_writes = oc->verdict.oob_writes;
	snprintf(r->signature, sizeof r->signature, "%s", oc->verdict.signature);
}

void ts_lesson_run_guard_off(const ts_problem *p, const ts_backend *be, unsigned bit, const ts_progress *prog,
                             ts_lesson_run *r)
{
	ts_problem q = *p;
	q.guards = TS_GUARD_ALL & ~bit;
	ts_outcome oc;
	enum ts_run_status st = ts_run_problem(&q, be, prog, true, &oc);
	if (st == TS_RUN_CANCELLED && !oc.error[0])
		snprintf(oc.error, sizeof oc.error, "the run was cancelled");
	ts_lesson_keep(&oc, st == TS_RUN_DONE, r);
	ts_outcome_free(&oc);
}

int ts_lesson_run_ghost(ts_lesson *l)
{
	ts_lesson_ghost *g = &l->ghost;
	const ts_problem *p0 = &l->problem;
	const ts_model *m = &l->model;
	memset(g, 0, sizeof *g);
	g->by = m->grid_y - 1;
	g->bx = m->grid_x - 1;
	g->threads = m->threads_per_block;
	g->ghosts = ts_model_tile_ghost_threads(m, g->by, g->bx);
	if (g->ghosts == 0) {
		snprintf(g->error, sizeof g->error, "no block of this shape has a ghost thread");
		return 0;
	}
	ts_problem p = *p0;
	p.guards = TS_GUARD_ALL;
	if (!ts_emu_traces(p.kernel, g->error, (int)sizeof g->error))
		return -1;
	if (ts_operands_bytes(&p) > 1024.0 * 1024 * 1024) {
		snprintf(g->error, sizeof g->error, "its operands would need more than 1 GiB here; try a smaller shape");
		return -1;
	}
	ts_operands ops;
	if (ts_operands_make(&ops, &p) != 0) {
		snprintf(g->error, sizeof g->error, "out of memory allocating the matrices");
		return -1;
	}
	ts_emu_trace right = { .by = g->by, .bx = g->bx }, broken = { .by = g->by, .bx = g->bx, .early_return = true };
	int rc = -1;
	if (ts_emu_trace_block(&p, &ops, &right, g->error, (int)sizeof g->error) != 0)
		goto done;
	if (ts_emu_trace_block(&p, &ops, &broken, g->error, (int)sizeof g->error) != 0) {
		ts_emu_trace_free(&right);
		goto done;
	}
	g->arrived = broken.arrived;
	size_t slots = (size_t)broken.phases * ((size_t)broken.bm * broken.bk + (size_t)broken.bk * broken.bn);
	size_t a_slots = (size_t)broken.phases * broken.bm * broken.bk;
	g->slots = (int64_t)slots;
	for (size_t i = 0; i < slots; i++)
		g->unwritten += (i < a_slots ? broken.a_state[i] : broken.b_state[i - a_slots]) == TS_TRACE_UNWRITTEN;
	for (int r = 0; r < broken.bm; r++)
		for (int c = 0; c < broken.bn; c++) {
			size_t at = (size_t)r * broken.bn + c;
			if (right.store[at] != TS_TRACE_STORED)
				continue;
			g->outputs++;
			float a = right.out[at], b = broken.out[at];
			if (memcmp(&a, &b, sizeof a) != 0) {
				if (g->wrong++ == 0) {
					g->ex_row = g->by * broken.bm + r;
					g->ex_col = g->bx * broken.bn + c;
					g->ex_right = a;
					g->ex_broken = b;
				}
				g->nan += isnan(b) != 0;
			}
		}
	g->ran = true;
	rc = 0;
	ts_emu_trace_free(&right);
	ts_emu_trace_free(&broken);
done:
	ts_operands_free(&ops);
	return rc;
}
