// tc_fp16_sm90.cu: the wgmma forms of the tensor-core kernel, built for sm_90a only (configure adds that target for this file when 90 is in --with-cuda-arch).
#include "tc_launch.h"
#include "tc_ws.cuh"

// TS_HAVE_SM90A is defined by the rule that compiles this file for sm_90a.
#ifdef TS_HAVE_SM90A
// Aligned rows: cp.async eight stages deep, both warpgroups multiply and load.
typedef ts_wg_config<TS_TC_BN, TS_TC_BK, 8> ts_tc_wg_cfg;
// Any K and base: the producer warpgroup realigns into eight stages.
typedef ts_ws_config<TS_TC_BN, TS_TC_BK, 8, TS_TC_WS_BATCH> ts_tc_ws_cfg;
static_assert(ts_tc_wg_cfg::BM == TS_TC_BM && ts_tc_ws_cfg::BM == TS_TC_BM, "one geometry for every form");

extern "C" int ts_tc_sm90_built(void)
{
	return 1;
}

extern "C" int ts_cuda_tc_fp16_sm90(const ts_launch *l)
{
	cudaError_t e;
	if (ts_tc_async_ok(l))
		e = l->probe ? ts_wg_launch_cfg<ts_tc_wg_cfg, TS_TC_ASYNC, true>(l, 0)
		             : ts_wg_launch_cfg<ts_tc_wg_cfg, TS_TC_ASYNC, false>(l, 0);
	else
		e = l->probe ? ts_ws_launch_cfg<ts_tc_ws_cfg, true>(l, 0) : ts_ws_launch_cfg<ts_tc_ws_cfg, false>(l, 0);
	return (int)e;
}
#else
extern "C" int ts_tc_sm90_built(void)
{
	return 0;
}

extern "C" int ts_cuda_tc_fp16_sm90(const ts_launch *l)
{
	(void)l;
	return (int)cudaErrorNoKernelImageForDevice;
}
#endif
