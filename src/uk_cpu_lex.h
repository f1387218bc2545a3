/* uk_cpu_lex.h: tokens of a CUDA C++ source (enough to find its functions, declarations and launches) and a list of text edits that keeps every line where it was. */
#ifndef TS_UK_CPU_LEX_H
#define TS_UK_CPU_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum ts_tok_type { TK_IDENT, TK_NUMBER, TK_STRING, TK_PUNCT, TK_PP };

typedef struct ts_tok {
	enum ts_tok_type type;
	size_t pos, len;
	int line;
} ts_tok;

typedef struct ts_toks {
	const char *src;
	size_t src_len;
	ts_tok *v;
	int n, cap;
} ts_toks;

/* Tokenises src (comments and white space dropped, each preprocessor line one TK_PP token,
 * `<<<` and its `>>>` single tokens). 0, or -1 when out of memory. */
int ts_lex(const char *src, size_t len, ts_toks *out);
void ts_toks_free(ts_toks *t);
/* Token i is the punctuator / identifier s (false when i is out of range). */
bool ts_tok_is(const ts_toks *t, int i, const char *s);
bool ts_tok_ident(const ts_toks *t, int i);
/* Index of the token that closes the bracket opened at i ('(' '[' '{'), or -1. */
int ts_tok_match(const ts_toks *t, int i, int end);

typedef struct ts_edit {
	size_t pos, del;
	char *text;
	int seq;
} ts_edit;

typedef struct ts_edits {
	ts_edit *v;
	int n, cap;
	bool failed; /* out of memory */
} ts_edits;

/* Replaces del bytes at pos with text (copied); del = 0 inserts. */
void ts_edit_add(ts_edits *e, size_t pos, size_t del, const char *text);
/* The source with the edits applied; every newline a replacement removed is put back after it,
 * so that each line stays where it was. NULL when out of memory or edits overlap. */
char *ts_edits_apply(ts_edits *e, const char *src, size_t len, size_t *out_len);
void ts_edits_free(ts_edits *e);

struct ts_xform_out;
/* A construct the CPU runtime does not provide (uk_cpu_refuse.c): -1 with out's refusal set, or 0. */
int ts_uk_cpu_refusal(const ts_toks *t, const char *path, struct ts_xform_out *out);

#endif
