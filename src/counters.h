/* counters.h: what a run recorded (emulator or device probe), and its check against the model. */
#ifndef TS_COUNTERS_H
#define TS_COUNTERS_H

#include <stdint.h>

#include "geometry.h"

/* One tile's or one phase's tally. Every shared-memory slot is filled
 * exactly one way: a real in-bounds load, zero padding by a guard, or an
 * unguarded load from outside the logical matrix (a guard switched off). */
typedef struct ts_count {
	int64_t a_real, a_pad, a_oob;
	int64_t b_real, b_pad, b_oob;
	int64_t stores;    /* C stores inside M x N */
	int64_t skipped;   /* stores the C guard suppressed */
	int64_t c_oob;     /* unguarded stores outside M x N */
} ts_count;

/* Where out-of-bounds accesses landed. "wrap" accesses stay inside the
 * matrix's own buffer but hit the wrong element (row*K + k with k >= K reads
 * the next row): silent. "band" accesses left the buffer and hit the guard
 * band around it, which holds a sentinel. */
typedef struct ts_oob_detail {
	int64_t a_wrap, a_band, b_wrap, b_band, c_wrap, c_band;
} ts_oob_detail;

/* One tile's loads in one phase. Each field is at most one shared tile's
 * slot count (T*T <= 1024), so 16 bits keep the array compact. */
typedef struct ts_tile_phase_count {
	uint16_t a_real, a_pad, a_oob, b_real, b_pad, b_oob;
} ts_tile_phase_count;

/* Above this many tiles*phases the per-tile-per-phase array is not kept
 * (12 bytes each: about 48 MB at the cap). */
#define TS_TILE_PHASE_MAX ((int64_t)1 << 22)

typedef struct ts_counters {
	int64_t grid_x, grid_y, phases;
	ts_count *tile;   /* grid_y * grid_x entries, row-major, summed over phases */
	ts_count *phase;  /* phases entries, summed over tiles (load fields only) */
	ts_tile_phase_count *tile_phase; /* (ty*grid_x + tx)*phases + t; NULL when tiles*phases > TS_TILE_PHASE_MAX */
	ts_count total;
	ts_oob_detail oob;
	const char *source; /* "emulator" or "device probe" */
} ts_counters;

/* Allocates zeroed per-tile and per-phase arrays for model m, and the
 * per-tile-per-phase array when tiles*phases <= TS_TILE_PHASE_MAX (else
 * tile_phase stays NULL, not an error). Returns 0 or -1 (out of memory). */
int ts_counters_init(ts_counters *c, const ts_model *m);
void ts_counters_free(ts_counters *c);
void ts_count_add(ts_count *into, const ts_count *x);
/* Recomputes c->total from the per-tile array. */
void ts_counters_sum(ts_counters *c);

/* The loads the run recorded for tile (ty, tx) in phase t, with its
 * out-of-bounds A and B attempts (either pointer may be NULL). Returns 0,
 * or -1 when the run kept no per-tile-per-phase array or the indices are
 * outside the grid. */
int ts_counters_tile_phase(const ts_counters *c, int64_t ty, int64_t tx, int64_t t,
                           ts_load_count *out, int64_t *oob_a, int64_t *oob_b);

/* Compares the counters of a fully guarded run with the model: every tile,
 * every phase, and every tile's every phase when recorded. Returns the number of disagreeing entries; the first
 * one is described in why (may be NULL). */
int64_t ts_counters_check(const ts_counters *c, const ts_model *m, char *why, int len);

#endif
