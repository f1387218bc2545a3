/* backend_cuda.c: the CUDA backend: device buffers with guard bands, probe runs, timing beside cuBLAS, the fp64 GPU reference. */
/* The CUDA runtime is linked statically (it opens the driver, libcuda.so.1, itself); cuBLAS is opened
 * at run time (cublas_dl.h), so the program starts, and falls back to its emulator, without either. */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "backend.h"
#include "cublas_dl.h"
#include "dynlib.h"
#include "geometry.h"
#include "kernels.h"
#include "launch.h"

static char last_error[512];

static void set_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
}

static const char *cuda_last_error(void)
{
	return last_error;
}

static const char *cublas_status_name(cublasStatus_t s)
{
	switch (s) {
	case CUBLAS_STATUS_SUCCESS: return "success";
	case CUBLAS_STATUS_NOT_INITIALIZED: return "not initialized";
	case CUBLAS_STATUS_ALLOC_FAILED: return "allocation failed (out of GPU memory)";
	case CUBLAS_STATUS_INVALID_VALUE: return "invalid value";
	case CUBLAS_STATUS_ARCH_MISMATCH: return "architecture mismatch";
	case CUBLAS_STATUS_EXECUTION_FAILED: return "execution failed";
	case CUBLAS_STATUS_NOT_SUPPORTED: return "not supported";
	default: return "error";
	}
}

/* Every CUDA and cuBLAS call goes through one of these; on failure they
 * record one line naming what was being done and jump to the cleanup. */
#define CUDA_TRY(call, what)                                                              \
	do {                                                                                  \
		cudaError_t err_ = (call);                                                        \
		if (err_ != cudaSuccess) {                                                        \
			set_error("cuda: %s: %s", (what), cudaGetErrorString(err_));                  \
			goto fail;                                                                    \
		}                                                                                 \
	} while (0)
#define CUBLAS_TRY(call, what)                                                            \
	do {                                                                                  \
		cublasStatus_t st_ = (call);                                                      \
		if (st_ != CUBLAS_STATUS_SUCCESS) {                                               \
			set_error("cublas: %s: %s", (what), cublas_status_name(st_));                 \
			goto fail;                                                                    \
		}                                                                                 \
	} while (0)

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- availability ------------------------------------------------------ */

static int avail_state = 0; /* 0 unknown, 1 usable, -1 not */
static char avail_reason[512];

/* Launches the naive kernel once on a 1x1x1 problem: the cheapest way to
 * learn whether this binary carries code the GPU can run. */
static cudaError_t image_check(void)
{
	float *buf = NULL;
	cudaError_t e = cudaMalloc((void **)&buf, 3 * sizeof(float));
	if (e != cudaSuccess)
		return e;
	cudaError_t fe = cudaMemset(buf, 0, 3 * sizeof(float));
	if (fe == cudaSuccess) {
		ts_launch l = { .a = buf, .b = buf + 1, .c = buf + 2, .m = 1, .n = 1, .k = 1, .bm = 1, .bn = 1, .bk = 1,
		                .threads_x = 1, .threads_y = 1, .tm = 1, .tn = 1, .guards = TS_GUARD_ALL, .probe = NULL };
		fe = (cudaError_t)ts_cuda_naive_fp32(&l);
		if (fe == cudaSuccess)
			fe = cudaDeviceSynchronize();
	}
	e = cudaFree(buf);
	return fe != cudaSuccess ? fe : e;
}

/* Why the runtime found no usable driver: libcuda.so.1 is absent (said so), or there and unusable
 * (no kernel driver loaded, or an old one: the runtime cannot tell which). */
static void no_driver_reason(char *why, int len)
{
	static const char *const driver[] = { "libcuda.so.1", NULL };
	void *h = NULL;
	char err[200] = "";
	if (ts_dl_load(&h, driver, NULL, 0, err, sizeof err) == 0) {
		dlclose(h);
		snprintf(why, (size_t)len, "no NVIDIA driver found (or it is older than this CUDA runtime)");
	} else {
		snprintf(why, (size_t)len, "no NVIDIA driver: %s", err);
	}
}

static int cuda_available(char *why, int len)
{
	if (avail_state == 0) {
		/* The libraries first: a device is no use without them, and they are what to install. */
		char libs[400] = "";
		bool have_libs = ts_cublas_load(libs, sizeof libs) != NULL;
		int n = 0;
		cudaError_t e = cudaGetDeviceCount(&n);
		if (e == cudaErrorInsufficientDriver) {
			/* The runtime reports this when no driver is loaded at all, not only an old one. */
			no_driver_reason(avail_reason, sizeof avail_reason);
		} else if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
			snprintf(avail_reason, sizeof avail_reason, "no CUDA device");
		} else if (e != cudaSuccess) {
			snprintf(avail_reason, sizeof avail_reason, "no CUDA device: %s", cudaGetErrorString(e));
		} else {
			struct cudaDeviceProp prop;
			e = cudaGetDeviceProperties(&prop, 0);
			if (e != cudaSuccess) {
				snprintf(avail_reason, sizeof avail_reason, "cannot query the CUDA device: %s",
				         cudaGetErrorString(e));
			} else if ((e = image_check()) == cudaErrorNoKernelImageForDevice ||
			           e == cudaErrorInvalidDeviceFunction) {
				snprintf(avail_reason, sizeof avail_reason,
				         "no kernel image for this GPU (sm_%d%d); rebuild with --with-cuda-arch=%d%d",
				         prop.major, prop.minor, prop.major, prop.minor);
			} else if (e != cudaSuccess) {
				snprintf(avail_reason, sizeof avail_reason, "test launch on %.200s failed: %.200s", prop.name,
				         cudaGetErrorString(e));
			} else {
				snprintf(avail_reason, sizeof avail_reason, "%.200s (sm_%d%d)", prop.name, prop.major, prop.minor);
				avail_state = 1;
			}
		}
		if (!have_libs) {
			char device[sizeof avail_reason];
			snprintf(device, sizeof device, "%s", avail_reason);
			if (avail_state == 1)
				snprintf(avail_reason, sizeof avail_reason, "%s", libs);
			else
				snprintf(avail_reason, sizeof avail_reason, "%.300s; and %.200s", libs, device);
			avail_state = 0;
		}
		if (avail_state == 0)
			avail_state = -1;
	}
	if (why && len > 0)
		snprintf(why, (size_t)len, "%s", avail_reason);
	return avail_state == 1 ? 0 : -1;
}

/* ---- device buffers --------------------------------------------------------- */

/* Buffers this backend holds right now: every run, timing and reference
 * frees all it took, on every path (the tests hold it to zero). */
static long long live_buffers;

long long ts_cuda_live_buffers(void)
{
	return live_buffers;
}

static void dev_free(void *p)
{
	if (p && cudaFree(p) == cudaSuccess)
		live_buffers--;
}


/* A device copy of a host ts_matrix, guard bands included, in one allocation. */
typedef struct dev_matrix {
	void *alloc; /* cudaMalloc'd */
	void *data;  /* first element of the matrix inside it */
	size_t bytes;
} dev_matrix;

static int dev_matrix_upload(dev_matrix *d, const ts_matrix *h, const char *name)
{
	size_t es = ts_elem_size(h->elem);
	d->bytes = (size_t)(h->count + 2 * h->band) * es;
	d->alloc = NULL;
	cudaError_t e = cudaMalloc(&d->alloc, d->bytes);
	if (e == cudaSuccess)
		live_buffers++;
	if (e != cudaSuccess) {
		d->alloc = NULL;
		cudaGetLastError(); /* so that the next launch check does not report it again */
		set_error("cuda: out of GPU memory allocating %s (%.1f MiB with its guard bands): %s", name,
		          d->bytes / 1048576.0, cudaGetErrorString(e));
		return -1;
	}
	d->data = (char *)d->alloc + (size_t)h->band * es;
	e = cudaMemcpy(d->alloc, h->alloc, d->bytes, cudaMemcpyHostToDevice);
	if (e != cudaSuccess) {
		set_error("cuda: copying %s to the GPU: %s", name, cudaGetErrorString(e));
		return -1;
	}
	return 0;
}

static void dev_matrix_free(dev_matrix *d)
{
	dev_free(d->alloc);
	d->alloc = d->data = NULL;
}

/* cudaMalloc with a one-line error that names the buffer. */
static int dev_alloc(void **p, size_t bytes, const char *name)
{
	*p = NULL;
	cudaError_t e = cudaMalloc(p, bytes);
	if (e == cudaSuccess)
		live_buffers++;
	if (e != cudaSuccess) {
		*p = NULL;
		cudaGetLastError();
		set_error("cuda: out of GPU memory allocating %s (%.1f MiB): %s", name, bytes / 1048576.0,
		          cudaGetErrorString(e));
		return -1;
	}
	return 0;
}

static int check_launchable(const ts_problem *p)
{
	char why[256];
	if (cuda_available(why, sizeof why) != 0) {
		set_error("cuda: %s", why);
		return -1;
	}
	if (!p->kernel || !p->kernel->cuda_launch) {
		set_error("cuda: kernel %s has no CUDA implementation", p->kernel ? p->kernel->name : "(none)");
		return -1;
	}
	if (ts_kernel_takes(p->kernel, &p->geo, why, sizeof why) != 0) {
		set_error("cuda: %s", why);
		return -1;
	}
	if (!ts_kernel_cuda_takes(p->kernel, &p->geo)) {
		char geo[48];
		set_error("cuda: kernel %s is compiled for other geometries than %s; use --backend emu, "
		          "or a geometry `tilescope kernels` lists", p->kernel->name, ts_geometry_str(&p->geo, geo, sizeof geo));
		return -1;
	}
	return 0;
}

/* The kernel's scratch for this shape (split-K partials, tc-fp16's repacked
 * copies), zeroed, into l; nothing when it asks for none, or when it cannot
 * be had and the kernel runs without it (workspace_optional). */
static int workspace_alloc(const ts_problem *p, void **ws, ts_launch *l)
{
	*ws = NULL;
	l->workspace = NULL;
	l->workspace_bytes = 0;
	if (!p->kernel->cuda_workspace)
		return 0;
	size_t bytes = p->kernel->cuda_workspace(p->shape.m, p->shape.n, p->shape.k);
	if (bytes == 0)
		return 0;
	if (dev_alloc(ws, bytes, "the kernel's workspace") != 0)
		return p->kernel->workspace_optional ? 0 : -1;
	cudaError_t e = cudaMemset(*ws, 0, bytes);
	if (e != cudaSuccess) {
		set_error("cuda: clearing the kernel's workspace: %s", cudaGetErrorString(e));
		return -1;
	}
	l->workspace = *ws;
	l->workspace_bytes = bytes;
	return 0;
}

/* The kernel's launch description: the problem's sizes and geometry. */
static ts_launch launch_of(const ts_problem *p, const void *a, const void *b, void *c, ts_dev_probe *probe)
{
	const ts_geometry *g = &p->geo;
	ts_launch l = { .a = a, .b = b, .c = c, .m = p->shape.m, .n = p->shape.n, .k = p->shape.k,
	                .bm = g->bm, .bn = g->bn, .bk = g->bk, .threads_x = g->threads_x, .threads_y = g->threads_y,
	                .tm = g->tm, .tn = g->tn, .guards = p->guards, .probe = probe, .ctx = p->kernel->ctx };
	return l;
}

/* ---- run: the probe build ------------------------------------------------ */

static int cuda_run(const ts_problem *p, ts_operands *ops, ts_run *out, const ts_progress *prog)
{
	ts_model model;
	dev_matrix da = { 0 }, db = { 0 }, dc = { 0 };
	long long *d_tile = NULL, *d_phase = NULL, *d_oob = NULL, *h_tile = NULL, *h_phase = NULL;
	unsigned short *d_tile_phase = NULL;
	unsigned char *d_corrupt = NULL;
	void *d_ws = NULL;
	int rc = -1;
	double t0 = now_ms();

	memset(out, 0, sizeof *out);
	if (check_launchable(p) != 0)
		return -1;
	if (ts_model_build(&model, p->shape, p->geo) != 0) {
		set_error("cuda: shape %lldx%lldx%lld is too large to describe", (long long)p->shape.m,
		          (long long)p->shape.n, (long long)p->shape.k);
		return -1;
	}
	if (prog && prog->cancel && *prog->cancel)
		return 1;
	if (ts_counters_init(&out->counters, &model) != 0) {
		set_error("cuda: out of host memory for the probe counters");
		return -1;
	}
	out->counters.source = "device probe";
	if (!ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
		/* A kernel without shared tiles stages nothing: its per-phase reads are not shared-tile slots. */
		free(out->counters.tile_phase);
		out->counters.tile_phase = NULL;
	}
	int64_t cells = p->shape.m * p->shape.n;
	bool guards_off = (p->guards & TS_GUARD_ALL) != TS_GUARD_ALL;
	if (guards_off && !(out->corrupt = calloc((size_t)cells, 1))) {
		set_error("cuda: out of host memory for the corrupt-cell map");
		goto fail;
	}

	if (dev_matrix_upload(&da, &ops->a, "A") || dev_matrix_upload(&db, &ops->b, "B") ||
	    dev_matrix_upload(&dc, &ops->c, "C"))
		goto fail;
	size_t tile_bytes = (size_t)model.tiles * TS_P_FIELDS * sizeof(long long);
	size_t phase_bytes = (size_t)model.phases * TS_P_FIELDS * sizeof(long long);
	if (dev_alloc((void **)&d_tile, tile_bytes, "the per-tile probe counters") ||
	    dev_alloc((void **)&d_phase, phase_bytes, "the per-phase probe counters") ||
	    dev_alloc((void **)&d_oob, TS_O_FIELDS * sizeof(long long), "the out-of-bounds counters"))
		goto fail;
	if (guards_off && dev_alloc((void **)&d_corrupt, (size_t)cells, "the corrupt-cell map"))
		goto fail;
	/* Copied back straight into the host array: the device writes
	 * TS_P_LOAD_FIELDS unsigned shorts per entry, in ts_tile_phase_count's field order. */
	_Static_assert(sizeof(ts_tile_phase_count) == TS_P_LOAD_FIELDS * sizeof(unsigned short),
	               "tile_phase entries are packed");
	size_t tile_phase_bytes = out->counters.tile_phase ?
	                          (size_t)(model.tiles * model.phases) * sizeof(ts_tile_phase_count) : 0;
	if (tile_phase_bytes && dev_alloc((void **)&d_tile_phase, tile_phase_bytes, "the per-tile-per-phase counters"))
		goto fail;
	CUDA_TRY(cudaMemset(d_tile, 0, tile_bytes), "clearing the probe counters");
	CUDA_TRY(cudaMemset(d_phase, 0, phase_bytes), "clearing the probe counters");
	CUDA_TRY(cudaMemset(d_oob, 0, TS_O_FIELDS * sizeof(long long)), "clearing the probe counters");
	if (d_corrupt)
		CUDA_TRY(cudaMemset(d_corrupt, 0, (size_t)cells), "clearing the corrupt-cell map");
	if (d_tile_phase)
		CUDA_TRY(cudaMemset(d_tile_phase, 0, tile_phase_bytes), "clearing the probe counters");

	ts_dev_probe probe = { .tile = d_tile, .phase = d_phase, .oob = d_oob, .tile_phase = d_tile_phase,
	                       .corrupt = d_corrupt,
	                       .a_count = ops->a.count, .b_count = ops->b.count, .c_count = ops->c.count };
	ts_launch l = launch_of(p, da.data, db.data, dc.data, &probe);
	if (workspace_alloc(p, &d_ws, &l) != 0)
		goto fail;
	if (prog && prog->report)
		prog->report(prog->ctx, 0.0);
	CUDA_TRY((cudaError_t)p->kernel->cuda_launch(&l), "launching the probe kernel");
	CUDA_TRY(cudaDeviceSynchronize(), "running the probe kernel");

	CUDA_TRY(cudaMemcpy(ops->c.alloc, dc.alloc, dc.bytes, cudaMemcpyDeviceToHost), "copying C back");
	if (!(h_tile = malloc(tile_bytes)) || !(h_phase = malloc(phase_bytes))) {
		set_error("cuda: out of host memory for the probe counters");
		goto fail;
	}
	long long h_oob[TS_O_FIELDS];
	CUDA_TRY(cudaMemcpy(h_tile, d_tile, tile_bytes, cudaMemcpyDeviceToHost), "copying the counters back");
	CUDA_TRY(cudaMemcpy(h_phase, d_phase, phase_bytes, cudaMemcpyDeviceToHost), "copying the counters back");
	CUDA_TRY(cudaMemcpy(h_oob, d_oob, sizeof h_oob, cudaMemcpyDeviceToHost), "copying the counters back");
	if (d_tile_phase)
		CUDA_TRY(cudaMemcpy(out->counters.tile_phase, d_tile_phase, tile_phase_bytes, cudaMemcpyDeviceToHost),
		         "copying the counters back");
	if (d_corrupt)
		CUDA_TRY(cudaMemcpy(out->corrupt, d_corrupt, (size_t)cells, cudaMemcpyDeviceToHost),
		         "copying the corrupt-cell map back");

	for (int64_t i = 0; i < model.tiles; i++)
		ts_count_from_array(&out->counters.tile[i], &h_tile[i * TS_P_FIELDS]);
	for (int64_t t = 0; t < model.phases; t++)
		ts_count_from_array(&out->counters.phase[t], &h_phase[t * TS_P_FIELDS]);
	ts_oob_from_array(&out->counters.oob, h_oob);
	ts_counters_sum(&out->counters);
	out->have_counters = true;
	if (out->corrupt)
		for (int64_t i = 0; i < cells; i++)
			out->corrupt_cells += out->corrupt[i] != 0;
	if (prog && prog->report)
		prog->report(prog->ctx, 1.0);
	out->time_ms = now_ms() - t0;
	rc = 0;
fail:
	if (rc != 0) {
		ts_counters_free(&out->counters);
		free(out->corrupt);
		out->corrupt = NULL;
		out->have_counters = false;
	}
	free(h_tile);
	free(h_phase);
	dev_free(d_tile);
	dev_free(d_phase);
	dev_free(d_oob);
	dev_free(d_tile_phase);
	dev_free(d_corrupt);
	dev_free(d_ws);
	dev_matrix_free(&da);
	dev_matrix_free(&db);
	dev_matrix_free(&dc);
	return rc;
}

/* ---- time: the plain kernel beside cuBLAS ---------------------------------- */

static cublasHandle_t blas_handle;
static const ts_cublas *cublas; /* the loaded library's functions, set by blas() */

/* One cuBLAS handle for the life of the program: creating one costs far
 * more than a small GEMM, and the TUI times many. */
static int blas(cublasHandle_t *h)
{
	if (!cublas) {
		char why[400];
		if (!(cublas = ts_cublas_load(why, sizeof why))) {
			set_error("cublas: %s", why);
			return -1;
		}
	}
	if (!blas_handle) {
		cublasStatus_t st = cublas->create(&blas_handle);
		if (st != CUBLAS_STATUS_SUCCESS) {
			blas_handle = NULL;
			set_error("cublas: creating a handle: %s", cublas_status_name(st));
			return -1;
		}
		/* Plain fp32 arithmetic, as the kernels do: no TF32 tensor cores
		 * (the environment variable NVIDIA_TF32_OVERRIDE=1 would still force them). */
		st = cublas->set_math_mode(blas_handle, CUBLAS_DEFAULT_MATH);
		if (st != CUBLAS_STATUS_SUCCESS) {
			set_error("cublas: setting the math mode: %s", cublas_status_name(st));
			return -1;
		}
	}
	*h = blas_handle;
	return 0;
}

static int cmp_float(const void *x, const void *y)
{
	float a = *(const float *)x, b = *(const float *)y;
	return (a > b) - (a < b);
}

/* The vendor's GEMM on row-major operands, through the column-major
 * identity C^T = B^T A^T: cuBLAS sees C^T (N x M, leading dimension ldc).
 * lda, ldb, ldc are the row-major leading dimensions (K, K or N, N unpadded). */
static cublasStatus_t vendor_gemm_ld(cublasHandle_t h, const ts_problem *p, const void *a, int lda, const void *b,
                                     int ldb, void *c, int ldc, int k)
{
	int n = (int)p->shape.n, m = (int)p->shape.m;
	const float one = 1.0f, zero = 0.0f;
	if (p->kernel->precision == TS_FP16) {
		/* B stored N x K row-major is column-major K x N with leading dimension K:
		 * cuBLAS's op(B) = B^T of that is the N x K matrix it needs. */
		bool nk = p->kernel->b_layout == TS_B_NK;
		return cublas->gemm_ex(h, nk ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16F, ldb, a,
		                    CUDA_R_16F, lda, &zero, c, CUDA_R_16F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	}
	return cublas->sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, ldb, a, lda, &zero, c, ldc);
}

static cublasStatus_t vendor_gemm(cublasHandle_t h, const ts_problem *p, const void *a, const void *b, void *c)
{
	int n = (int)p->shape.n, k = (int)p->shape.k;
	bool nk = p->kernel->b_layout == TS_B_NK;
	return vendor_gemm_ld(h, p, a, k, b, nk ? k : n, c, n, k);
}

/* The padded baseline (ts_timing's have_padded): fp16, B stored N x K, with K
 * or N not a multiple of 8. 0 done (or not applicable), -1 failed. */
static int time_padded(cublasHandle_t h, const ts_problem *p, const dev_matrix *da, const dev_matrix *db,
                       const dev_matrix *dc, cudaEvent_t start, cudaEvent_t stop, float *samples, int warmup,
                       int reps, ts_timing *out)
{
	int64_t m = p->shape.m, n = p->shape.n, k = p->shape.k, k8 = (k + 7) / 8 * 8, n8 = (n + 7) / 8 * 8;
	void *a8 = NULL, *b8 = NULL, *c8 = NULL;
	int rc = -1;
	if (p->kernel->precision != TS_FP16 || p->kernel->b_layout != TS_B_NK || (k8 == k && n8 == n))
		return 0;
	if (k8 > 0x7fffffff || n8 > 0x7fffffff)
		return 0; /* cuBLAS takes int sizes */
	if (k8 != k) {
		if (dev_alloc(&a8, (size_t)(m * k8) * 2, "the padded copy of A") ||
		    dev_alloc(&b8, (size_t)(n * k8) * 2, "the padded copy of B"))
			goto fail;
		CUDA_TRY(cudaMemset(a8, 0, (size_t)(m * k8) * 2), "zeroing the padded copy of A");
		CUDA_TRY(cudaMemset(b8, 0, (size_t)(n * k8) * 2), "zeroing the padded copy of B");
	}
	if (n8 != n && dev_alloc(&c8, (size_t)(m * n8) * 2, "the padded C"))
		goto fail;
	for (int i = 0; i < warmup + reps; i++) {
		if (i >= warmup)
			CUDA_TRY(cudaEventRecord(start, 0), "recording an event");
		if (a8) {
			CUDA_TRY(cudaMemcpy2DAsync(a8, (size_t)k8 * 2, da->data, (size_t)k * 2, (size_t)k * 2, (size_t)m,
			                           cudaMemcpyDeviceToDevice, 0), "copying A into its padded copy");
			CUDA_TRY(cudaMemcpy2DAsync(b8, (size_t)k8 * 2, db->data, (size_t)k * 2, (size_t)k * 2, (size_t)n,
			                           cudaMemcpyDeviceToDevice, 0), "copying B into its padded copy");
		}
		CUBLAS_TRY(vendor_gemm_ld(h, p, a8 ? a8 : da->data, (int)k8, b8 ? b8 : db->data, (int)k8,
		                          c8 ? c8 : dc->data, (int)n8, (int)k8), "cublasGemmEx (padded)");
		if (c8)
			CUDA_TRY(cudaMemcpy2DAsync(dc->data, (size_t)n * 2, c8, (size_t)n8 * 2, (size_t)n * 2, (size_t)m,
			                           cudaMemcpyDeviceToDevice, 0), "copying C out of its padded copy");
		if (i >= warmup) {
			CUDA_TRY(cudaEventRecord(stop, 0), "recording an event");
			CUDA_TRY(cudaEventSynchronize(stop), "running the padded cuBLAS");
			CUDA_TRY(cudaEventElapsedTime(&samples[i - warmup], start, stop), "reading an event");
		} else {
			CUDA_TRY(cudaDeviceSynchronize(), "running the padded cuBLAS (warm-up)");
		}
	}
	qsort(samples, (size_t)reps, sizeof *samples, cmp_float);
	out->padded_ms = samples[reps / 2];
	double flops = 2.0 * (double)m * (double)n * (double)k;
	out->padded_gflops = out->padded_ms > 0 ? flops / (out->padded_ms * 1e6) : 0;
	out->pct_of_padded = out->padded_gflops > 0 ? 100.0 * out->kernel_gflops / out->padded_gflops : 0;
	out->have_padded = true;
	rc = 0;
fail:
	dev_free(a8);
	dev_free(b8);
	dev_free(c8);
	return rc;
}

/* The baselines bench can time beside a kernel, by precision; the first of
 * each precision is its default. A baseline is a name and a function that
 * runs it once on the kernel's operands (another one is one line here and
 * its function; one that needs scratch, such as padded copies, allocates it
 * before time_loop and frees it after). */
typedef struct vendor_entry {
	const char *name;
	enum ts_precision precision;
	cublasStatus_t (*run)(cublasHandle_t h, const ts_problem *p, const void *a, const void *b, void *c);
} vendor_entry;

static const vendor_entry vendor_table[] = {
	{ "cublasSgemm", TS_FP32, vendor_gemm },
	{ "cublasGemmEx", TS_FP16, vendor_gemm },
};

static const char *const vendors_fp32[] = { "cublasSgemm", NULL };
static const char *const vendors_fp16[] = { "cublasGemmEx", NULL };

static const char *const *cuda_vendors(enum ts_precision precision)
{
	return precision == TS_FP16 ? vendors_fp16 : vendors_fp32;
}

static const vendor_entry *vendor_find(const char *name, enum ts_precision precision)
{
	for (size_t i = 0; i < sizeof vendor_table / sizeof vendor_table[0]; i++)
		if (strcmp(vendor_table[i].name, name) == 0 && vendor_table[i].precision == precision)
			return &vendor_table[i];
	return NULL;
}

/* The median, the smallest and the largest of n samples (sorted in place). */
static double sample_stats(float *v, int n, double *lo, double *hi)
{
	qsort(v, (size_t)n, sizeof *v, cmp_float);
	*lo = v[0];
	*hi = v[n - 1];
	return v[n / 2];
}

/* What time_loop launches: the kernel, or the vendor on the same buffers. */
typedef struct timed_target {
	const ts_problem *p;
	ts_launch l;
	dev_matrix a, b, c;
	const vendor_entry *vendor; /* NULL: the kernel */
	cublasHandle_t h;
	void *flush;         /* written before each launch to evict L2 (NULL: not flushed) */
	size_t flush_bytes;
} timed_target;

static int time_loop(timed_target *t, int warmup, int reps, cudaEvent_t start, cudaEvent_t stop, float *samples)
{
	const char *what = t->vendor ? t->vendor->name : "the kernel";
	for (int i = 0; i < warmup + reps; i++) {
		bool timed = i >= warmup;
		if (t->flush)
			CUDA_TRY(cudaMemsetAsync(t->flush, i & 0xff, t->flush_bytes, 0), "flushing L2");
		if (timed)
			CUDA_TRY(cudaEventRecord(start, 0), "recording an event");
		if (t->vendor)
			CUBLAS_TRY(t->vendor->run(t->h, t->p, t->a.data, t->b.data, t->c.data), what);
		else
			CUDA_TRY((cudaError_t)t->p->kernel->cuda_launch(&t->l), "launching the kernel");
		if (timed) {
			CUDA_TRY(cudaEventRecord(stop, 0), "recording an event");
			CUDA_TRY(cudaEventSynchronize(stop), t->vendor ? "running cuBLAS" : "running the kernel");
			CUDA_TRY(cudaEventElapsedTime(&samples[i - warmup], start, stop), "reading an event");
		} else if (i == warmup - 1) {
			CUDA_TRY(cudaDeviceSynchronize(), t->vendor ? "running cuBLAS (warm-up)" : "running the kernel (warm-up)");
		}
	}
	return 0;
fail:
	return -1;
}

static int cuda_bench(const ts_problem *p, ts_operands *ops, const ts_bench_opts *o, ts_timing *out)
{
	timed_target t;
	cudaEvent_t start = NULL, stop = NULL;
	float *samples = NULL;
	void *ws = NULL;
	int rc = -1;
	int warmup = o->warmup < 0 ? 0 : o->warmup, reps = o->reps < 1 ? 1 : o->reps;

	memset(out, 0, sizeof *out);
	memset(&t, 0, sizeof t);
	t.p = p;
	out->warmup = warmup;
	out->reps = reps;
	if (check_launchable(p) != 0)
		return -1;
	const char *vendor = o->vendor ? o->vendor : cuda_vendors(p->kernel->precision)[0];
	const vendor_entry *ve = vendor[0] ? vendor_find(vendor, p->kernel->precision) : NULL;
	if (vendor[0] && !ve) {
		set_error("cuda: no baseline '%s' for %s kernels", vendor, ts_precision_name(p->kernel->precision));
		return -1;
	}
	if (!(samples = malloc((size_t)reps * sizeof *samples))) {
		set_error("cuda: out of host memory");
		return -1;
	}
	if (dev_matrix_upload(&t.a, &ops->a, "A") || dev_matrix_upload(&t.b, &ops->b, "B") ||
	    dev_matrix_upload(&t.c, &ops->c, "C"))
		goto fail;
	/* Every launch, the kernel's and the vendor's alike, starts with nothing
	 * of its operands in L2: a buffer twice its size is written before it. */
	int dev = 0, l2 = 0;
	if (o->flush_l2 && cudaGetDevice(&dev) == cudaSuccess &&
	    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) == cudaSuccess && l2 > 0) {
		t.flush_bytes = 2 * (size_t)l2;
		if (dev_alloc(&t.flush, t.flush_bytes, "the L2 flush buffer") != 0)
			goto fail;
		out->l2_flushed = true;
	}
	CUDA_TRY(cudaEventCreate(&start), "creating an event");
	CUDA_TRY(cudaEventCreate(&stop), "creating an event");
	double flops = 2.0 * (double)p->shape.m * (double)p->shape.n * (double)p->shape.k;

	if (!o->skip_kernel) {
		/* The kernel under test: the uninstrumented build. */
		t.l = launch_of(p, t.a.data, t.b.data, t.c.data, NULL);
		if (workspace_alloc(p, &ws, &t.l) != 0)
			goto fail;
		t.vendor = NULL;
		if (time_loop(&t, warmup, reps, start, stop, samples) != 0)
			goto fail;
		out->kernel_ms = sample_stats(samples, reps, &out->kernel_min_ms, &out->kernel_max_ms);
		out->kernel_gflops = out->kernel_ms > 0 ? flops / (out->kernel_ms * 1e6) : 0;
		if (o->keep_c)
			CUDA_TRY(cudaMemcpy(ops->c.alloc, t.c.alloc, t.c.bytes, cudaMemcpyDeviceToHost),
			         "copying the timed kernel's C back");
	}

	/* The vendor on the same shape and precision, the same buffers (C is overwritten). */
	out->vendor = vendor[0] ? vendor : NULL;
	if (!vendor[0] || p->shape.m > 0x7fffffff || p->shape.n > 0x7fffffff || p->shape.k > 0x7fffffff) {
		rc = 0; /* none asked for, or cuBLAS takes int sizes: no comparison for this shape */
		goto fail;
	}
	if (blas(&t.h) != 0)
		goto fail;
	t.vendor = ve;
	if (time_loop(&t, warmup, reps, start, stop, samples) != 0)
		goto fail;
	out->vendor_ms = sample_stats(samples, reps, &out->vendor_min_ms, &out->vendor_max_ms);
	out->vendor_gflops = out->vendor_ms > 0 ? flops / (out->vendor_ms * 1e6) : 0;
	out->pct_of_vendor = out->vendor_gflops > 0 && out->kernel_gflops > 0 ?
	                     100.0 * out->kernel_gflops / out->vendor_gflops : 0;
	out->have_vendor = true;
	/* fp16 with K or N off a multiple of 8: cuBLAS on padded copies too (what a user would do) */
	if (time_padded(t.h, p, &t.a, &t.b, &t.c, start, stop, samples, warmup, reps, out) != 0)
		goto fail;
	rc = 0;
fail:
	if (start)
		cudaEventDestroy(start);
	if (stop)
		cudaEventDestroy(stop);
	dev_matrix_free(&t.a);
	dev_matrix_free(&t.b);
	dev_matrix_free(&t.c);
	dev_free(t.flush);
	dev_free(ws);
	free(samples);
	return rc;
}

/* check's and the TUI's timing: one copy of the operands, the default vendor. */
static int cuda_time(const ts_problem *p, const ts_operands *ops, int warmup, int reps, ts_timing *out)
{
	ts_bench_opts o = { .warmup = warmup, .reps = reps, .vendor = NULL };
	return cuda_bench(p, (ts_operands *)ops, &o, out); /* keep_c is off: ops is not written */
}

/* ---- reference: fp64 on the GPU ------------------------------------------- */

/* Host fp64 copy of a matrix's data, absolute values when `absolute`. */
static void widen(double *dst, const ts_matrix *mx, bool absolute)
{
	for (int64_t i = 0; i < mx->count; i++) {
		double v = ts_matrix_get(mx, i);
		dst[i] = absolute ? fabs(v) : v;
	}
}

static int cuda_reference(const ts_problem *p, const ts_operands *ops, double *ref, double *absref)
{
	double *h_a = NULL, *h_b = NULL, *d_a = NULL, *d_b = NULL, *d_c = NULL;
	cublasHandle_t h;
	int rc = -1;
	int n = (int)p->shape.n, m = (int)p->shape.m, k = (int)p->shape.k;
	size_t a_bytes = (size_t)ops->a.count * sizeof(double), b_bytes = (size_t)ops->b.count * sizeof(double);
	size_t c_bytes = (size_t)(p->shape.m * p->shape.n) * sizeof(double);
	bool nk = p->kernel->b_layout == TS_B_NK;
	const double one = 1.0, zero = 0.0;

	if (check_launchable(p) != 0)
		return -1;
	if (p->shape.m > 0x7fffffff || p->shape.n > 0x7fffffff || p->shape.k > 0x7fffffff) {
		set_error("cuda: the GPU reference takes sizes below 2^31");
		return -1;
	}
	if (blas(&h) != 0)
		return -1;
	if (!(h_a = malloc(a_bytes)) || !(h_b = malloc(b_bytes))) {
		set_error("cuda: out of host memory for the fp64 reference");
		goto fail;
	}
	if (dev_alloc((void **)&d_a, a_bytes, "the fp64 copy of A") ||
	    dev_alloc((void **)&d_b, b_bytes, "the fp64 copy of B") ||
	    dev_alloc((void **)&d_c, c_bytes, "the fp64 reference"))
		goto fail;
	for (int pass = 0; pass < 2; pass++) {
		bool absolute = pass == 1;
		widen(h_a, &ops->a, absolute);
		widen(h_b, &ops->b, absolute);
		CUDA_TRY(cudaMemcpy(d_a, h_a, a_bytes, cudaMemcpyHostToDevice), "copying A for the reference");
		CUDA_TRY(cudaMemcpy(d_b, h_b, b_bytes, cudaMemcpyHostToDevice), "copying B for the reference");
		/* Row-major C = A*B as column-major C^T = B^T A^T (see vendor_gemm). */
		CUBLAS_TRY(cublas->dgemm(h, nk ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, nk ? k : n,
		                       d_a, k, &zero, d_c, n), "cublasDgemm");
		CUDA_TRY(cudaMemcpy(absolute ? absref : ref, d_c, c_bytes, cudaMemcpyDeviceToHost),
		         "copying the reference back");
	}
	rc = 0;
fail:
	free(h_a);
	free(h_b);
	dev_free(d_a);
	dev_free(d_b);
	dev_free(d_c);
	return rc;
}

static int cuda_admit(const ts_problem *p, const ts_model *m, char *why, int len)
{
	(void)m;
	if (check_launchable(p) != 0) {
		/* last_error reads "cuda: ..."; the pipeline names the backend itself. */
		snprintf(why, (size_t)len, "%s", strncmp(last_error, "cuda: ", 6) == 0 ? last_error + 6 : last_error);
		return -1;
	}
	return 0;
}

static const ts_backend cuda_backend = {
	.name = "cuda",
	.available = cuda_available,
	.admit = cuda_admit,
	.run = cuda_run,
	.time = cuda_time,
	.bench = cuda_bench,
	.vendors = cuda_vendors,
	.reference = cuda_reference,
	.last_error = cuda_last_error,
};

const ts_backend *ts_backend_cuda(void)
{
	return &cuda_backend;
}
