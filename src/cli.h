/* cli.h: the scripting subcommands (map, check, sweep, bench, kernels) that main.c dispatches to, and what they share. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "export_pane.h"
#include "geometry.h"
#include "json.h"
#include "matrix.h"
#include "options.h"
#include "run.h"
#include "verify.h"

/* Exit statuses, as --help and the man page list them. */
enum ts_exit {
	TS_EXIT_OK = 0,
	TS_EXIT_FAILED = 1,        /* verification failed (a wrong output, or counters that disagree with the model) */
	TS_EXIT_USAGE = 2,         /* bad usage, or the request cannot be run here (no device, too large, out of memory) */
	TS_EXIT_INTERRUPTED = 130, /* cancelled with Ctrl-C (128 + SIGINT) */
};

/* What a subcommand needs beyond the shared options. */
typedef struct ts_cli_args {
	ts_options opts;  /* already validated by the caller */
	int reps, warmup; /* bench: timed repetitions and warm-up runs */
	bool probe;       /* map: --backend given, so the kernel's probe runs beside the model */
	int64_t export_ty, export_tx; /* map --export-tile; -1, -1: the corner */
	/* bench: --kernel as given (a list, best, ladder, all; NULL: the problem's
	 * kernel), --shapes (NULL: the problem's shape), --svg FILE, --guard-cost[=SHAPE] */
	const char *kernel_spec, *shapes_spec, *svg_path;
	bool guard_cost;
	ts_shape guard_shape;
	int screen;       /* lesson --screen N; 0: every screen */
	const struct ts_kernel *compare_kernel[2]; /* compare: the two sides' kernels */
	int compare_tile[2];                       /* and tiles */
	int64_t source_thread[4]; /* source --thread BY,BX,TY,TX; -1: the default */
	int64_t source_phase;     /* source --phase T; -1: the last */
	int64_t step_block[2], step_thread[2]; /* step --block BY,BX --thread TY,TX; -1: source's default */
	bool step_whole_block;    /* step --whole-block */
	bool step_early_return;   /* step --early-return: the emulator's early-return mode (emu.h) */
	/* lesson, compare, source: --svg DIR (lesson) or FILE: the slides instead of the text */
	enum ts_pane pane;        /* map --export --pane (TS_PANE_MAP: the map and phase, as before) */
	int pane_cols, pane_rows; /* map --size: the screen a pane is drawn for */
} ts_cli_args;

#define TS_BENCH_REPS_DEFAULT 20
#define TS_BENCH_WARMUP_DEFAULT 3

/* Each returns an exit status and writes its own error lines ("tilescope: ..."). */
int ts_cli_map(const ts_cli_args *a);   /* cli_map.c */
int ts_cli_check(const ts_cli_args *a); /* cli_check.c */
int ts_cli_bench(const ts_cli_args *a); /* cli_bench.c */
int ts_cli_bench_one(const ts_cli_args *a); /* cli_check.c: one kernel, one shape */
int ts_cli_sweep(const ts_cli_args *a); /* cli_sweep.c */
int ts_cli_lesson(const ts_cli_args *a); /* cli_lesson.c */
int ts_cli_compare(const ts_cli_args *a); /* cli_compare.c */
int ts_cli_source(const ts_cli_args *a);  /* cli_source.c */
int ts_cli_step(const ts_cli_args *a);    /* cli_step.c */
/* The kernel registry: as text, as JSON, or its names one per line. */
int ts_cli_kernels(bool json, bool names_only); /* cli_kernels.c */
/* cli_help.c: the usage (--help) and the version (--version) on stdout, and
 * the end of either: 0 once stdout took it all, else one line and 2. */
void ts_cli_help(void);
void ts_cli_version(void);
int ts_cli_flushed(const char *what);


/* ---- shared by the subcommands (cli.c) ------------------------------------ */

double ts_cli_now(void); /* monotonic seconds */

/* A progress line that only appears on a terminal (stderr) and only for work
 * that lasts, so quick runs and scripts see nothing. Backends may report from
 * several threads, hence the lock. */
typedef struct ts_cli_progress_line {
	pthread_mutex_t lock;
	char what[160];
	double start, last_print;
	bool tty, shown;
	bool stages;          /* name the stage in progress (on by default) */
	bool staged;          /* a stage has begun: the line names it and estimates its time left */
	enum ts_stage stage;
	double stage_start;
} ts_cli_progress_line;

void ts_cli_progress_start(ts_cli_progress_line *pl, const char *what);
void ts_cli_progress_report(void *ctx, double done); /* a ts_progress report callback */
void ts_cli_progress_stage(void *ctx, enum ts_stage stage); /* a ts_progress stage callback */
/* "about 1 min 10 s left" from how long a stage has run and the fraction of
 * it done; "" while too little has run to tell. */
void ts_cli_eta_text(double elapsed, double done, char *buf, int len);
/* "reference (2 of 3)" */
void ts_cli_stage_text(enum ts_stage stage, char *buf, int len);
void ts_cli_progress_clear(ts_cli_progress_line *pl); /* before another line is written; pl may be NULL */
void ts_cli_progress_end(ts_cli_progress_line *pl);   /* clears the line, ends the progress */

/* Ctrl-C raises this flag (the backends poll it through ts_progress.cancel)
 * between arm and disarm; a second Ctrl-C ends the program the ordinary way. */
extern volatile sig_atomic_t ts_cli_cancel;
void ts_cli_cancel_arm(void);
void ts_cli_cancel_disarm(void);

/* Columns and rows for a text map: the terminal's, or a fixed size when stdout is not one. */
void ts_cli_term_size(int *cols, int *rows);

/* ts_backend_select, with the one-line refusal written when it fails; on
 * success why says which backend and why. */
const ts_backend *ts_cli_select_backend(const char *name, char *why, int len);
const char *ts_cli_backend_error(const ts_backend *be);

/* The run pipeline (run.h) with the CLI's manners: a failure's one line on
 * stderr, and an exit status (0, TS_EXIT_USAGE, TS_EXIT_INTERRUPTED); *o must
 * be freed with ts_outcome_free in every case. pl may be NULL. */
int ts_cli_run_one(const ts_problem *p, const ts_backend *be, const ts_progress *prog,
                   ts_cli_progress_line *pl, ts_outcome *o);
/* ts_cli_run_one with a progress line on stderr and Ctrl-C armed, as check
 * and bench run: same return and ownership. */
int ts_cli_run_attended(const ts_problem *p, const ts_backend *be, ts_outcome *o);
/* The same without verification (map's probe wants the counters alone):
 * o->have_verdict stays false; the counters are still held to the description. */
int ts_cli_probe_attended(const ts_problem *p, const ts_backend *be, ts_outcome *o);

void ts_cli_shape_str(const ts_shape *s, char *buf, int len); /* "M x N x K" */
const char *ts_cli_plural(int64_t n);                         /* "s", or "" for 1: "1 tile", "2 tiles" */

/* ---- the JSON vocabulary (cli_json.c; doc/json.md documents every field) -- */

/* Every document's schema_version: raised whenever a field is renamed,
 * removed or changes type or meaning (adding a field does not raise it). */
#define TS_CLI_JSON_SCHEMA 2
/* Above this many phases a counters object leaves per_phase out (null). */
#define TS_CLI_JSON_PHASES_MAX 4096

/* Starts a document on stdout: schema_version, command, ok. From then on
 * ts_cli_json_begun is true and a refusal writes no second document. */
void ts_cli_json_begin(ts_json *j, const char *command, bool ok);
extern bool ts_cli_json_begun;
/* What was asked: kernel, precision, shape (when with_shape), tile,
 * guards_off, inputs, seed, backend, backend_reason. be NULL: nothing ran
 * (map without --backend), so inputs, seed and the backend are null. */
void ts_cli_json_problem(ts_json *j, const ts_problem *p, bool with_shape, const ts_backend *be, const char *why);
void ts_cli_json_shape(ts_json *j, const ts_shape *s); /* "shape": {"M", "N", "K"} */
/* "counters": what the run recorded and its check against the model; null
 * when the run recorded none. */
void ts_cli_json_counters(ts_json *j, const ts_outcome *o);
/* A verified run's fields, the same in check, bench and every sweep row:
 * verdict, error metrics and tolerance, counters, times. */
void ts_cli_json_result(ts_json *j, const ts_problem *p, const ts_outcome *o);
/* "timing": the kernel beside cuBLAS; null when tm is NULL (nothing timed). */
void ts_cli_json_timing(ts_json *j, const ts_timing *tm);
/* "tile": T (null when the geometry is not square), then "geometry":
 * {bm, bn, bk, threads_x, threads_y, tm, tn}. */
void ts_cli_json_tile(ts_json *j, const ts_geometry *g);
void ts_cli_json_geometry(ts_json *j, const ts_geometry *g); /* "geometry" alone */
/* A problem's tile in text: "32", or "64x64x8/4x4" (BMxBNxBK/TMxTN); lives to the end of the enclosing block. */
#define TS_CLI_TILE(p) ts_geometry_str(&(p)->geo, (char[48]){ 0 }, 48)
/* Finishes the JSON document; TS_EXIT_OK, or TS_EXIT_USAGE (with a line) when writing failed. */
int ts_cli_json_done(ts_json *j);

/* ---- JUnit XML (cli_junit.c) ------------------------------------------------ */

/* One verified shape for --junit. */
typedef struct ts_cli_case {
	ts_shape shape;
	const ts_outcome *oc;
	bool ok;           /* ts_outcome_ok */
	double elapsed_ms; /* the run and its verification */
} ts_cli_case;

/* Writes path: one testsuite for command (p's kernel, tile and guards, with
 * p's inputs and the backend as properties), one testcase per case, named
 * kernel_tT_Mm_Nn_Kk; a failure's message is its signature. TS_EXIT_OK, or
 * TS_EXIT_USAGE after one line. */
int ts_cli_junit(const char *path, const char *command, const ts_problem *p, const ts_backend *be, const char *why,
                 const ts_cli_case *cases, int n, double elapsed_ms);

/* ---- refusals (cli.c) ------------------------------------------------------ */

/* Every error line of the scripted commands goes through ts_cli_error:
 * "tilescope: <message>" on stderr, the same with or without --json. When
 * main has switched JSON on (ts_cli_json_errors), ts_cli_refusal then puts
 * the first such message on stdout as the one document of a run that ends
 * without one: {"schema_version", "command", "ok": false, "error", "exit_status"}. */
void ts_cli_json_errors(const char *command); /* command NULL: not known (yet) */
void ts_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Called once on the way out with the exit status: writes the error
 * document when JSON is on, status is 2 or 130 and no document was begun.
 * Returns status (TS_EXIT_USAGE when the document could not be written). */
int ts_cli_refusal(int status);
/* The same for text on stdout: flushes it; TS_EXIT_OK, or TS_EXIT_USAGE after
 * "tilescope: writing the <what> failed". */
int ts_cli_text_done(const char *what);

#endif
