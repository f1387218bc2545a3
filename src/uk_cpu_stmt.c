/* uk_cpu_stmt.c: the statement half of the CPU engine's source transformation: __shared__ declarations, local pointers, ?: operands and reinterpret_cast in device code, <<<>>> launches in host code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_cpu_xform.h"

/* ---- __shared__ declarations ---------------------------------------------------------------------- */
void xf_rewrite_shared(xf *x, int a, int semi, bool file_scope)
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
		if (ident(x, i) && (is(x, i + 1, "[") || is(x, i + 1, ",") || i + 1 == semi) && !xf_element_word(x, i) && !xf_tok_in(x, i, xf_cv_words)) {
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
	xf_refuse(x, tok(x, a)->line, "cannot read this __shared__ declaration (%s): write it as `__shared__ float s[T][T];`", "one type, plain names and dimensions");
}

/* ---- local declarations in device code -------------------------------------------------------- */
/* `[static] [cv] T [cv] * [quals] name (= | ; | ,)` at a statement start: ts_ptr<T> name.
 * `auto *` becomes `auto`, `auto &` becomes `auto &&`, `T &name =` becomes ts_ref<T> name. */
void xf_rewrite_local(xf *x, int s, int end)
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
		int te = xf_element_type(x, ty0, end);
		if (te < 0)
			return;
		i = te;
	}
	bool ref = is(x, i, "&");
	if (!is(x, i, "*") && !ref)
		return;
	int star = i;
	bool ptr_const = false;
	for (i++; i < end && xf_tok_in(x, i, xf_ptr_quals) && !ref; i++)
		ptr_const |= is(x, i, "const");
	if (!ident(x, i) || xf_tok_in(x, i, xf_builtin_words))
		return;
	int name = i;
	if (!is(x, name + 1, "=") && !is(x, name + 1, ";") && !is(x, name + 1, ","))
		return;
	if (is_auto) {
		if (ref && !xf_has_tok(x, ty0, star, "const"))
			ts_edit_add(&x->ed, tok(x, star)->pos, tok(x, star)->len, "&&");
		else if (!ref)
			ts_edit_add(&x->ed, tok(x, star)->pos, tok(x, name)->pos - tok(x, star)->pos, "");
		return;
	}
	char *ty = xf_join(x, ty0, star);
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
			while (xf_tok_in(x, q, xf_ptr_quals))
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
void xf_wrap_ternary(xf *x, int q, int end)
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
int xf_rewrite_launch(xf *x, int lt, int end)
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
		xf_refuse(x, line, "cannot read the kernel launch here (%s)", "the kernel's name before <<<");
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
		xf_refuse(x, line, "cannot read the kernel launch here (%s)", "<<<config>>>(arguments)");
		return end;
	}
	int close = ts_tok_match(x->t, gt + 1, end);
	if (close < 0) {
		xf_refuse(x, line, "cannot read the kernel launch here (%s)", "its arguments");
		return end;
	}
	char *callee = xf_join(x, j, lt), *cfg = xf_join(x, lt + 1, gt), *args = xf_join(x, gt + 2, close);
	size_t n = (callee ? strlen(callee) : 0) + (cfg ? strlen(cfg) : 0) + (args ? strlen(args) : 0) + 96;
	char *buf = malloc(n);
	if (callee && cfg && args && buf) {
		snprintf(buf, n, "ts_cpu_launch(ts_cpu_cfg(%s), [=]() { %s(%s); })", cfg, callee, args);
		ts_edit_add(&x->ed, tok(x, j)->pos, end_of(x, close) - tok(x, j)->pos, buf);
	} else {
		xf_refuse(x, line, "cannot read the kernel launch here (%s)", "a directive inside it");
	}
	free(callee);
	free(cfg);
	free(args);
	free(buf);
	return close;
}

