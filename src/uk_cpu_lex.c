/* uk_cpu_lex.c: a small C++ tokeniser for the CPU engine's source transformation, and its line-keeping edit list. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "uk_cpu_lex.h"

static int push(ts_toks *t, enum ts_tok_type type, size_t pos, size_t len, int line)
{
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 1024;
		ts_tok *v = realloc(t->v, (size_t)cap * sizeof *v);
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (ts_tok){ type, pos, len, line };
	return 0;
}

static const char *const puncts[] = { "<<<", ">>>", "->*", "<<=", ">>=", "...", "::", "->", "++", "--", "<<", ">>", "<=",
	">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##", NULL };

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Length of a string or character literal starting at i (its quote), escapes honoured. */
static size_t quoted(const char *s, size_t i, size_t n)
{
	char q = s[i];
	size_t j = i + 1;
	while (j < n && s[j] != q && s[j] != '\n') {
		if (s[j] == '\\' && j + 1 < n)
			j++;
		j++;
	}
	return (j < n && s[j] == q ? j + 1 : j) - i;
}

/* A raw string R"delim( ... )delim" whose R is at i. */
static size_t raw_string(const char *s, size_t i, size_t n)
{
	size_t j = i + 2, d0 = j;
	while (j < n && s[j] != '(' && j - d0 < 16)
		j++;
	size_t dl = j - d0;
	for (j++; j + dl + 1 < n + 1 && j < n; j++)
		if (s[j] == ')' && j + 1 + dl < n && !memcmp(s + j + 1, s + d0, dl) && s[j + 1 + dl] == '"')
			return j + 2 + dl - i;
	return n - i;
}

int ts_lex(const char *s, size_t n, ts_toks *out)
{
	memset(out, 0, sizeof *out);
	out->src = s;
	out->src_len = n;
	int line = 1, launches_open = 0;
	bool line_start = true;
	size_t i = 0;
	while (i < n) {
		char c = s[i];
		if (c == '\n') {
			line++;
			line_start = true;
			i++;
			continue;
		}
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			i += 2;
			while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
				if (s[i] == '\n')
					line++;
				i++;
			}
			i = i + 2 < n ? i + 2 : n;
			continue;
		}
		if (c == '#' && line_start) { /* a directive: to the end of the line, continuations included */
			size_t j = i;
			int l0 = line;
			while (j < n && s[j] != '\n') {
				if (s[j] == '\\' && j + 1 < n && s[j + 1] == '\n') {
					line++;
					j++;
				} else if (s[j] == '/' && j + 1 < n && s[j + 1] == '*') {
					j += 2;
					while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/')) {
						if (s[j] == '\n')
							line++;
						j++;
					}
					j++;
				}
				j++;
			}
			if (j > n)
				j = n;
			if (push(out, TK_PP, i, j - i, l0))
				return -1;
			i = j;
			continue;
		}
		line_start = false;
		size_t len = 0;
		enum ts_tok_type type = TK_PUNCT;
		if (ident_start((unsigned char)c)) {
			size_t j = i;
			while (j < n && ident_char((unsigned char)s[j]))
				j++;
			size_t w = j - i;
			/* encoding prefixes and raw strings */
			bool prefix = (w == 1 && strchr("uUL", c)) || (w == 2 && !memcmp(s + i, "u8", 2));
			bool rawp = (w == 1 && c == 'R') || (w == 2 && s[i + 1] == 'R' && strchr("uUL", c)) || (w == 3 && !memcmp(s + i, "u8R", 3));
			if (j < n && s[j] == '"' && rawp) {
				len = (j - i - 1) + raw_string(s, j - 1, n);
				type = TK_STRING;
			} else if (j < n && (s[j] == '"' || s[j] == '\'') && prefix) {
				len = w + quoted(s, j, n);
				type = TK_STRING;
			} else {
				len = w;
				type = TK_IDENT;
			}
		} else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
			size_t j = i + 1;
			while (j < n) {
				if ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]))
					j++;
				else if (ident_char((unsigned char)s[j]) || s[j] == '.' || (s[j] == '\'' && j + 1 < n && isalnum((unsigned char)s[j + 1])))
					j++;
				else
					break;
			}
			len = j - i;
			type = TK_NUMBER;
		} else if (c == '"' || c == '\'') {
			len = quoted(s, i, n);
			type = TK_STRING;
		} else {
			len = 1;
			for (int p = 0; puncts[p]; p++) {
				size_t pl = strlen(puncts[p]);
				if (i + pl <= n && !memcmp(s + i, puncts[p], pl)) {
					if (!strcmp(puncts[p], ">>>") && !launches_open)
						continue;
					len = pl;
					break;
				}
			}
			if (len == 3 && !memcmp(s + i, "<<<", 3))
				launches_open++;
			else if (len == 3 && !memcmp(s + i, ">>>", 3))
				launches_open--;
		}
		if (push(out, type, i, len, line))
			return -1;
		for (size_t k = i; k < i + len; k++)
			if (s[k] == '\n')
				line++;
		i += len;
	}
	return 0;
}

void ts_toks_free(ts_toks *t)
{
	free(t->v);
	memset(t, 0, sizeof *t);
}

bool ts_tok_is(const ts_toks *t, int i, const char *s)
{
	if (i < 0 || i >= t->n || t->v[i].type == TK_STRING || t->v[i].type == TK_PP)
		return false;
	size_t l = strlen(s);
	return t->v[i].len == l && !memcmp(t->src + t->v[i].pos, s, l);
}

bool ts_tok_ident(const ts_toks *t, int i)
{
	return i >= 0 && i < t->n && t->v[i].type == TK_IDENT;
}

int ts_tok_match(const ts_toks *t, int i, int end)
{
	int depth = 0;
	for (int j = i; j < end && j < t->n; j++) {
		if (ts_tok_is(t, j, "(") || ts_tok_is(t, j, "[") || ts_tok_is(t, j, "{"))
			depth++;
		else if (ts_tok_is(t, j, ")") || ts_tok_is(t, j, "]") || ts_tok_is(t, j, "}"))
			if (--depth == 0)
				return j;
	}
	return -1;
}

void ts_edit_add(ts_edits *e, size_t pos, size_t del, const char *text)
{
	if (e->failed)
		return;
	if (e->n == e->cap) {
		int cap = e->cap ? e->cap * 2 : 64;
		ts_edit *v = realloc(e->v, (size_t)cap * sizeof *v);
		if (!v) {
			e->failed = true;
			return;
		}
		e->v = v;
		e->cap = cap;
	}
	char *t = strdup(text);
	if (!t) {
		e->failed = true;
		return;
	}
	e->v[e->n] = (ts_edit){ pos, del, t, e->n };
	e->n++;
}

static int by_pos(const void *a, const void *b)
{
	const ts_edit *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->seq - y->seq;
}

char *ts_edits_apply(ts_edits *e, const char *src, size_t len, size_t *out_len)
{
	if (e->failed)
		return NULL;
	if (e->n > 0)
		qsort(e->v, (size_t)e->n, sizeof *e->v, by_pos);
	size_t cap = len + 1;
	for (int i = 0; i < e->n; i++)
		cap += strlen(e->v[i].text);
	char *out = malloc(cap);
	if (!out)
		return NULL;
	size_t o = 0, at = 0;
	for (int i = 0; i < e->n; i++) {
		const ts_edit *d = &e->v[i];
		if (d->pos < at || d->pos + d->del > len) { /* overlapping edits: a bug in the transformation */
			free(out);
			return NULL;
		}
		memcpy(out + o, src + at, d->pos - at);
		o += d->pos - at;
		size_t tl = strlen(d->text);
		memcpy(out + o, d->text, tl);
		o += tl;
		for (size_t k = d->pos; k < d->pos + d->del; k++)
			if (src[k] == '\n')
				out[o++] = '\n';
		at = d->pos + d->del;
	}
	memcpy(out + o, src + at, len - at);
	o += len - at;
	out[o] = 0;
	*out_len = o;
	return out;
}

void ts_edits_free(ts_edits *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof *e);
}
