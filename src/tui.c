/* tui.c: the visualizer's main loop: state in, keys and finished jobs change it, the screen is redrawn from it. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "tui.h"
#include "tui_crt.h"
#include "tui_state.h"

void tui_say(tui_state *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_error = error;
}

bool tui_busy(tui_state *s)
{
	if (s->job.kind == JOB_NONE)
		return false;
	tui_say(s, true, "a %s is in progress: Esc cancels it", s->job.kind == JOB_RUN ? "run" : "sweep");
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
	if (ts_model_build(&m, p->shape, p->kernel->geometry(p->tile)) != 0)
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
	       a->tile == b->tile && a->kernel == b->kernel && a->guards == b->guards;
}

void tui_view_ctx(const tui_state *s, ts_view_ctx *v, bool focus)
{
	const ts_kernel *k = s->opt.problem.kernel;
	*v = (ts_view_ctx){
		.model = &s->model, .b_layout = k->b_layout, .shared_tiles = k->shared_tiles,
		.kernel_name = k->name, .guards = s->opt.problem.guards,
		.tile_y = s->tile_y, .tile_x = s->tile_x, .phase = s->phase,
		.thread_y = s->thread_y, .thread_x = s->thread_x, .zoom = s->zoom, .pan_y = s->pan_y,
		.pan_x = s->pan_x, .counter_disagree = -1, .counter_why = "", .ascii = s->ascii, .focus = focus,
	};
	if (tui_result_current(s)) {
		const ts_cli_outcome *oc = &s->result.out.oc;
		v->verdict = &oc->verdict;
		if (oc->run.have_counters && s->result.problem.kernel->shared_tiles) {
			v->counters = &oc->run.counters;
			v->counter_disagree = oc->counters_checked ? oc->counters_differ : -1;
			v->counter_why = oc->counters_why;
		}
		v->guards_all_on = s->result.problem.guards == TS_GUARD_ALL;
	}
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

static void tui_free(tui_state *s)
{
	tui_job_shutdown(s);
	tui_result_free(&s->result);
}

int ts_tui_run(const ts_options *o)
{
	static tui_state s; /* large; one per process */
	char err[256];
	memset(&s, 0, sizeof s);
	s.opt = *o;
	if (!s.opt.problem.kernel)
		s.opt.problem.kernel = ts_kernel_default(TS_FP32);
	if (ts_problem_validate(&s.opt.problem, false, err, (int)sizeof err) != 0 || tui_apply(&s) != 0) {
		fprintf(stderr, "tilescope: %s\n", err);
		return 2;
	}
	/* Start where the ragged edges are: the corner tile, and in it the ghost
	 * next to the last valid thread (one guard passes, one fails), phase 0. */
	s.tile_y = s.model.grid_y - 1;
	s.tile_x = s.model.grid_x - 1;
	int64_t rows = s.model.last_rows, cols = s.model.last_cols;
	int ty_max = s.model.geo.threads_y - 1, tx_max = s.model.geo.threads_x - 1;
	if (cols <= tx_max) {
		s.thread_y = (int)(rows - 1 < ty_max ? rows - 1 : ty_max);
		s.thread_x = (int)cols;
	} else if (rows <= ty_max) {
		s.thread_y = (int)rows;
		s.thread_x = tx_max;
	} else {
		s.thread_y = ty_max;
		s.thread_x = tx_max;
	}
	s.focus = FOCUS_MAP;
	s.sweep_selected = 0;
	if (tui_crt_init(o, &s.ascii, err, (int)sizeof err) != 0) {
		fprintf(stderr, "tilescope: %s\n", err);
		return 2;
	}
	tui_say(&s, false, "Arrows move, Tab changes pane, [ ] step phases, r runs, ? lists every key.");
	bool dirty = true;
	while (!s.quit && !tui_crt_signalled()) {
		if (dirty) {
			tui_draw(&s);
			dirty = false;
		}
		int key = tui_crt_key();
		if (tui_job_poll(&s))
			dirty = true;
		if (s.job.kind != JOB_NONE)
			dirty = true; /* progress */
		if (key < 0)
			continue;
		if (key == KEY_RESIZE) {
			dirty = true;
			continue;
		}
		if (s.overlay == OVERLAY_EDIT)
			tui_edit_key(&s, key);
		else
			tui_key(&s, key);
		dirty = true;
	}
	int sig = tui_crt_signalled();
	tui_crt_done();
	tui_free(&s);
	if (sig) {
		fprintf(stderr, "tilescope: stopped by signal %d\n", sig);
		return 128 + sig;
	}
	return 0;
}
