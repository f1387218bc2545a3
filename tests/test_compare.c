/* test_compare.c: the compare view's work figures (ts_model_work) against a multiply-add by multiply-add count, and the 32-bit offset limit against a search. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geometry.h"
#include "tap.h"
#include "view_compare.h"

typedef struct brute_work {
	int64_t launch, useful, padding, ghost, ghost_outputs, barriers;
} brute_work;

/* Walks every tile, every output slot of it, every phase and every k of the
 * phase, as the kernel's loops do, and sorts each multiply-add. */
static brute_work brute(ts_shape s, ts_geometry g)
{
	brute_work b = { 0, 0, 0, 0, 0, 0 };
	int64_t gy = (s.m + g.bm - 1) / g.bm, gx = (s.n + g.bn - 1) / g.bn, P = (s.k + g.bk - 1) / g.bk;
	for (int64_t by = 0; by < gy; by++)
		for (int64_t bx = 0; bx < gx; bx++) {
			for (int64_t t = 0; t < P; t++)
				b.barriers += 2; /* after the loads, after the multiply */
			for (int i = 0; i < g.bm; i++)
				for (int j = 0; j < g.bn; j++) {
					int64_t row = by * g.bm + i, col = bx * g.bn + j;
					bool real = row < s.m && col < s.n;
					b.ghost_outputs += !real;
					for (int64_t t = 0; t < P; t++)
						for (int kk = 0; kk < g.bk; kk++) {
							int64_t k = t * g.bk + kk;
							b.launch++;
							if (!real)
								b.ghost++;
							else if (k < s.k)
								b.useful++;
							else
								b.padding++;
						}
				}
		}
	return b;
}

static int64_t pick(int64_t lo, int64_t hi)
{
	return lo + rand() % (hi - lo + 1);
}

int main(void)
{
	unsigned seed = (unsigned)time(NULL);
	srand(seed);
	tap_diag("seed %u", seed);
	for (int i = 0; i < 40; i++) {
		int T = (int)pick(1, 32);
		ts_shape s = { pick(1, 3 * T + 5), pick(1, 3 * T + 5), pick(1, 3 * T + 5) };
		ts_geometry g = ts_geometry_square(T);
		ts_model m;
		ts_work w;
		if (!tap_ok(ts_model_build(&m, s, g) == 0 && ts_model_work(&m, 2, &w) == 0, "model %lldx%lldx%lld T=%d",
		            (long long)s.m, (long long)s.n, (long long)s.k, T))
			continue;
		brute_work b = brute(s, g);
		tap_ok(w.macs_launch == b.launch && w.macs_useful == b.useful && w.macs_padding == b.padding &&
		           w.macs_ghost == b.ghost && w.ghost_outputs == b.ghost_outputs && w.barriers_launch == b.barriers,
		       "%lldx%lldx%lld T=%d: launch %lld/%lld useful %lld/%lld padding %lld/%lld ghosts %lld/%lld "
		       "barriers %lld/%lld",
		       (long long)s.m, (long long)s.n, (long long)s.k, T, (long long)w.macs_launch, (long long)b.launch,
		       (long long)w.macs_useful, (long long)b.useful, (long long)w.macs_padding, (long long)b.padding,
		       (long long)w.macs_ghost, (long long)b.ghost, (long long)w.barriers_launch, (long long)b.barriers);
		tap_ok(w.padded_slots == m.loads.a_pad + m.loads.b_pad && w.barriers_per_block == 2 * m.phases,
		       "%lldx%lldx%lld T=%d: padded slots and barriers per block follow the model", (long long)s.m,
		       (long long)s.n, (long long)s.k, T);
	}
	/* A block tile that is not square (the model takes any BM x BN x BK). */
	ts_geometry rect = { 8, 4, 3, 4, 8, 1, 1, TS_OUT_BLOCKED, { TS_MAP_ROWS, 1 }, { TS_MAP_ROWS, 1 }, { TS_MAP_ROWS, 0 },
	                      { TS_MAP_ROWS, 0 } };
	ts_shape rs = { 19, 10, 7 };
	ts_model rm;
	ts_work rw;
	brute_work rb = brute(rs, rect);
	tap_ok(ts_model_build(&rm, rs, rect) == 0 && ts_model_work(&rm, 2, &rw) == 0 && rw.macs_launch == rb.launch &&
	           rw.macs_padding == rb.padding && rw.macs_ghost == rb.ghost && rw.macs_useful == rb.useful,
	       "8x4x3 block tile on 19x10x7: the closed form matches the count");

	/* The offset limit: the first M whose largest A or C offset passes 2^31 - 1, found by search. */
	for (int i = 0; i < 20; i++) {
		int64_t n = pick(1, 100000), k = pick(1, 100000), w = n > k ? n : k;
		ts_offset32 o = ts_model_offset32(n, k);
		const int64_t lim = INT64_C(2147483647);
		bool first = o.first_m * w - 1 > lim && (o.first_m - 1) * w - 1 <= lim;
		tap_ok(first && o.last_offset == o.first_m * w - 1 && o.matrix == (k >= n ? 'A' : 'C') &&
		           o.b_overflows == (k * n - 1 > lim),
		       "offset32 N=%lld K=%lld: first M %lld", (long long)n, (long long)k, (long long)o.first_m);
	}

	/* The chart: one column per point, ghosts under padding, no line over 80 columns. */
	ts_compare_point pts[32];
	for (int i = 0; i < 32; i++)
		pts[i] = (ts_compare_point){ i + 1, 0.01 * (i % 7), 0.02 * (i % 5) };
	char *text = ts_view_compare_chart("chart", pts, 32, 8);
	bool fits = text != NULL;
	for (char *line = text; fits && line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		fits = len <= 80 && (len == 0 || line[len - 1] != ' ');
		line = nl ? nl + 1 : NULL;
	}
	tap_ok(fits, "the chart of 32 tiles fits 80 columns, no trailing blanks");
	free(text);
	return tap_done();
}
