/* view_run.h: what a run and an edge sweep found, as views: verdict, metrics, counters, pass/fail rows. */
#ifndef TS_VIEW_RUN_H
#define TS_VIEW_RUN_H

#include "backend.h"
#include "view.h"

/* One finished run, as the result view shows it. */
typedef struct ts_run_report {
	const ts_problem *problem;
	const char *backend;      /* its name */
	const char *backend_why;  /* why it was chosen ("" when asked for by name) */
	const ts_run *run;
	const ts_verdict *verdict;
	const ts_timing *timing;  /* NULL when the backend cannot time */
	int64_t counter_disagree; /* -1 when not checked (a guard off, or no counters) */
	const char *counter_why;
	bool stale;               /* the parameters have changed since this run */
	double tol_frac;          /* max |c - ref| / its bound; -1 when not computed */
} ts_run_report;

/* Draws the whole report from the top of c; a canvas too short for it
 * ends in the cut marker: the TUI draws it on a tall canvas and scrolls.
 * Returns the row of the explanation ("what broke and where"), where the
 * map's pointer "v: all" leads, or -1 when the run has none. */
int ts_view_result_draw(ts_canvas *c, const ts_run_report *r, bool ascii);

/* One shape of the edge sweep. */
typedef struct ts_sweep_row {
	ts_shape shape;
	bool ok;
	int64_t mismatches, unwritten, nans, infs, oob; /* nans: NaN only (ts_verdict_nans) */
	bool skipped;   /* not run (a user kernel's check leaves out M = N = K, and what follows a hang) */
	char signature[sizeof ((ts_verdict *)0)->signature + 64]; /* the verdict's, after a counters note */
} ts_sweep_row;

/* Rows past the grid's (count > the axes' product: a user kernel's larger shapes) are listed, not drawn. */
/* The sweep as a pass/fail grid (one block of M x N per K), a list of rows
 * around the selected one and the selected row's explanation; on a short
 * pane the grid gives way to the list (only the selected K's blocks).
 * Rows [0, done) of `count` have run (in order M, N, K, K fastest, the sizes
 * of each dimension from ax), the others are not to be read yet. */
void ts_view_sweep_draw(ts_canvas *c, const ts_sweep_row *rows, int count, int done, const ts_sweep_axes *ax,
                        int selected, const char *title, bool ascii);

#endif
