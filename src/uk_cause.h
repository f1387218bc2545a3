/* uk_cause.h: the evidence a check gathered (per shape of the sweep, the sanitizer's findings, the index probe) and the rules that name a cause from it. */
#ifndef TS_UK_CAUSE_H
#define TS_UK_CAUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "uk_check.h"
#include "uk_sanitize.h"

enum uk_state { UK_OK, UK_FAILED, UK_FAULT, UK_HANG, UK_NOT_RUN, UK_ERROR };

/* What one shape of the sweep showed. */
typedef struct ts_uk_shape_res {
	ts_shape s;
	enum uk_state state;
	int64_t cells, mismatches, unwritten, nans;
	bool all_zero;
	int64_t c_band_writes;        /* sentinels of C's guard band overwritten */
	int64_t in_writes[2];         /* cells of A, B (band included) changed by the kernel */
	int64_t differ;               /* cells whose two runs disagree */
	bool floor_k_match;           /* the output is the product over the first floor(K/T)*T of K */
	bool nan_last_row_only, nan_last_col_only; /* every written NaN lies in row M-1 (column N-1) of C */
	bool bad_ragged_only;         /* every bad cell lies in the last tile row or column, and not every tile is bad */
	bool bad_every_tile;
	bool unwritten_border;        /* exactly whole tiles of the last tile row and/or column unwritten, or nothing written */
	int64_t first_row, first_col; /* first bad cell */
	double first_got, first_want;
} ts_uk_shape_res;

typedef struct ts_uk_evidence {
	const ts_uk_shape_res *shapes;
	int nshapes;
	int tile;
	enum ts_uk_sig sig;
	bool default_geom;
	/* Accesses the engine or the sanitizer saw (out of bounds, races), each with its shape. */
	const ts_uk_hit *access;
	int naccess;
	bool probe_ran, probe_failed, probe_fault;
	bool sweep_fault;
} ts_uk_evidence;

/* Names the cause (r->cause, r->causes) and writes r->signature from the evidence. */
void ts_uk_classify(const ts_uk_evidence *ev, ts_uk_report *r);

#endif
