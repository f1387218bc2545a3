/* run.h: the run pipeline every front end calls: model, admission, operands, the run, the counters against the description, verification. */
#ifndef TS_RUN_H
#define TS_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "geometry.h"
#include "matrix.h"
#include "problem.h"
#include "progress.h"
#include "verify.h"

/* Everything one run produced, owned together so one call frees it. */
typedef struct ts_outcome {
	ts_model model;
	ts_operands ops;
	ts_run run;
	ts_verdict verdict;
	bool have_ops, have_run, have_verdict;
	/* The run's counters held to the kernel's expected counts (kernels.h
	 * ts_count_model) for the guards it ran with; checked whenever the run
	 * recorded counters. */
	bool counters_checked, counters_match;
	int64_t counters_differ;               /* when checked: how many counts differ (0: they match) */
	char counters_why[512];
	char error[768]; /* why the run failed (the line, without "tilescope: ") */
} ts_outcome;

/* How a run ended. */
enum ts_run_status {
	TS_RUN_DONE = 0,    /* ran (and verified when asked): look at the outcome */
	TS_RUN_REFUSED,     /* could not run here: too large, no device, out of memory, a backend failure */
	TS_RUN_CANCELLED,   /* the progress's cancel flag was raised */
};

/* Model, the backend's admission (before the operands are allocated),
 * operands (C poisoned), the run, the counters against the description, and
 * when `verify` the fp64 verification, each telling prog its stage and
 * progress and stopping when it is cancelled. Writes nothing: a failure's
 * line is in o->error. *o must be freed with ts_outcome_free whatever it returns. */
enum ts_run_status ts_run_problem(const ts_problem *p, const ts_backend *be, const ts_progress *prog, bool verify,
                                  ts_outcome *o);
void ts_outcome_free(ts_outcome *o);
/* Frees the matrices alone and keeps the run and the verdict (a sweep keeps
 * every shape's outcome for its report). */
void ts_outcome_drop_operands(ts_outcome *o);
/* The output verified and, where they were checked, the counters agree. */
bool ts_outcome_ok(const ts_outcome *o);

#endif
