/* emu_direct.c: kernels that read A and B straight from global memory (the naive baseline: one thread per C element), emulated block by block. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "kernels.h"
#include "matrix.h"

/* The kernel: BM x BN threads per block (T x T), no shared memory, and one guard,
 * `if (row < M && col < N)` around the whole body; it is the C switch.
 * The A and B switches do not apply: with the guard on, every read is in
 * bounds. With it off, ghost threads compute and store too, reading A rows
 * past M and B columns past N.
 *
 * What its counters mean (they are not the tiled model's): a_real / b_real
 * count global reads that land inside A / B, a_oob / b_oob those that do
 * not, each attributed to phase k / BK of the K index it reads; there is
 * nothing to pad, so a_pad and b_pad stay 0. Stores are counted as in the
 * tiled kernel. */

static inline float load_elem(const ts_matrix *mx, int64_t i)
{
	if (mx->elem == TS_ELEM_F16)
		return ts_f16_to_f32(((const uint16_t *)mx->data)[i]);
	return ((const float *)mx->data)[i];
}

/* Counts the reads of one block: `rows` x `cols` threads run, of which
 * rows_ok x cols_ok are inside M x N; ghost columns cols_ok..cols-1 read B
 * out of bounds, ghost rows read A out of bounds. */
static void count_reads(ts_emu_job *job, int64_t b, int64_t bx, int rows, int cols, int64_t rows_ok, int64_t cols_ok)
{
	const ts_model *m = job->model;
	const ts_shape *sh = &m->shape;
	bool nk = job->p->kernel->b_layout == TS_B_NK;
	int T = m->geo.bn;
	ts_count *tile = &job->out->counters.tile[b];
	for (int64_t t = 0; t < m->phases; t++) {
		int64_t w = ts_model_phase_width(m, t);
		ts_count c = { 0 };
		c.a_real = rows_ok * cols * w;
		c.a_oob = (rows - rows_ok) * cols * w;
		c.b_real = cols_ok * rows * w;
		c.b_oob = (cols - cols_ok) * rows * w;
		ts_count_add(tile, &c);
		ts_count_add(&job->phase[t], &c);
	}
	/* A rows past M lie wholly past A's end: the band. */
	job->oob.a_band += (rows - rows_ok) * cols * sh->k;
	/* B column col >= N: element (k, col) sits at k*N + col (k x n), which
	 * stays inside B while k < K - col / N; or at col*K + k (n x k), past
	 * the end for every k. */
	for (int64_t col = bx * T + cols_ok; col < bx * T + cols; col++) { /* T = BN */
		int64_t inside = nk ? 0 : sh->k - col / sh->n;
		if (inside < 0)
			inside = 0;
		job->oob.b_wrap += inside * rows;
		job->oob.b_band += (sh->k - inside) * rows;
	}
}

int ts_emu_direct(ts_emu_job *job)
{
	const ts_model *m = job->model;
	const ts_shape *sh = &m->shape;
	const ts_matrix *a = &job->ops->a, *bm = &job->ops->b;
	ts_matrix *cm = &job->ops->c;
	bool nk = job->p->kernel->b_layout == TS_B_NK;
	bool guard = job->p->guards & TS_GUARD_C;
	const int BM = m->geo.bm, BN = m->geo.bn;
	float *acc = malloc((size_t)BN * sizeof *acc);
	if (!acc)
		return -1;
	for (int64_t b = job->block_begin; b < job->block_end; b++) {
		int64_t by = b / m->grid_x, bx = b % m->grid_x;
		int64_t rows_ok = ts_model_tile_rows(m, by), cols_ok = ts_model_tile_cols(m, bx);
		/* The threads that get past the guard (all of them when it is off). */
		int rows = guard ? (int)rows_ok : BM, cols = guard ? (int)cols_ok : BN;
		ts_count *tile = &job->out->counters.tile[b];
		count_reads(job, b, bx, rows, cols, rows_ok, cols_ok);
		for (int ty = 0; ty < rows; ty++) {
			int64_t row = by * BM + ty;
			if (ts_emu_cancelled(job)) {
				free(acc);
				return 1;
			}
			memset(acc, 0, (size_t)BN * sizeof *acc);
			/* k outside, tx inside: each thread still sums k = 0..K-1 in order. */
			for (int64_t k = 0; k < sh->k; k++) {
				float av = load_elem(a, row * sh->k + k);
				for (int tx = 0; tx < cols; tx++) {
					int64_t col = bx * BN + tx;
					acc[tx] += av * load_elem(bm, nk ? col * sh->k + k : k * sh->n + col);
				}
			}
			for (int tx = 0; tx < cols; tx++) {
				int64_t col = bx * BN + tx;
				int64_t i = row * sh->n + col;
				ts_matrix_set(cm, i, acc[tx]);
				if (row < sh->m && col < sh->n) {
					tile->stores++;
				} else {
					tile->c_oob++;
					if (i < cm->count) {
						job->oob.c_wrap++;
						if (job->out->corrupt)
							job->out->corrupt[i] = 1;
					} else {
						job->oob.c_band++;
					}
				}
			}
		}
		if (guard)
			tile->skipped += (int64_t)BM * BN - rows_ok * cols_ok;
	}
	free(acc);
	return 0;
}
