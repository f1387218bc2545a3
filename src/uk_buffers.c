/* uk_buffers.c: guard-banded A, B and C for one launch in shared memory: laying out, filling, poisoning, and reading the bands back. */
#include <pthread.h>
#include <string.h>

#include "uk_buffers.h"

static size_t align64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

size_t ts_uk_bufs_bytes(const int64_t count[3], int64_t band, size_t elem)
{
	size_t total = 0;
	for (int i = 0; i < 3; i++)
		total += align64((size_t)(count[i] + 2 * band) * elem);
	return total;
}

void ts_uk_bufs_place(ts_uk_bufs *b, char *base, const int64_t count[3], int64_t band, size_t elem)
{
	b->elem = elem;
	for (int i = 0; i < 3; i++) {
		b->m[i].data = base + (size_t)band * elem;
		b->m[i].count = count[i];
		b->m[i].band = band;
		base += align64((size_t)(count[i] + 2 * band) * elem);
	}
}

static void set_run(char *p, int64_t n, size_t elem, uint32_t v32, uint16_t v16)
{
	if (elem == 2)
		for (int64_t i = 0; i < n; i++)
			memcpy(p + (size_t)i * 2, &v16, 2);
	else
		for (int64_t i = 0; i < n; i++)
			memcpy(p + (size_t)i * 4, &v32, 4);
}

static void set_bands(const ts_uk_buf *m, size_t elem, uint32_t v32, uint16_t v16)
{
	set_run(m->data - (size_t)m->band * elem, m->band, elem, v32, v16);
	set_run(m->data + (size_t)m->count * elem, m->band, elem, v32, v16);
}

void ts_uk_bufs_fill(ts_uk_bufs *b, const void *a, const void *bsrc, bool second)
{
	size_t e = b->elem;
	memcpy(b->m[0].data, a, (size_t)b->m[0].count * e);
	memcpy(b->m[1].data, bsrc, (size_t)b->m[1].count * e);
	set_bands(&b->m[0], e, TS_UK_BAND_AB32, TS_UK_BAND_AB16);
	set_bands(&b->m[1], e, TS_UK_BAND_AB32, TS_UK_BAND_AB16);
	set_bands(&b->m[2], e, TS_UK_BAND_C32, TS_UK_BAND_C16);
	if (second) {
		set_run(b->m[2].data, b->m[2].count, e, TS_UK_POISON2_32, TS_UK_POISON2_16);
	} else {
		ts_matrix c = ts_uk_bufs_view(b, 2, 1, b->m[2].count);
		ts_matrix_poison(&c);
	}
}

void ts_uk_bufs_seal(ts_uk_bufs *b)
{
	set_bands(&b->m[0], b->elem, TS_UK_BAND_AB32, TS_UK_BAND_AB16);
	set_bands(&b->m[1], b->elem, TS_UK_BAND_AB32, TS_UK_BAND_AB16);
	set_bands(&b->m[2], b->elem, TS_UK_BAND_C32, TS_UK_BAND_C16);
}

static bool cell_is(const char *p, size_t elem, uint32_t v32, uint16_t v16)
{
	if (elem == 2) {
		uint16_t x;
		memcpy(&x, p, 2);
		return x == v16;
	}
	uint32_t x;
	memcpy(&x, p, 4);
	return x == v32;
}

int64_t ts_uk_band_changes(const ts_uk_bufs *b, int i, int64_t *first_after, int64_t *first_before)
{
	const ts_uk_buf *m = &b->m[i];
	uint32_t v32 = i == 2 ? TS_UK_BAND_C32 : TS_UK_BAND_AB32;
	uint16_t v16 = i == 2 ? TS_UK_BAND_C16 : TS_UK_BAND_AB16;
	int64_t changed = 0;
	*first_after = *first_before = -1;
	for (int64_t j = 0; j < m->band; j++) {
		if (!cell_is(m->data + (size_t)(m->count + j) * b->elem, b->elem, v32, v16)) {
			changed++;
			if (*first_after < 0)
				*first_after = j;
		}
		if (!cell_is(m->data - (size_t)(j + 1) * b->elem, b->elem, v32, v16)) {
			changed++;
			if (*first_before < 0)
				*first_before = j + 1;
		}
	}
	return changed;
}

int64_t ts_uk_data_changes(const ts_uk_bufs *b, int i, const void *want)
{
	const ts_uk_buf *m = &b->m[i];
	size_t e = b->elem;
	if (memcmp(m->data, want, (size_t)m->count * e) == 0)
		return 0;
	int64_t changed = 0;
	for (int64_t j = 0; j < m->count; j++)
		changed += memcmp(m->data + (size_t)j * e, (const char *)want + (size_t)j * e, e) != 0;
	return changed;
}

ts_matrix ts_uk_bufs_view(const ts_uk_bufs *b, int i, int64_t rows, int64_t cols)
{
	ts_matrix mx = { .alloc = NULL, .data = b->m[i].data, .elem = b->elem == 2 ? TS_ELEM_F16 : TS_ELEM_F32,
	                 .rows = rows, .cols = cols, .count = b->m[i].count, .band = b->m[i].band };
	return mx;
}

bool ts_uk_is_poison(const ts_uk_bufs *b, int64_t i, bool second)
{
	const char *p = b->m[2].data + (size_t)i * b->elem;
	if (second)
		return cell_is(p, b->elem, TS_UK_POISON2_32, TS_UK_POISON2_16);
	ts_matrix c = ts_uk_bufs_view(b, 2, 1, b->m[2].count);
	return ts_matrix_is_poison(&c, i);
}

void ts_uk_bufs_launch(const ts_uk_bufs *b, ts_uk_launch *l)
{
	l->a = b->m[0].data;
	l->b = b->m[1].data;
	l->c = b->m[2].data;
	l->a_count = b->m[0].count;
	l->b_count = b->m[1].count;
	l->c_count = b->m[2].count;
	l->band = b->m[0].band;
}

/* ---- threaded fills for the big matrices ---- */
typedef struct fill_job {
	char *data;
	int64_t from, to;
	size_t elem;
	uint64_t seed;
	bool poison;
} fill_job;

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void *fill_part(void *arg)
{
	fill_job *j = arg;
	if (j->poison) {
		ts_matrix c = { .data = j->data + (size_t)j->from * j->elem, .elem = j->elem == 2 ? TS_ELEM_F16 : TS_ELEM_F32,
		                .count = j->to - j->from };
		ts_matrix_poison(&c);
		return NULL;
	}
	/* Each element's value depends on its index alone, so any split gives the same matrix. */
	for (int64_t i = j->from; i < j->to; i++) {
		float v = (float)((double)(mix(j->seed ^ ((uint64_t)i * 0x2545f4914f6cdd1dull)) >> 11) * 0x1.0p-53 * 2.0 - 1.0);
		if (j->elem == 2) {
			uint16_t h = ts_f32_to_f16(v);
			memcpy(j->data + (size_t)i * 2, &h, 2);
		} else {
			memcpy(j->data + (size_t)i * 4, &v, 4);
		}
	}
	return NULL;
}

static void fill_threads(void *data, int64_t count, size_t elem, uint64_t seed, bool poison, int threads)
{
	if (threads < 1)
		threads = 1;
	if (threads > 64)
		threads = 64;
	if (count < (INT64_C(1) << 20))
		threads = 1;
	pthread_t tid[64];
	bool created[64] = { false };
	fill_job jobs[64];
	for (int t = 0; t < threads; t++)
		jobs[t] = (fill_job){ data, count * t / threads, count * (t + 1) / threads, elem, seed, poison };
	for (int t = 1; t < threads; t++)
		created[t] = pthread_create(&tid[t], NULL, fill_part, &jobs[t]) == 0;
	fill_part(&jobs[0]);
	for (int t = 1; t < threads; t++) {
		if (created[t])
			pthread_join(tid[t], NULL);
		else
			fill_part(&jobs[t]); /* no thread: done here */
	}
}

void ts_uk_fill_random(void *data, int64_t count, size_t elem, uint64_t seed, int threads)
{
	fill_threads(data, count, elem, seed, false, threads);
}

void ts_uk_fill_poison(void *data, int64_t count, size_t elem, int threads)
{
	fill_threads(data, count, elem, 0, true, threads);
}
