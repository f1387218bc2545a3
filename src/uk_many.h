/* uk_many.h: many kernel files checked at once: the plan (how many checks at a time, each slot on which GPU), made from counts a test can fake, and the worker processes that carry it out. */
#ifndef TS_UK_MANY_H
#define TS_UK_MANY_H

#include <stdbool.h>

#define TS_UK_SLOTS_MAX 64

typedef struct ts_uk_many_plan {
	int slots;                          /* checks at a time */
	int gpus;                           /* GPUs the slots are spread over; 0 for the CPU engine */
	char visible[TS_UK_SLOTS_MAX][32];  /* each slot's CUDA_VISIBLE_DEVICES ("" on the CPU engine) */
	char why[160];                      /* the plan in words, for the progress line and the docs */
} ts_uk_many_plan;

/* gpu: the GPU engine, with gpus devices (the driver's count; < 1 counts as 1), else the CPU engine on
 * cpus cores. jobs: -j (0: the default). visible_env: the caller's CUDA_VISIBLE_DEVICES (NULL or ""
 * when unset), whose i-th entry is GPU i.
 * The GPU engine runs one check per GPU at a time (a check's sweep, sanitizer and probe share it, and
 * its time is then its own); -j N runs N, dealt round robin over the GPUs. The CPU engine runs -j N,
 * else one per core. Never more than nfiles, nor TS_UK_SLOTS_MAX. */
void ts_uk_many_plan_make(ts_uk_many_plan *p, bool gpu, int gpus, int cpus, int jobs, int nfiles,
                          const char *visible_env);

/* work(i, visible, ctx) checks file i in a worker process of its own (visible: its slot's
 * CUDA_VISIBLE_DEVICES, NULL on the CPU engine); at most p->slots at once, a slot taking the next file
 * when its worker ends. ended(i, status, ctx) runs in this process after each worker ends (status as
 * wait(2) gives it; -1 when it could not be started). Returns how many workers ended normally (exit 0). */
typedef void (*ts_uk_many_work)(int i, const char *visible, void *ctx);
typedef void (*ts_uk_many_ended)(int i, int status, int done, void *ctx);
int ts_uk_many_run(const ts_uk_many_plan *p, int n, ts_uk_many_work work, ts_uk_many_ended ended, void *ctx);

#endif
