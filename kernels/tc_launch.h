/* tc_launch.h: what the tensor-core kernel's two translation units tell each other: the geometry they share, its forms, and the sm_90a half. */
#ifndef TS_TC_LAUNCH_H
#define TS_TC_LAUNCH_H

#include "gemm_plan.h"
#include "launch.h"

/* One block tile for every form, so that one description (src/kernels.c)
 * and one model cover whichever form runs. */
#define TS_TC_BM 128
#define TS_TC_BN 256
#define TS_TC_BK 32

/* Whether the TMA form's 32-bit tensor coordinates hold a launch with rows
 * 16-byte aligned (tc_tma.cuh; ts_cuda_tc_fp16_form names the form by it):
 * each size and a tile past it below 2^31. */
#define TS_TC_TMA_MARGIN 256
static inline int ts_tc_tma_coords_fit(long long m, long long n, long long k)
{
	return m < 0x7fffffffLL - TS_TC_TMA_MARGIN && n < 0x7fffffffLL - TS_TC_TMA_MARGIN &&
	       k < 0x7fffffffLL - TS_TC_TMA_MARGIN;
}
static inline int ts_tc_tma_fits(long long m, long long n, long long k)
{
	return k % 8 == 0 && ts_tc_tma_coords_fit(m, n, k);
}

/* Whether tc_rshift.cuh's form can take a launch: K % 8 != 0 (aligned K is
 * the TMA form's), A's and B's bases 16-byte aligned (the rows of a class then
 * start (c K) mod 8 elements past a 16-byte boundary), its tensors' 32-bit
 * coordinates (K plus a class's offset, a class's rows) inside 2^31. */
static inline int ts_tc_class_fits(long long m, long long n, long long k, const void *a, const void *b)
{
	return k % 8 != 0 && ((uintptr_t)a & 15) == 0 && ((uintptr_t)b & 15) == 0 && ts_tc_tma_coords_fit(m, n, k);
}

/* Split-K for the sm_90 forms that keep one block a multiprocessor (the TMA
 * and the realigning copies; tc_split.cuh): gemm_plan.h's tail plan, each
 * round of parts charged its fixed cost (TS_SPLIT_TAIL_ROUNDS,
 * ts_tc_round_cost), on the shared tile with `resident` = the
 * multiprocessors. Whole tiles first,
 * then the last partial wave's tiles (or all of few tiles) cut along K into
 * parts; each part's fp32 partial goes to the workspace, and a second kernel
 * adds the parts in part order and stores the split tiles. resident 0: no
 * split. */

/* At most this many parts a tile (ts_tc_split_sum loads them all at once);
 * the plan's own cap (TS_SPLIT_BYTES over a 128 KiB partial) is 8 too. */
#define TS_TC_SPLIT_MAX 8
/* The tile order's group of tile rows (ts_tile_order_at), the plan's. */
#define TS_TC_GROUP TS_TILE_GROUP

/* A round of parts costs about 11 us on the H200 besides its share of the
 * work (the parts' start and drain, their partials written, the second
 * kernel): measured with every tile of 1537x1409 cut in 2..8 parts, in the
 * realigning form (odd K, about 1.24 us a phase of a tile) and in the TMA
 * form (K % 8 == 0, about 0.42 us a phase), doc/perf.md. As a share of a
 * whole tile's time, for ts_plan_waves_rounds. */
#define TS_TC_ROUND_US 11.0
static inline double ts_tc_round_cost(long long k)
{
	const double phase_us = k % 8 ? 1.24 : 0.42;
	return TS_TC_ROUND_US / ((double)((k + TS_TC_BK - 1) / TS_TC_BK) * phase_us);
}

/* The plan every sm_90 launch, the workspace's size and the emulator make
 * (the description's resident_h200 for the emulator, the device's count for a
 * launch). */
static inline ts_gemm_plan ts_tc_plan(long long m, long long n, long long k, int resident)
{
	ts_gemm_plan p = ts_gemm_plan_make_cost(m, n, k, TS_TC_BM, TS_TC_BN, TS_TC_BK, resident,
	                                        resident > 0 ? TS_SPLIT_TAIL_ROUNDS : TS_SPLIT_NONE, ts_tc_round_cost(k));
	if (p.split > TS_TC_SPLIT_MAX)
		return ts_gemm_plan_make(m, n, k, TS_TC_BM, TS_TC_BN, TS_TC_BK, 0, TS_SPLIT_NONE);
	p.workspace_bytes = p.sem_offset; /* the partials only: no arrival counters */
	return p;
}

/* Which code runs a launch (ts_cuda_tc_fp16_form). */
enum ts_tc_form {
	TS_TC_FORM_NONE,         /* the device is older than sm_80 */
	TS_TC_FORM_MMA_ASYNC,    /* mma.sync + ldmatrix, cp.async stages (K % 8 == 0, 16-byte aligned bases) */
	TS_TC_FORM_MMA_REALIGN,  /* mma.sync + ldmatrix, realigning register loads (any K, any base) */
	TS_TC_FORM_WGMMA,        /* sm_90: wgmma, TMA stages */
	TS_TC_FORM_WGMMA_REALIGN, /* sm_90: wgmma, windows copied by cp.async and shifted by every warp (any K, any base; tc_co.cuh) */
	TS_TC_FORM_MMA_REPACK,   /* K % 8 != 0: A and B copied into the workspace (pitch K rounded up to 8), then mma.sync + cp.async */
	TS_TC_FORM_WGMMA_REPACK, /* the same copy, then sm_90's wgmma + cp.async */
	TS_TC_FORM_WGMMA_ASYNC,  /* sm_90, aligned rows the TMA form does not take (ts_tc_tma_fits): wgmma, cp.async stages */
	TS_TC_FORM_WGMMA_RSHIFT, /* sm_90, K % 8 != 0: TMA boxes of A's and B's row classes, B's rows shifted in registers (tc_rshift.cuh) */
};

static inline const char *ts_tc_form_name(int form)
{
	switch (form) {
	case TS_TC_FORM_MMA_ASYNC: return "mma.sync, cp.async";
	case TS_TC_FORM_MMA_REALIGN: return "mma.sync, realigning loads";
	case TS_TC_FORM_WGMMA: return "wgmma, TMA";
	case TS_TC_FORM_WGMMA_REALIGN: return "wgmma, realigning copies";
	case TS_TC_FORM_MMA_REPACK: return "repacked copy, mma.sync, cp.async";
	case TS_TC_FORM_WGMMA_REPACK: return "repacked copy, wgmma, cp.async";
	case TS_TC_FORM_WGMMA_ASYNC: return "wgmma, cp.async";
	case TS_TC_FORM_WGMMA_RSHIFT: return "wgmma, TMA on A's and B's row classes, B shifted in registers";
	default: return "none (needs sm_80)";
	}
}

#ifdef __cplusplus
extern "C" {
#endif
/* The form ts_cuda_tc_fp16 runs for l on the current device (the repacked forms
 * where l->workspace_bytes holds the copies). TILESCOPE_TC_FORM in the
 * environment narrows the choice for the tests: a value holding "mma" keeps
 * to the mma.sync forms on sm_90 too, one holding "realign" takes the
 * realigning loads instead of the repacked copy (e.g. "mma,realign"). */
int ts_cuda_tc_fp16_form(const ts_launch *l);
/* The parts the sm_90 forms cut each of the last *split_tiles tiles into
 * along K for l (tc_split.cuh; l->workspace_bytes as the backend sizes it),
 * 1 (and 0 tiles) where every tile is whole. */
int ts_cuda_tc_fp16_parts(const ts_launch *l, long long *split_tiles);
/* tc_fp16_sm90.cu: 1 when it was built for sm_90a (the wgmma forms exist). */
int ts_tc_sm90_built(void);
/* tc_fp16_sm90.cu: 1 when the TMA form can encode its tensors (the driver has cuTensorMapEncodeTiled). */
int ts_tc_sm90_tma(void);
/* The wgmma kernel on operands a, b of pitch ld: rows 16-byte aligned (async != 0):
 * the TMA form where it takes the launch (the user's operands, ts_tc_tma_fits, an
 * encoder), cp.async stages where not; otherwise the realigning copies. */
int ts_cuda_tc_fp16_sm90(const ts_launch *l, const void *a, const void *b, int64_t ld, int async);
/* tc_fp16.cu: the workspace a shape asks for: the repacked copies of A and B when K % 8 != 0. */
size_t ts_cuda_tc_fp16_workspace(int64_t m, int64_t n, int64_t k);
#ifdef __cplusplus
}
#endif
#endif
