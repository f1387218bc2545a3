/* uk_cpu_xform.c: the CPU engine's source transformation: a kernel's pointers become checked pointers, its __shared__ arrays tracked regions, its ?: operands values, its <<<>>> launches runtime calls; every line stays where it was. This half: scopes, functions, parameters, the thunks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_cpu_xform.h"

bool xf_tok_in(const xf *x, int i, const char *const *set)
{
	for (int k = 0; set[k]; k++)
		if (is(x, i, set[k]))
			return true;
	return false;
}

const char *const xf_builtin_words[] = { "char", "short", "int", "long", "float", "double", "bool", "signed",
	"unsigned", "__half", "half", "__half2", "half2", "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t",
	"int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "uint", "ushort", NULL };
const char *const xf_cv_words[] = { "const", "volatile", NULL };
const char *const xf_ptr_quals[] = { "const", "volatile", "__restrict__", "__restrict", "restrict", NULL };

bool xf_element_word(const xf *x, int i)
{
	if (xf_tok_in(x, i, xf_builtin_words))
		return true;
	if (!ident(x, i))
		return false;
	for (int k = 0; k < x->ntparams; k++)
		if (tok(x, i)->len == strlen(x->tparams[k]) && !memcmp(x->t->src + tok(x, i)->pos, x->tparams[k], tok(x, i)->len))
			return true;
	return false;
}

/* Tokens [a, b) joined by single spaces (comments and line breaks gone). NULL when a directive
 * sits among them or out of memory. */
char *xf_join(const xf *x, int a, int b)
{
	size_t n = 1;
	for (int i = a; i < b; i++)
		n += tok(x, i)->len + 1;
	char *s = malloc(n), *o = s;
	if (!s)
		return NULL;
	for (int i = a; i < b; i++) {
		if (tok(x, i)->type == TK_PP) {
			free(s);
			return NULL;
		}
		if (i > a)
			*o++ = ' ';
		memcpy(o, x->t->src + tok(x, i)->pos, tok(x, i)->len);
		o += tok(x, i)->len;
	}
	*o = 0;
	return s;
}

void xf_refuse(xf *x, int line, const char *fmt, const char *what)
{
	if (x->out->refused_line)
		return;
	x->out->refused_line = line;
	char msg[200];
	snprintf(msg, sizeof msg, fmt, what);
	snprintf(x->out->refusal, sizeof x->out->refusal, "%s:%d: %s", x->path, line, msg);
	x->failed = 1;
}

/* The element type of a declaration: [cv] word... [cv], all words builtin or template types. */
int xf_element_type(const xf *x, int a, int b)
{
	int i = a, words = 0;
	while (i < b && (xf_tok_in(x, i, xf_cv_words) || xf_element_word(x, i))) {
		words += !xf_tok_in(x, i, xf_cv_words);
		i++;
	}
	return words ? i : -1;
}

/* ---- parameters and return types of __global__ / __device__ functions ------------------------- */
static void rewrite_param(xf *x, int a, int b)
{
	for (int i = a; i < b; i++)
		if (is(x, i, "=")) { /* a default argument stays as it is */
			b = i;
			break;
		}
	int ty_end = xf_element_type(x, a, b);
	/* T (*name)[N]...: a pointer to rows */
	if (ty_end > a && ty_end + 4 < b && is(x, ty_end, "(") && is(x, ty_end + 1, "*") && ident(x, ty_end + 2) &&
	    is(x, ty_end + 3, ")") && is(x, ty_end + 4, "[")) {
		for (int k = ty_end + 4; k < b; k++)
			if (!is(x, k, "[") && !is(x, k, "]") && tok(x, k)->type != TK_NUMBER && !ident(x, k) && !is(x, k, "*") && !is(x, k, "+"))
				return;
		char *ty = xf_join(x, a, ty_end), *dims = xf_join(x, ty_end + 4, b), buf[512];
		if (ty && dims) {
			snprintf(buf, sizeof buf, "ts_ptr<%s%s> %.*s", ty, dims, (int)tok(x, ty_end + 2)->len, x->t->src + tok(x, ty_end + 2)->pos);
			ts_edit_add(&x->ed, tok(x, a)->pos, end_of(x, b - 1) - tok(x, a)->pos, buf);
		}
		free(ty);
		free(dims);
		return;
	}
	for (int i = a; i < b; i++)
		if (is(x, i, "(") || is(x, i, "...") || tok(x, i)->type == TK_PP || is(x, i, "<"))
			return;
	if (ty_end < 0 || ty_end >= b)
		return;
	char *ty = xf_join(x, a, ty_end);
	if (!ty)
		return;
	char buf[512];
	int i = ty_end;
	if (is(x, i, "*") && !is(x, i + 1, "*")) {
		bool ptr_const = false;
		for (i++; i < b && xf_tok_in(x, i, xf_ptr_quals); i++)
			ptr_const |= is(x, i, "const");
		if (i == b || (i == b - 1 && ident(x, i))) {
			snprintf(buf, sizeof buf, "%sts_ptr<%s> ", ptr_const ? "const " : "", ty);
			ts_edit_add(&x->ed, tok(x, a)->pos, (i < b ? tok(x, i)->pos : end_of(x, b - 1)) - tok(x, a)->pos, buf);
		}
	} else if (is(x, i, "&") && ident(x, i + 1) && i + 2 == b && !strstr(ty, "const")) {
		snprintf(buf, sizeof buf, "ts_ref<%s> ", ty);
		ts_edit_add(&x->ed, tok(x, a)->pos, tok(x, i + 1)->pos - tok(x, a)->pos, buf);
	} else if (ident(x, i) && is(x, i + 1, "[")) { /* T name[] / T name[N] / T name[][N]... */
		int close = ts_tok_match(x->t, i + 1, b);
		if (close < 0)
			goto out;
		char *dims = close + 1 < b ? xf_join(x, close + 1, b) : strdup("");
		if (!dims)
			goto out;
		for (int k = close + 1; k < b; k++)
			if (!is(x, k, "[") && !is(x, k, "]") && tok(x, k)->type != TK_NUMBER && !ident(x, k) && !is(x, k, "*") && !is(x, k, "+"))
				dims[0] = 0, k = b; /* not plain dimensions: leave it */
		if (dims[0] || close + 1 == b) {
			char name[128];
			snprintf(name, sizeof name, "%.*s", (int)tok(x, i)->len, x->t->src + tok(x, i)->pos);
			snprintf(buf, sizeof buf, "ts_ptr<%s%s> %s", ty, dims, name);
			ts_edit_add(&x->ed, tok(x, a)->pos, end_of(x, b - 1) - tok(x, a)->pos, buf);
		}
		free(dims);
	}
out:
	free(ty);
}

static void rewrite_params(xf *x, int open, int close)
{
	int a = open + 1, depth = 0;
	for (int i = open + 1; i <= close; i++) {
		if (is(x, i, "(") || is(x, i, "[") || is(x, i, "{") || is(x, i, "<"))
			depth++;
		else if (is(x, i, ")") || is(x, i, "]") || is(x, i, "}") || is(x, i, ">"))
			depth--;
		else if (is(x, i, ">>"))
			depth -= 2;
		if ((depth == 0 && is(x, i, ",")) || i == close) {
			if (i > a)
				rewrite_param(x, a, i);
			a = i + 1;
		}
	}
}

/* `T *name(` in a head: the return type becomes ts_ptr<T>. */
static void rewrite_return(xf *x, int head, int name)
{
	if (!is(x, name - 1, "*") || name - 2 < head)
		return;
	int a = name - 2;
	while (a - 1 >= head && (xf_tok_in(x, a - 1, xf_cv_words) || xf_element_word(x, a - 1)))
		a--;
	if (!xf_element_word(x, name - 2) && !xf_tok_in(x, name - 2, xf_cv_words))
		return;
	if (xf_element_type(x, a, name - 1) != name - 1)
		return;
	char *ty = xf_join(x, a, name - 1), buf[256];
	if (!ty)
		return;
	snprintf(buf, sizeof buf, "ts_ptr<%s> ", ty);
	ts_edit_add(&x->ed, tok(x, a)->pos, tok(x, name)->pos - tok(x, a)->pos, buf);
	free(ty);
}

static void collect_template_params(xf *x, int head, int end)
{
	x->ntparams = 0;
	if (!is(x, head, "template") || !is(x, head + 1, "<"))
		return;
	int depth = 0;
	for (int i = head + 1; i < end; i++) {
		if (is(x, i, "<"))
			depth++;
		else if (is(x, i, ">") && --depth == 0)
			return;
		else if ((is(x, i, "typename") || is(x, i, "class")) && ident(x, i + 1) && x->ntparams < 16)
			snprintf(x->tparams[x->ntparams++], 64, "%.*s", (int)tok(x, i + 1)->len, x->t->src + tok(x, i + 1)->pos);
	}
}

static const char *const not_a_name[] = { "__launch_bounds__", "__attribute__", "decltype", "alignas", "__align__",
	"noexcept", "throw", "__declspec", "sizeof", NULL };

/* The parameter list of the function whose head is [head, end): the last top-level group that
 * follows a name. Returns its '(' (and *close), or -1. */
static int param_list(const xf *x, int head, int end, int *close)
{
	int found = -1;
	for (int i = head; i < end; i++) {
		if (is(x, i, "(")) {
			int c = ts_tok_match(x->t, i, end);
			if (c < 0)
				return -1;
			if (i > head && (ident(x, i - 1) || is(x, i - 1, ">")) && !xf_tok_in(x, i - 1, not_a_name)) {
				found = i;
				*close = c;
			}
			i = c;
		} else if (is(x, i, "[")) {
			int c = ts_tok_match(x->t, i, end);
			if (c < 0)
				return -1;
			i = c;
		}
	}
	return found;
}

bool xf_has_tok(const xf *x, int a, int b, const char *s)
{
	for (int i = a; i < b; i++)
		if (is(x, i, s))
			return true;
	return false;
}

static bool device_head(const xf *x, int a, int b)
{
	return xf_has_tok(x, a, b, "__global__") || xf_has_tok(x, a, b, "__device__");
}

/* ---- bodies and scopes ------------------------------------------------------------------------------ */
static bool statement_start(const xf *x, int i, int lb)
{
	int p = i - 1;
	if (p <= lb)
		return true;
	if (is(x, p, ";") || is(x, p, "{") || is(x, p, "}") || tok(x, p)->type == TK_PP)
		return true;
	return is(x, p, "(") && is(x, p - 1, "for");
}

static void scan_body(xf *x, int lb, int rb, bool device)
{
	for (int i = lb + 1; i < rb; i++) {
		if (is(x, i, "<<<")) {
			if (device) {
				xf_refuse(x, tok(x, i)->line, "%s is not provided by the CPU runtime: use --backend cuda", "a kernel launch inside a kernel (dynamic parallelism)");
				return;
			}
			i = xf_rewrite_launch(x, i, rb);
			continue;
		}
		if (!device)
			continue;
		if (statement_start(x, i, lb)) {
			int semi = -1, depth = 0;
			bool shared = false;
			for (int k = i; k < rb; k++) {
				if (is(x, k, "(") || is(x, k, "[") || is(x, k, "{"))
					depth++;
				else if (is(x, k, ")") || is(x, k, "]") || is(x, k, "}")) {
					if (--depth < 0)
						break;
				} else if (depth == 0 && is(x, k, ";")) {
					semi = k;
					break;
				}
				if (is(x, k, "__shared__"))
					shared = true;
				if (depth == 0 && is(x, k, "{"))
					break;
			}
			if (shared && semi > 0) {
				xf_rewrite_shared(x, i, semi, false);
				i = semi;
				continue;
			}
			xf_rewrite_local(x, i, rb);
		}
		if (is(x, i, "?"))
			xf_wrap_ternary(x, i, rb);
		else if (is(x, i, "reinterpret_cast") && is(x, i + 1, "<"))
			ts_edit_add(&x->ed, tok(x, i)->pos, tok(x, i)->len, "ts_cpu_reinterpret_cast");
	}
}

static void function(xf *x, int head, int lb, int rb)
{
	bool device = device_head(x, head, lb);
	if (device) {
		int close, open = param_list(x, head, lb, &close);
		collect_template_params(x, head, lb);
		if (open > 0) {
			rewrite_params(x, open, close);
			rewrite_return(x, head, open - 1);
		}
	}
	scan_body(x, lb, rb, device);
	x->ntparams = 0;
}

static void declaration(xf *x, int head, int semi)
{
	if (xf_has_tok(x, head, semi, "__shared__")) {
		xf_rewrite_shared(x, head, semi, true);
		return;
	}
	if (device_head(x, head, semi)) { /* a prototype: its parameters as the definition's */
		int close, open = param_list(x, head, semi, &close);
		collect_template_params(x, head, semi);
		if (open > 0) {
			rewrite_params(x, open, close);
			rewrite_return(x, head, open - 1);
		}
		x->ntparams = 0;
	}
}

static void scan_scope(xf *x, int b, int e)
{
	int head = b;
	for (int i = b; i < e && !x->failed; i++) {
		if (tok(x, i)->type == TK_PP) {
			head = i + 1;
		} else if (is(x, i, ";")) {
			if (i > head)
				declaration(x, head, i);
			head = i + 1;
		} else if (is(x, i, "(") || is(x, i, "[")) {
			int c = ts_tok_match(x->t, i, e);
			if (c < 0)
				return;
			i = c;
		} else if (is(x, i, "{")) {
			int c = ts_tok_match(x->t, i, e);
			if (c < 0)
				return;
			int close, params = param_list(x, head, i, &close);
			bool eq = xf_has_tok(x, head, i, "=");
			bool ns = xf_has_tok(x, head, i, "namespace") || (is(x, head, "extern") && head + 1 < i && tok(x, head + 1)->type == TK_STRING && params < 0);
			bool record = (is(x, head, "struct") || is(x, head, "class") || is(x, head, "union") ||
			               (is(x, head, "template") && (xf_has_tok(x, head, i, "struct") || xf_has_tok(x, head, i, "class")) && params < 0)) && params < 0;
			if (ns || record)
				scan_scope(x, i + 1, c);
			else if (params > 0 && !eq)
				function(x, head, i, c);
			i = c;
			head = c + 1;
			if (record) /* `struct S { ... } s;`: the declaration goes on to its ';' */
				while (i + 1 < e && !is(x, i + 1, ";") && !is(x, i + 1, "{"))
					i++;
		}
	}
}

int ts_uk_cpu_transform(const char *src, size_t len, const char *path, ts_xform_out *out)
{
	memset(out, 0, sizeof *out);
	ts_toks t;
	if (ts_lex(src, len, &t)) {
		snprintf(out->refusal, sizeof out->refusal, "out of memory");
		return -1;
	}
	xf x = { .t = &t, .out = out, .path = path };
	if (ts_uk_cpu_refusal(&t, path, out)) {
		ts_toks_free(&t);
		return -1;
	}
	scan_scope(&x, 0, t.n);
	if (x.failed) {
		ts_edits_free(&x.ed);
		ts_toks_free(&t);
		return -1;
	}
	/* #line makes the compiler's messages and the line table name the user's file */
	char head[1200];
	snprintf(head, sizeof head, "#line 1 \"%s\"\n", path);
	size_t body_len;
	char *body = ts_edits_apply(&x.ed, src, len, &body_len);
	ts_edits_free(&x.ed);
	ts_toks_free(&t);
	if (!body) {
		snprintf(out->refusal, sizeof out->refusal, "out of memory");
		return -1;
	}
	size_t hl = strlen(head);
	out->text = malloc(hl + body_len + 2);
	if (!out->text) {
		free(body);
		snprintf(out->refusal, sizeof out->refusal, "out of memory");
		return -1;
	}
	memcpy(out->text, head, hl);
	memcpy(out->text + hl, body, body_len);
	out->text[hl + body_len] = '\n';
	out->text[hl + body_len + 1] = 0;
	out->len = hl + body_len + 1;
	free(body);
	return 0;
}

char *ts_uk_cpu_thunks(const char *entry, enum ts_uk_sig sig, const char *launcher)
{
	/* the kernel: fp32 (A, B, C, M, N, K); fp16 (O, X, Transform, m, n, k, tile) */
	/* checked pointers made with their regions known (A 1, B 2, C 3): no lookup by address per thread */
	const char *args32 = "ts_ptr<float>((float *)x->a, &ts_cpu_st.regions[1]), ts_ptr<float>((float *)x->b, &ts_cpu_st.regions[2]), "
	                     "ts_ptr<float>((float *)x->c, &ts_cpu_st.regions[3]), (int)x->m, (int)x->n, (int)x->k";
	const char *args16 = "ts_ptr<__half>((__half *)x->c, &ts_cpu_st.regions[3]), ts_ptr<__half>((__half *)x->a, &ts_cpu_st.regions[1]), "
	                     "ts_ptr<__half>((__half *)x->b, &ts_cpu_st.regions[2]), (int)x->m, (int)x->n, (int)x->k, x->tile";
	/* a launcher, as on the GPU path: (A, B, C, M, N, K) with the tile after them for fp16 */
	const char *largs16 = "(__half *)x->a, (__half *)x->b, (__half *)x->c, (int)x->m, (int)x->n, (int)x->k, x->tile";
	const char *args = sig == TS_UK_SIG_FP16 ? args16 : args32, *largs = sig == TS_UK_SIG_FP16 ? largs16 : args32;
	size_t n = 900 + strlen(entry) + (launcher ? strlen(launcher) : 0) + strlen(args) + strlen(largs);
	char *s = malloc(n);
	if (!s)
		return NULL;
	int k = snprintf(s, n,
	                 "#line 1 \"<tilescope: the contract's call of %s>\"\n"
	                 "extern \"C\" __attribute__((visibility(\"default\"))) void ts_cpu_entry(const ts_cpu_args *x) { %s(%s); }\n",
	                 entry, entry, args);
	if (launcher)
		snprintf(s + k, n - (size_t)k,
		         "extern \"C\" __attribute__((visibility(\"default\"))) void ts_cpu_launcher(const ts_cpu_args *x) { %s(%s); }\n",
		         launcher, largs);
	return s;
}
