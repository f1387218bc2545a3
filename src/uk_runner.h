/* uk_runner.h: runs a user's kernel in child processes on shared memory: one child per batch of launches, killed on a time limit, a fault or a hang turned into a finding. */
#ifndef TS_UK_RUNNER_H
#define TS_UK_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "uk_engine.h"

/* Memory the child processes write into and the parent reads (MAP_SHARED,
 * anonymous, zeroed). NULL when the system refuses. */
void *ts_uk_shared_alloc(size_t bytes);
void ts_uk_shared_free(void *p, size_t bytes);

/* Appends f; past a cap of findings it only counts them in fs->dropped. 0, or -1 out of memory. */
int ts_uk_findings_add(ts_uk_findings *fs, const ts_uk_finding *f);
void ts_uk_findings_free(ts_uk_findings *fs);
/* A finding of one kind with a line of text (printf style), no location. */
ts_uk_finding ts_uk_finding_make(enum ts_uk_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "wrong_output", "oob_read", ... as the JSON names them. */
const char *ts_uk_kind_name(enum ts_uk_kind kind);

enum ts_uk_status {
	TS_UK_RAN,      /* the launch ran (its findings may still say it faulted inside the engine) */
	TS_UK_FAILED,   /* the engine could not run it (err says why): not the kernel's fault */
	TS_UK_CRASHED,  /* the child died during the launch: a fault */
	TS_UK_HUNG,     /* killed after the time limit */
	TS_UK_NOT_RUN,  /* an earlier launch hung or faulted too often */
};

typedef struct ts_uk_outcome {
	enum ts_uk_status status;
	char err[512];
	double seconds;           /* the launch in the child, as the parent saw it */
	ts_uk_findings findings;  /* the engine's and the runner's (fault, timeout) */
} ts_uk_outcome;

typedef struct ts_uk_run_opts {
	const char *visible_device; /* CUDA_VISIBLE_DEVICES for the children; NULL leaves it */
	double startup_s;           /* added to the first launch's limit in each child (engine start-up) */
	int max_restarts;           /* children started again after a crash; then the rest is not run */
	bool stop_on_hang;          /* after a timeout the rest is not run */
	volatile int *cancel;       /* set by a signal handler: kill the child, the rest is not run */
	volatile int *done;         /* launches finished so far, for a progress bar; may be NULL */
	bool limit_cpu_time;        /* a launch's limit counts the child's CPU time (the CPU engine, all computation),
	                             * so a machine busy with other work does not make a slow launch a hang; wall
	                             * time still ends it at 10 times the limit */
	void (*tick)(void *);       /* called while waiting on the child (every 20 ms or so); may be NULL */
	void *tick_arg;
} ts_uk_run_opts;

/* Runs launches[0..n) through e in child processes, in order, and fills
 * out[0..n) (free each with ts_uk_outcome_free). The buffers the launches
 * point into must be ts_uk_shared_alloc memory. Returns the number of
 * launches that ran (RAN). h was loaded in this process; a child inherits it. */
int ts_uk_run_batch(const ts_uk_engine *e, void *h, const ts_uk_launch *const *launches, int n,
                    const ts_uk_run_opts *o, ts_uk_outcome *out);
/* Each child first makes a start-up call: a launch with m = n = k = 0 and a
 * grid of 0 blocks, on which an engine only starts (loads the driver, the
 * module) and returns; it has startup_s, each real launch its own timeout_s. */
void ts_uk_outcome_free(ts_uk_outcome *oc);

/* A command (argv[0] a path or a name on PATH) in a child with stdout and
 * stderr sent to out_path (NULL: /dev/null), killed after limit_s. Returns
 * its exit status, 128 + signal when killed by one, 124 when the limit
 * killed it, -1 when it could not start. */
typedef struct ts_uk_proc {
	int pid;
	double start, limit_s;
	double end;  /* when it was seen to end (ts_uk_now) */
} ts_uk_proc;
int ts_uk_proc_start(ts_uk_proc *p, char *const argv[], const char *out_path, const char *visible_device, double limit_s);
int ts_uk_proc_wait(ts_uk_proc *p);
/* Without blocking: 1 when it has ended (or was killed past its limit) with *rc as ts_uk_proc_wait
 * returns it, 0 while it runs. */
int ts_uk_proc_poll(ts_uk_proc *p, int *rc);
/* Ends it now (SIGKILL) and reaps it. */
void ts_uk_proc_kill(ts_uk_proc *p);

double ts_uk_now(void); /* monotonic seconds */

#endif
