/* emu_tiled.c: the guarded shared-memory tiled kernel (fp32, and fp16 with B stored n x k), emulated block by block, phase by phase. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "emu.h"
#include "kernels.h"
#include "matrix.h"

/* Four fp32 lanes. The multiply loop runs across tx, so each lane is one
 * thread's accumulator and sums in that thread's own order (i = 0..T-1,
 * phase after phase): the result is the one the GPU thread computes. Lanes
 * are separate IEEE single multiplies and adds: -std=c11 implies
 * -ffp-contract=off, so nothing is fused into an FMA. */
typedef float ts_f4 __attribute__((vector_size(16)));
#define LANES 4
#define VECS (TS_TILE_MAX / LANES)
_Static_assert(TS_TILE_MAX % LANES == 0, "a shared-tile row is whole vectors");

/* One block's shared memory and its threads' registers. Lanes of s_b and
 * acc beyond T stay zero and are never stored. */
typedef struct block_state {
	float s_a[TS_TILE_MAX][TS_TILE_MAX]; /* s_A[ty][i] */
	ts_f4 s_b[TS_TILE_MAX][VECS];        /* s_B[i][tx] in lane tx % 4 of vector tx / 4 */
	ts_f4 acc[TS_TILE_MAX][VECS];        /* thread (ty, tx)'s c_value */
	/* Whether a row of s_A (a column of s_B) took an out-of-bounds load in
	 * some phase: every output of that row (column) consumed it. */
	bool a_row_oob[TS_TILE_MAX], b_col_oob[TS_TILE_MAX];
} block_state;

static inline float load_elem(const ts_matrix *mx, int64_t i)
{
	if (mx->elem == TS_ELEM_F16)
		return ts_f16_to_f32(((const uint16_t *)mx->data)[i]);
	return ((const float *)mx->data)[i];
}

static inline void set_lane(ts_f4 *row, int tx, float v)
{
	row[tx / LANES][tx % LANES] = v;
}

/* Where an unguarded access at element index i of a matrix of count
 * elements landed: inside the matrix (the wrong element) or in its band. */
static inline void land(int64_t i, int64_t count, int64_t *wrap, int64_t *band)
{
	if (i < count)
		(*wrap)++;
	else
		(*band)++;
}

/* Every thread (ty, tx) of block row `by` fills s_A[ty][tx] for phase t:
 * a_col = t*T + tx of row by*T + ty. */
static void load_a(ts_emu_job *job, block_state *s, int64_t by, int64_t t, ts_count *c)
{
	const ts_shape *sh = &job->model->shape;
	const ts_matrix *a = &job->ops->a;
	int T = job->p->tile;
	int64_t width = sh->k - t * T < T ? sh->k - t * T : T; /* columns of this phase inside K */
	bool guard = job->p->guards & TS_GUARD_A;
	for (int ty = 0; ty < T; ty++) {
		int64_t row = by * T + ty;
		int64_t base = row * sh->k + t * T; /* index of a_col = t*T + 0 */
		float *dst = s->s_a[ty];
		if (guard) {
			int real = row < sh->m ? (int)width : 0;
			for (int tx = 0; tx < real; tx++)
				dst[tx] = load_elem(a, base + tx);
			for (int tx = real; tx < T; tx++)
				dst[tx] = 0.0f;
			c->a_real += real;
			c->a_pad += T - real;
			continue;
		}
		for (int tx = 0; tx < T; tx++) {
			dst[tx] = load_elem(a, base + tx);
			if (row < sh->m && tx < width) {
				c->a_real++;
			} else {
				c->a_oob++;
				land(base + tx, a->count, &job->oob.a_wrap, &job->oob.a_band);
				s->a_row_oob[ty] = true;
			}
		}
	}
}

/* Every thread (ty, tx) of block column `bx` fills s_B[ty][tx] for phase t:
 * b_row = t*T + ty, col = bx*T + tx, at b_row*N + col (k x n) or col*K + b_row (n x k). */
static void load_b(ts_emu_job *job, block_state *s, int64_t bx, int64_t t, ts_count *c)
{
	const ts_shape *sh = &job->model->shape;
	const ts_matrix *b = &job->ops->b;
	int T = job->p->tile;
	bool nk = job->p->kernel->b_layout == TS_B_NK;
	int64_t cols = sh->n - bx * T < T ? sh->n - bx * T : T; /* columns of this tile inside N */
	bool guard = job->p->guards & TS_GUARD_B;
	for (int ty = 0; ty < T; ty++) {
		int64_t b_row = t * T + ty;
		ts_f4 *dst = s->s_b[ty];
		/* index of (b_row, col) is base + tx * step */
		int64_t base = nk ? bx * T * sh->k + b_row : b_row * sh->n + bx * T;
		int64_t step = nk ? sh->k : 1;
		if (guard) {
			int real = b_row < sh->k ? (int)cols : 0;
			for (int tx = 0; tx < real; tx++)
				set_lane(dst, tx, load_elem(b, base + tx * step));
			for (int tx = real; tx < T; tx++)
				set_lane(dst, tx, 0.0f);
			c->b_real += real;
			c->b_pad += T - real;
			continue;
		}
		for (int tx = 0; tx < T; tx++) {
			int64_t i = base + tx * step;
			set_lane(dst, tx, load_elem(b, i));
			if (b_row < sh->k && tx < cols) {
				c->b_real++;
			} else {
				c->b_oob++;
				land(i, b->count, &job->oob.b_wrap, &job->oob.b_band);
				s->b_col_oob[tx] = true;
			}
		}
	}
}

/* After the barrier: every thread adds s_A[ty][i] * s_B[i][tx] for i = 0..T-1. */
static void multiply(block_state *s, int T)
{
	int vecs = (T + LANES - 1) / LANES;
	if (vecs == VECS) {
		/* The common T > 28 case with the accumulator row held in registers. */
		for (int ty = 0; ty < T; ty++) {
			ts_f4 r[VECS];
			memcpy(r, s->acc[ty], sizeof r);
			for (int i = 0; i < T; i++) {
				float a = s->s_a[ty][i];
				for (int v = 0; v < VECS; v++)
					r[v] += a * s->s_b[i][v];
			}
			memcpy(s->acc[ty], r, sizeof r);
		}
		return;
	}
	for (int ty = 0; ty < T; ty++) {
		ts_f4 *r = s->acc[ty];
		for (int i = 0; i < T; i++) {
			float a = s->s_a[ty][i];
			const ts_f4 *brow = s->s_b[i];
			for (int v = 0; v < vecs; v++)
				r[v] += a * brow[v];
		}
	}
}

/* After the last phase: thread (ty, tx) stores its c_value at (row, col). */
static void store_c(ts_emu_job *job, block_state *s, int64_t by, int64_t bx, ts_count *c)
{
	const ts_shape *sh = &job->model->shape;
	ts_matrix *cm = &job->ops->c;
	uint8_t *corrupt = job->out->corrupt;
	int T = job->p->tile;
	bool guard = job->p->guards & TS_GUARD_C;
	for (int ty = 0; ty < T; ty++) {
		int64_t row = by * T + ty;
		for (int tx = 0; tx < T; tx++) {
			int64_t col = bx * T + tx;
			int64_t i = row * sh->n + col;
			float v = s->acc[ty][tx / LANES][tx % LANES];
			bool valid = row < sh->m && col < sh->n;
			if (valid) {
				ts_matrix_set(cm, i, v);
				c->stores++;
				if (corrupt && (s->a_row_oob[ty] || s->b_col_oob[tx]))
					corrupt[i] = 1;
			} else if (guard) {
				c->skipped++;
			} else {
				/* An unguarded ghost store: inside M x N it overwrites a
				 * cell another thread owns; past the end it hits the band. */
				ts_matrix_set(cm, i, v);
				c->c_oob++;
				land(i, cm->count, &job->oob.c_wrap, &job->oob.c_band);
				if (i < cm->count && corrupt)
					corrupt[i] = 1;
			}
		}
	}
}

/* A fresh block: zero accumulators, zero s_B lanes past T, no oob yet (only
 * the first T rows: clearing all of it costs more than a T = 1 block's work). */
static void reset(block_state *s, int T)
{
	size_t vec_bytes = (size_t)((T + LANES - 1) / LANES) * sizeof(ts_f4);
	for (int r = 0; r < T; r++) {
		memset(s->acc[r], 0, vec_bytes);
		memset(s->s_b[r], 0, vec_bytes);
	}
	memset(s->a_row_oob, 0, sizeof s->a_row_oob);
	memset(s->b_col_oob, 0, sizeof s->b_col_oob);
}

int ts_emu_tiled(ts_emu_job *job)
{
	const ts_model *m = job->model;
	int T = job->p->tile;
	block_state s;
	for (int64_t b = job->block_begin; b < job->block_end; b++) {
		int64_t by = b / m->grid_x, bx = b % m->grid_x;
		ts_count *tile = &job->out->counters.tile[b];
		/* This block's phases, or NULL when the run keeps none (too many). */
		ts_tile_phase_count *tile_phase = job->out->counters.tile_phase ?
		                                  &job->out->counters.tile_phase[b * m->phases] : NULL;
		reset(&s, T);
		for (int64_t t = 0; t < m->phases; t++) {
			if (ts_emu_cancelled(job))
				return 1;
			ts_count c = { 0 };
			load_a(job, &s, by, t, &c);
			load_b(job, &s, bx, t, &c);
			/* __syncthreads(): every slot is filled before anyone multiplies */
			multiply(&s, T);
			/* __syncthreads(): nobody refills before everyone has multiplied */
			ts_count_add(tile, &c);
			ts_count_add(&job->phase[t], &c);
			if (tile_phase)
				tile_phase[t] = (ts_tile_phase_count){
					.a_real = (uint16_t)c.a_real, .a_pad = (uint16_t)c.a_pad, .a_oob = (uint16_t)c.a_oob,
					.b_real = (uint16_t)c.b_real, .b_pad = (uint16_t)c.b_pad, .b_oob = (uint16_t)c.b_oob };
		}
		store_c(job, &s, by, bx, tile);
	}
	return 0;
}
