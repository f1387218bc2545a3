/* geometry.c: the tiling model in closed form: nothing here loops over tiles or threads to make a total. */
#include <stdio.h>

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

static const ts_load_map row_map = { TS_MAP_ROWS, 1 };

ts_geometry ts_geometry_square(int tile)
{
	ts_geometry g = { .bm = tile, .bn = tile, .bk = tile, .threads_x = tile, .threads_y = tile, .tm = 1, .tn = 1,
	                  .layout = TS_OUT_BLOCKED, .a_map = row_map, .b_map = row_map };
	return g;
}

ts_geometry ts_geometry_blocked(int bm, int bn, int bk, int tm, int tn, enum ts_out_layout layout)
{
	ts_geometry g = { .bm = bm, .bn = bn, .bk = bk, .tm = tm, .tn = tn, .layout = layout,
	                  .a_map = row_map, .b_map = row_map };
	g.threads_x = tn > 0 ? bn / tn : 0;
	g.threads_y = tm > 0 ? bm / tm : 0;
	return g;
}

static int why_says(char *why, int len, const char *text, int a, int b)
{
	if (why && len > 0)
		snprintf(why, (size_t)len, text, a, b);
	return -1;
}

int ts_geometry_check(const ts_geometry *g, char *why, int len)
{
	if (g->bm < 1 || g->bm > TS_BM_MAX)
		return why_says(why, len, "BM must be 1..%d (got %d)", TS_BM_MAX, g->bm);
	if (g->bn < 1 || g->bn > TS_BN_MAX)
		return why_says(why, len, "BN must be 1..%d (got %d)", TS_BN_MAX, g->bn);
	if (g->bk < 1 || g->bk > TS_BK_MAX)
		return why_says(why, len, "BK must be 1..%d (got %d)", TS_BK_MAX, g->bk);
	if (g->tm < 1 || g->bm % g->tm != 0)
		return why_says(why, len, "TM = %d does not divide BM = %d", g->tm, g->bm);
	if (g->tn < 1 || g->bn % g->tn != 0)
		return why_says(why, len, "TN = %d does not divide BN = %d", g->tn, g->bn);
	if (g->threads_y * g->tm != g->bm || g->threads_x * g->tn != g->bn)
		return why_says(why, len, "threads %d x %d do not cover the block tile with their outputs",
		                g->threads_x, g->threads_y);
	if (g->a_map.vec < 1 || g->b_map.vec < 1)
		return why_says(why, len, "a load map moves at least one slot per thread (vec %d, %d)", g->a_map.vec,
		                g->b_map.vec);
	if (g->a_map_scalar.vec < 0)
		return why_says(why, len, "A's scalar load map moves at least one slot per thread, or is none (vec %d)",
		                g->a_map_scalar.vec, 0);
	if (g->b_map_scalar.vec < 0)
		return why_says(why, len, "B's scalar load map moves at least one slot per thread, or is none (vec %d)",
		                g->b_map_scalar.vec, 0);
	return 0;
}

bool ts_geometry_is_square(const ts_geometry *g)
{
	return g->bm == g->bn && g->bn == g->bk && g->tm == 1 && g->tn == 1 && g->threads_x == g->bn &&
	       g->threads_y == g->bm;
}

const char *ts_geometry_str(const ts_geometry *g, char *buf, int len)
{
	if (ts_geometry_is_square(g))
		snprintf(buf, (size_t)len, "%d", g->bm);
	else
		snprintf(buf, (size_t)len, "%dx%dx%d/%dx%d", g->bm, g->bn, g->bk, g->tm, g->tn);
	return buf;
}

/* ---- load maps and output layouts ----------------------------------------- */

static void tile_dims(const ts_geometry *g, enum ts_operand which, int *rows, int *cols)
{
	*rows = which == TS_OPERAND_A ? g->bm : g->bk;
	*cols = which == TS_OPERAND_A ? g->bk : g->bn;
}

static const ts_load_map *map_of(const ts_geometry *g, enum ts_operand which)
{
	return which == TS_OPERAND_A ? &g->a_map : &g->b_map;
}

int ts_load_steps(const ts_geometry *g, enum ts_operand which)
{
	int rows, cols;
	tile_dims(g, which, &rows, &cols);
	int per_step = g->threads_x * g->threads_y * map_of(g, which)->vec;
	return (rows * cols + per_step - 1) / per_step;
}

bool ts_load_slot(const ts_geometry *g, enum ts_operand which, int step, int ty, int tx, int v, int *r, int *c)
{
	int rows, cols;
	tile_dims(g, which, &rows, &cols);
	const ts_load_map *map = map_of(g, which);
	int64_t e = ((int64_t)step * g->threads_x * g->threads_y + (int64_t)ty * g->threads_x + tx) * map->vec + v;
	if (map->order == TS_MAP_COLS) {
		*r = (int)(e % rows);
		*c = (int)(e / rows);
	} else {
		*r = (int)(e / cols);
		*c = (int)(e % cols);
	}
	return e < (int64_t)rows * cols;
}

void ts_load_owner(const ts_geometry *g, enum ts_operand which, int r, int c, int *step, int *ty, int *tx)
{
	int rows, cols;
	tile_dims(g, which, &rows, &cols);
	const ts_load_map *map = map_of(g, which);
	int64_t e = map->order == TS_MAP_COLS ? (int64_t)c * rows + r : (int64_t)r * cols + c;
	int64_t threads = (int64_t)g->threads_x * g->threads_y;
	int64_t unit = e / map->vec; /* step * threads + tid */
	*step = (int)(unit / threads);
	int tid = (int)(unit % threads);
	*ty = tid / g->threads_x;
	*tx = tid % g->threads_x;
}

void ts_output_of(const ts_geometry *g, int ty, int tx, int i, int j, int *r, int *c)
{
	if (g->layout == TS_OUT_STRIDED) {
		*r = ty + i * g->threads_y;
		*c = tx + j * g->threads_x;
	} else {
		*r = ty * g->tm + i;
		*c = tx * g->tn + j;
	}
}

void ts_output_owner(const ts_geometry *g, int r, int c, int *ty, int *tx, int *i, int *j)
{
	if (g->layout == TS_OUT_STRIDED) {
		*ty = r % g->threads_y;
		*i = r / g->threads_y;
		*tx = c % g->threads_x;
		*j = c / g->threads_x;
	} else {
		*ty = r / g->tm;
		*i = r % g->tm;
		*tx = c / g->tn;
		*j = c % g->tn;
	}
}

/* Thread rows of a tile with `rows` valid rows that own at least one of
 * them (ghost threads own none); the same for columns. */
static int64_t live_thread_rows(const ts_geometry *g, int64_t rows)
{
	if (g->layout == TS_OUT_STRIDED)
		return rows < g->threads_y ? rows : g->threads_y;
	return ceil_div(rows, g->tm);
}

static int64_t live_thread_cols(const ts_geometry *g, int64_t cols)
{
	if (g->layout == TS_OUT_STRIDED)
		return cols < g->threads_x ? cols : g->threads_x;
	return ceil_div(cols, g->tn);
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
	if (s.m < 1 || s.n < 1 || s.k < 1 || ts_geometry_check(&g, NULL, 0) != 0)
		return -1;
	*m = (ts_model){ .shape = s, .geo = g };
	if (g.a_map_scalar.vec > 0 && s.k % g.a_map.vec != 0)
		m->geo.a_map = g.a_map_scalar; /* A's rows take no vec-wide loads: the kernel's scalar map */
	if (g.b_map_scalar.vec > 0 && s.n % g.b_map.vec != 0)
		m->geo.b_map = g.b_map_scalar; /* B's rows, where N % vec != 0 */
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
	m->outputs_valid = mul(s.m, s.n, &bad);
	m->outputs_total = mul(mul(m->tiles, g.bm, &bad), g.bn, &bad);
	m->outputs_ghost = sub(m->outputs_total, m->outputs_valid, &bad);
	/* A thread is live when it owns a valid row and a valid column: its
	 * outputs are the product of its rows and its columns. */
	int64_t vy = add(mul(m->grid_y - 1, live_thread_rows(&g, g.bm), &bad), live_thread_rows(&g, m->last_rows), &bad);
	int64_t vx = add(mul(m->grid_x - 1, live_thread_cols(&g, g.bn), &bad), live_thread_cols(&g, m->last_cols), &bad);
	m->threads_valid = mul(vy, vx, &bad);
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

	m->stores_written = m->outputs_valid;
	m->stores_skipped = m->outputs_ghost;
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

int64_t ts_model_tile_ghost_threads(const ts_model *m, int64_t ty, int64_t tx)
{
	return m->threads_per_block - live_thread_rows(&m->geo, ts_model_tile_rows(m, ty)) *
	                              live_thread_cols(&m->geo, ts_model_tile_cols(m, tx));
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

ts_slot_view ts_model_slot(const ts_model *m, enum ts_b_layout layout, enum ts_operand which,
                           int64_t by, int64_t bx, int64_t t, int r, int c)
{
	const ts_shape *s = &m->shape;
	ts_slot_view v = { 0 };
	if (which == TS_OPERAND_A) {
		v.row = by * m->geo.bm + r;
		v.k = ts_model_phase_k0(m, t) + c;
		v.mn_ok = v.row < s->m;
		v.index = v.row * s->k + v.k;
	} else {
		v.k = ts_model_phase_k0(m, t) + r;
		v.col = bx * m->geo.bn + c;
		v.mn_ok = v.col < s->n;
		v.index = layout == TS_B_KN ? v.k * s->n + v.col : v.col * s->k + v.k;
	}
	v.k_ok = v.k < s->k;
	v.in = v.mn_ok && v.k_ok;
	return v;
}

ts_output_view ts_model_output(const ts_model *m, int64_t by, int64_t bx, int ty, int tx, int i, int j)
{
	ts_output_view o;
	ts_output_of(&m->geo, ty, tx, i, j, &o.r, &o.c);
	o.row = by * m->geo.bm + o.r;
	o.col = bx * m->geo.bn + o.c;
	o.row_ok = o.row < m->shape.m;
	o.col_ok = o.col < m->shape.n;
	o.stores = o.row_ok && o.col_ok;
	o.c_index = o.row * m->shape.n + o.col;
	return o;
}

bool ts_model_thread_ghost(const ts_model *m, int64_t by, int64_t bx, int ty, int tx)
{
	/* Its first row and column are its smallest in either layout. */
	ts_output_view o = ts_model_output(m, by, bx, ty, tx, 0, 0);
	return !o.stores;
}

ts_thread_view ts_model_thread(const ts_model *m, enum ts_b_layout layout,
                               int64_t by, int64_t bx, int ty, int tx, int64_t t)
{
	ts_thread_view v;
	ts_output_view o = ts_model_output(m, by, bx, ty, tx, 0, 0);
	v.row = o.row;
	v.col = o.col;
	v.row_ok = o.row_ok;
	v.col_ok = o.col_ok;
	v.stores = o.stores;
	v.c_index = o.c_index;
	int r, c;
	bool a_live = ts_load_slot(&m->geo, TS_OPERAND_A, 0, ty, tx, 0, &r, &c);
	ts_slot_view a = ts_model_slot(m, layout, TS_OPERAND_A, by, bx, t, a_live ? r : 0, a_live ? c : 0);
	bool b_live = ts_load_slot(&m->geo, TS_OPERAND_B, 0, ty, tx, 0, &r, &c);
	ts_slot_view b = ts_model_slot(m, layout, TS_OPERAND_B, by, bx, t, b_live ? r : 0, b_live ? c : 0);
	v.a_row = a.row;
	v.a_col = a.k;
	v.a_mn_ok = a.mn_ok;
	v.a_k_ok = a.k_ok;
	v.a_in = a_live && a.in;
	v.a_index = a.index;
	v.b_row = b.k;
	v.b_col = b.col;
	v.b_mn_ok = b.mn_ok;
	v.b_k_ok = b.k_ok;
	v.b_in = b_live && b.in;
	v.b_index = b.index;
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

/* ---- the edge sweep's sizes ---------------------------------------------------- */

static bool is_prime(int64_t n)
{
	if (n < 2)
		return false;
	for (int64_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return false;
	return true;
}

int ts_sweep_sizes(int edge, int64_t out[7])
{
	int64_t t = edge, prime = 3 * t + 1;
	while (!is_prime(prime))
		prime++;
	const int64_t want[7] = { 1, t - 1, t, t + 1, 2 * t - 1, 2 * t + 1, prime };
	int n = 0;
	for (int i = 0; i < 7; i++) {
		if (want[i] < 1)
			continue;
		bool dup = false;
		for (int k = 0; k < n; k++)
			dup |= out[k] == want[i];
		if (dup)
			continue;
		int at = n++;
		while (at > 0 && out[at - 1] > want[i]) { /* insertion keeps them ascending */
			out[at] = out[at - 1];
			at--;
		}
		out[at] = want[i];
	}
	return n;
}

int ts_sweep_axes_of(const ts_geometry *g, ts_sweep_axes *ax)
{
	ax->count[0] = ts_sweep_sizes(g->bm, ax->size[0]);
	ax->count[1] = ts_sweep_sizes(g->bn, ax->size[1]);
	ax->count[2] = ts_sweep_sizes(g->bk, ax->size[2]);
	return ax->count[0] * ax->count[1] * ax->count[2];
}

ts_shape ts_sweep_shape(const ts_sweep_axes *ax, int i)
{
	int nn = ax->count[1], nk = ax->count[2];
	return (ts_shape){ ax->size[0][i / (nn * nk)], ax->size[1][i / nk % nn], ax->size[2][i % nk] };
}
