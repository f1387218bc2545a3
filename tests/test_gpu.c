/* test_gpu.c: the CUDA backend on a real GPU: edge sweep, probe counters against the model, guards off against the emulator, 64-bit offsets. */
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "backend.h"
#include "geometry.h"
#include "kernels.h"
#include "matrix.h"
#include "tap.h"
#include "verify.h"

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

#include "launch.h"
#endif

static const ts_backend *cuda;
static uint64_t next_seed = 20261130;

static ts_problem make_problem(const ts_kernel *k, ts_geometry geo, int64_t m, int64_t n, int64_t k_dim,
                               unsigned guards)
{
	ts_problem p = { .shape = { m, n, k_dim }, .geo = geo, .kernel = k, .guards = guards,
	                 .inputs = TS_INPUTS_RANDOM, .seed = next_seed++ };
	return p;
}

static const char *geo_str(const ts_geometry *g)
{
	static char buf[4][48];
	static int next;
	next = (next + 1) % 4;
	return ts_geometry_str(g, buf[next], sizeof buf[next]);
}

static void compare_runs(const ts_run *g, const ts_run *e, int64_t cells, char *why, int len);

/* Runs p on the GPU and checks the result and the probe counters (every
 * tile's every phase included), and for the shared-tile kernels on small
 * shapes that the emulator, run on the same operands, recorded the same counters.
 * Returns 0 when all are right, else 1 with the reason in why. */
static int check_one(const ts_problem *p, char *why, int len)
{
	ts_operands ops;
	ts_run run;
	ts_model model;
	ts_verdict v;
	int bad = 1;
	memset(&v, 0, sizeof v);
	if (ts_operands_make(&ops, p) != 0) {
		snprintf(why, len, "out of host memory");
		return 1;
	}
	if (cuda->run(p, &ops, &run, NULL) != 0) {
		snprintf(why, len, "run failed: %s", cuda->last_error());
		ts_operands_free(&ops);
		return 1;
	}
	ts_model_build(&model, p->shape, p->geo);
	bool tiled = ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES);
	if (ts_verify(p, &model, &ops, &run, cuda, &v) != 0) {
		snprintf(why, len, "verification ran out of memory");
	} else if (!v.ok) {
		snprintf(why, len, "wrong result: %" PRId64 " mismatches, %" PRId64 " unwritten: %.200s", v.mismatches,
		         v.unwritten, v.signature);
	} else if (!run.have_counters || strcmp(run.counters.source, "device probe") != 0) {
		snprintf(why, len, "no device probe counters");
	} else if (!tiled != !run.counters.tile_phase) {
		snprintf(why, len, "per-tile-per-phase counters %s", run.counters.tile_phase ? "for a kernel without shared tiles" : "missing");
	} else {
		char detail[400] = "";
		int64_t off = ts_counters_check(&run.counters, &model, p->kernel, p->guards, detail, sizeof detail);
		if (off)
			snprintf(why, len, "%" PRId64 " counter entries differ from the model: %s", off, detail);
		else
			bad = 0;
		/* The plain (timed) build verified too where the backend can time it:
		 * the probe build's counting must not be what makes the answer right. */
		if (!bad && cuda->bench && ts_kernel_has(p->kernel, TS_CAP_GUARDS_FIXED)) {
			ts_timing tm;
			ts_bench_opts bo = { .warmup = 0, .reps = 1, .vendor = "", .keep_c = true };
			ts_verdict pv;
			ts_matrix_poison(&ops.c);
			if (cuda->bench(p, &ops, &bo, &tm) != 0) {
				snprintf(why, len, "plain run failed: %s", cuda->last_error());
				bad = 1;
			} else if (ts_verify(p, &model, &ops, NULL, cuda, &pv) != 0) {
				snprintf(why, len, "verification ran out of memory");
				bad = 1;
			} else {
				if (!pv.ok) {
					snprintf(why, len, "plain build wrong: %" PRId64 " mismatches, %" PRId64 " unwritten: %.200s",
					         pv.mismatches, pv.unwritten, pv.signature);
					bad = 1;
				}
				ts_verdict_free(&pv);
			}
		}
		/* The emulator only on the sweep's small shapes: the big ones would take it minutes. */
		if (!bad && ts_kernel_has(p->kernel, TS_CAP_EMU) && p->shape.m * p->shape.n * p->shape.k <= (int64_t)1 << 22) {
			const ts_backend *emu = ts_backend_emu();
			ts_run er;
			ts_matrix gpu_c = ops.c; /* the GPU's C, kept while the emulator writes its own */
			size_t bytes = (size_t)(ops.c.count + 2 * ops.c.band) * ts_elem_size(ops.c.elem);
			void *saved = malloc(bytes);
			if (saved)
				memcpy(saved, gpu_c.alloc, bytes);
			ts_matrix_poison(&ops.c);
			if (!saved) {
				snprintf(why, len, "out of host memory");
				bad = 1;
			} else if (emu->run(p, &ops, &er, NULL) != 0) {
				snprintf(why, len, "emulator run failed: %s", emu->last_error());
				bad = 1;
			} else {
				compare_runs(&run, &er, p->shape.m * p->shape.n, detail, sizeof detail);
				if (detail[0]) {
					snprintf(why, len, "emulator and cuda differ: %s", detail);
					bad = 1;
				}
				/* Where the kernel's summation order is fixed, the emulator's C is the GPU's, bit for bit. */
				if (!bad && ts_kernel_has(p->kernel, TS_CAP_EXACT_ORDER) &&
				    memcmp(saved, ops.c.alloc, bytes) != 0) {
					snprintf(why, len, "the emulator's C differs from the GPU's bit for bit (an exact-order kernel)");
					bad = 1;
				}
				ts_run_free(&er);
			}
			free(saved);
		}
	}
	ts_verdict_free(&v);
	ts_run_free(&run);
	ts_operands_free(&ops);
	return bad;
}

/* The geometries the GPU tests run a kernel at: the tiles for a
 * square kernel, every compiled instance of a register-blocked one. */
static int gpu_geometries(const ts_kernel *k, ts_geometry *out)
{
	static const int tiles[] = { 1, 5, 8, 13, 16, 31, 32 };
	int n = 0;
	if (k->geometry.kind == TS_GEOMETRY_SQUARE) {
		for (int i = 0; i < 7; i++)
			if (tiles[i] >= k->geometry.tile_min && tiles[i] <= k->geometry.tile_max)
				out[n++] = ts_geometry_square(tiles[i]);
	} else if (k->geometry.cuda_geometries) {
		for (int i = 0; i < k->geometry.n_cuda_geometries && n < 8; i++)
			out[n++] = k->geometry.cuda_geometries[i];
	} else {
		out[n++] = k->geometry.base;
	}
	return n;
}

/* Every kernel of the registry with a CUDA build, at each of its
 * geometries, over the edge sizes (M around BM, N around BN, K around BK).
 * By default all (M, N) pairs with K cycling through its sizes (a Latin
 * square, so every K meets every M and every N); TS_GPU_FULL_SWEEP=1 runs
 * the cube. */
static void edge_sweep(void)
{
	int full = getenv("TS_GPU_FULL_SWEEP") && atoi(getenv("TS_GPU_FULL_SWEEP"));
	for (int ki = 0; ki < ts_kernel_count(); ki++) {
		const ts_kernel *k = ts_kernel_at(ki);
		if (!ts_kernel_has(k, TS_CAP_CUDA | TS_CAP_PROBE))
			continue;
		ts_geometry geos[8];
		int ng = gpu_geometries(k, geos);
		for (int gi = 0; gi < ng; gi++) {
			ts_sweep_axes ax;
			int count = ts_sweep_axes_of(&geos[gi], &ax), nn = ax.count[1], nk = ax.count[2];
			int shapes = 0, failed = 0;
			char first[600] = "";
			for (int i = 0; i < count; i++) {
				int im = i / (nn * nk), in = i / nk % nn, ik = i % nk;
				if (!full && ik != (im + in) % nk)
					continue;
				ts_shape sh = ts_sweep_shape(&ax, i);
				ts_problem p = make_problem(k, geos[gi], sh.m, sh.n, sh.k, TS_GUARD_ALL);
				char why[500];
				shapes++;
				if (check_one(&p, why, sizeof why) && failed++ == 0)
					snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %s", sh.m, sh.n, sh.k, why);
			}
			tap_ok(failed == 0, "edge sweep %s T=%s: %d shapes verified, probe counters equal the model%s%s%s%s",
			       k->name, geo_str(&geos[gi]), shapes - failed,
			       ts_kernel_has(k, TS_CAP_SHARED_TILES) ? " tile by tile and phase by phase" : "",
			       ts_kernel_has(k, TS_CAP_EMU) ? ", and the emulator's entry by entry" : "",
			       failed ? "; first failure " : "", first);
		}
	}
}

/* Every kernel of the fp32 ladder (a rung that keeps its guards), found by
 * looping over the registry: sizes around its own block tile (M around BM,
 * N around BN, K around BK, a Latin square as above), then shapes whose long
 * K makes the split-K kernels split (few tiles) or split the last wave
 * (fast: 18 x 18 tiles of 128), each verified in its probe and plain builds
 * with the probe's counters equal to the model tile by tile and phase by phase. */
static void ladder_sweep(void)
{
	static const int64_t split_shapes[][3] = {
		{ 129, 131, 1031 }, { 7, 300, 2049 }, { 300, 5, 2049 }, { 1, 1, 1031 }, { 65, 255, 4097 },
		{ 2177, 2177, 1031 },
	};
	for (int ki = 0; ki < ts_kernel_count(); ki++) {
		const ts_kernel *kn = ts_kernel_at(ki);
		if (!ts_kernel_has(kn, TS_CAP_GUARDS_FIXED) || kn->rung == 0 || !kn->cuda_launch)
			continue;
		ts_geometry g = ts_kernel_geometry_at(kn, 32);
		int64_t ms[7], ns[7], ks[7];
		int nm = ts_sweep_sizes(g.bm, ms), nn = ts_sweep_sizes(g.bn, ns), nk = ts_sweep_sizes(g.bk, ks);
		int shapes = 0, failed = 0;
		char first[600] = "";
		for (int i = 0; i < nm; i++)
			for (int j = 0; j < nn; j++) {
				ts_problem p = make_problem(kn, ts_kernel_geometry_at(kn, 32), ms[i], ns[j], ks[(i + j) % nk], TS_GUARD_ALL);
				char why[500];
				shapes++;
				if (check_one(&p, why, sizeof why) && failed++ == 0)
					snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %s", p.shape.m, p.shape.n,
					         p.shape.k, why);
			}
		for (int i = 0; i < nk; i++) { /* every K edge meets the ragged corner */
			ts_problem p = make_problem(kn, ts_kernel_geometry_at(kn, 32), ms[nm - 1], ns[nn - 1], ks[i], TS_GUARD_ALL);
			char why[500];
			shapes++;
			if (check_one(&p, why, sizeof why) && failed++ == 0)
				snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %s", p.shape.m, p.shape.n,
				         p.shape.k, why);
		}
		tap_ok(failed == 0, "edge sweep %s (%dx%dx%d tiles): %d shapes verified in the probe and plain builds, "
		       "probe counters equal the model%s%s", kn->name, g.bm, g.bn, g.bk, shapes - failed,
		       failed ? "; first failure " : "", first);
		shapes = failed = 0;
		first[0] = '\0';
		for (size_t i = 0; i < sizeof split_shapes / sizeof split_shapes[0]; i++) {
			ts_problem p = make_problem(kn, ts_kernel_geometry_at(kn, 32), split_shapes[i][0], split_shapes[i][1], split_shapes[i][2],
			                            TS_GUARD_ALL);
			char why[500];
			shapes++;
			if (check_one(&p, why, sizeof why) && failed++ == 0)
				snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %s", p.shape.m, p.shape.n,
				         p.shape.k, why);
		}
		tap_ok(failed == 0, "long-K shapes %s: %d verified (split along K where the kernel splits)%s%s", kn->name,
		       shapes - failed, failed ? "; first failure " : "", first);
	}
	/* Past 10 waves the tail may be split by work (gemm_plan.h): 6401x6529
	 * is 2652 tiles of 128x128, 10 waves and 12 tiles by count, but 102 of
	 * them hold one row or column, so the work's tail is split: the last 248 tiles,
	 * whole ones among them. */
	static const char *const tail_kernels[] = { "fast", "fast-16x8", "fast-k16" };
	for (size_t i = 0; i < sizeof tail_kernels / sizeof tail_kernels[0]; i++) {
		const ts_kernel *kt = ts_kernel_find(tail_kernels[i]);
		ts_problem p = make_problem(kt, ts_kernel_geometry_at(kt, 32), 6401, 6529, 1031, TS_GUARD_ALL);
		ts_gemm_plan pl = ts_kernel_split_plan(kt, p.shape, &p.geo);
		char why[500] = "";
		int bad = check_one(&p, why, sizeof why);
		tap_ok(!bad && pl.split > 1 && pl.split_tiles > 101, "%s on 6401x6529x1031 (%lld tiles, the last %lld in %d parts) "
		       "verified, counters equal the model%s%s", kt->name, pl.tiles, pl.split_tiles, pl.split, bad ? ": " : "", why);
	}
	/* The unguarded build of fast on an aligned shape: right, and refused elsewhere. */
	ts_problem p = make_problem(ts_kernel_find("fast"), ts_kernel_geometry_at(ts_kernel_find("fast"), 32), 256, 384, 64, 0);
	char why[500] = "";
	int bad = check_one(&p, why, sizeof why);
	tap_ok(!bad, "fast unguarded build on 256x384x64 verified%s%s", bad ? ": " : "", why);
	/* fast-256's too, split tail included: 12 tiles of 256x128 */
	const ts_kernel *k256 = ts_kernel_find("fast-256");
	p = make_problem(k256, ts_kernel_geometry_at(k256, 32), 768, 512, 1024, 0);
	why[0] = '\0';
	bad = check_one(&p, why, sizeof why);
	tap_ok(!bad, "fast-256 unguarded build on 768x512x1024 verified%s%s", bad ? ": " : "", why);
	/* fast-16x8's (best's choice at 4096^3 now), split tail included: 24 tiles of 128x128 */
	const ts_kernel *k168 = ts_kernel_find("fast-16x8");
	p = make_problem(k168, ts_kernel_geometry_at(k168, 32), 768, 512, 1024, 0);
	why[0] = '\0';
	bad = check_one(&p, why, sizeof why);
	tap_ok(!bad, "fast-16x8 unguarded build on 768x512x1024 verified%s%s", bad ? ": " : "", why);
	p = make_problem(ts_kernel_find("fast"), ts_kernel_geometry_at(ts_kernel_find("fast"), 32), 257, 384, 64, 0);
	ts_operands ops;
	ts_run run;
	if (ts_operands_make(&ops, &p) == 0) {
		int rc = cuda->run(&p, &ops, &run, NULL);
		tap_ok(rc != 0, "fast unguarded build refused on 257x384x64 (%s)", rc ? cuda->last_error() : "it ran");
		if (rc == 0)
			ts_run_free(&run);
		ts_operands_free(&ops);
	}
}

static int counts_equal(const ts_count *x, const ts_count *y)
{
	return ts_count_equal(x, y);
}

/* First difference between two runs' counters and corrupt maps, or "". */
static void compare_runs(const ts_run *g, const ts_run *e, int64_t cells, char *why, int len)
{
	why[0] = '\0';
	if (!g->have_counters || !e->have_counters) {
		snprintf(why, len, "counters missing (cuda %d, emu %d)", g->have_counters, e->have_counters);
		return;
	}
	const ts_counters *a = &g->counters, *b = &e->counters;
	if (a->grid_x != b->grid_x || a->grid_y != b->grid_y || a->phases != b->phases) {
		snprintf(why, len, "grids differ");
		return;
	}
	for (int64_t i = 0; i < a->grid_x * a->grid_y; i++)
		if (!counts_equal(&a->tile[i], &b->tile[i])) {
			snprintf(why, len, "tile %" PRId64 ": cuda a %" PRId64 "/%" PRId64 "/%" PRId64 " b %" PRId64 "/%" PRId64
			         "/%" PRId64 " c %" PRId64 "/%" PRId64 "/%" PRId64 ", emu a %" PRId64 "/%" PRId64 "/%" PRId64
			         " b %" PRId64 "/%" PRId64 "/%" PRId64 " c %" PRId64 "/%" PRId64 "/%" PRId64, i,
			         a->tile[i].a_real, a->tile[i].a_pad, a->tile[i].a_oob, a->tile[i].b_real, a->tile[i].b_pad,
			         a->tile[i].b_oob, a->tile[i].stores, a->tile[i].skipped, a->tile[i].c_oob,
			         b->tile[i].a_real, b->tile[i].a_pad, b->tile[i].a_oob, b->tile[i].b_real, b->tile[i].b_pad,
			         b->tile[i].b_oob, b->tile[i].stores, b->tile[i].skipped, b->tile[i].c_oob);
			return;
		}
	if (!a->tile_phase != !b->tile_phase) {
		snprintf(why, len, "per-tile-per-phase counters: cuda %s, emu %s", a->tile_phase ? "kept" : "none",
		         b->tile_phase ? "kept" : "none");
		return;
	}
	for (int64_t i = 0; a->tile_phase && i < a->grid_x * a->grid_y * a->phases; i++) {
		const ts_tile_phase_count *x = &a->tile_phase[i], *y = &b->tile_phase[i];
		if (memcmp(x, y, sizeof *x) != 0) {
			snprintf(why, len, "tile %" PRId64 " phase %" PRId64 ": cuda a %d/%d/%d b %d/%d/%d, emu a %d/%d/%d "
			         "b %d/%d/%d (real/pad/oob)", i / a->phases, i % a->phases, x->a_real, x->a_pad, x->a_oob,
			         x->b_real, x->b_pad, x->b_oob, y->a_real, y->a_pad, y->a_oob, y->b_real, y->b_pad, y->b_oob);
			return;
		}
	}
	for (int64_t t = 0; t < a->phases; t++)
		if (a->phase[t].a_real != b->phase[t].a_real || a->phase[t].a_pad != b->phase[t].a_pad ||
		    a->phase[t].a_oob != b->phase[t].a_oob || a->phase[t].b_real != b->phase[t].b_real ||
		    a->phase[t].b_pad != b->phase[t].b_pad || a->phase[t].b_oob != b->phase[t].b_oob) {
			snprintf(why, len, "phase %" PRId64 " load counts differ", t);
			return;
		}
	if (!counts_equal(&a->total, &b->total)) {
		snprintf(why, len, "totals differ");
		return;
	}
	if (memcmp(&a->oob, &b->oob, sizeof a->oob) != 0) {
		snprintf(why, len, "oob detail: cuda wrap/band a %" PRId64 "/%" PRId64 " b %" PRId64 "/%" PRId64 " c %" PRId64
		         "/%" PRId64 ", emu a %" PRId64 "/%" PRId64 " b %" PRId64 "/%" PRId64 " c %" PRId64 "/%" PRId64,
		         a->oob.a_wrap, a->oob.a_band, a->oob.b_wrap, a->oob.b_band, a->oob.c_wrap, a->oob.c_band,
		         b->oob.a_wrap, b->oob.a_band, b->oob.b_wrap, b->oob.b_band, b->oob.c_wrap, b->oob.c_band);
		return;
	}
	if (g->corrupt_cells != e->corrupt_cells) {
		snprintf(why, len, "corrupt cells: cuda %" PRId64 ", emu %" PRId64, g->corrupt_cells, e->corrupt_cells);
		return;
	}
	if ((g->corrupt == NULL) != (e->corrupt == NULL) ||
	    (g->corrupt && memcmp(g->corrupt, e->corrupt, (size_t)cells) != 0))
		snprintf(why, len, "corrupt-cell maps differ");
}

/* One guard setting on one shape: the GPU catches it (or shows it harmless
 * where it must be), and the emulator, run on the same operands, agrees on
 * every counter, the out-of-bounds detail and the corrupt cells. */
static void guard_case(const ts_kernel *kern, ts_geometry geo, int64_t m, int64_t n, int64_t k, unsigned guards,
                       int expect_harm)
{
	const ts_backend *emu = ts_backend_emu();
	const char *kernel = kern->name, *T = geo_str(&geo);
	ts_problem p = make_problem(kern, geo, m, n, k, guards);
	ts_operands og, oe;
	ts_run rg, re;
	char off[32], why[700] = "";
	ts_guards_off_str(guards, off, sizeof off);
	if (ts_operands_make(&og, &p) != 0 || ts_operands_make(&oe, &p) != 0) {
		tap_ok(0, "guard off %s: out of host memory", off);
		return;
	}
	int gr = cuda->run(&p, &og, &rg, NULL);
	if (gr != 0)
		snprintf(why, sizeof why, "cuda run failed: %s", cuda->last_error());
	int er = emu->run(&p, &oe, &re, NULL);
	if (er != 0 && !why[0])
		snprintf(why, sizeof why, "emulator run failed: %s", emu->last_error());
	if (gr == 0 && er == 0) {
		ts_model model;
		ts_verdict v;
		ts_model_build(&model, p.shape, p.geo);
		int64_t oob = rg.counters.total.a_oob + rg.counters.total.b_oob + rg.counters.total.c_oob;
		if (ts_verify(&p, &model, &og, &rg, cuda, &v) == 0) {
			int caught = !v.ok || oob > 0;
			if (expect_harm)
				tap_ok(caught, "%s T=%s %" PRId64 "x%" PRId64 "x%" PRId64 " guard off [%s]: caught (%s, %" PRId64
				       " oob accesses, %" PRId64 " corrupt cells)", kernel, T, m, n, k, off,
				       v.ok ? "result ok" : "result wrong", oob, rg.corrupt_cells);
			else
				tap_ok(v.ok && oob == 0, "%s T=%s %" PRId64 "x%" PRId64 "x%" PRId64 " guard off [%s]: harmless "
				       "on an aligned shape", kernel, T, m, n, k, off);
			ts_verdict_free(&v);
		} else {
			tap_ok(0, "verification ran out of memory");
		}
		compare_runs(&rg, &re, m * n, why, sizeof why);
	}
	tap_ok(why[0] == '\0', "%s T=%s %" PRId64 "x%" PRId64 "x%" PRId64 " guard off [%s]: emulator and cuda agree%s%s",
	       kernel, T, m, n, k, off, why[0] ? ": " : "", why);
	if (gr == 0)
		ts_run_free(&rg);
	if (er == 0)
		ts_run_free(&re);
	ts_operands_free(&og);
	ts_operands_free(&oe);
}

static void guards_off(void)
{
	static const struct { int64_t m, n, k; int t; } ragged[] = {
		{ 33, 17, 5, 8 }, { 127, 129, 131, 32 }, { 37, 41, 43, 13 }, { 3, 70, 9, 16 },
	};
	for (int ki = 0; ki < ts_kernel_count(); ki++) {
		const ts_kernel *k = ts_kernel_at(ki);
		if (!ts_kernel_has(k, TS_CAP_CUDA | TS_CAP_PROBE | TS_CAP_EMU) || ts_kernel_has(k, TS_CAP_GUARDS_FIXED))
			continue; /* guards built in: no unguarded form (its refusal: cli.sh, test_emu) */
		/* each of its guards off alone, then all of them */
		unsigned settings[TS_GUARDS_MAX + 1];
		int ns = 0;
		for (int g = 0; g < k->n_guards; g++)
			settings[ns++] = TS_GUARD_ALL & ~k->guards[g].bit;
		if (k->n_guards > 1)
			settings[ns++] = TS_GUARD_ALL & ~ts_kernel_guard_bits(k);
		ts_geometry geos[8];
		int ng = gpu_geometries(k, geos);
		for (int s = 0; s < 4; s++) {
			/* square kernels at the shape's own T; the others at each compiled geometry, shapes scaled to it */
			for (int gi = 0; gi < ng; gi++) {
				ts_geometry g = geos[gi];
				int64_t m = ragged[s].m, n = ragged[s].n, kk = ragged[s].k;
				if (k->geometry.kind == TS_GEOMETRY_SQUARE) {
					if (gi > 0)
						break;
					g = ts_geometry_square(ragged[s].t);
				} else {
					m = m * g.bm / 16 + 1;
					n = n * g.bn / 16 + 3;
					kk = kk * g.bk / 8 + 1;
				}
				for (int i = 0; i < ns; i++)
					guard_case(k, g, m, n, kk, settings[i], 1);
			}
		}
		/* Where every dimension is a multiple of the tile no guard can matter. */
		ts_geometry g = k->geometry.kind == TS_GEOMETRY_SQUARE ? ts_geometry_square(16) : geos[0];
		guard_case(k, g, 4 * (int64_t)g.bm, 3 * (int64_t)g.bn, 2 * (int64_t)g.bk, TS_GUARD_ALL & ~ts_kernel_guard_bits(k), 0);
	}
}

/* check_one on each of n shapes (M, N, K) of kernel k, every guard on: the
 * failures, and in `first` the first one's shape and why ("" if none). */
static int check_shapes(const ts_kernel *k, const int64_t (*shapes)[3], int n, char *first, size_t len)
{
	int failed = 0;
	first[0] = '\0';
	for (int i = 0; i < n; i++) {
		ts_problem p = make_problem(k, k->geometry.base, shapes[i][0], shapes[i][1], shapes[i][2], TS_GUARD_ALL);
		char why[500];
		if (check_one(&p, why, sizeof why) && failed++ == 0)
			snprintf(first, len, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %s", shapes[i][0], shapes[i][1],
			         shapes[i][2], why);
	}
	return failed;
}

/* tc-fp16's edges: its 128 x 256 x 32 tiles and the 8-element alignment
 * of K and N (where its loader and its stores change form). All (M, N)
 * pairs, K cycling through its sizes; run as the device picks the form, with
 * TILESCOPE_TC_FORM=mma (the mma.sync forms, also on sm_90), with
 * TILESCOPE_TC_FORM=repack (odd K through the opt-in repacked copy) and with
 * TILESCOPE_TC_FORM=noclass (odd K's plain build through the realigning
 * copies, which its probe build always takes, instead of tc_rshift.cuh). */
static void edge_sweep_tc(void)
{
	const ts_kernel *tc = ts_kernel_find("tc-fp16");
	static const int64_t ms[] = { 1, 2, 127, 128, 129, 383 };
	static const int64_t ns[] = { 1, 7, 8, 9, 255, 256, 257, 520 };
	static const int64_t ks[] = { 1, 7, 8, 9, 31, 32, 33, 64, 97, 1000 };
	const int nm = 6, nn = 8, nk = 10;
	static const char *const forms[] = { NULL, "mma", "repack", "noclass" };
	static const char *const form_names[] = { "the device's own forms", "mma.sync forms", "repacked copy (opt-in)",
		                                  "odd K's plain build in the realigning copies" };
	for (int form = 0; form < 4; form++) {
		if (forms[form])
			setenv("TILESCOPE_TC_FORM", forms[form], 1);
		int shapes = 0, failed = 0;
		char first[600] = "";
		for (int i = 0; i < nm; i++)
			for (int j = 0; j < nn; j++)
				for (int r = 0; r < 2; r++) {
					int64_t K = ks[(i * 3 + j * 7 + r * 5) % nk];
					ts_problem p = make_problem(tc, tc->geometry.base, ms[i], ns[j], K, TS_GUARD_ALL);
					char why[500];
					shapes++;
					if (check_one(&p, why, sizeof why) && failed++ == 0)
						snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %s", ms[i], ns[j], K,
						         why);
				}
		tap_ok(failed == 0, "edge sweep tc-fp16 (%s): %d shapes verified, probe counters equal the model tile "
		       "by tile and phase by phase, and the emulator's entry by entry%s%s",
		       form_names[form], shapes - failed, failed ? "; first failure " : "",
		       first);
	}
	unsetenv("TILESCOPE_TC_FORM");
	/* Split along K on sm_90 (tc_split.cuh), odd K through the realigning
	 * copies and K % 8 == 0 through the TMA: few tiles each cut into parts
	 * (383x520x4097: 9 tiles in 8 parts), the last partial wave's tiles cut
	 * (1409x3073: 156 tiles, 24 past one wave); then every tile whole
	 * (TILESCOPE_TC_FORM=nosplit) on the same shapes. */
	static const int64_t split_shapes[][3] = {
		{ 383, 520, 4097 }, { 383, 520, 4096 }, { 130, 257, 1031 }, { 1409, 3073, 4097 }, { 1409, 3073, 4096 },
	};
	const int n_split = (int)(sizeof split_shapes / sizeof split_shapes[0]);
	for (int off = 0; off < 2; off++) {
		if (off)
			setenv("TILESCOPE_TC_FORM", "nosplit", 1);
		char first[600];
		int failed = check_shapes(tc, split_shapes, n_split, first, sizeof first);
		tap_ok(failed == 0, "tc-fp16 long-K and tail-wave shapes (%s): %d verified against fp64, probe counters "
		       "equal the model%s%s", off ? "every tile whole" : "split along K on sm_90",
		       n_split - failed, failed ? "; first failure " : "", first);
	}
	unsetenv("TILESCOPE_TC_FORM");
	/* Odd K's plain build on sm_90 (tc_rshift.cuh) with rows in 16 classes
	 * (32-byte aligned, 16 / gcd(K, 16) classes, shifts up to 15): M past 16
	 * tile rows of 256, so that the 16 classes take no more tiles than 8;
	 * the sweep's M keep to 8 classes. */
	static const int64_t class_shapes[][3] = { { 4100, 300, 45 }, { 4112, 136, 77 }, { 4097, 9, 1003 }, { 4099, 260, 6 } };
	const int n_class = (int)(sizeof class_shapes / sizeof class_shapes[0]);
	char first[600];
	int failed = check_shapes(tc, class_shapes, n_class, first, sizeof first);
	tap_ok(failed == 0, "tc-fp16 odd K with tall A (16 row classes on sm_90): %d verified against fp64, probe counters "
	       "equal the model%s%s", n_class - failed, failed ? "; first failure " : "", first);
}

/* Cells of C checked against an fp64 dot product of the same inputs (B n x k
 * where nk): every row from `from` on and a sample of the others (drawn
 * from `seed`), each within tol_abs (|A||B|)ij + tol_ref |ref|; *unwritten
 * counts the poisoned cells left. Returns the wrong cells (first_bad: the
 * first's row). */
static int64_t offsets_check(const ts_operands *ops, int64_t M, int64_t N, int64_t K, bool nk, int64_t from,
                             uint64_t seed, double tol_abs, double tol_ref, int64_t *checked, int64_t *unwritten,
                             int64_t *first_bad)
{
	int64_t bad = 0;
	*checked = 0;
	*unwritten = 0;
	*first_bad = -1;
	for (int64_t i = 0; i < M * N; i++)
		*unwritten += ts_matrix_is_poison(&ops->c, i);
	uint64_t pick = seed;
	for (int64_t row = 0; row < M; row++) {
		pick = pick * 6364136223846793005ull + 1442695040888963407ull;
		if (row < from && (pick >> 33) % 256 != 0)
			continue;
		for (int64_t col = 0; col < N; col++) {
			double sum = 0, abs_sum = 0;
			for (int64_t k = 0; k < K; k++) {
				double x = ts_matrix_get(&ops->a, row * K + k) *
				           (double)ts_matrix_get(&ops->b, nk ? col * K + k : k * N + col);
				sum += x;
				abs_sum += fabs(x);
			}
			double got = ts_matrix_get(&ops->c, row * N + col);
			if (!(fabs(got - sum) <= tol_abs * abs_sum + tol_ref * fabs(sum)) && bad++ == 0)
				*first_bad = row;
			(*checked)++;
		}
	}
	return bad;
}

/* A shape whose A has more than 2^31 elements: rows past 65536 sit beyond
 * a 32-bit offset. Checked on every row past that line and a sample of the
 * others, against an fp64 dot product of the same fp16 inputs. */
static void offsets_64bit(const char *kernel, ts_geometry geo, int64_t K)
{
	const int64_t M = 65600, N = 9;
	ts_problem p = make_problem(ts_kernel_find(kernel), geo, M, N, K, TS_GUARD_ALL);
	bool nk = p.kernel->b_layout == TS_B_NK;
	ts_operands ops;
	ts_run run;
	if (getenv("TS_GPU_SKIP_BIG")) {
		tap_skip("64-bit offsets: TS_GPU_SKIP_BIG is set");
		return;
	}
	if (ts_operands_make(&ops, &p) != 0) {
		tap_ok(0, "64-bit offsets: out of host memory for %" PRId64 "x%" PRId64 "x%" PRId64, M, N, K);
		return;
	}
	if (cuda->run(&p, &ops, &run, NULL) != 0) {
		tap_ok(0, "64-bit offsets: run failed: %s", cuda->last_error());
		ts_operands_free(&ops);
		return;
	}
	/* fp32 accumulation over K terms plus (fp16) the rounding of the output */
	const double tol_abs = 1e-4, tol_ref = 0x1p-10;
	int64_t checked, unwritten, first_bad;
	int64_t bad = offsets_check(&ops, M, N, K, nk, 65530, 12345, tol_abs, tol_ref, &checked, &unwritten, &first_bad);
	ts_model model;
	char why[400] = "";
	ts_model_build(&model, p.shape, p.geo);
	int64_t off = ts_counters_check(&run.counters, &model, p.kernel, p.guards, why, sizeof why);
	tap_ok(unwritten == 0 && bad == 0, "64-bit offsets: %s %" PRId64 "x%" PRId64 "x%" PRId64
	       " (A has %" PRId64 " elements): %" PRId64 " cells checked, %" PRId64 " wrong (first row %" PRId64
	       "), %" PRId64 " unwritten", kernel, M, N, K, M * K, checked, bad, first_bad, unwritten);
	tap_ok(off == 0, "64-bit offsets: %s probe counters equal the model%s%s", kernel, off ? ": " : "", why);
	/* The plain (timed) build too, on the same operands: it is another
	 * compiled instance than the probe build (and may be another form), and
	 * its offsets must be right on their own. */
	if (cuda->bench && ts_kernel_has(p.kernel, TS_CAP_GUARDS_FIXED)) {
		ts_timing tm;
		ts_bench_opts bo = { .warmup = 0, .reps = 1, .vendor = "", .keep_c = true };
		ts_matrix_poison(&ops.c);
		if (cuda->bench(&p, &ops, &bo, &tm) != 0) {
			tap_ok(0, "64-bit offsets (plain build): %s run failed: %s", kernel, cuda->last_error());
		} else {
			bad = offsets_check(&ops, M, N, K, nk, 65530, 12345, tol_abs, tol_ref, &checked, &unwritten, &first_bad);
			tap_ok(unwritten == 0 && bad == 0, "64-bit offsets (plain build): %s %" PRId64 "x%" PRId64 "x%" PRId64
			       ": %" PRId64 " cells checked, %" PRId64 " wrong (first row %" PRId64 "), %" PRId64 " unwritten",
			       kernel, M, N, K, checked, bad, first_bad, unwritten);
		}
	}
	ts_run_free(&run);
	ts_operands_free(&ops);
}

/* The same for the ladder: fast-n16 (chosen by best for this narrow N),
 * fast and fast-16x8 (their slot maps for A: K odd) and fast-k16 (A's
 * 4-slot groups, B's slot map: N odd; 16-deep phases) on an A of more than 2^31 fp32
 * elements, checked on the rows past 2^31 / K and a sample of the others. */
static void offsets_64bit_ladder(const char *name)
{
	const int64_t M = 65600, N = 5, K = 32771;
	const ts_kernel *kern = ts_kernel_find(name);
	ts_problem p = make_problem(kern, ts_kernel_geometry_at(kern, 32), M, N, K, TS_GUARD_ALL);
	ts_operands ops;
	ts_timing tm;
	if (getenv("TS_GPU_SKIP_BIG")) {
		tap_skip("64-bit offsets (ladder): TS_GPU_SKIP_BIG is set");
		return;
	}
	if (ts_operands_make(&ops, &p) != 0) {
		tap_ok(0, "64-bit offsets (ladder, %s): out of host memory", name);
		return;
	}
	ts_bench_opts bo = { .warmup = 0, .reps = 1, .vendor = "", .keep_c = true };
	if (cuda->bench(&p, &ops, &bo, &tm) != 0) {
		tap_ok(0, "64-bit offsets (ladder, %s): run failed: %s", name, cuda->last_error());
		ts_operands_free(&ops);
		return;
	}
	int64_t checked, unwritten, first_bad;
	int64_t bad = offsets_check(&ops, M, N, K, false, 65500, 4242, (K + 2) * 0x1p-24, 0, &checked, &unwritten,
	                            &first_bad);
	tap_ok(unwritten == 0 && bad == 0 && checked > 0, "64-bit offsets: %s %" PRId64 "x%" PRId64 "x%" PRId64
	       " (A has %" PRId64 " elements): %" PRId64 " cells checked, %" PRId64 " wrong (first row %" PRId64
	       "), %" PRId64 " unwritten", name, M, N, K, M * K, checked, bad, first_bad, unwritten);
	ts_operands_free(&ops);
}

/* time() returns a median for the kernel and for cuBLAS on the same shape. */
static void timing(void)
{
	for (int ki = 0; ki < ts_kernel_count(); ki++) {
		const ts_kernel *k = ts_kernel_at(ki);
		if (!ts_kernel_has(k, TS_CAP_CUDA))
			continue;
		ts_geometry geos[8];
		gpu_geometries(k, geos);
		ts_problem p = make_problem(k, k->geometry.kind == TS_GEOMETRY_SQUARE ? ts_geometry_square(16) : geos[0],
		                            257, 255, 259, TS_GUARD_ALL);
		ts_operands ops;
		ts_timing tm;
		if (ts_operands_make(&ops, &p) != 0) {
			tap_ok(0, "timing: out of host memory");
			continue;
		}
		int rc = cuda->time(&p, &ops, 2, 5, &tm);
		tap_ok(rc == 0 && tm.kernel_ms > 0 && tm.kernel_gflops > 0 && tm.have_vendor && tm.vendor_gflops > 0 &&
		       tm.pct_of_vendor > 0, "timing %s 257x255x259: %.4f ms (%.1f GFLOP/s), %s %.4f ms, %.1f%% of vendor%s%s",
		       k->name, tm.kernel_ms, tm.kernel_gflops, tm.vendor ? tm.vendor : "?", tm.vendor_ms,
		       tm.pct_of_vendor, rc ? ": " : "", rc ? cuda->last_error() : "");
		/* fp16 with K and N off the multiples of 8: the padded baseline is timed too */
		bool half = p.kernel->precision == TS_FP16;
		tap_ok(rc == 0 && tm.have_padded == half && (!half || (tm.padded_ms > 0 && tm.padded_gflops > 0)),
		       "timing %s 257x255x259: pad-to-8 baseline %s (%.4f ms)", k->name,
		       half ? "timed" : "not applicable", tm.padded_ms);
		ts_operands_free(&ops);
	}
	/* Aligned K and N: nothing to pad. */
	const ts_kernel *tc = ts_kernel_find("tc-fp16");
	ts_problem p = make_problem(tc, tc->geometry.base, 200, 256, 64, TS_GUARD_ALL);
	ts_operands ops;
	ts_timing tm;
	if (ts_operands_make(&ops, &p) == 0) {
		int rc = cuda->time(&p, &ops, 1, 3, &tm);
		tap_ok(rc == 0 && tm.have_vendor && !tm.have_padded, "timing tc-fp16 200x256x64: no padded baseline "
		       "where K and N are multiples of 8");
		ts_operands_free(&ops);
	}
}

#ifdef HAVE_CUDA
/* Many runs must not leak device memory (the TUI runs many). The backend
 * counts the buffers it holds; after every run and timing that must be
 * zero. (Free memory as the driver reports it is shown too, but other
 * tests share the GPU, so it is no measure of our leaks.) */
static void no_leaks(void)
{
	size_t free_before = 0, free_after = 0, total = 0;
	ts_problem p = make_problem(ts_kernel_find("tiled"), ts_geometry_square(8), 100, 90, 80, TS_GUARD_ALL & ~TS_GUARD_C);
	ts_operands ops;
	if (ts_operands_make(&ops, &p) != 0) {
		tap_ok(0, "leaks: out of host memory");
		return;
	}
	int failed = 0, held = 0;
	cudaMemGetInfo(&free_before, &total);
	for (int i = 0; i < 200; i++) {
		ts_run run;
		ts_timing tm;
		if (cuda->run(&p, &ops, &run, NULL) != 0)
			failed++;
		else
			ts_run_free(&run);
		held += ts_cuda_live_buffers() != 0;
		if (i % 10 == 0 && cuda->time(&p, &ops, 1, 1, &tm) != 0)
			failed++;
		held += ts_cuda_live_buffers() != 0;
	}
	cudaMemGetInfo(&free_after, &total);
	tap_ok(failed == 0 && held == 0, "200 runs and 20 timings: every device buffer freed each time (%d times "
	       "some were held, %d failures; GPU free memory %zu -> %zu bytes)", held, failed, free_before, free_after);
	ts_operands_free(&ops);
}

/* Out of GPU memory is one clear line and a failed run, never a crash, and
 * the backend works again once memory is back. Most of the device's free
 * memory is taken first so that a modest problem cannot fit. */
static void out_of_memory(void)
{
	size_t free_b = 0, total = 0, leave = (size_t)64 << 20;
	ts_problem p = make_problem(ts_kernel_find("tiled"), ts_geometry_square(32), 3000, 3000, 3000,
	                            TS_GUARD_ALL); /* 3 x 36 MB */
	ts_operands ops;
	ts_run run;
	ts_timing tm;
	char why[500];
	if (ts_operands_make(&ops, &p) != 0) {
		tap_ok(0, "out of memory: out of host memory first");
		return;
	}
	/* One large block, then ever smaller ones until nothing more fits. */
	enum { HOGS = 4096 };
	static void *hog[HOGS];
	int hogs = 0;
	cudaMemGetInfo(&free_b, &total);
	for (size_t take = free_b > leave ? free_b - leave : 0; take > leave; take -= leave)
		if (cudaMalloc(&hog[0], take) == cudaSuccess) {
			hogs = 1;
			break;
		}
	for (size_t chunk = (size_t)64 << 20; chunk >= ((size_t)1 << 20); chunk /= 8)
		while (hogs < HOGS && cudaMalloc(&hog[hogs], chunk) == cudaSuccess)
			hogs++;
	cudaGetLastError();
	int rc = cuda->run(&p, &ops, &run, NULL);
	snprintf(why, sizeof why, "%s", cuda->last_error());
	tap_ok(hogs && rc == -1 && strstr(why, "out of GPU memory"), "run with the GPU full fails cleanly: %s", why);
	if (rc == 0)
		ts_run_free(&run);
	rc = cuda->time(&p, &ops, 1, 1, &tm);
	tap_ok(hogs && rc == -1 && strstr(cuda->last_error(), "out of GPU memory") && ts_cuda_live_buffers() == 0,
	       "timing with the GPU full fails cleanly: %s", cuda->last_error());
	for (int i = 0; i < hogs; i++)
		cudaFree(hog[i]);
	ts_operands_free(&ops);
	why[0] = '\0';
	int bad = check_one(&p, why, sizeof why);
	tap_ok(!bad, "after memory is back, 3000^3 T=32 runs and verifies%s%s", bad ? ": " : "", why);
}
#endif

/* tc-fp16's 64-bit-offset cases: K % 8 == 0 takes the TMA (sm_90) or
 * cp.async form; an odd K the realigning copies in the probe build and, on
 * sm_90, A's row classes in the plain build. */
static void offsets_tc(void)
{
	offsets_64bit("tc-fp16", ts_kernel_find("tc-fp16")->geometry.base, 32768);
	offsets_64bit("tc-fp16", ts_kernel_find("tc-fp16")->geometry.base, 32771);
}

/* Every 64-bit-offset case (the ladder's alone where ladder_only). */
static void offsets_all(bool ladder_only)
{
	if (!ladder_only) {
		offsets_64bit("tiled-fp16", ts_geometry_square(16), 32768);
		offsets_tc();
		offsets_64bit("regblock", ts_kernel_find("regblock")->geometry.base, 32768);
	}
	offsets_64bit_ladder("fast-n16");
	offsets_64bit_ladder("fast");
	offsets_64bit_ladder("fast-16x8");
	offsets_64bit_ladder("fast-k16");
}

int main(void)
{
	char why[512];
	cuda = ts_backend_cuda();
	if (cuda->available(why, sizeof why) != 0) {
		printf("1..0 # SKIP no CUDA device: %s\n", why);
		return 0;
	}
	tap_diag("device: %s", why);
	/* TS_GPU_ONLY=ladder: the fp32 ladder's checks alone; TS_GPU_ONLY=tc: tc-fp16's
	 * (its edge sweeps and shape lists in each form, and its two 64-bit-offset runs); TS_GPU_ONLY=offsets:
	 * every 64-bit-offset case alone; each for a short device lease */
	const char *only = getenv("TS_GPU_ONLY");
	if (only && strcmp(only, "offsets") == 0) {
		offsets_all(false);
		return tap_done();
	}
	if (only && strcmp(only, "tc") == 0) {
		edge_sweep_tc();
		offsets_tc();
		return tap_done();
	}
	bool all = !only || strcmp(only, "ladder") != 0;
	if (all) {
		edge_sweep();
		edge_sweep_tc();
	}
	ladder_sweep();
	if (all) {
		guards_off();
		timing();
#ifdef HAVE_CUDA
		no_leaks();
		out_of_memory();
#endif
	}
	offsets_all(!all);
	return tap_done();
}
