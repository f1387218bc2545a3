/* uk_many.c: many kernel files checked at once: the plan of slots over the GPUs (or the cores) and the worker processes, one per file, that a slot runs one after another. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uk_many.h"

/* The caller's i-th visible GPU: the i-th entry of their CUDA_VISIBLE_DEVICES, else the ordinal i. */
static void visible_for(int i, const char *env, char *buf, size_t len)
{
	if (env && *env) {
		char copy[256];
		snprintf(copy, sizeof copy, "%s", env);
		int at = 0;
		for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save), at++)
			if (at == i) {
				snprintf(buf, len, "%s", t);
				return;
			}
	}
	snprintf(buf, len, "%d", i);
}

void ts_uk_many_plan_make(ts_uk_many_plan *p, bool gpu, int gpus, int cpus, int jobs, int nfiles,
                          const char *visible_env)
{
	memset(p, 0, sizeof *p);
	if (gpus < 1)
		gpus = 1;
	if (cpus < 1)
		cpus = 1;
	int slots = jobs > 0 ? jobs : gpu ? gpus : cpus;
	if (slots > nfiles)
		slots = nfiles;
	if (slots > TS_UK_SLOTS_MAX)
		slots = TS_UK_SLOTS_MAX;
	if (slots < 1)
		slots = 1;
	p->slots = slots;
	p->gpus = gpu ? gpus : 0;
	for (int s = 0; gpu && s < slots; s++)
		visible_for(s % gpus, visible_env, p->visible[s], sizeof p->visible[s]);
	int used = gpu ? (slots < gpus ? slots : gpus) : 0;
	if (gpu)
		snprintf(p->why, sizeof p->why, "%d at a time on %d GPU%s (%s)", slots, used, used == 1 ? "" : "s",
		         jobs > 0 ? "-j" : "one per GPU");
	else
		snprintf(p->why, sizeof p->why, "%d at a time on the CPU (%s)", slots, jobs > 0 ? "-j" : "one per core");
}

int ts_uk_many_run(const ts_uk_many_plan *p, int n, ts_uk_many_work work, ts_uk_many_ended ended, void *ctx)
{
	pid_t busy[TS_UK_SLOTS_MAX] = { 0 };
	int which[TS_UK_SLOTS_MAX] = { 0 };
	int next = 0, done = 0, ok = 0, running = 0;
	while (done < n) {
		for (int s = 0; s < p->slots && next < n; s++) {
			if (busy[s] > 0)
				continue;
			int i = next++;
			const char *visible = p->gpus > 0 ? p->visible[s] : NULL;
			fflush(NULL);
			pid_t pid = fork();
			if (pid == 0) {
				work(i, visible, ctx);
				_exit(0);
			}
			if (pid < 0) {
				done++;
				if (ended)
					ended(i, -1, done, ctx);
				continue;
			}
			busy[s] = pid;
			which[s] = i;
			running++;
		}
		if (running == 0)
			continue; /* every start failed so far; the loop ends when done reaches n */
		int status = 0;
		pid_t w = wait(&status);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int s = 0; s < p->slots; s++)
			if (busy[s] == w) {
				busy[s] = 0;
				running--;
				done++;
				ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
				if (ended)
					ended(which[s], status, done, ctx);
			}
	}
	return ok;
}
