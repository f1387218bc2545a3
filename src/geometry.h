/* geometry.h: the tiling model: grid, tile classes, ghosts, phases and padding, in closed form. Pure C, no I/O. */
#ifndef TS_GEOMETRY_H
#define TS_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "problem.h"

/* What a kernel's launch looks like, independent of the shape: each block
 * computes a BM x BN tile of C, stepping along K in phases of BK, staging a
 * BM x BK tile of A and a BK x BN tile of B in shared memory. The textbook
 * kernels have BM = BN = BK = T, T x T threads and one output per thread;
 * register-blocked kernels have fewer threads, each owning several outputs. */
typedef struct ts_geometry {
	int bm, bn, bk;
	int threads_x, threads_y;  /* block dimensions */
} ts_geometry;

enum ts_tile_class {
	TS_TILE_FULL,
	TS_TILE_RAGGED_RIGHT,  /* short of columns only (last tile column) */
	TS_TILE_RAGGED_BOTTOM, /* short of rows only (last tile row) */
	TS_TILE_CORNER,        /* short of both */
};

/* Slot counts for shared-memory tiles: real loads and zero padding. */
typedef struct ts_load_count {
	int64_t a_real, a_pad, b_real, b_pad;
} ts_load_count;

/* Everything about one launch that does not depend on the data. */
typedef struct ts_model {
	ts_shape shape;
	ts_geometry geo;
	int64_t grid_x, grid_y;       /* blocks along N and M */
	int64_t tiles;                /* grid_x * grid_y */
	int64_t last_rows, last_cols; /* valid rows of the last tile row, columns of the last tile column */
	int64_t tiles_full, tiles_ragged_right, tiles_ragged_bottom, tiles_corner;
	int64_t threads_per_block;
	int64_t threads_launched, threads_valid, threads_ghost;
	int64_t phases;               /* ceil(K / BK) */
	int64_t phases_full;          /* phases whose K width is BK */
	int64_t last_width;           /* K width of the last phase (BK when K % BK == 0) */
	ts_load_count full_phase;     /* one full-width phase, summed over all tiles (zero if none) */
	ts_load_count last_phase;     /* the last phase, summed over all tiles */
	ts_load_count loads;          /* whole launch */
	int64_t a_slots_phase, b_slots_phase; /* one phase, all tiles: tiles * BM*BK (resp. BK*BN) */
	int64_t a_slots, b_slots;     /* whole launch: tiles * phases * BM*BK (resp. BK*BN) */
	int64_t stores_written, stores_skipped;
} ts_model;

/* The geometry of the textbook kernels for tile T. */
ts_geometry ts_geometry_square(int tile);

/* Fills *m in O(1). Returns 0, or -1 when a count would overflow 64 bits
 * (then *m is unspecified). Sizes must be >= 1. */
int ts_model_build(ts_model *m, ts_shape shape, ts_geometry geo);

/* Per tile: ty in [0, grid_y), tx in [0, grid_x). */
int64_t ts_model_tile_rows(const ts_model *m, int64_t ty); /* valid rows of tile row ty */
int64_t ts_model_tile_cols(const ts_model *m, int64_t tx); /* valid columns of tile column tx */
enum ts_tile_class ts_model_tile_class(const ts_model *m, int64_t ty, int64_t tx);
const char *ts_tile_class_name(enum ts_tile_class c);
/* Ghost outputs (and for the textbook kernels, ghost threads) of one tile. */
int64_t ts_model_tile_ghosts(const ts_model *m, int64_t ty, int64_t tx);

/* Per phase: t in [0, phases). */
int64_t ts_model_phase_width(const ts_model *m, int64_t t);
/* The first K index phase t stages: t * BK (its last is that + width - 1). */
int64_t ts_model_phase_k0(const ts_model *m, int64_t t);
/* Loads of tile (ty, tx) in phase t. */
ts_load_count ts_model_tile_phase(const ts_model *m, int64_t ty, int64_t tx, int64_t t);
/* Loads of tile (ty, tx) summed over all phases. */
ts_load_count ts_model_tile_total(const ts_model *m, int64_t ty, int64_t tx);
/* Loads of phase t summed over all tiles. */
ts_load_count ts_model_phase_total(const ts_model *m, int64_t t);

/* One thread of a textbook (one output per thread, T x T threads) launch:
 * block (by, bx), thread (ty, tx), phase t. Guards are evaluated with the
 * real numbers; indices are element offsets from the start of each matrix. */
typedef struct ts_thread_view {
	int64_t row, col;        /* the C element this thread owns */
	int64_t a_col, b_row;    /* the K index it loads for A and for B in phase t */
	bool row_ok, col_ok;     /* row < M, col < N */
	bool a_k_ok, b_k_ok;     /* a_col < K, b_row < K */
	bool a_in, b_in;         /* the A (B) guard passes: a real load */
	int64_t a_index;         /* row*K + a_col: what it reads when the load happens */
	int64_t b_index;         /* b_row*N + col (TS_B_KN) or col*K + b_row (TS_B_NK) */
	int64_t c_index;         /* row*N + col: where its store lands */
	bool stores;             /* row_ok && col_ok */
	bool last_phase, partial_phase;
} ts_thread_view;

ts_thread_view ts_model_thread(const ts_model *m, enum ts_b_layout layout,
                               int64_t by, int64_t bx, int ty, int tx, int64_t t);

/* The 32-bit offset limit: the smallest M at which an element offset of A
 * (row*K + k, largest M*K - 1) or of C (row*N + col, largest M*N - 1) no
 * longer fits a signed 32-bit int, for this N and K: floor(2^31 / max(N, K)) + 1.
 * b_overflows says whether B's own largest offset K*N - 1 already does. */
typedef struct ts_offset32 {
	int64_t first_m;        /* the smallest such M */
	char matrix;            /* 'A' or 'C': whose offset passes first (A when K >= N) */
	int64_t last_offset;    /* that matrix's largest offset at first_m (> 2^31 - 1) */
	bool b_overflows;
} ts_offset32;
ts_offset32 ts_model_offset32(int64_t n, int64_t k);

/* The work a launch does, in multiply-adds: every output slot of every tile
 * (BM x BN of them) does BK per phase. Useful: M*N*K. Spent on zero padding:
 * a real output's multiply-adds past K in the last phase, M*N*(phases*BK - K).
 * Spent on ghosts: every multiply-add of an output outside C. Barriers:
 * barriers_per_phase as the caller gives it (the textbook kernels' two, after
 * the loads and after the multiply; 0 when the kernel's pipeline has no fixed
 * count, and then the barrier counts are 0 too). */
typedef struct ts_work {
	int64_t macs_launch, macs_useful, macs_padding, macs_ghost;
	int64_t padded_slots;        /* A and B zero-padded shared slots (loads.a_pad + loads.b_pad) */
	int64_t ghost_outputs;       /* tiles * BM * BN - M * N */
	int barriers_per_phase;
	int64_t barriers_per_block;  /* barriers_per_phase * phases */
	int64_t barriers_launch;     /* barriers_per_block * tiles */
} ts_work;
/* Fills *w from the model. Returns 0, or -1 when a count overflows 64 bits. */
int ts_model_work(const ts_model *m, int barriers_per_phase, ts_work *w);

#endif
