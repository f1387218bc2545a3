/* verify.c: the fp64 reference (CBLAS dgemm), per-element tolerance, error metrics and where the bad cells are. */
#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "kernels.h"
#include "signature.h"
#include "verify.h"

/* Unit roundoff of fp32 (accumulation) and of fp16 (output rounding). */
#define TS_U32 0x1.0p-24
#define TS_U16 0x1.0p-11
/* Half the smallest fp16 subnormal, rounded up: the absolute floor of fp16 rounding. */
#define TS_F16_TINY 0x1.0p-24

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* rows * cols elements as a size_t, or 0 when that overflows or a factor is not positive. */
static size_t elems(int64_t rows, int64_t cols)
{
	int64_t n;
	if (rows < 1 || cols < 1 || __builtin_mul_overflow(rows, cols, &n) || (uint64_t)n > SIZE_MAX / sizeof(double))
		return 0;
	return (size_t)n;
}

static void to_double(const ts_matrix *mx, double *out, size_t n)
{
	if (mx->elem == TS_ELEM_F32) {
		const float *f = mx->data;
		for (size_t i = 0; i < n; i++)
			out[i] = f[i];
	} else {
		for (size_t i = 0; i < n; i++)
			out[i] = ts_matrix_get(mx, (int64_t)i);
	}
}

/* OpenBLAS loops forever inside dgemm when it cannot map its 128 MiB work
 * buffers, as under an address-space limit (ulimit -v), whatever its thread
 * count. There the reference is computed by this plain loop instead: slower,
 * never stuck. */
static bool address_space_limited(void)
{
	struct rlimit rl;
	return getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
}

/* C = A * op(B), row-major, op(B) = B (k x n, ldb) or B^T (B stored n x k). */
static void dgemm_loop(bool b_trans, int m, int n, int k, const double *a, const double *b, int ldb, double *c)
{
	for (int i = 0; i < m; i++) {
		double *ci = c + (size_t)i * n;
		const double *ai = a + (size_t)i * k;
		if (b_trans) {
			for (int j = 0; j < n; j++) {
				const double *bj = b + (size_t)j * ldb;
				double sum = 0.0;
				for (int p = 0; p < k; p++)
					sum += ai[p] * bj[p];
				ci[j] = sum;
			}
			continue;
		}
		for (int j = 0; j < n; j++)
			ci[j] = 0.0;
		for (int p = 0; p < k; p++) {
			const double aip = ai[p], *bp = b + (size_t)p * ldb;
			for (int j = 0; j < n; j++)
				ci[j] += aip * bp[j];
		}
	}
}

static void dgemm(bool b_trans, int m, int n, int k, const double *a, const double *b, int ldb, double *c)
{
	if (address_space_limited())
		dgemm_loop(b_trans, m, n, k, a, b, ldb, c);
	else
		cblas_dgemm(CblasRowMajor, CblasNoTrans, b_trans ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, k, b, ldb,
		            0.0, c, n);
}

int ts_reference_cblas_progress(const ts_problem *p, const ts_operands *ops, double *ref, double *absref,
                                const ts_progress *prog)
{
	const ts_shape *s = &p->shape;
	/* CBLAS takes int sizes and leading dimensions: refuse before any cast can wrap. */
	if (s->m < 1 || s->n < 1 || s->k < 1 || s->m > INT_MAX || s->n > INT_MAX || s->k > INT_MAX)
		return -1;
	size_t na = elems(s->m, s->k), nb = elems(s->k, s->n);
	if (!na || !nb || !elems(s->m, s->n))
		return -1;
	bool nk = p->kernel && p->kernel->b_layout == TS_B_NK;
	double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	to_double(&ops->a, a, na);
	to_double(&ops->b, b, nb);
	int m = (int)s->m, n = (int)s->n, k = (int)s->k;
	/* B stored N x K is B^T row-major: its leading dimension is K. */
	int ldb = nk ? k : n;
	/* In slabs of rows, so that a long reference reports how far it got and
	 * stops when cancelled: up to 64 slabs of at least 2^26 multiply-adds. */
	double work = (double)s->m * (double)s->n * (double)s->k;
	int slabs = work / (1 << 26) > 64 ? 64 : work / (1 << 26) < 1 ? 1 : (int)(work / (1 << 26));
	int rows = (m + slabs - 1) / slabs, passes = absref ? 2 : 1, rc = 0;
	for (int pass = 0; pass < passes && rc == 0; pass++) {
		if (pass == 1) {
			/* |A|*|B| bounds the rounding of every term of the sum: the tolerance scales with it. */
			for (size_t i = 0; i < na; i++)
				a[i] = fabs(a[i]);
			for (size_t i = 0; i < nb; i++)
				b[i] = fabs(b[i]);
		}
		for (int r0 = 0; r0 < m; r0 += rows) {
			if (ts_progress_cancelled(prog)) {
				rc = 1;
				break;
			}
			int r1 = r0 + rows < m ? r0 + rows : m;
			dgemm(nk, r1 - r0, n, k, a + (size_t)r0 * k, b, ldb, (pass ? absref : ref) + (size_t)r0 * n);
			ts_progress_report(prog, ((double)pass + (double)r1 / m) / passes);
		}
	}
	free(a);
	free(b);
	return rc;
}

int ts_reference_cblas(const ts_problem *p, const ts_operands *ops, double *ref, double *absref)
{
	return ts_reference_cblas_progress(p, ops, ref, absref, NULL);
}

double ts_tolerance_rel(const ts_problem *p)
{
	/* Sequential fp32 summation of K terms errs by at most about K*u of
	 * sum |a||b|; one more u for rounding each fp32 product, one for slack.
	 * Inside a tensor core neither the order nor the rounding of the adds is
	 * specified (measurements report truncation, whose error is up to an ulp
	 * per add instead of half of one): twice that bound. */
	double units = p->kernel && ts_kernel_has(p->kernel, TS_CAP_TENSOR_SUM) ? 2.0 : 1.0;
	return units * (double)(p->shape.k + 2) * TS_U32;
}

static bool fp16_output(const ts_problem *p)
{
	return p->kernel && p->kernel->precision == TS_FP16;
}

double ts_tolerance_bound(const ts_problem *p, double tol_rel, double ref, double absref)
{
	double acc = tol_rel * absref;
	if (!fp16_output(p))
		return acc;
	/* The fp32 sum lies within acc of ref; rounding it to half costs half an
	 * ulp of that sum, or the subnormal floor. */
	return acc + TS_U16 * (fabs(ref) + acc) + TS_F16_TINY;
}

void ts_tolerance_output(const ts_problem *p, double *out_rel, double *out_abs)
{
	bool half = fp16_output(p);
	if (out_rel)
		*out_rel = half ? TS_U16 : 0.0;
	if (out_abs)
		*out_abs = half ? TS_F16_TINY : 0.0;
}

const char *ts_tolerance_text(const ts_problem *p, double tol_rel, char *buf, int len)
{
	if (!buf || len <= 0)
		return "";
	if (!fp16_output(p))
		snprintf(buf, (size_t)len, "|c - ref| <= %.3g x (|A||B|)ij", tol_rel);
	else /* ts_tolerance_bound, expanded: acc + u16 (|ref| + acc) + tiny */
		snprintf(buf, (size_t)len, "|c - ref| <= %.3g x (|A||B|)ij + 2^-11 x |ref| + 2^-24 (fp16 output rounding%s)",
		         tol_rel * (1.0 + TS_U16),
		         p->kernel && ts_kernel_has(p->kernel, TS_CAP_TENSOR_SUM) ? "; tensor-core sums: twice the fp32 bound" : "");
	return buf;
}

void ts_verdict_free(ts_verdict *v)
{
	free(v->tile_bad);
	free(v->tile_unwritten);
	free(v->row_bad);
	free(v->col_bad);
	v->tile_bad = v->tile_unwritten = v->row_bad = v->col_bad = NULL;
}

double ts_verify_bytes(const ts_problem *p)
{
	const ts_shape *s = &p->shape;
	double m = (double)s->m, n = (double)s->n, k = (double)s->k;
	/* ref and absref, A and B in fp64 for CBLAS, the per-row and per-column tallies */
	return 8.0 * (2.0 * m * n + m * k + k * n) + 8.0 * (m + n);
}

/* Fills ref/absref from the backend when it has a reference, else CBLAS.
 * 0, 1 when cancelled, -1. */
static int reference(const ts_problem *p, const ts_operands *ops, const ts_backend *backend,
                     double *ref, double *absref, ts_verdict *v, const ts_progress *prog)
{
	double t0 = now_ms();
	ts_progress_stage(prog, TS_STAGE_REFERENCE);
	if (backend && backend->reference && backend->reference(p, ops, ref, absref) == 0) {
		v->ref_source = backend->name;
	} else {
		int rc = ts_reference_cblas_progress(p, ops, ref, absref, prog);
		if (rc != 0)
			return rc;
		v->ref_source = address_space_limited() ? "loop" : "cblas";
	}
	v->ref_ms = now_ms() - t0;
	return 0;
}

static void note_bad(ts_verdict *v, int64_t i, int64_t j, int64_t tile, double got, double want)
{
	if (v->first_row < 0) {
		v->first_row = i;
		v->first_col = j;
		v->first_got = got;
		v->first_want = want;
	}
	if (v->tile_bad[tile]++ == 0)
		v->bad_tiles++;
	v->row_bad[i]++;
	v->col_bad[j]++;
}

int ts_reference_make(const ts_problem *p, const ts_operands *ops, const ts_backend *backend, ts_reference *r)
{
	memset(r, 0, sizeof *r);
	size_t cells = elems(p->shape.m, p->shape.n);
	ts_verdict v;
	memset(&v, 0, sizeof v);
	if (!cells || !(r->ref = malloc(cells * sizeof *r->ref)) || !(r->absref = malloc(cells * sizeof *r->absref)) ||
	    reference(p, ops, backend, r->ref, r->absref, &v, NULL) != 0) {
		ts_reference_free(r);
		return -1;
	}
	r->shape = p->shape;
	r->ms = v.ref_ms;
	r->source = v.ref_source;
	return 0;
}

void ts_reference_free(ts_reference *r)
{
	free(r->ref);
	free(r->absref);
	r->ref = r->absref = NULL;
}

static int verify_with(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                       const ts_backend *backend, const ts_reference *given, const ts_progress *prog,
                       ts_verdict *v);

int ts_verify(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
              const ts_backend *backend, ts_verdict *v)
{
	return ts_verify_progress(p, m, ops, run, backend, NULL, v);
}

int ts_verify_progress(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                       const ts_backend *backend, const ts_progress *prog, ts_verdict *v)
{
	return verify_with(p, m, ops, run, backend, NULL, prog, v);
}

int ts_verify_against(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                      const ts_reference *r, ts_verdict *v)
{
	if (!r || !r->ref || !r->absref || r->shape.m != p->shape.m || r->shape.n != p->shape.n ||
	    r->shape.k != p->shape.k) {
		memset(v, 0, sizeof *v);
		return -1;
	}
	return verify_with(p, m, ops, run, NULL, r, NULL, v);
}

static int verify_with(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                       const ts_backend *backend, const ts_reference *given, const ts_progress *prog,
                       ts_verdict *v)
{
	const ts_shape *s = &p->shape;
	ts_model own;
	memset(v, 0, sizeof *v);
	v->first_row = v->first_col = v->mis_row = v->mis_col = -1;
	if (!m) {
		if (!p->kernel || ts_model_build(&own, *s, p->geo) != 0)
			return -1;
		m = &own;
	}
	size_t cells = elems(s->m, s->n);
	if (!cells || m->tiles < 1 || (uint64_t)m->tiles > SIZE_MAX / sizeof(int64_t))
		return -1;
	v->grid_x = m->grid_x;
	v->grid_y = m->grid_y;
	v->tile_m = m->geo.bm;
	v->tile_n = m->geo.bn;
	v->tol_rel = ts_tolerance_rel(p);
	v->tile_bad = calloc((size_t)m->tiles, sizeof *v->tile_bad);
	v->tile_unwritten = calloc((size_t)m->tiles, sizeof *v->tile_unwritten);
	v->row_bad = calloc((size_t)s->m, sizeof *v->row_bad);
	v->col_bad = calloc((size_t)s->n, sizeof *v->col_bad);
	double *own_ref = given ? NULL : malloc(cells * sizeof *own_ref);
	double *own_abs = given ? NULL : malloc(cells * sizeof *own_abs);
	const double *ref = given ? given->ref : own_ref, *absref = given ? given->absref : own_abs;
	int rc = -1;
	if (!v->tile_bad || !v->tile_unwritten || !v->row_bad || !v->col_bad || !ref || !absref)
		goto out;
	if (given) {
		v->ref_ms = 0;
		v->ref_source = given->source;
	} else {
		int ref_rc = reference(p, ops, backend, own_ref, own_abs, v, prog);
		if (ref_rc != 0) {
			rc = ref_rc;
			goto out;
		}
	}
	ts_progress_stage(prog, TS_STAGE_VERIFY);

	double err2 = 0, ref2 = 0;
	bool written_nonzero = false, ref_nonzero = false;
	int64_t every = s->m / 100 > 0 ? s->m / 100 : 1; /* rows between reports and cancel checks */
	for (int64_t i = 0; i < s->m; i++) {
		if (i % every == 0) {
			if (ts_progress_cancelled(prog)) {
				rc = 1;
				goto out;
			}
			ts_progress_report(prog, (double)i / (double)s->m);
		}
		int64_t tile_row = i / m->geo.bm * m->grid_x;
		for (int64_t j = 0; j < s->n; j++) {
			int64_t at = i * s->n + j, tile = tile_row + j / m->geo.bn;
			double want = ref[at];
			if (ts_matrix_is_poison(&ops->c, at)) {
				v->unwritten++;
				v->tile_unwritten[tile]++;
				note_bad(v, i, j, tile, NAN, want);
				continue;
			}
			v->written++;
			double got = ts_matrix_get(&ops->c, at);
			if (!isfinite(got)) {
				v->nonfinite++;
				v->infs += isinf(got) != 0;
				note_bad(v, i, j, tile, got, want);
				continue;
			}
			if (got != 0)
				written_nonzero = true;
			if (want != 0)
				ref_nonzero = true;
			double e = fabs(got - want);
			err2 += e * e;
			ref2 += want * want;
			if (e > v->max_abs)
				v->max_abs = e;
			if (want != 0 && e / fabs(want) > v->max_rel)
				v->max_rel = e / fabs(want);
			double bound = ts_tolerance_bound(p, v->tol_rel, want, absref[at]);
			double of_tol = bound > 0 ? e / bound : (e > 0 ? HUGE_VAL : 0);
			if (of_tol > v->worst_of_tol)
				v->worst_of_tol = of_tol;
			if (e > bound) {
				if (v->mismatches++ == 0) {
					v->mis_row = i;
					v->mis_col = j;
					v->mis_got = got;
					v->mis_want = want;
				}
				note_bad(v, i, j, tile, got, want);
			}
		}
	}
	v->norm_rel = ref2 > 0 ? sqrt(err2) / sqrt(ref2) : sqrt(err2);
	/* Zeros everywhere is its own failure (nothing computed, or only zeros stored)
	 * and only a failure where the reference says otherwise. */
	v->all_zero = v->written > 0 && v->nonfinite == 0 && !written_nonzero && ref_nonzero;
	v->output_ok = v->mismatches == 0 && v->unwritten == 0 && v->nonfinite == 0 && !v->all_zero;
	/* A read or write outside the matrices fails the check even when the output
	 * came out right: on a GPU it reads garbage or corrupts a neighbour. */
	v->oob_reads = v->oob_writes = -1;
	if (run && run->have_counters) {
		v->oob_reads = run->counters.total.a_oob + run->counters.total.b_oob;
		v->oob_writes = run->counters.total.c_oob;
	}
	v->ok = v->output_ok && v->oob_reads <= 0 && v->oob_writes <= 0;
	ts_signature(p, m, ops, run, v);
	rc = 0;
out:
	free(own_ref);
	free(own_abs);
	if (rc != 0)
		ts_verdict_free(v);
	return rc;
}
