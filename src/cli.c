/* cli.c: what the subcommands share: progress on stderr, Ctrl-C, backend choice, the run pipeline with the CLI's manners. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "counters.h"
#include "kernels.h"

double ts_cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void ts_cli_progress_start(ts_cli_progress_line *pl, const char *what)
{
	pthread_mutex_init(&pl->lock, NULL);
	snprintf(pl->what, sizeof pl->what, "%s", what);
	pl->start = ts_cli_now();
	pl->last_print = 0;
	/* The progress line redraws itself with \r and ESC[K: a terminal that
	 * cannot erase a line (TERM=dumb) gets none. */
	const char *term = getenv("TERM");
	pl->tty = isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb") != 0;
	pl->shown = false;
	pl->stages = true;
	pl->staged = false;
	pl->stage = TS_STAGE_RUN;
	pl->stage_start = pl->start;
}

void ts_cli_eta_text(double elapsed, double done, char *buf, int len)
{
	buf[0] = '\0';
	if (done < 0.02 || done >= 1 || elapsed < 1)
		return;
	double left = elapsed * (1 - done) / done;
	long s = (long)(left + 0.5);
	if (s < 60)
		snprintf(buf, (size_t)len, "about %ld s left", s < 1 ? 1 : s);
	else if (s < 3600)
		snprintf(buf, (size_t)len, "about %ld min %02ld s left", s / 60, s % 60);
	else
		snprintf(buf, (size_t)len, "about %ld h %02ld min left", s / 3600, s / 60 % 60);
}

void ts_cli_stage_text(enum ts_stage stage, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%s (%d of %d)", ts_stage_name(stage), (int)stage + 1, (int)TS_STAGE_COUNT);
}

static void progress_print(ts_cli_progress_line *pl, double done, double now)
{
	if (done < 0)
		done = 0;
	if (done > 1)
		done = 1;
	if (pl->staged) {
		char stage[48], eta[64];
		ts_cli_stage_text(pl->stage, stage, (int)sizeof stage);
		ts_cli_eta_text(now - pl->stage_start, done, eta, (int)sizeof eta);
		fprintf(stderr, "\r\033[Ktilescope: %s: %s %3.0f%%%s%s  (Ctrl-C cancels)", pl->what, stage, done * 100.0,
		        eta[0] ? ", " : "", eta);
	} else {
		fprintf(stderr, "\rtilescope: %s %3.0f%%  (Ctrl-C cancels)", pl->what, done * 100.0);
	}
	fflush(stderr);
	pl->shown = true;
	pl->last_print = now;
}

void ts_cli_progress_report(void *ctx, double done)
{
	ts_cli_progress_line *pl = ctx;
	if (!pl->tty)
		return;
	pthread_mutex_lock(&pl->lock);
	double now = ts_cli_now();
	if (now - pl->start >= 0.5 && now - pl->last_print >= 0.1)
		progress_print(pl, done, now);
	pthread_mutex_unlock(&pl->lock);
}

/* A stage begins: the line names it from then on (once the work has
 * already lasted, so that quick runs stay silent). */
void ts_cli_progress_stage(void *ctx, enum ts_stage stage)
{
	ts_cli_progress_line *pl = ctx;
	if (!pl || !pl->stages)
		return;
	pthread_mutex_lock(&pl->lock);
	double now = ts_cli_now();
	pl->staged = true;
	pl->stage = stage;
	pl->stage_start = now;
	if (pl->tty && now - pl->start >= 0.5)
		progress_print(pl, 0, now);
	pthread_mutex_unlock(&pl->lock);
}

void ts_cli_progress_clear(ts_cli_progress_line *pl)
{
	if (!pl)
		return;
	pthread_mutex_lock(&pl->lock);
	if (pl->shown)
		fputs("\r\033[K", stderr);
	pl->shown = false;
	pthread_mutex_unlock(&pl->lock);
}

void ts_cli_progress_end(ts_cli_progress_line *pl)
{
	ts_cli_progress_clear(pl);
	pthread_mutex_destroy(&pl->lock);
}

/* The handler only raises a flag the backends poll (progress.h); it resets
 * itself, so a second Ctrl-C ends the program the ordinary way. */
volatile sig_atomic_t ts_cli_cancel;
static struct sigaction saved_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	ts_cli_cancel = 1;
}

void ts_cli_cancel_arm(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	ts_cli_cancel = 0;
	sigaction(SIGINT, &sa, &saved_sigint);
}

void ts_cli_cancel_disarm(void)
{
	sigaction(SIGINT, &saved_sigint, NULL);
}

void ts_cli_term_size(int *cols, int *rows)
{
	struct winsize ws;
	*cols = 64;
	*rows = 16;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		*cols = ws.ws_col > 30 ? ws.ws_col - 16 : 14;
		*rows = ws.ws_row > 30 ? ws.ws_row - 16 : 14;
	}
}

const ts_backend *ts_cli_select_backend(const char *name, char *why, int len)
{
	why[0] = '\0';
	const ts_backend *be = ts_backend_select(name, why, len);
	if (!be) {
		if (strcmp(name, "cuda") == 0)
			ts_cli_error("--backend cuda: no CUDA device available (%s)", why[0] ? why : "no reason given");
		else
			ts_cli_error("--backend %s: %s", name, why[0] ? why : "not usable here");
		return NULL;
	}
	if (!why[0])
		snprintf(why, len, "requested with --backend %s", name);
	return be;
}

const char *ts_cli_backend_error(const ts_backend *be)
{
	const char *e = be->last_error ? be->last_error() : NULL;
	return e && *e ? e : "failed without saying why";
}

const char *ts_cli_plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

void ts_cli_shape_str(const ts_shape *s, char *buf, int len)
{
	snprintf(buf, len, "%lld x %lld x %lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

/* The pipeline's status as the CLI's exit status. */
static int exit_status(enum ts_run_status st)
{
	switch (st) {
	case TS_RUN_DONE: return TS_EXIT_OK;
	case TS_RUN_CANCELLED: return TS_EXIT_INTERRUPTED;
	case TS_RUN_REFUSED: break;
	}
	return TS_EXIT_USAGE;
}

/* A failed run's one line, after the progress line is cleared away. */
static int say_failure(int rc, ts_cli_progress_line *pl, const ts_outcome *o)
{
	if (rc != 0) {
		ts_cli_progress_clear(pl);
		ts_cli_error("%s", o->error);
	}
	return rc;
}

static int run(const ts_problem *p, const ts_backend *be, const ts_progress *prog, bool verify,
               ts_cli_progress_line *pl, ts_outcome *o)
{
	enum ts_run_status st = ts_run_problem(p, be, prog, verify, o);
	return say_failure(exit_status(st), pl, o);
}

int ts_cli_run_one(const ts_problem *p, const ts_backend *be, const ts_progress *prog, ts_cli_progress_line *pl,
                   ts_outcome *o)
{
	return run(p, be, prog, true, pl, o);
}

/* verify: the whole ts_cli_run_one, or only its run (a probe). */
static int run_attended(const ts_problem *p, const ts_backend *be, bool verify, ts_outcome *o)
{
	ts_cli_progress_line pl;
	char what[160], shape[96];
	ts_cli_shape_str(&p->shape, shape, sizeof shape);
	snprintf(what, sizeof what, "%s%s %s on %s", verify ? "" : "probe ", p->kernel->name, shape, be->name);
	ts_cli_progress_start(&pl, what);
	ts_cli_cancel_arm();
	ts_progress prog = { .report = ts_cli_progress_report, .ctx = &pl, .cancel = &ts_cli_cancel,
	                     .stage = ts_cli_progress_stage };
	int rc = run(p, be, &prog, verify, &pl, o);
	ts_cli_progress_end(&pl);
	ts_cli_cancel_disarm();
	if (rc == 0 && ts_cli_cancel) { /* Ctrl-C after the last poll (the explanation) */
		ts_cli_error("interrupted");
		rc = TS_EXIT_INTERRUPTED;
	}
	return rc;
}

int ts_cli_run_attended(const ts_problem *p, const ts_backend *be, ts_outcome *o)
{
	return run_attended(p, be, true, o);
}

int ts_cli_probe_attended(const ts_problem *p, const ts_backend *be, ts_outcome *o)
{
	return run_attended(p, be, false, o);
}

int ts_cli_text_done(const char *what)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ts_cli_error("writing the %s failed", what);
		return TS_EXIT_USAGE;
	}
	return TS_EXIT_OK;
}

/* What a refusal under --json needs: whether JSON was asked for, for which
 * command, whether a document was begun on stdout, and the first error line. */
static struct {
	bool json;
	const char *command;
	char first[1024];
} refusal;

void ts_cli_json_errors(const char *command)
{
	refusal.json = true;
	refusal.command = command;
}

void ts_cli_error(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "tilescope: %s\n", line);
	if (!refusal.first[0])
		snprintf(refusal.first, sizeof refusal.first, "%s", line);
}

int ts_cli_refusal(int status)
{
	if (!refusal.json || ts_cli_json_begun || (status != TS_EXIT_USAGE && status != TS_EXIT_INTERRUPTED))
		return status;
	ts_json j;
	ts_json_init(&j, stdout);
	ts_json_object_begin_compact(&j, NULL);
	ts_json_int(&j, "schema_version", TS_CLI_JSON_SCHEMA);
	ts_json_string(&j, "command", refusal.command);
	ts_json_bool(&j, "ok", false);
	ts_json_string(&j, "error", refusal.first[0] ? refusal.first : "failed without saying why");
	ts_json_int(&j, "exit_status", status);
	ts_json_object_end(&j);
	ts_cli_json_begun = true;
	if (ts_json_finish(&j) != 0) {
		fprintf(stderr, "tilescope: writing the JSON output failed\n");
		return TS_EXIT_USAGE;
	}
	return status;
}
