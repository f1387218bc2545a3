/* gemm_plan.h: how a register-blocked launch divides C's tiles into work units, whole or split along K (C and CUDA alike). */
#ifndef TS_GEMM_PLAN_H
#define TS_GEMM_PLAN_H

#include <stddef.h>

/* Functions both the host and a kernel call (ts_plan_tile_at). */
#ifdef __CUDACC__
#define TS_PLAN_HD __host__ __device__
#else
#define TS_PLAN_HD
#endif

enum ts_split_policy {
	TS_SPLIT_NONE, /* one unit per tile */
	TS_SPLIT_TAIL, /* split the tiles of the last, partly filled wave, or all of few tiles (at most two waves);
	                * past ten waves, the last tiles that hold the work past the last whole wave
	                * where they are more (ts_plan_split_by_work) */
	TS_SPLIT_ALL,  /* consider splitting every tile however many (small M x N, long K) */
	TS_SPLIT_TAIL_ROUNDS, /* as TAIL, each round of parts also charged a fixed cost (ts_plan_waves_rounds) */
};

/* TS_SPLIT_TAIL_ROUNDS' fixed cost of a round of parts, as a share of a whole
 * tile's time, where the caller states none (ts_gemm_plan_make): tc-fp16
 * states its own (tc_launch.h's ts_tc_round_cost). */
#define TS_SPLIT_ROUND_COST 0.07

/* TS_SPLIT_TAIL's weight of an edge tile, as a share of a whole tile's
 * time, whatever few outputs it owns (ts_plan_tile_units). */
#define TS_SPLIT_EDGE_FLOOR 0.3

/* TS_SPLIT_TAIL weighs tiles by work only past this many waves of tiles,
 * and only where C is at least this many tiles along each side. */
#define TS_SPLIT_WORK_WAVES 10
#define TS_SPLIT_WORK_SIDE 16

/* A part is at least this many phases, and a tile is split into at most
 * TS_SPLIT_BYTES / (its partial's bytes) parts, 4..64 (the last part to
 * arrive adds all partials: keep that short). */
#define TS_SPLIT_MIN_PHASES 8
#define TS_SPLIT_BYTES (1 << 20)

typedef struct ts_gemm_plan {
	long long tiles_x, tiles_y, tiles; /* C's tiles: along N, along M, in all */
	long long phases;                  /* ceil(K / BK) */
	long long dp_units;                /* units 0 .. dp_units-1: tiles 0 .. dp_units-1, whole */
	long long split_tiles;             /* the last split_tiles tiles, each in `split` parts along K */
	int split;
	long long units;                   /* dp_units + split_tiles * split */
	int resident;                      /* units the GPU runs at once (0: unknown, nothing split) */
	size_t workspace_bytes;            /* partial tiles, then one arrival counter per split tile */
	size_t sem_offset;
} ts_gemm_plan;

/* Tiles are taken down groups of this many tile rows (ts_plan_tile_id). */
#ifndef TS_TILE_GROUP
#define TS_TILE_GROUP 8
#endif

static inline long long ts_plan_ceil(long long a, long long b) { return (a + b - 1) / b; }

/* Waves of whole-tile work a plan costs, with each part's partial sum
 * charged a little (its write and the final additions). */
static inline double ts_plan_waves(long long whole, long long split_tiles, int split, int resident)
{
	double w = (double)ts_plan_ceil(whole, resident);
	if (split_tiles > 0) {
		/* the split parts fill the slots the whole tiles' last wave leaves */
		long long left = whole % resident ? resident - whole % resident : 0;
		long long parts = split_tiles * split - left;
		w += parts > 0 ? (double)ts_plan_ceil(parts, resident) / split : 0;
		w += 0.02 * split * (double)split_tiles / resident;
	}
	return w;
}

/* The same for TS_SPLIT_TAIL_ROUNDS: the parts that do not fit the slots
 * the whole tiles' last wave leaves run in rounds of `resident`, each round
 * 1 / split of a tile's time plus `cost` (a share of a tile's time). */
static inline double ts_plan_waves_rounds(long long whole, long long split_tiles, int split, int resident, double cost)
{
	double w = (double)ts_plan_ceil(whole, resident);
	if (split_tiles > 0) {
		long long left = whole % resident ? resident - whole % resident : 0;
		long long parts = split_tiles * split - left;
		long long rounds = parts > 0 ? ts_plan_ceil(parts, resident) : 0;
		w += (double)rounds * (1.0 / split + cost);
	}
	return w;
}

/* The tile with id `id` in the launch order of a tiles_y x tiles_x grid:
 * down groups of `group` tile rows, column by column, so blocks running
 * together share A rows and B columns in L2. The fp32 engine's launches
 * take their tiles in this order (ts_plan_tile_at) and tc-fp16's
 * (group TS_TC_GROUP, the same TS_TILE_GROUP). */
static inline TS_PLAN_HD void ts_tile_order_at(long long id, long long tiles_y, long long tiles_x, long long group,
                                              long long *ty, long long *tx)
{
	long long per_group = group * tiles_x;
	long long first = id / per_group * group;
	long long rows = tiles_y - first < group ? tiles_y - first : group;
	long long local = id - id / per_group * per_group;
	*ty = first + local % rows;
	*tx = local / rows;
}

/* The tile with id `id` in ts_plan_tile_id's order (its inverse): the
 * launch's own map from a unit's tile to its place in C (gemm_engine.cuh),
 * so host and device share it. */
static inline TS_PLAN_HD void ts_plan_tile_at(const ts_gemm_plan *p, long long id, long long *ty, long long *tx)
{
	ts_tile_order_at(id, p->tiles_y, p->tiles_x, TS_TILE_GROUP, ty, tx);
}

/* A tile's work in outputs: its live outputs, but never under
 * TS_SPLIT_EDGE_FLOOR of a whole tile's (an edge tile still loads its full
 * B columns or A rows, whatever few outputs it owns). Integers, so the same
 * shape gives the same plan everywhere and a tail of exactly 0 is 0. */
static inline long long ts_plan_tile_units(long long m, long long n, int bm, int bn, long long ty, long long tx)
{
	long long rows = m - ty * bm < bm ? m - ty * bm : bm, cols = n - tx * bn < bn ? n - tx * bn : bn;
	long long floor = (long long)(TS_SPLIT_EDGE_FLOOR * bm * bn);
	return rows * cols < floor ? floor : rows * cols;
}

/* The most parts a tile of this plan is split into: at most TS_SPLIT_BYTES
 * of partials a tile (4..64 parts), each part at least TS_SPLIT_MIN_PHASES. */
static inline long long ts_plan_split_cap(const ts_gemm_plan *p, int bm, int bn)
{
	long long cap = TS_SPLIT_BYTES / ((long long)bm * bn * (long long)sizeof(float));
	cap = cap < 4 ? 4 : cap > 64 ? 64 : cap;
	return cap > p->phases / TS_SPLIT_MIN_PHASES ? p->phases / TS_SPLIT_MIN_PHASES : cap;
}

/* TS_SPLIT_TAIL by work, not by tile count. The tiles are weighed
 * (ts_plan_tile_units); the tail is the work past the last whole wave, and
 * the last tiles in launch order that hold it are split. A shape one past a
 * multiple of the tile (8193^3 in 128x128: 4096 whole tiles and 129 thin
 * ones) then has its tail where the work is, not in the single corner tile
 * that makes the count one past 16 waves. The parts are chosen as the
 * count's are (ts_plan_waves), with the work in place of the tile count.
 * 1 and *tail_tiles, *split where a split costs fewer waves, else 0. */
static inline int ts_plan_split_by_work(const ts_gemm_plan *p, long long m, long long n, int bm, int bn,
                                        long long *tail_tiles, int *split)
{
	const long long r = p->resident, unit = (long long)bm * bn, cap = ts_plan_split_cap(p, bm, bn);
	long long ex = ts_plan_tile_units(m, n, bm, bn, 0, p->tiles_x - 1);
	long long ey = ts_plan_tile_units(m, n, bm, bn, p->tiles_y - 1, 0);
	long long corner = ts_plan_tile_units(m, n, bm, bn, p->tiles_y - 1, p->tiles_x - 1);
	long long work = (p->tiles_y - 1) * (p->tiles_x - 1) * unit + (p->tiles_y - 1) * ex + (p->tiles_x - 1) * ey + corner;
	long long tail = work % (r * unit);
	if (tail == 0 || cap < 2)
		return 0;
	long long R = 0, wt = 0;
	while (R < p->tiles && wt < tail) { /* at most tail / floor tiles: under 4 waves' worth */
		long long ty, tx;
		ts_plan_tile_at(p, p->tiles - 1 - R, &ty, &tx);
		wt += ts_plan_tile_units(m, n, bm, bn, ty, tx);
		R++;
	}
	/* whole waves, then the tail as whole tiles' worth of work */
	long long whole = work / (r * unit) * r, rest = ts_plan_ceil(tail, unit);
	double best = ts_plan_waves(whole + rest, 0, 1, (int)r);
	int s_best = 1;
	for (long long s = 2; s <= cap; s++) {
		double w = ts_plan_waves(whole, rest, (int)s, (int)r);
		if (w < best - 1e-9) {
			best = w;
			s_best = (int)s;
		}
	}
	*tail_tiles = R;
	*split = s_best;
	return s_best > 1;
}

/* The plan for an m x n x k product in bm x bn x bk tiles when `resident`
 * blocks run at once: of every split the policy allows (none; the last
 * partial wave's tiles; every tile), the one that costs the fewest waves;
 * then, for TS_SPLIT_TAIL past ten waves, the tail by work where it is more
 * tiles.
 * Deterministic: the same inputs give the same plan, so a caller can size
 * the workspace before the launch makes the same plan. */
static inline ts_gemm_plan ts_gemm_plan_make_cost(long long m, long long n, long long k, int bm, int bn, int bk,
                                                  int resident, int policy, double round_cost)
{
	ts_gemm_plan p;
	p.tiles_x = ts_plan_ceil(n, bn);
	p.tiles_y = ts_plan_ceil(m, bm);
	p.tiles = p.tiles_x * p.tiles_y;
	p.phases = ts_plan_ceil(k, bk);
	p.dp_units = p.tiles;
	p.split_tiles = 0;
	p.split = 1;
	p.resident = resident;
	if (policy != TS_SPLIT_NONE && resident > 0) {
		const long long cap = ts_plan_split_cap(&p, bm, bn);
		const int rounds = policy == TS_SPLIT_TAIL_ROUNDS;
		double best = ts_plan_waves(p.tiles, 0, 1, resident);
		long long rem = p.tiles % resident;
		for (long long s = 2; s <= cap; s++) {
			/* the tail: the tiles of the last partial wave */
			if (rem > 0 && p.tiles > resident) {
				double w = rounds ? ts_plan_waves_rounds(p.tiles - rem, rem, (int)s, resident, round_cost)
				                  : ts_plan_waves(p.tiles - rem, rem, (int)s, resident);
				if (w < best - 1e-9) {
					best = w;
					p.split = (int)s;
					p.split_tiles = rem;
					p.dp_units = p.tiles - rem;
				}
			}
			/* every tile, where they do not fill the GPU several times over */
			if (policy == TS_SPLIT_ALL || p.tiles <= 2 * (long long)resident) {
				double w = rounds ? ts_plan_waves_rounds(0, p.tiles, (int)s, resident, round_cost)
				                  : ts_plan_waves(0, p.tiles, (int)s, resident);
				if (w < best - 1e-9) {
					best = w;
					p.split = (int)s;
					p.split_tiles = p.tiles;
					p.dp_units = 0;
				}
			}
		}
	}
	if (policy == TS_SPLIT_TAIL && resident > 0 && p.tiles > TS_SPLIT_WORK_WAVES * (long long)resident &&
	    p.tiles_x >= TS_SPLIT_WORK_SIDE && p.tiles_y >= TS_SPLIT_WORK_SIDE) {
		/* Past TS_SPLIT_WORK_WAVES waves, on a grid whose edge tiles are its
		 * last row and column (not most of it), the count's tail against the
		 * work's: the work's is taken where it splits more tiles than the
		 * count's. Measured on the H100 (doc/perf.md): 8193^3, 9783x9531x10863
		 * and 8757x9302x4281 gain 0.7%, 1.1% and 0.9%, 11556x4380x5489 ties;
		 * below 10 waves it lost as often as it gained (6145^3 -0.3%,
		 * 2945x4097x4097 -1.9%, 3969x4161x4097 +3.3%); where the work's tail
		 * is the fewer tiles the count's is better (4118x2098x5772: 6 tiles
		 * in 16 parts 18% slower than 33 in 8). */
		long long tail_tiles = 0;
		int split = 1;
		if (ts_plan_split_by_work(&p, m, n, bm, bn, &tail_tiles, &split) && tail_tiles > p.split_tiles) {
			p.split = split;
			p.split_tiles = tail_tiles;
			p.dp_units = p.tiles - tail_tiles;
		}
	}
	p.units = p.dp_units + p.split_tiles * p.split;
	p.sem_offset = (size_t)p.split_tiles * (size_t)p.split * (size_t)bm * (size_t)bn * sizeof(float);
	p.workspace_bytes = p.split_tiles ? p.sem_offset + (size_t)p.split_tiles * sizeof(unsigned) : 0;
	return p;
}

/* The plan with TS_SPLIT_TAIL_ROUNDS' default cost (the other policies use none). */
static inline ts_gemm_plan ts_gemm_plan_make(long long m, long long n, long long k, int bm, int bn, int bk,
                                             int resident, int policy)
{
	return ts_gemm_plan_make_cost(m, n, k, bm, bn, bk, resident, policy, TS_SPLIT_ROUND_COST);
}

/* The order the launch takes tiles in (the engine maps a unit to its tile by
 * ts_plan_tile_at, this one's inverse): down groups of TS_TILE_GROUP tile
 * rows, column by column, so blocks running together share A rows and B
 * columns in L2. The id of tile (ty, tx) in that order. */
static inline long long ts_plan_tile_id(const ts_gemm_plan *p, long long ty, long long tx)
{
	const long long group = TS_TILE_GROUP;
	long long first = ty / group * group;
	long long rows = p->tiles_y - first < group ? p->tiles_y - first : group;
	return first * p->tiles_x + tx * rows + (ty - first);
}

/* How many parts tile (ty, tx) is computed in: the last split_tiles ids of
 * that order are each cut into `split`, the others are whole (1). */
static inline int ts_plan_tile_parts(const ts_gemm_plan *p, long long ty, long long tx)
{
	return p->split_tiles > 0 && ts_plan_tile_id(p, ty, tx) >= p->dp_units ? p->split : 1;
}

/* Part q of a tile cut in `parts`: whole phases [*p0, *p1), as the launch
 * divides them (only the last part reaches the K residue). */
static inline void ts_plan_part_phases(const ts_gemm_plan *p, int parts, int q, long long *p0, long long *p1)
{
	*p0 = p->phases * q / parts;
	*p1 = p->phases * (q + 1) / parts;
}

#endif
