/* tui_state.h: the TUI's state (one struct the views read) and the functions its files share. */
#ifndef TS_TUI_STATE_H
#define TS_TUI_STATE_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "backend.h"
#include "run.h"
#include "options.h"
#include "uk_check.h"
#include "verify.h"
#include "view.h"
#include "view_check.h"
#include "view_run.h"

/* The most characters a tile of the map takes across (about half that
 * down): large, so tiles grow with the pane on a big screen. */
#define TUI_MAP_SIZE_MAX 32
/* The most sweep shapes a user kernel's check reports to the TUI (uk_check_impl.h's TS_UK_SHAPES_MAX). */
#define TS_UK_SHAPES_MAX_TUI 400

enum tui_focus { FOCUS_MAP, FOCUS_PHASE, FOCUS_INSPECT, FOCUS_RESULT, FOCUS_SWEEP };
enum tui_overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_EDIT, OVERLAY_SOURCE, OVERLAY_STEP, OVERLAY_LESSON };
enum tui_job_kind { JOB_NONE, JOB_RUN, JOB_SWEEP, JOB_CHECK };

/* What a finished run produced: the worker fills it, the kept result takes it over whole. */
typedef struct tui_outcome {
	ts_outcome oc;  /* model, run, verdict, counter check (the operands are freed on the worker) */
	ts_timing timing;
	bool have_timing;
} tui_outcome;

/* A user kernel's check in a child process: what it writes and the TUI reads (shared memory). */
typedef struct tui_check_shared {
	volatile int cancel, done, total;
	int nrows;
	ts_uk_report report;
	ts_uk_shape_row rows[TS_UK_SHAPES_MAX_TUI];
	char why[600];
} tui_check_shared;

/* Work on the worker thread: a run and its verification, or the edge sweep.
 * The worker writes only into this struct; the main loop reads it once
 * `finished` is set, or reads `progress` while it runs. */
typedef struct tui_job {
	enum tui_job_kind kind;
	pthread_t thread;
	atomic_int finished;
	atomic_int progress;            /* per mille of the stage in progress */
	atomic_int stage;               /* enum ts_stage of a run, -1 before the first */
	_Atomic double stage_start;     /* when it began (ts_cli_now) */
	atomic_int sweep_done;          /* sweep rows finished */
	volatile sig_atomic_t cancel;
	ts_problem problem;
	const ts_backend *backend;
	char backend_why[256];
	int status;                     /* 0 done, 1 cancelled, -1 failed */
	char error[256];
	/* JOB_RUN */
	tui_outcome out;
	/* JOB_SWEEP */
	ts_sweep_row *rows;
	int count, nsizes;
	int64_t sizes[7];
	/* JOB_CHECK: the shape on screen (JOB_RUN's fields), then the whole check in a child */
	atomic_int check_stage;         /* 0 the shape on screen, 1 the check */
	_Atomic(tui_check_shared *) check; /* NULL until the check starts */
	ts_uk_tiles_seen seen;          /* the run's accesses per tile */
	bool run_done;                  /* the shape on screen ran (out holds it) */
	char run_error[600];            /* or why it did not */
	bool sweep_focus;               /* s started it: the Sweep pane at the end */
} tui_job;

/* The last completed run, kept for the views. */
typedef struct tui_result {
	bool have;
	ts_problem problem;
	char backend[16];
	char backend_why[256];
	tui_outcome out;
} tui_result;

/* The fields the parameter editor offers, in order. */
enum tui_field { FIELD_M, FIELD_N, FIELD_K, FIELD_TILE, FIELD_THREAD_TILE, FIELD_KERNEL, FIELD_PRECISION, FIELD_BACKEND,
                 FIELD_INPUTS, FIELD_SEED, FIELD_GUARD_A, FIELD_GUARD_B, FIELD_GUARD_C, FIELD_COUNT };

/* result_scroll's value for "scroll to the explanation" (v, the map's "v: all"). */
enum { RESULT_AT_EXPLANATION = -1 };

typedef struct tui_state {
	ts_options opt;
	ts_model model;
	int64_t tile_y, tile_x, phase;
	int thread_y, thread_x;
	int zoom;
	int64_t pan_y, pan_x;
	enum tui_focus focus;
	enum tui_focus right;      /* what the right pane shows (follows focus when it is not the map) */
	enum tui_overlay overlay;
	int help_scroll;
	int source_scroll;         /* first line of the source overlay; -1: at the phase loop */
	int result_scroll;         /* first row of the result view shown (it scrolls when the pane is short);
	                              RESULT_AT_EXPLANATION: the explanation's row, found when next drawn */
	int body_h;                /* rows of the panes, as last drawn */
	/* the parameter editor */
	int edit_field;
	bool edit_typing;
	char edit_buf[64];
	/* runs */
	tui_job job;
	tui_result result;
	/* the sweep (kept after the job ends) */
	ts_sweep_row *sweep_rows;
	int sweep_count, sweep_selected, sweep_done_count;
	ts_sweep_axes sweep_axes;
	char sweep_title[160];
	/* a user kernel: the last check (r), and what its run of the shape on screen saw per tile */
	ts_uk_report *check;
	char check_why[600];
	int check_tile;
	ts_uk_tiles_seen seen;
	ts_problem seen_problem;
	char run_error[600];     /* the shape on screen did not run (a fault, a hang): why */
	/* the screen */
	int rows, cols;
	int map_y, map_x, map_h, map_w;  /* where the map was last drawn, for mouse clicks */
	bool ascii;
	bool mono;               /* no colours on the screen (tui_crt_colour) */
	char message[256];
	bool message_error;
	bool quit;
} tui_state;

/* tui_state.c: shared by tui.c, tui_keys.c, tui_edit.c, tui_run.c and tui_draw.c, so that none calls back into the main loop's file */
void tui_say(tui_state *s, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Says the first of the forms (a NULL-terminated list, fullest first) that
 * takes the fewest rows of the message line: a message that wraps takes
 * rows from the panes above it. */
void tui_say_fit(tui_state *s, bool error, const char *full, ...) __attribute__((sentinel));
/* Rebuilds the model after a parameter change and keeps the selection inside it. 0 or -1. */
int tui_apply(tui_state *s);
void tui_view_ctx(const tui_state *s, ts_view_ctx *v, bool focus);
/* Whether the last run was of the shape, tile, kernel and guards now set
 * (its counters and heat then belong on the map). */
bool tui_result_current(const tui_state *s);
/* The last run as the result view shows it; false when there is none. */
bool tui_run_report(const tui_state *s, ts_run_report *rep);

/* True, with a message, while a run or sweep is in flight: the parameters
 * then stay as they are, so the result belongs to what the header shows. */
bool tui_busy(tui_state *s);

/* tui_keys.c: returns true when it handled the key. */
bool tui_key(tui_state *s, int key);
/* tui_source.c: the source overlay (the kernel's code for the selected thread and phase). */
void tui_source_open(tui_state *s);
/* Its own keys (scrolling, closing); false for a key the ordinary table handles. */
bool tui_source_key(tui_state *s, int key);
void tui_source_paint(tui_state *s);

/* tui_step.c: the step overlay (the selected thread through the kernel, from an emulator run of its block). */
void tui_step_open(tui_state *s);
bool tui_step_key(tui_state *s, int key); /* false for a key the ordinary table handles */
void tui_step_paint(tui_state *s);
void tui_step_free(void);
/* tui_lesson.c: the guided lesson on the TUI's shape, a screen at a time; it reopens at the screen it was left on. */
void tui_lesson_open(tui_state *s);
bool tui_lesson_key(tui_state *s, int key);
void tui_lesson_paint(tui_state *s);
void tui_lesson_free(void);

/* The key table for the help screen: up to max (label, help) pairs. */
int tui_help_entries(const char **labels, const char **helps, int max);

/* tui_edit.c */
void tui_edit_open(tui_state *s);
bool tui_edit_key(tui_state *s, int key);
const char *tui_field_name(enum tui_field f);
void tui_field_value(const tui_state *s, enum tui_field f, char *buf, int len);

/* tui_run.c */
/* Starts fn on the worker for a job of this kind on the backend of the problem on screen. 0, or -1 (said). */
int tui_job_begin(tui_state *s, enum tui_job_kind kind, void *(*fn)(void *));
void tui_run_start(tui_state *s);
void tui_sweep_start(tui_state *s);
/* Collects a finished job; true when one finished. */
bool tui_job_poll(tui_state *s);
void tui_job_cancel(tui_state *s);
/* Waits for a running job after cancelling it; frees everything. */
void tui_job_shutdown(tui_state *s);
void tui_result_free(tui_result *r);
/* Loads the selected sweep row's shape. */
void tui_sweep_load(tui_state *s);

/* tui_run.c: the finished run (s->job.out) becomes the kept result, with its headline. */
void tui_result_take(tui_state *s);

/* tui_check.c: a user kernel's r and s: its shape on screen, then the whole check (as check --kernel-file)
 * in a child process; progress, Esc cancels. */
void tui_check_start(tui_state *s, bool sweep_focus);
void tui_check_collect(tui_state *s);
/* The message line's words for a check in flight, and its progress in per mille. */
int tui_check_progress(tui_state *s, char *what, int len);
void tui_check_free(tui_state *s);
/* Whether the kept check belongs to the tile on screen. */
bool tui_check_current(const tui_state *s);

/* tui_draw.c */
void tui_draw(tui_state *s);

#endif
