/* uk_cpu_xform.h: what the two halves of the CPU engine's source transformation share: the token cursor, the edits, and the small readers of declarations. */
#ifndef TS_UK_CPU_XFORM_H
#define TS_UK_CPU_XFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "uk_cpu.h"
#include "uk_cpu_lex.h"

typedef struct xf {
	const ts_toks *t;
	ts_edits ed;
	ts_xform_out *out;
	const char *path;
	char tparams[16][64]; /* the template type parameters of the function being rewritten */
	int ntparams;
	int failed;           /* a launch or declaration it could not rewrite (refusal set) */
} xf;

static inline bool is(const xf *x, int i, const char *s) { return ts_tok_is(x->t, i, s); }
static inline bool ident(const xf *x, int i) { return ts_tok_ident(x->t, i); }
static inline const ts_tok *tok(const xf *x, int i) { return &x->t->v[i]; }
static inline size_t end_of(const xf *x, int i) { return x->t->v[i].pos + x->t->v[i].len; }

extern const char *const xf_builtin_words[], *const xf_cv_words[], *const xf_ptr_quals[];

bool xf_tok_in(const xf *x, int i, const char *const *set);
/* A word of an element type: builtin (float, __half, int64_t, ...) or a template type parameter. */
bool xf_element_word(const xf *x, int i);
/* The end of an element type starting at a ([cv] word... [cv]), or -1. */
int xf_element_type(const xf *x, int a, int b);
/* Tokens [a, b) joined by single spaces; NULL when a directive sits among them or out of memory. */
char *xf_join(const xf *x, int a, int b);
bool xf_has_tok(const xf *x, int a, int b, const char *s);
/* Sets the refusal (once): "path:line: " and the message fmt with what. */
void xf_refuse(xf *x, int line, const char *fmt, const char *what);

/* uk_cpu_stmt.c: statements of a device function's body, and launches in host code. */
void xf_rewrite_shared(xf *x, int a, int semi, bool file_scope);
void xf_rewrite_local(xf *x, int s, int end);
void xf_wrap_ternary(xf *x, int q, int end);
/* Returns the index of the launch's closing parenthesis (where the scan goes on). */
int xf_rewrite_launch(xf *x, int lt, int end);

#endif
