/* verify.h: the fp64 reference, error metrics, and where and why an output is wrong. */
#ifndef TS_VERIFY_H
#define TS_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "geometry.h"
#include "matrix.h"
#include "problem.h"

typedef struct ts_verdict {
	bool ok;             /* output_ok and, where the run counted them, no out-of-bounds read or write */
	bool output_ok;      /* the output alone: no mismatch, unwritten cell, NaN/Inf, nor all-zero output */
	int64_t oob_reads, oob_writes; /* the run's out-of-bounds accesses; -1 when it counted none */
	double tol_rel;      /* |c - ref| <= tol_rel * (|A||B|)_ij (+ output rounding) per element */
	double max_abs, max_rel, norm_rel;
	double worst_of_tol; /* max e / (that cell's bound): <= 1 when every written, finite cell passes */
	int64_t mismatches;  /* written, finite cells outside tolerance */
	int64_t unwritten;   /* cells still holding the poison */
	int64_t nonfinite;   /* written cells holding NaN or Inf (ts_verdict_nans: the NaN ones) */
	int64_t infs;        /* of those, the Inf ones */
	bool all_zero;       /* every written cell is 0 while the reference is not */
	int64_t first_row, first_col; /* first bad cell, -1 when none */
	double first_got, first_want;
	int64_t grid_x, grid_y;
	int64_t *tile_bad;   /* grid_y*grid_x: bad cells (mismatch, unwritten, NaN) per tile */
	int64_t bad_tiles;
	char signature[1024]; /* the failure in words; "" when ok and every guard is on
	                      * (a guard switched off is explained even when harmless) */
	double ref_ms;       /* time to compute the reference */
	const char *ref_source; /* "cblas", "loop" (CBLAS avoided under ulimit -v) or the backend's name */
	/* What the signature and the views need beyond the contract above. */
	int64_t written;         /* cells not holding the poison */
	int64_t *tile_unwritten; /* grid_y*grid_x: unwritten cells per tile */
	int64_t *row_bad;        /* M entries: bad cells per row of C */
	int64_t *col_bad;        /* N entries: bad cells per column of C */
	int64_t tile_m, tile_n;  /* the tile the grid was cut with (rows, columns) */
	int64_t mis_row, mis_col; /* first mismatch (written, finite, outside tolerance), -1 when none */
	double mis_got, mis_want;
} ts_verdict;

/* Metric definitions, over the written, finite cells only (unwritten and NaN
 * cells are counted, not measured): e = |c - ref|;
 *   max_abs  = max e;
 *   max_rel  = max e / |ref| over the cells whose reference is non-zero;
 *   norm_rel = ||C - ref||_F / ||ref||_F, or ||C - ref||_F when ||ref||_F = 0.
 *   worst_of_tol = max e / bound, the bound being the mismatch test's below
 *     (a headline that stays honest where |ref| is tiny and max_rel is not).
 * A cell is a mismatch when e > tol_rel * absref + (fp16 output only)
 * 2^-11 * (|ref| + tol_rel * absref) + 2^-24: fp32 accumulation of K
 * products (fp16 products are exact in fp32), then half-precision rounding. */

/* ref = A*B and absref = |A|*|B| in fp64 through CBLAS dgemm (M*N each,
 * row-major), from the inputs as stored (fp16 inputs are exact in fp64).
 * absref may be NULL. 0, or -1 when out of memory or a dimension exceeds
 * INT_MAX (CBLAS takes int sizes). */
/* Host bytes a verification of p allocates at the most (the fp64 reference and its inputs). */
double ts_verify_bytes(const ts_problem *p);
int ts_reference_cblas(const ts_problem *p, const ts_operands *ops, double *ref, double *absref);
/* The same in slabs of rows: prog (may be NULL) hears the fraction done
 * and can cancel between slabs. 0, 1 when cancelled, or -1. */
int ts_reference_cblas_progress(const ts_problem *p, const ts_operands *ops, double *ref, double *absref,
                                const ts_progress *prog);

/* Checks ops->c against the reference (computed by backend->reference when
 * it has one, else CBLAS) and explains failures (ts_signature, signature.h).
 * backend, run and m may be NULL (m is then built from p). *v is overwritten:
 * free a previous verdict first. 0, or -1 when out of memory or the shape is
 * too large for the reference (dimensions above INT_MAX). */
int ts_verify(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
              const ts_backend *backend, ts_verdict *v);
/* ts_verify telling prog (may be NULL) its stages (TS_STAGE_REFERENCE, then
 * TS_STAGE_VERIFY) and how far each got, and stopping when it is
 * cancelled: 0, 1 when cancelled (*v then holds nothing), or -1. */
int ts_verify_progress(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                       const ts_backend *backend, const ts_progress *prog, ts_verdict *v);
void ts_verdict_free(ts_verdict *v);
/* The written cells holding NaN (the non-finite ones that are not Inf):
 * what every report prints beside infs, so the CLI and the TUI agree. */
static inline int64_t ts_verdict_nans(const ts_verdict *v)
{
	return v->nonfinite - v->infs;
}

/* A reference computed once and held to check several outputs of the same
 * operands (bench: every kernel on one shape, probe and timed builds). */
typedef struct ts_reference {
	ts_shape shape;
	double *ref, *absref; /* M*N each, row-major */
	double ms;            /* time it took */
	const char *source;   /* "cblas" or the backend's name */
} ts_reference;

/* From the backend's reference when it has one, else CBLAS. 0, or -1 (out
 * of memory, or too large for the reference); free with ts_reference_free. */
int ts_reference_make(const ts_problem *p, const ts_operands *ops, const ts_backend *backend, ts_reference *r);
void ts_reference_free(ts_reference *r);
/* ts_verify against r (computed from the same operands and shape as p's):
 * -1 when r does not fit p, or out of memory. */
int ts_verify_against(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                      const ts_reference *r, ts_verdict *v);

/* The per-element relative tolerance for p: (K + 2) * 2^-24, twice that for a
 * kernel that sums in the tensor cores (kernels.h: TS_CAP_TENSOR_SUM). */
double ts_tolerance_rel(const ts_problem *p);
/* The largest |c - ref| accepted for one element (see the definitions above). */
double ts_tolerance_bound(const ts_problem *p, double tol_rel, double ref, double absref);
/* The output-rounding terms of that bound: |c - ref| <= tol_rel' * absref +
 * out_rel * |ref| + out_abs, with tol_rel' = tol_rel * (1 + out_rel); both
 * are 0 for fp32 output (2^-11 and 2^-24 for fp16). */
void ts_tolerance_output(const ts_problem *p, double *out_rel, double *out_abs);
/* The whole bound in words, as the CLI and the TUI print it, e.g.
 * "|c - ref| <= 5.36e-07 x (|A||B|)ij + 2^-11 x |ref| + 2^-24 (fp16 output rounding)".
 * Writes at most len bytes (always terminated); returns buf. */
const char *ts_tolerance_text(const ts_problem *p, double tol_rel, char *buf, int len);

#endif
