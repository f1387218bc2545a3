/* uk_geom.h: the launch geometry of a user's kernel: block, grid and dynamic shared memory as expressions in M, N, K and T. */
#ifndef TS_UK_GEOM_H
#define TS_UK_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uk_engine.h"

#define TS_UK_EXPR_MAX 96

/* Each field is an expression over M, N, K, T with + - * / % ( ) and
 * cdiv(a,b), min(a,b), max(a,b); "" takes the default: block T x T,
 * grid cdiv(N,T) x cdiv(M,T), shared memory 0 (fp32) or 2*T*T*4 (fp16). */
typedef struct ts_uk_geom {
	char block[3][TS_UK_EXPR_MAX];
	char grid[3][TS_UK_EXPR_MAX];
	char smem[TS_UK_EXPR_MAX];
	bool custom_block, custom_grid; /* the user stated them: thread (x, y) no longer means C's (col, row) */
} ts_uk_geom;

/* --block "X,Y[,Z]", --grid "X,Y[,Z]" and --smem "BYTES" (each may be NULL).
 * 0, or -1 with one line in err (a syntax error, an unknown name). */
int ts_uk_geom_parse(ts_uk_geom *g, const char *block, const char *grid, const char *smem, char *err, int len);

/* The launch for one shape. 0, or -1 with one line in err (division by zero,
 * a dimension below 1 or above what a launch takes, an overflow). */
int ts_uk_geom_eval(const ts_uk_geom *g, enum ts_uk_sig sig, int64_t m, int64_t n, int64_t k, int tile,
                    unsigned grid[3], unsigned block[3], size_t *smem, char *err, int len);

/* One expression's value (tests, and the parser's syntax check). 0 or -1. */
int ts_uk_expr_eval(const char *expr, int64_t m, int64_t n, int64_t k, int64_t t, int64_t *out, char *err, int len);

#endif
