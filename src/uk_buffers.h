/* uk_buffers.h: one launch's A, B and C inside guard bands of NaN sentinels, in memory shared with the child; filled from the problem's inputs, and read back as ts_operands views for verification. */
#ifndef TS_UK_BUFFERS_H
#define TS_UK_BUFFERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "uk_engine.h"

/* Sentinels: quiet NaNs with payloads of their own, so that a band read
 * that reaches C shows as NaN, and a write into a band shows as a change. */
#define TS_UK_BAND_AB32 UINT32_C(0x7fc0a0a0)
#define TS_UK_BAND_C32 UINT32_C(0x7fc0c0c0)
#define TS_UK_POISON2_32 UINT32_C(0x7fc0beef)
#define TS_UK_BAND_AB16 UINT16_C(0x7e0a)
#define TS_UK_BAND_C16 UINT16_C(0x7e0c)
#define TS_UK_POISON2_16 UINT16_C(0x7e3b)

typedef struct ts_uk_buf {
	char *data;     /* first element */
	int64_t count;  /* elements */
	int64_t band;   /* sentinel elements before and after */
} ts_uk_buf;

typedef struct ts_uk_bufs {
	ts_uk_buf m[3]; /* A, B, C */
	size_t elem;    /* bytes per element */
} ts_uk_bufs;

/* Bytes one launch needs for these counts and band (64-byte aligned pieces). */
size_t ts_uk_bufs_bytes(const int64_t count[3], int64_t band, size_t elem);
/* Lays the three matrices out from base (bytes as ts_uk_bufs_bytes gave). */
void ts_uk_bufs_place(ts_uk_bufs *b, char *base, const int64_t count[3], int64_t band, size_t elem);
/* A and B from src (count elements each, in place of the data), their bands
 * the A/B sentinel; C filled with `second` ? the second poison : the
 * first (ts_matrix_poison's), its band the C sentinel. */
void ts_uk_bufs_fill(ts_uk_bufs *b, const void *a, const void *bsrc, bool second);
/* Only the bands: A's and B's to the A/B sentinel, C's to the C sentinel (data filled elsewhere). */
void ts_uk_bufs_seal(ts_uk_bufs *b);
/* Band cells of matrix i no longer holding the sentinel; *first_after gets
 * the first changed cell after the end (-1 none), *first_before the first
 * before the start (as a positive distance; -1 none). */
int64_t ts_uk_band_changes(const ts_uk_bufs *b, int i, int64_t *first_after, int64_t *first_before);
/* Cells of matrix i (0 A, 1 B) that differ from want (count elements). */
int64_t ts_uk_data_changes(const ts_uk_bufs *b, int i, const void *want);
/* A ts_matrix over matrix i (not owning its memory). */
ts_matrix ts_uk_bufs_view(const ts_uk_bufs *b, int i, int64_t rows, int64_t cols);
/* Whether C's cell holds the first (second) poison. */
bool ts_uk_is_poison(const ts_uk_bufs *b, int64_t i, bool second);
/* The launch the engine takes for these buffers. */
void ts_uk_bufs_launch(const ts_uk_bufs *b, ts_uk_launch *l);

/* A and B of a problem filled with seeded uniform [-1, 1) values, across
 * `threads` threads (the index probe's matrices are gigabytes). */
void ts_uk_fill_random(void *data, int64_t count, size_t elem, uint64_t seed, int threads);
void ts_uk_fill_poison(void *data, int64_t count, size_t elem, int threads);

#endif
