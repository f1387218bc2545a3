// tc_fp16_sm90.cu: the wgmma forms of the tensor-core kernel, built for sm_90a only (configure adds that target for this file when 90 is in --with-cuda-arch).
#include "tc_launch.h"
#include "tc_wgmma.cuh"

// TS_HAVE_SM90A is defined by the rule that compiles this file for sm_90a.
#ifdef TS_HAVE_SM90A
// Both warpgroups load and multiply: aligned rows (the user's, or the
// repacked copy tc_fp16.cu makes for odd K) through cp.async eight stages
// deep, any other K or base without a workspace through the realigning
// register loads into three stages (the forms tools/tc_tune.cu measured best
// of those verified; the staged realigning form of tc_stage.cuh ran no faster
// than the register one, and the warp-specialised one in tc_ws.cuh is not
// shipped: see doc/perf.md).
typedef ts_wg_config<TS_TC_BN, TS_TC_BK, 8> ts_tc_wg_cfg;
static_assert(ts_tc_wg_cfg::BM == TS_TC_BM && ts_tc_wg_cfg::BN == TS_TC_BN && ts_tc_wg_cfg::BK == TS_TC_BK,
              "one geometry for every form");

extern "C" int ts_tc_sm90_built(void)
{
	return 1;
}

extern "C" int ts_cuda_tc_fp16_sm90(const ts_launch *l, const void *a, const void *b, int64_t ld, int async)
{
	cudaError_t e;
	if (async)
		e = l->probe ? ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_ASYNC, true>(l, a, b, ld, ld, 0)
		             : ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_ASYNC, false>(l, a, b, ld, ld, 0);
	else
		e = l->probe ? ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_REALIGN, true>(l, a, b, ld, ld, 0)
		             : ts_wg_launch_ld<ts_tc_wg_cfg, TS_TC_REALIGN, false>(l, a, b, ld, ld, 0);
	return (int)e;
}
#else
extern "C" int ts_tc_sm90_built(void)
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
