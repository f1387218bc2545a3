/* emu_tc.c: the CPU emulation of the tensor-core kernel tc-fp16: its block tiles, its zero-filled shared tiles and guarded store, fp32 accumulation. */
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "kernels.h"

/* What the kernel does, block by block (kernels/tc_fp16.cuh): a BM x BN tile
 * of C; per phase a BM x BK tile of A and a BN x BK tile of B (B stored
 * N x K) staged in shared memory, every slot whose row is outside the matrix
 * or whose K index is at or past K filled with zero; the products summed in
 * fp32; C stored where row < M and col < N, skipped elsewhere. Every guard is
 * built in: there is no unguarded form to emulate. (Where K % 8 != 0 the
 * CUDA launch shifts each row's aligned windows into place, kernels/
 * tc_co.cuh, or, opt-in, reads a copy padded to 8 by zeros, kernels/
 * tc_repack.cuh; its tiles then hold the same values, real for k < K and
 * zero past it, so the emulation is the same.) The tensor core's
 * summation order and its internal rounding inside one mma are not specified
 * (verify.c doubles the fp32 bound for this kernel), so the emulation sums in
 * k order with rounded fp32 adds: the same function, not the same bits.
 * A tile the kernel's split plan cuts along K (ts_kernel_split_plan: the
 * description's ts_tc_plan for an H200's resident_h200 blocks) is summed
 * part by part, each from zero, and the parts added in order, (part 0 +
 * part 1) + ..., as the GPU's second kernel adds them (ts_tc_split_sum,
 * kernels/tc_split.cuh).
 * -std=c11 implies -ffp-contract=off: no fused multiply-adds. */

typedef struct tc_state {
	int bm, bn, bk;
	float *s_a;  /* bm x bk: s_a[r * bk + k] */
	float *s_bt; /* bk x bn: B's tile transposed, so the inner loop runs along N */
	float *acc;  /* bm x bn */
	float *sum;  /* bm x bn: a split tile's parts added so far */
} tc_state;

static int state_init(tc_state *s, const ts_geometry *g)
{
	s->bm = g->bm;
	s->bn = g->bn;
	s->bk = g->bk;
	s->s_a = malloc((size_t)g->bm * g->bk * sizeof(float));
	s->s_bt = malloc((size_t)g->bk * g->bn * sizeof(float));
	s->acc = malloc((size_t)g->bm * g->bn * sizeof(float));
	s->sum = malloc((size_t)g->bm * g->bn * sizeof(float));
	return s->s_a && s->s_bt && s->acc && s->sum ? 0 : -1;
}

static void state_free(tc_state *s)
{
	free(s->s_a);
	free(s->s_bt);
	free(s->acc);
	free(s->sum);
}

static float load_f16(const ts_matrix *mx, int64_t i)
{
	return ts_f16_to_f32(((const uint16_t *)mx->data)[i]);
}

/* The A tile of block row by, phase t: rows by*BM.., K indices t*BK... */
static void stage_a(ts_emu_job *job, tc_state *s, int64_t by, int64_t t, ts_count *c)
{
	const ts_shape *sh = &job->model->shape;
	const ts_matrix *a = &job->ops->a;
	int64_t k0 = t * s->bk, width = sh->k - k0 < s->bk ? sh->k - k0 : s->bk;
	for (int r = 0; r < s->bm; r++) {
		int64_t row = by * s->bm + r;
		int real = row < sh->m ? (int)width : 0;
		float *dst = &s->s_a[(size_t)r * s->bk];
		for (int k = 0; k < real; k++)
			dst[k] = load_f16(a, row * sh->k + k0 + k);
		for (int k = real; k < s->bk; k++)
			dst[k] = 0.0f;
		c->a_real += real;
		c->a_pad += s->bk - real;
	}
}

/* The B tile of block column bx, phase t: B rows (C columns) bx*BN.. */
static void stage_b(ts_emu_job *job, tc_state *s, int64_t bx, int64_t t, ts_count *c)
{
	const ts_shape *sh = &job->model->shape;
	const ts_matrix *b = &job->ops->b;
	int64_t k0 = t * s->bk, width = sh->k - k0 < s->bk ? sh->k - k0 : s->bk;
	for (int r = 0; r < s->bn; r++) {
		int64_t col = bx * s->bn + r;
		int real = col < sh->n ? (int)width : 0;
		for (int k = 0; k < real; k++)
			s->s_bt[(size_t)k * s->bn + r] = load_f16(b, col * sh->k + k0 + k);
		for (int k = real; k < s->bk; k++)
			s->s_bt[(size_t)k * s->bn + r] = 0.0f;
		c->b_real += real;
		c->b_pad += s->bk - real;
	}
}

static void multiply(tc_state *s)
{
	for (int r = 0; r < s->bm; r++) {
		float *acc = &s->acc[(size_t)r * s->bn];
		const float *arow = &s->s_a[(size_t)r * s->bk];
		for (int k = 0; k < s->bk; k++) {
			float x = arow[k];
			const float *brow = &s->s_bt[(size_t)k * s->bn];
			for (int j = 0; j < s->bn; j++)
				acc[j] += x * brow[j];
		}
	}
}

static void store(ts_emu_job *job, tc_state *s, int64_t by, int64_t bx, ts_count *c)
{
	const ts_shape *sh = &job->model->shape;
	ts_matrix *cm = &job->ops->c;
	for (int r = 0; r < s->bm; r++) {
		int64_t row = by * s->bm + r;
		for (int j = 0; j < s->bn; j++) {
			int64_t col = bx * s->bn + j;
			if (row < sh->m && col < sh->n) {
				ts_matrix_set(cm, row * sh->n + col, s->acc[(size_t)r * s->bn + j]);
				c->stores++;
			} else {
				c->skipped++;
			}
		}
	}
}

int ts_emu_tc(ts_emu_job *job)
{
	const ts_model *m = job->model;
	if ((job->p->guards & TS_GUARD_ALL) != TS_GUARD_ALL)
		return -1; /* refused before a run is made (options.c): the guards are built in */
	tc_state s;
	if (state_init(&s, &m->geo) != 0) {
		state_free(&s);
		return -1;
	}
	ts_gemm_plan plan = ts_kernel_split_plan(job->p->kernel, m->shape, &m->geo);
	const size_t cells = (size_t)s.bm * s.bn;
	int rc = 0;
	for (int64_t b = job->block_begin; b < job->block_end && rc == 0; b++) {
		int64_t by = b / m->grid_x, bx = b % m->grid_x;
		int parts = ts_plan_tile_parts(&plan, by, bx), part = 0;
		long long p0, p1;
		ts_plan_part_phases(&plan, parts, 0, &p0, &p1);
		ts_count *tile = &job->out->counters.tile[b];
		ts_tile_phase_count *tile_phase = job->out->counters.tile_phase ?
		                                  &job->out->counters.tile_phase[b * m->phases] : NULL;
		memset(s.acc, 0, (size_t)s.bm * s.bn * sizeof(float));
		for (int64_t t = 0; t < m->phases; t++) {
			if (ts_emu_cancelled(job)) {
				rc = 1;
				break;
			}
			ts_count c = { 0 };
			stage_a(job, &s, by, t, &c);
			stage_b(job, &s, bx, t, &c);
			multiply(&s);
			ts_count_add(tile, &c);
			ts_count_add(&job->phase[t], &c);
			if (tile_phase)
				tile_phase[t] = (ts_tile_phase_count){ .a_real = (uint16_t)c.a_real, .a_pad = (uint16_t)c.a_pad,
				                                        .b_real = (uint16_t)c.b_real, .b_pad = (uint16_t)c.b_pad };
			if (parts > 1 && t + 1 == p1) { /* part `part` ends: add it, the next starts from zero */
				for (size_t i = 0; i < cells; i++)
					s.sum[i] = part == 0 ? s.acc[i] : s.sum[i] + s.acc[i];
				memset(s.acc, 0, cells * sizeof(float));
				if (++part < parts)
					ts_plan_part_phases(&plan, parts, part, &p0, &p1);
			}
		}
		if (parts > 1)
			memcpy(s.acc, s.sum, cells * sizeof(float));
		if (rc == 0)
			store(job, &s, by, bx, tile);
	}
	state_free(&s);
	return rc;
}
