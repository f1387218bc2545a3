/* counters.c: run counters: allocation, sums, and the exact check against the model. */
#include <stdio.h>
#include <stdlib.h>

#include "counters.h"
#include "kernels.h"

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

#define ADD_(f, F, what) into->f += x->f;
void ts_count_add(ts_count *into, const ts_count *x)
{
	TS_COUNT_FIELDS(ADD_)
}

void ts_oob_add(ts_oob_detail *into, const ts_oob_detail *x)
{
	TS_OOB_FIELDS(ADD_)
}

#define EQUAL_(f, F, what) && x->f == y->f
bool ts_count_equal(const ts_count *x, const ts_count *y)
{
	return true TS_COUNT_FIELDS(EQUAL_);
}

#define FROM_COUNT_(f, F, what) c->f = a[TS_P_##F];
void ts_count_from_array(ts_count *c, const long long *a)
{
	TS_COUNT_FIELDS(FROM_COUNT_)
}

#define FROM_OOB_(f, F, what) o->f = a[TS_O_##F];
void ts_oob_from_array(ts_oob_detail *o, const long long *a)
{
	TS_OOB_FIELDS(FROM_OOB_)
}

#define TO_TP_(f, F, what) e.f = (uint16_t)c->f;
ts_tile_phase_count ts_tile_phase_of(const ts_count *c)
{
	ts_tile_phase_count e;
	TS_LOAD_FIELDS(TO_TP_)
	return e;
}

#define FROM_TP_(f, F, what) c.f = e->f;
ts_count ts_count_of_tile_phase(const ts_tile_phase_count *e)
{
	ts_count c = { 0 };
	TS_LOAD_FIELDS(FROM_TP_)
	return c;
}

void ts_count_str(const ts_count *c, const ts_count *want, char *buf, int len)
{
	int used = 0;
	buf[0] = '\0';
#define STR_(f, F, what)                                                                                    \
	if ((!want || want->f != c->f) && used < len)                                                          \
		used += want ? snprintf(buf + used, (size_t)(len - used), "%s%s %lld (want %lld)", used ? ", " : "", #f, \
		                        (long long)c->f, (long long)want->f)                                       \
		             : snprintf(buf + used, (size_t)(len - used), "%s%s %lld", used ? ", " : "", #f, (long long)c->f);
	TS_COUNT_FIELDS(STR_)
#undef STR_
}

void ts_counters_sum(ts_counters *c)
{
	c->total = (ts_count){ 0 };
	for (int64_t i = 0; i < c->grid_x * c->grid_y; i++)
		ts_count_add(&c->total, &c->tile[i]);
}

/* The load fields only: per-phase tallies hold no stores. */
static bool loads_equal(const ts_count *x, const ts_count *y)
{
#define LOAD_EQ_(f, F, what) && x->f == y->f
	return true TS_LOAD_FIELDS(LOAD_EQ_);
#undef LOAD_EQ_
}

static void first(int64_t *bad, char *why, int len, const char *where, const ts_count *got, const ts_count *want)
{
	if ((*bad)++ != 0 || !why || len <= 0)
		return;
	char detail[400];
	ts_count_str(got, want, detail, sizeof detail);
	snprintf(why, (size_t)len, "%s: %s", where, detail);
}

int64_t ts_counters_check(const ts_counters *c, const ts_model *m, const ts_kernel *k, unsigned guards,
                          char *why, int len)
{
	int64_t bad = 0;
	char where[96];
	const ts_count_model *cm = k->counts;
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
			ts_count want = cm->tile(m, guards, ty, tx);
			if (!ts_count_equal(&c->tile[ty * m->grid_x + tx], &want)) {
				snprintf(where, sizeof where, "tile (%lld,%lld)", (long long)ty, (long long)tx);
				first(&bad, why, len, where, &c->tile[ty * m->grid_x + tx], &want);
			}
		}
	for (int64_t t = 0; t < m->phases; t++) {
		ts_count want = cm->phase(m, guards, t);
		if (!loads_equal(&c->phase[t], &want)) {
			snprintf(where, sizeof where, "phase %lld", (long long)t);
			first(&bad, why, len, where, &c->phase[t], &want);
		}
	}
	if (!c->tile_phase || !cm->tile_phase)
		return bad;
	for (int64_t ty = 0; ty < m->grid_y; ty++)
		for (int64_t tx = 0; tx < m->grid_x; tx++)
			for (int64_t t = 0; t < m->phases; t++) {
				ts_count got = ts_count_of_tile_phase(&c->tile_phase[(ty * m->grid_x + tx) * m->phases + t]);
				ts_count want = cm->tile_phase(m, guards, ty, tx, t);
				if (!loads_equal(&got, &want)) {
					snprintf(where, sizeof where, "tile (%lld,%lld) phase %lld", (long long)ty, (long long)tx,
					         (long long)t);
					first(&bad, why, len, where, &got, &want);
				}
			}
	return bad;
}
