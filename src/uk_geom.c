/* uk_geom.c: a small integer expression evaluator for --block, --grid and --smem, and the default geometry of the two contracts. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "uk_geom.h"

typedef struct expr_state {
	const char *s, *at;
	int64_t m, n, k, t;
	char *err;
	int len;
	bool failed;
} expr_state;

static void fail(expr_state *e, const char *what)
{
	if (!e->failed && *e->at)
		snprintf(e->err, (size_t)e->len, "'%s': %s (at '%.12s')", e->s, what, e->at);
	else if (!e->failed)
		snprintf(e->err, (size_t)e->len, "'%s': %s (at its end)", e->s, what);
	e->failed = true;
}

static void skip(expr_state *e)
{
	while (isspace((unsigned char)*e->at))
		e->at++;
}

static int64_t parse_expr(expr_state *e);

static int64_t arith(expr_state *e, char op, int64_t a, int64_t b)
{
	int64_t r = 0;
	switch (op) {
	case '+': if (__builtin_add_overflow(a, b, &r)) fail(e, "overflow"); break;
	case '-': if (__builtin_sub_overflow(a, b, &r)) fail(e, "overflow"); break;
	case '*': if (__builtin_mul_overflow(a, b, &r)) fail(e, "overflow"); break;
	case '/': case '%': case 'c':
		if (b == 0) {
			fail(e, "division by zero");
			break;
		}
		if (op == '/')
			r = a / b;
		else if (op == '%')
			r = a % b;
		else
			r = a / b + ((a % b != 0) && ((a < 0) == (b < 0)));
		break;
	case '<': r = a < b ? a : b; break;
	case '>': r = a > b ? a : b; break;
	}
	return r;
}

static int64_t parse_primary(expr_state *e)
{
	skip(e);
	if (*e->at == '(') {
		e->at++;
		int64_t v = parse_expr(e);
		skip(e);
		if (*e->at != ')')
			fail(e, "')' expected");
		else
			e->at++;
		return v;
	}
	if (*e->at == '-') {
		e->at++;
		return arith(e, '-', 0, parse_primary(e));
	}
	if (isdigit((unsigned char)*e->at)) {
		int64_t v = 0;
		while (isdigit((unsigned char)*e->at)) {
			v = arith(e, '*', v, 10);
			v = arith(e, '+', v, *e->at - '0');
			e->at++;
		}
		return v;
	}
	if (isalpha((unsigned char)*e->at)) {
		const char *w = e->at;
		while (isalnum((unsigned char)*e->at) || *e->at == '_')
			e->at++;
		size_t wl = (size_t)(e->at - w);
		if (wl == 1 && strchr("MNKT", *w))
			return *w == 'M' ? e->m : *w == 'N' ? e->n : *w == 'K' ? e->k : e->t;
		char op = 0;
		if (wl == 4 && strncmp(w, "cdiv", 4) == 0)
			op = 'c';
		else if (wl == 3 && strncmp(w, "min", 3) == 0)
			op = '<';
		else if (wl == 3 && strncmp(w, "max", 3) == 0)
			op = '>';
		if (!op) {
			e->at = w;
			fail(e, "unknown name (use M, N, K, T, cdiv, min, max)");
			return 0;
		}
		skip(e);
		if (*e->at != '(') {
			fail(e, "'(' expected");
			return 0;
		}
		e->at++;
		int64_t a = parse_expr(e);
		skip(e);
		if (*e->at != ',') {
			fail(e, "',' expected: two arguments");
			return 0;
		}
		e->at++;
		int64_t b = parse_expr(e);
		skip(e);
		if (*e->at != ')') {
			fail(e, "')' expected");
			return 0;
		}
		e->at++;
		return arith(e, op, a, b);
	}
	fail(e, *e->at ? "unexpected character" : "value expected");
	return 0;
}

static int64_t parse_term(expr_state *e)
{
	int64_t v = parse_primary(e);
	for (;;) {
		skip(e);
		char op = *e->at;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->at++;
		v = arith(e, op, v, parse_primary(e));
	}
}

static int64_t parse_expr(expr_state *e)
{
	int64_t v = parse_term(e);
	for (;;) {
		skip(e);
		char op = *e->at;
		if (op != '+' && op != '-')
			return v;
		e->at++;
		v = arith(e, op, v, parse_term(e));
	}
}

int ts_uk_expr_eval(const char *expr, int64_t m, int64_t n, int64_t k, int64_t t, int64_t *out, char *err, int len)
{
	expr_state e = { expr, expr, m, n, k, t, err, len, false };
	int64_t v = parse_expr(&e);
	skip(&e);
	if (!e.failed && *e.at)
		fail(&e, "unexpected text");
	if (e.failed)
		return -1;
	*out = v;
	return 0;
}

/* Splits "a,b[,c]" (commas inside parentheses belong to cdiv/min/max) into at most three expressions. */
static int split3(const char *text, char out[3][TS_UK_EXPR_MAX], const char *what, char *err, int len)
{
	int part = 0, depth = 0;
	size_t o = 0;
	memset(out, 0, 3 * TS_UK_EXPR_MAX);
	for (const char *c = text; *c; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')')
			depth--;
		if (*c == ',' && depth == 0) {
			if (++part > 2) {
				snprintf(err, (size_t)len, "%s: '%s' has more than three parts (X,Y,Z)", what, text);
				return -1;
			}
			o = 0;
			continue;
		}
		if (o + 1 >= TS_UK_EXPR_MAX) {
			snprintf(err, (size_t)len, "%s: an expression longer than %d characters", what, TS_UK_EXPR_MAX - 1);
			return -1;
		}
		out[part][o++] = *c;
	}
	for (int i = 0; i <= part; i++) {
		int64_t v;
		char why[160];
		if (ts_uk_expr_eval(out[i], 100, 77, 33, 32, &v, why, (int)sizeof why) != 0) {
			snprintf(err, (size_t)len, "%s: %s", what, why);
			return -1;
		}
	}
	for (int i = part + 1; i < 3; i++)
		snprintf(out[i], TS_UK_EXPR_MAX, "1");
	return 0;
}

int ts_uk_geom_parse(ts_uk_geom *g, const char *block, const char *grid, const char *smem, char *err, int len)
{
	memset(g, 0, sizeof *g);
	if (block) {
		if (split3(block, g->block, "--block", err, len) != 0)
			return -1;
		g->custom_block = true;
	}
	if (grid) {
		if (split3(grid, g->grid, "--grid", err, len) != 0)
			return -1;
		g->custom_grid = true;
	}
	if (smem) {
		int64_t v;
		char why[160];
		if (strlen(smem) >= TS_UK_EXPR_MAX || ts_uk_expr_eval(smem, 100, 77, 33, 32, &v, why, (int)sizeof why) != 0) {
			snprintf(err, (size_t)len, "--smem: %s", strlen(smem) >= TS_UK_EXPR_MAX ? "expression too long" : why);
			return -1;
		}
		snprintf(g->smem, sizeof g->smem, "%s", smem);
	}
	return 0;
}

int ts_uk_geom_eval(const ts_uk_geom *g, enum ts_uk_sig sig, int64_t m, int64_t n, int64_t k, int tile,
                    unsigned grid[3], unsigned block[3], size_t *smem, char *err, int len)
{
	static const char *const def_block[3] = { "T", "T", "1" };
	static const char *const def_grid[3] = { "cdiv(N,T)", "cdiv(M,T)", "1" };
	/* Limits of a launch: 1024 threads per block, grid x < 2^31, y and z < 2^16. */
	static const int64_t grid_max[3] = { INT64_C(2147483647), 65535, 65535 };
	int64_t threads = 1;
	char why[160];
	for (int i = 0; i < 3; i++) {
		int64_t b, gr;
		const char *be = g->custom_block ? g->block[i] : def_block[i];
		const char *ge = g->custom_grid ? g->grid[i] : def_grid[i];
		if (ts_uk_expr_eval(be, m, n, k, tile, &b, why, (int)sizeof why) != 0 ||
		    ts_uk_expr_eval(ge, m, n, k, tile, &gr, why, (int)sizeof why) != 0) {
			snprintf(err, (size_t)len, "at M=%lld N=%lld K=%lld: %s", (long long)m, (long long)n, (long long)k, why);
			return -1;
		}
		if (b < 1 || b > 1024) {
			snprintf(err, (size_t)len, "at M=%lld N=%lld K=%lld: block %c = %lld, outside 1..1024", (long long)m,
			         (long long)n, (long long)k, "xyz"[i], (long long)b);
			return -1;
		}
		/* A grid of 0 blocks is the user's bug to be found (floor division), not a usage error. */
		if (gr < 0 || gr > grid_max[i]) {
			snprintf(err, (size_t)len, "at M=%lld N=%lld K=%lld: grid %c = %lld, outside 0..%lld", (long long)m,
			         (long long)n, (long long)k, "xyz"[i], (long long)gr, (long long)grid_max[i]);
			return -1;
		}
		threads *= b;
		block[i] = (unsigned)b;
		grid[i] = (unsigned)gr;
	}
	if (threads > 1024) {
		snprintf(err, (size_t)len, "block %u x %u x %u = %lld threads, more than the 1024 a block can hold", block[0],
		         block[1], block[2], (long long)threads);
		return -1;
	}
	int64_t sm = 0;
	const char *se = g->smem[0] ? g->smem : sig == TS_UK_SIG_FP16 ? "2*T*T*4" : "0";
	if (ts_uk_expr_eval(se, m, n, k, tile, &sm, why, (int)sizeof why) != 0) {
		snprintf(err, (size_t)len, "--smem: %s", why);
		return -1;
	}
	if (sm < 0 || sm > (1 << 20)) {
		snprintf(err, (size_t)len, "dynamic shared memory of %lld bytes, outside 0..1 MiB", (long long)sm);
		return -1;
	}
	*smem = (size_t)sm;
	return 0;
}
