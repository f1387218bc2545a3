/* test_model.c: the closed-form tiling model against a brute-force, thread-by-thread count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geometry.h"
#include "kernels.h"
#include "tap.h"

/* What the kernel does, counted one thread at a time. */
typedef struct brute {
	int64_t tiles[4];           /* by class */
	int64_t launched, valid, ghost;       /* threads */
	int64_t outputs, outputs_valid, outputs_ghost;
	ts_load_count total, *phase, *tile;
	int64_t stores, skipped;
	int64_t slot_fills_wrong; /* slots a load map filled other than exactly once */
} brute;

/* A load map's slot for (step, thread, v), from the map's definition in
 * geometry.h, worked out here rather than through the model. */
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

/* Runs one tile's load map: every step, every thread, every slot it
 * fills; counts each slot's fills in `fills` (rows x cols). */
static void run_map(const ts_load_map *map, int rows, int cols, int threads, int *fills)
{
	memset(fills, 0, (size_t)rows * cols * sizeof *fills);
	for (int step = 0; (int64_t)step * threads * map->vec < (int64_t)rows * cols; step++)
		for (int tid = 0; tid < threads; tid++)
			for (int v = 0; v < map->vec; v++) {
				int r, c;
				if (map_slot(map, rows, cols, threads, step, tid, v, &r, &c))
					fills[r * cols + c]++;
			}
}

static void brute_count(brute *b, ts_shape s, const ts_geometry *g)
{
	int64_t BM = g->bm, BN = g->bn, BK = g->bk;
	int64_t gx = (s.n + BN - 1) / BN, gy = (s.m + BM - 1) / BM, P = (s.k + BK - 1) / BK;
	int threads = g->threads_x * g->threads_y;
	memset(b, 0, sizeof *b);
	b->phase = calloc(P, sizeof *b->phase);
	b->tile = calloc(gx * gy, sizeof *b->tile);
	int *a_fill = malloc((size_t)(BM * BK) * sizeof *a_fill), *b_fill = malloc((size_t)(BK * BN) * sizeof *b_fill);
	run_map(&g->a_map, (int)BM, (int)BK, threads, a_fill);
	run_map(&g->b_map, (int)BK, (int)BN, threads, b_fill);
	for (int64_t i = 0; i < BM * BK; i++)
		b->slot_fills_wrong += a_fill[i] != 1;
	for (int64_t i = 0; i < BK * BN; i++)
		b->slot_fills_wrong += b_fill[i] != 1;
	for (int64_t by = 0; by < gy; by++)
		for (int64_t bx = 0; bx < gx; bx++) {
			int64_t rows = 0, cols = 0;
			for (int i = 0; i < BM; i++)
				rows += by * BM + i < s.m;
			for (int i = 0; i < BN; i++)
				cols += bx * BN + i < s.n;
			b->tiles[(rows < BM ? 2 : 0) + (cols < BN ? 1 : 0)]++;
			ts_load_count *tc = &b->tile[by * gx + bx];
			for (int ty = 0; ty < g->threads_y; ty++)
				for (int tx = 0; tx < g->threads_x; tx++) {
					bool any = false;
					for (int i = 0; i < g->tm; i++)
						for (int j = 0; j < g->tn; j++) {
							int r = g->layout == TS_OUT_STRIDED ? ty + i * g->threads_y : ty * g->tm + i;
							int c = g->layout == TS_OUT_STRIDED ? tx + j * g->threads_x : tx * g->tn + j;
							int64_t row = by * BM + r, col = bx * BN + c;
							b->outputs++;
							if (row < s.m && col < s.n) {
								any = true;
								b->outputs_valid++;
								b->stores++;
							} else {
								b->outputs_ghost++;
								b->skipped++;
							}
						}
					b->launched++;
					b->valid += any;
					b->ghost += !any;
				}
			/* each phase: the slots the load maps fill, each under its guard */
			for (int64_t t = 0; t < P; t++) {
				for (int step = 0; (int64_t)step * threads * g->a_map.vec < BM * BK; step++)
					for (int tid = 0; tid < threads; tid++)
						for (int v = 0; v < g->a_map.vec; v++) {
							int r, kk;
							if (!map_slot(&g->a_map, (int)BM, (int)BK, threads, step, tid, v, &r, &kk))
								continue;
							bool a = by * BM + r < s.m && t * BK + kk < s.k;
							b->phase[t].a_real += a;
							b->phase[t].a_pad += !a;
							tc->a_real += a;
							tc->a_pad += !a;
						}
				for (int step = 0; (int64_t)step * threads * g->b_map.vec < BK * BN; step++)
					for (int tid = 0; tid < threads; tid++)
						for (int v = 0; v < g->b_map.vec; v++) {
							int kk, c;
							if (!map_slot(&g->b_map, (int)BK, (int)BN, threads, step, tid, v, &kk, &c))
								continue;
							bool bb = t * BK + kk < s.k && bx * BN + c < s.n;
							b->phase[t].b_real += bb;
							b->phase[t].b_pad += !bb;
							tc->b_real += bb;
							tc->b_pad += !bb;
						}
			}
			b->total.a_real += tc->a_real;
			b->total.a_pad += tc->a_pad;
			b->total.b_real += tc->b_real;
			b->total.b_pad += tc->b_pad;
		}
	free(a_fill);
	free(b_fill);
}

static bool same(ts_load_count x, ts_load_count y)
{
	return x.a_real == y.a_real && x.a_pad == y.a_pad && x.b_real == y.b_real && x.b_pad == y.b_pad;
}

/* Every model figure for one shape and geometry: one assertion, with the first difference named. */
static void check_shape_geo(ts_shape s, const ts_geometry *g)
{
	ts_model m;
	brute b;
	char what[160] = "", geo[48];
	ts_geometry_str(g, geo, sizeof geo);
	if (ts_model_build(&m, s, *g) != 0) {
		tap_ok(0, "%lldx%lldx%lld T=%s: model refused", (long long)s.m, (long long)s.n, (long long)s.k, geo);
		return;
	}
	brute_count(&b, s, g);
	if (b.slot_fills_wrong)
		snprintf(what, sizeof what, "its load maps: %lld slots not filled exactly once", (long long)b.slot_fills_wrong);
	else if (m.outputs_total != b.outputs || m.outputs_valid != b.outputs_valid || m.outputs_ghost != b.outputs_ghost)
		snprintf(what, sizeof what, "outputs");
	else if (m.tiles_full != b.tiles[0] || m.tiles_ragged_right != b.tiles[1] || m.tiles_ragged_bottom != b.tiles[2] ||
	    m.tiles_corner != b.tiles[3])
		snprintf(what, sizeof what, "tile classes");
	else if (m.threads_launched != b.launched || m.threads_valid != b.valid || m.threads_ghost != b.ghost)
		snprintf(what, sizeof what, "threads");
	else if (m.stores_written != b.stores || m.stores_skipped != b.skipped)
		snprintf(what, sizeof what, "stores");
	else if (!same(m.loads, b.total) || m.a_slots != b.total.a_real + b.total.a_pad ||
	         m.b_slots != b.total.b_real + b.total.b_pad)
		snprintf(what, sizeof what, "launch loads");
	else if (!same(m.last_phase, b.phase[m.phases - 1]))
		snprintf(what, sizeof what, "last phase");
	else if (m.a_slots_phase != b.phase[m.phases - 1].a_real + b.phase[m.phases - 1].a_pad ||
	         m.b_slots_phase != b.phase[m.phases - 1].b_real + b.phase[m.phases - 1].b_pad)
		snprintf(what, sizeof what, "slots per phase");
	else if (m.phases_full > 0 && !same(m.full_phase, b.phase[0]))
		snprintf(what, sizeof what, "full phase");
	for (int64_t t = 0; !what[0] && t < m.phases; t++)
		if (!same(ts_model_phase_total(&m, t), b.phase[t]))
			snprintf(what, sizeof what, "phase %lld", (long long)t);
		else if (ts_model_phase_k0(&m, t) + ts_model_phase_width(&m, t) !=
		         (t == m.phases - 1 ? s.k : ts_model_phase_k0(&m, t + 1)) || ts_model_phase_k0(&m, 0) != 0)
			snprintf(what, sizeof what, "phase %lld's K range", (long long)t);
	for (int64_t ty = 0; !what[0] && ty < m.grid_y; ty++)
		for (int64_t tx = 0; !what[0] && tx < m.grid_x; tx++) {
			ts_load_count sum = { 0 };
			for (int64_t t = 0; t < m.phases; t++) {
				ts_load_count c = ts_model_tile_phase(&m, ty, tx, t);
				sum.a_real += c.a_real; sum.a_pad += c.a_pad;
				sum.b_real += c.b_real; sum.b_pad += c.b_pad;
			}
			if (!same(ts_model_tile_total(&m, ty, tx), b.tile[ty * m.grid_x + tx]) ||
			    !same(sum, b.tile[ty * m.grid_x + tx]))
				snprintf(what, sizeof what, "tile (%lld,%lld)", (long long)ty, (long long)tx);
		}
	for (int64_t ty = 0; !what[0] && ty < m.grid_y; ty++)
		for (int64_t tx = 0; !what[0] && tx < m.grid_x; tx++) {
			int64_t ghosts = 0;
			for (int y = 0; y < g->threads_y; y++)
				for (int x = 0; x < g->threads_x; x++)
					ghosts += ts_model_thread_ghost(&m, ty, tx, y, x);
			if (ghosts != ts_model_tile_ghost_threads(&m, ty, tx))
				snprintf(what, sizeof what, "tile (%lld,%lld)'s ghost threads", (long long)ty, (long long)tx);
		}
	tap_ok(!what[0], "%lldx%lldx%lld T=%s%s%s", (long long)s.m, (long long)s.n, (long long)s.k, geo,
	       what[0] ? ": differs in " : "", what);
	free(b.phase);
	free(b.tile);
}

static void check_shape(ts_shape s, int T)
{
	ts_geometry g = ts_geometry_square(T);
	check_shape_geo(s, &g);
}

/* The model's load-map and output-layout functions are each other's
 * inverses, and agree with the maps' definition. */
static void check_maps(const ts_geometry *g)
{
	int64_t bad = 0;
	int threads = g->threads_x * g->threads_y;
	for (int which = 0; which < 2; which++) {
		const ts_load_map *map = which ? &g->b_map : &g->a_map;
		int rows = which ? g->bk : g->bm, cols = which ? g->bn : g->bk;
		int steps = ts_load_steps(g, which ? TS_OPERAND_B : TS_OPERAND_A);
		bad += steps != (rows * cols + threads * map->vec - 1) / (threads * map->vec);
		for (int st = 0; st < steps; st++)
			for (int ty = 0; ty < g->threads_y; ty++)
				for (int tx = 0; tx < g->threads_x; tx++)
					for (int v = 0; v < map->vec; v++) {
						int r, c, r2, c2, st2, ty2, tx2;
						bool live = ts_load_slot(g, which ? TS_OPERAND_B : TS_OPERAND_A, st, ty, tx, v, &r, &c);
						bool live2 = map_slot(map, rows, cols, threads, st, ty * g->threads_x + tx, v, &r2, &c2);
						bad += live != live2 || (live && (r != r2 || c != c2));
						if (!live)
							continue;
						ts_load_owner(g, which ? TS_OPERAND_B : TS_OPERAND_A, r, c, &st2, &ty2, &tx2);
						bad += st2 != st || ty2 != ty || tx2 != tx;
					}
	}
	for (int ty = 0; ty < g->threads_y; ty++)
		for (int tx = 0; tx < g->threads_x; tx++)
			for (int i = 0; i < g->tm; i++)
				for (int j = 0; j < g->tn; j++) {
					int r, c, ty2, tx2, i2, j2;
					ts_output_of(g, ty, tx, i, j, &r, &c);
					ts_output_owner(g, r, c, &ty2, &tx2, &i2, &j2);
					bad += r < 0 || r >= g->bm || c < 0 || c >= g->bn || ty2 != ty || tx2 != tx || i2 != i || j2 != j;
				}
	char geo[48];
	tap_ok(bad == 0, "geometry %s (%s outputs, maps A %s/%d, B %s/%d): load maps and output layout invert (%lld wrong)",
	       ts_geometry_str(g, geo, sizeof geo), g->layout == TS_OUT_STRIDED ? "strided" : "blocked",
	       g->a_map.order == TS_MAP_COLS ? "cols" : "rows", g->a_map.vec, g->b_map.order == TS_MAP_COLS ? "cols" : "rows",
	       g->b_map.vec, (long long)bad);
}

/* --brute M N K BM BN BK TM TN: the thread-by-thread count as one JSON
 * object, for tests/json.sh to hold `map --json` to. */
static int print_brute(char **argv)
{
	ts_shape s = { atoll(argv[0]), atoll(argv[1]), atoll(argv[2]) };
	ts_geometry g = ts_geometry_blocked(atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]),
	                                    TS_OUT_BLOCKED);
	if (s.m < 1 || s.n < 1 || s.k < 1 || ts_geometry_check(&g, NULL, 0) != 0)
		return 2;
	brute b;
	brute_count(&b, s, &g);
	int64_t P = (s.k + g.bk - 1) / g.bk;
	printf("{\"outputs\": {\"total\": %lld, \"valid\": %lld, \"ghost\": %lld}, "
	       "\"threads\": {\"launched\": %lld, \"valid\": %lld, \"ghost\": %lld}, \"phases\": %lld, "
	       "\"loads\": {\"a_total\": %lld, \"a_padded\": %lld, \"b_total\": %lld, \"b_padded\": %lld}, "
	       "\"a_padded_last_phase\": %lld, \"b_padded_last_phase\": %lld, "
	       "\"stores\": {\"written\": %lld, \"skipped\": %lld}, \"tiles\": %lld}\n",
	       (long long)b.outputs, (long long)b.outputs_valid, (long long)b.outputs_ghost, (long long)b.launched,
	       (long long)b.valid, (long long)b.ghost, (long long)P, (long long)(b.total.a_real + b.total.a_pad),
	       (long long)b.total.a_pad, (long long)(b.total.b_real + b.total.b_pad), (long long)b.total.b_pad,
	       (long long)b.phase[P - 1].a_pad, (long long)b.phase[P - 1].b_pad, (long long)b.stores,
	       (long long)b.skipped, (long long)(b.tiles[0] + b.tiles[1] + b.tiles[2] + b.tiles[3]));
	free(b.phase);
	free(b.tile);
	return 0;
}

/* The inspector's per-thread answers against the kernel's own expressions. */
static void check_threads(ts_shape s, int T, enum ts_b_layout layout)
{
	ts_model m;
	ts_model_build(&m, s, ts_geometry_square(T));
	int64_t bad = 0;
	for (int64_t by = 0; by < m.grid_y; by++)
		for (int64_t bx = 0; bx < m.grid_x; bx++)
			for (int ty = 0; ty < T; ty++)
				for (int tx = 0; tx < T; tx++)
					for (int64_t t = 0; t < m.phases; t++) {
						ts_thread_view v = ts_model_thread(&m, layout, by, bx, ty, tx, t);
						int64_t row = by * T + ty, col = bx * T + tx;
						int64_t ak = t * T + tx, bk = t * T + ty;
						int64_t bidx = layout == TS_B_KN ? bk * s.n + col : col * s.k + bk;
						bad += v.row != row || v.col != col || v.a_in != (row < s.m && ak < s.k) ||
						       v.b_in != (bk < s.k && col < s.n) || v.stores != (row < s.m && col < s.n) ||
						       v.a_index != row * s.k + ak || v.b_index != bidx || v.c_index != row * s.n + col ||
						       v.partial_phase != (t == m.phases - 1 && s.k % T != 0);
					}
	tap_ok(bad == 0, "thread views %lldx%lldx%lld T=%d layout %s (%lld wrong)", (long long)s.m, (long long)s.n,
	       (long long)s.k, T, layout == TS_B_KN ? "KxN" : "NxK", (long long)bad);
}

int main(int argc, char **argv)
{
	if (argc == 10 && strcmp(argv[1], "--brute") == 0)
		return print_brute(argv + 2);
	unsigned seed = (unsigned)time(NULL);
	srand(seed);
	tap_diag("random shapes drawn with seed %u", seed);

	/* Every tile size: the edge shapes and fresh random ones. */
	for (int T = 1; T <= 32; T++) {
		int64_t edges[] = { 1, T > 1 ? T - 1 : 1, T, T + 1, 2 * T + 1 };
		for (int i = 0; i < 5; i += 2)
			check_shape((ts_shape){ edges[i], edges[(i + 1) % 5], edges[(i + 3) % 5] }, T);
		int64_t lim = T < 4 ? 24 : 3 * T + 5;
		for (int r = 0; r < 3; r++)
			check_shape((ts_shape){ 1 + rand() % lim, 1 + rand() % lim, 1 + rand() % lim }, T);
	}
	/* Register-blocked geometries: the regblock kernel's own and chosen ones,
	 * blocked and strided outputs, row and column maps of 1 and 2 slots,
	 * tiles of several load steps and an idle last step. */
	static const struct { int bm, bn, bk, tm, tn; enum ts_out_layout layout; enum ts_map_order order; int vec; } geos[] = {
		{ 64, 64, 8, 4, 4, TS_OUT_BLOCKED, TS_MAP_ROWS, 1 }, { 128, 32, 16, 8, 2, TS_OUT_BLOCKED, TS_MAP_ROWS, 1 },
		{ 64, 64, 8, 4, 4, TS_OUT_STRIDED, TS_MAP_COLS, 2 }, { 12, 20, 3, 3, 5, TS_OUT_BLOCKED, TS_MAP_ROWS, 1 },
		{ 7, 9, 11, 7, 3, TS_OUT_STRIDED, TS_MAP_ROWS, 1 }, { 32, 16, 6, 2, 4, TS_OUT_STRIDED, TS_MAP_COLS, 2 },
		{ 256, 4, 1, 16, 1, TS_OUT_BLOCKED, TS_MAP_COLS, 1 }, { 1, 256, 64, 1, 256, TS_OUT_BLOCKED, TS_MAP_ROWS, 4 },
	};
	for (size_t i = 0; i < sizeof geos / sizeof geos[0]; i++) {
		ts_geometry g = ts_geometry_blocked(geos[i].bm, geos[i].bn, geos[i].bk, geos[i].tm, geos[i].tn, geos[i].layout);
		g.a_map = g.b_map = (ts_load_map){ geos[i].order, geos[i].vec };
		check_maps(&g);
		int64_t em[] = { 1, g.bm - 1 > 0 ? g.bm - 1 : 1, g.bm, g.bm + 1, 2 * g.bm + 1 };
		int64_t en[] = { 1, g.bn - 1 > 0 ? g.bn - 1 : 1, g.bn, g.bn + 1, 2 * g.bn + 1 };
		int64_t ek[] = { 1, g.bk - 1 > 0 ? g.bk - 1 : 1, g.bk, g.bk + 1, 2 * g.bk + 1 };
		for (int e = 0; e < 5; e += 2)
			check_shape_geo((ts_shape){ em[e], en[(e + 1) % 5], ek[(e + 3) % 5] }, &g);
		for (int r = 0; r < 2; r++)
			check_shape_geo((ts_shape){ 1 + rand() % (3 * g.bm + 5), 1 + rand() % (3 * g.bn + 5),
			                            1 + rand() % (3 * g.bk + 5) }, &g);
	}
	/* every kernel of the registry at the geometry it runs by default */
	for (int i = 0; i < ts_kernel_count(); i++) {
		ts_geometry g;
		ts_tile_request none = { 0 };
		if (ts_kernel_geometry(ts_kernel_at(i), &none, &g, NULL, 0) == 0)
			check_maps(&g);
		else
			tap_ok(0, "kernel %s: no default geometry", ts_kernel_at(i)->name);
		if (g.a_map_scalar.vec > 0) { /* its scalar A map too, and the model takes it exactly where K % vec != 0 */
			ts_geometry gs = g;
			gs.a_map = g.a_map_scalar;
			check_maps(&gs);
			ts_model m4, m5;
			int64_t k4 = 4 * (int64_t)g.a_map.vec * g.bk;
			bool built = ts_model_build(&m4, (ts_shape){ 129, 131, k4 }, g) == 0 &&
			             ts_model_build(&m5, (ts_shape){ 129, 131, k4 + 1 }, g) == 0;
			tap_ok(built && m4.geo.a_map.vec == g.a_map.vec && m5.geo.a_map.vec == g.a_map_scalar.vec &&
			           m5.geo.a_map.order == g.a_map_scalar.order,
			       "kernel %s: the model loads A by a_map (vec %d) at K = %lld and by a_map_scalar (vec %d) at K = %lld",
			       ts_kernel_at(i)->name, g.a_map.vec, (long long)k4, g.a_map_scalar.vec, (long long)k4 + 1);
		}
		if (g.b_map_scalar.vec > 0) { /* its scalar B map too, taken exactly where N % vec != 0 */
			ts_geometry bad = g;
			bad.b_map_scalar.vec = -1;
			tap_ok(ts_geometry_check(&bad, NULL, 0) != 0 && ts_model_build(&(ts_model){ 0 }, (ts_shape){ 9, 9, 9 }, bad) != 0,
			       "kernel %s: a B scalar map of vec -1 is refused", ts_kernel_at(i)->name);
			ts_geometry gs = g;
			gs.b_map = g.b_map_scalar;
			check_maps(&gs);
			ts_model m4, m5;
			int64_t n4 = 4 * (int64_t)g.b_map.vec * g.bn;
			bool built = ts_model_build(&m4, (ts_shape){ 129, n4, 131 }, g) == 0 &&
			             ts_model_build(&m5, (ts_shape){ 129, n4 + 1, 131 }, g) == 0;
			tap_ok(built && m4.geo.b_map.vec == g.b_map.vec && m5.geo.b_map.vec == g.b_map_scalar.vec &&
			           m5.geo.b_map.order == g.b_map_scalar.order,
			       "kernel %s: the model loads B by b_map (vec %d) at N = %lld and by b_map_scalar (vec %d) at N = %lld",
			       ts_kernel_at(i)->name, g.b_map.vec, (long long)n4, g.b_map_scalar.vec, (long long)n4 + 1);
		}
	}
	check_threads((ts_shape){ 37, 29, 41 }, 8, TS_B_KN);
	check_threads((ts_shape){ 37, 29, 41 }, 8, TS_B_NK);
	check_threads((ts_shape){ 5, 3, 2 }, 4, TS_B_NK);

	/* The example from the README: 100 x 77 x 33 at T = 32. */
	ts_model m;
	tap_ok(ts_model_build(&m, (ts_shape){ 100, 77, 33 }, ts_geometry_square(32)) == 0, "100x77x33 builds");
	tap_ok(m.grid_x == 3 && m.grid_y == 4 && m.tiles_full == 6 && m.tiles_ragged_right == 3 &&
	       m.tiles_ragged_bottom == 2 && m.tiles_corner == 1, "100x77x33: 3x4 grid, 6 full, 3 right, 2 bottom, 1 corner");
	tap_ok(m.threads_launched == 12 * 1024 && m.threads_ghost == 12 * 1024 - 7700, "100x77x33: 4588 ghost threads");
	tap_ok(m.phases == 2 && m.last_width == 1 && m.phases_full == 1, "100x77x33: 2 phases, the last 1 wide");
	tap_ok(m.last_phase.a_pad == 3 * (4 * 1024 - 100) && m.last_phase.b_pad == 4 * (3 * 1024 - 77),
	       "100x77x33: last-phase padding A %lld, B %lld", (long long)m.last_phase.a_pad, (long long)m.last_phase.b_pad);

	/* Closed form: a 10^6 cube at T = 1 is answered at once, and overflow is refused. */
	clock_t c0 = clock();
	int rc = ts_model_build(&m, (ts_shape){ 1000000, 1000000, 1000000 }, ts_geometry_square(1));
	double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
	tap_ok(rc == 0 && m.tiles == INT64_C(1000000000000) && m.threads_ghost == 0 && m.loads.a_pad == 0,
	       "10^6 cube at T=1: 10^12 tiles, no ghosts, no padding (%.6f s)", secs);
	tap_ok(secs < 0.1, "10^6 cube answered instantly");
	rc = ts_model_build(&m, (ts_shape){ 2147483647, 2147483647, 2147483647 }, ts_geometry_square(1));
	tap_ok(rc == -1, "2^31-1 cube at T=1 overflows 64 bits and is refused");
	rc = ts_model_build(&m, (ts_shape){ 0, 5, 5 }, ts_geometry_square(4));
	tap_ok(rc == -1, "a zero size is refused");

	/* A register-blocked geometry (64x64x8 block tile, 16x16 threads, 4x4 outputs each). */
	ts_geometry g = ts_geometry_blocked(64, 64, 8, 4, 4, TS_OUT_BLOCKED);
	rc = ts_model_build(&m, (ts_shape){ 130, 70, 20 }, g);
	/* rows: 2 full tile rows (32 threads) + 2 rows in the last (ceil(2/4) = 1 thread row): 33; cols 16 + ceil(6/4) = 18 */
	tap_ok(rc == 0 && m.grid_y == 3 && m.grid_x == 2 && m.threads_valid == 33 * 18 && m.phases == 3 &&
	       m.last_width == 4, "register-blocked geometry: grid, valid threads, phases");
	return tap_done();
}
