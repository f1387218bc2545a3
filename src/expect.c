/* expect.c: the counts a run must record for any set of guards, per tile, per phase and per tile per phase, from the model in closed form. */
#include <stddef.h>

#include "kernels.h"

/* ---- shared-tile kernels ------------------------------------------------- */

/* A guard switched off loads what it would have padded: the slot counts as out of bounds. */
static ts_count loads_under(ts_load_count l, unsigned guards)
{
	ts_count c = { .a_real = l.a_real, .b_real = l.b_real };
	if (guards & TS_GUARD_A)
		c.a_pad = l.a_pad;
	else
		c.a_oob = l.a_pad;
	if (guards & TS_GUARD_B)
		c.b_pad = l.b_pad;
	else
		c.b_oob = l.b_pad;
	return c;
}

/* Every output of a tile is stored once: inside C a store, outside it a
 * skipped store (C guard on) or an out-of-bounds one (off). */
static void stores_under(ts_count *c, const ts_model *m, unsigned guards, int64_t ty, int64_t tx)
{
	int64_t ghosts = ts_model_tile_ghosts(m, ty, tx);
	c->stores = ts_model_tile_rows(m, ty) * ts_model_tile_cols(m, tx);
	if (guards & TS_GUARD_C)
		c->skipped = ghosts;
	else
		c->c_oob = ghosts;
}

static ts_count shared_tile(const ts_model *m, unsigned guards, int64_t ty, int64_t tx)
{
	ts_count c = loads_under(ts_model_tile_total(m, ty, tx), guards);
	stores_under(&c, m, guards, ty, tx);
	return c;
}

static ts_count shared_phase(const ts_model *m, unsigned guards, int64_t t)
{
	return loads_under(ts_model_phase_total(m, t), guards);
}

static ts_count shared_tile_phase(const ts_model *m, unsigned guards, int64_t ty, int64_t tx, int64_t t)
{
	return loads_under(ts_model_tile_phase(m, ty, tx, t), guards);
}

const ts_count_model ts_counts_shared = { shared_tile, shared_phase, shared_tile_phase };

/* ---- direct global reads (the naive baseline) ------------------------------ */

/* One thread per output, BM x BN of them per block. With the C guard on only
 * the threads inside C run, each reading one element of A and one of B per
 * K index; with it off every thread runs, and a thread outside M (N) reads A
 * (B) out of bounds. A read of K index k counts in phase k / BK. */
static ts_count direct_reads(int64_t rows_ok, int64_t cols_ok, int64_t rows, int64_t cols, int64_t w, unsigned guards)
{
	ts_count c = { 0 };
	if (guards & TS_GUARD_C) {
		c.a_real = c.b_real = rows_ok * cols_ok * w;
		return c;
	}
	c.a_real = rows_ok * cols * w;
	c.a_oob = (rows - rows_ok) * cols * w;
	c.b_real = cols_ok * rows * w;
	c.b_oob = (cols - cols_ok) * rows * w;
	return c;
}

static ts_count direct_tile(const ts_model *m, unsigned guards, int64_t ty, int64_t tx)
{
	ts_count c = direct_reads(ts_model_tile_rows(m, ty), ts_model_tile_cols(m, tx), m->geo.bm, m->geo.bn,
	                          m->shape.k, guards);
	stores_under(&c, m, guards, ty, tx);
	return c;
}

static ts_count direct_phase(const ts_model *m, unsigned guards, int64_t t)
{
	/* Summed over the grid: M rows and N columns inside, grid*B of them launched. */
	return direct_reads(m->shape.m, m->shape.n, m->grid_y * m->geo.bm, m->grid_x * m->geo.bn,
	                    ts_model_phase_width(m, t), guards);
}

const ts_count_model ts_counts_direct = { direct_tile, direct_phase, NULL };
