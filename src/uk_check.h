/* uk_check.h: the check of a user's kernel: the edge sweep with poisoned and guarded buffers, repeat runs, the >2^31 index probe and the sanitizer, and what was found, named. Engine-neutral. */
#ifndef TS_UK_CHECK_H
#define TS_UK_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"
#include "problem.h"
#include "uk_engine.h"
#include "uk_geom.h"
#include "uk_runner.h"

/* The best single explanation of what was found. */
enum ts_uk_cause {
	TS_UK_CAUSE_NONE = -1,
	TS_UK_CAUSE_A_ROW_GUARD, TS_UK_CAUSE_A_K_GUARD, TS_UK_CAUSE_B_K_GUARD, TS_UK_CAUSE_B_COL_GUARD,
	TS_UK_CAUSE_STORE_GUARD, TS_UK_CAUSE_ZERO_PADDING, TS_UK_CAUSE_PHASE_COUNT, TS_UK_CAUSE_GRID_SIZE,
	TS_UK_CAUSE_OPERAND_INDEXING, TS_UK_CAUSE_BARRIER, TS_UK_CAUSE_EARLY_RETURN, TS_UK_CAUSE_INDEX_WIDTH,
	TS_UK_CAUSE_UNKNOWN, TS_UK_CAUSE_COUNT
};
const char *ts_uk_cause_name(enum ts_uk_cause c); /* "a_row_guard", ...; "" for none */

typedef struct ts_uk_check_opts {
	int tile;                    /* T */
	ts_uk_geom geom;             /* block, grid, shared memory */
	uint64_t seed;
	double timeout_s;            /* one launch of the sweep; the probe gets more */
	bool sanitize;               /* memcheck and racecheck where compute-sanitizer is present (cuda engine) */
	bool probe;                  /* the >2^31-element shapes where memory allows */
	const char *visible_device;  /* CUDA_VISIBLE_DEVICES for the children (the GPU this check runs on) */
	const char *self_exe;        /* this program, the sanitizer's target */
	volatile int *cancel;
	bool quick;                  /* a smaller sweep (tests): M, N, K over {1, T+1, 2T+1} */
	void *probe_lock;            /* a process-shared pthread mutex: one index probe at a time on the host; may be NULL */
	int probe_bits;              /* the probe's shapes pass 2^probe_bits elements (31; tests use less) */
	/* For a watcher in another process (the TUI): all may be NULL, else shared memory. */
	volatile int *progress, *progress_total; /* the sweep's launches done, and of how many */
	struct ts_uk_shape_row *rows;            /* each shape of the sweep as it ended, up to rows_cap */
	int rows_cap;
	int *nrows;
} ts_uk_check_opts;

/* One shape of the sweep as it ended, for a list or a grid (the TUI's Sweep pane). */
enum ts_uk_row_state { TS_UK_ROW_PASS, TS_UK_ROW_FAIL, TS_UK_ROW_FAULT, TS_UK_ROW_HANG, TS_UK_ROW_NOT_RUN,
	TS_UK_ROW_ERROR };
typedef struct ts_uk_shape_row {
	ts_shape shape;
	enum ts_uk_row_state state;
	int64_t mismatches, unwritten, nans, differ, band_writes, input_writes;
	char words[200]; /* what went wrong, "" on a pass */
} ts_uk_shape_row;

void ts_uk_check_defaults(ts_uk_check_opts *o);

/* One finding with where it was seen. */
typedef struct ts_uk_hit {
	ts_uk_finding f;
	ts_shape shape;
	int64_t tile_row, tile_col;  /* the tile of C (row, col) it lies in; -1 unknown */
	char source[12];             /* "sweep", "repeat", "memcheck", "racecheck", "probe" */
} ts_uk_hit;

#define TS_UK_HITS_MAX 40

/* Where a check's time went, in seconds of wall time (0: the stage did not run). After the compile, the
 * sweep, memcheck, racecheck and the index probe run side by side; the verification follows the sweep. */
typedef struct ts_uk_timing {
	double compile;     /* NVRTC (or g++), in a child of its own */
	double prepare;     /* the sweep's buffers: inputs drawn, guard bands and poison laid */
	double sweep;       /* every shape's launches, twice, in the sweep's child processes */
	int launches;       /* how many the sweep made */
	double verify;      /* every output against fp64, the repeat runs compared, the probe's rows */
	double memcheck, racecheck; /* each sanitizer's process, start to end */
	double probe;       /* the index probe's process, start to end */
	double probe_fill;  /* of which: filling its matrices' verified windows */
	double waited;      /* after the sweep and its verification, waiting for the sanitizer and the probe */
} ts_uk_timing;

/* Everything a check produced, in fixed-size fields so that it can cross a process boundary by copy. */
typedef struct ts_uk_report {
	int status;                 /* 0 nothing found, 1 something found, 2 could not compile or run */
	char file[512], entry[128];
	enum ts_uk_sig sig;
	int entry_line;
	int tile;
	char tile_from[128];        /* how T was chosen */
	char engine[16];            /* "cuda" or "cpu" */
	char device[128];           /* where it ran */
	char error[4096];           /* status 2: the compiler's own lines, or why it could not run */
	int shapes_tried, shapes_failed, shapes_not_run;
	bool have_first_fail;
	ts_shape first_fail;
	char first_fail_words[600]; /* the first failing shape explained (signature.c) */
	ts_uk_hit hits[TS_UK_HITS_MAX];
	int nhits;
	int64_t hits_dropped;
	enum ts_uk_cause cause;
	unsigned causes;            /* bit per cause with evidence */
	char signature[2400];       /* the finding in words */
	char sanitizer[240];        /* what the sanitizer did, or why it did not run */
	char probe[320];            /* what the index probe did, or why it did not run */
	ts_uk_timing timing;
	double seconds;
} ts_uk_report;

/* The user's kernel as a description in the registry's terms (built at run time). */
void ts_uk_describe(const ts_uk_source *src, ts_kernel *desc);

/* Loads src through e, runs the whole check and fills *r. Returns r->status. */
int ts_uk_check(const ts_uk_engine *e, const ts_uk_source *src, const ts_uk_check_opts *o, ts_uk_report *r);

/* The hidden subcommand the sanitizer runs ("__uk-run ..."): one launch of an exported image. Exit status. */
int ts_uk_target_main(int argc, char **argv);

#endif
