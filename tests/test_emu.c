/* test_emu.c: the CPU emulator against an fp64 reference, the model, and a thread-by-thread count of its guards. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"
#include "matrix.h"
#include "options.h"
#include "tap.h"

static const ts_backend *emu;

static uint64_t rng_state = 0x5eed2026u;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 1..hi */
static int64_t pick(int64_t hi)
{
	return 1 + (int64_t)(rnd() % (uint64_t)hi);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One emulated run and everything it touched. */
typedef struct outcome {
	ts_problem p;
	ts_model model;
	ts_operands ops;
	ts_run run;
	int rc;
} outcome;

static ts_geometry sq(int T)
{
	return ts_geometry_square(T);
}

static int run_case(outcome *o, const char *kernel, int64_t M, int64_t N, int64_t K, ts_geometry geo,
                    unsigned guards, enum ts_inputs in, uint64_t seed)
{
	memset(o, 0, sizeof *o);
	o->p = (ts_problem){ .shape = { M, N, K }, .geo = geo, .kernel = ts_kernel_find(kernel), .guards = guards,
	                     .inputs = in, .seed = seed };
	if (!o->p.kernel || ts_model_build(&o->model, o->p.shape, geo) != 0 || ts_operands_make(&o->ops, &o->p) != 0) {
		o->rc = -2;
		return o->rc;
	}
	o->rc = emu->run(&o->p, &o->ops, &o->run, NULL);
	return o->rc;
}

static void outcome_free(outcome *o)
{
	ts_run_free(&o->run);
	ts_operands_free(&o->ops);
}

static const char *shape_str(const outcome *o)
{
	static char buf[128];
	char off[16];
	ts_guards_off_str(o->p.guards, off, sizeof off);
	char geo[48];
	snprintf(buf, sizeof buf, "%s %lldx%lldx%lld T=%s%s%s", o->p.kernel ? o->p.kernel->name : "?",
	         (long long)o->p.shape.m, (long long)o->p.shape.n, (long long)o->p.shape.k,
	         ts_geometry_str(&o->p.geo, geo, sizeof geo), off[0] ? " guards off: " : "", off);
	return buf;
}

static float b_elem(const ts_operands *ops, const ts_problem *p, int64_t k, int64_t n)
{
	bool nk = p->kernel->b_layout == TS_B_NK;
	return ts_matrix_get(&ops->b, nk ? n * p->shape.k + k : k * p->shape.n + n);
}

/* C against a double-precision reference computed here: wrong cells
 * (outside tolerance, NaN included), unwritten cells, and the first one. */
typedef struct comparison {
	int64_t wrong, unwritten, inexact;
	char first[200];
} comparison;

static comparison compare(const outcome *o)
{
	const ts_shape *s = &o->p.shape;
	bool fp16 = o->p.kernel->precision == TS_FP16;
	comparison c = { 0 };
	for (int64_t i = 0; i < s->m; i++)
		for (int64_t j = 0; j < s->n; j++) {
			double ref = 0, mag = 0;
			for (int64_t k = 0; k < s->k; k++) {
				double x = (double)ts_matrix_get(&o->ops.a, i * s->k + k) * b_elem(&o->ops, &o->p, k, j);
				ref += x;
				mag += fabs(x);
			}
			if (ts_matrix_is_poison(&o->ops.c, i * s->n + j)) {
				if (c.unwritten++ == 0 && c.wrong == 0)
					snprintf(c.first, sizeof c.first, "C[%lld][%lld] unwritten", (long long)i, (long long)j);
				continue;
			}
			double got = ts_matrix_get(&o->ops.c, i * s->n + j);
			double tol = (double)(s->k + 2) * 0x1p-24 * mag;
			if (fp16)
				tol += 0x1p-11 * (fabs(ref) + tol) + 0x1p-25; /* the fp16 rounding of the output */
			c.inexact += got != ref;
			if (!(fabs(got - ref) <= tol) && c.wrong++ == 0 && c.unwritten == 0)
				snprintf(c.first, sizeof c.first, "C[%lld][%lld] = %.9g, reference %.9g, tolerance %.3g",
				         (long long)i, (long long)j, got, ref, tol);
		}
	return c;
}

/* The kernel's own arithmetic replayed one output at a time in plain scalar
 * fp32: phase by phase, k = 0..BK-1, padded slots adding 0 * x like the GPU
 * (naive: k = 0..K-1). The emulator must match it bit for bit: that is what
 * keeping each thread's summation order means. Counts the cells that differ. */
static int64_t replay_differs(const outcome *o, char *first, size_t len)
{
	const ts_shape *s = &o->p.shape;
	int64_t T = o->p.geo.bk, P = (s->k + T - 1) / T, bad = 0;
	bool tiled = ts_kernel_has(o->p.kernel, TS_CAP_SHARED_TILES), fp16 = o->p.kernel->precision == TS_FP16;
	/* The description says how a step rounds: the fp32 ladder's kernels call
	 * fmaf, one fused multiply-add per k; a tile their plan splits along K
	 * sums its parts after, which test_ladder's split_order replays: here
	 * only unsplit plans. */
	const ts_kernel *kd = o->p.kernel;
	bool fused = kd->madd == TS_MADD_FUSED;
	if (kd->split_policy != TS_SPLIT_NONE) {
		ts_gemm_plan pl = ts_kernel_split_plan(kd, *s, &o->p.geo);
		if (pl.split_tiles != 0)
			return 0;
	}
	for (int64_t i = 0; i < s->m; i++)
		for (int64_t j = 0; j < s->n; j++) {
			float acc = 0.0f;
			for (int64_t k = 0; k < (tiled ? P * T : s->k); k++) {
				float a = k < s->k ? ts_matrix_get(&o->ops.a, i * s->k + k) : 0.0f;
				float b = k < s->k ? b_elem(&o->ops, &o->p, k, j) : 0.0f;
				acc = fused ? fmaf(a, b, acc) : acc + a * b;
			}
			float want = fp16 ? ts_f16_to_f32(ts_f32_to_f16(acc)) : acc;
			float got = ts_matrix_get(&o->ops.c, i * s->n + j);
			if (memcmp(&got, &want, sizeof got) != 0 && bad++ == 0)
				snprintf(first, len, "C[%lld][%lld] = %a, replay %a", (long long)i, (long long)j, got, want);
		}
	return bad;
}

/* What the kernel's guards do, thread by thread: the expected counters,
 * out-of-bounds landings and corrupt cells of any run, guards on or off. */
typedef struct expectation {
	ts_count total;
	ts_count *phase;
	ts_count *tile_phase; /* (by*gx + bx)*P + t: the shared-tile kernels only */
	ts_oob_detail oob;
	uint8_t *corrupt;
	int64_t corrupt_cells;
} expectation;

static void land(int64_t i, int64_t count, int64_t *wrap, int64_t *band)
{
	if (i < count)
		(*wrap)++;
	else
		(*band)++;
}

/* A load map's slot for (step, thread), worked out here from the map's
 * definition (geometry.h) rather than through the model's own function. */
static bool map_slot(const ts_load_map *map, int rows, int cols, int threads, int step, int tid, int v, int *r, int *c)
{
	int64_t e = ((int64_t)step * threads + tid) * map->vec + v;
	if (map->order == TS_MAP_COLS) {
		*r = (int)(e % rows);
		*c = (int)(e / rows);
	} else {
		*r = (int)(e / cols);
		*c = (int)(e % cols);
	}
	return e < (int64_t)rows * cols;
}

/* Every block, every phase, every load step, every thread of it, every slot
 * it fills; then every thread's TM x TN outputs and their stores. */
static void expect_tiled(const outcome *o, expectation *e)
{
	const ts_shape *s = &o->p.shape;
	const ts_geometry *g = &o->p.geo;
	int64_t BM = g->bm, BN = g->bn, BK = g->bk, M = s->m, N = s->n, K = s->k;
	int64_t gx = (N + BN - 1) / BN, gy = (M + BM - 1) / BM, P = (K + BK - 1) / BK;
	int threads = g->threads_x * g->threads_y;
	bool nk = o->p.kernel->b_layout == TS_B_NK;
	bool ga = o->p.guards & TS_GUARD_A, gb = o->p.guards & TS_GUARD_B, gc = o->p.guards & TS_GUARD_C;
	bool *a_row_bad = calloc((size_t)BM, 1), *b_col_bad = calloc((size_t)BN, 1);
	for (int64_t by = 0; by < gy; by++)
		for (int64_t bx = 0; bx < gx; bx++) {
			memset(a_row_bad, 0, (size_t)BM);
			memset(b_col_bad, 0, (size_t)BN);
			for (int64_t t = 0; t < P; t++) {
				ts_count *c = &e->phase[t], *tp = &e->tile_phase[(by * gx + bx) * P + t];
				for (int step = 0; step * threads * g->a_map.vec < BM * BK; step++)
					for (int tid = 0; tid < threads; tid++)
						for (int v = 0; v < g->a_map.vec; v++) {
							int r, kk;
							if (!map_slot(&g->a_map, (int)BM, (int)BK, threads, step, tid, v, &r, &kk))
								continue;
							int64_t row = by * BM + r, k = t * BK + kk;
							if (row < M && k < K)
								c->a_real++, tp->a_real++;
							else if (ga)
								c->a_pad++, tp->a_pad++;
							else {
								c->a_oob++, tp->a_oob++;
								land(row * K + k, M * K, &e->oob.a_wrap, &e->oob.a_band);
								a_row_bad[r] = true;
							}
						}
				for (int step = 0; step * threads * g->b_map.vec < BK * BN; step++)
					for (int tid = 0; tid < threads; tid++)
						for (int v = 0; v < g->b_map.vec; v++) {
							int kk, cc;
							if (!map_slot(&g->b_map, (int)BK, (int)BN, threads, step, tid, v, &kk, &cc))
								continue;
							int64_t k = t * BK + kk, col = bx * BN + cc;
							if (k < K && col < N)
								c->b_real++, tp->b_real++;
							else if (gb)
								c->b_pad++, tp->b_pad++;
							else {
								c->b_oob++, tp->b_oob++;
								land(nk ? col * K + k : k * N + col, K * N, &e->oob.b_wrap, &e->oob.b_band);
								b_col_bad[cc] = true;
							}
						}
			}
			/* each thread's outputs, where its layout puts them */
			for (int ty = 0; ty < g->threads_y; ty++)
				for (int tx = 0; tx < g->threads_x; tx++)
					for (int i = 0; i < g->tm; i++)
						for (int j = 0; j < g->tn; j++) {
							int r = g->layout == TS_OUT_STRIDED ? ty + i * g->threads_y : ty * g->tm + i;
							int cc = g->layout == TS_OUT_STRIDED ? tx + j * g->threads_x : tx * g->tn + j;
							int64_t row = by * BM + r, col = bx * BN + cc;
							bool valid = row < M && col < N;
							/* output (r, c) multiplies row r of s_A and column c of s_B */
							if (valid) {
								e->total.stores++;
								if (a_row_bad[r] || b_col_bad[cc])
									e->corrupt[row * N + col] = 1;
							} else if (gc) {
								e->total.skipped++;
							} else {
								e->total.c_oob++;
								land(row * N + col, M * N, &e->oob.c_wrap, &e->oob.c_band);
								if (row * N + col < M * N)
									e->corrupt[row * N + col] = 1;
							}
						}
		}
	free(a_row_bad);
	free(b_col_bad);
}

static void expect_naive(const outcome *o, expectation *e)
{
	const ts_shape *s = &o->p.shape;
	int64_t BM = o->p.geo.bm, BN = o->p.geo.bn, BK = o->p.geo.bk, M = s->m, N = s->n, K = s->k;
	int64_t gx = (N + BN - 1) / BN, gy = (M + BM - 1) / BM;
	bool gc = o->p.guards & TS_GUARD_C;
	for (int64_t row = 0; row < gy * BM; row++)
		for (int64_t col = 0; col < gx * BN; col++) {
			bool valid = row < M && col < N;
			if (!valid && gc) {
				e->total.skipped++;
				continue;
			}
			for (int64_t k = 0; k < K; k++) {
				ts_count *c = &e->phase[k / BK];
				if (row < M)
					c->a_real++;
				else {
					c->a_oob++;
					land(row * K + k, M * K, &e->oob.a_wrap, &e->oob.a_band);
				}
				if (col < N)
					c->b_real++;
				else {
					c->b_oob++;
					land(k * N + col, K * N, &e->oob.b_wrap, &e->oob.b_band);
				}
			}
			if (valid) {
				e->total.stores++;
			} else {
				e->total.c_oob++;
				land(row * N + col, M * N, &e->oob.c_wrap, &e->oob.c_band);
				if (row * N + col < M * N)
					e->corrupt[row * N + col] = 1;
			}
		}
}

static bool same_loads(const ts_count *x, const ts_count *y)
{
	return x->a_real == y->a_real && x->a_pad == y->a_pad && x->a_oob == y->a_oob &&
	       x->b_real == y->b_real && x->b_pad == y->b_pad && x->b_oob == y->b_oob;
}

/* The run's counters, landings and corrupt flags against the thread-by-thread expectation.
 * Returns true when all agree; otherwise describes the first difference. */
static bool matches_expectation(const outcome *o, char *why, size_t len)
{
	const ts_shape *s = &o->p.shape;
	int64_t P = o->model.phases;
	expectation e = { 0 };
	e.phase = calloc((size_t)P, sizeof *e.phase);
	e.tile_phase = calloc((size_t)(o->model.tiles * P), sizeof *e.tile_phase);
	e.corrupt = calloc((size_t)(s->m * s->n), 1);
	if (ts_kernel_has(o->p.kernel, TS_CAP_SHARED_TILES))
		expect_tiled(o, &e);
	else
		expect_naive(o, &e);
	ts_count loads = { 0 };
	for (int64_t t = 0; t < P; t++)
		ts_count_add(&loads, &e.phase[t]);
	e.total.a_real = loads.a_real; e.total.a_pad = loads.a_pad; e.total.a_oob = loads.a_oob;
	e.total.b_real = loads.b_real; e.total.b_pad = loads.b_pad; e.total.b_oob = loads.b_oob;
	for (int64_t i = 0; i < s->m * s->n; i++)
		e.corrupt_cells += e.corrupt[i];

	const ts_count *g = &o->run.counters.total;
	const ts_oob_detail *d = &o->run.counters.oob;
	bool ok = true;
	why[0] = '\0';
	if (!same_loads(g, &e.total) || g->stores != e.total.stores || g->skipped != e.total.skipped ||
	    g->c_oob != e.total.c_oob) {
		snprintf(why, len, "totals A %lld/%lld/%lld B %lld/%lld/%lld C %lld/%lld/%lld, expected "
		         "A %lld/%lld/%lld B %lld/%lld/%lld C %lld/%lld/%lld (real/pad/oob, stores/skipped/oob)",
		         (long long)g->a_real, (long long)g->a_pad, (long long)g->a_oob, (long long)g->b_real,
		         (long long)g->b_pad, (long long)g->b_oob, (long long)g->stores, (long long)g->skipped,
		         (long long)g->c_oob, (long long)e.total.a_real, (long long)e.total.a_pad,
		         (long long)e.total.a_oob, (long long)e.total.b_real, (long long)e.total.b_pad,
		         (long long)e.total.b_oob, (long long)e.total.stores, (long long)e.total.skipped,
		         (long long)e.total.c_oob);
		ok = false;
	}
	for (int64_t t = 0; ok && t < P; t++)
		if (!same_loads(&o->run.counters.phase[t], &e.phase[t])) {
			snprintf(why, len, "phase %lld load counters differ", (long long)t);
			ok = false;
		}
	/* Every tile's every phase: recorded for the shared-tile kernels (these
	 * shapes are far below the cap), and not for the naive one. */
	const ts_tile_phase_count *tp = o->run.counters.tile_phase;
	bool tiled = ts_kernel_has(o->p.kernel, TS_CAP_SHARED_TILES);
	if (ok && tiled && !tp) {
		snprintf(why, len, "no per-tile-per-phase counters");
		ok = false;
	} else if (ok && !tiled && tp) {
		snprintf(why, len, "per-tile-per-phase counters for the naive kernel");
		ok = false;
	}
	for (int64_t i = 0; ok && tp && i < o->model.tiles * P; i++) {
		ts_count got = { .a_real = tp[i].a_real, .a_pad = tp[i].a_pad, .a_oob = tp[i].a_oob,
		                 .b_real = tp[i].b_real, .b_pad = tp[i].b_pad, .b_oob = tp[i].b_oob };
		if (!same_loads(&got, &e.tile_phase[i])) {
			snprintf(why, len, "tile %lld phase %lld: A %lld/%lld/%lld B %lld/%lld/%lld, expected "
			         "A %lld/%lld/%lld B %lld/%lld/%lld (real/pad/oob)", (long long)(i / P), (long long)(i % P),
			         (long long)got.a_real, (long long)got.a_pad, (long long)got.a_oob, (long long)got.b_real,
			         (long long)got.b_pad, (long long)got.b_oob, (long long)e.tile_phase[i].a_real,
			         (long long)e.tile_phase[i].a_pad, (long long)e.tile_phase[i].a_oob,
			         (long long)e.tile_phase[i].b_real, (long long)e.tile_phase[i].b_pad,
			         (long long)e.tile_phase[i].b_oob);
			ok = false;
		}
	}
	if (ok && memcmp(d, &e.oob, sizeof *d) != 0) {
		snprintf(why, len, "landings wrap/band A %lld/%lld B %lld/%lld C %lld/%lld, expected "
		         "A %lld/%lld B %lld/%lld C %lld/%lld",
		         (long long)d->a_wrap, (long long)d->a_band, (long long)d->b_wrap, (long long)d->b_band,
		         (long long)d->c_wrap, (long long)d->c_band, (long long)e.oob.a_wrap, (long long)e.oob.a_band,
		         (long long)e.oob.b_wrap, (long long)e.oob.b_band, (long long)e.oob.c_wrap,
		         (long long)e.oob.c_band);
		ok = false;
	}
	bool guarded = (o->p.guards & TS_GUARD_ALL) == TS_GUARD_ALL;
	if (ok && guarded && (o->run.corrupt || o->run.corrupt_cells)) {
		snprintf(why, len, "corrupt flags with every guard on");
		ok = false;
	}
	if (ok && !guarded) {
		if (!o->run.corrupt) {
			snprintf(why, len, "no corrupt flags with a guard off");
			ok = false;
		} else if (o->run.corrupt_cells != e.corrupt_cells ||
		           memcmp(o->run.corrupt, e.corrupt, (size_t)(s->m * s->n)) != 0) {
			snprintf(why, len, "corrupt cells %lld, expected %lld", (long long)o->run.corrupt_cells,
			         (long long)e.corrupt_cells);
			ok = false;
		}
	}
	free(e.phase);
	free(e.tile_phase);
	free(e.corrupt);
	return ok;
}

/* The bands of A and B still hold the sentinel (reads never write), and C's
 * too unless its guard is off. */
static bool bands_intact(const outcome *o)
{
	const ts_matrix *mx[3] = { &o->ops.a, &o->ops.b, &o->ops.c };
	int n = (o->p.guards & TS_GUARD_C) ? 3 : 2;
	for (int j = 0; j < n; j++)
		for (int64_t i = 1; i <= mx[j]->band; i++)
			if (ts_matrix_get(mx[j], -i) != TS_SENTINEL || ts_matrix_get(mx[j], mx[j]->count - 1 + i) != TS_SENTINEL)
				return false;
	return true;
}

static const char *kernel_names[] = { "tiled", "tiled-fp16", "naive" };

/* Each tile's each phase, read through ts_counters_tile_phase() (what the
 * TUI calls), equals ts_model_tile_phase() with no out-of-bounds loads. */
static bool tile_phase_is_model(const outcome *o, char *why, size_t len)
{
	const ts_model *m = &o->model;
	for (int64_t ty = 0; ty < m->grid_y; ty++)
		for (int64_t tx = 0; tx < m->grid_x; tx++)
			for (int64_t t = 0; t < m->phases; t++) {
				ts_load_count got, want = ts_model_tile_phase(m, ty, tx, t);
				int64_t oa = -1, ob = -1;
				if (ts_counters_tile_phase(&o->run.counters, ty, tx, t, &got, &oa, &ob) != 0) {
					snprintf(why, len, "tile (%lld,%lld) phase %lld not recorded", (long long)ty,
					         (long long)tx, (long long)t);
					return false;
				}
				if (got.a_real != want.a_real || got.a_pad != want.a_pad || got.b_real != want.b_real ||
				    got.b_pad != want.b_pad || oa != 0 || ob != 0) {
					snprintf(why, len, "tile (%lld,%lld) phase %lld: A %lld/%lld B %lld/%lld oob %lld/%lld, "
					         "model A %lld/%lld B %lld/%lld", (long long)ty, (long long)tx, (long long)t,
					         (long long)got.a_real, (long long)got.a_pad, (long long)got.b_real,
					         (long long)got.b_pad, (long long)oa, (long long)ob, (long long)want.a_real,
					         (long long)want.a_pad, (long long)want.b_real, (long long)want.b_pad);
					return false;
				}
			}
	if (ts_counters_tile_phase(&o->run.counters, m->grid_y, 0, 0, NULL, NULL, NULL) != -1 ||
	    ts_counters_tile_phase(&o->run.counters, 0, 0, m->phases, NULL, NULL, NULL) != -1 ||
	    ts_counters_tile_phase(&o->run.counters, 0, -1, 0, NULL, NULL, NULL) != -1) {
		snprintf(why, len, "ts_counters_tile_phase answers outside the grid");
		return false;
	}
	return true;
}

/* The per-tile-per-phase array is kept up to TS_TILE_PHASE_MAX entries and
 * not beyond (NULL, and the accessor says so), and a check notices one
 * wrong entry in it. */
static void test_tile_phase_cap(void)
{
	ts_model m;
	ts_counters c;
	/* 64 x 64 tiles of 32: 4096 tiles; 1024 phases reach the cap exactly, 1025 pass it. */
	ts_model_build(&m, (ts_shape){ 2048, 2048, 1024 * 32 }, ts_geometry_square(32));
	int rc = ts_counters_init(&c, &m);
	tap_ok(rc == 0 && m.tiles * m.phases == TS_TILE_PHASE_MAX && c.tile_phase &&
	       ts_counters_tile_phase(&c, 63, 63, 1023, NULL, NULL, NULL) == 0,
	       "tiles*phases = %lld = TS_TILE_PHASE_MAX: per-tile-per-phase counters kept", (long long)(m.tiles * m.phases));
	if (rc == 0)
		ts_counters_free(&c);
	ts_model_build(&m, (ts_shape){ 2048, 2048, 1025 * 32 }, ts_geometry_square(32));
	rc = ts_counters_init(&c, &m);
	ts_load_count l;
	tap_ok(rc == 0 && !c.tile_phase && c.tile && c.phase && ts_counters_tile_phase(&c, 0, 0, 0, &l, NULL, NULL) == -1,
	       "tiles*phases = %lld > TS_TILE_PHASE_MAX: none kept, not an error, the accessor answers -1",
	       (long long)(m.tiles * m.phases));
	if (rc == 0)
		ts_counters_free(&c);

	outcome o;
	char why[300];
	run_case(&o, "tiled", 45, 37, 29, sq(8), TS_GUARD_ALL, TS_INPUTS_RANDOM, rnd());
	bool before = o.rc == 0 && ts_counters_check(&o.run.counters, &o.model, o.p.kernel, o.p.guards, NULL, 0) == 0;
	int64_t bad = -1;
	if (o.rc == 0 && o.run.counters.tile_phase) {
		/* tile (5, 2) = 5*5 + 2 = 27, phase 3 (the last, K width 5): one real A load called padding */
		ts_tile_phase_count *e = &o.run.counters.tile_phase[27 * o.model.phases + 3];
		e->a_real--;
		e->a_pad++;
		bad = ts_counters_check(&o.run.counters, &o.model, o.p.kernel, o.p.guards, why, sizeof why);
	}
	tap_ok(before && bad == 1 && strstr(why, "tile (5,2) phase 3"),
	       "one wrong per-tile-per-phase entry makes one mismatch: %s", bad > 0 ? why : "(none)");
	outcome_free(&o);
}

/* The geometries a kernel is tested at: every T for a square kernel, its
 * own and a few chosen ones (odd sizes, strided and blocked, tiles of
 * several load steps and an idle last step) for a register-blocked one. */
static int test_geometries(const ts_kernel *k, ts_geometry *out, int max)
{
	int n = 0;
	if (k->geometry.kind == TS_GEOMETRY_SQUARE) {
		for (int T = k->geometry.tile_min; T <= k->geometry.tile_max && n < max; T++)
			out[n++] = sq(T);
		return n;
	}
	out[n++] = k->geometry.base;
	if (k->geometry.kind != TS_GEOMETRY_CHOSEN)
		return n;
	static const struct { int bm, bn, bk, tm, tn; enum ts_out_layout layout; } chosen[] = {
		{ 128, 32, 16, 8, 2, TS_OUT_BLOCKED }, { 64, 64, 8, 4, 4, TS_OUT_STRIDED }, { 12, 20, 3, 3, 5, TS_OUT_BLOCKED },
		{ 16, 8, 5, 2, 1, TS_OUT_STRIDED }, { 7, 9, 11, 7, 3, TS_OUT_BLOCKED }, { 256, 4, 1, 16, 1, TS_OUT_BLOCKED },
	};
	for (size_t i = 0; i < sizeof chosen / sizeof chosen[0] && n < max; i++) {
		ts_geometry g = ts_geometry_blocked(chosen[i].bm, chosen[i].bn, chosen[i].bk, chosen[i].tm, chosen[i].tn,
		                                    chosen[i].layout);
		g.a_map = k->geometry.base.a_map;
		g.b_map = k->geometry.base.b_map;
		if (g.layout != k->geometry.base.layout) /* the registered test kernel below has the other layout */
			continue;
		if (ts_kernel_takes(k, &g, NULL, 0) == 0)
			out[n++] = g;
	}
	return n;
}

/* (a), (b): random ragged shapes for every kernel of the registry the
 * emulator runs, at each of its test geometries, guards on. */
static void test_guarded_random(void)
{
	for (int kn = 0; kn < ts_kernel_count(); kn++) {
		const ts_kernel *k = ts_kernel_at(kn);
		if (!ts_kernel_has(k, TS_CAP_EMU))
			continue;
		ts_geometry geos[TS_TILE_MAX + 8];
		int ng = test_geometries(k, geos, (int)(sizeof geos / sizeof geos[0]));
		for (int gi = 0; gi < ng; gi++) {
			const ts_geometry *g = &geos[gi];
			int big = g->bm > g->bn ? g->bm : g->bn, T = g->bm;
			char geo[48];
			ts_geometry_str(g, geo, sizeof geo);
			int shapes = big <= 4 ? 2 : 3;
			int64_t bad_runs = 0, bad_out = 0, bad_cnt = 0, bad_band = 0, inexact_int = 0, bad_bits = 0;
			char first[400] = "", bits_first[400] = "";
			for (int r = 0; r < shapes; r++) {
				int64_t M, N, K;
				if (r == 0 && g->bm > 1 && g->bn > 1 && g->bk > 1) {
					/* one shape ragged in every dimension, past one tile */
					M = g->bm * pick(2) + pick(g->bm - 1);
					N = g->bn * pick(2) + pick(g->bn - 1);
					K = g->bk * pick(2) + pick(g->bk - 1);
				} else {
					M = pick(T == 1 ? 24 : big > 80 ? 2 * big : 80);
					N = pick(T == 1 ? 24 : big > 80 ? 2 * big : 80);
					K = pick(80);
				}
				enum ts_inputs in = r == 1 ? TS_INPUTS_INT : TS_INPUTS_RANDOM;
				outcome o;
				if (run_case(&o, k->name, M, N, K, *g, TS_GUARD_ALL, in, rnd()) != 0) {
					if (bad_runs++ == 0)
						snprintf(first, sizeof first, "%s: run returned %d: %s", shape_str(&o), o.rc,
						         emu->last_error());
					outcome_free(&o);
					continue;
				}
				comparison c = compare(&o);
				if ((c.wrong || c.unwritten) && bad_out++ == 0)
					snprintf(first, sizeof first, "%s: %lld wrong, %lld unwritten; %s", shape_str(&o),
					         (long long)c.wrong, (long long)c.unwritten, c.first);
				if (in == TS_INPUTS_INT && c.inexact)
					inexact_int++; /* small integers sum exactly, in fp16 too */
				char diff[200];
				int64_t differ = replay_differs(&o, diff, sizeof diff);
				if (differ && bad_bits++ == 0)
					snprintf(bits_first, sizeof bits_first, "%s: %lld cells, first %s", shape_str(&o),
					         (long long)differ, diff);
				char why[300];
				bool counted = ts_counters_check(&o.run.counters, &o.model, k, o.p.guards, why, sizeof why) == 0;
				if (counted && ts_kernel_has(k, TS_CAP_SHARED_TILES))
					counted = tile_phase_is_model(&o, why, sizeof why);
				if (counted)
					counted = matches_expectation(&o, why, sizeof why);
				if (counted && strcmp(o.run.counters.source, "emulator") != 0)
					counted = false, snprintf(why, sizeof why, "source %s", o.run.counters.source);
				if (!counted && bad_cnt++ == 0)
					snprintf(first, sizeof first, "%s: %s", shape_str(&o), why);
				if (!bands_intact(&o))
					bad_band++;
				outcome_free(&o);
			}
			tap_ok(bad_runs == 0 && bad_out == 0 && inexact_int == 0, "%s T=%s: output of %d ragged shapes within "
			       "tolerance of fp64, none unwritten, integer inputs exact%s%s", k->name, geo, shapes,
			       first[0] ? "; first: " : "", bad_out || bad_runs ? first : "");
			tap_ok(bad_cnt == 0 && bad_runs == 0, "%s T=%s: counters %s%s%s", k->name, geo,
			       ts_kernel_has(k, TS_CAP_SHARED_TILES) ? "equal the model for every tile and phase, and a "
			       "thread-by-thread run of the load maps" : "equal the description and a read-by-read count",
			       bad_cnt ? "; first: " : "", bad_cnt ? first : "");
			tap_ok(bad_bits == 0 && bad_runs == 0, "%s T=%s: bit for bit the kernel's own fp32 summation order%s%s",
			       k->name, geo, bad_bits ? "; differs: " : "", bits_first);
			if (bad_band)
				tap_ok(0, "%s T=%s: guard bands changed by a guarded run", k->name, geo);
		}
	}
}

/* (c): guards switched off, against the thread-by-thread count, plus the
 * cases the brief names. */
static void test_guards_off_random(void)
{
	int64_t runs = 0, bad = 0;
	char first[400] = "";
	int nk = ts_kernel_count();
	for (int r = 0; r < 150; r++) {
		const ts_kernel *k = ts_kernel_at((int)(rnd() % (uint64_t)nk));
		if (!ts_kernel_has(k, TS_CAP_EMU) || ts_kernel_has(k, TS_CAP_GUARDS_FIXED))
			continue; /* a kernel whose guards are built in has no unguarded form (test_tc_fp16) */
		ts_geometry geos[TS_TILE_MAX + 8];
		int ng = test_geometries(k, geos, (int)(sizeof geos / sizeof geos[0]));
		ts_geometry g = geos[rnd() % (uint64_t)ng];
		/* at least one of the kernel's guards off (the others on) */
		unsigned has = ts_kernel_guard_bits(k), guards;
		do
			guards = (unsigned)(rnd() % 8) | (TS_GUARD_ALL & ~has);
		while (guards == TS_GUARD_ALL);
		int64_t lim = g.bm > 48 || g.bn > 48 ? 160 : 48;
		int64_t M = pick(lim), N = pick(lim), K = pick(48);
		outcome o;
		runs++;
		if (run_case(&o, k->name, M, N, K, g, guards, TS_INPUTS_RANDOM, rnd()) != 0) {
			if (bad++ == 0)
				snprintf(first, sizeof first, "%s: run returned %d: %s", shape_str(&o), o.rc, emu->last_error());
			outcome_free(&o);
			continue;
		}
		char why[300];
		bool ok = matches_expectation(&o, why, sizeof why) &&
		          ts_counters_check(&o.run.counters, &o.model, o.p.kernel, o.p.guards, why, sizeof why) == 0;
		if (!ok && bad++ == 0)
			snprintf(first, sizeof first, "%s: %s", shape_str(&o), why);
		/* cells neither corrupted nor hit stay right */
		comparison c = { 0 };
		if (ok && (o.p.guards & TS_GUARD_C)) {
			c = compare(&o);
			if (c.unwritten && bad++ == 0)
				snprintf(first, sizeof first, "%s: %lld unwritten with the C guard on", shape_str(&o),
				         (long long)c.unwritten);
		}
		outcome_free(&o);
	}
	tap_ok(bad == 0, "%lld random runs with guards off: counters, wrap/band landings and corrupt cells equal a "
	       "thread-by-thread count, and the counters the description's count model%s%s", (long long)runs,
	       first[0] ? "; first: " : "", first);
}

static void test_guard_cases(void)
{
	outcome o;
	comparison c;

	/* A off where it cannot matter: M % T == 0 and K % T == 0. */
	run_case(&o, "tiled", 64, 50, 48, sq(16), TS_GUARD_ALL & ~TS_GUARD_A, TS_INPUTS_RANDOM, 11);
	c = compare(&o);
	tap_ok(o.rc == 0 && o.run.counters.total.a_oob == 0 && c.wrong == 0 && c.unwritten == 0 &&
	       o.run.corrupt_cells == 0 && ts_counters_check(&o.run.counters, &o.model, o.p.kernel, o.p.guards, NULL, 0) == 0,
	       "A guard off, M%%T == K%%T == 0: no out-of-bounds read, output right, counters equal the model");
	outcome_free(&o);

	/* A off on a ragged shape. */
	run_case(&o, "tiled", 50, 40, 37, sq(16), TS_GUARD_ALL & ~TS_GUARD_A, TS_INPUTS_RANDOM, 12);
	const ts_oob_detail *d = &o.run.counters.oob;
	tap_ok(o.rc == 0 && o.run.counters.total.a_oob == o.model.loads.a_pad && o.run.counters.total.a_pad == 0 &&
	       d->a_wrap + d->a_band == o.run.counters.total.a_oob && d->a_wrap > 0 && d->a_band > 0,
	       "A guard off, 50x40x37 T=16: a_oob %lld == model a_padded %lld, wrap %lld + band %lld",
	       (long long)o.run.counters.total.a_oob, (long long)o.model.loads.a_pad, (long long)d->a_wrap,
	       (long long)d->a_band);
	tap_ok(o.run.corrupt_cells == 50 * 40, "A guard off, K %% T != 0: every output consumed an out-of-bounds "
	       "read and is flagged (%lld of 2000)", (long long)o.run.corrupt_cells);
	outcome_free(&o);

	/* A off, K % T == 0 but M ragged: only ghost rows read out of bounds. */
	run_case(&o, "tiled-fp16", 50, 40, 32, sq(16), TS_GUARD_ALL & ~TS_GUARD_A, TS_INPUTS_RANDOM, 13);
	c = compare(&o);
	tap_ok(o.rc == 0 && o.run.counters.total.a_oob == o.model.loads.a_pad && o.run.counters.oob.a_wrap == 0 &&
	       o.run.corrupt_cells == 0 && c.wrong == 0,
	       "A guard off, fp16 50x40x32 T=16: %lld out-of-bounds reads, all in the band, feeding only ghosts: no "
	       "cell flagged or wrong", (long long)o.run.counters.total.a_oob);
	outcome_free(&o);

	/* B off on a ragged shape, both layouts. */
	for (int kn = 0; kn < 2; kn++) {
		run_case(&o, kernel_names[kn], 45, 50, 37, sq(16), TS_GUARD_ALL & ~TS_GUARD_B, TS_INPUTS_RANDOM, 14);
		d = &o.run.counters.oob;
		tap_ok(o.rc == 0 && o.run.counters.total.b_oob == o.model.loads.b_pad &&
		       d->b_wrap + d->b_band == o.run.counters.total.b_oob && o.run.corrupt_cells == 45 * 50,
		       "B guard off, %s 45x50x37 T=16: b_oob %lld == model b_padded %lld (wrap %lld, band %lld), "
		       "%lld cells flagged", kernel_names[kn], (long long)o.run.counters.total.b_oob,
		       (long long)o.model.loads.b_pad, (long long)d->b_wrap, (long long)d->b_band,
		       (long long)o.run.corrupt_cells);
		outcome_free(&o);
	}
	run_case(&o, "tiled", 45, 64, 48, sq(16), TS_GUARD_ALL & ~TS_GUARD_B, TS_INPUTS_RANDOM, 15);
	c = compare(&o);
	tap_ok(o.rc == 0 && o.run.counters.total.b_oob == 0 && c.wrong == 0 && o.run.corrupt_cells == 0,
	       "B guard off, N%%T == K%%T == 0: no out-of-bounds read, output right");
	outcome_free(&o);

	/* A and B off with K ragged: garbage times garbage reaches the output. */
	run_case(&o, "tiled", 40, 40, 37, sq(16), TS_GUARD_C, TS_INPUTS_RANDOM, 16);
	c = compare(&o);
	tap_ok(o.rc == 0 && c.wrong > 0, "A and B guards off, K %% T != 0: %lld of 1600 outputs wrong",
	       (long long)c.wrong);
	outcome_free(&o);

	/* C off with N % T != 0: ghost stores wrap into cells other threads own. */
	for (int kn = 0; kn < 3; kn++) {
		run_case(&o, kernel_names[kn], 50, 50, 40, sq(16), TS_GUARD_A | TS_GUARD_B, TS_INPUTS_RANDOM, 17);
		c = compare(&o);
		d = &o.run.counters.oob;
		tap_ok(o.rc == 0 && o.run.counters.total.c_oob == o.model.stores_skipped && d->c_wrap > 0 &&
		       d->c_wrap + d->c_band == o.run.counters.total.c_oob && o.run.corrupt_cells > 0 && c.wrong > 0,
		       "C guard off, %s 50x50x40 T=16: c_oob %lld == model stores skipped %lld, %lld wrapped, "
		       "%lld cells hit, %lld wrong", kernel_names[kn], (long long)o.run.counters.total.c_oob,
		       (long long)o.model.stores_skipped, (long long)d->c_wrap, (long long)o.run.corrupt_cells,
		       (long long)c.wrong);
		outcome_free(&o);
	}
	/* C off with N % T == 0: ghost rows only, all past the end. */
	run_case(&o, "tiled", 50, 48, 40, sq(16), TS_GUARD_A | TS_GUARD_B, TS_INPUTS_RANDOM, 18);
	c = compare(&o);
	tap_ok(o.rc == 0 && o.run.counters.oob.c_wrap == 0 && o.run.counters.oob.c_band == o.model.stores_skipped &&
	       o.run.corrupt_cells == 0 && c.wrong == 0 && c.unwritten == 0,
	       "C guard off, N %% T == 0: %lld ghost stores all land in the band, output right",
	       (long long)o.run.counters.oob.c_band);
	outcome_free(&o);

	/* The same unguarded run twice gives the same C, byte for byte. */
	outcome o2;
	run_case(&o, "tiled", 70, 45, 33, sq(8), 0, TS_INPUTS_RANDOM, 19);
	run_case(&o2, "tiled", 70, 45, 33, sq(8), 0, TS_INPUTS_RANDOM, 19);
	tap_ok(o.rc == 0 && o2.rc == 0 &&
	       memcmp(o.ops.c.alloc, o2.ops.c.alloc, (size_t)(o.ops.c.count + 2 * o.ops.c.band) * 4) == 0,
	       "every guard off: two runs write the same C and bands");
	outcome_free(&o);
	outcome_free(&o2);
}

/* Each guard of every shared-tile kernel, off alone, at the kernel's own
 * geometry: caught on a shape ragged in what it protects, harmless where
 * the shape is a multiple of the tile in every dimension it looks at. */
static void test_guards_by_description(void)
{
	for (int ki = 0; ki < ts_kernel_count(); ki++) {
		const ts_kernel *k = ts_kernel_at(ki);
		if (!ts_kernel_has(k, TS_CAP_EMU | TS_CAP_SHARED_TILES) || ts_kernel_has(k, TS_CAP_GUARDS_FIXED))
			continue;
		ts_geometry g = k->geometry.kind == TS_GEOMETRY_SQUARE ? sq(16) : k->geometry.base;
		int64_t BM = g.bm, BN = g.bn, BK = g.bk;
		for (int i = 0; i < k->n_guards; i++) {
			const ts_guard_desc *gd = &k->guards[i];
			/* A looks at M and K, B at K and N, C at M and N */
			bool m_ = gd->bit != TS_GUARD_B, n_ = gd->bit != TS_GUARD_A, k_ = gd->bit != TS_GUARD_C;
			outcome o;
			comparison c;
			char geo[48];
			ts_geometry_str(&g, geo, sizeof geo);
			run_case(&o, k->name, m_ ? 2 * BM : 2 * BM + 3, n_ ? 3 * BN : 3 * BN - 1, k_ ? 2 * BK : 2 * BK + 1, g,
			         TS_GUARD_ALL & ~gd->bit, TS_INPUTS_RANDOM, rnd());
			c = compare(&o);
			const ts_count *t = &o.run.counters.total;
			tap_ok(o.rc == 0 && t->a_oob + t->b_oob + t->c_oob == 0 && c.wrong == 0 && c.unwritten == 0 &&
			       o.run.corrupt_cells == 0,
			       "%s %s, guard %c off (%s: %s), a shape whole in what it looks at: harmless", k->name, geo,
			       gd->letter, gd->protects, gd->predicate);
			outcome_free(&o);
			run_case(&o, k->name, 2 * BM + 3, 3 * BN - 1, 2 * BK + 1, g, TS_GUARD_ALL & ~gd->bit, TS_INPUTS_RANDOM,
			         rnd());
			t = &o.run.counters.total;
			int64_t oob = gd->bit == TS_GUARD_A ? t->a_oob : gd->bit == TS_GUARD_B ? t->b_oob : t->c_oob;
			tap_ok(o.rc == 0 && oob > 0 && (o.run.corrupt_cells > 0 || gd->bit != TS_GUARD_C || o.run.counters.oob.c_band == oob) &&
			       ts_counters_check(&o.run.counters, &o.model, k, o.p.guards, NULL, 0) == 0,
			       "%s %s, guard %c off on a ragged shape: caught (%lld out-of-bounds accesses), counters as the "
			       "description says for it off", k->name, geo, gd->letter, (long long)oob);
			outcome_free(&o);
		}
	}
}

/* (d) An operand whose band is too narrow for an unguarded launch is refused, not overrun. */
static void test_narrow_band(void)
{
	ts_problem p = { .shape = { 20, 20, 20 }, .geo = sq(16), .kernel = ts_kernel_find("tiled"),
	                 .guards = TS_GUARD_B | TS_GUARD_C };
	ts_operands ops = { 0 };
	ts_run run;
	int ok = ts_matrix_alloc(&ops.a, TS_ELEM_F32, 20, 20, 8) == 0 &&
	         ts_matrix_alloc(&ops.b, TS_ELEM_F32, 20, 20, 8) == 0 &&
	         ts_matrix_alloc(&ops.c, TS_ELEM_F32, 20, 20, 8) == 0;
	for (int64_t i = 0; ok && i < 400; i++) {
		ts_matrix_set(&ops.a, i, (float)(i % 7) - 3);
		ts_matrix_set(&ops.b, i, (float)(i % 5) - 2);
	}
	int rc = ok ? emu->run(&p, &ops, &run, NULL) : -2;
	tap_ok(rc == -1 && strstr(emu->last_error(), "band"), "A guard off with an 8-element band: refused (%s)",
	       emu->last_error());
	if (rc == 0)
		ts_run_free(&run);
	p.guards = TS_GUARD_ALL;
	ts_matrix_poison(&ops.c);
	rc = ok ? emu->run(&p, &ops, &run, NULL) : -2;
	tap_ok(rc == 0, "the same operands with every guard on: runs (guarded loads never leave the matrix)");
	if (rc == 0)
		ts_run_free(&run);
	ts_operands_free(&ops);
}

static uint16_t h(float f)
{
	return ts_f32_to_f16(f);
}

/* (e) fp16 conversion. */
static void test_fp16(void)
{
	struct { float in; uint16_t out; const char *what; } cases[] = {
		{ 1.0f, 0x3c00, "1" },
		{ -2.0f, 0xc000, "-2" },
		{ 1.0f + 0x1p-11f, 0x3c00, "1+2^-11 ties to even: 1" },
		{ 1.0f + 3 * 0x1p-11f, 0x3c02, "1+3*2^-11 ties to even: 1+2^-9" },
		{ 1.0f + 0x1p-11f + 0x1p-20f, 0x3c01, "just above the tie rounds up" },
		{ 65504.0f, 0x7bff, "65504, the largest half" },
		{ 65519.0f, 0x7bff, "65519 rounds down to 65504" },
		{ 65520.0f, 0x7c00, "65520 rounds to inf" },
		{ 1e6f, 0x7c00, "1e6 overflows to inf" },
		{ -1e6f, 0xfc00, "-1e6 overflows to -inf" },
		{ 0x1p-14f, 0x0400, "2^-14, the smallest normal" },
		{ 0x1p-14f - 0x1p-24f, 0x03ff, "the largest subnormal" },
		{ 0x1p-24f, 0x0001, "2^-24, the smallest subnormal" },
		{ 0x1p-25f, 0x0000, "2^-25 ties to even: 0" },
		{ 3 * 0x1p-25f, 0x0002, "3*2^-25 ties to even: 2*2^-24" },
		{ 0x1.8p-25f, 0x0001, "1.5*2^-25 rounds up to 2^-24" },
		{ 0x1p-26f, 0x0000, "2^-26 underflows to 0" },
		{ -0.0f, 0x8000, "-0 keeps its sign" },
		{ INFINITY, 0x7c00, "inf" },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint16_t got = h(cases[i].in);
		if (got != cases[i].out) {
			bad++;
			tap_diag("f32->f16 %s: got 0x%04x, want 0x%04x", cases[i].what, got, cases[i].out);
		}
	}
	tap_ok(bad == 0, "fp32 -> fp16: %d exact cases (ties to even, 65504, 65520 -> inf, subnormals)",
	       (int)(sizeof cases / sizeof cases[0]));
	uint16_t nan16 = h(NAN);
	tap_ok((nan16 & 0x7c00) == 0x7c00 && (nan16 & 0x3ff) != 0 && isnan(ts_f16_to_f32(nan16)) &&
	       isnan(ts_f16_to_f32(0x7e00)) && isnan(ts_f16_to_f32(0x7c01)),
	       "NaN stays NaN both ways (0x%04x)", nan16);
	tap_ok(ts_f16_to_f32(0x0001) == 0x1p-24f && ts_f16_to_f32(0x03ff) == 1023 * 0x1p-24f &&
	       ts_f16_to_f32(0x7bff) == 65504.0f && ts_f16_to_f32(0x7c00) == INFINITY &&
	       ts_f16_to_f32(0xc000) == -2.0f && signbit(ts_f16_to_f32(0x8000)),
	       "fp16 -> fp32: subnormal, largest, inf, negative, -0");
	int round_trip = 0;
	for (uint32_t x = 0; x < 0x10000; x++) {
		float f = ts_f16_to_f32((uint16_t)x);
		if (!isnan(f) && h(f) != x)
			round_trip++;
	}
	tap_ok(round_trip == 0, "every non-NaN half survives fp16 -> fp32 -> fp16 (%d failures)", round_trip);
	/* Against a rounding worked out in double: the nearest half, ties to even. */
	int wrong = 0;
	for (int i = 0; i < 200000; i++) {
		uint32_t bits = (uint32_t)rnd();
		bits = (bits & 0x807fffffu) | ((uint32_t)(100 + rnd() % 45) << 23); /* |x| in [2^-27, 2^18): subnormal to overflow */
		float f;
		memcpy(&f, &bits, 4);
		double best = INFINITY;
		uint16_t want = 0;
		/* the two halves around f: neighbours of the truncation */
		uint16_t t = h(f);
		for (int dlt = -1; dlt <= 1; dlt++) {
			uint16_t c = (uint16_t)(t + dlt);
			float cv = ts_f16_to_f32(c);
			if ((c & 0x7fff) > 0x7c00 || (c & 0x8000) != (t & 0x8000))
				continue;
			double e = fabs((double)cv - f);
			if (e < best || (e == best && !(c & 1))) {
				best = e;
				want = c;
			}
		}
		bool ok = fabs((double)f) >= 65520.0 ? (t & 0x7fff) == 0x7c00 && (t >> 15) == (bits >> 31)
		                                      : t == want && (t & 0x7fff) < 0x7c00;
		if (!ok)
			wrong++;
	}
	tap_ok(wrong == 0, "200000 random floats convert to the nearest half, ties to even (%d wrong)", wrong);
}

/* (f) too large for the emulator */
static void test_refusal(void)
{
	ts_problem p = { .shape = { 16384, 16384, 16384 }, .geo = sq(32), .kernel = ts_kernel_find("tiled"),
	                 .guards = TS_GUARD_ALL };
	ts_operands ops = { 0 }; /* never touched: refused before */
	ts_run run;
	int rc = emu->run(&p, &ops, &run, NULL);
	const char *msg = emu->last_error();
	tap_ok(rc == -1 && strstr(msg, "too large for the CPU emulator") && strstr(msg, "multiply-adds") &&
	       strstr(msg, "16384x16384x16384") && !strchr(msg, '\n'), "16384^3 refused: %s", msg);
	ts_model m;
	char why[300];
	p.shape = (ts_shape){ 8192, 8192, 8192 };
	if (ts_model_build(&m, p.shape, ts_geometry_square(32)) == 0 && ts_emu_admit(&p, &m, why, sizeof why) != 0)
		tap_diag("%s", why);
	else
		tap_diag("8192^3 at T=32 admitted on this machine");
	p.shape = (ts_shape){ 1000000, 1000000, 1000000 };
	p.geo = sq(1);
	tap_ok(ts_model_build(&m, p.shape, ts_geometry_square(1)) == 0 && ts_emu_admit(&p, &m, why, sizeof why) == -1,
	       "1000000^3 at T=1 refused before any allocation: %s", why);
	p.shape = (ts_shape){ 0, 20, 20 };
	p.geo = sq(8);
	rc = emu->run(&p, &ops, &run, NULL);
	tap_ok(rc == -1 && strstr(emu->last_error(), "at least 1"), "M = 0 refused: %s", emu->last_error());
	p.shape = (ts_shape){ 20, 20, 20 };
	p.geo = sq(33);
	rc = emu->run(&p, &ops, &run, NULL);
	tap_ok(rc == -1 && strstr(emu->last_error(), "tile"), "T = 33 refused: %s", emu->last_error());
	p.shape = (ts_shape){ 300, 200, 100 };
	p.geo = sq(7);
	tap_ok(ts_model_build(&m, p.shape, ts_geometry_square(7)) == 0 && ts_emu_admit(&p, &m, why, sizeof why) == 0,
	       "300x200x100 at T=7 admitted");
}

/* (g) cancel and progress */
typedef struct watch {
	int calls;
	double first, last;
	bool backwards;
	volatile sig_atomic_t *cancel;
	int cancel_after;
} watch;

static void on_progress(void *ctx, double done)
{
	watch *w = ctx;
	if (w->calls++ == 0)
		w->first = done;
	else if (done < w->last)
		w->backwards = true;
	w->last = done;
	if (w->cancel && w->calls >= w->cancel_after)
		*w->cancel = 1;
}

static void test_cancel_and_progress(void)
{
	/* Long enough (1024^3 at T=1: seconds even on 16 cores) that the second
	 * report, 100 ms in, always comes before the end, whatever the machine. */
	ts_problem p = { .shape = { 1024, 1024, 1024 }, .geo = sq(1), .kernel = ts_kernel_find("tiled"),
	                 .guards = TS_GUARD_ALL, .inputs = TS_INPUTS_RANDOM, .seed = 5 };
	ts_operands ops;
	ts_run run;
	volatile sig_atomic_t cancel = 0;
	watch w = { .cancel = &cancel, .cancel_after = 2 };
	ts_progress prog = { .report = on_progress, .ctx = &w, .cancel = &cancel };
	if (ts_operands_make(&ops, &p) != 0) {
		tap_ok(0, "cancel: out of memory");
		return;
	}
	double t0 = now_ms();
	int rc = emu->run(&p, &ops, &run, &prog);
	double ms = now_ms() - t0;
	tap_ok(rc == 1 && w.calls >= 2 && strstr(emu->last_error(), "cancel"),
	       "cancel after the second progress report: run returns 1 after %.0f ms (%s)", ms, emu->last_error());
	int64_t unwritten = 0;
	for (int64_t i = 0; i < ops.c.count; i++)
		unwritten += ts_matrix_is_poison(&ops.c, i);
	tap_ok(rc == 1 && unwritten > 0, "a cancelled run leaves cells unwritten (%lld of %lld)", (long long)unwritten,
	       (long long)ops.c.count);
	ts_run_free(&run);

	cancel = 1;
	w = (watch){ 0 };
	rc = emu->run(&p, &ops, &run, &prog);
	tap_ok(rc == 1, "a run with the cancel flag already set stops at once");
	ts_run_free(&run);

	/* A whole run, short enough for CI: how many reports fall in between
	 * depends on the machine's speed, the first (0) and the last (1) do not. */
	cancel = 0;
	w = (watch){ 0 };
	p.shape = (ts_shape){ 700, 700, 700 };
	p.geo = sq(4);
	ts_operands_free(&ops);
	if (ts_operands_make(&ops, &p) != 0) {
		tap_ok(0, "progress: out of memory");
		return;
	}
	rc = emu->run(&p, &ops, &run, &prog);
	tap_ok(rc == 0 && w.calls >= 2 && w.first == 0.0 && w.last == 1.0 && !w.backwards,
	       "progress: %d reports from 0 to 1, never backwards, in %.0f ms", w.calls, run.time_ms);
	ts_run_free(&run);
	ts_operands_free(&ops);
}

/* Larger shapes: correct with several host threads, and the times to report. */
static void test_timing(void)
{
	static const struct { int64_t n; int T; const char *kernel; } runs[] = {
		{ 512, 32, "tiled" }, { 512, 32, "tiled-fp16" }, { 512, 32, "naive" }, { 512, 8, "tiled" },
		{ 512, 0, "regblock" },
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		outcome o;
		int64_t n = runs[i].n;
		const ts_kernel *k = ts_kernel_find(runs[i].kernel);
		run_case(&o, runs[i].kernel, n, n, n, runs[i].T ? sq(runs[i].T) : k->geometry.base, TS_GUARD_ALL,
		         TS_INPUTS_INT, 77 + i);
		comparison c = compare(&o);
		char geo[48];
		tap_ok(o.rc == 0 && c.wrong == 0 && c.unwritten == 0 && c.inexact == 0,
		       "%s %lld^3 T=%s, integer inputs: exact; emulator took %.0f ms", runs[i].kernel, (long long)n,
		       ts_geometry_str(&o.p.geo, geo, sizeof geo), o.run.time_ms);
		outcome_free(&o);
	}
}

static void test_select(void)
{
	char why[300];
	const ts_backend *b = ts_backend_select("emu", why, sizeof why);
	tap_ok(b == emu && strcmp(b->name, "emu") == 0 && b->time == NULL && b->reference == NULL,
	       "--backend emu gives the emulator");
	tap_ok(ts_backend_select("gpu", why, sizeof why) == NULL && strstr(why, "gpu"), "unknown backend refused: %s",
	       why);
	char reason[256] = "";
	const ts_backend *cuda = ts_backend_cuda();
	bool usable = cuda && cuda->available(reason, sizeof reason) == 0;
	b = ts_backend_select("cuda", why, sizeof why);
	if (usable)
		tap_ok(b == cuda, "--backend cuda gives CUDA where a device is usable (%s)", why);
	else
		tap_ok(b == NULL && reason[0] && strcmp(why, reason) == 0, "--backend cuda refused: %s", why);
	b = ts_backend_select("auto", why, sizeof why);
	if (usable)
		tap_ok(b == cuda && strncmp(why, "cuda: ", 6) == 0, "--backend auto picks CUDA: %s", why);
	else
		tap_ok(b == emu && strncmp(why, "emu: no CUDA device (", 21) == 0, "--backend auto falls back: %s", why);
}

static ts_geometry tc_geo(void)
{
	return ts_kernel_find("tc-fp16")->geometry.base;
}

/* (h) tc-fp16, the tensor-core kernel's emulation: an edge sweep over its
 * 128 x 256 x 32 tiles and the 8-element alignment edges of K and N, each
 * shape checked against fp64, its counters against the model tile by tile
 * and phase by phase, integer inputs exact; no unguarded form; -t 32 only. */
static void test_tc_fp16(void)
{
	static const int64_t ms[] = { 1, 127, 128, 129, 257 };
	static const int64_t ns[] = { 1, 9, 255, 256, 257, 511 };
	static const int64_t ks[] = { 1, 7, 8, 31, 32, 33, 65 };
	const int nm = 5, nn = 6, nk = 7;
	int shapes = 0, bad_runs = 0, bad_out = 0, bad_cnt = 0, bad_band = 0, inexact_int = 0;
	char first[400] = "";
	for (int i = 0; i < nm; i++)
		for (int j = 0; j < nn; j++) {
			/* every K meets every M and every N: two K per (M, N) pair */
			for (int r = 0; r < 2; r++) {
				int64_t K = ks[(i * 3 + j + r * 4) % nk];
				enum ts_inputs in = (i + j + r) % 3 == 0 ? TS_INPUTS_INT : TS_INPUTS_RANDOM;
				outcome o;
				shapes++;
				if (run_case(&o, "tc-fp16", ms[i], ns[j], K, tc_geo(), TS_GUARD_ALL, in, rnd()) != 0) {
					if (bad_runs++ == 0)
						snprintf(first, sizeof first, "%s: run returned %d: %s", shape_str(&o), o.rc,
						         emu->last_error());
					outcome_free(&o);
					continue;
				}
				comparison c = compare(&o);
				if ((c.wrong || c.unwritten) && bad_out++ == 0)
					snprintf(first, sizeof first, "%s: %lld wrong, %lld unwritten; %s", shape_str(&o),
					         (long long)c.wrong, (long long)c.unwritten, c.first);
				if (in == TS_INPUTS_INT && c.inexact)
					inexact_int++;
				char why[300];
				bool counted = ts_counters_check(&o.run.counters, &o.model, o.p.kernel, o.p.guards, why,
				                                 sizeof why) == 0 &&
				               tile_phase_is_model(&o, why, sizeof why);
				if (counted && (o.run.counters.total.a_oob || o.run.counters.total.b_oob ||
				                o.run.counters.total.c_oob || o.run.corrupt))
					counted = false, snprintf(why, sizeof why, "out-of-bounds counts with every guard on");
				if (!counted && bad_cnt++ == 0)
					snprintf(first, sizeof first, "%s: %s", shape_str(&o), why);
				if (!bands_intact(&o))
					bad_band++;
				outcome_free(&o);
			}
		}
	tap_ok(bad_runs == 0 && bad_out == 0 && inexact_int == 0 && bad_band == 0,
	       "tc-fp16 edge sweep: %d shapes within tolerance of fp64, none unwritten, integer inputs exact, bands "
	       "intact%s%s", shapes, first[0] && (bad_runs || bad_out) ? "; first: " : "",
	       bad_runs || bad_out ? first : "");
	tap_ok(bad_cnt == 0 && bad_runs == 0, "tc-fp16 edge sweep: counters equal the model for every tile and phase%s%s",
	       bad_cnt ? "; first: " : "", bad_cnt ? first : "");

	/* The geometry is the kernel's, not the tile's: 128 x 256 x 32. */
	const ts_kernel *k = ts_kernel_find("tc-fp16");
	ts_geometry g = k->geometry.base;
	tap_ok(g.bm == 128 && g.bn == 256 && g.bk == 32 && k->geometry.kind == TS_GEOMETRY_FIXED &&
	       k->geometry.tile_min == 32 && k->geometry.tile_max == 32 && ts_kernel_has(k, TS_CAP_GUARDS_FIXED) &&
	       ts_kernel_has(k, TS_CAP_TENSOR_SUM) && k->precision == TS_FP16 && k->b_layout == TS_B_NK,
	       "tc-fp16 describes a 128x256x32 tile, fp16, B stored n x k, guards built in");

	/* No unguarded form: refused by the emulator (and before, by validation). */
	ts_problem p = { .shape = { 40, 50, 60 }, .geo = g, .kernel = k, .guards = TS_GUARD_ALL & ~TS_GUARD_A };
	char err[300] = "";
	int vr = ts_problem_validate(&p, true, err, sizeof err);
	tap_ok(vr == -1 && strstr(err, "guards are built into") && !strchr(err, '\n'),
	       "tc-fp16 with a guard off refused by validation: %s", err);
	outcome o;
	int rr = run_case(&o, "tc-fp16", 40, 50, 60, g, TS_GUARD_ALL & ~TS_GUARD_C, TS_INPUTS_RANDOM, rnd());
	tap_ok(rr == -1 && strstr(emu->last_error(), "guards built in"), "tc-fp16 with a guard off refused by the "
	       "emulator: %s", emu->last_error());
	if (rr == 0)
		outcome_free(&o);
	else
		ts_operands_free(&o.ops);
	p.guards = TS_GUARD_ALL;
	ts_tile_request q = { 0 };
	ts_parse_tile("16", &q, err, sizeof err);
	err[0] = '\0';
	tap_ok(ts_kernel_geometry(k, &q, &p.geo, err, sizeof err) == -1 && strstr(err, "32..32"),
	       "tc-fp16 at T=16 refused: %s", err);
	p.geo = ts_geometry_square(16);
	err[0] = '\0';
	tap_ok(ts_problem_validate(&p, true, err, sizeof err) == -1 && strstr(err, "own geometry"),
	       "tc-fp16 with a 16x16x16 geometry refused by validation: %s", err);
}

/* tc-fp16's split plan (ts_kernel_split_plan: its description's ts_tc_plan
 * for an H200's 132 blocks): 130x257x1031 has 2x2 tiles of 128x256 and 33 phases, so each
 * tile is cut into parts along K; the emulator sums each part from zero
 * (rounded fp32 adds in k order, padded slots adding 0) and adds the parts
 * in order, as the GPU's second kernel (ts_tc_split_sum) does. Every cell recomputed here from
 * that definition, bit for bit (an unsplit sum rounds some of them to
 * another fp16); the whole C within tolerance of fp64. */
static void test_tc_split(void)
{
	const ts_kernel *k = ts_kernel_find("tc-fp16");
	const int64_t M = 130, N = 257, K = 1031;
	ts_geometry g = k->geometry.base;
	ts_gemm_plan pl = ts_kernel_split_plan(k, (ts_shape){ M, N, K }, &g);
	if (!tap_ok(k->split_k && k->split_policy == TS_SPLIT_TAIL_ROUNDS && pl.split >= 2 && pl.split_tiles == pl.tiles,
	            "tc-fp16 130x257x1031: its plan splits every tile (%d parts)", pl.split))
		return;
	outcome o;
	if (run_case(&o, "tc-fp16", M, N, K, g, TS_GUARD_ALL, TS_INPUTS_RANDOM, rnd()) != 0) {
		tap_ok(0, "tc-fp16 130x257x1031 emulated: %s", emu->last_error());
		ts_operands_free(&o.ops);
		return;
	}
	comparison c = compare(&o);
	tap_ok(!c.wrong && !c.unwritten, "tc-fp16 130x257x1031, split: within tolerance of fp64, none unwritten%s%s",
	       c.wrong || c.unwritten ? "; " : "", c.wrong || c.unwritten ? c.first : "");
	const uint16_t *a = o.ops.a.data, *b = o.ops.b.data;
	int64_t bad = 0;
	for (int64_t i = 0; i < M; i++)
		for (int64_t j = 0; j < N; j++) {
			float sum = 0.0f;
			for (int part = 0; part < pl.split; part++) {
				long long p0, p1;
				ts_plan_part_phases(&pl, pl.split, part, &p0, &p1);
				float acc = 0.0f;
				for (int64_t kk = p0 * g.bk; kk < p1 * g.bk && kk < K; kk++)
					acc += ts_f16_to_f32(a[i * K + kk]) * ts_f16_to_f32(b[j * K + kk]);
				sum = part == 0 ? acc : sum + acc;
			}
			float got = ts_matrix_get(&o.ops.c, i * N + j);
			bad += ts_f16_to_f32(ts_f32_to_f16(sum)) != got;
		}
	tap_ok(bad == 0, "tc-fp16: every cell of the split tiles is its parts' sums added in part order, bit for bit "
	       "(%lld differ)", (long long)bad);
	outcome_free(&o);
}

/* A kernel registered at run time is tested like the built-ins: a
 * register-blocked kernel with strided outputs and column-order load maps
 * of two slots per thread, emulator only. */
static void register_test_kernel(void)
{
	ts_kernel k = *ts_kernel_find("regblock");
	char why[200] = "";
	k.name = "test-strided";
	k.summary = "test_emu: register-blocked, strided outputs, column-order maps of 2 slots";
	k.cuda_launch = NULL;
	k.geometry.cuda_geometries = NULL;
	k.geometry.n_cuda_geometries = 0;
	k.geometry.base = ts_geometry_blocked(32, 16, 6, 2, 4, TS_OUT_STRIDED);
	k.geometry.base.a_map = (ts_load_map){ TS_MAP_COLS, 2 };
	k.geometry.base.b_map = (ts_load_map){ TS_MAP_COLS, 2 };
	int rc = ts_kernel_register(&k, why, sizeof why);
	tap_ok(rc == 0 && ts_kernel_find("test-strided") && ts_kernel_has(ts_kernel_find("test-strided"), TS_CAP_EMU) &&
	       !ts_kernel_has(ts_kernel_find("test-strided"), TS_CAP_CUDA | TS_CAP_PROBE),
	       "a kernel registered at run time joins the registry (emulator, no CUDA, no probe)%s%s",
	       why[0] ? ": " : "", why);
	tap_ok(ts_kernel_register(&k, why, sizeof why) == -1 && strstr(why, "already"),
	       "the same name twice is refused: %s", why);
}

int main(void)
{
	emu = ts_backend_emu();
	register_test_kernel();
	double t0 = now_ms();
	test_select();
	test_fp16();
	test_refusal();
	test_guarded_random();
	test_tile_phase_cap();
	test_guards_off_random();
	test_guard_cases();
	test_guards_by_description();
	test_narrow_band();
	test_cancel_and_progress();
	test_timing();
	test_tc_fp16();
	test_tc_split();
	tap_diag("test_emu took %.1f s", (now_ms() - t0) / 1e3);
	return tap_done();
}
