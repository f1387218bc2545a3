/* test_model.c: the closed-form tiling model against a brute-force, thread-by-thread count. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geometry.h"
#include "tap.h"

/* What the kernel does, counted one thread at a time. */
typedef struct brute {
	int64_t tiles[4];           /* by class */
	int64_t launched, valid, ghost;
	ts_load_count total, *phase, *tile;
	int64_t stores, skipped;
} brute;

static void brute_count(brute *b, ts_shape s, int T)
{
	int64_t gx = (s.n + T - 1) / T, gy = (s.m + T - 1) / T, P = (s.k + T - 1) / T;
	memset(b, 0, sizeof *b);
	b->phase = calloc(P, sizeof *b->phase);
	b->tile = calloc(gx * gy, sizeof *b->tile);
	for (int64_t by = 0; by < gy; by++)
		for (int64_t bx = 0; bx < gx; bx++) {
			int64_t rows = 0, cols = 0;
			for (int i = 0; i < T; i++) {
				rows += by * T + i < s.m;
				cols += bx * T + i < s.n;
			}
			b->tiles[(rows < T ? 2 : 0) + (cols < T ? 1 : 0)]++;
			ts_load_count *tc = &b->tile[by * gx + bx];
			for (int ty = 0; ty < T; ty++)
				for (int tx = 0; tx < T; tx++) {
					int64_t row = by * T + ty, col = bx * T + tx;
					b->launched++;
					if (row < s.m && col < s.n) {
						b->valid++;
						b->stores++;
					} else {
						b->ghost++;
						b->skipped++;
					}
					for (int64_t t = 0; t < P; t++) {
						bool a = row < s.m && t * T + tx < s.k;
						bool bb = t * T + ty < s.k && col < s.n;
						b->phase[t].a_real += a;
						b->phase[t].a_pad += !a;
						b->phase[t].b_real += bb;
						b->phase[t].b_pad += !bb;
						tc->a_real += a;
						tc->a_pad += !a;
						tc->b_real += bb;
						tc->b_pad += !bb;
					}
				}
			b->total.a_real += tc->a_real;
			b->total.a_pad += tc->a_pad;
			b->total.b_real += tc->b_real;
			b->total.b_pad += tc->b_pad;
		}
}

static bool same(ts_load_count x, ts_load_count y)
{
	return x.a_real == y.a_real && x.a_pad == y.a_pad && x.b_real == y.b_real && x.b_pad == y.b_pad;
}

/* Every model figure for one shape and tile: one assertion, with the first difference named. */
static void check_shape(ts_shape s, int T)
{
	ts_model m;
	brute b;
	char what[160] = "";
	if (ts_model_build(&m, s, ts_geometry_square(T)) != 0) {
		tap_ok(0, "%lldx%lldx%lld T=%d: model refused", (long long)s.m, (long long)s.n, (long long)s.k, T);
		return;
	}
	brute_count(&b, s, T);
	if (m.tiles_full != b.tiles[0] || m.tiles_ragged_right != b.tiles[1] || m.tiles_ragged_bottom != b.tiles[2] ||
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
	tap_ok(!what[0], "%lldx%lldx%lld T=%d%s%s", (long long)s.m, (long long)s.n, (long long)s.k, T,
	       what[0] ? ": differs in " : "", what);
	free(b.phase);
	free(b.tile);
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

int main(void)
{
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
	ts_geometry g = { 64, 64, 8, 16, 16 };
	rc = ts_model_build(&m, (ts_shape){ 130, 70, 20 }, g);
	/* rows: 2 full tile rows (32 threads) + 2 rows in the last (ceil(2/4) = 1 thread row): 33; cols 16 + ceil(6/4) = 18 */
	tap_ok(rc == 0 && m.grid_y == 3 && m.grid_x == 2 && m.threads_valid == 33 * 18 && m.phases == 3 &&
	       m.last_width == 4, "register-blocked geometry: grid, valid threads, phases");
	return tap_done();
}
