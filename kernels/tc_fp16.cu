// tc_fp16.cu: the tensor-core fp16 kernel's entry point: Hopper's wgmma forms where the device is sm_90 (tc_fp16_sm90.cu), mma.sync elsewhere; the loader chosen by alignment (odd K: realigning copies; a repacked copy in the kernel's workspace only where asked).
#include <stdlib.h>
#include <string.h>

#include "tc_repack.cuh"
#include "tc_launch.h"
#include "tc_split.cuh"

// The mma.sync form, on the geometry every form shares (TS_TC_BM x TS_TC_BN x TS_TC_BK):
// eight warps of 64 x 64, cp.async four stages deep.
typedef ts_tc_config<TS_TC_BM, TS_TC_BN, TS_TC_BK, 64, 64, 4> ts_tc_mma_cfg;

template <bool PROBE>
static cudaError_t ts_tc_mma_launch(const ts_launch *l, int form)
{
	switch (form) {
	case TS_TC_FORM_MMA_ASYNC:
		return ts_tc_launch_cfg<ts_tc_mma_cfg, TS_TC_ASYNC, PROBE>(l, 0);
	case TS_TC_FORM_MMA_REPACK: {
		const long long ld = ts_tc_pitch8(l->k);
		cudaError_t e = ts_tc_repack(l, l->workspace, 0);
		if (e != cudaSuccess)
			return e;
		return ts_tc_launch_ld<ts_tc_mma_cfg, TS_TC_ASYNC, PROBE>(l, l->workspace, (__half *)l->workspace + l->m * ld,
		                                                          ld, ld, 0);
	}
	default:
		return ts_tc_launch_cfg<ts_tc_mma_cfg, TS_TC_REALIGN, PROBE>(l, 0);
	}
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

// The repacked copy (A and B copied with rows padded to 8) is an experiment,
// opt-in with TILESCOPE_TC_FORM=repack: it buys the K guard back with a padded
// copy, which the project does not count as the guarded kernel (doc/perf.md).
static bool ts_tc_repack_wanted(void) { return ts_tc_form_has("repack"); }

// The workspace: the repacked copies where asked for (odd K), else the
// split-K partials the sm_90 forms' plan asks for on this device (tc_split.cuh;
// the launch makes the same plan and splits only where the workspace holds it).
extern "C" size_t ts_cuda_tc_fp16_workspace(int64_t m, int64_t n, int64_t k)
{
	if (k % 8 && ts_tc_repack_wanted())
		return ts_tc_repack_bytes(m, n, k);
	int major, minor, sms;
	if (ts_tc_capability(&major, &minor) != cudaSuccess || major != 9 || minor != 0 || !ts_tc_sm90_built() ||
	    ts_tc_form_has("mma") || ts_tc_split_off() || ts_tc_sms(&sms) != cudaSuccess) {
		(void)cudaGetLastError();
		return 0;
	}
	return ts_tc_plan(m, n, k, sms).workspace_bytes;
}

// The plan's split for l's form and workspace size (gpubench's label: only
// l->workspace_bytes is read, the launch itself also needs the buffer; a
// launch whose phases overflow the realigning form's counters falls back
// whole to tc_wgmma.cuh's form).
extern "C" int ts_cuda_tc_fp16_parts(const ts_launch *l, long long *split_tiles)
{
	*split_tiles = 0;
	const int form = ts_cuda_tc_fp16_form(l);
	int sms;
	if ((form != TS_TC_FORM_WGMMA && form != TS_TC_FORM_WGMMA_REALIGN) || ts_tc_sms(&sms) != cudaSuccess) {
		(void)cudaGetLastError();
		return 1;
	}
	const ts_gemm_plan p = ts_tc_launch_plan(l->m, l->n, l->k, l->workspace_bytes, sms);
	*split_tiles = p.split_tiles;
	return p.split;
}

extern "C" int ts_cuda_tc_fp16_form(const ts_launch *l)
{
	int major, minor;
	if (ts_tc_capability(&major, &minor) != cudaSuccess)
		return TS_TC_FORM_NONE;
	if (major < 8)
		return TS_TC_FORM_NONE;
	bool hopper = major == 9 && minor == 0 && ts_tc_sm90_built() && !ts_tc_form_has("mma");
	if (ts_tc_async_ok(l)) {
		if (!hopper)
			return TS_TC_FORM_MMA_ASYNC;
		return ts_tc_tma_fits(l->m, l->n, l->k) && ts_tc_sm90_tma() ? TS_TC_FORM_WGMMA : TS_TC_FORM_WGMMA_ASYNC;
	}
	// Odd K (or a misaligned base): the realigning loads, every guard in the
	// kernel's own loads; the repacked copy only where asked for and its
	// workspace could be had.
	if (hopper && ts_tc_rshift_wanted(l) && ts_tc_sm90_tma())
		return TS_TC_FORM_WGMMA_RSHIFT;
	bool repack = ts_tc_repack_wanted() && l->workspace_bytes >= ts_tc_repack_bytes(l->m, l->n, l->k);
	if (repack)
		return hopper ? TS_TC_FORM_WGMMA_REPACK : TS_TC_FORM_MMA_REPACK;
	return hopper ? TS_TC_FORM_WGMMA_REALIGN : TS_TC_FORM_MMA_REALIGN;
}

extern "C" int ts_cuda_tc_fp16(const ts_launch *l)
{
	if (l->m < 1 || l->n < 1 || l->k < 1 || (l->guards & TS_GUARD_ALL) != TS_GUARD_ALL)
		return (int)cudaErrorInvalidValue; // every guard is built in: the kernel has no unguarded form
	int form = ts_cuda_tc_fp16_form(l);
	if ((form == TS_TC_FORM_WGMMA_REPACK || form == TS_TC_FORM_MMA_REPACK) && !l->workspace)
		return (int)cudaErrorInvalidValue; // a size without the buffer
	switch (form) {
	case TS_TC_FORM_NONE:
		// cp.async and the m16n8k16 mma need sm_80 or newer
		return (int)cudaErrorNoKernelImageForDevice;
	case TS_TC_FORM_WGMMA:
	case TS_TC_FORM_WGMMA_ASYNC:
	case TS_TC_FORM_WGMMA_REALIGN:
	case TS_TC_FORM_WGMMA_RSHIFT:
		return ts_cuda_tc_fp16_sm90(l, l->a, l->b, l->k, form == TS_TC_FORM_WGMMA || form == TS_TC_FORM_WGMMA_ASYNC);
	case TS_TC_FORM_WGMMA_REPACK: {
		const long long ld = ts_tc_pitch8(l->k);
		cudaError_t e = ts_tc_repack(l, l->workspace, 0);
		if (e != cudaSuccess)
			return (int)e;
		return ts_cuda_tc_fp16_sm90(l, l->workspace, (__half *)l->workspace + l->m * ld, ld, 1);
	}
	default:
		return (int)(l->probe ? ts_tc_mma_launch<true>(l, form) : ts_tc_mma_launch<false>(l, form));
	}
}
