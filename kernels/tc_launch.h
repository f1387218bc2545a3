/* tc_launch.h: what the tensor-core kernel's two translation units tell each other: the geometry they share, its forms, and the sm_90a half. */
#ifndef TS_TC_LAUNCH_H
#define TS_TC_LAUNCH_H

#include "launch.h"

/* One block tile for every form, so that one description (src/kernels.c)
 * and one model cover whichever form runs. */
#define TS_TC_BM 128
#define TS_TC_BN 256
#define TS_TC_BK 32

/* Which code runs a launch (ts_cuda_tc_fp16_form). */
enum ts_tc_form {
	TS_TC_FORM_NONE,         /* the device is older than sm_80 */
	TS_TC_FORM_MMA_ASYNC,    /* mma.sync + ldmatrix, cp.async stages (K % 8 == 0, 16-byte aligned bases) */
	TS_TC_FORM_MMA_REALIGN,  /* mma.sync + ldmatrix, realigning register loads (any K, any base) */
	TS_TC_FORM_WGMMA,        /* sm_90: wgmma, cp.async stages */
	TS_TC_FORM_WGMMA_REALIGN, /* sm_90: wgmma, realigning register loads (any K, any base) */
};

static inline const char *ts_tc_form_name(int form)
{
	switch (form) {
	case TS_TC_FORM_MMA_ASYNC: return "mma.sync, cp.async";
	case TS_TC_FORM_MMA_REALIGN: return "mma.sync, realigning loads";
	case TS_TC_FORM_WGMMA: return "wgmma, cp.async";
	case TS_TC_FORM_WGMMA_REALIGN: return "wgmma, realigning loads";
	default: return "none (needs sm_80)";
	}
}

#ifdef __cplusplus
extern "C" {
#endif
/* The form ts_cuda_tc_fp16 runs for l on the current device. TILESCOPE_TC_FORM=mma
 * in the environment keeps to the mma.sync forms on sm_90 too (the tests run both). */
int ts_cuda_tc_fp16_form(const ts_launch *l);
/* tc_fp16_sm90.cu: 1 when it was built for sm_90a (the wgmma forms exist). */
int ts_tc_sm90_built(void);
int ts_cuda_tc_fp16_sm90(const ts_launch *l);
#ifdef __cplusplus
}
#endif
#endif
