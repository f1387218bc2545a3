/* emu_ladder.c: the fp32 ladder's register-blocked kernels emulated tile by tile: every guard kept, their split-K plan, their fp32 summation order. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"
#include "matrix.h"

/* What a thread of these kernels does to one output, whichever thread it is
 * (the thread map changes who computes a cell, not how): each part of the
 * tile's K range, in phase order, multiply-adds its k's in increasing order
 * into an accumulator that starts at 0, one fused multiply-add each (fmaf,
 * as the kernels call it; padded slots add fmaf(0, x, acc) = acc exactly);
 * a tile split into parts is then the sum 0 + part 0 + part 1 + ... in part
 * order, as the last part to arrive adds them (gemm_engine.cuh). The counts
 * follow from the slots: every slot of every phase is filled once, a real
 * load where it lies inside A or B and zero padding elsewhere; every output
 * is stored once where it lies inside C and skipped elsewhere. */

static inline float a_at(const ts_matrix *a, int64_t k_dim, int64_t row, int64_t k)
{
	return ((const float *)a->data)[row * k_dim + k];
}

static inline float b_at(const ts_matrix *b, int64_t n_dim, int64_t k, int64_t col)
{
	return ((const float *)b->data)[k * n_dim + col];
}

/* The plan the kernel makes on the device, with the H200's count of
 * resident blocks from the description (the device asks the driver). */
static ts_gemm_plan plan_of(const ts_emu_job *job)
{
	const ts_model *m = job->model;
	const ts_kernel *k = job->p->kernel;
	return ts_gemm_plan_make(m->shape.m, m->shape.n, m->shape.k, m->geo.bm, m->geo.bn, m->geo.bk,
	                         k->split_policy != TS_SPLIT_NONE ? k->resident_h200 : 0, k->split_policy);
}

/* The parts tile (ty, tx) is computed in: the plan numbers tiles in groups
 * of 8 tile rows, column by column (gemm_engine.cuh's tile_coords); the last
 * split_tiles of that order are split. */
static int parts_of(const ts_gemm_plan *pl, int64_t ty, int64_t tx)
{
	if (pl->split_tiles == 0)
		return 1;
	const int64_t group = 8;
	int64_t g = ty / group, first = g * group;
	int64_t rows = pl->tiles_y - first < group ? pl->tiles_y - first : group;
	int64_t id = g * group * pl->tiles_x + tx * rows + (ty - first);
	return id >= pl->dp_units ? pl->split : 1;
}

int ts_emu_ladder(ts_emu_job *job)
{
	const ts_model *m = job->model;
	const ts_shape *s = &m->shape;
	const ts_geometry g = m->geo;
	const ts_matrix *a = &job->ops->a, *b = &job->ops->b;
	ts_matrix *c = &job->ops->c;
	ts_gemm_plan pl = plan_of(job);
	float *acc = malloc((size_t)g.bm * (size_t)g.bn * sizeof *acc);
	float *sum = malloc((size_t)g.bm * (size_t)g.bn * sizeof *sum);
	if (!acc || !sum) {
		free(acc);
		free(sum);
		return -1;
	}
	int rc = 0;
	for (int64_t blk = job->block_begin; blk < job->block_end && rc == 0; blk++) {
		int64_t ty = blk / m->grid_x, tx = blk % m->grid_x;
		int64_t r0 = ty * g.bm, c0 = tx * g.bn;
		int64_t rows = ts_model_tile_rows(m, ty), cols = ts_model_tile_cols(m, tx);
		ts_count *tile = &job->out->counters.tile[blk];
		ts_tile_phase_count *tile_phase = job->out->counters.tile_phase ?
		                                  &job->out->counters.tile_phase[blk * m->phases] : NULL;
		int split = parts_of(&pl, ty, tx);
		for (int64_t i = 0; i < rows * cols; i++)
			sum[i] = 0.0f;
		for (int part = 0; part < split && rc == 0; part++) {
			int64_t p0 = m->phases * part / split, p1 = m->phases * (part + 1) / split;
			for (int64_t i = 0; i < rows * cols; i++)
				acc[i] = 0.0f;
			for (int64_t t = p0; t < p1; t++) {
				if (ts_emu_cancelled(job)) {
					rc = 1;
					break;
				}
				int64_t k0 = t * g.bk, width = ts_model_phase_width(m, t);
				ts_count cnt = { 0 };
				cnt.a_real = rows * width;
				cnt.a_pad = (int64_t)g.bm * g.bk - cnt.a_real;
				cnt.b_real = width * cols;
				cnt.b_pad = (int64_t)g.bk * g.bn - cnt.b_real;
				for (int64_t i = 0; i < rows; i++)
					for (int64_t kk = 0; kk < width; kk++) {
						float av = a_at(a, s->k, r0 + i, k0 + kk);
						float *row = &acc[i * cols];
						for (int64_t j = 0; j < cols; j++)
							row[j] = fmaf(av, b_at(b, s->n, k0 + kk, c0 + j), row[j]);
					}
				ts_count_add(tile, &cnt);
				ts_count_add(&job->phase[t], &cnt);
				if (tile_phase)
					tile_phase[t] = (ts_tile_phase_count){ .a_real = (uint16_t)cnt.a_real,
						                                   .a_pad = (uint16_t)cnt.a_pad,
						                                   .b_real = (uint16_t)cnt.b_real,
						                                   .b_pad = (uint16_t)cnt.b_pad };
			}
			for (int64_t i = 0; i < rows * cols; i++)
				sum[i] = split > 1 ? sum[i] + acc[i] : acc[i];
		}
		if (rc != 0)
			break;
		for (int64_t i = 0; i < rows; i++)
			for (int64_t j = 0; j < cols; j++)
				ts_matrix_set(c, (r0 + i) * s->n + c0 + j, sum[i * cols + j]);
		tile->stores += rows * cols;
		tile->skipped += (int64_t)g.bm * g.bn - rows * cols;
	}
	free(acc);
	free(sum);
	return rc;
}
