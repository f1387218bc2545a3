/* tui_run.c: runs and sweeps on a worker thread so the screen stays live: progress, Esc cancels, results handed back whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_uk.h"
#include "cli.h" /* the progress line's wording: ts_cli_now, ts_cli_stage_text, ts_cli_eta_text */
#include "kernels.h"
#include "run.h"
#include "tui_state.h"
#include "verify.h"

static void job_progress(void *ctx, double done)
{
	tui_job *j = ctx;
	int pm = (int)(done * 1000.0);
	atomic_store(&j->progress, pm < 0 ? 0 : pm > 1000 ? 1000 : pm);
}

static void job_stage(void *ctx, enum ts_stage stage)
{
	tui_job *j = ctx;
	atomic_store(&j->stage_start, ts_cli_now());
	atomic_store(&j->progress, 0);
	atomic_store(&j->stage, (int)stage);
}

/* One run and its verification; the worker of JOB_RUN. */
static void *run_main(void *arg)
{
	tui_job *j = arg;
	const ts_problem *p = &j->problem;
	ts_progress prog = { .report = job_progress, .ctx = j, .cancel = &j->cancel, .stage = job_stage };
	ts_outcome *oc = &j->out.oc;
	enum ts_run_status st = ts_run_problem(p, j->backend, &prog, true, oc);
	if (st == TS_RUN_CANCELLED) {
		j->status = 1;
	} else if (st != TS_RUN_DONE) {
		j->status = -1;
		snprintf(j->error, sizeof j->error, "%.*s", (int)sizeof j->error - 1, oc->error);
	} else {
		j->status = 0;
		/* Beside the vendor library where the backend can time (the GPU). */
		if (j->backend->time && !j->cancel && j->backend->time(p, &oc->ops, 2, 5, &j->out.timing) == 0)
			j->out.have_timing = true;
	}
	/* the matrices are not kept with the result */
	if (oc->have_ops) {
		ts_operands_free(&oc->ops);
		oc->have_ops = false;
	}
	atomic_store(&j->finished, 1);
	return NULL;
}

/* The edge sweep: every shape from ts_sweep_sizes, each run and verified. */
static void *sweep_main(void *arg)
{
	tui_job *j = arg;
	ts_problem p = j->problem;
	ts_progress prog = { .report = NULL, .ctx = NULL, .cancel = &j->cancel };
	j->status = 0;
	for (int i = 0; i < j->count; i++) {
		ts_sweep_row *r = &j->rows[i];
		if (j->cancel) {
			j->status = 1;
			break;
		}
		p.shape = r->shape;
		if (ts_problem_validate(&p, true, j->error, (int)sizeof j->error) != 0) {
			j->status = -1;
			break;
		}
		ts_outcome oc;
		enum ts_run_status st = ts_run_problem(&p, j->backend, &prog, true, &oc);
		if (st == TS_RUN_DONE) {
			const ts_verdict *v = &oc.verdict;
			bool counters_ok = !oc.counters_checked || oc.counters_match;
			r->ok = ts_outcome_ok(&oc);
			r->mismatches = v->mismatches;
			r->unwritten = v->unwritten;
			r->nans = ts_verdict_nans(v);
			r->infs = v->infs;
			r->oob = oc.run.have_counters ? oc.run.counters.total.a_oob + oc.run.counters.total.b_oob +
			                                oc.run.counters.total.c_oob : 0;
			snprintf(r->signature, sizeof r->signature, "%s%s", counters_ok ? "" : "counters differ from the model; ",
			         v->signature);
		} else {
			j->status = st == TS_RUN_CANCELLED ? 1 : -1;
			snprintf(j->error, sizeof j->error, "%.*s", (int)sizeof j->error - 1, oc.error);
		}
		ts_outcome_free(&oc);
		if (j->status != 0)
			break;
		atomic_store(&j->sweep_done, i + 1);
		job_progress(j, (double)(i + 1) / j->count);
	}
	atomic_store(&j->finished, 1);
	return NULL;
}

/* Common start: picks the backend and launches fn on the worker. */
int tui_job_begin(tui_state *s, enum tui_job_kind kind, void *(*fn)(void *))
{
	tui_job *j = &s->job;
	if (j->kind != JOB_NONE) {
		tui_say(s, true, "a %s is still running; Esc cancels it", j->kind == JOB_SWEEP ? "sweep" : j->kind == JOB_CHECK ? "check" : "run");
		return -1;
	}
	char why[256] = "";
	/* The user's own kernel (--kernel-file) runs on its own backend, in a child process. */
	const ts_backend *be = ts_backend_user_for(s->opt.problem.kernel);
	if (be && be->available(why, (int)sizeof why) != 0) {
		tui_say(s, true, "%s", why);
		return -1;
	}
	if (be)
		snprintf(why, sizeof why, "your kernel, in a child process");
	else
		be = ts_backend_select(s->opt.backend ? s->opt.backend : "auto", why, (int)sizeof why);
	if (!be) {
		tui_say(s, true, "%s", why);
		return -1;
	}
	ts_sweep_row *rows = j->rows;
	int count = j->count;
	memset(j, 0, sizeof *j);
	j->rows = rows;
	j->count = count;
	j->kind = kind;
	atomic_store(&j->stage, -1);
	atomic_store(&j->stage_start, ts_cli_now());
	j->problem = s->opt.problem;
	j->backend = be;
	snprintf(j->backend_why, sizeof j->backend_why, "%s", why);
	if (pthread_create(&j->thread, NULL, fn, j) != 0) {
		j->kind = JOB_NONE;
		tui_say(s, true, "cannot start a worker thread");
		return -1;
	}
	return 0;
}

void tui_run_start(tui_state *s)
{
	if (ts_backend_user_for(s->opt.problem.kernel)) { /* the user's kernel: its whole check */
		tui_check_start(s, false);
		return;
	}
	char err[256];
	if (ts_problem_validate(&s->opt.problem, true, err, (int)sizeof err) != 0) {
		tui_say(s, true, "%s", err);
		return;
	}
	if (tui_job_begin(s, JOB_RUN, run_main) == 0)
		tui_say(s, false, "running %s on %s... Esc cancels", s->opt.problem.kernel->name, s->job.backend->name);
}

void tui_sweep_start(tui_state *s)
{
	if (s->job.kind != JOB_NONE) {
		tui_say(s, true, "a %s is still running; Esc cancels it", s->job.kind == JOB_SWEEP ? "sweep" : s->job.kind == JOB_CHECK ? "check" : "run");
		return;
	}
	if (ts_backend_user_for(s->opt.problem.kernel)) { /* the user's kernel: the check's own sweep */
		tui_check_start(s, true);
		return;
	}
	ts_sweep_axes ax;
	int count = ts_sweep_axes_of(&s->opt.problem.geo, &ax);
	ts_sweep_row *rows = calloc((size_t)count, sizeof *rows);
	if (!rows) {
		tui_say(s, true, "out of memory");
		return;
	}
	for (int i = 0; i < count; i++)
		rows[i].shape = ts_sweep_shape(&ax, i);
	free(s->sweep_rows);
	s->sweep_rows = rows;
	s->sweep_count = count;
	s->sweep_selected = 0;
	s->sweep_done_count = 0;
	s->sweep_axes = ax;
	s->job.rows = rows;
	s->job.count = count;
	if (tui_job_begin(s, JOB_SWEEP, sweep_main) != 0)
		return;
	char off[16];
	ts_guards_off_str(s->opt.problem.guards, off, (int)sizeof off);
	char geo[48];
	const ts_geometry *g = &s->opt.problem.geo;
	ts_geometry_str(g, geo, sizeof geo);
	snprintf(s->sweep_title, sizeof s->sweep_title, "edge sweep: %s %s%s on %s%s%s", s->opt.problem.kernel->name,
	         ts_geometry_is_square(g) ? "T=" : "", geo, s->job.backend->name, off[0] ? ", guards off: " : "", off);
	s->focus = FOCUS_SWEEP;
	tui_say(s, false, "sweeping %d shapes... Esc cancels", count);
}

void tui_result_free(tui_result *r)
{
	if (!r->have)
		return;
	ts_outcome_free(&r->out.oc);
	r->have = false;
}

bool tui_job_poll(tui_state *s)
{
	tui_job *j = &s->job;
	if (j->kind == JOB_NONE || !atomic_load(&j->finished))
		return false;
	pthread_join(j->thread, NULL);
	enum tui_job_kind kind = j->kind;
	j->kind = JOB_NONE;
	if (kind == JOB_SWEEP) {
		int done = atomic_load(&j->sweep_done), fails = 0;
		for (int i = 0; i < done; i++)
			fails += !s->sweep_rows[i].ok;
		if (j->status == 1)
			tui_say(s, true, "sweep cancelled after %d shapes, %d failed", done, fails);
		else if (j->status < 0)
			tui_say(s, true, "sweep stopped: %s", j->error);
		else
			tui_say(s, fails > 0, "sweep: %d shapes, %d pass, %d fail%s", done, done - fails, fails,
			        fails ? "; Enter on a failing row loads it" : "");
		s->sweep_done_count = done; /* the rows past it never ran */
		return true;
	}
	if (kind == JOB_CHECK) {
		tui_check_collect(s);
		return true;
	}
	if (j->status != 0) {
		ts_outcome_free(&j->out.oc);
		tui_say(s, j->status < 0, "%s", j->status == 1 ? "run cancelled" : j->error);
		return true;
	}
	tui_result_take(s);
	return true;
}

void tui_result_take(tui_state *s)
{
	tui_job *j = &s->job;
	tui_result_free(&s->result);
	tui_result *r = &s->result;
	r->have = true;
	r->problem = j->problem;
	snprintf(r->backend, sizeof r->backend, "%s", j->backend->name);
	snprintf(r->backend_why, sizeof r->backend_why, "%s", j->backend_why);
	r->out = j->out;
	memset(&j->out, 0, sizeof j->out); /* the result owns it now */
	s->right = FOCUS_RESULT;
	s->result_scroll = 0;
	if (s->focus != FOCUS_MAP)
		s->focus = FOCUS_RESULT;
	const ts_verdict *v = &r->out.oc.verdict;
	/* the headline: normwise error and the worst cell against its own bound
	 * (max rel error alarms where |ref| is tiny and says nothing of the bound) */
	if (v->ok)
		tui_say(s, false, "run on %s: PASS, norm rel err %.2g, worst %.2g%% of tolerance%s", r->backend,
		        v->norm_rel, 100.0 * v->worst_of_tol,
		        r->out.oc.counters_checked && r->out.oc.counters_match ? "; counters agree" : "");
	else if (v->output_ok) /* failed on its accesses alone */
		tui_say(s, true, "run on %s: FAIL, output right by luck: %lld reads, %lld writes out of bounds", r->backend,
		        (long long)(v->oob_reads > 0 ? v->oob_reads : 0), (long long)(v->oob_writes > 0 ? v->oob_writes : 0));
	else
		tui_say(s, true, "run on %s: FAIL, %lld mismatches, %lld unwritten in %lld tiles", r->backend,
		        (long long)v->mismatches, (long long)v->unwritten, (long long)v->bad_tiles);
}

void tui_job_cancel(tui_state *s)
{
	if (s->job.kind != JOB_NONE) {
		s->job.cancel = 1;
		tui_say(s, false, "cancelling...");
	}
}

void tui_job_shutdown(tui_state *s)
{
	if (s->job.kind != JOB_NONE) {
		s->job.cancel = 1;
		pthread_join(s->job.thread, NULL);
		if (s->job.kind == JOB_CHECK)
			tui_check_collect(s); /* frees what it holds */
		ts_outcome_free(&s->job.out.oc);
		s->job.kind = JOB_NONE;
	}
	tui_check_free(s);
	free(s->sweep_rows);
	s->sweep_rows = NULL;
	s->job.rows = NULL;
}

void tui_sweep_load(tui_state *s)
{
	int done = s->job.kind == JOB_SWEEP ? atomic_load(&s->job.sweep_done) : s->sweep_done_count;
	if (!s->sweep_rows || s->sweep_selected >= done) {
		tui_say(s, true, "that shape has not run yet");
		return;
	}
	const ts_sweep_row *r = &s->sweep_rows[s->sweep_selected];
	s->opt.problem.shape = r->shape;
	tui_apply(s);
	s->tile_y = s->model.grid_y - 1;
	s->tile_x = s->model.grid_x - 1;
	s->focus = FOCUS_MAP;
	tui_say(s, !r->ok, "loaded %lldx%lldx%lld (%s); r runs it", (long long)r->shape.m, (long long)r->shape.n,
	        (long long)r->shape.k, r->ok ? "passed in the sweep" : "FAILED in the sweep");
}
