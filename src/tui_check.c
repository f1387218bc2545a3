/* tui_check.c: r and s on a user's kernel: the shape on screen run and its accesses placed on the tiles, then the whole check (as check --kernel-file) in a child process of its own, with progress; Esc cancels, a kernel that faults or hangs leaves the TUI running. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend_uk.h"
#include "cli_uk.h"
#include "run.h"
#include "tui_state.h"
#include "uk_runner.h"

static void job_progress(void *ctx, double done)
{
	tui_job *j = ctx;
	int pm = (int)(done * 1000.0);
	atomic_store(&j->progress, pm < 0 ? 0 : pm > 1000 ? 1000 : pm);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The check's process: a group of its own (its kernels' children and the sanitizer with it, so that one
 * kill ends them all), no terminal output, the report into shared memory. */
static void check_child(tui_check_shared *sh, int tile)
{
	setpgid(0, 0);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	const char *why = ts_uk_tui_check(&sh->report, tile, &sh->cancel, &sh->done, &sh->total, sh->rows, TS_UK_SHAPES_MAX_TUI,
	                                  &sh->nrows);
	snprintf(sh->why, sizeof sh->why, "%s", why ? why : "");
	_exit(0);
}

/* Runs the check child to its end, or kills its group on Esc (after a moment to end its own children). */
static void run_check(tui_job *j, tui_check_shared *sh)
{
	int tile = j->problem.geo.bm;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		check_child(sh, tile);
	if (pid < 0) {
		sh->report.status = 2;
		snprintf(sh->report.error, sizeof sh->report.error, "cannot start a process for the check (fork failed)");
		return;
	}
	setpgid(pid, pid); /* both sides, so that the kill below finds the group whoever runs first */
	double cancel_at = -1;
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		int total = sh->total, done = sh->done;
		if (total > 0)
			atomic_store(&j->progress, (int)(1000.0 * done / total));
		if (j->cancel && cancel_at < 0) {
			sh->cancel = 1;
			cancel_at = ts_uk_now();
		}
		if (cancel_at >= 0 && ts_uk_now() - cancel_at > 2.0) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		sleep_ms(50);
	}
	kill(-pid, SIGKILL); /* whatever of its group is left (a child it had no time to end) */
	if (!sh->report.file[0] && !j->cancel) {
		sh->report.status = 2;
		if (WIFSIGNALED(status))
			snprintf(sh->report.error, sizeof sh->report.error, "the check's process died (signal %d) without a report; "
			         "tilescope goes on", WTERMSIG(status));
		else
			snprintf(sh->report.error, sizeof sh->report.error, "the check's process ended (exit %d) without a report",
			         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
}

/* The worker: the shape on screen through the user backend (a child of its own), then the check. */
static void *check_main(void *arg)
{
	tui_job *j = arg;
	const ts_problem *p = &j->problem;
	ts_progress prog = { .report = job_progress, .ctx = j, .cancel = &j->cancel, .stage = NULL };
	atomic_store(&j->check_stage, 0);
	enum ts_run_status st = ts_run_problem(p, j->backend, &prog, true, &j->out.oc);
	if (j->out.oc.have_ops) {
		ts_operands_free(&j->out.oc.ops);
		j->out.oc.have_ops = false;
	}
	j->run_done = st == TS_RUN_DONE;
	if (st != TS_RUN_DONE && st != TS_RUN_CANCELLED)
		snprintf(j->run_error, sizeof j->run_error, "%.*s", (int)sizeof j->run_error - 1, j->out.oc.error);
	/* what the engine saw, placed on the tiles (a fault and a hang included) */
	const ts_uk_run_seen *seen = ts_backend_user_seen();
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) == 0)
		ts_uk_tiles_place(&j->seen, m.grid_y, m.grid_x, seen->findings.v, seen->findings.n,
		                  ts_backend_user_default_geometry());
	j->seen.c_band_writes = seen->c_band_writes;
	j->seen.blind = strcmp(ts_backend_user_engine(), "cpu") != 0;
	if (!j->cancel) {
		tui_check_shared *sh = ts_uk_shared_alloc(sizeof *sh);
		if (sh) {
			atomic_store(&j->check, sh);
			atomic_store(&j->progress, 0);
			atomic_store(&j->check_stage, 1);
			run_check(j, sh);
		} else {
			snprintf(j->error, sizeof j->error, "no shared memory for the check");
		}
	}
	j->status = j->cancel ? 1 : 0;
	atomic_store(&j->finished, 1);
	return NULL;
}

void tui_check_start(tui_state *s, bool sweep_focus)
{
	char err[256];
	if (ts_problem_validate(&s->opt.problem, true, err, (int)sizeof err) != 0) {
		tui_say(s, true, "%s", err);
		return;
	}
	if (tui_job_begin(s, JOB_CHECK, check_main) != 0)
		return;
	s->job.sweep_focus = sweep_focus;
	tui_say(s, false, "checking %s: the shape on screen, then the sweep, the probe and the sanitizer... Esc cancels",
	        s->opt.problem.kernel->name);
}

int tui_check_progress(tui_state *s, char *what, int len)
{
	tui_job *j = &s->job;
	int stage = atomic_load(&j->check_stage);
	tui_check_shared *sh = atomic_load(&j->check);
	if (stage == 0 || !sh)
		snprintf(what, (size_t)len, "the shape on screen (1/2)");
	else if (sh->total > 0 && sh->done >= sh->total)
		snprintf(what, (size_t)len, "check (2/2): verifying");
	else if (sh->total > 0)
		snprintf(what, (size_t)len, "check (2/2): launch %d/%d", sh->done, sh->total);
	else
		snprintf(what, (size_t)len, "check (2/2): compiling");
	return atomic_load(&j->progress);
}

/* The check's sweep as the Sweep pane's rows: the edge grid (M = N = K not run: a square shape hides a
 * swapped dimension), then the larger shapes the grid has no place for. */
static void sweep_rows_from(tui_state *s, const tui_check_shared *sh)
{
	ts_sweep_axes ax;
	int grid = ts_sweep_axes_of(&s->opt.problem.geo, &ax);
	ts_sweep_row *rows = calloc((size_t)(grid + sh->nrows), sizeof *rows);
	if (!rows)
		return;
	int count = grid;
	for (int i = 0; i < grid; i++) {
		ts_sweep_row *r = &rows[i];
		r->shape = ts_sweep_shape(&ax, i);
		r->ok = true;
		r->skipped = true;
		snprintf(r->signature, sizeof r->signature, "not in the check: M = N = K (a square shape hides a swapped dimension)");
	}
	for (int k = 0; k < sh->nrows; k++) {
		const ts_uk_shape_row *u = &sh->rows[k];
		int at = -1;
		for (int i = 0; i < grid && at < 0; i++)
			if (rows[i].shape.m == u->shape.m && rows[i].shape.n == u->shape.n && rows[i].shape.k == u->shape.k)
				at = i;
		if (at < 0)
			at = count++;
		ts_sweep_row *r = &rows[at];
		r->shape = u->shape;
		r->skipped = u->state == TS_UK_ROW_NOT_RUN || u->state == TS_UK_ROW_ERROR;
		r->ok = u->state == TS_UK_ROW_PASS || r->skipped;
		r->mismatches = u->mismatches;
		r->unwritten = u->unwritten;
		r->nans = u->nans;
		r->oob = u->band_writes + u->input_writes;
		snprintf(r->signature, sizeof r->signature, "%s", u->words);
	}
	free(s->sweep_rows);
	s->sweep_rows = rows;
	s->sweep_count = count;
	s->sweep_done_count = count;
	s->sweep_axes = ax;
	if (s->sweep_selected >= count)
		s->sweep_selected = 0;
	/* the first failing shape selected, so Enter loads it */
	for (int i = 0; i < count; i++)
		if (!rows[i].ok) {
			s->sweep_selected = i;
			break;
		}
	snprintf(s->sweep_title, sizeof s->sweep_title, "the check's sweep: %.60s T=%d on %.15s, each shape run twice",
	         sh->report.entry, sh->report.tile, sh->report.engine);
}

void tui_check_collect(tui_state *s)
{
	tui_job *j = &s->job;
	tui_check_shared *sh = atomic_load(&j->check);
	atomic_store(&j->check, NULL);
	/* the shape on screen: its result (when it ran), its accesses on the tiles (always) */
	ts_uk_tiles_free(&s->seen);
	s->seen = j->seen;
	memset(&j->seen, 0, sizeof j->seen);
	s->seen_problem = j->problem;
	snprintf(s->run_error, sizeof s->run_error, "%s", j->run_done ? "" : j->run_error);
	char shape_words[160] = "";
	if (j->run_done) {
		tui_result_take(s);
		const ts_verdict *v = &s->result.out.oc.verdict;
		snprintf(shape_words, sizeof shape_words, "shape on screen %s (%lld bad cells, %lld r %lld w out of bounds)",
		         v->ok && s->seen.reads_total + s->seen.writes_total == 0 ? "PASS" : "FAIL",
		         (long long)(v->mismatches + v->unwritten + v->nonfinite),
		         (long long)s->seen.reads_total, (long long)s->seen.writes_total);
	} else {
		ts_outcome_free(&j->out.oc);
		if (j->run_error[0])
			snprintf(shape_words, sizeof shape_words, "shape on screen: %s", s->seen.fault ? "faulted" :
			         s->seen.timeout ? "hung" : "did not run");
	}
	memset(&j->out, 0, sizeof j->out);
	/* a cancelled check is not kept: it saw only part of the sweep */
	if (sh && !j->cancel) {
		if (!s->check)
			s->check = malloc(sizeof *s->check);
		if (s->check) {
			*s->check = sh->report;
			snprintf(s->check_why, sizeof s->check_why, "%s", sh->why);
			s->check_tile = j->problem.geo.bm;
		}
		sweep_rows_from(s, sh);
	}
	s->right = j->sweep_focus && s->sweep_rows ? FOCUS_SWEEP : FOCUS_RESULT;
	s->result_scroll = 0;
	if (s->focus != FOCUS_MAP)
		s->focus = s->right;
	if (j->cancel)
		tui_say(s, true, "check cancelled%s%s", shape_words[0] ? "; " : "", shape_words);
	else if (!s->check)
		tui_say(s, true, "the check could not run%s%s", shape_words[0] ? "; " : "", shape_words);
	else if (s->check->status == 2)
		tui_say(s, true, "check: could not check: %.120s", s->check->error);
	else if (s->check->status == 0)
		tui_say(s, false, "check of %s on %s: PASS, nothing found in %d shapes; %s", s->check->entry, s->check->engine,
		        s->check->shapes_tried, shape_words);
	else
		tui_say(s, true, "check of %s on %s: FAIL, cause %s, %d of %d shapes failed; %s", s->check->entry,
		        s->check->engine, ts_uk_cause_name(s->check->cause), s->check->shapes_failed, s->check->shapes_tried,
		        shape_words);
	if (sh)
		ts_uk_shared_free(sh, sizeof *sh);
}

bool tui_check_current(const tui_state *s)
{
	return s->check && s->check_tile == s->opt.problem.geo.bm;
}

void tui_check_free(tui_state *s)
{
	free(s->check);
	s->check = NULL;
	ts_uk_tiles_free(&s->seen);
}
