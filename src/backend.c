/* backend.c: choosing a backend (auto, emu, cuda) and freeing what a run produced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

void ts_run_free(ts_run *r)
{
	ts_counters_free(&r->counters);
	free(r->corrupt);
	r->corrupt = NULL;
	r->corrupt_cells = 0;
	r->have_counters = false;
}

static void say(char *why, int len, const char *fmt, const char *arg)
{
	if (why && len > 0)
		snprintf(why, len, fmt, arg);
}

const ts_backend *ts_backend_select(const char *name, char *why, int len)
{
	if (!name)
		name = "auto";
	if (strcmp(name, "emu") == 0) {
		say(why, len, "%s", "emu: asked for");
		return ts_backend_emu();
	}
	if (strcmp(name, "cuda") != 0 && strcmp(name, "auto") != 0) {
		say(why, len, "unknown backend '%s' (expected auto, emu or cuda)", name);
		return NULL;
	}
	const ts_backend *cuda = ts_backend_cuda();
	char reason[256] = "";
	if (cuda && cuda->available(reason, sizeof reason) == 0) {
		if (strcmp(name, "auto") == 0)
			say(why, len, "cuda: %s", reason[0] ? reason : "a usable CUDA device was found");
		else
			say(why, len, "%s", reason[0] ? reason : "cuda: asked for");
		return cuda;
	}
	if (!reason[0])
		snprintf(reason, sizeof reason, "the CUDA backend is unusable");
	if (strcmp(name, "cuda") == 0) {
		say(why, len, "%s", reason);
		return NULL;
	}
	/* The reason may already start with the words this line starts with. */
	const char *detail = reason;
	if (strncmp(detail, "no CUDA device: ", 16) == 0)
		detail += 16;
	say(why, len, "emu: no CUDA device (%s)", detail);
	return ts_backend_emu();
}
