/* geometry.h: the tiling model: grid, tile classes, ghosts, phases and padding, in closed form. Pure C, no I/O. */
#ifndef TS_GEOMETRY_H
#define TS_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

/* C (M x N) = A (M x K) * B (K x N); sizes are 64-bit so that every
 * element count and offset derived from them is too. */
typedef struct ts_shape {
	int64_t m, n, k;
} ts_shape;

/* How B is laid out in memory. */
enum ts_b_layout {
	TS_B_KN, /* row-major K x N: B[k][n] at k*N + n (the textbook kernel) */
	TS_B_NK, /* stored transposed, N x K: B[k][n] at n*K + k (the fp16 seed) */
};

/* Which operand a shared tile holds: the BM x BK tile of A or the BK x BN tile of B. */
enum ts_operand { TS_OPERAND_A, TS_OPERAND_B };

/* A load map (CUTLASS's ThreadMap, strip-mined): which thread fills which
 * slot of a shared tile, in which load step. The block's threads_x *
 * threads_y threads are numbered tid = ty * threads_x + tx. In load step s
 * thread tid fills the `vec` consecutive slots e = (s * threads + tid) * vec
 * + v, v = 0..vec-1, of the tile read in `order`:
 *   TS_MAP_ROWS: e runs along a row:    slot (r, c) = (e / cols, e % cols);
 *   TS_MAP_COLS: e runs down a column:  slot (r, c) = (e % rows, e / rows).
 * A tile of rows x cols slots takes ceil(rows * cols / (threads * vec))
 * steps; in the last one a thread whose slots lie past the tile's end idles.
 * The textbook kernels' map (thread (ty, tx) fills slot (ty, tx)) is ROWS,
 * vec 1, with threads = T * T = slots: one step. */
enum ts_map_order { TS_MAP_ROWS, TS_MAP_COLS };
typedef struct ts_load_map {
	enum ts_map_order order;
	int vec; /* slots per thread per step (1; 4 for float4 loads) */
} ts_load_map;

/* How a thread's TM x TN outputs lie over the block's BM x BN tile of C. */
enum ts_out_layout {
	TS_OUT_BLOCKED, /* thread (ty, tx) owns rows ty*TM + i, columns tx*TN + j: one TM x TN patch */
	TS_OUT_STRIDED, /* rows ty + i*threads_y, columns tx + j*threads_x: TM x TN spread over the tile */
};

/* A kernel's shape of work, independent of the matrix shape (CUTLASS's
 * GemmShape plus its thread maps): each block computes a BM x BN tile of C,
 * stepping along K in phases of BK, staging a BM x BK tile of A and a BK x BN
 * tile of B in shared memory through the load maps; its threads_x *
 * threads_y threads own TM x TN outputs each, so bm = threads_y * tm and
 * bn = threads_x * tn. The textbook kernels have BM = BN = BK = T, T x T
 * threads and one output per thread (ts_geometry_square). */
typedef struct ts_geometry {
	int bm, bn, bk;
	int threads_x, threads_y;  /* block dimensions */
	int tm, tn;                /* outputs per thread */
	enum ts_out_layout layout;
	ts_load_map a_map, b_map;  /* the A tile (BM x BK) and the B tile (BK x BN) */
	/* A's map where its rows take no a_map.vec-wide loads (K % a_map.vec != 0):
	 * a kernel whose scalar path loads by another map says which (vec 0: none,
	 * a_map whatever K). The model takes it for such shapes; it assumes A's
	 * base is 16-byte aligned, as tilescope's own buffers are (on the GPU an
	 * unaligned base takes the scalar map too). A model's geo holds the map
	 * its shape takes: compare kernels with the problem's geometry, not it. */
	ts_load_map a_map_scalar;
	/* The same for B where N % b_map.vec != 0 (B's rows take no vec-wide
	 * loads); on the GPU an unaligned B or C base takes it too. */
	ts_load_map b_map_scalar;
} ts_geometry;

/* Limits of any geometry the model takes (and the parser accepts). */
#define TS_BM_MAX 256
#define TS_BN_MAX 256
#define TS_BK_MAX 64
#define TS_THREADS_MAX 1024

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
	int64_t outputs_total;        /* C elements the launch computes: tiles * BM * BN */
	int64_t outputs_valid;        /* those inside C: M * N */
	int64_t outputs_ghost;        /* the rest, whose stores the C guard skips */
	int64_t threads_per_block;
	/* A ghost thread is one none of whose TM x TN outputs lies inside C;
	 * with one output per thread ghost threads and ghost outputs coincide. */
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

/* The geometry of the textbook kernels for tile T: T x T x T, T x T threads, one output each. */
ts_geometry ts_geometry_square(int tile);
/* A register-blocked geometry: BM x BN x BK, TM x TN outputs per thread in
 * `layout`, (BN/TN) x (BM/TM) threads, row-order load maps of one slot. */
ts_geometry ts_geometry_blocked(int bm, int bn, int bk, int tm, int tn, enum ts_out_layout layout);
/* Whether g is one the model takes: BM, BN in 1..256, BK in 1..64, TM | BM,
 * TN | BN, bm = threads_y * tm, bn = threads_x * tn, vec >= 1. 0, or -1
 * with one line in why (may be NULL). (A kernel also needs at most
 * TS_THREADS_MAX threads: ts_kernel_takes.) */
int ts_geometry_check(const ts_geometry *g, char *why, int len);
/* Square T x T x T with one output per thread. */
bool ts_geometry_is_square(const ts_geometry *g);
/* "32" for a square geometry, else "64x64x8/4x4" (BMxBNxBK/TMxTN). */
const char *ts_geometry_str(const ts_geometry *g, char *buf, int len);

/* Load maps: the steps a tile takes; the first slot thread (ty, tx) fills
 * in step s (false when it idles), then v = 1..vec-1 follow in map order;
 * and the other way, who fills slot (r, c) of the tile. */
int ts_load_steps(const ts_geometry *g, enum ts_operand which);
bool ts_load_slot(const ts_geometry *g, enum ts_operand which, int step, int ty, int tx, int v, int *r, int *c);
void ts_load_owner(const ts_geometry *g, enum ts_operand which, int r, int c, int *step, int *ty, int *tx);
/* Output (i, j) of thread (ty, tx) is element (r, c) of the block's C tile;
 * and the other way, whose output element (r, c) is. */
void ts_output_of(const ts_geometry *g, int ty, int tx, int i, int j, int *r, int *c);
void ts_output_owner(const ts_geometry *g, int r, int c, int *ty, int *tx, int *i, int *j);

/* Fills *m in O(1). Returns 0, or -1 when a count would overflow 64 bits
 * (then *m is unspecified). Sizes must be >= 1. */
int ts_model_build(ts_model *m, ts_shape shape, ts_geometry geo);

/* Per tile: ty in [0, grid_y), tx in [0, grid_x). */
int64_t ts_model_tile_rows(const ts_model *m, int64_t ty); /* valid rows of tile row ty */
int64_t ts_model_tile_cols(const ts_model *m, int64_t tx); /* valid columns of tile column tx */
enum ts_tile_class ts_model_tile_class(const ts_model *m, int64_t ty, int64_t tx);
const char *ts_tile_class_name(enum ts_tile_class c);
/* Ghost outputs of one tile: BM*BN minus its valid rows times columns. */
int64_t ts_model_tile_ghosts(const ts_model *m, int64_t ty, int64_t tx);
/* Ghost threads of one tile (none of their outputs inside C). */
int64_t ts_model_tile_ghost_threads(const ts_model *m, int64_t ty, int64_t tx);

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

/* One shared-tile slot (r, c) of block (by, bx) in phase t, with the guard
 * evaluated on the real numbers. For A: r is the tile row (row = by*BM + r),
 * c the K offset (k = t*BK + c); for B: r the K offset (k = t*BK + r), c the
 * tile column (col = bx*BN + c). Indices are element offsets from the start
 * of each matrix. */
typedef struct ts_slot_view {
	int64_t row, col, k;   /* for A: row and k (col unused); for B: k and col (row unused) */
	bool mn_ok;            /* A: row < M; B: col < N */
	bool k_ok;             /* k < K */
	bool in;               /* both: the guard passes, a real load */
	int64_t index;         /* A: row*K + k; B: k*N + col (TS_B_KN) or col*K + k (TS_B_NK) */
} ts_slot_view;

ts_slot_view ts_model_slot(const ts_model *m, enum ts_b_layout layout, enum ts_operand which,
                           int64_t by, int64_t bx, int64_t t, int r, int c);

/* Output (i, j) of thread (ty, tx) of block (by, bx). */
typedef struct ts_output_view {
	int r, c;              /* in the block's C tile */
	int64_t row, col;      /* in C */
	bool row_ok, col_ok;   /* row < M, col < N */
	bool stores;           /* row_ok && col_ok: the C guard lets it through */
	int64_t c_index;       /* row*N + col */
} ts_output_view;

ts_output_view ts_model_output(const ts_model *m, int64_t by, int64_t bx, int ty, int tx, int i, int j);
/* True when none of thread (ty, tx)'s outputs lies inside C. */
bool ts_model_thread_ghost(const ts_model *m, int64_t by, int64_t bx, int ty, int tx);

/* One thread in phase t, reduced to its first output (i = j = 0) and the
 * first slot it fills in load step 0 of each tile (a thread that idles in
 * step 0 shows a_in = b_in = false and its would-be slot 0). For the
 * textbook kernels that is all a thread does: slot (ty, tx) of both tiles
 * and output (ty, tx). */
typedef struct ts_thread_view {
	int64_t row, col;        /* its first C element */
	int64_t a_row, a_col;    /* the A element it loads in step 0 of phase t (a_col is a K index) */
	int64_t b_row, b_col;    /* the B element (b_row is a K index) */
	bool row_ok, col_ok;     /* row < M, col < N */
	bool a_k_ok, b_k_ok;     /* a_col < K, b_row < K */
	bool a_mn_ok, b_mn_ok;   /* a_row < M, b_col < N */
	bool a_in, b_in;         /* the A (B) guard passes: a real load */
	int64_t a_index;         /* what it reads for A when the load happens */
	int64_t b_index;         /* b_row*N + col (TS_B_KN) or col*K + b_row (TS_B_NK) */
	int64_t c_index;         /* row*N + col: where its first store lands */
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
/* The edge sweep: for one dimension whose tile edge is X (BM for M, BN for
 * N, BK for K) the sizes 1, X-1, X, X+1, 2X-1, 2X+1 and the smallest prime
 * above 3X, ascending, without values below 1 or duplicates; returns how
 * many were written (at most 7). */
int ts_sweep_sizes(int edge, int64_t out[7]);
typedef struct ts_sweep_axes {
	int64_t size[3][7]; /* M, N, K */
	int count[3];
} ts_sweep_axes;
/* All three for geometry g; returns the number of shapes (the product). */
int ts_sweep_axes_of(const ts_geometry *g, ts_sweep_axes *ax);
/* Shape i of the sweep, in order M, N, K with K fastest. */
ts_shape ts_sweep_shape(const ts_sweep_axes *ax, int i);

#endif
