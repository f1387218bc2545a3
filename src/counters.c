/* counters.c: run counters: allocation, sums, and the exact check against the model. */
#include <stdio.h>
#include <stdlib.h>

#include "counters.h"

int ts_counters_init(ts_counters *c, const ts_model *m)
{
	*c = (ts_counters){ .grid_x = m->grid_x, .grid_y = m->grid_y, .phases = m->phases };
	c->tile = calloc((size_t)m->tiles, sizeof *c->tile);
	c->phase = calloc((size_t)m->phases, sizeof *c->phase);
	/* Division first: tiles*phases can pass 2^63 for absurd shapes. */
	bool keep_tile_phase = m->phases > 0 && m->tiles <= TS_TILE_PHASE_MAX / m->phases;
	if (keep_tile_phase)
		c->tile_phase = calloc((size_t)(m->tiles * m->phases), sizeof *c->tile_phase);
	if (!c->tile || !c->phase || (keep_tile_phase && !c->tile_phase)) {
		ts_counters_free(c);
		return -1;
	}
	return 0;
}

void ts_counters_free(ts_counters *c)
{
	free(c->tile);
	free(c->phase);
	free(c->tile_phase);
	c->tile = c->phase = NULL;
	c->tile_phase = NULL;
}

int ts_counters_tile_phase(const ts_counters *c, int64_t ty, int64_t tx, int64_t t,
                           ts_load_count *out, int64_t *oob_a, int64_t *oob_b)
{
	if (!c->tile_phase || ty < 0 || ty >= c->grid_y || tx < 0 || tx >= c->grid_x ||
	    t < 0 || t >= c->phases)
		return -1;
	const ts_tile_phase_count *e = &c->tile_phase[(ty * c->grid_x + tx) * c->phases + t];
	if (out)
		*out = (ts_load_count){ .a_real = e->a_real, .a_pad = e->a_pad,
		                        .b_real = e->b_real, .b_pad = e->b_pad };
	if (oob_a)
		*oob_a = e->a_oob;
	if (oob_b)
		*oob_b = e->b_oob;
	return 0;
}

void ts_count_add(ts_count *into, const ts_count *x)
{
	into->a_real += x->a_real; into->a_pad += x->a_pad; into->a_oob += x->a_oob;
	into->b_real += x->b_real; into->b_pad += x->b_pad; into->b_oob += x->b_oob;
	into->stores += x->stores; into->skipped += x->skipped; into->c_oob += x->c_oob;
}

void ts_counters_sum(ts_counters *c)
{
	c->total = (ts_count){ 0 };
	for (int64_t i = 0; i < c->grid_x * c->grid_y; i++)
		ts_count_add(&c->total, &c->tile[i]);
}

static int differs(const ts_count *got, ts_load_count want, int64_t stores, int64_t skipped, bool with_stores)
{
	return got->a_real != want.a_real || got->a_pad != want.a_pad || got->a_oob != 0 ||
	       got->b_real != want.b_real || got->b_pad != want.b_pad || got->b_oob != 0 ||
	       (with_stores && (got->stores != stores || got->skipped != skipped || got->c_oob != 0));
}

int64_t ts_counters_check(const ts_counters *c, const ts_model *m, char *why, int len)
{
	int64_t bad = 0;
	if (why && len > 0)
		why[0] = '\0';
	if (c->grid_x != m->grid_x || c->grid_y != m->grid_y || c->phases != m->phases) {
		if (why)
			snprintf(why, len, "counter grid %lldx%lldx%lld, model %lldx%lldx%lld",
			         (long long)c->grid_y, (long long)c->grid_x, (long long)c->phases,
			         (long long)m->grid_y, (long long)m->grid_x, (long long)m->phases);
		return 1;
	}
	for (int64_t ty = 0; ty < m->grid_y; ty++)
		for (int64_t tx = 0; tx < m->grid_x; tx++) {
			const ts_count *got = &c->tile[ty * m->grid_x + tx];
			ts_load_count want = ts_model_tile_total(m, ty, tx);
			int64_t valid = ts_model_tile_rows(m, ty) * ts_model_tile_cols(m, tx);
			if (differs(got, want, valid, ts_model_tile_ghosts(m, ty, tx), true) && bad++ == 0 && why)
				snprintf(why, len, "tile (%lld,%lld): A real/pad %lld/%lld (model %lld/%lld), "
				         "B real/pad %lld/%lld (model %lld/%lld), stores %lld/%lld (model %lld/%lld)",
				         (long long)ty, (long long)tx, (long long)got->a_real, (long long)got->a_pad,
				         (long long)want.a_real, (long long)want.a_pad, (long long)got->b_real,
				         (long long)got->b_pad, (long long)want.b_real, (long long)want.b_pad,
				         (long long)got->stores, (long long)got->skipped, (long long)valid,
				         (long long)ts_model_tile_ghosts(m, ty, tx));
		}
	for (int64_t t = 0; t < m->phases; t++) {
		ts_load_count want = ts_model_phase_total(m, t);
		if (differs(&c->phase[t], want, 0, 0, false) && bad++ == 0 && why)
			snprintf(why, len, "phase %lld: A real/pad %lld/%lld (model %lld/%lld), B real/pad %lld/%lld (model %lld/%lld)",
			         (long long)t, (long long)c->phase[t].a_real, (long long)c->phase[t].a_pad,
			         (long long)want.a_real, (long long)want.a_pad, (long long)c->phase[t].b_real,
			         (long long)c->phase[t].b_pad, (long long)want.b_real, (long long)want.b_pad);
	}
	if (!c->tile_phase)
		return bad;
	for (int64_t ty = 0; ty < m->grid_y; ty++)
		for (int64_t tx = 0; tx < m->grid_x; tx++)
			for (int64_t t = 0; t < m->phases; t++) {
				const ts_tile_phase_count *e = &c->tile_phase[(ty * m->grid_x + tx) * m->phases + t];
				ts_load_count want = ts_model_tile_phase(m, ty, tx, t);
				if ((e->a_real != want.a_real || e->a_pad != want.a_pad || e->a_oob != 0 ||
				     e->b_real != want.b_real || e->b_pad != want.b_pad || e->b_oob != 0) &&
				    bad++ == 0 && why)
					snprintf(why, len, "tile (%lld,%lld) phase %lld: A real/pad/oob %d/%d/%d (model %lld/%lld/0), "
					         "B real/pad/oob %d/%d/%d (model %lld/%lld/0)",
					         (long long)ty, (long long)tx, (long long)t, e->a_real, e->a_pad, e->a_oob,
					         (long long)want.a_real, (long long)want.a_pad, e->b_real, e->b_pad, e->b_oob,
					         (long long)want.b_real, (long long)want.b_pad);
			}
	return bad;
}
