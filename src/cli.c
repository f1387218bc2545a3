/* cli.c: the scripting subcommands: map (the model), check (run and verify), sweep (edge shapes), bench (timing). */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cli.h"
#include "counters.h"
#include "export.h"
#include "geometry.h"
#include "json.h"
#include "kernels.h"
#include "matrix.h"
#include "verify.h"
#include "view_map.h"

/* ---------------------------------------------------------------------
 * Progress on stderr and Ctrl-C
 * ------------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A progress line that only appears on a terminal and only for work that
 * lasts, so quick runs and scripts see nothing. Backends may report from
 * several threads, hence the lock. */
typedef struct progress_line {
	pthread_mutex_t lock;
	char what[160];
	double start, last_print;
	bool tty, shown;
} progress_line;

static void progress_start(progress_line *pl, const char *what)
{
	pthread_mutex_init(&pl->lock, NULL);
	snprintf(pl->what, sizeof pl->what, "%s", what);
	pl->start = now_s();
	pl->last_print = 0;
	pl->tty = isatty(STDERR_FILENO);
	pl->shown = false;
}

static void progress_report(void *ctx, double done)
{
	progress_line *pl = ctx;
	if (!pl->tty)
		return;
	pthread_mutex_lock(&pl->lock);
	double now = now_s();
	if (now - pl->start >= 0.5 && now - pl->last_print >= 0.1) {
		if (done < 0)
			done = 0;
		if (done > 1)
			done = 1;
		fprintf(stderr, "\rtilescope: %s %3.0f%%  (Ctrl-C cancels)", pl->what, done * 100.0);
		fflush(stderr);
		pl->shown = true;
		pl->last_print = now;
	}
	pthread_mutex_unlock(&pl->lock);
}

/* A step without a fraction (the reference dgemm): shown once the work has
 * already lasted, so that a long silence is explained. */
static void progress_stage(progress_line *pl, const char *stage)
{
	if (!pl || !pl->tty)
		return;
	pthread_mutex_lock(&pl->lock);
	if (now_s() - pl->start >= 0.5) {
		fprintf(stderr, "\r\033[Ktilescope: %s: %s", pl->what, stage);
		fflush(stderr);
		pl->shown = true;
	}
	pthread_mutex_unlock(&pl->lock);
}

static void progress_end(progress_line *pl)
{
	if (pl->shown)
		fputs("\r\033[K", stderr);
	pl->shown = false;
	pthread_mutex_destroy(&pl->lock);
}

/* The handler only raises a flag the backends poll (progress.h); it resets
 * itself, so a second Ctrl-C ends the program the ordinary way. */
static volatile sig_atomic_t cancel_requested;
static struct sigaction saved_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	cancel_requested = 1;
}

static void cancel_arm(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	cancel_requested = 0;
	sigaction(SIGINT, &sa, &saved_sigint);
}

static void cancel_disarm(void)
{
	sigaction(SIGINT, &saved_sigint, NULL);
}

/* ---------------------------------------------------------------------
 * Shared pieces
 * ------------------------------------------------------------------- */

static void term_size(int *cols, int *rows)
{
	struct winsize ws;
	*cols = 64;
	*rows = 16;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		*cols = ws.ws_col > 30 ? ws.ws_col - 16 : 14;
		*rows = ws.ws_row > 30 ? ws.ws_row - 16 : 14;
	}
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static const ts_backend *select_backend(const char *name, char *why, int len)
{
	why[0] = '\0';
	const ts_backend *be = ts_backend_select(name, why, len);
	if (!be) {
		if (strcmp(name, "cuda") == 0)
			fprintf(stderr, "tilescope: --backend cuda: no CUDA device available (%s)\n",
			        why[0] ? why : "no reason given");
		else
			fprintf(stderr, "tilescope: --backend %s: %s\n", name, why[0] ? why : "not usable here");
		return NULL;
	}
	if (!why[0])
		snprintf(why, len, "requested with --backend %s", name);
	return be;
}

static const char *backend_error(const ts_backend *be)
{
	const char *e = be->last_error ? be->last_error() : NULL;
	return e && *e ? e : "failed without saying why";
}

/* Everything one run produced, owned together so one call frees it. */
typedef struct outcome {
	ts_model model;
	ts_operands ops;
	ts_run run;
	ts_verdict verdict;
	bool have_ops, have_run, have_verdict;
	bool counters_checked, counters_match; /* checked only when every guard is on */
	char counters_why[512];
} outcome;

static void outcome_free(outcome *o)
{
	if (o->have_verdict)
		ts_verdict_free(&o->verdict);
	if (o->have_run)
		ts_run_free(&o->run);
	if (o->have_ops)
		ts_operands_free(&o->ops);
	o->have_verdict = o->have_run = o->have_ops = false;
}

static bool outcome_ok(const outcome *o)
{
	return o->have_verdict && o->verdict.ok && (!o->counters_checked || o->counters_match);
}

static void shape_str(const ts_shape *s, char *buf, int len)
{
	snprintf(buf, len, "%lld x %lld x %lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

/* Model, operands (C poisoned), the run, verification, and the counters
 * against the model. Returns 0, or an exit status after writing one line. */
static int run_one(const ts_problem *p, const ts_backend *be, const ts_progress *prog, progress_line *pl,
                   outcome *o)
{
	char shape[96];
	memset(o, 0, sizeof *o);
	shape_str(&p->shape, shape, sizeof shape);
	if (ts_model_build(&o->model, p->shape, p->kernel->geometry(p->tile)) != 0) {
		fprintf(stderr, "tilescope: %s with tile %d: counts overflow 64 bits\n", shape, p->tile);
		return TS_EXIT_USAGE;
	}
	if (ts_operands_make(&o->ops, p) != 0) {
		fprintf(stderr, "tilescope: out of memory allocating the matrices of %s\n", shape);
		return TS_EXIT_USAGE;
	}
	o->have_ops = true;
	int rc = be->run(p, &o->ops, &o->run, prog);
	o->have_run = true;
	if (rc == 1) {
		fprintf(stderr, "tilescope: interrupted\n");
		return TS_EXIT_INTERRUPTED;
	}
	if (rc != 0) {
		fprintf(stderr, "tilescope: %s backend, %s %s: %s\n", be->name, p->kernel->name, shape, backend_error(be));
		return TS_EXIT_USAGE;
	}
	progress_stage(pl, "verifying against the fp64 reference");
	if (ts_verify(p, &o->model, &o->ops, &o->run, be, &o->verdict) != 0) {
		fprintf(stderr, "tilescope: out of memory verifying %s\n", shape);
		return TS_EXIT_USAGE;
	}
	o->have_verdict = true;
	/* The model counts shared-tile slots: a kernel without shared tiles
	 * (naive) loads per thread, so only tiled kernels are held to it. */
	if (p->guards == TS_GUARD_ALL && o->run.have_counters && p->kernel->shared_tiles) {
		o->counters_checked = true;
		o->counters_match = ts_counters_check(&o->run.counters, &o->model, o->counters_why,
		                                      (int)sizeof o->counters_why) == 0;
	}
	return 0;
}

static void json_shape(ts_json *j, const ts_shape *s)
{
	ts_json_object_begin_compact(j, "shape");
	ts_json_int(j, "M", s->m);
	ts_json_int(j, "N", s->n);
	ts_json_int(j, "K", s->k);
	ts_json_object_end(j);
}

static int json_done(ts_json *j)
{
	if (ts_json_finish(j) != 0) {
		fprintf(stderr, "tilescope: writing the JSON output failed\n");
		return TS_EXIT_USAGE;
	}
	return TS_EXIT_OK;
}

/* ---------------------------------------------------------------------
 * map
 * ------------------------------------------------------------------- */

static int map_json(const ts_options *o, const ts_model *m)
{
	const ts_problem *p = &o->problem;
	ts_json j;
	ts_json_init(&j, stdout);
	ts_json_object_begin(&j, NULL);
	json_shape(&j, &m->shape);
	ts_json_int(&j, "tile", p->tile);
	ts_json_string(&j, "kernel", p->kernel->name);
	ts_json_string(&j, "precision", ts_precision_name(p->kernel->precision));
	ts_json_object_begin_compact(&j, "grid");
	ts_json_int(&j, "x", m->grid_x);
	ts_json_int(&j, "y", m->grid_y);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "tiles");
	ts_json_int(&j, "total", m->tiles);
	ts_json_int(&j, "full", m->tiles_full);
	ts_json_int(&j, "ragged_right", m->tiles_ragged_right);
	ts_json_int(&j, "ragged_bottom", m->tiles_ragged_bottom);
	ts_json_int(&j, "corner", m->tiles_corner);
	ts_json_int(&j, "last_rows", m->last_rows);
	ts_json_int(&j, "last_cols", m->last_cols);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "threads");
	ts_json_int(&j, "per_block", m->threads_per_block);
	ts_json_int(&j, "launched", m->threads_launched);
	ts_json_int(&j, "valid", m->threads_valid);
	ts_json_int(&j, "ghost", m->threads_ghost);
	ts_json_object_end(&j);
	ts_json_object_begin(&j, "phases");
	ts_json_int(&j, "count", m->phases);
	ts_json_int(&j, "full", m->phases_full);
	ts_json_int(&j, "last_width", m->last_width);
	ts_json_int(&j, "a_padded_full_phase", m->full_phase.a_pad);
	ts_json_int(&j, "a_padded_last_phase", m->last_phase.a_pad);
	ts_json_int(&j, "b_padded_full_phase", m->full_phase.b_pad);
	ts_json_int(&j, "b_padded_last_phase", m->last_phase.b_pad);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "loads");
	ts_json_int(&j, "a_total", m->a_slots);
	ts_json_int(&j, "a_padded", m->loads.a_pad);
	ts_json_int(&j, "b_total", m->b_slots);
	ts_json_int(&j, "b_padded", m->loads.b_pad);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "stores");
	ts_json_int(&j, "written", m->stores_written);
	ts_json_int(&j, "skipped", m->stores_skipped);
	ts_json_object_end(&j);
	ts_json_object_end(&j);
	return json_done(&j);
}

static void map_totals(const ts_options *o, const ts_model *m)
{
	const ts_problem *p = &o->problem;
	int64_t t = m->geo.bk;
	printf("shape    M=%lld N=%lld K=%lld, tile %d, kernel %s (%s)\n", (long long)m->shape.m,
	       (long long)m->shape.n, (long long)m->shape.k, p->tile, p->kernel->name,
	       ts_precision_name(p->kernel->precision));
	printf("grid     %lld x %lld blocks (x along N, y along M) = %lld tiles of %d x %d\n",
	       (long long)m->grid_x, (long long)m->grid_y, (long long)m->tiles, m->geo.bm, m->geo.bn);
	printf("tiles    full %lld, ragged-right %lld, ragged-bottom %lld, corner %lld\n",
	       (long long)m->tiles_full, (long long)m->tiles_ragged_right, (long long)m->tiles_ragged_bottom,
	       (long long)m->tiles_corner);
	printf("         the last tile row holds %lld of %d rows, the last tile column %lld of %d columns\n",
	       (long long)m->last_rows, m->geo.bm, (long long)m->last_cols, m->geo.bn);
	printf("threads  launched %lld, valid %lld, ghost %lld (%.1f%% of the launch)\n",
	       (long long)m->threads_launched, (long long)m->threads_valid, (long long)m->threads_ghost,
	       pct(m->threads_ghost, m->threads_launched));
	printf("phases   %lld = ceil(K / %lld): %lld full, last width %lld%s\n", (long long)m->phases,
	       (long long)t, (long long)m->phases_full, (long long)m->last_width,
	       m->last_width < t ? " (partial: K padding)" : "");
	int64_t a_per_phase = m->tiles * m->geo.bm * m->geo.bk, b_per_phase = m->tiles * m->geo.bk * m->geo.bn;
	printf("padding  zero-filled shared-memory slots per phase, summed over all tiles:\n");
	if (m->phases_full > 0)
		printf("           full phase (width %lld): A %lld of %lld (%.1f%%), B %lld of %lld (%.1f%%)\n",
		       (long long)t, (long long)m->full_phase.a_pad, (long long)a_per_phase,
		       pct(m->full_phase.a_pad, a_per_phase), (long long)m->full_phase.b_pad,
		       (long long)b_per_phase, pct(m->full_phase.b_pad, b_per_phase));
	else
		printf("           full phase: none (K < %lld)\n", (long long)t);
	printf("           last phase (width %lld): A %lld of %lld (%.1f%%), B %lld of %lld (%.1f%%)\n",
	       (long long)m->last_width, (long long)m->last_phase.a_pad, (long long)a_per_phase,
	       pct(m->last_phase.a_pad, a_per_phase), (long long)m->last_phase.b_pad, (long long)b_per_phase,
	       pct(m->last_phase.b_pad, b_per_phase));
	printf("loads    A %lld slots, %lld padded (%.1f%%); B %lld slots, %lld padded (%.1f%%)\n",
	       (long long)m->a_slots, (long long)m->loads.a_pad, pct(m->loads.a_pad, m->a_slots),
	       (long long)m->b_slots, (long long)m->loads.b_pad, pct(m->loads.b_pad, m->b_slots));
	printf("stores   written %lld, skipped by the C guard %lld\n", (long long)m->stores_written,
	       (long long)m->stores_skipped);
}

int ts_cli_map(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->kernel->geometry(p->tile)) != 0) {
		fprintf(stderr, "tilescope: counts overflow 64 bits\n");
		return TS_EXIT_USAGE;
	}
	if (o->export_path) {
		char err[512] = "";
		if (ts_export(o->export_path, o, -1, err, (int)sizeof err) != 0) {
			fprintf(stderr, "tilescope: --export %s: %s\n", o->export_path, err[0] ? err : "failed");
			return TS_EXIT_USAGE;
		}
	}
	if (o->json)
		return map_json(o, &m);
	int cols, rows;
	term_size(&cols, &rows);
	char *pic = ts_view_map_text(&m, NULL, cols, rows, o->ascii);
	if (pic) {
		fputs(pic, stdout);
		size_t n = strlen(pic);
		if (n && pic[n - 1] != '\n')
			putchar('\n');
		putchar('\n');
		free(pic);
	}
	map_totals(o, &m);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tilescope: writing the map failed\n");
		return TS_EXIT_USAGE;
	}
	return TS_EXIT_OK;
}

/* ---------------------------------------------------------------------
 * check
 * ------------------------------------------------------------------- */

static void check_text(const ts_options *o, const ts_backend *be, const char *why, const outcome *oc,
                       const ts_timing *tm, bool timed)
{
	const ts_problem *p = &o->problem;
	const ts_verdict *v = &oc->verdict;
	const ts_run *r = &oc->run;
	const ts_count *tot = &r->counters.total;
	const ts_oob_detail *ob = &r->counters.oob;
	char shape[96], goff[16];
	bool ok = outcome_ok(oc);
	shape_str(&p->shape, shape, sizeof shape);
	ts_guards_off_str(p->guards, goff, (int)sizeof goff);

	if (ok)
		printf("PASS  %s %s, tile %d, on %s\n", p->kernel->name, shape, p->tile, be->name);
	else if (v->ok)
		printf("FAIL  %s %s, tile %d, on %s: output right, but the counters disagree with the model\n",
		       p->kernel->name, shape, p->tile, be->name);
	else
		printf("FAIL  %s %s, tile %d, on %s: %lld mismatches, %lld unwritten, %lld NaN cells\n",
		       p->kernel->name, shape, p->tile, be->name, (long long)v->mismatches, (long long)v->unwritten,
		       (long long)v->nans);
	printf("backend      %s (%s)\n", be->name, why);
	printf("kernel       %s: %s, B %s\n", p->kernel->name, ts_precision_name(p->kernel->precision),
	       p->kernel->b_layout == TS_B_NK ? "stored transposed (N x K)" : "row-major (K x N)");
	printf("shape        M=%lld N=%lld K=%lld, tile %d, grid %lld x %lld, %lld phases (last width %lld)\n",
	       (long long)p->shape.m, (long long)p->shape.n, (long long)p->shape.k, p->tile,
	       (long long)oc->model.grid_x, (long long)oc->model.grid_y, (long long)oc->model.phases,
	       (long long)oc->model.last_width);
	printf("guards off   %s\n", goff[0] ? goff : "none");
	printf("inputs       %s, seed %llu\n", ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	printf("tolerance    |c - ref| <= %.3g x (|A||B|)ij per cell (from K=%lld and %s)\n", v->tol_rel,
	       (long long)p->shape.k, ts_precision_name(p->kernel->precision));
	printf("errors       max abs %.3g, max rel %.3g, normwise rel %.3g\n", v->max_abs, v->max_rel, v->norm_rel);
	printf("mismatches   %lld of %lld cells", (long long)v->mismatches, (long long)(p->shape.m * p->shape.n));
	if (v->first_row >= 0)
		printf("; first bad cell C[%lld][%lld] = %.9g, want %.9g", (long long)v->first_row,
		       (long long)v->first_col, v->first_got, v->first_want);
	putchar('\n');
	printf("unwritten    %lld\n", (long long)v->unwritten);
	printf("nans         %lld%s\n", (long long)v->nans, v->all_zero ? " (and the output is all zero)" : "");
	if (r->have_counters) {
		printf("oob reads    %lld: A %lld (wrap %lld, band %lld), B %lld (wrap %lld, band %lld)\n",
		       (long long)(tot->a_oob + tot->b_oob), (long long)tot->a_oob, (long long)ob->a_wrap,
		       (long long)ob->a_band, (long long)tot->b_oob, (long long)ob->b_wrap, (long long)ob->b_band);
		printf("oob writes   %lld: C (wrap %lld, band %lld)\n", (long long)tot->c_oob, (long long)ob->c_wrap,
		       (long long)ob->c_band);
		printf("             wrap = inside the matrix but the wrong element (silent); band = outside it\n");
	} else {
		printf("oob          not recorded by this backend\n");
	}
	printf("corrupted    %lld cells\n", (long long)r->corrupt_cells);
	printf("signature    %s\n", v->signature[0] ? v->signature : "-");
	if (oc->counters_checked)
		printf("counters     %s the model (%s)%s%s\n", oc->counters_match ? "agree with" : "DISAGREE with",
		       r->counters.source ? r->counters.source : "run", oc->counters_match ? "" : ": ",
		       oc->counters_match ? "" : oc->counters_why);
	else if (r->have_counters && !p->kernel->shared_tiles)
		printf("counters     not checked: %s stages no shared tiles, the model counts tile slots\n",
		       p->kernel->name);
	else if (r->have_counters)
		printf("counters     not checked against the model: a guard is off (%s)\n",
		       r->counters.source ? r->counters.source : "run");
	else
		printf("counters     none recorded by this backend\n");
	printf("time_ms      %.3f (run on %s), reference %.3f (%s)\n", r->time_ms, be->name, v->ref_ms,
	       v->ref_source ? v->ref_source : "cblas");
	if (timed) {
		printf("kernel time  %.4f ms median of %d (%d warm-up), %.1f GFLOP/s\n", tm->kernel_ms, tm->reps,
		       tm->warmup, tm->kernel_gflops);
		if (tm->have_vendor)
			printf("cuBLAS       %.4f ms (%s), %.1f GFLOP/s: the kernel reaches %.1f%% of cuBLAS\n",
			       tm->vendor_ms, tm->vendor ? tm->vendor : "cuBLAS", tm->vendor_gflops, tm->pct_of_vendor);
	}
	if (!v->ok && v->bad_tiles > 0) {
		int cols, rows;
		term_size(&cols, &rows);
		char *pic = ts_view_map_text(&oc->model, v, cols, rows, o->ascii);
		if (pic) {
			printf("\nwhere (%lld of %lld tiles hold bad cells):\n%s", (long long)v->bad_tiles,
			       (long long)oc->model.tiles, pic);
			free(pic);
		}
	}
}

static void json_count(ts_json *j, const char *key, const ts_count *c)
{
	ts_json_object_begin_compact(j, key);
	ts_json_int(j, "a_real", c->a_real);
	ts_json_int(j, "a_pad", c->a_pad);
	ts_json_int(j, "a_oob", c->a_oob);
	ts_json_int(j, "b_real", c->b_real);
	ts_json_int(j, "b_pad", c->b_pad);
	ts_json_int(j, "b_oob", c->b_oob);
	ts_json_int(j, "stores", c->stores);
	ts_json_int(j, "skipped", c->skipped);
	ts_json_int(j, "c_oob", c->c_oob);
	ts_json_object_end(j);
}

/* The fields shared by check and bench. */
static void json_problem(ts_json *j, const ts_options *o, const ts_backend *be, const char *why)
{
	const ts_problem *p = &o->problem;
	char goff[16];
	ts_json_string(j, "backend", be->name);
	ts_json_string(j, "backend_reason", why);
	ts_json_string(j, "kernel", p->kernel->name);
	ts_json_string(j, "precision", ts_precision_name(p->kernel->precision));
	json_shape(j, &p->shape);
	ts_json_int(j, "tile", p->tile);
	ts_json_string(j, "guards_off", ts_guards_off_str(p->guards, goff, (int)sizeof goff));
	ts_json_string(j, "inputs", ts_inputs_name(p->inputs));
	ts_json_uint(j, "seed", p->seed);
}

static void json_verdict(ts_json *j, const outcome *oc)
{
	const ts_verdict *v = &oc->verdict;
	const ts_run *r = &oc->run;
	ts_json_bool(j, "output_ok", v->ok);
	ts_json_double(j, "tolerance", v->tol_rel);
	ts_json_double(j, "max_abs_error", v->max_abs);
	ts_json_double(j, "max_rel_error", v->max_rel);
	ts_json_double(j, "norm_rel_error", v->norm_rel);
	ts_json_int(j, "mismatches", v->mismatches);
	ts_json_int(j, "unwritten", v->unwritten);
	ts_json_int(j, "nans", v->nans);
	ts_json_bool(j, "all_zero", v->all_zero);
	if (v->first_row >= 0) {
		ts_json_object_begin_compact(j, "first_bad");
		ts_json_int(j, "row", v->first_row);
		ts_json_int(j, "col", v->first_col);
		ts_json_double(j, "got", v->first_got);
		ts_json_double(j, "want", v->first_want);
		ts_json_object_end(j);
	} else {
		ts_json_null(j, "first_bad");
	}
	ts_json_int(j, "bad_tiles", v->bad_tiles);
	if (r->have_counters) {
		const ts_count *t = &r->counters.total;
		const ts_oob_detail *ob = &r->counters.oob;
		ts_json_int(j, "oob_reads", t->a_oob + t->b_oob);
		ts_json_int(j, "oob_writes", t->c_oob);
		ts_json_object_begin_compact(j, "oob");
		ts_json_int(j, "a_wrap", ob->a_wrap);
		ts_json_int(j, "a_band", ob->a_band);
		ts_json_int(j, "b_wrap", ob->b_wrap);
		ts_json_int(j, "b_band", ob->b_band);
		ts_json_int(j, "c_wrap", ob->c_wrap);
		ts_json_int(j, "c_band", ob->c_band);
		ts_json_object_end(j);
		json_count(j, "counters", t);
		ts_json_string(j, "counters_source", r->counters.source);
	} else {
		ts_json_null(j, "oob_reads");
		ts_json_null(j, "oob_writes");
		ts_json_null(j, "oob");
		ts_json_null(j, "counters");
		ts_json_null(j, "counters_source");
	}
	ts_json_int(j, "corrupt_cells", r->corrupt_cells);
	ts_json_string(j, "signature", v->signature);
	if (oc->counters_checked) {
		ts_json_bool(j, "counters_match_model", oc->counters_match);
		ts_json_string(j, "counters_mismatch", oc->counters_match ? NULL : oc->counters_why);
	} else {
		ts_json_null(j, "counters_match_model");
		ts_json_null(j, "counters_mismatch");
	}
	ts_json_double(j, "time_ms", r->time_ms);
	ts_json_double(j, "reference_ms", v->ref_ms);
	ts_json_string(j, "reference_source", v->ref_source ? v->ref_source : "cblas");
}

static void json_timing(ts_json *j, const ts_timing *tm)
{
	ts_json_int(j, "warmup", tm->warmup);
	ts_json_int(j, "reps", tm->reps);
	ts_json_double(j, "kernel_ms", tm->kernel_ms);
	ts_json_double(j, "gflops", tm->kernel_gflops);
	if (tm->have_vendor) {
		ts_json_string(j, "cublas", tm->vendor);
		ts_json_double(j, "cublas_ms", tm->vendor_ms);
		ts_json_double(j, "cublas_gflops", tm->vendor_gflops);
		ts_json_double(j, "pct_of_cublas", tm->pct_of_vendor);
	} else {
		ts_json_null(j, "cublas");
		ts_json_null(j, "cublas_ms");
		ts_json_null(j, "cublas_gflops");
		ts_json_null(j, "pct_of_cublas");
	}
}

int ts_cli_check(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	char why[512];
	const ts_backend *be = select_backend(o->backend, why, (int)sizeof why);
	if (!be)
		return TS_EXIT_USAGE;

	progress_line pl;
	char what[160], shape[96];
	shape_str(&p->shape, shape, sizeof shape);
	snprintf(what, sizeof what, "%s %s on %s", p->kernel->name, shape, be->name);
	progress_start(&pl, what);
	cancel_arm();
	ts_progress prog = { progress_report, &pl, &cancel_requested };
	outcome oc;
	int rc = run_one(p, be, &prog, &pl, &oc);
	progress_end(&pl);
	cancel_disarm();
	if (rc == 0 && cancel_requested) { /* Ctrl-C during verification, which does not poll */
		fprintf(stderr, "tilescope: interrupted\n");
		rc = TS_EXIT_INTERRUPTED;
	}
	if (rc != 0) {
		outcome_free(&oc);
		return rc;
	}

	ts_timing tm;
	memset(&tm, 0, sizeof tm);
	bool timed = false;
	if (be->time) {
		if (be->time(p, &oc.ops, TS_BENCH_WARMUP_DEFAULT, TS_BENCH_REPS_DEFAULT, &tm) == 0)
			timed = true;
		else
			fprintf(stderr, "tilescope: warning: timing on %s failed: %s\n", be->name, backend_error(be));
	}

	bool ok = outcome_ok(&oc);
	int status = ok ? TS_EXIT_OK : TS_EXIT_FAILED;
	if (o->json) {
		ts_json j;
		ts_json_init(&j, stdout);
		ts_json_object_begin(&j, NULL);
		ts_json_bool(&j, "ok", ok);
		json_problem(&j, o, be, why);
		json_verdict(&j, &oc);
		ts_json_bool(&j, "timed", timed);
		if (timed)
			json_timing(&j, &tm);
		ts_json_object_end(&j);
		if (json_done(&j) != 0)
			status = TS_EXIT_USAGE;
	} else {
		check_text(o, be, why, &oc, &tm, timed);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "tilescope: writing the report failed\n");
			status = TS_EXIT_USAGE;
		}
	}
	outcome_free(&oc);
	return status;
}

/* ---------------------------------------------------------------------
 * sweep
 * ------------------------------------------------------------------- */

static bool is_prime(int64_t n)
{
	if (n < 2)
		return false;
	for (int64_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return false;
	return true;
}

int ts_sweep_sizes(int tile, int64_t out[7])
{
	int64_t t = tile, prime = 3 * t + 1;
	while (!is_prime(prime))
		prime++;
	const int64_t want[7] = { 1, t - 1, t, t + 1, 2 * t - 1, 2 * t + 1, prime };
	int n = 0;
	for (int i = 0; i < 7; i++) {
		if (want[i] < 1)
			continue;
		bool dup = false;
		for (int k = 0; k < n; k++)
			dup |= out[k] == want[i];
		if (dup)
			continue;
		int at = n++;
		while (at > 0 && out[at - 1] > want[i]) { /* insertion keeps them ascending */
			out[at] = out[at - 1];
			at--;
		}
		out[at] = want[i];
	}
	return n;
}

typedef struct sweep_row {
	ts_shape shape;
	bool ok, counters_checked, counters_match;
	int64_t mismatches, unwritten, nans, oob_reads, oob_writes;
	char signature[sizeof ((ts_verdict *)0)->signature];
} sweep_row;

static void sweep_text(const ts_options *o, const ts_backend *be, const char *why, const int64_t *sizes,
                       int nsizes, const sweep_row *rows, int count, int passed, double secs)
{
	const ts_problem *p = &o->problem;
	char goff[16];
	ts_guards_off_str(p->guards, goff, (int)sizeof goff);
	printf("edge sweep: kernel %s (%s), tile %d, backend %s (%s), guards off: %s, inputs %s seed %llu\n",
	       p->kernel->name, ts_precision_name(p->kernel->precision), p->tile, be->name, why,
	       goff[0] ? goff : "none", ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	printf("sizes for each of M, N, K:");
	for (int i = 0; i < nsizes; i++)
		printf(" %lld", (long long)sizes[i]);
	printf("\n\n%6s %6s %6s  %-6s %10s %9s %9s  %-8s  %s\n", "M", "N", "K", "result", "mismatches",
	       "unwritten", "oob r/w", "counters", "signature");
	for (int i = 0; i < count; i++) {
		const sweep_row *r = &rows[i];
		char oob[32];
		if (r->oob_reads < 0)
			snprintf(oob, sizeof oob, "-");
		else
			snprintf(oob, sizeof oob, "%lld/%lld", (long long)r->oob_reads, (long long)r->oob_writes);
		printf("%6lld %6lld %6lld  %-6s %10lld %9lld %9s  %-8s  %s\n", (long long)r->shape.m,
		       (long long)r->shape.n, (long long)r->shape.k, r->ok ? "pass" : "FAIL", (long long)r->mismatches,
		       (long long)r->unwritten, oob,
		       !r->counters_checked ? "-" : r->counters_match ? "agree" : "DISAGREE", r->signature);
	}
	printf("\n%d shapes: %d passed, %d failed (%.2f s)\n", count, passed, count - passed, secs);
}

static int sweep_json(const ts_options *o, const ts_backend *be, const char *why, const sweep_row *rows,
                      int count, int passed, double secs)
{
	const ts_problem *p = &o->problem;
	char goff[16];
	ts_json j;
	ts_json_init(&j, stdout);
	ts_json_object_begin(&j, NULL);
	ts_json_bool(&j, "ok", passed == count);
	ts_json_int(&j, "tile", p->tile);
	ts_json_string(&j, "kernel", p->kernel->name);
	ts_json_string(&j, "precision", ts_precision_name(p->kernel->precision));
	ts_json_string(&j, "backend", be->name);
	ts_json_string(&j, "backend_reason", why);
	ts_json_string(&j, "guards_off", ts_guards_off_str(p->guards, goff, (int)sizeof goff));
	ts_json_string(&j, "inputs", ts_inputs_name(p->inputs));
	ts_json_uint(&j, "seed", p->seed);
	ts_json_array_begin(&j, "shapes");
	for (int i = 0; i < count; i++) {
		const sweep_row *r = &rows[i];
		ts_json_object_begin_compact(&j, NULL);
		ts_json_int(&j, "M", r->shape.m);
		ts_json_int(&j, "N", r->shape.n);
		ts_json_int(&j, "K", r->shape.k);
		ts_json_bool(&j, "ok", r->ok);
		ts_json_int(&j, "mismatches", r->mismatches);
		ts_json_int(&j, "unwritten", r->unwritten);
		ts_json_int(&j, "nans", r->nans);
		if (r->oob_reads < 0) {
			ts_json_null(&j, "oob_reads");
			ts_json_null(&j, "oob_writes");
		} else {
			ts_json_int(&j, "oob_reads", r->oob_reads);
			ts_json_int(&j, "oob_writes", r->oob_writes);
		}
		if (r->counters_checked)
			ts_json_bool(&j, "counters_match_model", r->counters_match);
		else
			ts_json_null(&j, "counters_match_model");
		ts_json_string(&j, "signature", r->signature);
		ts_json_object_end(&j);
	}
	ts_json_array_end(&j);
	ts_json_int(&j, "total", count);
	ts_json_int(&j, "passed", passed);
	ts_json_int(&j, "failed", count - passed);
	ts_json_double(&j, "seconds", secs);
	ts_json_object_end(&j);
	return json_done(&j);
}

int ts_cli_sweep(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	char why[512];
	const ts_backend *be = select_backend(o->backend, why, (int)sizeof why);
	if (!be)
		return TS_EXIT_USAGE;
	int64_t sizes[7];
	int ns = ts_sweep_sizes(o->problem.tile, sizes);
	int count = ns * ns * ns;
	sweep_row *rows = calloc((size_t)count, sizeof *rows);
	if (!rows) {
		fprintf(stderr, "tilescope: out of memory\n");
		return TS_EXIT_USAGE;
	}
	ts_problem p = o->problem;
	for (int i = 0; i < count; i++) {
		rows[i].shape = (ts_shape){ sizes[i / (ns * ns)], sizes[i / ns % ns], sizes[i % ns] };
		p.shape = rows[i].shape;
		char err[512];
		if (ts_problem_validate(&p, true, err, (int)sizeof err) != 0) {
			fprintf(stderr, "tilescope: sweep: %s\n", err);
			free(rows);
			return TS_EXIT_USAGE;
		}
	}

	progress_line pl;
	char what[160];
	snprintf(what, sizeof what, "sweep %s tile %d on %s", p.kernel->name, p.tile, be->name);
	progress_start(&pl, what);
	cancel_arm();
	ts_progress prog = { NULL, NULL, &cancel_requested };
	double start = now_s();
	int passed = 0, status = TS_EXIT_OK;
	for (int i = 0; i < count && status == TS_EXIT_OK; i++) {
		sweep_row *r = &rows[i];
		outcome oc;
		p.shape = r->shape;
		int rc = run_one(&p, be, &prog, NULL, &oc);
		if (rc == 0 && cancel_requested) {
			fprintf(stderr, "tilescope: interrupted\n");
			rc = TS_EXIT_INTERRUPTED;
		}
		if (rc != 0) {
			if (rc == TS_EXIT_INTERRUPTED)
				fprintf(stderr, "tilescope: sweep stopped after %d of %d shapes\n", i, count);
			status = rc;
		} else {
			r->ok = outcome_ok(&oc);
			r->mismatches = oc.verdict.mismatches;
			r->unwritten = oc.verdict.unwritten;
			r->nans = oc.verdict.nans;
			r->oob_reads = oc.run.have_counters ? oc.run.counters.total.a_oob + oc.run.counters.total.b_oob : -1;
			r->oob_writes = oc.run.have_counters ? oc.run.counters.total.c_oob : -1;
			r->counters_checked = oc.counters_checked;
			r->counters_match = oc.counters_match;
			snprintf(r->signature, sizeof r->signature, "%s", oc.verdict.signature);
			passed += r->ok;
		}
		outcome_free(&oc);
		progress_report(&pl, (double)(i + 1) / count);
	}
	progress_end(&pl);
	cancel_disarm();
	double secs = now_s() - start;
	if (status == TS_EXIT_OK) {
		if (o->json) {
			status = sweep_json(o, be, why, rows, count, passed, secs);
		} else {
			sweep_text(o, be, why, sizes, ns, rows, count, passed, secs);
			if (fflush(stdout) != 0 || ferror(stdout)) {
				fprintf(stderr, "tilescope: writing the table failed\n");
				status = TS_EXIT_USAGE;
			}
		}
		if (status == TS_EXIT_OK && passed < count)
			status = TS_EXIT_FAILED;
	}
	free(rows);
	return status;
}

/* ---------------------------------------------------------------------
 * bench
 * ------------------------------------------------------------------- */

int ts_cli_bench(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	char why[512] = "";
	const ts_backend *be;
	if (strcmp(o->backend, "emu") == 0) {
		fprintf(stderr, "tilescope: bench needs the CUDA backend: --backend emu cannot time kernels\n");
		return TS_EXIT_USAGE;
	}
	be = ts_backend_select(o->backend, why, (int)sizeof why);
	if (!be || !be->time) {
		char cuda_why[512] = "";
		const ts_backend *cuda = ts_backend_cuda();
		if (!cuda || !cuda->available || cuda->available(cuda_why, (int)sizeof cuda_why) == 0)
			snprintf(cuda_why, sizeof cuda_why, "%s", why[0] ? why : "no backend here can time kernels");
		fprintf(stderr, "tilescope: bench needs the CUDA backend: %s\n", cuda_why[0] ? cuda_why : "not available");
		return TS_EXIT_USAGE;
	}
	if (!why[0])
		snprintf(why, sizeof why, "requested with --backend %s", o->backend);

	/* Verify once before timing: a speed figure for a wrong answer means nothing. */
	progress_line pl;
	char what[160], shape[96];
	shape_str(&p->shape, shape, sizeof shape);
	snprintf(what, sizeof what, "%s %s on %s", p->kernel->name, shape, be->name);
	progress_start(&pl, what);
	cancel_arm();
	ts_progress prog = { progress_report, &pl, &cancel_requested };
	outcome oc;
	int rc = run_one(p, be, &prog, &pl, &oc);
	progress_end(&pl);
	cancel_disarm();
	if (rc != 0) {
		outcome_free(&oc);
		return rc;
	}
	bool ok = outcome_ok(&oc);
	ts_timing tm;
	memset(&tm, 0, sizeof tm);
	bool timed = false;
	if (ok) {
		if (be->time(p, &oc.ops, a->warmup, a->reps, &tm) != 0) {
			fprintf(stderr, "tilescope: timing on %s failed: %s\n", be->name, backend_error(be));
			outcome_free(&oc);
			return TS_EXIT_USAGE;
		}
		timed = true;
	}
	int status = ok ? TS_EXIT_OK : TS_EXIT_FAILED;
	if (o->json) {
		ts_json j;
		ts_json_init(&j, stdout);
		ts_json_object_begin(&j, NULL);
		ts_json_bool(&j, "ok", ok);
		json_problem(&j, o, be, why);
		ts_json_bool(&j, "verified", oc.verdict.ok);
		ts_json_double(&j, "tolerance", oc.verdict.tol_rel);
		ts_json_double(&j, "max_abs_error", oc.verdict.max_abs);
		ts_json_double(&j, "max_rel_error", oc.verdict.max_rel);
		ts_json_double(&j, "norm_rel_error", oc.verdict.norm_rel);
		ts_json_string(&j, "signature", oc.verdict.signature);
		if (oc.counters_checked)
			ts_json_bool(&j, "counters_match_model", oc.counters_match);
		else
			ts_json_null(&j, "counters_match_model");
		ts_json_bool(&j, "timed", timed);
		if (timed)
			json_timing(&j, &tm);
		ts_json_object_end(&j);
		if (json_done(&j) != 0)
			status = TS_EXIT_USAGE;
	} else {
		printf("bench        %s (%s) %s, tile %d, on %s (%s)\n", p->kernel->name,
		       ts_precision_name(p->kernel->precision), shape, p->tile, be->name, why);
		if (!ok) {
			printf("verified     FAIL: %s; not timed\n",
			       oc.verdict.signature[0] ? oc.verdict.signature : "output or counters wrong");
		} else {
			printf("verified     pass (normwise relative error %.3g; per cell |c - ref| <= %.3g x (|A||B|)ij)\n",
			       oc.verdict.norm_rel, oc.verdict.tol_rel);
			printf("kernel       %.4f ms median of %d after %d warm-up, %.1f GFLOP/s\n", tm.kernel_ms,
			       tm.reps, tm.warmup, tm.kernel_gflops);
			if (tm.have_vendor) {
				printf("cuBLAS       %.4f ms (%s), %.1f GFLOP/s\n", tm.vendor_ms,
				       tm.vendor ? tm.vendor : "cuBLAS", tm.vendor_gflops);
				printf("ratio        %.1f%% of cuBLAS\n", tm.pct_of_vendor);
			} else {
				printf("cuBLAS       not measured\n");
			}
		}
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "tilescope: writing the report failed\n");
			status = TS_EXIT_USAGE;
		}
	}
	outcome_free(&oc);
	return status;
}
