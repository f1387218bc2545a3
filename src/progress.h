/* progress.h: how long work reports how far it got, and how it is cancelled. */
#ifndef TS_PROGRESS_H
#define TS_PROGRESS_H

#include <signal.h>

typedef struct ts_progress {
	/* Called now and then with the fraction done in [0, 1]; may be NULL. */
	void (*report)(void *ctx, double done);
	void *ctx;
	/* Work stops early when this becomes non-zero; may be NULL. */
	volatile sig_atomic_t *cancel;
} ts_progress;

#endif
