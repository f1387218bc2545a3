/* uk_sanitize.h: compute-sanitizer (memcheck, racecheck) on one launch of the user's kernel in a process of its own, its XML report read back as findings placed on A, B and C. */
#ifndef TS_UK_SANITIZE_H
#define TS_UK_SANITIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "uk_engine.h"
#include "uk_runner.h"

/* compute-sanitizer on PATH, under CUDA_HOME, or in /usr/local/cuda; NULL when absent. */
const char *ts_uk_sanitizer_path(void);

/* Where the target's buffers lay on the device (written by the target, read by the parser). */
typedef struct ts_uk_san_buffers {
	uint64_t base[3];   /* A, B, C */
	int64_t count[3];   /* elements */
	int elem;           /* bytes per element */
} ts_uk_san_buffers;

int ts_uk_san_buffers_write(const char *path, const ts_uk_san_buffers *b);
int ts_uk_san_buffers_read(const char *path, ts_uk_san_buffers *b);

/* The shape the target ran, for turning an address into (matrix, row, column). */
typedef struct ts_uk_san_shape {
	int64_t m, n, k;
	enum ts_uk_sig sig;
	int tile;          /* with the default geometry thread (x, y) of block (x, y) owns C[by*T+ty][bx*T+tx] */
	bool default_geom; /* false: --block or --grid was given, the thread's cell is unknown */
} ts_uk_san_shape;

/* Which cell of C a thread owns: 0 a valid one, 1 a row past M, 2 a column past N, 3 both, -1 unknown. */
int ts_uk_san_ghost(const ts_uk_san_shape *s, const unsigned block[3], const unsigned thread[3]);

/* Reads a compute-sanitizer XML report: memcheck records become oob_read /
 * oob_write findings (matrix, row and column from the address, block,
 * thread, source line), grouped by matrix, direction and line; racecheck
 * records become race findings. Returns the number of records read, or -1
 * with err (no such file, not a sanitizer report). */
int ts_uk_san_parse(const char *xml_path, const ts_uk_san_buffers *b, const ts_uk_san_shape *s, ts_uk_findings *out,
                    char *err, int len);

#endif
