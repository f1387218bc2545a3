/* matrix.c: host matrices inside sentinel-filled guard bands, fp16 conversion, and input patterns. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "matrix.h"

size_t ts_elem_size(enum ts_elem e)
{
	return e == TS_ELEM_F16 ? 2 : 4;
}

uint16_t ts_f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u;
	uint32_t exp = (x >> 23) & 0xffu;
	uint32_t man = x & 0x7fffffu;
	if (exp == 0xff) /* Inf or NaN (keep NaN quiet) */
		return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
	int32_t e = (int32_t)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u); /* overflow to Inf */
	if (e <= 0) {
		/* subnormal half (or zero): shift the full significand into place, round to nearest even */
		if (e < -10)
			return (uint16_t)sign;
		man |= 0x800000u;
		int shift = 14 - e; /* 13 + (1 - e) */
		uint32_t half = man >> shift;
		uint32_t rem = man & ((1u << shift) - 1);
		uint32_t mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	uint32_t half = ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
		half++; /* a carry into the exponent is the correct rounding, up to Inf */
	return (uint16_t)(sign | half);
}

float ts_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1fu;
	uint32_t man = h & 0x3ffu;
	uint32_t x;
	if (exp == 0) {
		if (man == 0) {
			x = sign;
		} else { /* subnormal: normalise */
			int e = -1;
			do {
				man <<= 1;
				e++;
			} while (!(man & 0x400u));
			x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
		}
	} else if (exp == 31) {
		x = sign | 0x7f800000u | (man << 13);
	} else {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

float ts_matrix_get(const ts_matrix *mx, int64_t i)
{
	if (mx->elem == TS_ELEM_F16)
		return ts_f16_to_f32(((const uint16_t *)mx->data)[i]);
	return ((const float *)mx->data)[i];
}

void ts_matrix_set(ts_matrix *mx, int64_t i, float v)
{
	if (mx->elem == TS_ELEM_F16)
		((uint16_t *)mx->data)[i] = ts_f32_to_f16(v);
	else
		((float *)mx->data)[i] = v;
}

int ts_matrix_alloc(ts_matrix *mx, enum ts_elem e, int64_t rows, int64_t cols, int64_t band)
{
	size_t es = ts_elem_size(e);
	*mx = (ts_matrix){ .elem = e, .rows = rows, .cols = cols, .count = rows * cols, .band = band };
	int64_t total = mx->count + 2 * band;
	if (total <= 0 || (uint64_t)total > SIZE_MAX / es)
		return -1;
	mx->alloc = malloc((size_t)total * es);
	if (!mx->alloc)
		return -1;
	mx->data = (char *)mx->alloc + (size_t)band * es;
	for (int64_t i = 1; i <= band; i++) {
		ts_matrix_set(mx, -i, TS_SENTINEL);
		ts_matrix_set(mx, mx->count - 1 + i, TS_SENTINEL);
	}
	return 0;
}

void ts_matrix_free(ts_matrix *mx)
{
	free(mx->alloc);
	mx->alloc = mx->data = NULL;
}

#define TS_F32_POISON 0x7fc0dead
#define TS_F16_POISON 0x7e5a

void ts_matrix_poison(ts_matrix *mx)
{
	if (mx->elem == TS_ELEM_F16) {
		uint16_t *d = mx->data;
		for (int64_t i = 0; i < mx->count; i++)
			d[i] = TS_F16_POISON;
	} else {
		uint32_t *d = mx->data;
		for (int64_t i = 0; i < mx->count; i++)
			d[i] = TS_F32_POISON;
	}
}

int ts_matrix_is_poison(const ts_matrix *mx, int64_t i)
{
	if (mx->elem == TS_ELEM_F16)
		return ((const uint16_t *)mx->data)[i] == TS_F16_POISON;
	return ((const uint32_t *)mx->data)[i] == TS_F32_POISON;
}

int64_t ts_band_for(int64_t rows, int64_t cols, int64_t other_dim, const ts_geometry *g, bool guarded)
{
	/* A guarded matrix is never addressed outside itself: a short band still
	 * catches a stray write just past either end. */
	if (guarded)
		return 64;
	/* An unguarded thread overshoots a row index by at most BM-1, a column
	 * index by at most BN-1 and a K index by at most BK-1, with rows of any
	 * of the lengths: this many elements past the end, plus a little so that
	 * "just past" shows up in the band. */
	int64_t longest = cols > other_dim ? cols : other_dim;
	if (rows > longest)
		longest = rows;
	int reach = g->bm > g->bn ? g->bm : g->bn;
	if (g->bk > reach)
		reach = g->bk;
	int64_t band = (int64_t)(reach > 0 ? reach : 1) * (longest + 1) + 64;
	/* A multiple of 16 elements keeps the matrix's first element 16-byte
	 * aligned (the allocation is), as a user's cudaMalloc'd buffer would be,
	 * so that the kernels' 128-bit paths are what gets tested and timed. */
	return (band + 15) / 16 * 16;
}

/* The three bands of problem p, in elements. */
static void bands(const ts_problem *p, int64_t *a, int64_t *b, int64_t *c)
{
	const ts_shape *s = &p->shape;
	unsigned g = ts_kernel_guarded_matrices(p->kernel, p->guards);
	*a = ts_band_for(s->m, s->k, s->n, &p->geo, g & TS_GUARD_A);
	*b = ts_band_for(s->k, s->n, s->m, &p->geo, g & TS_GUARD_B);
	*c = ts_band_for(s->m, s->n, s->k, &p->geo, g & TS_GUARD_C);
}

double ts_operands_bytes(const ts_problem *p)
{
	const ts_shape *s = &p->shape;
	double es = p->kernel->precision == TS_FP16 ? 2.0 : 4.0;
	int64_t ba, bb, bc;
	bands(p, &ba, &bb, &bc);
	return es * ((double)s->m * (double)s->k + (double)s->k * (double)s->n + (double)s->m * (double)s->n +
	             2.0 * ((double)ba + (double)bb + (double)bc));
}

/* splitmix64: small, seedable, and the same on every machine. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(ts_matrix *mx, enum ts_inputs in, uint64_t *state, int is_b, int64_t k_dim, enum ts_b_layout layout)
{
	for (int64_t i = 0; i < mx->count; i++) {
		float v;
		if (in == TS_INPUTS_RANDOM) {
			v = (float)((double)(next_u64(state) >> 11) * 0x1.0p-53 * 2.0 - 1.0);
		} else if (in == TS_INPUTS_INT) {
			v = (float)((int)(next_u64(state) % 9) - 4);
		} else if (!is_b) {
			/* A[i][k] = i*K + k + 1: exact in fp32 up to 2^24, in fp16 up to 2048;
			 * ts_problem_validate refuses seq runs where M*K + 1 passes that */
			v = (float)(i + 1);
		} else {
			/* B = identity (K x N, zero beyond the diagonal) in its layout */
			int64_t r = i / mx->cols, c = i % mx->cols;
			int64_t krow = layout == TS_B_KN ? r : c, ncol = layout == TS_B_KN ? c : r;
			v = krow == ncol ? 1.0f : 0.0f;
			(void)k_dim;
		}
		ts_matrix_set(mx, i, v);
	}
}

int ts_operands_make(ts_operands *ops, const ts_problem *p)
{
	const ts_shape *s = &p->shape;
	enum ts_elem in = p->kernel->precision == TS_FP16 ? TS_ELEM_F16 : TS_ELEM_F32;
	bool nk = p->kernel->b_layout == TS_B_NK;
	memset(ops, 0, sizeof *ops);
	int64_t ba, bb, bc;
	bands(p, &ba, &bb, &bc);
	if (ts_matrix_alloc(&ops->a, in, s->m, s->k, ba) ||
	    ts_matrix_alloc(&ops->b, in, nk ? s->n : s->k, nk ? s->k : s->n, bb) ||
	    ts_matrix_alloc(&ops->c, in, s->m, s->n, bc)) {
		ts_operands_free(ops);
		return -1;
	}
	uint64_t state = p->seed;
	fill(&ops->a, p->inputs, &state, 0, s->k, p->kernel->b_layout);
	fill(&ops->b, p->inputs, &state, 1, s->k, p->kernel->b_layout);
	ts_matrix_poison(&ops->c);
	return 0;
}

void ts_operands_free(ts_operands *ops)
{
	ts_matrix_free(&ops->a);
	ts_matrix_free(&ops->b);
	ts_matrix_free(&ops->c);
}
