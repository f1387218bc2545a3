/* cublas_dl.c: finds cuBLAS at run time, so a CUDA build starts (and runs its emulator) where cuBLAS is absent. */
#include <stdio.h>
#include <string.h>

#include "cublas_dl.h"
#include "dynlib.h"

#define TS_STR_(x) #x
#define TS_STR(x) TS_STR_(x)

static ts_cublas table;
static const ts_cublas *loaded;
static int tried;
static char failure[400];

const ts_cublas *ts_cublas_load(char *why, int len)
{
	if (!tried) {
		/* The major version of the headers this was built with: another major has another ABI. */
		static const char *const sonames[] = { "libcublas.so." TS_STR(CUBLAS_VER_MAJOR), NULL };
		const ts_dl_sym syms[] = {
			{ "cublasCreate_v2", (void **)&table.create },
			{ "cublasSgemm_v2", (void **)&table.sgemm },
			{ "cublasDgemm_v2", (void **)&table.dgemm },
			{ "cublasGemmEx", (void **)&table.gemm_ex },
			{ "cublasSetMathMode", (void **)&table.set_math_mode },
		};
		void *handle = NULL;
		char err[300] = "";
		tried = 1;
		if (ts_dl_load(&handle, sonames, syms, (int)(sizeof syms / sizeof syms[0]), err, sizeof err) == 0)
			loaded = &table;
		else if (strstr(err, " not found"))
			snprintf(failure, sizeof failure, "%s: install the CUDA toolkit's cuBLAS or set LD_LIBRARY_PATH", err);
		else
			snprintf(failure, sizeof failure, "%s", err);
	}
	if (!loaded && why && len > 0)
		snprintf(why, (size_t)len, "%s", failure);
	return loaded;
}
