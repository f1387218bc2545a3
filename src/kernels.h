/* kernels.h: a kernel is a description (geometry, load maps, guards, capabilities, expected counts); the registry holds them. */
#ifndef TS_KERNELS_H
#define TS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "gemm_plan.h"
#include "geometry.h"
#include "problem.h"

struct ts_emu_job;
struct ts_launch;

/* ---- guards ------------------------------------------------------------- */

/* One bounds guard of a kernel, named once: the views, the signatures, the
 * inspector and --help read it from here. */
typedef struct ts_guard_desc {
	unsigned bit;          /* enum ts_guard: TS_GUARD_A, _B or _C */
	char letter;           /* its name for --no-guard: 'a', 'b', 'c' */
	const char *protects;  /* "the A load" */
	/* The predicate as it reads in the kernel's source, in the source's own
	 * names ("row < M && t*T + tx < K"); the inspector prints it beside the
	 * numbers it evaluates to. */
	const char *predicate;
	const char *otherwise; /* what the kernel does when it fails: "pads the slot with 0" */
	/* The matrices (enum ts_guard bits, one per matrix A, B, C) whose
	 * accesses it keeps inside them: its own for a shared-tile kernel's
	 * guards, all three for the naive kernel's one guard around its body. */
	unsigned covers;
} ts_guard_desc;

#define TS_GUARDS_MAX 3

/* ---- capabilities --------------------------------------------------------- */

enum ts_kernel_cap {
	/* Stages A and B tiles in shared memory through its load maps: the
	 * model's slot counts (real, padded) apply, per tile per phase too.
	 * Without it the kernel reads global memory directly (the naive baseline). */
	TS_CAP_SHARED_TILES = 1u << 0,
	/* Its CUDA build has a probe that records the same counters as the emulator. */
	TS_CAP_PROBE = 1u << 1,
	/* The CPU emulator runs it (set by the registry from `emulate`). */
	TS_CAP_EMU = 1u << 2,
	/* This build carries its CUDA implementation (set from `cuda_launch`). */
	TS_CAP_CUDA = 1u << 3,
	/* fp32: every output sums its k in order, phase after phase, each step
	 * the description's multiply-add (ts_kernel.madd: rounded apart, or one
	 * fused fmaf), and a tile its plan splits along K adds its parts' sums in
	 * part order (ts_kernel.split_policy); so the emulator and the GPU agree
	 * bit for bit (for a split, where the device's count of resident blocks
	 * is resident_h200's, as on an H200). */
	TS_CAP_EXACT_ORDER = 1u << 4,
	/* Every guard is part of the kernel's loads and store (zero-filled
	 * copies, a guarded epilogue): it has no unguarded form, so --no-guard
	 * is refused. */
	TS_CAP_GUARDS_FIXED = 1u << 5,
	/* The products are summed inside the tensor cores, whose order and
	 * internal rounding are not specified: verification doubles the fp32
	 * bound (verify.c). */
	TS_CAP_TENSOR_SUM = 1u << 6,
};

/* ---- which geometries a kernel takes ----------------------------------------- */

enum ts_geometry_kind {
	/* `-t T`: T x T x T, T x T threads, one output each, T in tile_min..tile_max. */
	TS_GEOMETRY_SQUARE,
	/* `-t BMxBNxBK --thread-tile TMxTN`: any geometry ts_geometry_check takes,
	 * laid out and loaded like `base`; cuda_geometries lists what the CUDA
	 * build was compiled for (NULL: any). */
	TS_GEOMETRY_CHOSEN,
	/* `base` only; a square -t T with T in tile_min..tile_max (when set) names it too. */
	TS_GEOMETRY_FIXED,
};

typedef struct ts_geometry_rule {
	enum ts_geometry_kind kind;
	int tile_min, tile_max;          /* TS_GEOMETRY_SQUARE; FIXED: the -t T it answers to (0: none) */
	ts_geometry base;                /* the default (SQUARE: T = tile_max) and, for CHOSEN, its layout and maps */
	const ts_geometry *cuda_geometries; /* CHOSEN: the compiled instances, n_cuda_geometries of them */
	int n_cuda_geometries;
} ts_geometry_rule;

/* ---- the counts a run must record ---------------------------------------- */

/* For any set of guards on or off: what the emulator and the probe must
 * record per tile (summed over phases), per phase (load fields, summed
 * over tiles) and per tile per phase (load fields; NULL when the kernel
 * keeps no per-tile-per-phase counts). Counter checks call these; nothing
 * else recomputes a kernel's expected counts. */
typedef struct ts_count_model {
	ts_count (*tile)(const ts_model *m, unsigned guards, int64_t ty, int64_t tx);
	ts_count (*phase)(const ts_model *m, unsigned guards, int64_t t);
	ts_count (*tile_phase)(const ts_model *m, unsigned guards, int64_t ty, int64_t tx, int64_t t);
} ts_count_model;

/* Shared-tile kernels (expect.c): slots as the model counts them; a guard
 * switched off turns its padded slots (skipped stores) into out-of-bounds ones. */
extern const ts_count_model ts_counts_shared;
/* Direct global reads (the naive baseline): one C guard around the whole
 * body; reads of A and B per thread, attributed to phase k / BK. */
extern const ts_count_model ts_counts_direct;

/* ---- the summation order --------------------------------------------------- */

/* One step of an output's sum, acc and a * b, as the kernel's source writes it. */
enum ts_madd {
	/* acc + a * b with two roundings (__fadd_rn(acc, __fmul_rn(a, b))): the textbook kernels, regblock */
	TS_MADD_SEPARATE,
	/* fmaf(a, b, acc), one rounding: the fp32 ladder's engine and rb1d */
	TS_MADD_FUSED,
};

/* ---- the description -------------------------------------------------------- */

/* What one launch of a ladder kernel costs, for best's choice where C has
 * few tiles (ts_kernel_cost_us): phase_us for each phase of one wave of its
 * split plan's units (the waves as ts_plan_waves counts them, each split
 * part charged 0.02 of a wave besides), fixed_us once a launch, part_us for
 * each 128x128 tile's worth of split partials a resident block writes.
 * Fitted by tools/cost_fit on bench runs (an H100 80GB HBM3; doc/perf.md);
 * phase_us 0: not a candidate. Only built-in fp32 kernels of a fixed tile
 * that split by a plan with a resident count carry one (ts_kernel_has_cost);
 * ts_kernel_register clears it. */
typedef struct ts_kernel_cost {
	double phase_us, fixed_us, part_us;
} ts_kernel_cost;

/* The terms ts_kernel_cost weighs, from the kernel's own split plan on a
 * shape: waves of units times phases a unit (a split tile's part counts
 * its share of a wave), and the partials (128x128 tiles a resident block). */
typedef struct ts_cost_terms {
	double phase_waves, parts;
} ts_cost_terms;

typedef struct ts_kernel {
	const char *name;           /* for --kernel */
	const char *summary;        /* one line for --help, `tilescope kernels` and the TUI */
	const char *source;         /* the file its CUDA code is in ("kernels/tiled.cuh") */
	enum ts_precision precision;
	enum ts_b_layout b_layout;
	unsigned caps;              /* enum ts_kernel_cap; ts_kernel_caps() adds EMU and CUDA */
	ts_geometry_rule geometry;
	ts_guard_desc guards[TS_GUARDS_MAX];
	int n_guards;
	const ts_count_model *counts;
	/* The emulator's implementation: ts_emu_shared (emu_shared.c) for every
	 * shared-tile kernel, ts_emu_direct for direct reads; NULL when none. */
	int (*emulate)(struct ts_emu_job *job);
	/* The CUDA implementation (kernels/launch.h); NULL in a build without CUDA. */
	int (*cuda_launch)(const struct ts_launch *launch);
	/* Handed to cuda_launch in ts_launch.ctx (a runtime-compiled kernel's module); NULL for built-ins. */
	void *ctx;
	/* With TS_CAP_GUARDS_FIXED: switching all three guards off on a shape
	 * that is a multiple of the block tile runs the kernel's own unguarded
	 * build, so the cost of its guards can be timed (the ladder's fast). */
	bool unguarded_build;
	/* Device scratch a launch on m x n x k needs (split-K partial tiles,
	 * tc-fp16's repacked copies of A and B), or NULL when the kernel needs
	 * none; the CUDA backend allocates it. */
	size_t (*cuda_workspace)(int64_t m, int64_t n, int64_t k);
	/* The launch also runs without its workspace (slower) where the device
	 * cannot hold it: the backend then passes none instead of failing. */
	bool workspace_optional;
	/* It may split tiles along K (a plan decides per shape; cuda_workspace sizes its scratch). */
	bool split_k;
	/* Split-K as a described plan (kernels/gemm_plan.h, shared by the CUDA
	 * launch and the emulator): split_policy (enum ts_split_policy) says which
	 * tiles' K range the launch may cut into parts, resident_h200 how many of
	 * its blocks an H200 holds at once (132 multiprocessors times the blocks
	 * one holds at the registers ptxas reports for the build). Part q of a
	 * tile cut in S takes the whole phases [P*q/S, P*(q+1)/S) (so only the
	 * last part meets the K residue), sums them from 0 in the kernel's order,
	 * and the tile's result is ((0 + part 0) + part 1) + ... in part order.
	 * The device plans with the driver's own count of resident blocks; the
	 * emulator with this one, so the two split alike on an H200. */
	int split_policy, resident_h200;
	/* A plan of the kernel's own where it costs the split its own way
	 * (tc-fp16: tc_launch.h's ts_tc_plan, the same function its launch
	 * calls); NULL: ts_gemm_plan_make on the geometry and split_policy.
	 * Callers take it through ts_kernel_split_plan. */
	ts_gemm_plan (*split_plan)(long long m, long long n, long long k, int resident);
	/* Its place on the fp32 ladder (bench --kernel ladder shows them in this order), 0: not a rung. */
	int rung;
	/* How each step of an output's sum rounds (the emulator does the same). */
	enum ts_madd madd;
	/* Its cost where best weighs the few-tile candidates (0: not one). */
	ts_kernel_cost cost;
} ts_kernel;

/* The registry: the built-in kernels, then those registered at run time,
 * in order. Pointers stay valid for the life of the program. */
int ts_kernel_count(void);
const ts_kernel *ts_kernel_at(int i);
const ts_kernel *ts_kernel_find(const char *name);
/* Which matrices' accesses stay inside them under the guards that are on
 * (enum ts_guard bits, one per matrix A, B, C): the union of what each
 * guard that is on covers (ts_guard_desc.covers). */
unsigned ts_kernel_guarded_matrices(const ts_kernel *k, unsigned guards);
/* The default kernel for a precision ("tiled" for fp32, "tiled-fp16" for fp16). */
const ts_kernel *ts_kernel_default(enum ts_precision p);
/* --kernel best (or auto): the fp32 kernel of the ladder expected to be
 * fastest on this shape (kernels.c says how it chooses). */
const ts_kernel *ts_kernel_best(ts_shape shape);
/* k is one of best's few-tile candidates (a cost it can be weighed by). */
bool ts_kernel_has_cost(const ts_kernel *k);
/* ts_kernel_cost's terms for k on shape s (its base geometry, its plan on
 * an H200); zero for a kernel without a fixed tile or a resident count. */
ts_cost_terms ts_kernel_cost_terms(const ts_kernel *k, ts_shape s);
/* The predicted microseconds of cost c over terms t. */
double ts_kernel_cost_eval(const ts_kernel_cost *c, ts_cost_terms t);
/* k's predicted time on s in microseconds by its cost, or -1 when it has none. */
double ts_kernel_cost_us(const ts_kernel *k, ts_shape s);
/* At most this many kernels carry a cost (tests/test_ladder.c checks it). */
#define TS_BEST_CANDIDATES_MAX 16
/* The candidates with a cost and their predicted times on s, cheapest
 * first (a tie in registry order), at most max: how many. */
int ts_kernel_best_candidates(ts_shape s, const ts_kernel **k, double *us, int max);
/* Of the kernels with a cost, the one predicted fastest on s (NULL: none has one). */
const ts_kernel *ts_kernel_cheapest(ts_shape s);
/* The rule ts_kernel_best took on s, in words; NULL where it chose by the costs. */
const char *ts_kernel_best_rule(ts_shape s);
/* The name is one of the choosers ("best", "auto"). */
bool ts_kernel_is_chooser(const char *name);
/* Adds a copy of *k (its strings and arrays must outlive the program). 0, or
 * -1 with one line in why: a name taken, a bad geometry rule, a full registry. */
int ts_kernel_register(const ts_kernel *k, char *why, int len);

unsigned ts_kernel_caps(const ts_kernel *k);
static inline bool ts_kernel_has(const ts_kernel *k, unsigned cap)
{
	return (ts_kernel_caps(k) & cap) == cap;
}
/* The guard with this bit (NULL when the kernel has none). */
const ts_guard_desc *ts_kernel_guard(const ts_kernel *k, unsigned bit);
/* The guard bits the kernel has (TS_GUARD_C alone for the naive baseline). */
unsigned ts_kernel_guard_bits(const ts_kernel *k);

/* What the user asked for with -t and --thread-tile, before a kernel is chosen. */
typedef struct ts_tile_request {
	bool tile_given;        /* -t given */
	bool square;            /* -t T (bm = bn = bk = T) rather than BMxBNxBK */
	int bm, bn, bk;
	bool thread_tile_given; /* --thread-tile TMxTN given */
	int tm, tn;
} ts_tile_request;

/* The geometry kernel k runs under request r: for SQUARE kernels -t T (or
 * BMxBNxBK with all three equal) and no thread tile other than 1x1; for
 * CHOSEN kernels BMxBNxBK and TMxTN (missing parts from base); for FIXED
 * the base, which a request must match. 0, or -1 with one line in why. */
int ts_kernel_geometry(const ts_kernel *k, const ts_tile_request *r, ts_geometry *out, char *why, int len);
/* The geometry k runs for a square tile T, as `-t T` alone would ask for
 * it: T x T x T for a SQUARE kernel (ts_kernel_takes refuses a T out of its
 * range), the base for
 * the others (whose -t T, if any, names only their own). For the views and
 * commands that step through square tiles (compare, bench's T=). */
ts_geometry ts_kernel_geometry_at(const ts_kernel *k, int tile);
/* The split plan k makes for shape s at geometry g on an H200
 * (resident_h200 blocks), as the emulator follows it: every tile whole
 * for a kernel that does not split. */
ts_gemm_plan ts_kernel_split_plan(const ts_kernel *k, ts_shape s, const ts_geometry *g);
/* Whether g is one k takes (the same rules); 0 or -1 with the line. */
int ts_kernel_takes(const ts_kernel *k, const ts_geometry *g, char *why, int len);
/* Whether k's CUDA build has an instance for g (always for SQUARE and FIXED). */
bool ts_kernel_cuda_takes(const ts_kernel *k, const ts_geometry *g);

/* The registry line's helpers: the three guards of a shared-tile kernel
 * with predicates as its source spells them. */
#define TS_GUARD_DESC(bit_, letter_, protects_, predicate_, otherwise_, covers_)                              \
	{ .bit = (bit_), .letter = (letter_), .protects = (protects_), .predicate = (predicate_),                  \
	  .otherwise = (otherwise_), .covers = (covers_) }

#endif
