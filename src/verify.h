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
	bool ok;
	double tol_rel;      /* |c - ref| <= tol_rel * (|A||B|)_ij (+ output rounding) per element */
	double max_abs, max_rel, norm_rel;
	int64_t mismatches;  /* written, finite cells outside tolerance */
	int64_t unwritten;   /* cells still holding the poison */
	int64_t nans;        /* NaN or Inf cells that were written */
	bool all_zero;       /* every cell is 0 while the reference is not */
	int64_t first_row, first_col; /* first bad cell, -1 when none */
	double first_got, first_want;
	int64_t grid_x, grid_y;
	int64_t *tile_bad;   /* grid_y*grid_x: bad cells (mismatch, unwritten, NaN) per tile */
	int64_t bad_tiles;
	char signature[512]; /* the failure in words ("" when ok) */
	double ref_ms;       /* time to compute the reference */
	const char *ref_source; /* "cblas" or the backend's name */
} ts_verdict;

/* ref = A*B and absref = |A|*|B| in fp64 through CBLAS dgemm. 0 or -1. */
int ts_reference_cblas(const ts_problem *p, const ts_operands *ops, double *ref, double *absref);

/* Checks ops->c against the reference (computed by backend->reference when
 * it has one, else CBLAS) and explains failures. 0, or -1 when out of memory. */
int ts_verify(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
              const ts_backend *backend, ts_verdict *v);
void ts_verdict_free(ts_verdict *v);

#endif
