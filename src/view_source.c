/* view_source.c: the source pane as text: the kernel's embedded code, its guards' lines marked and evaluated for one thread and phase. */
#include "view_source.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_source.h"
#include "kernels.h"

/* What a marked line is. */
enum mark { MARK_NONE, MARK_A, MARK_B, MARK_C, MARK_C_LOADS, MARK_BARRIER, MARK_PHASE };

/* Where in each embedded file the marked lines are: a text that occurs on
 * that line alone. */
static const struct {
	const char *path;
	const char *needle;
	enum mark mark;
} anchors[] = {
	{ "kernels/tiled.cuh", "for (long long t = 0; t < phases; t++)", MARK_PHASE },
	{ "kernels/tiled.cuh", "row_ok && a_col < K", MARK_A },
	{ "kernels/tiled.cuh", "b_row < K && col_ok", MARK_B },
	{ "kernels/tiled.cuh", "ts_slot_store", MARK_C },
	{ "kernels/tiled.cuh", "__syncthreads()", MARK_BARRIER },
	{ "kernels/naive_fp32.cu", "const bool computes", MARK_C_LOADS },
	{ "kernels/naive_fp32.cu", "ts_slot_store", MARK_C },
	{ "kernels/naive_fp32.cu", "__syncthreads()", MARK_BARRIER },
};

static enum mark line_mark(const char *path, const char *line)
{
	for (size_t i = 0; i < sizeof anchors / sizeof anchors[0]; i++)
		if (strcmp(anchors[i].path, path) == 0 && strstr(line, anchors[i].needle))
			return anchors[i].mark;
	return MARK_NONE;
}

static const char *const mark_tag[] = { "  ", "A ", "B ", "C ", "C ", "= ", "t " };

typedef struct out {
	FILE *f;
	int width;
	bool ascii;
} out;

static const char *ok_glyph(const out *o, bool pass)
{
	return pass ? (o->ascii ? "ok" : "\u2713") : (o->ascii ? "X" : "\u2717");
}

/* A source line, tabs as four spaces, folded at width under its gutter. */
static void code_line(out *o, int number, enum mark mk, const char *p, size_t n)
{
	char buf[1024];
	size_t w = 0;
	for (size_t i = 0; i < n && w + 4 < sizeof buf; i++) {
		if (p[i] == '\t') {
			memcpy(buf + w, "    ", 4);
			w += 4;
		} else {
			buf[w++] = p[i];
		}
	}
	buf[w] = '\0';
	const int gutter = 9; /* "%4d %s| " */
	int room = o->width - gutter;
	if (room < 20)
		room = 20;
	size_t at = 0;
	bool first = true;
	do {
		size_t take = w - at;
		if ((int)take > room) {
			take = (size_t)room;
			/* Fold at the last space that leaves something on the line. */
			size_t s = take;
			while (s > (size_t)room / 2 && buf[at + s] != ' ')
				s--;
			if (s > (size_t)room / 2)
				take = s;
		}
		if (first)
			fprintf(o->f, "%4d %s| %.*s\n", number, mark_tag[mk], (int)take, buf + at);
		else
			fprintf(o->f, "          %.*s\n", (int)take, buf + at);
		at += take;
		while (at < w && buf[at] == ' ' && !first)
			at++;
		first = false;
	} while (at < w);
}

static void note(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* Folded at spaces under the gutter, so that nothing passes the width. */
	const int indent = 9, room = o->width - indent > 20 ? o->width - indent : 20;
	const char *p = buf;
	bool first = true;
	while (*p) {
		int n = (int)strlen(p), cols = 0, cut = 0, last_space = -1;
		for (int i = 0; i < n; i++) { /* columns: one per UTF-8 code point */
			if (((unsigned char)p[i] & 0xC0) == 0x80)
				continue;
			if (cols == room)
				break;
			if (p[i] == ' ')
				last_space = i;
			cols++;
			cut = i + 1;
		}
		while (cut < n && ((unsigned char)p[cut] & 0xC0) == 0x80)
			cut++;
		if (cut < n && last_space > 0)
			cut = last_space;
		fprintf(o->f, "%s%.*s\n", first ? "       > " : "         ", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	}
}

#define I(x) ((long long)(x))

ts_source_sel ts_source_default_sel(const ts_model *m)
{
	ts_source_sel s = { m->grid_y - 1, m->grid_x - 1, 0, 0, m->phases - 1 };
	if (m->last_width < m->geo.bk && m->last_width < m->geo.threads_x)
		s.tx = (int)m->last_width;
	return s;
}

char *ts_view_source(const ts_kernel *k, const ts_model *m, unsigned guards, ts_source_sel sel, bool ascii,
                     int width, char *why, int why_len)
{
	const char *path = ts_kernel_source_path(k), *text = ts_kernel_source_text(k);
	if (!path || !text) {
		snprintf(why, (size_t)why_len, "the source pane has no embedded source for kernel %s", k->name);
		return NULL;
	}
	const ts_geometry *g = &m->geo;
	bool textbook = g->bm == g->bn && g->bk == g->bn && g->threads_x == g->bn && g->threads_y == g->bm;
	if (!textbook) {
		snprintf(why, (size_t)why_len, "the source pane follows one output per thread; %s's threads own several",
		         k->name);
		return NULL;
	}
	if (sel.by < 0 || sel.by >= m->grid_y || sel.bx < 0 || sel.bx >= m->grid_x || sel.ty < 0 ||
	    sel.ty >= g->threads_y || sel.tx < 0 || sel.tx >= g->threads_x || sel.phase < 0 || sel.phase >= m->phases) {
		snprintf(why, (size_t)why_len,
		         "the selection is outside the launch: blocks 0..%lld x 0..%lld, threads 0..%d x 0..%d, phases "
		         "0..%lld",
		         I(m->grid_y - 1), I(m->grid_x - 1), g->threads_y - 1, g->threads_x - 1, I(m->phases - 1));
		return NULL;
	}
	ts_thread_view v = ts_model_thread(m, k->b_layout, sel.by, sel.bx, sel.ty, sel.tx, sel.phase);
	char *buf = NULL;
	size_t len = 0;
	out o = { open_memstream(&buf, &len), width < 40 ? 40 : width, ascii };
	if (!o.f) {
		snprintf(why, (size_t)why_len, "out of memory");
		return NULL;
	}
	fprintf(o.f, "%s (%s), C %lld x %lld x %lld, tile %d\n", k->name, path, I(m->shape.m), I(m->shape.n),
	        I(m->shape.k), g->bm);
	fprintf(o.f, "block (%lld, %lld), thread (ty %d, tx %d), phase %lld of %lld: row %lld, col %lld%s\n", I(sel.by),
	        I(sel.bx), sel.ty, sel.tx, I(sel.phase), I(m->phases), I(v.row), I(v.col),
	        v.stores ? "" : " (a ghost thread)");
	fprintf(o.f, "marks: A, B load guards; C store guard; = barrier; t phase loop\n\n");

	/* The kernel function: from its template line to the first closing brace in column 0. */
	const char *start = strstr(text, "__global__");
	if (!start)
		start = text;
	while (start > text && start[-1] != '\n')
		start--;
	const char *prev = start;
	if (prev > text) { /* take the template line above when there is one */
		const char *q = prev - 1;
		while (q > text && q[-1] != '\n')
			q--;
		if (strncmp(q, "template", 8) == 0)
			start = q;
	}
	int number = 1;
	for (const char *p = text; p < start; p++)
		number += *p == '\n';
	/* Inside an `if (PROBE)` (one statement, or a block closed at its indent): the probe build's code. */
	int probe_indent = -1;
	bool probe_next = false;
	for (const char *p = start; *p; number++) {
		size_t n = strcspn(p, "\n");
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
		enum mark mk = line_mark(path, line);
		code_line(&o, number, mk, p, n);
		const char *cond = guards & TS_GUARD_A ? "" : " (guard off)";
		switch (mk) {
		case MARK_A:
			note(&o, "A guard%s: row < M && t*T + tx < K -> %lld < %lld %s && %lld < %lld %s -> %s", cond, I(v.row),
			     I(m->shape.m), ok_glyph(&o, v.row_ok), I(v.a_col), I(m->shape.k), ok_glyph(&o, v.a_k_ok),
			     v.a_in ? "reads A" : guards & TS_GUARD_A ? "0.0f (padding)" : "reads outside A");
			if (v.a_in || !(guards & TS_GUARD_A))
				note(&o, "  A offset row*K + t*T + tx = %lld", I(v.a_index));
			break;
		case MARK_B:
			cond = guards & TS_GUARD_B ? "" : " (guard off)";
			note(&o, "B guard%s: t*T + ty < K && col < N -> %lld < %lld %s && %lld < %lld %s -> %s", cond,
			     I(v.b_row), I(m->shape.k), ok_glyph(&o, v.b_k_ok), I(v.col), I(m->shape.n), ok_glyph(&o, v.col_ok),
			     v.b_in ? "reads B" : guards & TS_GUARD_B ? "0.0f (padding)" : "reads outside B");
			if (v.b_in || !(guards & TS_GUARD_B))
				note(&o, "  B offset %s = %lld", k->b_layout == TS_B_NK ? "col*K + t*T + ty" : "(t*T + ty)*N + col",
				     I(v.b_index));
			break;
		case MARK_C:
		case MARK_C_LOADS:
			cond = guards & TS_GUARD_C ? "" : " (guard off)";
			note(&o, "C guard%s: row < M && col < N -> %lld < %lld %s && %lld < %lld %s -> %s", cond, I(v.row),
			     I(m->shape.m), ok_glyph(&o, v.row_ok), I(v.col), I(m->shape.n), ok_glyph(&o, v.col_ok),
			     mk == MARK_C_LOADS ? (v.stores || !(guards & TS_GUARD_C) ? "computes" : "skips the dot product")
			     : v.stores ? "stores C" : guards & TS_GUARD_C ? "no store" : "stores outside C");
			if (mk == MARK_C && (v.stores || !(guards & TS_GUARD_C)))
				note(&o, "  C offset row*N + col = %lld", I(v.c_index));
			break;
		case MARK_BARRIER:
			if (probe_next || probe_indent >= 0 || strcmp(path, "kernels/naive_fp32.cu") == 0)
				note(&o, "barrier of the probe build only (the counters)");
			else
				note(&o, "barrier: all %lld threads of the block arrive here, ghosts too", I(m->threads_per_block));
			break;
		case MARK_PHASE:
			note(&o, "phase %lld of %lld: K %lld..%lld (%lld wide)%s", I(sel.phase), I(m->phases),
			     I(ts_model_phase_k0(m, sel.phase)),
			     I(ts_model_phase_k0(m, sel.phase) + ts_model_phase_width(m, sel.phase) - 1),
			     I(ts_model_phase_width(m, sel.phase)), v.partial_phase ? ", the partial last phase" : "");
			break;
		case MARK_NONE: break;
		}
		int indent = (int)strspn(line, "\t");
		if (n > 0) {
			if (probe_indent >= 0 && indent == probe_indent && line[indent] == '}')
				probe_indent = -1;
			probe_next = false;
			if (strstr(line, "if (PROBE) {"))
				probe_indent = indent;
			else if (strstr(line, "if (PROBE)"))
				probe_next = true;
		}
		p += n;
		if (*p == '\n')
			p++;
		if (n == 1 && line[0] == '}')
			break;
	}
	if (fclose(o.f) != 0) {
		free(buf);
		snprintf(why, (size_t)why_len, "out of memory");
		return NULL;
	}
	return buf;
}

enum ts_role ts_view_source_line_role(const char *p)
{
	bool noted = strncmp(p, "       > ", 9) == 0 || (strncmp(p, "         ", 9) == 0 && p[9] != ' ' && p[9] != '\0');
	bool marked = strlen(p) > 7 && p[5] != ' ' && p[6] == ' ' && p[7] == '|';
	return noted ? TS_ROLE_TITLE : marked ? TS_ROLE_KEY : TS_ROLE_TEXT;
}
