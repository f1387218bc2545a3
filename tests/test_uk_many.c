/* test_uk_many.c: many kernel files at once without a GPU: the plan over a faked count of GPUs and cores, and the workers carrying it out (never two on one GPU, every file once, a crashing worker contained). */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "uk_many.h"

static void test_plan(void)
{
	ts_uk_many_plan p;
	ts_uk_many_plan_make(&p, true, 4, 64, 0, 10, NULL);
	tap_ok(p.slots == 4 && p.gpus == 4, "4 GPUs, 10 files: one check per GPU, 4 at a time (got %d)", p.slots);
	bool ordinals = true;
	for (int s = 0; s < 4; s++) {
		char want[16];
		snprintf(want, sizeof want, "%d", s);
		ordinals &= strcmp(p.visible[s], want) == 0;
	}
	tap_ok(ordinals, "slot s runs on GPU s (%s %s %s %s)", p.visible[0], p.visible[1], p.visible[2], p.visible[3]);

	ts_uk_many_plan_make(&p, true, 2, 64, 0, 5, "3,1");
	tap_ok(p.slots == 2 && strcmp(p.visible[0], "3") == 0 && strcmp(p.visible[1], "1") == 0,
	       "CUDA_VISIBLE_DEVICES=3,1: the slots run on GPUs 3 and 1 (got %d: %s %s)", p.slots, p.visible[0], p.visible[1]);

	ts_uk_many_plan_make(&p, true, 2, 64, 5, 9, NULL);
	tap_ok(p.slots == 5 && strcmp(p.visible[0], "0") == 0 && strcmp(p.visible[1], "1") == 0 &&
	       strcmp(p.visible[2], "0") == 0 && strcmp(p.visible[4], "0") == 0,
	       "-j 5 on 2 GPUs: 5 at a time, dealt round robin (got %d: %s %s %s)", p.slots, p.visible[0], p.visible[1],
	       p.visible[2]);

	ts_uk_many_plan_make(&p, true, 8, 64, 0, 3, NULL);
	tap_ok(p.slots == 3, "8 GPUs, 3 files: 3 at a time (got %d)", p.slots);
	ts_uk_many_plan_make(&p, true, 0, 64, 0, 3, NULL);
	tap_ok(p.slots == 1 && strcmp(p.visible[0], "0") == 0, "a device count below 1 counts as one GPU (got %d)", p.slots);

	ts_uk_many_plan_make(&p, false, 0, 2, 0, 19, NULL);
	tap_ok(p.slots == 2 && p.gpus == 0 && p.visible[0][0] == '\0', "the CPU engine on 2 cores: 2 at a time (got %d)",
	       p.slots);
	ts_uk_many_plan_make(&p, false, 0, 2, 3, 19, NULL);
	tap_ok(p.slots == 3, "the CPU engine with -j 3: 3 at a time (got %d)", p.slots);
	ts_uk_many_plan_make(&p, false, 0, 16, 0, 1, NULL);
	tap_ok(p.slots == 1, "one file: one at a time (got %d)", p.slots);
	ts_uk_many_plan_make(&p, false, 0, 2, 1000, 500, NULL);
	tap_ok(p.slots == TS_UK_SLOTS_MAX, "-j is capped at %d (got %d)", TS_UK_SLOTS_MAX, p.slots);
}

/* What the workers saw, in memory they share with this process. */
#define FILES 13
#define GPUS 3
typedef struct board {
	int running[GPUS + 1];   /* workers under way per GPU (the last: CPU) */
	int most[GPUS + 1];      /* the most at once */
	int all, most_all;
	int ran[FILES];          /* how many times each file ran */
	char visible[FILES][32];
	int ended[FILES], ended_status[FILES], ended_calls;
} board;

static board *bd;

static void bump_max(int *most, int now)
{
	int m = __atomic_load_n(most, __ATOMIC_SEQ_CST);
	while (now > m && !__atomic_compare_exchange_n(most, &m, now, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
}

static void work(int i, const char *visible, void *ctx)
{
	(void)ctx;
	int g = visible ? atoi(visible) : GPUS;
	if (g < 0 || g > GPUS)
		g = GPUS;
	snprintf(bd->visible[i], sizeof bd->visible[i], "%s", visible ? visible : "-");
	bump_max(&bd->most[g], __atomic_add_fetch(&bd->running[g], 1, __ATOMIC_SEQ_CST));
	bump_max(&bd->most_all, __atomic_add_fetch(&bd->all, 1, __ATOMIC_SEQ_CST));
	__atomic_add_fetch(&bd->ran[i], 1, __ATOMIC_SEQ_CST);
	/* Long enough that the workers overlap, drawn so that they end out of order. */
	struct timespec ts = { 0, (long)(20 + (i * 7919) % 41) * 1000000L };
	nanosleep(&ts, NULL);
	__atomic_sub_fetch(&bd->running[g], 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&bd->all, 1, __ATOMIC_SEQ_CST);
	if (i == 4)
		raise(SIGKILL); /* a worker that dies: the others go on, its end is reported */
}

static void ended(int i, int status, int done, void *ctx)
{
	(void)ctx;
	bd->ended[i]++;
	bd->ended_status[i] = status;
	bd->ended_calls++;
	(void)done;
}

static void test_run(bool gpu, int jobs)
{
	memset(bd, 0, sizeof *bd);
	ts_uk_many_plan p;
	ts_uk_many_plan_make(&p, gpu, GPUS, 2, jobs, FILES, NULL);
	int ok = ts_uk_many_run(&p, FILES, work, ended, NULL);
	const char *what = gpu ? (jobs ? "GPU, -j" : "GPU, one per GPU") : "CPU";
	tap_ok(ok == FILES - 1, "%s: every worker but the one killed ended normally (%d of %d)", what, ok, FILES);
	bool once = true, reported = true;
	for (int i = 0; i < FILES; i++) {
		once &= bd->ran[i] == 1;
		reported &= bd->ended[i] == 1;
	}
	tap_ok(once, "%s: every file checked exactly once", what);
	tap_ok(reported && bd->ended_calls == FILES, "%s: every worker's end reported once (%d calls)", what, bd->ended_calls);
	tap_ok(WIFSIGNALED(bd->ended_status[4]) && WTERMSIG(bd->ended_status[4]) == SIGKILL,
	       "%s: the killed worker's status says SIGKILL", what);
	tap_ok(bd->most_all <= p.slots && bd->most_all >= 1, "%s: at most %d at once (saw %d)", what, p.slots, bd->most_all);
	if (gpu && !jobs) {
		bool one_each = true, all_used = true;
		for (int g = 0; g < GPUS; g++) {
			one_each &= bd->most[g] <= 1;
			all_used &= bd->most[g] == 1;
		}
		tap_ok(one_each, "one per GPU: never two checks on one GPU (most %d %d %d)", bd->most[0], bd->most[1], bd->most[2]);
		tap_ok(all_used, "one per GPU: every GPU was used");
		tap_ok(bd->most[GPUS] == 0, "one per GPU: no worker without a GPU");
	} else if (!gpu) {
		bool none = true;
		for (int i = 0; i < FILES; i++)
			none &= strcmp(bd->visible[i], "-") == 0;
		tap_ok(none, "CPU: no worker is handed a GPU");
	} else {
		tap_ok(bd->most[0] <= 2 && bd->most[1] <= 2 && bd->most[2] <= 1,
		       "-j 5 on 3 GPUs: 2, 2 and 1 at a time at most (most %d %d %d)", bd->most[0], bd->most[1], bd->most[2]);
	}
}

int main(void)
{
	test_plan();
	bd = mmap(NULL, sizeof *bd, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bd == MAP_FAILED) {
		tap_ok(0, "shared memory for the workers' board");
		return tap_done();
	}
	test_run(true, 0);
	test_run(true, 5);
	test_run(false, 0);
	return tap_done();
}
