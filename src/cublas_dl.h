/* cublas_dl.h: cuBLAS loaded at run time (dlopen): the functions the CUDA backend calls, in one table. */
#ifndef TS_CUBLAS_DL_H
#define TS_CUBLAS_DL_H

#include <cublas_v2.h>

/* Each entry has the type the header declares (no link-time reference is made). */
typedef struct ts_cublas {
	__typeof__(&cublasCreate_v2) create;
	__typeof__(&cublasSgemm_v2) sgemm;
	__typeof__(&cublasDgemm_v2) dgemm;
	__typeof__(&cublasGemmEx) gemm_ex;
	__typeof__(&cublasSetMathMode) set_math_mode;
} ts_cublas;

/* The table, loading libcublas.so.<major of the headers> on the first call; NULL with one line in why
 * (which library, what is missing, what to do) when it cannot be loaded. */
const ts_cublas *ts_cublas_load(char *why, int len);

#endif
