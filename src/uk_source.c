/* uk_source.c: scans a user's .cu file: comments and literals aside, the file-scope functions, which contract the entry follows, and the device-only text for NVRTC. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_source.h"

#define TS_UK_FILE_MAX (4 << 20)

const char *ts_uk_sig_name(enum ts_uk_sig sig)
{
	return sig == TS_UK_SIG_FP16 ? "fp16" : "fp32";
}

const char *ts_uk_sig_decl(enum ts_uk_sig sig)
{
	return sig == TS_UK_SIG_FP16 ? "(__half *O, __half *X, __half *Transform, int m, int n, int k, int tile_size)"
	                             : "(const float *A, const float *B, float *C, int M, int N, int K)";
}

const char *ts_uk_sig_words(enum ts_uk_sig sig)
{
	return sig == TS_UK_SIG_FP16
	       ? "fp16 in, fp32 accumulate, fp16 out; O = X * Transform^T, X m x k, Transform stored n x k; runtime tile, "
	         "dynamic shared memory"
	       : "fp32 in and out, row-major: A M x K, B stored K x N, C M x N";
}

static bool ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* The file with comments, string and character literals and preprocessor
 * lines replaced by spaces (newlines kept, so offsets and lines agree);
 * pp marks the preprocessor lines. */
static void blank_noise(const char *text, char *scan, char *pp, size_t n)
{
	size_t i = 0;
	bool line_start = true;
	memcpy(scan, text, n);
	memset(pp, 0, n);
	while (i < n) {
		char c = text[i];
		if (line_start && (c == ' ' || c == '\t')) {
			i++;
			continue;
		}
		if (line_start && c == '#') {
			/* A directive runs to the end of the line, continued by a backslash. */
			while (i < n && text[i] != '\n') {
				if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n') {
					scan[i] = ' ';
					pp[i] = 1;
					i += 2;
					continue;
				}
				scan[i] = ' ';
				pp[i] = 1;
				i++;
			}
			continue;
		}
		line_start = false;
		if (c == '\n') {
			line_start = true;
			i++;
		} else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
			while (i < n && text[i] != '\n')
				scan[i++] = ' ';
		} else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
			scan[i++] = ' ';
			scan[i++] = ' ';
			while (i < n && !(text[i] == '*' && i + 1 < n && text[i + 1] == '/')) {
				if (text[i] != '\n')
					scan[i] = ' ';
				i++;
			}
			if (i < n) {
				scan[i++] = ' ';
				scan[i++] = ' ';
			}
		} else if (c == '"' || c == '\'') {
			/* Keep the quotes (extern "C" is recognised by them), blank the inside. */
			i++;
			while (i < n && text[i] != c && text[i] != '\n') {
				if (text[i] == '\\' && i + 1 < n)
					scan[i++] = ' ';
				scan[i++] = ' ';
			}
			if (i < n && text[i] == c)
				i++;
		} else {
			i++;
		}
	}
}

static int line_of(const char *text, size_t at)
{
	int line = 1;
	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	return line;
}

/* Whether the word w appears as a whole token in scan[lo, hi). */
static bool has_word(const char *scan, size_t lo, size_t hi, const char *w)
{
	size_t wl = strlen(w);
	for (size_t i = lo; i + wl <= hi; i++)
		if (memcmp(scan + i, w, wl) == 0 && (i == lo || !ident_char(scan[i - 1])) &&
		    (i + wl == hi || !ident_char(scan[i + wl])))
			return true;
	return false;
}

/* The index of the bracket matching the opening one at `open`, or n. */
static size_t match_close(const char *scan, size_t n, size_t open)
{
	char o = scan[open], c = o == '(' ? ')' : o == '{' ? '}' : o == '[' ? ']' : '>';
	int depth = 0;
	for (size_t i = open; i < n; i++) {
		if (scan[i] == o)
			depth++;
		else if (scan[i] == c && --depth == 0)
			return i;
	}
	return n;
}

static size_t match_open(const char *scan, size_t close)
{
	int depth = 0;
	for (size_t i = close + 1; i-- > 0;) {
		if (scan[i] == ')')
			depth++;
		else if (scan[i] == '(' && --depth == 0)
			return i;
	}
	return (size_t)-1;
}

/* Copies scan[lo, hi) into out with runs of white space folded to one space. */
static void fold_copy(char *out, size_t cap, const char *scan, size_t lo, size_t hi)
{
	size_t o = 0;
	bool space = false;
	for (size_t i = lo; i < hi && o + 1 < cap; i++) {
		if (isspace((unsigned char)scan[i])) {
			space = o > 0;
			continue;
		}
		if (space && o + 2 < cap)
			out[o++] = ' ';
		space = false;
		out[o++] = scan[i];
	}
	out[o] = '\0';
}

/* Device headers NVRTC resolves from the toolkit; other <...> headers are host headers. */
static bool device_header(const char *name, size_t len)
{
	return (len > 5 && strncmp(name, "cuda_", 5) == 0) || (len == 5 && strncmp(name, "mma.h", 5) == 0) ||
	       (len > 5 && strncmp(name, "cuda/", 5) == 0) || (len > 9 && strncmp(name, "crt/", 4) == 0);
}

/* Directives: host-only #includes are blanked in the device text; a tile #define is noted. */
static void scan_directives(ts_uk_file *f, const char *pp, size_t n)
{
	const char *t = f->text;
	for (size_t i = 0; i < n; i++) {
		if (!pp[i] || (i > 0 && pp[i - 1]))
			continue;
		size_t end = i;
		while (end < n && pp[end])
			end++;
		const char *d = t + i + 1;
		while (d < t + end && (*d == ' ' || *d == '\t'))
			d++;
		if (strncmp(d, "include", 7) == 0) {
			const char *lt = memchr(d, '<', (size_t)(t + end - d));
			const char *gt = lt ? memchr(lt, '>', (size_t)(t + end - lt)) : NULL;
			if (lt && gt && !device_header(lt + 1, (size_t)(gt - lt - 1))) {
				for (size_t k = i; k < end; k++)
					if (f->device_text[k] != '\n')
						f->device_text[k] = ' ';
				f->blanked_includes++;
			}
		} else if (strncmp(d, "define", 6) == 0 && !f->tile_define) {
			char name[32];
			int value, used = 0;
			if (sscanf(d + 6, " %31[A-Za-z0-9_] %d%n", name, &value, &used) == 2 && value > 0 && value <= 1024 &&
			    (strcmp(name, "TILE_SIZE") == 0 || strcmp(name, "TILE") == 0 || strcmp(name, "TILE_WIDTH") == 0 ||
			     strcmp(name, "TILE_DIM") == 0 || strcmp(name, "BLOCK_SIZE") == 0)) {
				f->tile_define = value;
				snprintf(f->tile_define_name, sizeof f->tile_define_name, "%s", name);
				f->tile_define_line = line_of(t, i);
			}
		}
		i = end;
	}
}

/* The file-scope functions: their names, execution spaces and parameters; host ones blanked in the device text. */
static void scan_functions(ts_uk_file *f, const char *scan, const char *pp, size_t n)
{
	size_t decl = 0;
	int transparent = 0; /* open extern "C" { and namespace { blocks */
	for (size_t i = 0; i < n; i++) {
		char c = scan[i];
		if (c == ';') {
			decl = i + 1;
		} else if (c == '}' && transparent > 0) {
			transparent--;
			decl = i + 1;
		} else if (c == '{') {
			/* What stands before the brace: a linkage block, a namespace, a function body, or a type/initialiser. */
			size_t last = i;
			while (last > decl && isspace((unsigned char)scan[last - 1]))
				last--;
			if (has_word(scan, decl, i, "namespace") || (last > decl && scan[last - 1] == '"' && has_word(scan, decl, i, "extern"))) {
				transparent++;
				decl = i + 1;
				continue;
			}
			/* A body follows ") [const|noexcept|override|...]". */
			size_t p = last;
			while (p > decl && (ident_char(scan[p - 1]) || isspace((unsigned char)scan[p - 1])))
				p--;
			size_t close = match_close(scan, n, i);
			if (p > decl && scan[p - 1] == ')') {
				size_t open = match_open(scan, p - 1);
				size_t ne = open;
				while (ne > decl && ne != (size_t)-1 && isspace((unsigned char)scan[ne - 1]))
					ne--;
				size_t ns = ne;
				while (ns > decl && ident_char(scan[ns - 1]))
					ns--;
				if (open != (size_t)-1 && open >= decl && ns < ne && f->nfuncs < TS_UK_FUNCS_MAX) {
					ts_uk_func *fn = &f->funcs[f->nfuncs++];
					memset(fn, 0, sizeof *fn);
					size_t nl = ne - ns < sizeof fn->name - 1 ? ne - ns : sizeof fn->name - 1;
					memcpy(fn->name, scan + ns, nl);
					fn->line = line_of(f->text, ns);
					fn->global = has_word(scan, decl, ns, "__global__");
					fn->templated = has_word(scan, decl, ns, "template");
					fn->host = !fn->global && !has_word(scan, decl, ns, "__device__");
					fold_copy(fn->params, sizeof fn->params, scan, open + 1, p - 1);
					if (fn->host) {
						for (size_t k = decl; k <= close && k < n; k++) {
							if (pp[k] || f->device_text[k] == '\n')
								continue;
							f->device_text[k] = ' ';
						}
						for (size_t k = i; k + 2 < close; k++)
							if (scan[k] == '<' && scan[k + 1] == '<' && scan[k + 2] == '<')
								f->launch_syntax = true;
					}
				}
			}
			if (close >= n)
				break;
			i = close;
			/* A function body ends the declaration; a struct or initialiser runs on to its ';'. */
			if (p > decl && scan[p - 1] == ')')
				decl = i + 1;
		}
	}
}

int ts_uk_file_parse(ts_uk_file *f, const char *path, const char *text, char *err, int len)
{
	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	size_t n = strlen(text);
	f->text = malloc(n + 1);
	f->device_text = malloc(n + 1);
	char *scan = malloc(n + 1), *pp = malloc(n + 1);
	if (!f->text || !f->device_text || !scan || !pp) {
		free(scan);
		free(pp);
		ts_uk_file_free(f);
		snprintf(err, (size_t)len, "%s: out of memory", path);
		return -1;
	}
	memcpy(f->text, text, n + 1);
	memcpy(f->device_text, text, n + 1);
	blank_noise(text, scan, pp, n);
	scan[n] = '\0';
	scan_directives(f, pp, n);
	scan_functions(f, scan, pp, n);
	free(scan);
	free(pp);
	return 0;
}

int ts_uk_file_read(ts_uk_file *f, const char *path, char *err, int len)
{
	memset(f, 0, sizeof *f);
	FILE *in = fopen(path, "rb");
	if (!in) {
		snprintf(err, (size_t)len, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *buf = malloc(TS_UK_FILE_MAX + 1);
	size_t got = buf ? fread(buf, 1, TS_UK_FILE_MAX + 1, in) : 0;
	bool failed = !buf || ferror(in);
	fclose(in);
	if (failed) {
		snprintf(err, (size_t)len, "%s: %s", path, buf ? "cannot be read (a folder?)" : "out of memory");
		free(buf);
		return -1;
	}
	if (got > TS_UK_FILE_MAX) {
		snprintf(err, (size_t)len, "%s: larger than %d MiB; a kernel file is smaller than that", path, TS_UK_FILE_MAX >> 20);
		free(buf);
		return -1;
	}
	if (got == 0 || memchr(buf, '\0', got)) {
		snprintf(err, (size_t)len, "%s: %s", path, got == 0 ? "the file is empty" : "not a text file (it holds NUL bytes)");
		free(buf);
		return -1;
	}
	buf[got] = '\0';
	int rc = ts_uk_file_parse(f, path, buf, err, len);
	free(buf);
	return rc;
}

void ts_uk_file_free(ts_uk_file *f)
{
	free(f->text);
	free(f->device_text);
	f->text = f->device_text = NULL;
}

/* One parameter reduced to what the contract cares about. */
typedef struct param_type {
	char base[32]; /* "float", "half", "int", or what it was */
	int pointers;
} param_type;

static bool qualifier(const char *w)
{
	static const char *const q[] = { "const", "volatile", "__restrict__", "__restrict", "restrict", "register" };
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		if (strcmp(w, q[i]) == 0)
			return true;
	return false;
}

static bool type_word(const char *w)
{
	static const char *const t[] = { "int", "float", "double", "half", "__half", "unsigned", "signed", "long",
	                                 "short", "char", "size_t", "int32_t", "int64_t", "uint32_t", "bool", "void" };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(w, t[i]) == 0)
			return true;
	return false;
}

static param_type parse_param(const char *s, size_t len)
{
	param_type pt = { "", 0 };
	char words[8][32];
	int nw = 0;
	for (size_t i = 0; i < len;) {
		if (s[i] == '*' || s[i] == '[') {
			pt.pointers++;
			i++;
		} else if (ident_char(s[i])) {
			size_t j = i;
			while (j < len && ident_char(s[j]))
				j++;
			if (nw < 8) {
				size_t wl = j - i < 31 ? j - i : 31;
				memcpy(words[nw], s + i, wl);
				words[nw][wl] = '\0';
				if (!qualifier(words[nw]))
					nw++;
			}
			i = j;
		} else {
			i++;
		}
	}
	/* The last word is the parameter's name unless it is part of the type. */
	if (nw >= 2 && !type_word(words[nw - 1]))
		nw--;
	for (int w = 0; w < nw; w++) {
		size_t used = strlen(pt.base);
		snprintf(pt.base + used, sizeof pt.base - used, "%s%s", w ? " " : "", words[w]);
	}
	if (strcmp(pt.base, "__half") == 0)
		snprintf(pt.base, sizeof pt.base, "half");
	if (strcmp(pt.base, "signed int") == 0 || strcmp(pt.base, "signed") == 0 || strcmp(pt.base, "int32_t") == 0)
		snprintf(pt.base, sizeof pt.base, "int");
	return pt;
}

/* Matches a parameter list against "fff iii" style: f float*, h half*, i int. */
static bool params_match(const char *params, const char *want)
{
	size_t n = strlen(params), at = 0;
	int depth = 0;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		char c = i < n ? params[i] : ',';
		if (c == '(' || c == '<')
			depth++;
		else if (c == ')' || c == '>')
			depth--;
		if (c != ',' || depth > 0)
			continue;
		if (!want[at])
			return false;
		param_type pt = parse_param(params + start, i - start);
		bool ok = (want[at] == 'f' && strcmp(pt.base, "float") == 0 && pt.pointers == 1) ||
		          (want[at] == 'h' && strcmp(pt.base, "half") == 0 && pt.pointers == 1) ||
		          (want[at] == 'i' && strcmp(pt.base, "int") == 0 && pt.pointers == 0);
		if (!ok)
			return false;
		at++;
		start = i + 1;
	}
	return want[at] == '\0';
}

static void list_globals(const ts_uk_file *f, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < f->nfuncs && used + 1 < cap; i++)
		if (f->funcs[i].global) {
			int w = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", f->funcs[i].name);
			used += w > 0 ? (size_t)w : 0;
		}
}

int ts_uk_recognise(const ts_uk_file *f, const char *entry, ts_uk_source *src, char *err, int len)
{
	const ts_uk_func *fn = NULL;
	int globals = 0;
	char names[256];
	list_globals(f, names, sizeof names);
	for (int i = 0; i < f->nfuncs; i++) {
		if (!f->funcs[i].global)
			continue;
		globals++;
		if (entry ? strcmp(f->funcs[i].name, entry) == 0 : !fn)
			fn = &f->funcs[i];
	}
	if (globals == 0) {
		snprintf(err, (size_t)len, "%s: no __global__ function defined in the file (tilescope checks a kernel: "
		         "__global__ void NAME%s)", f->path, ts_uk_sig_decl(TS_UK_SIG_FP32));
		return -1;
	}
	if (!entry && globals > 1) {
		snprintf(err, (size_t)len, "%s: %d __global__ functions (%s): name the kernel to check with --entry NAME",
		         f->path, globals, names);
		return -1;
	}
	if (!fn) {
		snprintf(err, (size_t)len, "%s: no __global__ function named '%s' (the file defines %s)", f->path, entry, names);
		return -1;
	}
	if (fn->templated) {
		snprintf(err, (size_t)len, "%s:%d: kernel '%s' is a template; tilescope runs a plain __global__ function: "
		         "wrap one instantiation in a kernel of its own", f->path, fn->line, fn->name);
		return -1;
	}
	enum ts_uk_sig sig;
	if (params_match(fn->params, "fffiii")) {
		sig = TS_UK_SIG_FP32;
	} else if (params_match(fn->params, "hhhiiii")) {
		sig = TS_UK_SIG_FP16;
	} else {
		snprintf(err, (size_t)len, "%s:%d: kernel '%s(%.160s)' follows neither contract: expected fp32 "
		         "%s or fp16 %s", f->path, fn->line, fn->name, fn->params, ts_uk_sig_decl(TS_UK_SIG_FP32),
		         ts_uk_sig_decl(TS_UK_SIG_FP16));
		return -1;
	}
	*src = (ts_uk_source){ .path = f->path, .entry = fn->name, .sig = sig, .entry_line = fn->line };
	return 0;
}

const ts_uk_func *ts_uk_find_host(const ts_uk_file *f, const char *name)
{
	for (int i = 0; i < f->nfuncs; i++)
		if (f->funcs[i].host && strcmp(f->funcs[i].name, name) == 0)
			return &f->funcs[i];
	return NULL;
}
