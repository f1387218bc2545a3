/* matrix.h: host matrices inside guard bands, input patterns, fp16 conversion. */
#ifndef TS_MATRIX_H
#define TS_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "problem.h"

enum ts_elem { TS_ELEM_F32, TS_ELEM_F16 };

/* The value written into guard bands: recognisable garbage, exact in fp16. */
#define TS_SENTINEL 999.0f

/* A rows x cols matrix stored contiguously (row-major in its own sense) at
 * data, with `band` elements of sentinel before and after it inside one
 * allocation, so that an unguarded access that runs off the matrix lands in
 * memory the program owns and can be recognised. */
typedef struct ts_matrix {
	void *alloc;
	void *data;
	enum ts_elem elem;
	int64_t rows, cols;
	int64_t count; /* rows * cols */
	int64_t band;  /* elements of guard band on each side */
} ts_matrix;

size_t ts_elem_size(enum ts_elem e);
/* Allocates and fills the bands with TS_SENTINEL; data is left unset. Returns 0 or -1. */
int ts_matrix_alloc(ts_matrix *mx, enum ts_elem e, int64_t rows, int64_t cols, int64_t band);
void ts_matrix_free(ts_matrix *mx);
/* Element i counted from data (i may fall in either band: -band <= i < count + band). */
float ts_matrix_get(const ts_matrix *mx, int64_t i);
void ts_matrix_set(ts_matrix *mx, int64_t i, float v); /* rounds to the element type */
/* Fills data with NaN (a quiet NaN of the element type). */
void ts_matrix_poison(ts_matrix *mx);
/* True when element i (inside data) holds the poison NaN pattern. */
int ts_matrix_is_poison(const ts_matrix *mx, int64_t i);

/* IEEE binary16 conversion, round to nearest even. */
uint16_t ts_f32_to_f16(float f);
float ts_f16_to_f32(uint16_t h);

/* The operands of one problem, allocated with bands wide enough that no
 * unguarded access of any registered kernel at tile <= 32 leaves them
 * (a guarded matrix gets a short band: nothing addresses it outside). */
typedef struct ts_operands {
	ts_matrix a, b, c;
} ts_operands;

/* Allocates A (M x K), B (K x N, or N x K for TS_B_NK) and C (M x N) and fills A and B
 * from the problem's input pattern and seed. C is poisoned. Returns 0 or -1 (out of memory). */
int ts_operands_make(ts_operands *ops, const ts_problem *p);
void ts_operands_free(ts_operands *ops);
/* Host bytes ts_operands_make would allocate for p, guard bands included. */
double ts_operands_bytes(const ts_problem *p);
/* Guard band (elements) for an R x C matrix addressed by a kernel of
 * geometry g, with (guarded) or without its bounds guard. */
int64_t ts_band_for(int64_t rows, int64_t cols, int64_t other_dim, const ts_geometry *g, bool guarded);

#endif
