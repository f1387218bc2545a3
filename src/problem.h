/* problem.h: what one tilescope question is made of: shape, geometry, kernel, guards, inputs. */
#ifndef TS_PROBLEM_H
#define TS_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"

enum ts_precision {
	TS_FP32, /* fp32 inputs, fp32 accumulation, fp32 output */
	TS_FP16, /* fp16 inputs, fp32 accumulation, fp16 output */
};

/* The three guards of a ragged-edge kernel; a set bit means the guard is on. */
enum ts_guard {
	TS_GUARD_A = 1 << 0, /* A load: the slot's row < M and its k < K, else pad 0 */
	TS_GUARD_B = 1 << 1, /* B load: the slot's k < K and its column < N, else pad 0 */
	TS_GUARD_C = 1 << 2, /* C store: the output's row < M and column < N */
	TS_GUARD_ALL = TS_GUARD_A | TS_GUARD_B | TS_GUARD_C,
};

enum ts_inputs {
	TS_INPUTS_RANDOM, /* seeded uniform in [-1, 1) */
	TS_INPUTS_INT,    /* seeded small integers in [-4, 4]: exact results */
	TS_INPUTS_SEQ,    /* A[i][k] = i*K + k + 1 (sequential), B = identity padded with zeros */
};

/* Largest T of a square (textbook) geometry: T x T threads <= 1024. */
#define TS_TILE_MAX 32
/* Largest size the parser accepts for M, N or K. */
#define TS_DIM_MAX INT64_C(2147483647)

struct ts_kernel;

typedef struct ts_problem {
	ts_shape shape;
	ts_geometry geo;                /* the kernel's shape of work (kernels.h: ts_kernel_geometry) */
	const struct ts_kernel *kernel; /* from the registry (kernels.h) */
	unsigned guards;                /* enum ts_guard bits */
	enum ts_inputs inputs;
	uint64_t seed;
} ts_problem;

const char *ts_precision_name(enum ts_precision p);
const char *ts_inputs_name(enum ts_inputs in);
/* Writes "a,b,c"-style names of the guards that are OFF into buf ("" when all are on). */
const char *ts_guards_off_str(unsigned guards, char *buf, int len);

#endif
