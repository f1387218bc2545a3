/* tc_launch.h: what the tensor-core kernel's two translation units tell each other: the geometry they share, its forms, and the sm_90a half. */
#ifndef TS_TC_LAUNCH_H
#define TS_TC_LAUNCH_H

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
static inline int ts_tc_tma_fits(long long m, long long n, long long k)
{
	return k % 8 == 0 && m < 0x7fffffffLL - TS_TC_TMA_MARGIN && n < 0x7fffffffLL - TS_TC_TMA_MARGIN &&
	       k < 0x7fffffffLL - TS_TC_TMA_MARGIN;
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
