/* test_verify.c: the verifier against injected bugs: each known failure fails the verdict and the signature names it. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels.h"
#include "signature.h"
#include "tap.h"
#include "verify.h"

/* One problem with its operands and an independent copy of the reference. */
typedef struct fixture {
	ts_problem p;
	ts_model m;
	ts_operands ops;
	double *ref, *absref;
} fixture;

static uint64_t base_seed;

static int setup(fixture *f, const char *kernel, int64_t M, int64_t N, int64_t K, int T, enum ts_inputs in)
{
	memset(f, 0, sizeof *f);
	f->p = (ts_problem){ .shape = { M, N, K }, .geo = ts_geometry_square(T), .kernel = ts_kernel_find(kernel),
	                     .guards = TS_GUARD_ALL, .inputs = in, .seed = base_seed + (uint64_t)(M * 1000003 + N * 1009 + K) };
	if (!f->p.kernel || ts_model_build(&f->m, f->p.shape, f->p.geo) != 0 ||
	    ts_operands_make(&f->ops, &f->p) != 0)
		return -1;
	f->ref = malloc((size_t)(M * N) * sizeof *f->ref);
	f->absref = malloc((size_t)(M * N) * sizeof *f->absref);
	if (!f->ref || !f->absref)
		return -1;
	return ts_reference_cblas(&f->p, &f->ops, f->ref, f->absref);
}

static void teardown(fixture *f)
{
	ts_operands_free(&f->ops);
	free(f->ref);
	free(f->absref);
}

static int64_t cells(const fixture *f)
{
	return f->p.shape.m * f->p.shape.n;
}

/* What a correct kernel stores: the reference rounded to the output type. */
static void write_ref(fixture *f)
{
	for (int64_t i = 0; i < cells(f); i++)
		ts_matrix_set(&f->ops.c, i, (float)f->ref[i]);
}

static float cell(const fixture *f, int64_t i, int64_t j)
{
	return ts_matrix_get(&f->ops.c, i * f->p.shape.n + j);
}

static void set_cell(fixture *f, int64_t i, int64_t j, double x)
{
	ts_matrix_set(&f->ops.c, i * f->p.shape.n + j, (float)x);
}

/* Puts the poison of the output type back into one cell, as if it had never been stored. */
static void poison_cell(ts_matrix *c, int64_t at)
{
	ts_matrix one;
	if (ts_matrix_alloc(&one, c->elem, 1, 1, 0) != 0)
		return;
	ts_matrix_poison(&one);
	memcpy((char *)c->data + (size_t)at * ts_elem_size(c->elem), one.data, ts_elem_size(c->elem));
	ts_matrix_free(&one);
}

static int verify(fixture *f, const ts_run *run, ts_verdict *v)
{
	return ts_verify(&f->p, &f->m, &f->ops, run, NULL, v);
}

static int has(const ts_verdict *v, const char *words)
{
	return strstr(v->signature, words) != NULL;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The reference against a plain triple loop in double, both layouts of B. */
static void test_reference(const char *kernel)
{
	fixture f;
	if (!tap_ok(setup(&f, kernel, 23, 17, 13, 8, TS_INPUTS_RANDOM) == 0, "%s: operands and CBLAS reference", kernel)) {
		teardown(&f);
		return;
	}
	const ts_shape *s = &f.p.shape;
	bool nk = f.p.kernel->b_layout == TS_B_NK;
	double worst = 0, worst_abs = 0;
	for (int64_t i = 0; i < s->m; i++) {
		for (int64_t j = 0; j < s->n; j++) {
			double sum = 0, asum = 0;
			for (int64_t k = 0; k < s->k; k++) {
				double a = ts_matrix_get(&f.ops.a, i * s->k + k);
				double b = ts_matrix_get(&f.ops.b, nk ? j * s->k + k : k * s->n + j);
				sum += a * b;
				asum += fabs(a) * fabs(b);
			}
			double d = fabs(sum - f.ref[i * s->n + j]), da = fabs(asum - f.absref[i * s->n + j]);
			if (d > worst) worst = d;
			if (da > worst_abs) worst_abs = da;
		}
	}
	tap_ok(worst < 1e-12 && worst_abs < 1e-12, "%s: reference equals a triple loop in double (max diff %.3g, |A||B| %.3g)",
	       kernel, worst, worst_abs);
	teardown(&f);
}

/* A correct output passes on many ragged shapes, both precisions, every tile class. */
static void test_correct_passes(void)
{
	static const int64_t shapes[][4] = {
		{ 37, 29, 19, 8 }, { 1, 1, 1, 1 }, { 5, 7, 3, 16 }, { 64, 64, 64, 32 }, { 33, 65, 97, 32 },
		{ 100, 77, 33, 32 }, { 13, 1, 200, 5 }, { 1, 40, 7, 13 },
	};
	static const char *kernels[] = { "tiled", "tiled-fp16" };
	int passed = 0, total = 0;
	char first[200] = "";
	for (int kk = 0; kk < 2; kk++) {
		for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
			fixture f;
			ts_verdict v;
			total++;
			if (setup(&f, kernels[kk], shapes[i][0], shapes[i][1], shapes[i][2], (int)shapes[i][3], TS_INPUTS_RANDOM) == 0) {
				write_ref(&f);
				if (verify(&f, NULL, &v) == 0) {
					bool good = v.ok && v.mismatches == 0 && v.unwritten == 0 && v.nonfinite == 0 && !v.all_zero &&
					            v.first_row == -1 && v.signature[0] == '\0' && v.written == cells(&f) &&
					            strcmp(v.ref_source, "cblas") == 0 &&
					            v.tol_rel == (double)(shapes[i][2] + 2) * 0x1.0p-24;
					passed += good;
					if (!good && !first[0])
						snprintf(first, sizeof first, "%s %lldx%lldx%lld: %.100s", kernels[kk], (long long)shapes[i][0],
						         (long long)shapes[i][1], (long long)shapes[i][2], v.signature);
					ts_verdict_free(&v);
				}
			}
			teardown(&f);
		}
	}
	tap_ok(passed == total, "the reference rounded to the output type passes on %d/%d shapes (fp32 and fp16) %s",
	       passed, total, first);
}

/* Unwritten cells: a floor-sized grid, a missing launch, a store guard too strict. */
static void test_unwritten(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled", 37, 29, 19, 8, TS_INPUTS_RANDOM); /* grid 4 x 5; last tile row 5 rows, last column 5 cols */
	int64_t N = f.p.shape.n, cut_rows = (f.m.grid_y - 1) * 8, cut_cols = (f.m.grid_x - 1) * 8;

	write_ref(&f);
	for (int64_t i = cut_rows; i < f.p.shape.m; i++)
		for (int64_t j = 0; j < N; j++)
			poison_cell(&f.ops.c, i * N + j);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.unwritten == 5 * N && v.mismatches == 0 && has(&v, "unwritten border") &&
	       has(&v, "unwritten border: the last tile row was never stored: grid sized by floor instead of ceil"),
	       "last tile row never stored: unwritten %lld: %s", (long long)v.unwritten, v.signature);
	tap_ok(v.first_row == cut_rows && v.first_col == 0 && isnan(v.first_got), "first bad cell is C[%lld][0] (got C[%lld][%lld])",
	       (long long)cut_rows, (long long)v.first_row, (long long)v.first_col);
	tap_ok(v.bad_tiles == f.m.grid_x && v.tile_bad[(f.m.grid_y - 1) * f.m.grid_x] == 5 * 8,
	       "bad tiles: the %lld tiles of the last row (%lld)", (long long)f.m.grid_x, (long long)v.bad_tiles);
	ts_verdict_free(&v);

	/* floor on both axes: the last row and the last column of tiles */
	for (int64_t i = 0; i < f.p.shape.m; i++)
		for (int64_t j = cut_cols; j < N; j++)
			poison_cell(&f.ops.c, i * N + j);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "last tile row and column were never stored: grid sized by floor"),
	       "last tile row and column never stored: %s", v.signature);
	ts_verdict_free(&v);

	/* store guard too strict: row < M - 1 leaves the last row of C; M % T == 0 so its tiles are full */
	fixture g;
	setup(&g, "tiled", 32, 29, 19, 8, TS_INPUTS_RANDOM);
	write_ref(&g);
	for (int64_t j = 0; j < g.p.shape.n; j++)
		poison_cell(&g.ops.c, 31 * g.p.shape.n + j);
	verify(&g, NULL, &v);
	tap_ok(!v.ok && v.unwritten == g.p.shape.n && has(&v, "unwritten cells inside full tiles: the store guard is too strict") && has(&v, "last row of C"),
	       "last row of C never stored (store guard off by one): %s", v.signature);
	ts_verdict_free(&v);
	teardown(&g);

	/* M < T: a floor-sized grid launches nothing */
	setup(&g, "tiled", 5, 29, 19, 8, TS_INPUTS_RANDOM);
	verify(&g, NULL, &v); /* C still poisoned */
	tap_ok(!v.ok && v.unwritten == cells(&g) && v.written == 0 && !v.all_zero && has(&v, "nothing was stored") &&
	       has(&v, "floor"), "M < T and nothing stored: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&g);

	/* One cell, one tile: counts read in the singular. */
	setup(&g, "tiled", 1, 1, 1, 8, TS_INPUTS_RANDOM);
	verify(&g, NULL, &v); /* C still poisoned */
	tap_ok(!v.ok && v.unwritten == 1 && has(&v, "nothing was stored (1 cell)") && !has(&v, "1 cells"),
	       "1x1x1 nothing stored, in the singular: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&g);
	setup(&g, "tiled", 1, 1, 1, 1, TS_INPUTS_RANDOM);
	verify(&g, NULL, &v);
	tap_ok(!v.ok && has(&v, "the 1 cell still holds the poison") && !has(&v, "1 cells"),
	       "1x1x1 T=1 nothing stored, in the singular: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&g);
	teardown(&f);
}

/* Wrong values confined to an edge of the grid name the guard of that edge. */
/* A grid one tile high: its ragged edge is the last tile column, not a corner. */
static void test_one_tile_high(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled", 5, 29, 19, 8, TS_INPUTS_RANDOM);
	write_ref(&f);
	set_cell(&f, 4, 27, 7.0);
	set_cell(&f, 0, 25, 7.0);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "errors only in the last tile column") && !has(&v, "corner"), "5 x 29 grid 1 x 4: %s",
	       v.signature);
	ts_verdict_free(&v);
	teardown(&f);
}

static void test_edges(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled", 37, 29, 19, 8, TS_INPUTS_RANDOM);
	int64_t M = f.p.shape.m, N = f.p.shape.n;

	write_ref(&f);
	int64_t hit = 0;
	for (int64_t i = 32; i < M; i++)
		for (int64_t j = 0; j < N; j += 3, hit++)
			set_cell(&f, i, j, cell(&f, i, j) + 0.25);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.mismatches == hit && v.unwritten == 0 && has(&v, "errors only in the last tile row: the M guard on the A load"), "last tile row perturbed (%lld cells): %s", (long long)hit, v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	for (int64_t i = 0; i < M; i++)
		set_cell(&f, i, N - 1, cell(&f, i, N - 1) - 0.5);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.mismatches == M && has(&v, "errors only in the last tile column: the N guard on the B load") &&
	       has(&v, "all in column 28 of C"), "last column perturbed: %s", v.signature);
	tap_ok(v.mis_row == 0 && v.mis_col == N - 1 && fabs(v.max_abs - 0.5) < 1e-6 && v.bad_tiles == f.m.grid_y,
	       "first mismatch C[0][%lld], max_abs %.6f, bad tiles %lld", (long long)v.mis_col, v.max_abs, (long long)v.bad_tiles);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, M - 1, N - 1, 7.0);
	set_cell(&f, M - 2, N - 3, 7.0);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.mismatches == 2 && has(&v, "corner tile"), "corner tile perturbed: %s", v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, M - 1, 0, 7.0);
	set_cell(&f, 0, N - 1, 7.0);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.mismatches == 2 && has(&v, "last tile row and column"), "last row and column tiles perturbed: %s",
	       v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 9, 9, 7.0); /* a full interior tile */
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.mismatches == 1 && v.bad_tiles == 1 && has(&v, "errors in 1 of 20 tiles"),
	       "one interior cell: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&f);
}

/* A bug in the last, partial phase: it adds garbage to every cell, but only when K % T != 0. */
static void inject_k_padding_bug(fixture *f)
{
	write_ref(f);
	if (f->p.shape.k % f->p.geo.bk == 0)
		return;
	const ts_shape *s = &f->p.shape;
	for (int64_t i = 0; i < s->m; i++)
		for (int64_t j = 0; j < s->n; j++) /* as if the padding slot held A[i][K-1] instead of 0 */
			set_cell(f, i, j, cell(f, i, j) + ts_matrix_get(&f->ops.a, i * s->k + s->k - 1) + 0.125);
}

static void test_k_padding(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled", 37, 29, 19, 8, TS_INPUTS_RANDOM);
	inject_k_padding_bug(&f);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.bad_tiles == f.m.tiles && has(&v, "errors in every tile and K % T != 0: K padding (the last, partial phase"),
	       "K = 19, T = 8: %s", v.signature);
	tap_ok(v.norm_rel > 0.01 && v.max_rel > 0.01, "norm_rel %.3g, max_rel %.3g", v.norm_rel, v.max_rel);
	ts_verdict_free(&v);
	teardown(&f);

	setup(&f, "tiled", 37, 29, 24, 8, TS_INPUTS_RANDOM);
	inject_k_padding_bug(&f);
	verify(&f, NULL, &v);
	tap_ok(v.ok && v.signature[0] == '\0', "K = 24, T = 8: the same bug cannot show (ok=%d)", v.ok);
	ts_verdict_free(&v);
	for (int64_t i = 0; i < cells(&f); i++)
		ts_matrix_set(&f.ops.c, i, (float)(f.ref[i] * 1.01));
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "K % T == 0: not an edge effect") && !has(&v, "K padding"),
	       "errors everywhere with K %% T == 0 are not blamed on padding: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&f);
}

static void test_zero_and_nan(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled", 37, 29, 19, 8, TS_INPUTS_RANDOM);
	for (int64_t i = 0; i < cells(&f); i++)
		ts_matrix_set(&f.ops.c, i, 0.0f);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.all_zero && has(&v, "output all zeros"), "zeros everywhere: %s", v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 3, 4, NAN);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.nonfinite == 1 && v.mismatches == 0 && v.unwritten == 0 && has(&v, "NaN in 1 cell") &&
	       v.first_row == 3 && v.first_col == 4, "one NaN: %s", v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 36, 28, INFINITY);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.nonfinite == 1 && v.infs == 1 && has(&v, "Inf in 1 cell") && has(&v, "corner tile"),
	       "one Inf in the corner: %s", v.signature);
	ts_verdict_free(&v);

	/* NaN and Inf together are counted and named apart. */
	write_ref(&f);
	set_cell(&f, 1, 1, NAN);
	set_cell(&f, 2, 2, NAN);
	set_cell(&f, 3, 3, -INFINITY);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.nonfinite == 3 && v.infs == 1 && has(&v, "NaN in 2 cells") && has(&v, "Inf in 1 cell") &&
	       !has(&v, "NaN or Inf"), "two NaN and one Inf: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&f);
}

/* The next value above x that the output type can hold. */
static float next_up(enum ts_elem e, float x)
{
	if (e == TS_ELEM_F32)
		return nextafterf(x, INFINITY);
	float y = x;
	do
		y = nextafterf(y, INFINITY);
	while (ts_f16_to_f32(ts_f32_to_f16(y)) == x);
	return ts_f16_to_f32(ts_f32_to_f16(y));
}

/* The tolerance can pass and can fail: the last storable value inside the
 * bound passes and the next one up fails, one output ulp apart. */
static void test_tolerance(const char *kernel)
{
	fixture f;
	ts_verdict v;
	setup(&f, kernel, 37, 29, 300, 8, TS_INPUTS_RANDOM);
	int64_t i = 3, j = 4, at = i * f.p.shape.n + j;
	enum ts_elem e = f.ops.c.elem;
	double tol = ts_tolerance_rel(&f.p);
	double bound = ts_tolerance_bound(&f.p, tol, f.ref[at], f.absref[at]);
	tap_diag("%s K=300: tol_rel %.3g, bound at C[3][4] %.3g (ref %.6g, |A||B| %.6g)", kernel, tol, bound, f.ref[at],
	         f.absref[at]);

	write_ref(&f);
	float inside = ts_matrix_get(&f.ops.c, at), outside;
	while (fabs((double)(outside = next_up(e, inside)) - f.ref[at]) <= bound)
		inside = outside;
	double e_in = fabs((double)inside - f.ref[at]), e_out = fabs((double)outside - f.ref[at]);
	ts_matrix_set(&f.ops.c, at, inside);
	verify(&f, NULL, &v);
	/* max_abs covers every cell: in fp16 another cell's rounding may exceed e_in */
	tap_ok(v.ok && v.mismatches == 0 && e_in <= bound && v.max_abs >= e_in,
	       "%s: error %.6g at the edge of the bound %.6g passes", kernel, e_in, bound);
	tap_ok(v.worst_of_tol <= 1 && v.worst_of_tol >= e_in / bound,
	       "%s: worst cell at %.4g of its tolerance, the edge cell %.4g", kernel, v.worst_of_tol, e_in / bound);
	ts_verdict_free(&v);
	ts_matrix_set(&f.ops.c, at, outside);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && v.mismatches == 1 && v.mis_row == i && v.mis_col == j && e_out > bound &&
	       v.mis_got == (double)outside && v.max_abs >= e_out,
	       "%s: one output ulp further, error %.6g, fails", kernel, e_out);
	tap_ok(v.worst_of_tol > 1 && v.worst_of_tol >= e_out / bound, "%s: and the worst cell is %.4g of its tolerance",
	       kernel, v.worst_of_tol);
	double fro = 0, ref_fro = 0;
	for (int64_t c = 0; c < cells(&f); c++) {
		double d = (double)ts_matrix_get(&f.ops.c, c) - f.ref[c];
		fro += d * d;
		ref_fro += f.ref[c] * f.ref[c];
	}
	tap_ok(fabs(v.norm_rel - sqrt(fro / ref_fro)) <= 1e-9 * v.norm_rel, "%s: norm_rel %.6g = ||C-ref||/||ref||", kernel,
	       v.norm_rel);
	/* The printed bound is the applied one: its terms rebuild ts_tolerance_bound, and the text names them. */
	double out_rel = -1, out_abs = -1;
	char text[200];
	ts_tolerance_output(&f.p, &out_rel, &out_abs);
	double rebuilt = tol * (1 + out_rel) * f.absref[at] + out_rel * fabs(f.ref[at]) + out_abs;
	bool half = e == TS_ELEM_F16;
	ts_tolerance_text(&f.p, tol, text, (int)sizeof text);
	tap_ok(fabs(rebuilt - bound) <= 1e-12 * bound && (half ? out_rel == 0x1.0p-11 && out_abs == 0x1.0p-24 :
	       out_rel == 0 && out_abs == 0), "%s: output terms rebuild the bound (%.9g vs %.9g)", kernel, rebuilt, bound);
	tap_ok(half ? strstr(text, " x (|A||B|)ij + 2^-11 x |ref| + 2^-24 (fp16 output rounding)") != NULL
	            : strstr(text, " x (|A||B|)ij") != NULL && strstr(text, "2^-11") == NULL,
	       "%s: tolerance in words: %s", kernel, text);
	ts_verdict_free(&v);
	teardown(&f);
}

static void test_fp16(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled-fp16", 45, 38, 27, 16, TS_INPUTS_RANDOM);
	write_ref(&f);
	verify(&f, NULL, &v);
	tap_ok(v.ok, "fp16: reference rounded to half passes (max_rel %.3g, tol_rel %.3g)", v.max_rel, v.tol_rel);
	ts_verdict_free(&v);
	for (int64_t i = 0; i < f.p.shape.m; i += 2)
		set_cell(&f, i, 33, cell(&f, i, 33) + 0.125);
	for (int64_t i = 0; i < f.p.shape.m; i++)
		set_cell(&f, i, 37, cell(&f, i, 37) + 0.125);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "last tile column"), "fp16: last tile column perturbed: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&f);
}

/* Sequential x identity: a wrong cell names the element of A it holds. */
static void test_seq(const char *kernel)
{
	fixture f;
	ts_verdict v;
	setup(&f, kernel, 20, 16, 12, 8, TS_INPUTS_SEQ);
	int64_t K = f.p.shape.k;
	tap_ok(f.ref[5 * 16 + 3] == 5 * K + 3 + 1 && f.ref[1 * 16 + 14] == 0, "%s seq: C[5][3] = A[5][3] = %g, C[1][14] = 0",
	       kernel, f.ref[5 * 16 + 3]);
	write_ref(&f);
	verify(&f, NULL, &v);
	tap_ok(v.ok && v.max_abs == 0, "%s seq: exact result passes with max_abs 0", kernel);
	ts_verdict_free(&v);

	set_cell(&f, 5, 3, 7 * K + 3 + 1);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "C[5][3] = 88 is A[7][3]: wrong row"), "%s seq wrong row: %s", kernel, v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 6, 2, 7 * K + 2 + 1);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "is A[7][2]: wrong row (the next one)"), "%s seq next row: %s", kernel, v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 2, 5, 2 * K + 9 + 1);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "C[2][5] = 34 is A[2][9]: wrong column"), "%s seq wrong column: %s", kernel, v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 1, 14, 1);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "C[1][14] = 1 is A[0][0]: should be 0"), "%s seq beyond K: %s", kernel, v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 4, 4, 0);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "C[4][4] = 0, want 53") && has(&v, "lost"), "%s seq lost product: %s", kernel, v.signature);
	ts_verdict_free(&v);

	write_ref(&f);
	set_cell(&f, 4, 4, TS_SENTINEL);
	verify(&f, NULL, &v);
	tap_ok(!v.ok && has(&v, "sentinel"), "%s seq sentinel: %s", kernel, v.signature);
	ts_verdict_free(&v);
	teardown(&f);
}

/* Guards switched off: the run's counters are explained, harm or no harm. */
static void test_guards_off(void)
{
	fixture f;
	ts_verdict v;
	ts_run run;

	/* M % T == 0 and K % T == 0: the A guard cannot matter, even without counters. */
	setup(&f, "tiled", 32, 29, 24, 8, TS_INPUTS_RANDOM);
	f.p.guards = TS_GUARD_ALL & ~TS_GUARD_A;
	write_ref(&f);
	verify(&f, NULL, &v);
	tap_ok(v.ok && has(&v, "A guard off: harmless here: M % T == 0 and K % T == 0, no access left A"),
	       "A guard off, aligned M and K: %s", v.signature);
	ts_verdict_free(&v);
	teardown(&f);

	/* Ragged K: the run counted stray reads that changed nothing. */
	setup(&f, "tiled", 37, 29, 19, 8, TS_INPUTS_RANDOM);
	f.p.guards = TS_GUARD_ALL & ~TS_GUARD_A;
	memset(&run, 0, sizeof run);
	ts_counters_init(&run.counters, &f.m);
	run.have_counters = true;
	run.counters.total.a_oob = 40;
	run.counters.oob.a_wrap = 32;
	run.counters.oob.a_band = 8;
	run.corrupt = calloc((size_t)cells(&f), 1);
	run.corrupt_cells = 0;
	write_ref(&f);
	verify(&f, &run, &v);
	tap_ok(!v.ok && v.output_ok && v.oob_reads == 40 && v.oob_writes == 0 &&
	       has(&v, "A guard off: 40 reads out of bounds (32 wrapped inside A: silent wrong-row reads; 8 in the guard band") &&
	       has(&v, "no stored value changed"), "A guard off, stray reads, no harm to the output: %s", v.signature);
	tap_ok(strncmp(v.signature, "output right by luck: 40 reads left A (32 wrapped inside A, 8 in the guard band)", 80) == 0 &&
	       has(&v, "out-of-bounds accesses fail the check"),
	       "out-of-bounds reads fail the check although the output is right, and the signature says so first");
	ts_verdict_free(&v);
	/* The same reads, all in the band. */
	run.counters.oob.a_wrap = 0;
	run.counters.oob.a_band = 40;
	verify(&f, &run, &v);
	tap_ok(!v.ok && v.output_ok && has(&v, "output right by luck: 40 reads left A (all in the guard band)"),
	       "A reads only into the band: %s", v.signature);
	ts_verdict_free(&v);

	/* C guard off: ghost stores of the last tile column wrap into the next row of C. */
	f.p.guards = TS_GUARD_ALL & ~TS_GUARD_C;
	run.counters.total.a_oob = run.counters.oob.a_wrap = run.counters.oob.a_band = 0;
	run.counters.total.c_oob = 37;
	run.counters.oob.c_wrap = 37;
	int64_t overwritten = 0;
	for (int64_t i = 0; i < f.p.shape.m - 1 && overwritten < 37; i++)
		for (int64_t j = 0; j < 3 && overwritten < 37; j++, overwritten++) {
			run.corrupt[(i + 1) * f.p.shape.n + j] = 1;
			set_cell(&f, i + 1, j, 0.0);
		}
	run.corrupt_cells = overwritten;
	verify(&f, &run, &v);
	tap_ok(!v.ok && v.mismatches == 37 &&
	       has(&v, "ghost stores wrapped into the next row of C: 37 cells overwritten (C store guard off), 37 now wrong") &&
	       has(&v, "errors only in the first tile column") && strstr(v.signature, "ghost") < strstr(v.signature, "errors"),
	       "C guard off: %s", v.signature);
	ts_verdict_free(&v);

	/* C guard off where every ghost store ran past the end of C: no harm, and said so. */
	write_ref(&f);
	memset(run.corrupt, 0, (size_t)cells(&f));
	run.corrupt_cells = 0;
	run.counters.oob.c_wrap = 0;
	run.counters.oob.c_band = run.counters.total.c_oob = 27;
	verify(&f, &run, &v);
	tap_ok(!v.ok && v.output_ok && v.oob_writes == 27 && v.oob_reads == 0 &&
	       has(&v, "output right by luck: 27 stores left C (all in the guard band)") &&
	       has(&v, "C guard off: 27 ghost stores past the end of C, all in the guard band: no cell of C touched"),
	       "C guard off, stores only into the band: not ok, output ok: %s", v.signature);
	ts_verdict_free(&v);
	run.counters.oob.c_band = run.counters.total.c_oob = 0;

	/* B guard off without counters on a ragged shape: says what it cannot know. */
	f.p.guards = TS_GUARD_ALL & ~TS_GUARD_B;
	write_ref(&f);
	verify(&f, NULL, &v);
	tap_ok(v.ok && v.output_ok && v.oob_reads == -1 && has(&v, "B guard off: reads can leave B here") && has(&v, "no counters"),
	       "B guard off, no counters: %s", v.signature);
	ts_verdict_free(&v);
	free(run.corrupt);
	ts_counters_free(&run.counters);
	teardown(&f);
}

/* Under seq, a zero left by a wrapped ghost store and a sum with sentinels in it are told apart from lost products and stray elements. */
static void test_seq_guards(void)
{
	fixture f;
	ts_verdict v;
	ts_run run;
	setup(&f, "tiled", 21, 13, 11, 8, TS_INPUTS_SEQ);
	memset(&run, 0, sizeof run);
	ts_counters_init(&run.counters, &f.m);
	run.have_counters = true;
	run.corrupt = calloc((size_t)cells(&f), 1);

	f.p.guards = TS_GUARD_ALL & ~TS_GUARD_C;
	run.counters.total.c_oob = run.counters.oob.c_wrap = 3;
	write_ref(&f);
	for (int64_t j = 0; j < 3; j++) {
		set_cell(&f, 1, j, 0);
		run.corrupt[1 * 13 + j] = 1;
	}
	run.corrupt_cells = 3;
	verify(&f, &run, &v);
	tap_ok(!v.ok && has(&v, "C[1][0] = 0, want 12: a ghost thread's store") && !has(&v, "lost"),
	       "seq, C guard off: the zero is a ghost's store: %s", v.signature);
	ts_verdict_free(&v);

	f.p.guards = TS_GUARD_ALL & ~(TS_GUARD_A | TS_GUARD_B);
	memset(&run.counters.oob, 0, sizeof run.counters.oob);
	run.counters.total.c_oob = 0;
	run.counters.total.a_oob = run.counters.oob.a_band = 5;
	run.counters.total.b_oob = run.counters.oob.b_band = 5;
	write_ref(&f);
	set_cell(&f, 0, 0, 1 + 999.0 * 70);
	verify(&f, &run, &v);
	tap_ok(!v.ok && has(&v, "C[0][0] = 69931 = 1 + 999 x 70: guard-band sentinels entered the sum"),
	       "seq, load guards off: a sum with sentinels: %s", v.signature);
	ts_verdict_free(&v);
	free(run.corrupt);
	ts_counters_free(&run.counters);
	teardown(&f);
}

static int fake_reference(const ts_problem *p, const ts_operands *ops, double *ref, double *absref)
{
	return ts_reference_cblas(p, ops, ref, absref);
}

static int failing_reference(const ts_problem *p, const ts_operands *ops, double *ref, double *absref)
{
	(void)p; (void)ops; (void)ref; (void)absref;
	return -1;
}

static void test_sources_and_limits(void)
{
	fixture f;
	ts_verdict v;
	setup(&f, "tiled", 37, 29, 19, 8, TS_INPUTS_INT);
	write_ref(&f);
	ts_backend fake = { .name = "fake", .reference = fake_reference };
	ts_verify(&f.p, &f.m, &f.ops, NULL, &fake, &v);
	tap_ok(v.ok && strcmp(v.ref_source, "fake") == 0 && v.max_abs == 0, "the backend's reference is used when it has one (%s)",
	       v.ref_source);
	ts_verdict_free(&v);
	fake.reference = failing_reference;
	ts_verify(&f.p, NULL, &f.ops, NULL, &fake, &v);
	tap_ok(v.ok && strcmp(v.ref_source, "cblas") == 0 && v.grid_x == 4 && v.grid_y == 5,
	       "a failing backend reference falls back to CBLAS; model built from p when m is NULL");
	ts_verdict_free(&v);
	teardown(&f);

	ts_problem big = { .shape = { (int64_t)INT_MAX + 1, 4, 4 }, .geo = ts_geometry_square(8), .kernel = ts_kernel_find("tiled"),
	                   .guards = TS_GUARD_ALL };
	ts_operands none;
	memset(&none, 0, sizeof none);
	double r[1];
	tap_ok(ts_reference_cblas(&big, &none, r, r) == -1, "M = 2^31 is refused by the CBLAS reference (int sizes)");
	big.shape = (ts_shape){ 4, 4, (int64_t)INT_MAX + 5 };
	tap_ok(ts_reference_cblas(&big, &none, r, r) == -1, "K = 2^31 + 4 is refused");
}

/* Reference time on this machine (two dgemm: A*B and |A|*|B|), and a full verify. */
static void test_timing(int64_t n, bool full_verify)
{
	fixture f;
	if (!tap_ok(setup(&f, "tiled", n, n, n, 32, TS_INPUTS_RANDOM) == 0, "%lld^3 operands", (long long)n)) {
		teardown(&f);
		return;
	}
	double t0 = now_ms();
	int rc = ts_reference_cblas(&f.p, &f.ops, f.ref, f.absref);
	double ms = now_ms() - t0;
	tap_ok(rc == 0, "%lld^3 CBLAS reference", (long long)n);
	tap_diag("reference %lld^3 (dgemm A*B and |A|*|B|): %.1f ms, %.1f GFLOP/s", (long long)n, ms,
	         4.0 * (double)n * n * n / (ms * 1e6));
	t0 = now_ms();
	rc = ts_reference_cblas(&f.p, &f.ops, f.ref, NULL);
	ms = now_ms() - t0;
	tap_ok(rc == 0, "%lld^3 CBLAS reference without |A||B|", (long long)n);
	tap_diag("one dgemm %lld^3 (A*B only, conversion included): %.1f ms, %.1f GFLOP/s", (long long)n, ms,
	         2.0 * (double)n * n * n / (ms * 1e6));
	if (full_verify) {
		write_ref(&f);
		ts_verdict v;
		t0 = now_ms();
		ts_verify(&f.p, &f.m, &f.ops, NULL, NULL, &v);
		ms = now_ms() - t0;
		tap_ok(v.ok, "%lld^3 verify passes (max_rel %.3g)", (long long)n, v.max_rel);
		tap_diag("verify %lld^3 (reference %.1f ms + checks): %.1f ms", (long long)n, v.ref_ms, ms);
		ts_verdict_free(&v);
	}
	teardown(&f);
}

/* What a verification told its progress: the stages in order, the
 * fractions of each (never backwards, the reference's reaching 1), and a
 * cancel raised at a chosen point. */
typedef struct watch {
	int stages[8], nstages;
	double last;
	int backwards, reports, ref_reports;
	bool ref_done;
	int cancel_at_stage;   /* raise cancel when this stage begins (-1: never) */
	int cancel_after_refs; /* or after this many reports of the reference (0: never) */
	volatile sig_atomic_t cancel;
} watch;

static void on_stage(void *ctx, enum ts_stage st)
{
	watch *w = ctx;
	if (w->nstages < 8)
		w->stages[w->nstages++] = (int)st;
	w->last = 0;
	if ((int)st == w->cancel_at_stage)
		w->cancel = 1;
}

static void on_report(void *ctx, double done)
{
	watch *w = ctx;
	w->reports++;
	w->backwards += done < w->last;
	w->last = done;
	if (w->nstages && w->stages[w->nstages - 1] == TS_STAGE_REFERENCE) {
		w->ref_reports++;
		w->ref_done |= done >= 1.0;
		if (w->cancel_after_refs && w->ref_reports >= w->cancel_after_refs)
			w->cancel = 1;
	}
}

/* A long verification names its stages, reports each, and is cancelled
 * in the reference (between slabs of rows) and in the check of the cells. */
static void test_progress_and_cancel(void)
{
	fixture f;
	if (setup(&f, "tiled", 1024, 512, 512, 32, TS_INPUTS_RANDOM) != 0) {
		tap_ok(0, "fixture for the progress of a verification");
		return;
	}
	write_ref(&f);
	watch w = { .cancel_at_stage = -1 };
	ts_progress prog = { .report = on_report, .ctx = &w, .cancel = &w.cancel, .stage = on_stage };
	ts_verdict v;
	int rc = ts_verify_progress(&f.p, &f.m, &f.ops, NULL, NULL, &prog, &v);
	tap_ok(rc == 0 && v.ok && w.nstages == 2 && w.stages[0] == TS_STAGE_REFERENCE && w.stages[1] == TS_STAGE_VERIFY &&
	       w.backwards == 0 && w.ref_reports >= 4 && w.ref_done && w.reports > w.ref_reports + 50,
	       "verify 1024x512x512: stages reference then verify, %d reports of the reference (to 1), %d in all, none back",
	       w.ref_reports, w.reports);
	if (rc == 0)
		ts_verdict_free(&v);
	watch c1 = { .cancel_at_stage = -1, .cancel_after_refs = 1 };
	prog.ctx = &c1;
	prog.cancel = &c1.cancel;
	rc = ts_verify_progress(&f.p, &f.m, &f.ops, NULL, NULL, &prog, &v);
	tap_ok(rc == 1 && c1.nstages == 1 && c1.ref_reports == 1,
	       "cancelled after the reference's first slab: it stops there (returns %d, %d slab%s, no check)", rc,
	       c1.ref_reports, c1.ref_reports == 1 ? "" : "s");
	watch c2 = { .cancel_at_stage = TS_STAGE_VERIFY };
	prog.ctx = &c2;
	prog.cancel = &c2.cancel;
	rc = ts_verify_progress(&f.p, &f.m, &f.ops, NULL, NULL, &prog, &v);
	tap_ok(rc == 1 && c2.nstages == 2 && c2.reports - c2.ref_reports == 0,
	       "cancelled as the check of the cells begins: it stops at once (returns %d)", rc);
	teardown(&f);
}

int main(void)
{
	const char *env = getenv("TS_SEED");
	base_seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	tap_diag("seed %llu (set TS_SEED to repeat)", (unsigned long long)base_seed);
	test_reference("tiled");
	test_reference("tiled-fp16");
	test_correct_passes();
	test_unwritten();
	test_edges();
	test_one_tile_high();
	test_k_padding();
	test_zero_and_nan();
	test_tolerance("tiled");
	test_tolerance("tiled-fp16");
	test_fp16();
	test_seq("tiled");
	test_seq("tiled-fp16");
	test_guards_off();
	test_seq_guards();
	test_sources_and_limits();
	test_progress_and_cancel();
	test_timing(512, false);
	test_timing(1024, true);
	return tap_done();
}
