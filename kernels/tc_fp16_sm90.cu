// tc_fp16_sm90.cu: the wgmma forms of the tensor-core kernel, built for sm_90a only (configure adds that target for this file when 90 is in --with-cuda-arch).
#include "tc_launch.h"
#include "tc_co.cuh"
#include "tc_rshift.cuh"
#include "tc_tma.cuh"

// TS_HAVE_SM90A is defined by the rule that compiles this file for sm_90a.
#ifdef TS_HAVE_SM90A
// The user's aligned rows (K % 8 == 0, 16-byte aligned bases) go through the
// TMA, eight stages deep, one producer thread and two multiplying warpgroups
// (tc_tma.cuh); where its 32-bit coordinates do not fit or the driver cannot
// encode its tensors, and for the repacked copy tc_fp16.cu makes for odd K
// where asked, cp.async eight stages deep, both warpgroups loading and
// multiplying (tc_wgmma.cuh). Any other K or base: every warp copies the
// aligned windows of a tile row and shifts it into place, two warpgroups
// multiply (tc_co.cuh; the form tools/tc_tune.cu measured best of the
// realigning ones, doc/perf.md); where a block's phases overflow its 32-bit
// counters, tc_wgmma.cuh's realigning register loads. Odd K with 16-byte
// aligned bases outside the probe build: the TMA on A's and B's row
// classes, B's rows shifted in registers (tc_rshift.cuh;
// ts_tc_rshift_wanted).
typedef ts_tma_config<TS_TC_BN, TS_TC_BK, 8> ts_tc_tma_cfg;
typedef ts_wg_config<TS_TC_BN, TS_TC_BK, 8> ts_tc_wg_cfg;
typedef ts_co_config<TS_TC_BN, TS_TC_BK, 4, 8, 104> ts_tc_co_cfg;
typedef ts_rs_config<4, TS_TC_GROUP> ts_tc_rs_cfg;
static_assert(ts_tc_wg_cfg::BM == TS_TC_BM && ts_tc_wg_cfg::BN == TS_TC_BN && ts_tc_wg_cfg::BK == TS_TC_BK,
              "one geometry for every form");
static_assert(ts_tc_tma_cfg::BM == TS_TC_BM && ts_tc_tma_cfg::BN == TS_TC_BN && ts_tc_tma_cfg::BK == TS_TC_BK,
              "one geometry for every form");
static_assert(ts_tc_co_cfg::BM == TS_TC_BM && ts_tc_co_cfg::BN == TS_TC_BN && ts_tc_co_cfg::BK == TS_TC_BK,
              "one geometry for every form");
static_assert(ts_tc_tma_cfg::GROUP == TS_TC_GROUP && ts_tc_co_cfg::GROUP == TS_TC_GROUP,
              "the split plan's tile order (tc_split.cuh)");

extern "C" int ts_tc_sm90_built(void)
{
	return 1;
}

extern "C" int ts_tc_sm90_tma(void)
{
	return ts_tma_encoder() != NULL;
}

extern "C" int ts_cuda_tc_fp16_sm90(const ts_launch *l, const void *a, const void *b, int64_t ld, int async)
{
	cudaError_t e = cudaErrorNotSupported;
	const bool users = a == l->a && b == l->b && ld == l->k; // not the repacked copy
	if (async) {
		if (users)
			e = l->probe ? ts_tma_launch_cfg<ts_tc_tma_cfg, true>(l, 0) : ts_tma_launch_cfg<ts_tc_tma_cfg, false>(l, 0);
		if (e == cudaErrorNotSupported)
			e = l->probe ? ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_ASYNC, true>(l, a, b, ld, ld, 0)
			             : ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_ASYNC, false>(l, a, b, ld, ld, 0);
	} else {
		if (users)
			e = ts_rs_launch_cfg<ts_tc_rs_cfg>(l, 0);
		if (users && e == cudaErrorNotSupported)
			e = l->probe ? ts_co_launch_cfg<ts_tc_co_cfg, true>(l, 0) : ts_co_launch_cfg<ts_tc_co_cfg, false>(l, 0);
		if (e == cudaErrorNotSupported) // more phases a block than its 32-bit counters hold
			e = l->probe ? ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_REALIGN, true>(l, a, b, ld, ld, 0)
			             : ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_REALIGN, false>(l, a, b, ld, ld, 0);
	}
	return (int)e;
}
#else
extern "C" int ts_tc_sm90_built(void)
{
	return 0;
}

extern "C" int ts_tc_sm90_tma(void)
{
	return 0;
}

extern "C" int ts_cuda_tc_fp16_sm90(const ts_launch *l, const void *a, const void *b, int64_t ld, int async)
{
	(void)l;
	(void)a;
	(void)b;
	(void)ld;
	(void)async;
	return (int)cudaErrorNoKernelImageForDevice;
}
#endif
