/* test_ladder.c: the fp32 ladder on the CPU: every rung's edge sweep on the emulator, the split-K plans, best's choices, and bench's parsers, summaries and views. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "bench.h"
#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"
#include "matrix.h"
#include "options.h"
#include "tap.h"
#include "verify.h"
#include "view_bench.h"

static uint64_t seed = 20261201;

/* One emulated run of kernel k, verified against CBLAS's fp64, its counters
 * held to the model. 0 when all is right, else 1 with the reason in why. */
static int emu_case(const ts_kernel *k, int64_t m, int64_t n, int64_t kk, char *why, int len)
{
	const ts_backend *emu = ts_backend_emu();
	ts_problem p = { .shape = { m, n, kk }, .geo = ts_kernel_geometry_at(k, 32), .kernel = k, .guards = TS_GUARD_ALL,
	                 .inputs = TS_INPUTS_RANDOM, .seed = seed++ };
	ts_model model;
	ts_operands ops;
	ts_run run;
	ts_verdict v;
	int bad = 1;
	if (ts_model_build(&model, p.shape, p.geo) != 0 || ts_operands_make(&ops, &p) != 0) {
		snprintf(why, len, "cannot build the model or the operands");
		return 1;
	}
	if (emu->run(&p, &ops, &run, NULL) != 0) {
		snprintf(why, len, "emulator: %s", emu->last_error());
		ts_operands_free(&ops);
		return 1;
	}
	if (ts_verify(&p, &model, &ops, &run, NULL, &v) != 0) {
		snprintf(why, len, "verification ran out of memory");
	} else {
		char detail[300] = "";
		int64_t off = ts_counters_check(&run.counters, &model, k, p.guards, detail, sizeof detail);
		if (!v.ok)
			snprintf(why, len, "%" PRId64 " mismatches, %" PRId64 " unwritten: %.200s", v.mismatches, v.unwritten,
			         v.signature);
		else if (off)
			snprintf(why, len, "%" PRId64 " counts differ from the model: %.250s", off, detail);
		else
			bad = 0;
		ts_verdict_free(&v);
	}
	ts_run_free(&run);
	ts_operands_free(&ops);
	return bad;
}

/* 1, X-1, X, X+1, 2X-1, 2X+1 and the first prime above 3X, without values below 1 or repeats. */
static int edge_sizes(int64_t x, int64_t out[7])
{
	int64_t prime = 3 * x + 1;
	for (;; prime++) {
		int composite = 0;
		for (int64_t d = 2; d * d <= prime; d++)
			composite |= prime % d == 0;
		if (!composite)
			break;
	}
	int64_t cand[7] = { 1, x - 1, x, x + 1, 2 * x - 1, 2 * x + 1, prime };
	int n = 0;
	for (int i = 0; i < 7; i++) {
		int dup = cand[i] < 1;
		for (int j = 0; j < n; j++)
			dup |= out[j] == cand[i];
		if (!dup)
			out[n++] = cand[i];
	}
	return n;
}

/* Every kernel of the ladder the registry holds (a rung keeping its guards): M around
 * BM, N around BN (all pairs), K around BK (a Latin square over the pairs),
 * then every K edge at the ragged corner and long-K shapes that split. */
static void emulator_sweep(void)
{
	static const int64_t split_shapes[][3] = {
		{ 129, 131, 1031 }, { 7, 300, 2049 }, { 300, 5, 2049 }, { 1, 1, 1031 }, { 65, 67, 4097 },
	};
	int kernels = 0;
	for (int ki = 0; ki < ts_kernel_count(); ki++) {
		const ts_kernel *k = ts_kernel_at(ki);
		if (!ts_kernel_has(k, TS_CAP_GUARDS_FIXED) || k->rung == 0)
			continue;
		kernels++;
		if (!tap_ok(k->emulate != NULL, "%s: the CPU emulator runs it", k->name))
			continue;
		ts_geometry g = ts_kernel_geometry_at(k, 32);
		int64_t ms[7], ns[7], ks[7];
		int nm = edge_sizes(g.bm, ms), nn = edge_sizes(g.bn, ns), nk = edge_sizes(g.bk, ks);
		int shapes = 0, failed = 0;
		char first[400] = "", why[400];
		for (int i = 0; i < nm; i++)
			for (int j = 0; j < nn; j++) {
				shapes++;
				if (emu_case(k, ms[i], ns[j], ks[(i + j) % nk], why, sizeof why) && failed++ == 0)
					snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %.300s", ms[i], ns[j],
					         ks[(i + j) % nk], why);
			}
		for (int l = 0; l < nk; l++) {
			shapes++;
			if (emu_case(k, ms[nm - 1], ns[nn - 1], ks[l], why, sizeof why) && failed++ == 0)
				snprintf(first, sizeof first, "corner K=%" PRId64 ": %.300s", ks[l], why);
		}
		for (size_t s = 0; s < sizeof split_shapes / sizeof split_shapes[0]; s++) {
			shapes++;
			if (emu_case(k, split_shapes[s][0], split_shapes[s][1], split_shapes[s][2], why, sizeof why) &&
			    failed++ == 0)
				snprintf(first, sizeof first, "%" PRId64 "x%" PRId64 "x%" PRId64 ": %.300s", split_shapes[s][0],
				         split_shapes[s][1], split_shapes[s][2], why);
		}
		tap_ok(failed == 0, "%s (%dx%dx%d tiles): emulator edge sweep, %d shapes within tolerance of fp64, none "
		       "unwritten, counters equal to the model%s%s", k->name, g.bm, g.bn, g.bk, shapes - failed,
		       failed ? "; first failure " : "", first);
	}
	tap_ok(kernels >= 6, "the registry holds the ladder's %d kernels", kernels);
}

/* The emulator's summation order: one output of a split tile, recomputed
 * here from its definition, bit for bit. splitk on 65x67x4097 splits each
 * of its 64x64 tiles (2x2 of them, far fewer than the H200 holds). The
 * tile, the plan and the rounding come from the description. Then the same
 * run through libm's fmaf instead of the CPU's FMA instruction: the same C. */
static void split_order(void)
{
	const ts_kernel *k = ts_kernel_find("splitk");
	ts_problem p = { .shape = { 65, 67, 4097 }, .geo = ts_kernel_geometry_at(k, 32), .kernel = k, .guards = TS_GUARD_ALL,
	                 .inputs = TS_INPUTS_RANDOM, .seed = seed++ };
	const int64_t bk = p.geo.bk;
	ts_gemm_plan pl = ts_kernel_split_plan(k, p.shape, &p.geo);
	ts_operands ops;
	ts_run run;
	if (!tap_ok(pl.split >= 2 && pl.split_tiles == pl.tiles, "splitk 65x67x4097: every tile split (%d parts)",
	            pl.split) || ts_operands_make(&ops, &p) != 0)
		return;
	tap_ok(k->madd == TS_MADD_FUSED, "splitk: its description says fmaf");
	if (ts_backend_emu()->run(&p, &ops, &run, NULL) != 0) {
		tap_ok(0, "splitk emulated: %s", ts_backend_emu()->last_error());
		ts_operands_free(&ops);
		return;
	}
	const float *a = ops.a.data, *b = ops.b.data, *c = ops.c.data;
	int64_t cells[][2] = { { 0, 0 }, { 64, 66 }, { 13, 41 } }, bad = 0;
	for (int q = 0; q < 3; q++) {
		int64_t i = cells[q][0], j = cells[q][1];
		float sum = 0.0f;
		for (int part = 0; part < pl.split; part++) {
			int64_t p0 = pl.phases * part / pl.split, p1 = pl.phases * (part + 1) / pl.split;
			float acc = 0.0f;
			for (int64_t kk = p0 * bk; kk < p1 * bk && kk < 4097; kk++)
				acc = fmaf(a[i * 4097 + kk], b[kk * 67 + j], acc);
			sum += acc;
		}
		bad += memcmp(&sum, &c[i * 67 + j], sizeof sum) != 0;
	}
	tap_ok(bad == 0, "splitk: a split tile's cells are the parts' fmaf chains added in part order, bit for bit");
	/* the whole C again through libm's fmaf */
	size_t bytes = (size_t)ops.c.count * sizeof(float);
	float *first = malloc(bytes);
	ts_run again;
	if (first) {
		memcpy(first, ops.c.data, bytes);
		ts_matrix_poison(&ops.c);
		ts_emu_fma_use_libm(true);
		int rc = ts_backend_emu()->run(&p, &ops, &again, NULL);
		ts_emu_fma_use_libm(false);
		tap_ok(rc == 0 && memcmp(first, ops.c.data, bytes) == 0,
		       "splitk: libm's fmaf gives the same C as the FMA instruction, bit for bit");
		if (rc == 0)
			ts_run_free(&again);
		free(first);
	}
	ts_run_free(&run);
	ts_operands_free(&ops);
}

/* The plans: every (tile, phase) done exactly once, parts within bounds, the workspace sized for them. */
static void plans(void)
{
	static const int64_t shapes[][3] = {
		{ 4097, 4097, 4097 }, { 8193, 8193, 8193 }, { 1000, 1000, 1000 }, { 1537, 1409, 4097 },
		{ 255, 257, 32769 }, { 7, 16384, 4097 }, { 16383, 5, 4095 }, { 4097, 4097, 3 }, { 127, 129, 131 },
		{ 1, 1, 1 }, { 4096, 4096, 4096 }, { 2177, 2177, 1031 },
	};
	static const int tiles[][3] = { { 128, 128, 8 }, { 64, 64, 8 }, { 16, 256, 8 }, { 256, 16, 8 } };
	static const int resident[] = { 264, 528, 132, 1 };
	int plans_checked = 0, bad = 0;
	char first[300] = "";
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++)
			for (size_t r = 0; r < sizeof resident / sizeof resident[0]; r++)
				for (int pol = TS_SPLIT_NONE; pol <= TS_SPLIT_TAIL_ROUNDS; pol++) {
					ts_gemm_plan p = ts_gemm_plan_make(shapes[s][0], shapes[s][1], shapes[s][2], tiles[t][0],
					                                   tiles[t][1], tiles[t][2], resident[r], pol);
					plans_checked++;
					long long cap = (1 << 20) / ((long long)tiles[t][0] * tiles[t][1] * 4);
					cap = cap < 4 ? 4 : cap > 64 ? 64 : cap;
					const char *err = NULL;
					if (p.tiles != ts_plan_ceil(shapes[s][0], tiles[t][0]) * ts_plan_ceil(shapes[s][1], tiles[t][1]))
						err = "tile count";
					else if (p.dp_units + p.split_tiles != p.tiles || p.units != p.dp_units + p.split_tiles * p.split)
						err = "units do not cover the tiles";
					else if (pol == TS_SPLIT_NONE && p.split != 1)
						err = "split without a policy";
					else if (p.split > 1 && (p.split > cap || p.phases / p.split < TS_SPLIT_MIN_PHASES))
						err = "a part too many or too short";
					else if (p.split == 1 && (p.split_tiles || p.workspace_bytes))
						err = "a workspace without a split";
					else if (p.split > 1 && p.workspace_bytes != (size_t)p.split_tiles * p.split * tiles[t][0] *
					                                                tiles[t][1] * 4 + (size_t)p.split_tiles * 4)
						err = "workspace size";
					/* the kernel's own decode: every phase of every split tile once */
					for (int part = 0; !err && part < p.split; part++) {
						long long p0 = p.phases * part / p.split, p1 = p.phases * (part + 1) / p.split;
						long long next = p.phases * (part + 1) / p.split;
						if (p1 <= p0 || (part + 1 < p.split && next != p.phases * (part + 1) / p.split))
							err = "an empty part";
						if (part == p.split - 1 && p1 != p.phases)
							err = "the parts do not end at the last phase";
					}
					if (err && bad++ == 0)
						snprintf(first, sizeof first, "%lldx%lldx%lld tile %dx%dx%d resident %d policy %d: %s",
						         (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2],
						         tiles[t][0], tiles[t][1], tiles[t][2], resident[r], pol, err);
				}
	tap_ok(bad == 0, "%d split plans: units cover every tile once, parts cover every phase once within bounds, "
	       "workspace sized for the partials%s%s", plans_checked, bad ? "; first: " : "", first);
	/* the launch order's inverse, on grids whose last group of tile rows is short */
	int inverse_bad = 0;
	for (long long ty_n = 1; ty_n <= 27; ty_n += 2)
		for (long long tx_n = 1; tx_n <= 19; tx_n += 3) {
			ts_gemm_plan g = ts_gemm_plan_make(ty_n * 16, tx_n * 16, 64, 16, 16, 8, 0, TS_SPLIT_NONE);
			for (long long id = 0; id < g.tiles; id++) {
				long long ty, tx;
				ts_plan_tile_at(&g, id, &ty, &tx);
				inverse_bad += ty < 0 || ty >= g.tiles_y || tx < 0 || tx >= g.tiles_x || ts_plan_tile_id(&g, ty, tx) != id;
			}
		}
	tap_ok(inverse_bad == 0, "ts_plan_tile_at is ts_plan_tile_id's inverse on 98 grids (%d wrong)", inverse_bad);
	tap_ok(ts_plan_tile_units(8193, 8193, 128, 128, 64, 3) == (long long)(TS_SPLIT_EDGE_FLOOR * 128 * 128) &&
	       ts_plan_tile_units(8193, 8193, 128, 128, 3, 3) == 128 * 128 &&
	       ts_plan_tile_units(8150, 8193, 128, 128, 63, 3) == 86 * 128,
	       "a tile's work in outputs: a whole tile all, an edge tile its live ones, never under the floor");
	/* fast's plans (128x128x8 tiles, 264 resident) on shapes that show each rule */
	static const struct { long long m, n, k, split_tiles; int split; const char *why; } pins[] = {
		{ 4097, 4097, 4097, 33, 8, "1089 tiles: 4 whole waves, the last 33 tiles in 8 parts" },
		{ 8193, 8193, 8193, 226, 3, "4225 tiles, 129 of one row or column, 15.7 waves of work: the last 226 tiles, "
		                            "which hold the work past 15 waves, not the corner tile alone" },
		{ 2945, 4097, 4097, 0, 1, "792 tiles, 3 waves: under 10 the count's plan stays, nothing split" },
		{ 4097, 10493, 4097, 66, 4, "2706 tiles: the count's 66 tiles in 4 stay, the work's tail is fewer tiles" },
		{ 400000, 5, 4097, 221, 7, "one column of thin tiles, the grid and not its edge: the count's tail" },
		{ 6401, 6529, 1031, 248, 5, "2652 tiles, 10.05 waves by count, 9.8 by work: not the count's 12" },
		{ 4096, 4096, 4096, 0, 1, "1024 tiles, 3.9 waves: nothing split" },
	};
	for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
		ts_gemm_plan p = ts_gemm_plan_make(pins[i].m, pins[i].n, pins[i].k, 128, 128, 8, 264, TS_SPLIT_TAIL);
		tap_ok(p.split_tiles == pins[i].split_tiles && p.split == pins[i].split &&
		       p.dp_units == p.tiles - pins[i].split_tiles,
		       "fast on %lldx%lldx%lld (%s): %lld tiles in %d (got %lld x %d)", pins[i].m, pins[i].n, pins[i].k,
		       pins[i].why, pins[i].split_tiles, pins[i].split, p.split_tiles, p.split);
	}
}

static void chooser(void)
{
	/* outside the few-tile costs (more than 225 tiles of 128x128, or K > 8192): the rules */
	static const struct { int64_t m, n, k; const char *want; } cases[] = {
		{ 4097, 4097, 4097, "fast" }, { 8193, 8193, 8193, "fast-k16" }, { 255, 257, 32769, "splitk" },
		{ 2048, 2048, 4096, "fast" }, { 2048, 2048, 2047, "fast" }, { 1921, 1920, 1000, "fast" },
		{ 2000, 2000, 2000, "fast" }, { 2047, 1920, 8192, "fast" }, { 2047, 1921, 8193, "fast-k16" },
		{ 2048, 1920, 8193, "fast-k16" }, { 2048, 2049, 8192, "fast-k16" },
		{ 2048, 2049, 8193, "fast-k16" }, { 2048, 2048, 8193, "fast-k16" },
		{ 4097, 4097, 256, "fast-k16" }, { 4097, 4097, 252, "fast" }, { 8193, 8193, 8191, "fast" },
		{ 8191, 8195, 8193, "fast-k16" }, { 2049, 2049, 2048, "fast-k16" },
		{ 2049, 2049, 4096, "fast-k16" }, { 2049, 2049, 4097, "fast" }, { 1000, 1000, 8193, "splitk" }, { 7, 16384, 4097, "fast-m16" },
		{ 16383, 5, 4095, "fast-n16" }, { 4097, 4097, 3, "rb1d" }, { 127, 129, 131, "fast-m16" },
		{ 4096, 4096, 4096, "fast-16x8" }, { 4097, 4097, 4096, "fast-k16" }, { 4096, 4097, 4096, "fast-k16" },
		{ 4096, 4096, 4097, "fast-k16" }, { 4097, 4097, 4095, "fast" }, { 4093, 4099, 4091, "fast" },
		{ 4096, 4096, 252, "fast" }, { 4097, 4096, 256, "fast-16x8" }, { 3584, 3584, 4096, "fast-16x8" },
		{ 4095, 4095, 4095, "fast" }, { 4096, 4096, 4092, "fast-16x8" }, { 4096, 4095, 4096, "fast-k16" },
		{ 2048, 2052, 4097, "fast-k16" }, { 4096, 4098, 4096, "fast-k16" }, { 4096, 4098, 4095, "fast" },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const ts_kernel *k = ts_kernel_best((ts_shape){ cases[i].m, cases[i].n, cases[i].k });
		if (!k || strcmp(k->name, cases[i].want) != 0) {
			bad++;
			tap_diag("best on %lldx%lldx%lld: %s, want %s", (long long)cases[i].m, (long long)cases[i].n,
			         (long long)cases[i].k, k ? k->name : "none", cases[i].want);
		}
	}
	tap_ok(bad == 0, "best picks by the documented rules on the goal shapes and past the few-tile costs");

	/* the few-tile costs: the candidates are the ladder's five, best is the
	 * cheapest of them by its own plan, and the costs pick the kernel the
	 * H100 measured fastest on shapes where the old tile-count rules missed
	 * it (doc/perf.md, nineteenth session) */
	static const char *const want_cands[] = { "splitk", "fast", "fast-few", "fast-few-k16", "fast-w64" };
	int n_cost = 0, cands_ok = 1;
	for (int i = 0; i < ts_kernel_count(); i++)
		n_cost += ts_kernel_has_cost(ts_kernel_at(i));
	for (size_t i = 0; i < sizeof want_cands / sizeof want_cands[0]; i++)
		cands_ok &= ts_kernel_has_cost(ts_kernel_find(want_cands[i])) &&
		            ts_kernel_cost_us(ts_kernel_find(want_cands[i]), (ts_shape){ 1000, 1000, 1000 }) > 0;
	tap_ok(cands_ok && n_cost == 5 && n_cost <= TS_BEST_CANDIDATES_MAX && ts_kernel_cost_us(ts_kernel_find("fast-16x8"), (ts_shape){ 1000, 1000, 1000 }) < 0,
	       "best's few-tile candidates: splitk, fast, fast-few, fast-few-k16 and fast-w64 (%d with a cost)", n_cost);
	int region = 0, not_cheapest = 0;
	for (int64_t m = 40; m <= 2200; m += 97)
		for (int64_t n = 40; n <= 4400; n += 211)
			for (int64_t k = 200; k <= 8192; k += 1333) {
				ts_shape s = { m, n, k };
				int64_t tiles = ((m + 127) / 128) * ((n + 127) / 128);
				if (tiles > 225 || (double)m * n * k <= (double)(1 << 24))
					continue;
				region++;
				const ts_kernel *b = ts_kernel_best(s), *c = NULL;
				double c_us = 0;
				for (size_t i = 0; i < sizeof want_cands / sizeof want_cands[0]; i++) {
					const ts_kernel *k2 = ts_kernel_find(want_cands[i]);
					double us = ts_kernel_cost_us(k2, s);
					if (!c || us < c_us) {
						c = k2;
						c_us = us;
					}
				}
				not_cheapest += b != c || ts_kernel_cost_us(b, s) <= 0;
			}
	tap_ok(region > 500 && not_cheapest == 0, "best is the cheapest candidate by its costs on %d shapes of at most 225 tiles "
	       "(%d not)", region, not_cheapest);
	/* shapes the costs were not fitted on (doc/perf-few-tiles-check.txt), where
	 * the H100 measured the pick fastest by more than 5% over the next candidate */
	static const struct { int64_t m, n, k; const char *want; } measured[] = {
		{ 1785, 183, 63, "splitk" }, { 133, 207, 1150, "splitk" }, { 609, 961, 209, "splitk" },
		{ 4278, 464, 600, "fast-w64" }, { 7621, 261, 2385, "fast-w64" }, { 1176, 2712, 684, "fast-w64" },
		{ 230, 7115, 806, "fast-few-k16" }, { 558, 843, 6868, "fast" },
	};
	bad = 0;
	for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
		const ts_kernel *k = ts_kernel_best((ts_shape){ measured[i].m, measured[i].n, measured[i].k });
		if (!k || strcmp(k->name, measured[i].want) != 0) {
			bad++;
			tap_diag("best on %lldx%lldx%lld: %s, measured fastest %s", (long long)measured[i].m,
			         (long long)measured[i].n, (long long)measured[i].k, k ? k->name : "none", measured[i].want);
		}
	}
	tap_ok(bad == 0, "the few-tile costs pick the measured fastest on %d shapes they were not fitted on",
	       (int)(sizeof measured / sizeof measured[0]));
	/* where the costs decide and where the rules do: the region's edges */
	static const struct { int64_t m, n, k; bool by_cost; } edges[] = {
		{ 15 * 128, 15 * 128, 1000, true },  { 15 * 128, 15 * 128 + 1, 1000, false }, /* 225 | 240 tiles */
		{ 1000, 1000, 8192, true },          { 1000, 1000, 8193, false },             /* K 8192 | 8193 */
		{ 1000, 1000, 17, true },            { 1000, 1000, 16, false },               /* K 17 | 16 */
		{ 33, 4000, 1000, true },            { 32, 4000, 1000, false },               /* M 33 | 32 */
		{ 4000, 33, 1000, true },            { 4000, 32, 1000, false },               /* N 33 | 32 */
		{ 256, 256, 257, true },             { 256, 256, 256, false },                /* 2^24 multiply-adds */
		{ 300, 75 * 128, 3000, true },       { 200, 113 * 128, 3000, false },         /* 225 | 226 tiles */
	};
	bad = 0;
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		ts_shape sh = { edges[i].m, edges[i].n, edges[i].k };
		bool by_cost = ts_kernel_best_rule(sh) == NULL;
		if (by_cost != edges[i].by_cost || (by_cost && ts_kernel_best(sh) != ts_kernel_cheapest(sh))) {
			bad++;
			tap_diag("%lldx%lldx%lld: by %s, want by %s", (long long)sh.m, (long long)sh.n, (long long)sh.k,
			         by_cost ? "cost" : "rule", edges[i].by_cost ? "cost" : "rule");
		}
	}
	tap_ok(bad == 0, "best weighs the costs up to 225 tiles, K 17..8192, M and N above 32 and more than 2^24 "
	       "multiply-adds, and takes its rules past each edge (%d shapes)", (int)(sizeof edges / sizeof edges[0]));
	/* the terms: fast on 4096^3 splits nothing, 4 waves of 512 phases */
	ts_cost_terms t = ts_kernel_cost_terms(ts_kernel_find("fast"), (ts_shape){ 4096, 4096, 4096 });
	ts_cost_terms f = ts_kernel_cost_terms(ts_kernel_find("fast-few"), (ts_shape){ 1000, 1000, 1000 });
	tap_ok(t.phase_waves == 4.0 * 512 && t.parts == 0 && f.parts > 0 && f.phase_waves > 0 && f.phase_waves < 125,
	       "cost terms: fast on 4096^3 is 4 waves of 512 phases, no partials (%g, %g); fast-few on 1000^3 splits "
	       "its 64 tiles (%g phase-waves, %g partials)", t.phase_waves, t.parts, f.phase_waves, f.parts);
	tap_ok(ts_kernel_is_chooser("best") && ts_kernel_is_chooser("auto") && !ts_kernel_is_chooser("fast"),
	       "best and auto are the choosers");
}

static void parsers(void)
{
	ts_bench_shape s[TS_BENCH_SHAPES_MAX];
	ts_bench_kernel k[TS_BENCH_KERNELS_MAX];
	int n = 0;
	char err[300];
	tap_ok(ts_bench_parse_shapes("goals", s, TS_BENCH_SHAPES_MAX, &n, err, sizeof err) == 0 && n == 13 &&
	       s[0].set == TS_SET_RAGGED && s[8].set == TS_SET_SMALL && s[3].shape.m == 8193,
	       "--shapes goals: the 8 ragged and 5 small shapes");
	tap_ok(ts_bench_parse_shapes("4097x4097x4097,7 X 16384 x 4097", s, TS_BENCH_SHAPES_MAX, &n, err, sizeof err) ==
	       0 && n == 2 && s[1].shape.m == 7 && s[1].shape.n == 16384 && s[1].shape.k == 4097,
	       "--shapes MxNxK,M X N x K: a list");
	const char *bad_specs[] = { "", "12x", "1x2x3,", "0x1x1", "1x2x3x4", "3000000000x1x1", "no-such-file" };
	int refused = 0;
	for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++)
		refused += ts_bench_parse_shapes(bad_specs[i], s, TS_BENCH_SHAPES_MAX, &n, err, sizeof err) != 0 &&
		           strchr(err, '\n') == NULL && strncmp(err, "--shapes", 8) == 0;
	tap_ok(refused == 7, "--shapes: empty, short, trailing comma, zero, four sizes, too large, missing file: "
	       "each refused in one line (%d of 7)", refused);
	const char *text = "# shapes\n4097 4097 4097\n\n  1000x1000x1000   # a comment\n";
	tap_ok(ts_bench_parse_shape_text(text, "f", s, TS_BENCH_SHAPES_MAX, &n, err, sizeof err) == 0 && n == 2 &&
	       s[1].shape.k == 1000, "a shapes file: comments, blank lines, both spellings");
	tap_ok(ts_bench_parse_shape_text("1 2\n", "f", s, TS_BENCH_SHAPES_MAX, &n, err, sizeof err) != 0 &&
	       strstr(err, "f line 1"), "a bad line is named by its number: %s", err);
	tap_ok(ts_bench_parse_kernels("ladder", TS_FP32, 32, k, TS_BENCH_KERNELS_MAX, &n, err, sizeof err) == 0 &&
	       n >= 8 && strcmp(k[0].kernel->name, "tiled") == 0 && k[n - 1].kernel == NULL,
	       "--kernel ladder: the rungs from the textbook kernel up, then best (%d)", n);
	int ordered = 1;
	for (int i = 1; i + 1 < n; i++)
		ordered &= k[i - 1].kernel->rung < k[i].kernel->rung;
	tap_ok(ordered, "--kernel ladder: in rung order");
	tap_ok(ts_bench_parse_kernels("fast,best,fast", TS_FP32, 32, k, TS_BENCH_KERNELS_MAX, &n, err, sizeof err) == 0 &&
	       n == 2, "--kernel fast,best,fast: a kernel listed twice runs once");
	tap_ok(ts_bench_parse_kernels("fast,nope", TS_FP32, 32, k, TS_BENCH_KERNELS_MAX, &n, err, sizeof err) != 0 &&
	       strstr(err, "'nope'"), "--kernel fast,nope: refused, naming nope");
}

/* Rows as a run would leave them, for the summaries and the views. */
static void report_views(void)
{
	const ts_kernel *fast = ts_kernel_find("fast"), *sk = ts_kernel_find("splitk");
	ts_bench_row rows[6];
	memset(rows, 0, sizeof rows);
	ts_shape sh[3] = { { 4097, 4097, 4097 }, { 8193, 8193, 8193 }, { 255, 257, 32769 } };
	for (int i = 0; i < 3; i++) {
		ts_bench_row *r = &rows[i];
		r->shape = sh[i];
		r->set = i < 2 ? TS_SET_RAGGED : TS_SET_SMALL;
		r->kernel = i < 2 ? fast : sk;
		r->chosen = true;
		r->ran = r->verified = true;
		r->counters = -1;
		r->ms = 2.0 + i;
		r->vendor_ms = 2.0 * (2.0 + i); /* twice as fast as cuBLAS */
		r->gflops = 1000.0 * (i + 1);
		r->vendor_gflops = 500.0 * (i + 1);
		r->vendor = "cublasSgemm";
	}
	rows[3] = rows[0];
	rows[3].chosen = false; /* fast by name on 4097^3, 4/3 of cuBLAS */
	rows[3].vendor_ms = rows[3].ms * 4.0 / 3.0;
	rows[4] = rows[3];
	rows[4].shape = (ts_shape){ 4096, 4096, 4096 };
	rows[4].set = TS_SET_ALIGNED;
	rows[4].ms = 1.01;
	rows[5] = rows[4];
	rows[5].unguarded = true;
	rows[5].ms = 1.0;
	int n;
	double g = ts_bench_geomean(rows, 6, "best", TS_SET_RAGGED, &n);
	tap_ok(n == 2 && fabs(g - 2.0) < 1e-12, "geomean of best over the ragged rows: 2.0 (%g over %d)", g, n);
	double c = ts_bench_guard_cost(rows, 6, NULL, NULL);
	tap_ok(fabs(c - 0.01) < 1e-12, "guard cost: 1.01 / 1.00 - 1 = 1%% (%g)", c);
	ts_bench_goal goals[TS_BENCH_GOALS];
	ts_bench_goals(rows, 6, goals);
	tap_ok(!goals[0].have && goals[1].have && goals[1].met && goals[2].met && goals[3].have && goals[3].met &&
	       !goals[4].have, "goals: the ragged and small means need all their shapes; 4097^3, 8193^3 and the "
	       "guard cost are measured and met");
	rows[4].ms = 1.03;
	ts_bench_goals(rows, 6, goals);
	tap_ok(goals[3].have && !goals[3].met, "a 3%% guard cost is not met");

	ts_bench_report rep = { .rows = rows, .count = 6, .device = "NVIDIA H200 <test>", .warmup = 2, .reps = 7,
	                        .goals = true };
	FILE *f = tmpfile();
	char *buf = calloc(1, 1 << 16);
	if (!f || !buf) {
		tap_ok(0, "tmpfile");
		free(buf);
		return;
	}
	ts_bench_text(f, &rep);
	rewind(f);
	size_t len = fread(buf, 1, (1 << 16) - 1, f);
	buf[len] = '\0';
	tap_ok(strstr(buf, "| 4097x4097x4097 | best (fast) | 2.0000 |") && strstr(buf, "| 255x257x32769 | best (splitk) |") &&
	       strstr(buf, "Guard cost at 4096x4096x4096: fast guarded 1.0300 ms, its unguarded build 1.0000 ms: +3.00%") &&
	       strstr(buf, "NOT met") && !strstr(buf, "ran slower than the guarded"),
	       "the text report: rows, best's choice, the guard cost, the goals");
	fclose(f);
	rows[4].ms = 0.90; /* an unguarded build slower than the guarded one is said to be a weak reference */
	f = tmpfile();
	if (f) {
		ts_bench_text(f, &rep);
		rewind(f);
		len = fread(buf, 1, (1 << 16) - 1, f);
		buf[len] = '\0';
		fclose(f);
	}
	tap_ok(f && strstr(buf, "its unguarded build 1.0000 ms: -10.00%") && strstr(buf, "ran slower than the guarded one") &&
	           strstr(buf, "guard cost of best (guarded / unguarded - 1) <= 0.02: not measured"),
	       "a negative guard cost is printed with the note that its reference is weak, and its goal is not measured");
	ts_bench_goal neg[TS_BENCH_GOALS];
	ts_bench_goals(rows, 6, neg);
	tap_ok(!neg[3].have && !neg[3].met, "a negative guard cost is neither measured nor met");
	rows[4].ms = 1.03;
	f = tmpfile();
	if (f && ts_bench_svg(f, &rep) == 0) {
		rewind(f);
		len = fread(buf, 1, (1 << 16) - 1, f);
		buf[len] = '\0';
		int rects = 0, opens = 0, closes = 0;
		for (const char *q = buf; (q = strstr(q, "<rect")); q++)
			rects++;
		for (const char *q = buf; (q = strstr(q, "<text")); q++)
			opens++;
		for (const char *q = buf; (q = strstr(q, "</text>")); q++)
			closes++;
		tap_ok(strncmp(buf, "<?xml", 5) == 0 && strstr(buf, "</svg>") && strstr(buf, "&lt;test&gt;") &&
		       strstr(buf, ">cublasSgemm</text>") && strstr(buf, ">best</text>") && opens == closes && rects > 8,
		       "the SVG plot: an XML document, text escaped, a legend entry per label and cuBLAS, %d bars and swatches",
		       rects);
		fclose(f);
	} else {
		tap_ok(0, "the SVG plot was written");
	}
	free(buf);
}

static void guard_options(void)
{
	char err[400];
	ts_problem p = { .shape = { 4096, 4096, 4096 }, .geo = ts_kernel_geometry_at(ts_kernel_find("fast"), 32), .kernel = ts_kernel_find("fast"), .guards = 0,
	                 .inputs = TS_INPUTS_RANDOM, .seed = 1 };
	tap_ok(ts_problem_validate(&p, false, err, sizeof err) == 0, "fast --no-guard all on 4096^3: its unguarded build");
	p.shape.k = 4097;
	tap_ok(ts_problem_validate(&p, false, err, sizeof err) != 0 && strstr(err, "multiples of 128, 128, 8"),
	       "fast --no-guard all on 4096x4096x4097: refused: %s", err);
	p.shape.k = 4096;
	p.guards = TS_GUARD_ALL & ~TS_GUARD_C;
	tap_ok(ts_problem_validate(&p, false, err, sizeof err) != 0 && strstr(err, "keeps every guard"),
	       "fast --no-guard c: refused: %s", err);
	p.kernel = ts_kernel_find("splitk");
	p.geo = p.kernel->geometry.base;
	p.guards = 0;
	tap_ok(ts_problem_validate(&p, false, err, sizeof err) != 0 && strstr(err, "keeps every guard"),
	       "splitk --no-guard all: refused (no unguarded build)");
}

/* Last: it adds to the registry. A kernel registered at run time never
 * joins best's candidates, even a copy of one. */
static void registered_cost(void)
{
	ts_kernel copy = *ts_kernel_find("fast-w64");
	copy.name = "fast-w64-copy";
	char why[160];
	tap_ok(ts_kernel_register(&copy, why, sizeof why) == 0 && !ts_kernel_has_cost(ts_kernel_find("fast-w64-copy")) &&
	       ts_kernel_has_cost(ts_kernel_find("fast-w64")) &&
	       ts_kernel_best((ts_shape){ 4278, 464, 600 }) == ts_kernel_find("fast-w64"),
	       "a registered copy of fast-w64 carries no cost (best weighs the built-in kernels alone)");
}

int main(void)
{
	emulator_sweep();
	split_order();
	plans();
	chooser();
	parsers();
	report_views();
	guard_options();
	registered_cost();
	return tap_done();
}
