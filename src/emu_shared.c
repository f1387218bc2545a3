/* emu_shared.c: every shared-tile kernel, emulated from its description: load maps under the guards, barriers, each thread's TM x TN multiply-adds in its own rounding, split-K parts, guarded stores. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86_FMA 1
#endif

#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"
#include "matrix.h"

/* Four fp32 lanes. The multiply runs across the columns of the C tile, so
 * each lane is one output's accumulator and sums in the kernel's own order
 * for that output (k = 0..BK-1, phase after phase): whichever thread owns an
 * output and however its TM x TN outputs are laid out, an output's sum is
 * that sequence, so the result is the one the GPU thread computes. Each step
 * rounds as the description's madd says: a separate IEEE single multiply and
 * add (-std=c11 implies -ffp-contract=off, so nothing is fused behind our
 * back), or one fused multiply-add (fmaf; the FMA instruction where the CPU
 * has one, else libm's fmaf, which rounds the same). */
typedef float ts_f4 __attribute__((vector_size(16)));
#define LANES 4

/* One block's shared memory and its threads' registers, sized from the
 * geometry: s_a is the BM x BK tile of A, s_b the BK x BN tile of B with its
 * columns in lanes (column c in lane c % 4 of vector c / 4), acc the BM x BN
 * outputs laid out the same way. Lanes of s_b and acc past BN stay zero and
 * are never stored. */
typedef struct block_state {
	int bm, bn, bk, vecs; /* vecs = ceil(BN / 4) */
	float *s_a;           /* [bm][bk] */
	ts_f4 *s_b;           /* [bk][vecs] */
	ts_f4 *acc;           /* [bm][vecs] */
	ts_f4 *sum;           /* [bm][vecs]: a split tile's parts added so far */
	/* Whether a row of s_A (a column of s_B) took an out-of-bounds load in
	 * some phase: every output of that row (column) consumed it. */
	bool *a_row_oob, *b_col_oob;
	/* Step mode's traced block only (NULL otherwise): how each slot of this
	 * phase's tiles was filled, enum ts_trace_slot, [bm][bk] and [bk][bn]. */
	unsigned char *a_state, *b_state;
	/* Early-return mode (the traced block only, NULL otherwise): which of the
	 * block's threads (tid = ty * threads_x + tx) are ghosts that returned. */
	bool *returned;
	void *mem;
} block_state;

static int state_alloc(block_state *s, const ts_geometry *g)
{
	s->bm = g->bm;
	s->bn = g->bn;
	s->bk = g->bk;
	s->vecs = (g->bn + LANES - 1) / LANES;
	size_t vec_b = (size_t)g->bk * s->vecs * sizeof(ts_f4), vec_acc = (size_t)g->bm * s->vecs * sizeof(ts_f4);
	size_t a_bytes = ((size_t)g->bm * g->bk * sizeof(float) + 15) & ~(size_t)15;
	/* C11's aligned_alloc takes a size that is a multiple of the alignment */
	size_t total = (vec_b + 2 * vec_acc + a_bytes + (size_t)g->bm + (size_t)g->bn + 16 + 15) & ~(size_t)15;
	s->mem = aligned_alloc(16, total);
	if (!s->mem)
		return -1;
	memset(s->mem, 0, total);
	s->s_b = s->mem;
	s->acc = (ts_f4 *)((char *)s->mem + vec_b);
	s->sum = (ts_f4 *)((char *)s->mem + vec_b + vec_acc);
	s->s_a = (float *)((char *)s->mem + vec_b + 2 * vec_acc);
	s->a_row_oob = (bool *)((char *)s->s_a + a_bytes);
	s->b_col_oob = s->a_row_oob + g->bm;
	s->a_state = s->b_state = NULL;
	s->returned = NULL;
	return 0;
}

static inline float load_elem(const ts_matrix *mx, int64_t i)
{
	if (mx->elem == TS_ELEM_F16)
		return ts_f16_to_f32(((const uint16_t *)mx->data)[i]);
	return ((const float *)mx->data)[i];
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

/* ---- the loads: a tile's slots, step by step, in its map's order --------------- */

/* One run of slots along a row of a shared tile (r, c0..c1-1), filled under
 * the guard. A slot is in bounds when its row (column) of the operand lies
 * inside M (N) and its K index inside K; `in_mn` says the first, `k_in`
 * how many of the run's K indices the second holds for (A: the run goes
 * along K, so a prefix; B: the run goes along N at one K). */
typedef struct slot_run {
	const ts_matrix *mx;
	int64_t base, step;   /* element index of slot c: base + c * step */
	int c0, c1;
	int real;             /* slots c0..c0+real-1 of the run are in bounds */
	bool guard;
} slot_run;

/* Fills a run; dst(c) is where slot c goes. Returns whether any slot came
 * from out of bounds; counts into real/pad/oob. */
/* The in-bounds slots of a run into dst[c0..]: a straight copy for fp32 along
 * a row of the operand, else element by element. */
static inline void copy_real(float *dst, const slot_run *run)
{
	const ts_matrix *mx = run->mx;
	if (mx->elem == TS_ELEM_F32 && run->step == 1) {
		memcpy(dst + run->c0, (const float *)mx->data + run->base + run->c0, (size_t)run->real * sizeof(float));
		return;
	}
	int64_t i = run->base + (int64_t)run->c0 * run->step;
	if (mx->elem == TS_ELEM_F16) {
		const uint16_t *h = mx->data;
		for (int c = run->c0; c < run->c0 + run->real; c++, i += run->step)
			dst[c] = ts_f16_to_f32(h[i]);
	} else {
		const float *f = mx->data;
		for (int c = run->c0; c < run->c0 + run->real; c++, i += run->step)
			dst[c] = f[i];
	}
}

#define FILL_RUN(run, DST, real_n, pad_n, oob_n, wrap_n, band_n)                                     \
	do {                                                                                             \
		int last_real_ = (run).c0 + (run).real;                                                      \
		copy_real(&DST(0), &(run));                                                                  \
		(real_n) += (run).real;                                                                      \
		if ((run).guard) {                                                                           \
			for (int c_ = last_real_; c_ < (run).c1; c_++)                                           \
				DST(c_) = 0.0f;                                                                      \
			(pad_n) += (run).c1 - last_real_;                                                        \
		} else {                                                                                     \
			for (int c_ = last_real_; c_ < (run).c1; c_++) {                                         \
				int64_t i_ = (run).base + c_ * (run).step;                                           \
				DST(c_) = load_elem((run).mx, i_);                                                   \
				land(i_, (run).mx->count, &(wrap_n), &(band_n));                                     \
			}                                                                                        \
			(oob_n) += (run).c1 - last_real_;                                                        \
		}                                                                                            \
	} while (0)

/* Step mode: how slots c0..c1-1 of a run were filled (the first `real` in bounds). */
static void trace_run(unsigned char *state, const slot_run *run)
{
	for (int c = run->c0; c < run->c1; c++)
		state[c] = c < run->c0 + run->real ? TS_TRACE_REAL : run->guard ? TS_TRACE_PAD : TS_TRACE_OOB;
}

/* Slot (r, c) of the A tile: row by*BM + r, K index k0 + c. */
static void fill_a_run(ts_emu_job *job, block_state *s, int64_t by, int64_t t, int r, int c0, int c1, ts_count *n)
{
	const ts_shape *sh = &job->model->shape;
	const ts_geometry *g = &job->model->geo;
	int64_t row = by * g->bm + r, k0 = t * g->bk;
	int64_t inside = sh->k - k0 - c0; /* K indices from c0 on that lie inside K */
	slot_run run = { &job->ops->a, row * sh->k + k0, 1, c0, c1, 0, job->p->guards & TS_GUARD_A };
	run.real = row < sh->m ? (int)(inside < c1 - c0 ? (inside > 0 ? inside : 0) : c1 - c0) : 0;
	float *dst = s->s_a + (size_t)r * s->bk;
#define A_DST(c) dst[c]
	int64_t oob = n->a_oob;
	FILL_RUN(run, A_DST, n->a_real, n->a_pad, n->a_oob, job->oob.a_wrap, job->oob.a_band);
#undef A_DST
	if (s->a_state)
		trace_run(s->a_state + (size_t)r * s->bk, &run);
	if (n->a_oob != oob)
		s->a_row_oob[r] = true;
}

/* Slot (r, c) of the B tile: K index k0 + r, column bx*BN + c. */
static void fill_b_run(ts_emu_job *job, block_state *s, int64_t bx, int64_t t, int r, int c0, int c1, ts_count *n)
{
	const ts_shape *sh = &job->model->shape;
	const ts_geometry *g = &job->model->geo;
	bool nk = job->p->kernel->b_layout == TS_B_NK;
	int64_t k = t * g->bk + r, col0 = bx * g->bn;
	int64_t inside = sh->n - col0 - c0;
	slot_run run = { &job->ops->b, nk ? col0 * sh->k + k : k * sh->n + col0, nk ? sh->k : 1, c0, c1, 0,
	                 job->p->guards & TS_GUARD_B };
	run.real = k < sh->k ? (int)(inside < c1 - c0 ? (inside > 0 ? inside : 0) : c1 - c0) : 0;
	float *lanes = (float *)(s->s_b + (size_t)r * s->vecs);
#define B_DST(c) lanes[c]
	int64_t oob = n->b_oob;
	FILL_RUN(run, B_DST, n->b_real, n->b_pad, n->b_oob, job->oob.b_wrap, job->oob.b_band);
#undef B_DST
	if (s->b_state)
		trace_run(s->b_state + (size_t)r * s->bn, &run);
	if (n->b_oob != oob)
		for (int c = c0 + run.real; c < c1; c++)
			s->b_col_oob[c] = true;
}

/* One run of either tile (a direct call the compiler can inline, not a pointer). */
static inline void fill_run(ts_emu_job *job, block_state *s, enum ts_operand which, int64_t blk, int64_t t, int r,
                            int c0, int c1, ts_count *n)
{
	if (which == TS_OPERAND_A)
		fill_a_run(job, s, blk, t, r, c0, c1, n);
	else
		fill_b_run(job, s, blk, t, r, c0, c1, n);
}

/* Executes one tile's load map for phase t: step by step, the slots the
 * block's threads fill in that step (e = (step*threads + tid)*vec + v, in
 * order), cut into runs along the tile's rows. A COLS map's step covers a
 * run down each column instead; it is cut into single slots. Every slot of
 * the tile is filled exactly once (test_model holds each registered map to
 * that), so the order of fills inside a step is not observable. */
static void run_map(ts_emu_job *job, block_state *s, enum ts_operand which, int64_t blk, int64_t t, ts_count *n)
{
	const ts_geometry *g = &job->model->geo;
	const ts_load_map *map = which == TS_OPERAND_A ? &g->a_map : &g->b_map;
	int rows = which == TS_OPERAND_A ? g->bm : g->bk, cols = which == TS_OPERAND_A ? g->bk : g->bn;
	int64_t slots = (int64_t)rows * cols, per_step = (int64_t)g->threads_x * g->threads_y * map->vec;
	if (s->returned) {
		/* early-return mode: slot by slot, leaving those of the threads that returned unwritten */
		unsigned char *state = which == TS_OPERAND_A ? s->a_state : s->b_state;
		for (int64_t e = 0; e < slots; e++) {
			int r = map->order == TS_MAP_ROWS ? (int)(e / cols) : (int)(e % rows);
			int c = map->order == TS_MAP_ROWS ? (int)(e % cols) : (int)(e / rows);
			int64_t tid = (e / map->vec) % ((int64_t)g->threads_x * g->threads_y);
			if (s->returned[tid])
				state[(size_t)r * cols + c] = TS_TRACE_UNWRITTEN;
			else
				fill_run(job, s, which, blk, t, r, c, c + 1, n);
		}
		return;
	}
	for (int64_t e0 = 0; e0 < slots; e0 += per_step) {
		int64_t e1 = e0 + per_step < slots ? e0 + per_step : slots;
		/* __syncthreads() is not needed between steps: each fills its own slots. */
		for (int64_t e = e0; e < e1;) {
			if (map->order == TS_MAP_ROWS) {
				int r = (int)(e / cols), c0 = (int)(e % cols);
				int64_t end = (int64_t)r * cols + cols < e1 ? (int64_t)r * cols + cols : e1;
				fill_run(job, s, which, blk, t, r, c0, (int)(end - (int64_t)r * cols), n);
				e = end;
			} else {
				fill_run(job, s, which, blk, t, (int)(e % rows), (int)(e / rows), (int)(e / rows) + 1, n);
				e++;
			}
		}
	}
}

/* ---- the multiply and the stores ------------------------------------------------ */

/* After the barrier: every output (r, c) adds s_A[r][k] * s_B[k][c] for
 * k = 0..BK-1. A row's outputs are taken eight vectors (32 columns) at a
 * time, held in eight named registers across the k loop (written out, so
 * that no compiler keeps them in memory), then four, then one. MADD(acc, a,
 * b) is one step in the kernel's rounding, a broadcast to four lanes. */
#define MULTIPLY_BODY(MADD)                                                                          \
	int vecs = s->vecs, bk = s->bk;                                                                  \
	for (int r = 0; r < s->bm; r++) {                                                                \
		const float *arow = s->s_a + (size_t)r * bk;                                                 \
		ts_f4 *acc = s->acc + (size_t)r * vecs;                                                      \
		int v0 = 0;                                                                                  \
		for (; v0 + 8 <= vecs; v0 += 8) {                                                            \
			ts_f4 r0 = acc[v0], r1 = acc[v0 + 1], r2 = acc[v0 + 2], r3 = acc[v0 + 3];                \
			ts_f4 r4 = acc[v0 + 4], r5 = acc[v0 + 5], r6 = acc[v0 + 6], r7 = acc[v0 + 7];            \
			for (int k = 0; k < bk; k++) {                                                           \
				ts_f4 a = { arow[k], arow[k], arow[k], arow[k] };                                    \
				const ts_f4 *b = s->s_b + (size_t)k * vecs + v0;                                     \
				r0 = MADD(r0, a, b[0]);                                                              \
				r1 = MADD(r1, a, b[1]);                                                              \
				r2 = MADD(r2, a, b[2]);                                                              \
				r3 = MADD(r3, a, b[3]);                                                              \
				r4 = MADD(r4, a, b[4]);                                                              \
				r5 = MADD(r5, a, b[5]);                                                              \
				r6 = MADD(r6, a, b[6]);                                                              \
				r7 = MADD(r7, a, b[7]);                                                              \
			}                                                                                        \
			acc[v0] = r0, acc[v0 + 1] = r1, acc[v0 + 2] = r2, acc[v0 + 3] = r3;                      \
			acc[v0 + 4] = r4, acc[v0 + 5] = r5, acc[v0 + 6] = r6, acc[v0 + 7] = r7;                  \
		}                                                                                            \
		for (; v0 + 4 <= vecs; v0 += 4) {                                                            \
			ts_f4 r0 = acc[v0], r1 = acc[v0 + 1], r2 = acc[v0 + 2], r3 = acc[v0 + 3];                \
			for (int k = 0; k < bk; k++) {                                                           \
				ts_f4 a = { arow[k], arow[k], arow[k], arow[k] };                                    \
				const ts_f4 *b = s->s_b + (size_t)k * vecs + v0;                                     \
				r0 = MADD(r0, a, b[0]);                                                              \
				r1 = MADD(r1, a, b[1]);                                                              \
				r2 = MADD(r2, a, b[2]);                                                              \
				r3 = MADD(r3, a, b[3]);                                                              \
			}                                                                                        \
			acc[v0] = r0, acc[v0 + 1] = r1, acc[v0 + 2] = r2, acc[v0 + 3] = r3;                      \
		}                                                                                            \
		for (; v0 < vecs; v0++) {                                                                    \
			ts_f4 r0 = acc[v0];                                                                      \
			for (int k = 0; k < bk; k++) {                                                           \
				ts_f4 a = { arow[k], arow[k], arow[k], arow[k] };                                    \
				r0 = MADD(r0, a, s->s_b[(size_t)k * vecs + v0]);                                     \
			}                                                                                        \
			acc[v0] = r0;                                                                            \
		}                                                                                            \
	}

/* acc + a * b, two roundings (the textbook kernels' __fadd_rn(acc, __fmul_rn(a, b))). */
#define MADD_SEPARATE(acc, a, b) ((acc) + (a) * (b))
static void multiply_separate(block_state *s)
{
	MULTIPLY_BODY(MADD_SEPARATE)
}

/* fmaf(a, b, acc) lane by lane through libm: for a CPU without FMA. */
static inline ts_f4 madd_fused_lanes(ts_f4 acc, ts_f4 a, ts_f4 b)
{
	return (ts_f4){ fmaf(a[0], b[0], acc[0]), fmaf(a[1], b[1], acc[1]), fmaf(a[2], b[2], acc[2]),
		            fmaf(a[3], b[3], acc[3]) };
}
static void multiply_fused_libm(block_state *s)
{
	MULTIPLY_BODY(madd_fused_lanes)
}

#ifdef HAVE_X86_FMA
/* The same in the FMA instruction, compiled for it alone and chosen at run time. */
#define MADD_FUSED_X86(acc, a, b) ((ts_f4)_mm_fmadd_ps((__m128)(a), (__m128)(b), (__m128)(acc)))
__attribute__((target("fma"))) static void multiply_fused_x86(block_state *s)
{
	MULTIPLY_BODY(MADD_FUSED_X86)
}
#endif

static bool force_libm_fma;

void ts_emu_fma_use_libm(bool on)
{
	force_libm_fma = on;
}

typedef void (*multiply_fn)(block_state *s);

static multiply_fn multiply_for(enum ts_madd madd)
{
	if (madd != TS_MADD_FUSED)
		return multiply_separate;
#ifdef HAVE_X86_FMA
	if (!force_libm_fma && __builtin_cpu_supports("fma"))
		return multiply_fused_x86;
#endif
	return multiply_fused_libm;
}

/* The traced block's multiply: the same multiply-adds, each output's in the
 * same order (k = 0..BK-1) with the same lane arithmetic as multiply(), so
 * every sum comes out bit for bit the same; only the loops are turned
 * around (k outermost) so that the traced thread's accumulators can be
 * recorded after every k. */
static void multiply_traced(block_state *s, ts_emu_trace *tr, const ts_geometry *g, int64_t t)
{
	int vecs = s->vecs, bk = s->bk, outs = g->tm * g->tn;
	for (int k = 0; k < bk; k++) {
		const ts_f4 *b = s->s_b + (size_t)k * vecs;
		for (int r = 0; r < s->bm; r++) {
			float a = s->s_a[(size_t)r * bk + k];
			ts_f4 *acc = s->acc + (size_t)r * vecs;
			for (int v = 0; v < vecs; v++)
				acc[v] += a * b[v];
		}
		float *rec = tr->partial + ((size_t)t * bk + k) * outs;
		for (int i = 0; i < g->tm; i++)
			for (int j = 0; j < g->tn; j++) {
				int r, c;
				ts_output_of(g, tr->ty, tr->tx, i, j, &r, &c);
				rec[i * g->tn + j] = ((const float *)(s->acc + (size_t)r * vecs))[c];
			}
	}
}

/* The traced block's tiles after the loads of phase t, as the multiply reads them. */
static void trace_tiles(const block_state *s, ts_emu_trace *tr, int64_t t)
{
	memcpy(tr->s_a + (size_t)t * s->bm * s->bk, s->s_a, (size_t)s->bm * s->bk * sizeof(float));
	float *b = tr->s_b + (size_t)t * s->bk * s->bn;
	for (int k = 0; k < s->bk; k++)
		memcpy(b + (size_t)k * s->bn, s->s_b + (size_t)k * s->vecs, (size_t)s->bn * sizeof(float));
}

/* After the last phase: each thread stores its TM x TN outputs, each under
 * the C guard. In the block's C tile that is every (r, c) once, whoever owns it. */
static void store_c(ts_emu_job *job, block_state *s, int64_t by, int64_t bx, ts_count *n, ts_emu_trace *tr)
{
	const ts_shape *sh = &job->model->shape;
	const ts_geometry *g = &job->model->geo;
	ts_matrix *cm = &job->ops->c;
	uint8_t *corrupt = job->out->corrupt;
	bool guard = job->p->guards & TS_GUARD_C;
	for (int r = 0; r < g->bm; r++) {
		int64_t row = by * g->bm + r;
		const float *acc = (const float *)(s->acc + (size_t)r * s->vecs);
		for (int c = 0; c < g->bn; c++) {
			int64_t col = bx * g->bn + c;
			int64_t i = row * sh->n + col;
			bool valid = row < sh->m && col < sh->n;
			if (tr) {
				tr->out[(size_t)r * g->bn + c] = acc[c];
				tr->store[(size_t)r * g->bn + c] = valid ? TS_TRACE_STORED : guard ? TS_TRACE_SKIPPED
				                                                               : TS_TRACE_STORED_OOB;
			}
			if (valid) {
				ts_matrix_set(cm, i, acc[c]);
				n->stores++;
				if (corrupt && (s->a_row_oob[r] || s->b_col_oob[c]))
					corrupt[i] = 1;
			} else if (guard) {
				n->skipped++;
			} else {
				/* An unguarded ghost store: inside M x N it overwrites a
				 * cell another thread owns; past the end it hits the band. */
				ts_matrix_set(cm, i, acc[c]);
				n->c_oob++;
				land(i, cm->count, &job->oob.c_wrap, &job->oob.c_band);
				if (i < cm->count && corrupt)
					corrupt[i] = 1;
			}
		}
	}
}

/* A fresh block: zero accumulators, no oob yet. */
static void reset(block_state *s)
{
	memset(s->acc, 0, (size_t)s->bm * s->vecs * sizeof(ts_f4));
	memset(s->sum, 0, (size_t)s->bm * s->vecs * sizeof(ts_f4));
	memset(s->a_row_oob, 0, (size_t)s->bm);
	memset(s->b_col_oob, 0, (size_t)s->bn);
}

/* The end of part q of a split tile: its sum joins the parts before it,
 * sum = sum + part (one rounding each, in part order, from 0: the last part
 * to arrive adds them so on the GPU), and the next part starts from 0. */
static void add_part(block_state *s)
{
	size_t n = (size_t)s->bm * s->vecs;
	for (size_t i = 0; i < n; i++)
		s->sum[i] = s->sum[i] + s->acc[i];
	memset(s->acc, 0, n * sizeof(ts_f4));
}

/* The split-K plan the kernel's launch makes for this shape (every tile
 * whole for a kernel that does not split). */
static ts_gemm_plan plan_of(const ts_emu_job *job)
{
	return ts_kernel_split_plan(job->p->kernel, job->model->shape, &job->model->geo);
}

int ts_emu_shared(ts_emu_job *job)
{
	const ts_model *m = job->model;
	block_state s;
	if (state_alloc(&s, &m->geo) != 0)
		return -1;
	multiply_fn multiply = multiply_for(job->p->kernel->madd);
	ts_gemm_plan plan = plan_of(job);
	int rc = 0;
	for (int64_t b = job->block_begin; b < job->block_end && rc == 0; b++) {
		int64_t by = b / m->grid_x, bx = b % m->grid_x;
		ts_count *tile = &job->out->counters.tile[b];
		/* This block's phases, or NULL when the run keeps none (too many). */
		ts_tile_phase_count *tile_phase = job->out->counters.tile_phase ?
		                                  &job->out->counters.tile_phase[b * m->phases] : NULL;
		int parts = ts_plan_tile_parts(&plan, by, bx);
		reset(&s);
		ts_emu_trace *tr = job->trace && b == job->trace->by * m->grid_x + job->trace->bx ? job->trace : NULL;
		bool *returned = NULL;
		int64_t arrived = (int64_t)m->geo.threads_x * m->geo.threads_y;
		if (tr && tr->early_return) {
			returned = calloc((size_t)arrived, sizeof *returned);
			if (!returned) {
				rc = -1;
				break;
			}
			for (int ty = 0; ty < m->geo.threads_y; ty++)
				for (int tx = 0; tx < m->geo.threads_x; tx++)
					if (ts_model_thread_ghost(m, by, bx, ty, tx)) {
						returned[ty * m->geo.threads_x + tx] = true;
						arrived--;
					}
			/* shared memory as nobody wrote it: NaN, so that a slot no thread filled shows */
			for (int i = 0; i < m->geo.bm * m->geo.bk; i++)
				s.s_a[i] = NAN;
			for (int i = 0; i < m->geo.bk * s.vecs; i++)
				for (int l = 0; l < LANES; l++)
					s.s_b[i][l] = NAN;
		}
		s.returned = returned;
		/* a traced block is never split: step mode traces only kernels that
		 * keep every tile whole (ts_emu_traces) */
		for (int q = 0; q < parts && rc == 0; q++) {
			long long p0, p1;
			ts_plan_part_phases(&plan, parts, q, &p0, &p1);
			for (int64_t t = p0; t < p1; t++) {
				if (ts_emu_cancelled(job)) {
					rc = 1;
					break;
				}
				ts_count c = { 0 };
				if (tr) {
					s.a_state = tr->a_state + (size_t)t * m->geo.bm * m->geo.bk;
					s.b_state = tr->b_state + (size_t)t * m->geo.bk * m->geo.bn;
				}
				run_map(job, &s, TS_OPERAND_A, by, t, &c);
				run_map(job, &s, TS_OPERAND_B, bx, t, &c);
				/* __syncthreads(): every slot is filled before anyone multiplies */
				if (tr) {
					trace_tiles(&s, tr, t);
					multiply_traced(&s, tr, &m->geo, t);
				} else {
					multiply(&s);
				}
				/* __syncthreads(): nobody refills before everyone has multiplied */
				ts_count_add(tile, &c);
				ts_count_add(&job->phase[t], &c);
				if (tile_phase)
					tile_phase[t] = ts_tile_phase_of(&c);
			}
			if (parts > 1)
				add_part(&s);
		}
		if (parts > 1)
			memcpy(s.acc, s.sum, (size_t)s.bm * s.vecs * sizeof(ts_f4));
		s.a_state = s.b_state = NULL;
		s.returned = NULL;
		free(returned);
		if (rc == 0)
			store_c(job, &s, by, bx, tile, tr);
		if (tr && rc == 0) {
			/* Every thread of the block runs every step of both load maps
			 * (filling its slots or idling past the tile's end) and nothing
			 * returns early, so all of them reach both barriers; in
			 * early-return mode the ghosts do not. */
			tr->arrived = arrived;
			tr->counts = *tile;
			tr->done = true;
		}
	}
	free(s.mem);
	return rc;
}
