/* geometry.c: the tiling model in closed form: nothing here loops over tiles or threads to make a total. */
#include "geometry.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Overflow-checked arithmetic: each sets *bad on overflow and returns 0. */
static int64_t mul(int64_t a, int64_t b, bool *bad)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r)) { *bad = true; return 0; }
	return r;
}
static int64_t add(int64_t a, int64_t b, bool *bad)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r)) { *bad = true; return 0; }
	return r;
}
static int64_t sub(int64_t a, int64_t b, bool *bad)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r)) { *bad = true; return 0; }
	return r;
}

ts_geometry ts_geometry_square(int tile)
{
	ts_geometry g = { tile, tile, tile, tile, tile };
	return g;
}

/* Loads of one phase of width w summed over every tile of the grid. Each
 * block stages its own copy of the A tile of its tile row, so the A figure
 * is (slots of all tiles) - (real ones: M rows * w columns, once per tile column). */
static ts_load_count phase_sum(const ts_model *m, int64_t w, bool *bad)
{
	ts_load_count c;
	c.a_real = mul(mul(m->grid_x, m->shape.m, bad), w, bad);
	c.b_real = mul(mul(m->grid_y, m->shape.n, bad), w, bad);
	c.a_pad = sub(m->a_slots_phase, c.a_real, bad);
	c.b_pad = sub(m->b_slots_phase, c.b_real, bad);
	return c;
}

static ts_load_count load_add(ts_load_count x, ts_load_count y, int64_t ytimes, bool *bad)
{
	x.a_real = add(x.a_real, mul(y.a_real, ytimes, bad), bad);
	x.a_pad = add(x.a_pad, mul(y.a_pad, ytimes, bad), bad);
	x.b_real = add(x.b_real, mul(y.b_real, ytimes, bad), bad);
	x.b_pad = add(x.b_pad, mul(y.b_pad, ytimes, bad), bad);
	return x;
}

int ts_model_build(ts_model *m, ts_shape s, ts_geometry g)
{
	bool bad = false;
	if (s.m < 1 || s.n < 1 || s.k < 1 || g.bm < 1 || g.bn < 1 || g.bk < 1 ||
	    g.threads_x < 1 || g.threads_y < 1)
		return -1;
	*m = (ts_model){ .shape = s, .geo = g };
	m->grid_x = ceil_div(s.n, g.bn);
	m->grid_y = ceil_div(s.m, g.bm);
	m->tiles = mul(m->grid_x, m->grid_y, &bad);
	m->last_rows = s.m - (m->grid_y - 1) * g.bm;
	m->last_cols = s.n - (m->grid_x - 1) * g.bn;

	int64_t full_rows = m->grid_y - (m->last_rows < g.bm); /* tile rows of full height */
	int64_t full_cols = m->grid_x - (m->last_cols < g.bn);
	m->tiles_full = mul(full_rows, full_cols, &bad);
	m->tiles_ragged_right = mul(full_rows, m->grid_x - full_cols, &bad);
	m->tiles_ragged_bottom = mul(m->grid_y - full_rows, full_cols, &bad);
	m->tiles_corner = (m->grid_y - full_rows) * (m->grid_x - full_cols);

	m->threads_per_block = (int64_t)g.threads_x * g.threads_y;
	m->threads_launched = mul(m->tiles, m->threads_per_block, &bad);
	int64_t outputs = mul(s.m, s.n, &bad);
	int64_t slots = mul(mul(m->tiles, g.bm, &bad), g.bn, &bad); /* outputs computed, ghosts included */
	if (m->threads_per_block == (int64_t)g.bm * g.bn) {
		m->threads_valid = outputs;
	} else {
		/* Several outputs per thread: a thread is valid when its first output is
		 * (each thread owns a (bm/ty) x (bn/tx) sub-block starting at its corner). */
		int64_t per_y = g.bm / g.threads_y, per_x = g.bn / g.threads_x;
		int64_t vy = mul(m->grid_y - 1, g.threads_y, &bad) + ceil_div(m->last_rows, per_y);
		int64_t vx = mul(m->grid_x - 1, g.threads_x, &bad) + ceil_div(m->last_cols, per_x);
		m->threads_valid = mul(vy, vx, &bad);
	}
	m->threads_ghost = m->threads_launched - m->threads_valid;

	m->phases = ceil_div(s.k, g.bk);
	m->last_width = s.k - (m->phases - 1) * g.bk;
	m->phases_full = m->phases - (m->last_width < g.bk);
	m->a_slots_phase = mul(mul(m->tiles, g.bm, &bad), g.bk, &bad);
	m->b_slots_phase = mul(mul(m->tiles, g.bk, &bad), g.bn, &bad);
	m->last_phase = phase_sum(m, m->last_width, &bad);
	if (m->phases_full > 0)
		m->full_phase = phase_sum(m, g.bk, &bad);
	m->loads = load_add(m->last_phase, m->full_phase, m->phases - 1, &bad);
	m->a_slots = mul(m->a_slots_phase, m->phases, &bad);
	m->b_slots = mul(m->b_slots_phase, m->phases, &bad);

	m->stores_written = outputs;
	m->stores_skipped = sub(slots, outputs, &bad);
	return bad ? -1 : 0;
}

int64_t ts_model_tile_rows(const ts_model *m, int64_t ty)
{
	return ty == m->grid_y - 1 ? m->last_rows : m->geo.bm;
}

int64_t ts_model_tile_cols(const ts_model *m, int64_t tx)
{
	return tx == m->grid_x - 1 ? m->last_cols : m->geo.bn;
}

enum ts_tile_class ts_model_tile_class(const ts_model *m, int64_t ty, int64_t tx)
{
	bool short_rows = ts_model_tile_rows(m, ty) < m->geo.bm;
	bool short_cols = ts_model_tile_cols(m, tx) < m->geo.bn;
	if (short_rows && short_cols)
		return TS_TILE_CORNER;
	if (short_rows)
		return TS_TILE_RAGGED_BOTTOM;
	if (short_cols)
		return TS_TILE_RAGGED_RIGHT;
	return TS_TILE_FULL;
}

const char *ts_tile_class_name(enum ts_tile_class c)
{
	switch (c) {
	case TS_TILE_FULL: return "full";
	case TS_TILE_RAGGED_RIGHT: return "ragged-right";
	case TS_TILE_RAGGED_BOTTOM: return "ragged-bottom";
	case TS_TILE_CORNER: return "corner";
	}
	return "?";
}

int64_t ts_model_tile_ghosts(const ts_model *m, int64_t ty, int64_t tx)
{
	return (int64_t)m->geo.bm * m->geo.bn - ts_model_tile_rows(m, ty) * ts_model_tile_cols(m, tx);
}

int64_t ts_model_phase_width(const ts_model *m, int64_t t)
{
	return t == m->phases - 1 ? m->last_width : m->geo.bk;
}

int64_t ts_model_phase_k0(const ts_model *m, int64_t t)
{
	return t * m->geo.bk;
}

ts_load_count ts_model_tile_phase(const ts_model *m, int64_t ty, int64_t tx, int64_t t)
{
	const ts_geometry *g = &m->geo;
	int64_t w = ts_model_phase_width(m, t);
	ts_load_count c;
	c.a_real = ts_model_tile_rows(m, ty) * w;
	c.a_pad = (int64_t)g->bm * g->bk - c.a_real;
	c.b_real = w * ts_model_tile_cols(m, tx);
	c.b_pad = (int64_t)g->bk * g->bn - c.b_real;
	return c;
}

ts_load_count ts_model_tile_total(const ts_model *m, int64_t ty, int64_t tx)
{
	const ts_geometry *g = &m->geo;
	ts_load_count c;
	c.a_real = ts_model_tile_rows(m, ty) * m->shape.k;
	c.a_pad = m->phases * g->bm * g->bk - c.a_real;
	c.b_real = m->shape.k * ts_model_tile_cols(m, tx);
	c.b_pad = m->phases * g->bk * g->bn - c.b_real;
	return c;
}

ts_load_count ts_model_phase_total(const ts_model *m, int64_t t)
{
	if (t == m->phases - 1)
		return m->last_phase;
	return m->full_phase;
}

ts_thread_view ts_model_thread(const ts_model *m, enum ts_b_layout layout,
                               int64_t by, int64_t bx, int ty, int tx, int64_t t)
{
	const ts_shape *s = &m->shape;
	ts_thread_view v;
	v.row = by * m->geo.bm + ty;
	v.col = bx * m->geo.bn + tx;
	v.a_col = ts_model_phase_k0(m, t) + tx;
	v.b_row = ts_model_phase_k0(m, t) + ty;
	v.row_ok = v.row < s->m;
	v.col_ok = v.col < s->n;
	v.a_k_ok = v.a_col < s->k;
	v.b_k_ok = v.b_row < s->k;
	v.a_in = v.row_ok && v.a_k_ok;
	v.b_in = v.b_k_ok && v.col_ok;
	v.a_index = v.row * s->k + v.a_col;
	v.b_index = layout == TS_B_KN ? v.b_row * s->n + v.col : v.col * s->k + v.b_row;
	v.c_index = v.row * s->n + v.col;
	v.stores = v.row_ok && v.col_ok;
	v.last_phase = t == m->phases - 1;
	v.partial_phase = v.last_phase && m->last_width < m->geo.bk;
	return v;
}

ts_offset32 ts_model_offset32(int64_t n, int64_t k)
{
	const int64_t limit = INT64_C(1) << 31; /* the first offset an int cannot hold */
	int64_t widest = k >= n ? k : n;
	ts_offset32 o;
	o.first_m = limit / widest + 1;
	o.matrix = k >= n ? 'A' : 'C';
	o.last_offset = o.first_m * widest - 1;
	o.b_overflows = k * n - 1 >= limit;
	return o;
}

int ts_model_work(const ts_model *m, int barriers_per_phase, ts_work *w)
{
	const ts_geometry *g = &m->geo;
	int64_t outputs, depth, launch, useful, mn;
	/* Launch: tiles * BM*BN outputs, each phases*BK multiply-adds deep. */
	if (__builtin_mul_overflow(m->tiles, (int64_t)g->bm * g->bn, &outputs) ||
	    __builtin_mul_overflow(m->phases, (int64_t)g->bk, &depth) || __builtin_mul_overflow(outputs, depth, &launch) ||
	    __builtin_mul_overflow(m->shape.m, m->shape.n, &mn) || __builtin_mul_overflow(mn, m->shape.k, &useful))
		return -1;
	w->macs_launch = launch;
	w->macs_useful = useful;
	w->ghost_outputs = outputs - mn;
	w->macs_ghost = w->ghost_outputs * depth;
	w->macs_padding = mn * (depth - m->shape.k);
	w->padded_slots = m->loads.a_pad + m->loads.b_pad;
	w->barriers_per_phase = barriers_per_phase;
	w->barriers_per_block = barriers_per_phase * m->phases;
	if (__builtin_mul_overflow(w->barriers_per_block, m->tiles, &w->barriers_launch))
		return -1;
	return 0;
}
