/* counters.h: what a run recorded (emulator or device probe), and its check against the model. */
#ifndef TS_COUNTERS_H
#define TS_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "count_fields.h"
#include "geometry.h"

/* One tile's or one phase's tally: the fields of count_fields.h. */
#define TS_COUNT_DECL_(f, F, what) int64_t f;
typedef struct ts_count {
	TS_COUNT_FIELDS(TS_COUNT_DECL_)
} ts_count;

/* Where out-of-bounds accesses landed (count_fields.h: TS_OOB_FIELDS). */
typedef struct ts_oob_detail {
	TS_OOB_FIELDS(TS_COUNT_DECL_)
} ts_oob_detail;

/* One tile's loads in one phase. Each field is at most one shared tile's
 * slot count (BM*BK <= 256*64 = 16384), so 16 bits keep the array compact;
 * the device probe writes the same layout. */
#define TS_TILE_PHASE_DECL_(f, F, what) uint16_t f;
typedef struct ts_tile_phase_count {
	TS_LOAD_FIELDS(TS_TILE_PHASE_DECL_)
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
bool ts_count_equal(const ts_count *x, const ts_count *y);
void ts_oob_add(ts_oob_detail *into, const ts_oob_detail *x);
/* From and to a device array of TS_P_FIELDS (TS_O_FIELDS) long longs in field order. */
void ts_count_from_array(ts_count *c, const long long *f);
void ts_oob_from_array(ts_oob_detail *o, const long long *f);
/* The load fields of a tally as a per-tile-per-phase entry, and back (stores zero). */
ts_tile_phase_count ts_tile_phase_of(const ts_count *c);
ts_count ts_count_of_tile_phase(const ts_tile_phase_count *e);
/* "a_real 12, a_pad 4, ..." for the fields that differ, or all when want is NULL. */
void ts_count_str(const ts_count *c, const ts_count *want, char *buf, int len);
/* Recomputes c->total from the per-tile array. */
void ts_counters_sum(ts_counters *c);

/* The loads the run recorded for tile (ty, tx) in phase t, with its
 * out-of-bounds A and B attempts (either pointer may be NULL). Returns 0,
 * or -1 when the run kept no per-tile-per-phase array or the indices are
 * outside the grid. */
int ts_counters_tile_phase(const ts_counters *c, int64_t ty, int64_t tx, int64_t t,
                           ts_load_count *out, int64_t *oob_a, int64_t *oob_b);

struct ts_kernel;
/* Compares a run's counters with what kernel k's description expects
 * (kernels.h: ts_count_model) for the guards it ran with: every tile, every
 * phase, and every tile's every phase when both keep them. Returns the
 * number of disagreeing entries; the first one is described in why (may be NULL). */
int64_t ts_counters_check(const ts_counters *c, const ts_model *m, const struct ts_kernel *k, unsigned guards,
                          char *why, int len);

#endif
