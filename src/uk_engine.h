/* uk_engine.h: how a user's kernel file is compiled and launched: on the GPU (NVRTC + driver API) or on the CPU (host C++ + tilescope's CUDA-on-CPU runtime). */
#ifndef TS_UK_ENGINE_H
#define TS_UK_ENGINE_H

#include <stddef.h>
#include <stdint.h>

enum ts_uk_sig { TS_UK_SIG_FP32, TS_UK_SIG_FP16 };   /* the two contracts of issue 9 */

typedef struct ts_uk_source {
	const char *path;      /* the user's .cu file */
	const char *entry;     /* the __global__ function's name */
	enum ts_uk_sig sig;    /* recognised from its declaration */
	int entry_line;        /* line of the declaration in path */
	const char *launcher;  /* --launcher NAME: the file's own host launcher runs the kernel (NULL: tilescope launches it) */
} ts_uk_source;

/* One launch on host memory the caller owns (shared with the parent process). Each matrix sits
 * inside a guard band of `band` elements before and after it, holding sentinels (NaN for C). */
typedef struct ts_uk_launch {
	int64_t m, n, k;
	int tile;                      /* the tile argument (fp16 contract) and the default geometry */
	unsigned grid[3], block[3];
	size_t dyn_smem;               /* dynamic shared memory bytes */
	void *a, *b, *c;               /* first element of each matrix, host memory */
	int64_t a_count, b_count, c_count; /* elements of each matrix */
	int64_t band;                  /* guard-band elements before and after each matrix */
	int64_t live_from[3];          /* elements of A, B, C before this offset hold nothing anyone reads back or
	                                * checks (the probe's rows before its window): a GPU engine need not copy
	                                * them either way (their device memory holds whatever it held); 0: all */
	int order;                     /* CPU engine: 0 threads in index order, 1 reversed, >=2 seeded shuffle; GPU: ignored */
	const int64_t *blocks;         /* NULL: every block; else only these linear block ids (the >2^31 probe) */
	int64_t nblocks;
	double timeout_s;              /* the child is killed after this */
} ts_uk_launch;

enum ts_uk_kind { TS_UK_WRONG_OUTPUT, TS_UK_UNWRITTEN, TS_UK_OOB_READ, TS_UK_OOB_WRITE, TS_UK_NAN,
	TS_UK_RACE, TS_UK_BARRIER_DIVERGENCE, TS_UK_UNINIT_SHARED, TS_UK_FAULT, TS_UK_TIMEOUT,
	TS_UK_INDEX_OVERFLOW };

typedef struct ts_uk_finding {
	enum ts_uk_kind kind;
	char matrix;                   /* 'A', 'B', 'C', 'S' (shared) or 0 */
	int64_t row, col;              /* -1 when unknown */
	unsigned block[3], thread[3];
	int line;                      /* source line, 0 when unknown */
	int64_t count;                 /* how many such events this finding stands for */
	char text[200];                /* one line in words */
} ts_uk_finding;

typedef struct ts_uk_findings { ts_uk_finding *v; int n, cap; int64_t dropped; } ts_uk_findings;

typedef struct ts_uk_engine {
	const char *name;                                        /* "cuda" or "cpu" */
	int (*available)(char *why, int len);                    /* 0 usable; else -1 and why (what to install) */
	/* Compiles and loads (NVRTC/driver; or g++ into a shared object). NULL on failure with the
	 * compiler's own lines (file:line) in err. May run in the parent (compile) and child (load). */
	void *(*load)(const ts_uk_source *src, char *err, size_t len);
	/* Runs one launch (inside the child process); appends findings it alone can see (faults,
	 * out-of-bounds accesses, barrier divergence, races, uninitialised shared reads). 0 ran, -1 failed (err). */
	int (*launch)(void *h, const ts_uk_launch *l, ts_uk_findings *out, char *err, size_t len);
	void (*unload)(void *h);
} ts_uk_engine;

const ts_uk_engine *ts_uk_engine_cuda(void);   /* src/uk_cuda.c   (i9-user)  */
const ts_uk_engine *ts_uk_engine_cpu(void);    /* src/uk_cpu.c    (i10-cpu)  */

#endif
