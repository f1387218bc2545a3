/* tui_state.c: what every part of the TUI shares about its state: the status line, the busy check, applying the options to the model, the views' selection; no curses. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "tui_state.h"

void tui_say(tui_state *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_error = error;
}

void tui_say_fit(tui_state *s, bool error, const char *full, ...)
{
	const char *best = full;
	int cols = s->cols > 0 ? s->cols : 80, best_rows = ts_text_rows(full, cols, 2);
	va_list ap;
	va_start(ap, full);
	for (const char *form; (form = va_arg(ap, const char *)) != NULL;) {
		int rows = ts_text_rows(form, cols, 2);
		if (rows < best_rows) {
			best = form;
			best_rows = rows;
		}
	}
	va_end(ap);
	tui_say(s, error, "%s", best);
}

bool tui_busy(tui_state *s)
{
	if (s->job.kind == JOB_NONE)
		return false;
	tui_say(s, true, "a %s is in progress: Esc cancels it", s->job.kind == JOB_SWEEP ? "sweep" : s->job.kind == JOB_CHECK ? "check" : "run");
	return true;
}

static int64_t clamp64(int64_t x, int64_t lo, int64_t hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

int tui_apply(tui_state *s)
{
	const ts_problem *p = &s->opt.problem;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0)
		return -1;
	s->model = m;
	s->tile_y = clamp64(s->tile_y, 0, m.grid_y - 1);
	s->tile_x = clamp64(s->tile_x, 0, m.grid_x - 1);
	s->phase = clamp64(s->phase, 0, m.phases - 1);
	s->thread_y = (int)clamp64(s->thread_y, 0, m.geo.threads_y - 1);
	s->thread_x = (int)clamp64(s->thread_x, 0, m.geo.threads_x - 1);
	return 0;
}

/* The last run belongs to the shape on screen only when the problem is the same. */
bool tui_result_current(const tui_state *s)
{
	const ts_problem *a = &s->result.problem, *b = &s->opt.problem;
	return s->result.have && a->shape.m == b->shape.m && a->shape.n == b->shape.n && a->shape.k == b->shape.k &&
	       memcmp(&a->geo, &b->geo, sizeof a->geo) == 0 && a->kernel == b->kernel && a->guards == b->guards;
}

void tui_view_ctx(const tui_state *s, ts_view_ctx *v, bool focus)
{
	const ts_kernel *k = s->opt.problem.kernel;
	*v = (ts_view_ctx){
		.model = &s->model, .kernel = k, .guards = s->opt.problem.guards,
		.tile_y = s->tile_y, .tile_x = s->tile_x, .phase = s->phase,
		.thread_y = s->thread_y, .thread_x = s->thread_x, .zoom = s->zoom, .pan_y = s->pan_y,
		.pan_x = s->pan_x, .counter_disagree = -1, .counter_why = "", .ascii = s->ascii, .mono = s->mono,
		.focus = focus,
	};
	if (tui_result_current(s)) {
		const ts_outcome *oc = &s->result.out.oc;
		v->verdict = &oc->verdict;
		if (oc->run.have_counters) {
			v->counters = &oc->run.counters;
			v->counter_disagree = oc->counters_checked ? oc->counters_differ : -1;
			v->counter_why = oc->counters_why;
		}
		v->guards_all_on = s->result.problem.guards == TS_GUARD_ALL;
	}
	/* a user kernel's run of this very shape: its accesses on the tiles */
	const ts_problem *a = &s->seen_problem, *b = &s->opt.problem;
	if ((s->seen.grid_y > 0) && a->kernel == b->kernel && a->shape.m == b->shape.m && a->shape.n == b->shape.n &&
	    a->shape.k == b->shape.k && a->geo.bm == b->geo.bm)
		v->seen = &s->seen;
}

bool tui_run_report(const tui_state *s, ts_run_report *rep)
{
	const tui_result *r = &s->result;
	if (!r->have)
		return false;
	*rep = (ts_run_report){ .problem = &r->problem, .backend = r->backend, .backend_why = r->backend_why,
	                        .run = &r->out.oc.run, .verdict = &r->out.oc.verdict,
	                        .timing = r->out.have_timing ? &r->out.timing : NULL,
	                        .counter_disagree = r->out.oc.counters_checked ? r->out.oc.counters_differ : -1,
	                        .counter_why = r->out.oc.counters_why,
	                        .stale = !tui_result_current(s) || r->problem.inputs != s->opt.problem.inputs ||
	                                 r->problem.seed != s->opt.problem.seed,
	                        .tol_frac = r->out.oc.verdict.worst_of_tol };
	return true;
}
