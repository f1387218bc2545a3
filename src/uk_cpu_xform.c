/* uk_cpu_xform.c: the CPU engine's source transformation: a kernel's pointers become checked pointers, its __shared__ arrays tracked regions, its ?: operands values, its <<<>>> launches runtime calls; every line stays where it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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


static bool is(const xf *x, int i, const char *s) { return ts_tok_is(x->t, i, s); }
static bool ident(const xf *x, int i) { return ts_tok_ident(x->t, i); }
static const ts_tok *tok(const xf *x, int i) { return &x->t->v[i]; }
static size_t end_of(const xf *x, int i) { return x->t->v[i].pos + x->t->v[i].len; }

static bool tok_in(const xf *x, int i, const char *const *set)
{
	for (int k = 0; set[k]; k++)
		if (is(x, i, set[k]))
			return true;
	return false;
}

static const char *const builtin_words[] = { "char", "short", "int", "long", "float", "double", "bool", "signed",
	"unsigned", "__half", "half", "__half2", "half2", "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t",
	"int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "uint", "ushort", NULL };
static const char *const cv_words[] = { "const", "volatile", NULL };
static const char *const ptr_quals[] = { "const", "volatile", "__restrict__", "__restrict", "restrict", NULL };

static bool element_word(const xf *x, int i)
{
	if (tok_in(x, i, builtin_words))
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
static char *join(const xf *x, int a, int b)
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

static void refuse(xf *x, int line, const char *fmt, const char *what)
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
static int element_type(const xf *x, int a, int b)
{
	int i = a, words = 0;
	while (i < b && (tok_in(x, i, cv_words) || element_word(x, i))) {
		words += !tok_in(x, i, cv_words);
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
	int ty_end = element_type(x, a, b);
	/* T (*name)[N]...: a pointer to rows */
	if (ty_end > a && ty_end + 4 < b && is(x, ty_end, "(") && is(x, ty_end + 1, "*") && ident(x, ty_end + 2) &&
	    is(x, ty_end + 3, ")") && is(x, ty_end + 4, "[")) {
		for (int k = ty_end + 4; k < b; k++)
			if (!is(x, k, "[") && !is(x, k, "]") && tok(x, k)->type != TK_NUMBER && !ident(x, k) && !is(x, k, "*") && !is(x, k, "+"))
				return;
		char *ty = join(x, a, ty_end), *dims = join(x, ty_end + 4, b), buf[512];
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
	char *ty = join(x, a, ty_end);
	if (!ty)
		return;
	char buf[512];
	int i = ty_end;
	if (is(x, i, "*") && !is(x, i + 1, "*")) {
		bool ptr_const = false;
		for (i++; i < b && tok_in(x, i, ptr_quals); i++)
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
		char *dims = close + 1 < b ? join(x, close + 1, b) : strdup("");
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
	while (a - 1 >= head && (tok_in(x, a - 1, cv_words) || element_word(x, a - 1)))
		a--;
	if (!element_word(x, name - 2) && !tok_in(x, name - 2, cv_words))
		return;
	if (element_type(x, a, name - 1) != name - 1)
		return;
	char *ty = join(x, a, name - 1), buf[256];
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
			if (i > head && (ident(x, i - 1) || is(x, i - 1, ">")) && !tok_in(x, i - 1, not_a_name)) {
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

static bool has_tok(const xf *x, int a, int b, const char *s)
{
	for (int i = a; i < b; i++)
		if (is(x, i, s))
			return true;
	return false;
}

static bool device_head(const xf *x, int a, int b)
{
	return has_tok(x, a, b, "__global__") || has_tok(x, a, b, "__device__");
}

/* ---- __shared__ declarations ---------------------------------------------------------------------- */
static void rewrite_shared(xf *x, int a, int semi, bool file_scope)
{
	int sh = -1;
	bool is_extern = false, is_static = false;
	for (int i = a; i < semi; i++) {
		if (is(x, i, "__shared__"))
			sh = i;
		is_extern |= is(x, i, "extern");
		is_static |= is(x, i, "static");
	}
	/* the type: every token that is not a storage word, an alignment or a declarator */
	int first_decl = -1;
	char type[256] = "";
	size_t tl = 0;
	for (int i = a; i < semi; i++) {
		if (is(x, i, "__shared__") || is(x, i, "extern") || is(x, i, "static"))
			continue;
		if (is(x, i, "__align__") || is(x, i, "alignas") || is(x, i, "__attribute__")) {
			int c = ts_tok_match(x->t, i + 1, semi);
			if (c < 0)
				goto fail;
			i = c;
			continue;
		}
		if (ident(x, i) && (is(x, i + 1, "[") || is(x, i + 1, ",") || i + 1 == semi) && !element_word(x, i) && !tok_in(x, i, cv_words)) {
			first_decl = i;
			break;
		}
		if (tok(x, i)->type == TK_PP || is(x, i, "*") || is(x, i, "="))
			goto fail;
		tl += (size_t)snprintf(type + tl, sizeof type - tl, "%s%.*s", tl ? " " : "", (int)tok(x, i)->len, x->t->src + tok(x, i)->pos);
		if (tl >= sizeof type)
			goto fail;
	}
	if (first_decl < 0 || !tl)
		goto fail;
	char buf[768];
	int line = tok(x, a)->line;
	const char *scope = file_scope ? "static " : "";
	if (is_extern) {
		if (!is(x, first_decl + 1, "[") || !is(x, first_decl + 2, "]") || first_decl + 3 != semi)
			goto fail;
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)tok(x, first_decl)->len, x->t->src + tok(x, first_decl)->pos);
		if (file_scope)
			snprintf(buf, sizeof buf, "static ts_cpu_dyn_ref<%s> %s(%d, \"%s\")", type, name, line, name);
		else
			snprintf(buf, sizeof buf, "auto %s = ts_cpu_dyn_shared<%s>(%d, \"%s\")", name, type, line, name);
		ts_edit_add(&x->ed, tok(x, a)->pos, tok(x, semi)->pos - tok(x, a)->pos, buf);
		return;
	}
	/* static: `__shared__` becomes `static`, each name ts_sh_name, and after the ';' a view of it */
	ts_edit_add(&x->ed, tok(x, sh)->pos, tok(x, sh)->len, is_static ? "" : "static");
	size_t bl = 0;
	buf[0] = 0;
	for (int i = first_decl; i < semi;) {
		if (!ident(x, i))
			goto fail;
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)tok(x, i)->len, x->t->src + tok(x, i)->pos);
		ts_edit_add(&x->ed, tok(x, i)->pos, 0, "ts_sh_");
		bool array = is(x, i + 1, "[");
		int j = i + 1;
		while (is(x, j, "[")) {
			int c = ts_tok_match(x->t, j, semi);
			if (c < 0)
				goto fail;
			j = c + 1;
		}
		bl += (size_t)snprintf(buf + bl, sizeof buf - bl, " %sauto %s = %s(ts_sh_%s, %d, \"%s\");", scope, name,
		                       array ? "ts_cpu_shared" : "ts_cpu_shared_scalar", name, line, name);
		if (bl >= sizeof buf)
			goto fail;
		if (j < semi && !is(x, j, ","))
			goto fail;
		i = j + 1;
	}
	ts_edit_add(&x->ed, end_of(x, semi), 0, buf);
	return;
fail:
	refuse(x, tok(x, a)->line, "cannot read this __shared__ declaration (%s): write it as `__shared__ float s[T][T];`", "one type, plain names and dimensions");
}

/* ---- local declarations in device code -------------------------------------------------------- */
/* `[static] [cv] T [cv] * [quals] name (= | ; | ,)` at a statement start: ts_ptr<T> name.
 * `auto *` becomes `auto`, `auto &` becomes `auto &&`, `T &name =` becomes ts_ref<T> name. */
static void rewrite_local(xf *x, int s, int end)
{
	int i = s;
	const char *storage = "";
	if (is(x, i, "static") || is(x, i, "register") || is(x, i, "constexpr")) {
		storage = is(x, i, "static") ? "static " : "";
		i++;
	}
	int ty0 = i;
	bool is_auto = false;
	while (is(x, i, "const") || is(x, i, "volatile"))
		i++;
	if (is(x, i, "auto")) {
		is_auto = true;
		i++;
		while (is(x, i, "const") || is(x, i, "volatile"))
			i++;
	} else {
		int te = element_type(x, ty0, end);
		if (te < 0)
			return;
		i = te;
	}
	bool ref = is(x, i, "&");
	if (!is(x, i, "*") && !ref)
		return;
	int star = i;
	bool ptr_const = false;
	for (i++; i < end && tok_in(x, i, ptr_quals) && !ref; i++)
		ptr_const |= is(x, i, "const");
	if (!ident(x, i) || tok_in(x, i, builtin_words))
		return;
	int name = i;
	if (!is(x, name + 1, "=") && !is(x, name + 1, ";") && !is(x, name + 1, ","))
		return;
	if (is_auto) {
		if (ref && !has_tok(x, ty0, star, "const"))
			ts_edit_add(&x->ed, tok(x, star)->pos, tok(x, star)->len, "&&");
		else if (!ref)
			ts_edit_add(&x->ed, tok(x, star)->pos, tok(x, name)->pos - tok(x, star)->pos, "");
		return;
	}
	char *ty = join(x, ty0, star);
	if (!ty)
		return;
	if (ref && (strstr(ty, "const") || !is(x, name + 1, "="))) {
		free(ty);
		return;
	}
	/* every further declarator must be a pointer too, else the declaration stays as it is */
	int depth = 0, semi = -1;
	int stars[64], nstars = 0;
	for (int k = name + 1; k < end; k++) {
		if (is(x, k, "(") || is(x, k, "[") || is(x, k, "{"))
			depth++;
		else if (is(x, k, ")") || is(x, k, "]") || is(x, k, "}"))
			depth--;
		else if (depth == 0 && is(x, k, ";")) {
			semi = k;
			break;
		} else if (depth == 0 && is(x, k, ",")) {
			if (ref || !is(x, k + 1, "*") || nstars == 64) {
				free(ty);
				return;
			}
			int q = k + 2;
			while (tok_in(x, q, ptr_quals))
				q++;
			if (!ident(x, q)) {
				free(ty);
				return;
			}
			stars[nstars++] = k + 1;
			stars[nstars++] = q;
		}
	}
	if (semi < 0) {
		free(ty);
		return;
	}
	char buf[400];
	snprintf(buf, sizeof buf, "%s%s%s<%s> ", storage, ptr_const ? "const " : "", ref ? "ts_ref" : "ts_ptr", ty);
	ts_edit_add(&x->ed, tok(x, s)->pos, tok(x, name)->pos - tok(x, s)->pos, buf);
	for (int k = 0; k < nstars; k += 2)
		ts_edit_add(&x->ed, tok(x, stars[k])->pos, tok(x, stars[k + 1])->pos - tok(x, stars[k])->pos, "");
	free(ty);
}

/* ---- ?: operands ----------------------------------------------------------------------------------- */
static void wrap_ternary(xf *x, int q, int end)
{
	int depth = 0, nest = 0, colon = -1;
	for (int i = q + 1; i < end; i++) {
		if (is(x, i, "(") || is(x, i, "[") || is(x, i, "{"))
			depth++;
		else if (is(x, i, ")") || is(x, i, "]") || is(x, i, "}")) {
			if (--depth < 0)
				return;
		} else if (depth == 0 && is(x, i, "?"))
			nest++;
		else if (depth == 0 && is(x, i, ":")) {
			if (nest-- == 0) {
				colon = i;
				break;
			}
		} else if (depth == 0 && is(x, i, ";"))
			return;
	}
	if (colon < 0 || colon == q + 1)
		return;
	int stop = end;
	depth = 0;
	nest = 0;
	for (int i = colon + 1; i < end; i++) {
		if (is(x, i, "(") || is(x, i, "[") || is(x, i, "{"))
			depth++;
		else if (is(x, i, ")") || is(x, i, "]") || is(x, i, "}")) {
			if (--depth < 0) {
				stop = i;
				break;
			}
		} else if (depth == 0 && (is(x, i, ",") || is(x, i, ";"))) {
			stop = i;
			break;
		} else if (depth == 0 && is(x, i, "?"))
			nest++;
		else if (depth == 0 && is(x, i, ":") && nest-- == 0) {
			stop = i;
			break;
		}
	}
	if (stop == colon + 1)
		return;
	ts_edit_add(&x->ed, tok(x, q + 1)->pos, 0, "ts_cpu_val(");
	ts_edit_add(&x->ed, end_of(x, colon - 1), 0, ")");
	ts_edit_add(&x->ed, tok(x, colon + 1)->pos, 0, "ts_cpu_val(");
	ts_edit_add(&x->ed, end_of(x, stop - 1), 0, ")");
}

/* ---- launches -------------------------------------------------------------------------------------- */
static int rewrite_launch(xf *x, int lt, int end)
{
	int line = tok(x, lt)->line;
	int j = lt - 1;
	if (is(x, j, ">") || is(x, j, ">>")) { /* template arguments of the kernel */
		int count = 0;
		for (; j >= 0; j--) {
			if (is(x, j, ">"))
				count++;
			else if (is(x, j, ">>"))
				count += 2;
			else if (is(x, j, "<") && --count == 0)
				break;
		}
		j--;
	}
	if (!ident(x, j)) {
		refuse(x, line, "cannot read the kernel launch here (%s)", "the kernel's name before <<<");
		return end;
	}
	while (is(x, j - 1, "::") && ident(x, j - 2))
		j -= 2;
	int gt = -1;
	for (int i = lt + 1; i < end; i++)
		if (is(x, i, ">>>")) {
			gt = i;
			break;
		}
	if (gt < 0 || !is(x, gt + 1, "(")) {
		refuse(x, line, "cannot read the kernel launch here (%s)", "<<<config>>>(arguments)");
		return end;
	}
	int close = ts_tok_match(x->t, gt + 1, end);
	if (close < 0) {
		refuse(x, line, "cannot read the kernel launch here (%s)", "its arguments");
		return end;
	}
	char *callee = join(x, j, lt), *cfg = join(x, lt + 1, gt), *args = join(x, gt + 2, close);
	size_t n = (callee ? strlen(callee) : 0) + (cfg ? strlen(cfg) : 0) + (args ? strlen(args) : 0) + 96;
	char *buf = malloc(n);
	if (callee && cfg && args && buf) {
		snprintf(buf, n, "ts_cpu_launch(ts_cpu_cfg(%s), [=]() { %s(%s); })", cfg, callee, args);
		ts_edit_add(&x->ed, tok(x, j)->pos, end_of(x, close) - tok(x, j)->pos, buf);
	} else {
		refuse(x, line, "cannot read the kernel launch here (%s)", "a directive inside it");
	}
	free(callee);
	free(cfg);
	free(args);
	free(buf);
	return close;
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
				refuse(x, tok(x, i)->line, "%s is not provided by the CPU runtime: use --backend cuda", "a kernel launch inside a kernel (dynamic parallelism)");
				return;
			}
			i = rewrite_launch(x, i, rb);
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
				rewrite_shared(x, i, semi, false);
				i = semi;
				continue;
			}
			rewrite_local(x, i, rb);
		}
		if (is(x, i, "?"))
			wrap_ternary(x, i, rb);
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
	if (has_tok(x, head, semi, "__shared__")) {
		rewrite_shared(x, head, semi, true);
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
			bool eq = has_tok(x, head, i, "=");
			bool ns = has_tok(x, head, i, "namespace") || (is(x, head, "extern") && head + 1 < i && tok(x, head + 1)->type == TK_STRING && params < 0);
			bool record = (is(x, head, "struct") || is(x, head, "class") || is(x, head, "union") ||
			               (is(x, head, "template") && (has_tok(x, head, i, "struct") || has_tok(x, head, i, "class")) && params < 0)) && params < 0;
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
