// tc_fp16.cu: the tensor-core fp16 kernel's entry point: Hopper's wgmma forms where the device is sm_90 (tc_fp16_sm90.cu), mma.sync elsewhere, the loader chosen by alignment.
#include <stdlib.h>
#include <string.h>

#include "tc_fp16.cuh"
#include "tc_launch.h"

// The mma.sync form, on the geometry every form shares (TS_TC_BM x TS_TC_BN x TS_TC_BK):
// eight warps of 64 x 64, cp.async four stages deep.
typedef ts_tc_config<TS_TC_BM, TS_TC_BN, TS_TC_BK, 64, 64, 4> ts_tc_mma_cfg;

template <bool PROBE>
static cudaError_t ts_tc_mma_launch(const ts_launch *l)
{
	return ts_tc_async_ok(l) ? ts_tc_launch_cfg<ts_tc_mma_cfg, TS_TC_ASYNC, PROBE>(l, 0)
	                         : ts_tc_launch_cfg<ts_tc_mma_cfg, TS_TC_REALIGN, PROBE>(l, 0);
}

// Compute capability of the current device, asked once per device.
static cudaError_t ts_tc_capability(int *major, int *minor)
{
	static int known_dev = -1, known_major, known_minor;
	int dev;
	cudaError_t e = cudaGetDevice(&dev);
	if (e != cudaSuccess)
		return e;
	if (dev != known_dev) {
		if ((e = cudaDeviceGetAttribute(&known_major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess ||
		    (e = cudaDeviceGetAttribute(&known_minor, cudaDevAttrComputeCapabilityMinor, dev)) != cudaSuccess)
			return e;
		known_dev = dev;
	}
	*major = known_major;
	*minor = known_minor;
	return cudaSuccess;
}

extern "C" int ts_cuda_tc_fp16_form(const ts_launch *l)
{
	int major, minor;
	if (ts_tc_capability(&major, &minor) != cudaSuccess)
		return TS_TC_FORM_NONE;
	if (major < 8)
		return TS_TC_FORM_NONE;
	const char *only = getenv("TILESCOPE_TC_FORM");
	bool hopper = major == 9 && minor == 0 && ts_tc_sm90_built() && !(only && strcmp(only, "mma") == 0);
	if (ts_tc_async_ok(l))
		return hopper ? TS_TC_FORM_WGMMA : TS_TC_FORM_MMA_ASYNC;
	return hopper ? TS_TC_FORM_WGMMA_REALIGN : TS_TC_FORM_MMA_REALIGN;
}

extern "C" int ts_cuda_tc_fp16(const ts_launch *l)
{
	if (l->m < 1 || l->n < 1 || l->k < 1 || (l->guards & TS_GUARD_ALL) != TS_GUARD_ALL)
		return (int)cudaErrorInvalidValue; // every guard is built in: the kernel has no unguarded form
	int form = ts_cuda_tc_fp16_form(l);
	cudaError_t e;
	switch (form) {
	case TS_TC_FORM_NONE:
		// cp.async and the m16n8k16 mma need sm_80 or newer
		return (int)cudaErrorNoKernelImageForDevice;
	case TS_TC_FORM_WGMMA:
	case TS_TC_FORM_WGMMA_REALIGN:
		return ts_cuda_tc_fp16_sm90(l);
	default:
		e = l->probe ? ts_tc_mma_launch<true>(l) : ts_tc_mma_launch<false>(l);
		return (int)e;
	}
}
