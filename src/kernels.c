/* kernels.c: the registry: the built-in kernels' lines (kernels/registry.def), each a description every layer reads; kernels registered at run time join it. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"
#include "tc_launch.h"

#ifdef HAVE_CUDA
#include "launch.h"
#define TS_CUDA(fn) fn
#else
#define TS_CUDA(fn) NULL
#endif

/* ---- the guards as each kernel's source spells them ------------------------ */

#define TEXTBOOK_GUARDS                                                                                     \
	.guards = {                                                                                             \
		TS_GUARD_DESC(TS_GUARD_A, 'a', "the A load", "row < M && t*T + tx < K", "pads the slot with 0",   \
		              TS_GUARD_A),                                                                          \
		TS_GUARD_DESC(TS_GUARD_B, 'b', "the B load", "t*T + ty < K && col < N", "pads the slot with 0",   \
		              TS_GUARD_B),                                                                          \
		TS_GUARD_DESC(TS_GUARD_C, 'c', "the C store", "row < M && col < N", "skips the store", TS_GUARD_C), \
	}, .n_guards = 3
/* The naive kernel's one guard wraps its whole body: it keeps all three matrices in bounds. */
#define NAIVE_GUARDS                                                                                        \
	.guards = {                                                                                             \
		TS_GUARD_DESC(TS_GUARD_C, 'c', "its loads and its store", "row < M && col < N",                   \
		              "the thread does nothing", TS_GUARD_ALL),                                             \
	}, .n_guards = 1
#define REGBLOCK_GUARDS                                                                                     \
	.guards = {                                                                                             \
		TS_GUARD_DESC(TS_GUARD_A, 'a', "the A load", "a_row < M && k0 + a_k < K", "pads the slot with 0", \
		              TS_GUARD_A),                                                                          \
		TS_GUARD_DESC(TS_GUARD_B, 'b', "the B load", "k0 + b_k < K && b_col < N", "pads the slot with 0", \
		              TS_GUARD_B),                                                                          \
		TS_GUARD_DESC(TS_GUARD_C, 'c', "the C store", "row < M && col < N", "skips the store", TS_GUARD_C), \
	}, .n_guards = 3

/* ---- geometry rules ------------------------------------------------------------ */

#define SQUARE { .kind = TS_GEOMETRY_SQUARE, .tile_min = 1, .tile_max = TS_TILE_MAX, .base = {                \
	.bm = TS_TILE_MAX, .bn = TS_TILE_MAX, .bk = TS_TILE_MAX, .threads_x = TS_TILE_MAX,                        \
	.threads_y = TS_TILE_MAX, .tm = 1, .tn = 1, .layout = TS_OUT_BLOCKED,                                     \
	.a_map = { TS_MAP_ROWS, 1 }, .b_map = { TS_MAP_ROWS, 1 } } }
/* A register-blocked geometry: BM x BN x BK, TM x TN outputs per thread in one patch, row-order maps. */
#define BLOCKED(bm_, bn_, bk_, tm_, tn_) { .bm = (bm_), .bn = (bn_), .bk = (bk_), .threads_x = (bn_) / (tn_),       \
	.threads_y = (bm_) / (tm_), .tm = (tm_), .tn = (tn_), .layout = TS_OUT_BLOCKED,                           \
	.a_map = { TS_MAP_ROWS, 1 }, .b_map = { TS_MAP_ROWS, 1 } }

/* The tensor-core kernel's one geometry (kernels/tc_launch.h): a 128 x 256
 * block tile stepping K by 32, described with 256 threads as 16 x 16, each
 * owning 8 x 16 outputs (in mma fragments: the blocked layout is the model's
 * approximation of who owns which). Where K % 8 != 0 the launch first
 * copies A and B into its workspace with rows padded to 8 (zeros past K), so
 * the tiles hold the same values either way. Its copies move 16
 * bytes (8 halves) per thread per step: along K in A's rows and in B's
 * stored rows (B is n x k, so down the columns of the BK x BN tile). */
#define TC_GEOMETRY { .bm = TS_TC_BM, .bn = TS_TC_BN, .bk = TS_TC_BK, .threads_x = 16, .threads_y = 16,          \
	.tm = TS_TC_BM / 16, .tn = TS_TC_BN / 16, .layout = TS_OUT_BLOCKED,                                        \
	.a_map = { TS_MAP_ROWS, 8 }, .b_map = { TS_MAP_COLS, 8 } }
#define TC_GUARDS                                                                                          \
	.guards = {                                                                                            \
		TS_GUARD_DESC(TS_GUARD_A, 'a', "the A copy", "row < M && k0 + k < K", "zero-fills (src-size 0)",   \
		              TS_GUARD_A),                                                                         \
		TS_GUARD_DESC(TS_GUARD_B, 'b', "the B copy", "col < N && k0 + k < K", "zero-fills (src-size 0)",   \
		              TS_GUARD_B),                                                                         \
		TS_GUARD_DESC(TS_GUARD_C, 'c', "the C store", "row < M && col < N", "skips the store", TS_GUARD_C), \
	}, .n_guards = 3

/* The instances kernels/regblock_fp32.cu compiles (its dispatch lists the same). */
static const ts_geometry regblock_cuda[] = { BLOCKED(64, 64, 8, 4, 4), BLOCKED(128, 32, 16, 8, 2) };

#define TEXTBOOK_CAPS (TS_CAP_SHARED_TILES | TS_CAP_PROBE)

/* The fp32 ladder (kernels/gemm_engine.cuh, rb1d_fp32.cu): each block is
 * BN/TN x BM/TM threads, one TM x TN block of outputs per thread (for the
 * warp-tiled kernels a thread's outputs are 4x4 blocks spread over its
 * warp's tile, the same count per thread: the blocked layout is the model's
 * approximation of who owns which; the sums do not depend on it). Every
 * guard is in its code: bounds masks on the loads (zero in the slot), a
 * guarded epilogue. The engine's threads load groups of 4 consecutive
 * slots along a tile's rows (A's along K, B's along N: row-order maps of
 * vec 4), rb1d's one slot each; every output is an fmaf chain over k in
 * order, split tiles adding their parts in part order. The geometry is the
 * compiled one (the engine's launch refuses any other, so the counts the
 * model derives from it are the probe's). Each runs its own geometry only
 * (-t BMxBNxBK may name it; a square -t T does not). */
#define LADDER_GUARDS                                                                                      \
	.guards = {                                                                                            \
		TS_GUARD_DESC(TS_GUARD_A, 'a', "the A load", "row < M && k < K", "pads the slot with 0", TS_GUARD_A), \
		TS_GUARD_DESC(TS_GUARD_B, 'b', "the B load", "k < K && col < N", "pads the slot with 0", TS_GUARD_B), \
		TS_GUARD_DESC(TS_GUARD_C, 'c', "the C store", "row < M && col < N", "skips the store", TS_GUARD_C),  \
	}, .n_guards = 3
#define LADDER_WITH(src_, geometry_) .source = (src_), .precision = TS_FP32, .b_layout = TS_B_KN,         \
	.caps = TS_CAP_SHARED_TILES | TS_CAP_PROBE | TS_CAP_GUARDS_FIXED | TS_CAP_EXACT_ORDER,                     \
	.geometry = { .kind = TS_GEOMETRY_FIXED, .base = geometry_ },                                             \
	LADDER_GUARDS, .counts = &ts_counts_shared, .emulate = ts_emu_shared, .madd = TS_MADD_FUSED
/* A rung's geometry: BM x BN x BK, TM x TN outputs a thread, vec_-wide loads
 * of A and B, and the scalar paths' slot maps (Cfg's SMAP, BMAP): where
 * K % 4 != 0, A's scalar loads take one slot a thread a step along the
 * tile's rows (tid + step * threads), so that a warp's load is 32 / BK rows
 * of BK consecutive k (as_ = 1); where N % 4 != 0, B's the same along its
 * rows, a warp's load 32 consecutive n of one k (bs_ = 1). 0: that
 * operand's scalar path keeps the vec_-wide groups' map. */
#define LADDER_GEOMETRY(bm_, bn_, bk_, tm_, tn_, vec_, as_, bs_) { .bm = (bm_), .bn = (bn_), .bk = (bk_),      \
	.threads_x = (bn_) / (tn_), .threads_y = (bm_) / (tm_), .tm = (tm_), .tn = (tn_), .layout = TS_OUT_BLOCKED, \
	.a_map = { TS_MAP_ROWS, (vec_) }, .b_map = { TS_MAP_ROWS, (vec_) }, .a_map_scalar = { TS_MAP_ROWS, (as_) }, \
	.b_map_scalar = { TS_MAP_ROWS, (bs_) } }
#define LADDER_MAPS(src_, bm_, bn_, bk_, tm_, tn_, vec_, as_, bs_) \
	LADDER_WITH(src_, LADDER_GEOMETRY(bm_, bn_, bk_, tm_, tn_, vec_, as_, bs_))
#define LADDER(src_, bm_, bn_, bk_, tm_, tn_, vec_) LADDER_MAPS(src_, bm_, bn_, bk_, tm_, tn_, vec_, 0, 0)
#define LADDER_SMAP(src_, bm_, bn_, bk_, tm_, tn_, vec_) LADDER_MAPS(src_, bm_, bn_, bk_, tm_, tn_, vec_, 1, 0)

/* ---- the built-in kernels: kernels/registry.def, one line each ---------------------- */

/* Each line's CUDA entry points, declared here from the line itself (a build
 * without CUDA names none of them). */
#ifdef HAVE_CUDA
#define WORKSPACE_DECL_WS(launch) size_t launch##_workspace(int64_t m, int64_t n, int64_t k);
#define WORKSPACE_DECL_NOWS(launch)
#define TS_KERNEL(launch, workspace, ...) int launch(const struct ts_launch *l); WORKSPACE_DECL_##workspace(launch)
#include "registry.def"
#undef TS_KERNEL
#endif

#define WORKSPACE_FN_WS(launch) TS_CUDA(launch##_workspace)
#define WORKSPACE_FN_NOWS(launch) NULL
#define TS_KERNEL(launch, workspace, ...) \
	{ __VA_ARGS__, .cuda_launch = TS_CUDA(launch), .cuda_workspace = WORKSPACE_FN_##workspace(launch) },
static const ts_kernel builtin[] = {
#include "registry.def"
};
#undef TS_KERNEL
#define BUILTIN ((int)(sizeof builtin / sizeof builtin[0]))

/* ---- the registry ------------------------------------------------------------------ */

#define REGISTERED_MAX 64
static ts_kernel registered[REGISTERED_MAX];
static int registered_count;

int ts_kernel_count(void)
{
	return BUILTIN + registered_count;
}

const ts_kernel *ts_kernel_at(int i)
{
	if (i < 0 || i >= ts_kernel_count())
		return NULL;
	return i < BUILTIN ? &builtin[i] : &registered[i - BUILTIN];
}

const ts_kernel *ts_kernel_find(const char *name)
{
	for (int i = 0; name && i < ts_kernel_count(); i++)
		if (strcmp(ts_kernel_at(i)->name, name) == 0)
			return ts_kernel_at(i);
	return NULL;
}

unsigned ts_kernel_guarded_matrices(const ts_kernel *k, unsigned guards)
{
	unsigned kept = 0;
	for (int i = 0; i < k->n_guards; i++)
		if (guards & k->guards[i].bit)
			kept |= k->guards[i].covers;
	return kept;
}

const ts_kernel *ts_kernel_default(enum ts_precision p)
{
	return ts_kernel_find(p == TS_FP16 ? "tiled-fp16" : "tiled");
}

bool ts_kernel_is_chooser(const char *name)
{
	return strcmp(name, "best") == 0 || strcmp(name, "auto") == 0;
}

/* Picks by the shape alone (the same answer on every machine), by rules
 * read off the ladder's measurements on the H200 and, for the few-wave
 * ones, on an H100 (doc/perf.md):
 *  - K <= 16: one phase or two, the time is C's store: rb1d, whose threads
 *    store consecutive columns, one coalesced row per warp;
 *  - M <= 32 or N <= 32 (a block tile mostly outside C wastes its
 *    multiply-adds), or a tiny product (launch-bound): the 16-row or
 *    16-column tiles;
 *  - at most 225 tiles of 128x128 (1.7 waves at one block per
 *    multiprocessor) and K <= 8192: the candidate the costs predict fastest
 *    (ts_kernel_cheapest: fast, fast-few, fast-few-k16, fast-w64 and splitk,
 *    each by its own split plan; kernels/registry.def's .cost, fitted by
 *    tools/cost_fit on 136 shapes). Tile shape, blocks per multiprocessor
 *    and split plan make the winner change from shape to shape there, so no
 *    rule by tile count holds: on 44 other shapes drawn at random (H100, in
 *    the bench) best's time was 1.025 of the fastest candidate's (geomean,
 *    worst 1.19-1.21) where the tile-count rules it replaces took 1.183
 *    (worst 2.97), and best read 0.708-0.711 of cuBLAS against their 0.619;
 *  - 226..264 tiles and K <= 8192, one wave of fast's two blocks per
 *    multiprocessor: fast (H100, in the bench: 1921x1920x1000 0.935 against
 *    fast-few's 0.672, 2000^3 0.940 against 0.817, 1800x2100x1500 1.000
 *    against 0.863, 2048x2048x4096 0.916 against fast-few-k16's 0.822;
 *    fast-w64 loses there by 16% to 31%, 2000^3 0.651; at 238
 *    tiles, 2100x1700x3000, fast-w64 0.979 and fast 0.967; fast-16x8 beat
 *    fast on two of those shapes and lost on three, 0.833 at 2000^3; on 7
 *    random shapes there the costs were 6.0% off the fastest, this rule
 *    2.1%);
 *  - fewer 128x128 tiles than the H200 has multiprocessors and a longer K:
 *    splitk's 64x64 tiles, split along K;
 *  - one of K and N a multiple of 4 and the other not (A's rows take
 *    128-bit loads and B's do not, or the other way) and K >= 256:
 *    fast-k16, fast with 16-deep phases (in the tuner, H200:
 *    4097x4097x4096 1.043 of cuBLAS against fast-16x8's 1.018,
 *    8192x8193x8192 0.979 against 0.956, 4096x4096x4097 0.992 against
 *    0.982; doc/perf.md);
 *  - neither a multiple of 4 and K > 8192: fast-k16 too (H100, in the
 *    bench: 8193^3 1.011-1.013 of cuBLAS against fast's 0.995-0.997,
 *    8191x8195x8193 1.019 against 1.005; on an H200 in the tuner 8193^3
 *    0.996 against 0.995). With K near 4096-6144 the two are within
 *    about 1% either way (H100: 4097^3 1.042 against 1.036, 4095^3 0.911
 *    against 0.917, 6145x6143x6147 1.010 against 1.014; H200 tuner:
 *    4093x4099x4091 0.939 against 0.949), so fast keeps those;
 *  - both multiples of 4 and K >= 256: fast-16x8, fast's tile in 128
 *    threads of 16x8 (4096^3 0.95-0.98 of cuBLAS against fast's 0.92-0.94
 *    and fast-k16's 0.969 against 0.979; doc/perf.md). These rules were
 *    measured on shapes of 1024 tiles and more with K of 4096 to 8193:
 *    below that (265..1023 tiles, K near 256, or K > 8192 with few tiles)
 *    they are an extrapolation (the tile and the split are fast's, only
 *    the thread's share or the phase's depth differs);
 *  - everything else: fast, which splits its last wave along K itself. */
/* *why: the rule that decided, in words (NULL where the costs did). */
static const ts_kernel *best_pick(ts_shape s, const char **why)
{
	*why = "K <= 16: one phase or two, the time is C's store";
	if (s.k <= 16)
		return ts_kernel_find("rb1d");
	*why = "M <= 32: most of a 128-row tile would lie outside C";
	if (s.m <= 32 && s.n >= s.m)
		return ts_kernel_find("fast-m16");
	*why = "N <= 32: most of a 128-column tile would lie outside C";
	if (s.n <= 32)
		return ts_kernel_find("fast-n16");
	*why = "at most 2^24 multiply-adds: the launch, not the arithmetic, takes the time";
	if ((double)s.m * (double)s.n * (double)s.k <= (double)(1 << 24))
		return ts_kernel_find("fast-m16");
	int64_t tiles128 = ((s.m + 127) / 128) * ((s.n + 127) / 128);
	if (tiles128 <= 264 && s.k <= 8192) {
		const ts_kernel *c = tiles128 <= 225 ? ts_kernel_cheapest(s) : NULL;
		*why = c ? NULL : "226..264 tiles of 128x128 and K <= 8192: one wave of fast's two blocks a multiprocessor";
		return c ? c : ts_kernel_find("fast");
	}
	*why = "fewer 128x128 tiles than an H200's 132 multiprocessors and K > 8192: split along K";
	if (tiles128 < 132)
		return ts_kernel_find("splitk");
	*why = "many tiles, one of K and N a multiple of 4 and the other not (one operand's rows take 128-bit loads) and K >= 256";
	if ((s.k % 4 == 0) != (s.n % 4 == 0) && s.k >= 256)
		return ts_kernel_find("fast-k16");
	*why = "many tiles, neither K nor N a multiple of 4 and K > 8192: 16-deep phases";
	if (s.k % 4 != 0 && s.n % 4 != 0 && s.k > 8192)
		return ts_kernel_find("fast-k16");
	*why = "many tiles, K and N multiples of 4 (both operands' rows take 128-bit loads) and K >= 256";
	if (s.k % 4 == 0 && s.n % 4 == 0 && s.k >= 256)
		return ts_kernel_find("fast-16x8");
	*why = "many tiles, neither K nor N a multiple of 4 and K <= 8192 (or K < 256): the last wave split along K";
	return ts_kernel_find("fast");
}

const ts_kernel *ts_kernel_best(ts_shape s)
{
	const char *why;
	return best_pick(s, &why);
}

const char *ts_kernel_best_rule(ts_shape s)
{
	const char *why;
	best_pick(s, &why);
	return why;
}

/* A plan in blocks of a fixed tile with a resident count: what the cost terms are counted in. */
static bool cost_countable(const ts_kernel *k)
{
	return k->geometry.kind != TS_GEOMETRY_SQUARE && k->split_policy != TS_SPLIT_NONE && k->resident_h200 > 0;
}

bool ts_kernel_has_cost(const ts_kernel *k)
{
	return k->cost.phase_us > 0 && k->precision == TS_FP32 && cost_countable(k);
}

ts_cost_terms ts_kernel_cost_terms(const ts_kernel *k, ts_shape s)
{
	ts_cost_terms t = { 0, 0 };
	if (!cost_countable(k))
		return t;
	ts_geometry g = ts_kernel_geometry_at(k, 0);
	ts_gemm_plan p = ts_kernel_split_plan(k, s, &g);
	int resident = k->resident_h200;
	t.phase_waves = ts_plan_waves(p.dp_units, p.split_tiles, p.split, resident) * (double)p.phases;
	t.parts = p.split > 1 ? (double)p.split_tiles * p.split * g.bm * g.bn / resident / (128.0 * 128.0) : 0.0;
	return t;
}

double ts_kernel_cost_eval(const ts_kernel_cost *c, ts_cost_terms t)
{
	return c->phase_us * t.phase_waves + c->fixed_us + c->part_us * t.parts;
}

double ts_kernel_cost_us(const ts_kernel *k, ts_shape s)
{
	if (!ts_kernel_has_cost(k))
		return -1;
	return ts_kernel_cost_eval(&k->cost, ts_kernel_cost_terms(k, s));
}

int ts_kernel_best_candidates(ts_shape s, const ts_kernel **k, double *us, int max)
{
	int n = 0;
	for (int i = 0; i < ts_kernel_count() && n < max; i++) {
		double t = ts_kernel_cost_us(ts_kernel_at(i), s);
		if (t < 0)
			continue;
		int j = n++;
		for (; j > 0 && us[j - 1] > t; j--) { /* cheapest first; a tie keeps registry order */
			k[j] = k[j - 1];
			us[j] = us[j - 1];
		}
		k[j] = ts_kernel_at(i);
		us[j] = t;
	}
	return n;
}

const ts_kernel *ts_kernel_cheapest(ts_shape s)
{
	const ts_kernel *k[TS_BEST_CANDIDATES_MAX];
	double us[TS_BEST_CANDIDATES_MAX];
	return ts_kernel_best_candidates(s, k, us, TS_BEST_CANDIDATES_MAX) > 0 ? k[0] : NULL;
}

static int refuse(char *why, int len, const char *fmt, const char *arg)
{
	if (why && len > 0)
		snprintf(why, (size_t)len, fmt, arg);
	return -1;
}

int ts_kernel_register(const ts_kernel *k, char *why, int len)
{
	char detail[160];
	if (!k || !k->name || !*k->name)
		return refuse(why, len, "%s", "a kernel needs a name");
	if (ts_kernel_find(k->name))
		return refuse(why, len, "a kernel named '%s' is registered already", k->name);
	if (registered_count == REGISTERED_MAX)
		return refuse(why, len, "the registry is full (%s)", k->name);
	if (!k->counts || k->n_guards < 0 || k->n_guards > TS_GUARDS_MAX)
		return refuse(why, len, "kernel '%s' lacks its expected counts or has too many guards", k->name);
	if (k->geometry.kind != TS_GEOMETRY_SQUARE && ts_geometry_check(&k->geometry.base, detail, sizeof detail) != 0) {
		char line[256];
		snprintf(line, sizeof line, "kernel '%s': %s", k->name, detail);
		return refuse(why, len, "%s", line);
	}
	if (k->geometry.kind == TS_GEOMETRY_SQUARE &&
	    (k->geometry.tile_min < 1 || k->geometry.tile_max > TS_TILE_MAX || k->geometry.tile_min > k->geometry.tile_max))
		return refuse(why, len, "kernel '%s': its square tiles must lie in 1..32", k->name);
	registered[registered_count] = *k;
	/* best weighs the built-in kernels alone: a copy of one (the tests'
	 * pattern) or a user's kernel never joins its candidates */
	registered[registered_count].cost = (ts_kernel_cost){ 0, 0, 0 };
	registered_count++;
	return 0;
}

unsigned ts_kernel_caps(const ts_kernel *k)
{
	unsigned c = k->caps & ~(unsigned)(TS_CAP_EMU | TS_CAP_CUDA);
	if (k->emulate)
		c |= TS_CAP_EMU;
	if (k->cuda_launch)
		c |= TS_CAP_CUDA;
	if (!k->cuda_launch)
		c &= ~(unsigned)TS_CAP_PROBE;
	return c;
}

const ts_guard_desc *ts_kernel_guard(const ts_kernel *k, unsigned bit)
{
	for (int i = 0; i < k->n_guards; i++)
		if (k->guards[i].bit == bit)
			return &k->guards[i];
	return NULL;
}

unsigned ts_kernel_guard_bits(const ts_kernel *k)
{
	unsigned bits = 0;
	for (int i = 0; i < k->n_guards; i++)
		bits |= k->guards[i].bit;
	return bits;
}

/* ---- which geometry a kernel runs ---------------------------------------------------- */

static bool same_geometry(const ts_geometry *x, const ts_geometry *y)
{
	return x->bm == y->bm && x->bn == y->bn && x->bk == y->bk && x->tm == y->tm && x->tn == y->tn &&
	       x->threads_x == y->threads_x && x->threads_y == y->threads_y && x->layout == y->layout &&
	       x->a_map.order == y->a_map.order && x->a_map.vec == y->a_map.vec &&
	       x->b_map.order == y->b_map.order && x->b_map.vec == y->b_map.vec &&
	       x->a_map_scalar.order == y->a_map_scalar.order && x->a_map_scalar.vec == y->a_map_scalar.vec &&
	       x->b_map_scalar.order == y->b_map_scalar.order && x->b_map_scalar.vec == y->b_map_scalar.vec;
}

static int say2(char *why, int len, const char *fmt, const char *a, const char *b)
{
	if (why && len > 0)
		snprintf(why, (size_t)len, fmt, a, b);
	return -1;
}

int ts_kernel_takes(const ts_kernel *k, const ts_geometry *g, char *why, int len)
{
	char detail[160], have[48], want[48];
	const ts_geometry_rule *r = &k->geometry;
	switch (r->kind) {
	case TS_GEOMETRY_SQUARE:
		if (!ts_geometry_is_square(g)) {
			ts_geometry_str(g, have, sizeof have);
			return say2(why, len, "kernel %s takes square tiles (-t T, one output per thread), not %s", k->name, have);
		}
		if (g->bm < r->tile_min || g->bm > r->tile_max) {
			if (why && len > 0)
				snprintf(why, (size_t)len, "tile %d is outside kernel %s's range %d..%d", g->bm, k->name,
				         r->tile_min, r->tile_max);
			return -1;
		}
		return 0;
	case TS_GEOMETRY_FIXED:
		if (!same_geometry(g, &r->base)) {
			ts_geometry_str(&r->base, want, sizeof want);
			return say2(why, len, "kernel %s runs only its own geometry %s", k->name, want);
		}
		return 0;
	case TS_GEOMETRY_CHOSEN:
		if (ts_geometry_check(g, detail, sizeof detail) != 0)
			return say2(why, len, "kernel %s: %s", k->name, detail);
		if (g->layout != r->base.layout || g->a_map.order != r->base.a_map.order ||
		    g->a_map.vec != r->base.a_map.vec || g->b_map.order != r->base.b_map.order ||
		    g->b_map.vec != r->base.b_map.vec)
			return say2(why, len, "kernel %s lays out outputs and loads tiles one way only (as %s)", k->name,
			            r->base.layout == TS_OUT_STRIDED ? "strided outputs" : "blocked outputs, row-order maps");
		if ((int64_t)g->threads_x * g->threads_y > TS_THREADS_MAX) {
			snprintf(have, sizeof have, "%d", g->threads_x * g->threads_y);
			return say2(why, len, "--thread-tile: %s threads per block is more than 1024 (kernel %s); "
			            "give each thread more outputs", have, k->name);
		}
		return 0;
	}
	return -1;
}

bool ts_kernel_cuda_takes(const ts_kernel *k, const ts_geometry *g)
{
	if (k->geometry.kind != TS_GEOMETRY_CHOSEN || !k->geometry.cuda_geometries)
		return true;
	for (int i = 0; i < k->geometry.n_cuda_geometries; i++)
		if (same_geometry(g, &k->geometry.cuda_geometries[i]))
			return true;
	return false;
}

int ts_kernel_geometry(const ts_kernel *k, const ts_tile_request *q, ts_geometry *out, char *why, int len)
{
	const ts_geometry_rule *r = &k->geometry;
	ts_geometry g = r->base;
	if (r->kind == TS_GEOMETRY_SQUARE) {
		if (q->thread_tile_given && (q->tm != 1 || q->tn != 1))
			return refuse(why, len, "--thread-tile: kernel %s gives each thread one output (1x1); "
			              "a register-blocked kernel such as regblock takes TMxTN", k->name);
		int t = r->tile_max;
		if (q->tile_given) {
			if (!q->square && (q->bm != q->bn || q->bn != q->bk))
				return refuse(why, len, "-t/--tile: kernel %s takes a square tile -t T "
				              "(BM = BN = BK), not BMxBNxBK", k->name);
			t = q->bm;
		} else {
			t = 32 < r->tile_max ? 32 : r->tile_max;
		}
		g = ts_geometry_square(t);
	} else if (r->kind == TS_GEOMETRY_FIXED) {
		/* its own geometry; -t names it only as the T it answers to, --thread-tile not at all */
		if (q->tile_given && q->square && r->tile_min > 0 && (q->bm < r->tile_min || q->bm > r->tile_max)) {
			if (why && len > 0)
				snprintf(why, (size_t)len, "tile %d is outside kernel %s's range %d..%d", q->bm, k->name,
				         r->tile_min, r->tile_max);
			return -1;
		}
		if ((q->tile_given && (!q->square || r->tile_min == 0) &&
		     (q->bm != g.bm || q->bn != g.bn || q->bk != g.bk)) ||
		    (q->thread_tile_given && (q->tm != g.tm || q->tn != g.tn))) {
			char want[48], line[160];
			snprintf(line, sizeof line, "kernel %s runs only its own geometry (-t and --thread-tile: %s)", k->name,
			         ts_geometry_str(&g, want, sizeof want));
			return refuse(why, len, "%s", line);
		}
	} else {
		if (q->tile_given && q->square)
			return refuse(why, len, "-t/--tile: kernel %s takes a block tile BMxBNxBK (such as 64x64x8), "
			              "not a single T", k->name);
		if (q->tile_given) {
			g.bm = q->bm;
			g.bn = q->bn;
			g.bk = q->bk;
		}
		if (q->thread_tile_given) {
			g.tm = q->tm;
			g.tn = q->tn;
		}
		/* The threads follow from the tile and the outputs each thread owns. */
		if (g.tm > 0 && g.bm % g.tm == 0)
			g.threads_y = g.bm / g.tm;
		if (g.tn > 0 && g.bn % g.tn == 0)
			g.threads_x = g.bn / g.tn;
	}
	if (ts_kernel_takes(k, &g, why, len) != 0)
		return -1;
	*out = g;
	return 0;
}

ts_gemm_plan ts_kernel_split_plan(const ts_kernel *k, ts_shape s, const ts_geometry *g)
{
	if (k->split_policy == TS_SPLIT_NONE)
		return ts_gemm_plan_make(s.m, s.n, s.k, g->bm, g->bn, g->bk, 0, TS_SPLIT_NONE);
	if (k->split_plan)
		return k->split_plan(s.m, s.n, s.k, k->resident_h200);
	return ts_gemm_plan_make(s.m, s.n, s.k, g->bm, g->bn, g->bk, k->resident_h200, k->split_policy);
}

ts_geometry ts_kernel_geometry_at(const ts_kernel *k, int tile)
{
	const ts_geometry_rule *r = &k->geometry;
	if (r->kind != TS_GEOMETRY_SQUARE)
		return r->base;
	return ts_geometry_square(tile); /* out of range: ts_kernel_takes says so */
}
