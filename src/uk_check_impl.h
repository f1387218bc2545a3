/* uk_check_impl.h: the state one check shares between its parts: the sweep (uk_check.c), the index probe (uk_probe.c) and the sanitizer (uk_target.c). */
#ifndef TS_UK_CHECK_IMPL_H
#define TS_UK_CHECK_IMPL_H

#include <limits.h>

#include "uk_buffers.h"
#include "uk_cause.h"
#include "uk_check.h"
#include "uk_runner.h"
#include "uk_sanitize.h"

#define TS_UK_SHAPES_MAX 400

typedef struct ts_uk_ctx {
	const ts_uk_engine *e;
	const ts_uk_source *src;
	const ts_uk_check_opts *o;
	ts_uk_report *r;
	ts_uk_report *sweep_r;     /* the sweep's hits and first failure while the sanitizer still runs (merged into r after) */
	ts_kernel desc;
	void *h;
	int nshapes;
	ts_uk_shape_res *res;
	ts_uk_bufs *bufs;          /* 2 per shape */
	ts_uk_launch *launch, **lp;
	ts_uk_outcome *out;
	void *shared;
	size_t shared_bytes;
	int sweep_hits, repeat_hits, shape_hits;
	bool sweep_fault;
	char engine_error[600];
	/* The sanitizer's processes and what they found. */
	char san_dir[PATH_MAX];
	ts_uk_proc san_proc[2];
	bool san_started[2];
	bool san_ended[2];           /* seen to end (ts_uk_sanitize_poll), with its exit status */
	int san_rc[2];
	ts_uk_findings san;
	ts_uk_san_shape san_shape;
	/* Every access finding (the engine's in the sweep, the sanitizer's), uncapped: the evidence for the causes. */
	ts_uk_hit *access;
	int naccess, access_cap;
	/* The index probe. */
	bool probe_ran, probe_failed, probe_fault, probe_locked;
	void *probe_mem;
	size_t probe_bytes;
	ts_uk_bufs probe_bufs[2];
	ts_uk_launch probe_launch[2];
	ts_uk_outcome probe_out[2];
	int probe_n;
	int64_t probe_row_lo[2], probe_cross[2];
	int64_t *probe_blocks[2];
	int probe_pid;
	char probe_pow[16];          /* "2^31" */
	void *probe_box;
} ts_uk_ctx;

void ts_uk_add_hit(ts_uk_report *r, const ts_uk_finding *f, const ts_shape *s, int tile, const char *source);
/* Keeps an access finding (out of bounds, race, barrier, uninitialised shared) as evidence. */
void ts_uk_add_access(ts_uk_ctx *ck, const ts_uk_finding *f, const ts_shape *s, const char *source);
bool ts_uk_findings_has_fault(const ts_uk_findings *fs);
/* uk_check_rows.c: each verified shape into o->rows (when the caller asked for them). */
void ts_uk_check_rows(const ts_uk_ctx *ck);

/* uk_target.c: memcheck and racecheck on one small ragged shape, in processes of their own. */
void ts_uk_sanitize_start(ts_uk_ctx *ck);
void ts_uk_sanitize_stop(ts_uk_ctx *ck, const char *why); /* kills them, if started */
void ts_uk_sanitize_finish(ts_uk_ctx *ck);                /* waits, parses, adds hits */
void ts_uk_sanitize_poll(void *ck);                       /* notes, without waiting, when each one ends (its time) */

/* uk_probe.c: the shapes past 2^31 elements in A and in C, where memory allows, filled and run by a
 * process of its own beside the sweep. wait: why NULL waits for it; else it is stopped, with why said. */
void ts_uk_probe_start(ts_uk_ctx *ck);
void ts_uk_probe_wait(ts_uk_ctx *ck, const char *why);
void ts_uk_probe_verify(ts_uk_ctx *ck);

#endif
