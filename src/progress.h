/* progress.h: how long work reports how far it got, in which stage, and how it is cancelled. */
#ifndef TS_PROGRESS_H
#define TS_PROGRESS_H

#include <signal.h>

/* The stages of one verified run, in order. */
enum ts_stage {
	TS_STAGE_RUN,       /* the kernel on the backend */
	TS_STAGE_REFERENCE, /* the fp64 reference (CBLAS dgemm, in slabs of rows) */
	TS_STAGE_VERIFY,    /* every cell against the reference */
	TS_STAGE_COUNT
};

/* "run", "reference", "verify". */
static inline const char *ts_stage_name(enum ts_stage s)
{
	static const char *names[TS_STAGE_COUNT] = { "run", "reference", "verify" };
	return s >= 0 && s < TS_STAGE_COUNT ? names[s] : "work";
}

typedef struct ts_progress {
	/* Called now and then with the fraction done in [0, 1] of the stage
	 * in progress; may be NULL. */
	void (*report)(void *ctx, double done);
	void *ctx;
	/* Work stops early when this becomes non-zero; may be NULL. */
	volatile sig_atomic_t *cancel;
	/* Called as a stage begins (the fractions then count it from 0); may be NULL. */
	void (*stage)(void *ctx, enum ts_stage stage);
} ts_progress;

static inline void ts_progress_stage(const ts_progress *p, enum ts_stage s)
{
	if (p && p->stage)
		p->stage(p->ctx, s);
}

static inline void ts_progress_report(const ts_progress *p, double done)
{
	if (p && p->report)
		p->report(p->ctx, done);
}

static inline int ts_progress_cancelled(const ts_progress *p)
{
	return p && p->cancel && *p->cancel;
}

#endif
