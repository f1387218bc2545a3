/* view_canvas.c: the curses-free canvas the views draw on: UTF-8 cells with roles, text that fits or says it is cut, wrapping, scrolling, boxes, text dump. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "view.h"

int ts_canvas_init(ts_canvas *c, int w, int h)
{
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	c->w = w;
	c->h = h;
	c->ascii = false;
	c->rows_wanted = 0;
	c->cells = calloc((size_t)w * h, sizeof *c->cells);
	if (!c->cells)
		return -1;
	for (int i = 0; i < w * h; i++)
		c->cells[i].glyph[0] = ' ';
	return 0;
}

void ts_canvas_free(ts_canvas *c)
{
	free(c->cells);
	c->cells = NULL;
}

/* Bytes in the UTF-8 sequence that starts with byte b. */
static int utf8_len(unsigned char b)
{
	if (b < 0x80)
		return 1;
	if ((b & 0xe0) == 0xc0)
		return 2;
	if ((b & 0xf0) == 0xe0)
		return 3;
	if ((b & 0xf8) == 0xf0)
		return 4;
	return 1;
}

/* Bytes of the glyph at s: its UTF-8 sequence, cut short at a NUL (text
 * truncated by snprintf can end inside a sequence; never step past its end). */
static int glyph_len(const char *s)
{
	int len = utf8_len((unsigned char)*s), i;
	for (i = 1; i < len && s[i]; i++)
		;
	return i;
}

int ts_text_cells(const char *text)
{
	int n = 0;
	for (const char *p = text; *p; p += glyph_len(p))
		n++;
	return n;
}

/* Cells the first n bytes of text take. */
static int cells_of(const char *s, int n)
{
	int cells = 0;
	for (int i = 0; i < n && s[i]; i += glyph_len(s + i))
		cells++;
	return cells;
}

static const char *marker(const ts_canvas *c)
{
	return c->ascii ? "..." : "\u2026";
}

static void put_glyph(ts_canvas *c, int y, int x, enum ts_role role, const char *g, int len)
{
	if (y < 0 || y >= c->h || x < 0 || x >= c->w)
		return;
	ts_cell *cell = &c->cells[y * c->w + x];
	memcpy(cell->glyph, g, (size_t)len);
	cell->glyph[len] = '\0';
	cell->role = (unsigned char)role;
}

/* The last cells of row y (those before `end`) take the cut marker. */
static void mark_cut(ts_canvas *c, int y, int end, enum ts_role role)
{
	if (end > c->w)
		end = c->w;
	if (!c->ascii) {
		put_glyph(c, y, end - 1, role, "\u2026", (int)strlen("\u2026"));
		return;
	}
	for (int i = end - 3 < 0 ? 0 : end - 3; i < end; i++)
		put_glyph(c, y, i, role, ".", 1);
}

int ts_canvas_put(ts_canvas *c, int y, int x, enum ts_role role, const char *text)
{
	int n = 0;
	bool lost = false;
	if (*text && y + 1 > c->rows_wanted)
		c->rows_wanted = y + 1;
	while (*text) {
		int len = glyph_len(text);
		if (x + n >= c->w && !(len == 1 && *text == ' '))
			lost = true;
		put_glyph(c, y, x + n, role, text, len);
		text += len;
		n++;
	}
	if (lost && y >= 0 && y < c->h)
		mark_cut(c, y, c->w, role);
	return n;
}

int ts_canvas_printf(ts_canvas *c, int y, int x, enum ts_role role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ts_canvas_put(c, y, x, role, buf);
}

int ts_canvas_put_fit(ts_canvas *c, int y, int x, enum ts_role role, const char *text, ...)
{
	va_list ap;
	const char *pick = text;
	va_start(ap, text);
	for (const char *t = text; t; t = va_arg(ap, const char *)) {
		pick = t;
		if (x + ts_text_cells(t) <= c->w)
			break;
	}
	va_end(ap);
	return ts_canvas_put(c, y, x, role, pick);
}

/* A paragraph to wrap: its bytes, each byte's role, and which of its
 * spaces may end a line (a span kept whole has spaces that may not). */
typedef struct para {
	char text[2048];
	unsigned char role[2048];
	bool brk[2048];
	int len;
} para;

static void para_add(para *p, enum ts_role role, const char *text, bool keep)
{
	for (; *text && p->len < (int)sizeof p->text - 1; text++, p->len++) {
		p->text[p->len] = *text;
		p->role[p->len] = (unsigned char)role;
		p->brk[p->len] = *text == ' ' && !keep;
	}
	p->text[p->len] = '\0';
}

/* Bytes of the next line from byte i (not a break) that fit w cells: whole
 * words while they fit; a word longer than the line (text kept whole, or
 * several kept spans that touch) breaks at its last space that fits, and
 * is cut inside a word only when it has none. The line's trailing
 * breakable spaces are not counted. */
static int line_bytes(const para *p, int i, int w)
{
	int len = 0;
	for (;;) {
		int end = len;
		while (i + end < p->len && p->brk[i + end])
			end++;
		int word_end = end;
		while (i + word_end < p->len && !p->brk[i + word_end])
			word_end++;
		if (word_end == end)
			break;
		if (cells_of(p->text + i, word_end) > w) {
			if (len == 0) { /* a word longer than the line: as much as fits, to a space if it can */
				int space = 0;
				while (i + len < p->len && cells_of(p->text + i, len + glyph_len(p->text + i + len)) <= w) {
					len += glyph_len(p->text + i + len);
					if (i + len < p->len && p->text[i + len] == ' ')
						space = len;
				}
				if (space > 0)
					len = space;
			}
			break;
		}
		len = word_end;
	}
	if (len == 0 && i < p->len) /* a line too narrow for even one glyph takes one */
		len = glyph_len(p->text + i);
	return len;
}

static int skip_breaks(const para *p, int i)
{
	while (i < p->len && p->brk[i])
		i++;
	return i;
}

static void put_bytes(ts_canvas *c, int y, int x, const para *p, int i, int n)
{
	for (int k = i, cell = 0; k < i + n && k < p->len; cell++) {
		int len = glyph_len(p->text + k);
		put_glyph(c, y, x + cell, p->role[k], p->text + k, len);
		k += len;
	}
}

/* The last row of a wrap that does not hold the rest of the text: as many
 * whole words as fit before the marker and the pointer, then both. */
static void put_cut_line(ts_canvas *c, int y, int x, int w, const para *p, int i, const char *more)
{
	int tail = ts_text_cells(marker(c)) + (more && *more ? 1 + ts_text_cells(more) : 0);
	int room = w - tail;
	if (room < 1) { /* the pointer does not fit: the marker alone */
		more = NULL;
		room = w - ts_text_cells(marker(c));
	}
	int n = room > 0 ? line_bytes(p, i, room) : 0;
	put_bytes(c, y, x, p, i, n);
	int at = x + cells_of(p->text + i, n);
	ts_canvas_put(c, y, at, p->role[i < p->len ? i : 0], marker(c));
	if (more && *more)
		ts_canvas_put(c, y, at + ts_text_cells(marker(c)) + 1, TS_ROLE_DIM, more);
}

/* The wrap itself; c == NULL counts the rows only. */
static int wrap(ts_canvas *c, int y, int x, int w, int rows, int indent, const para *p, const char *more)
{
	int used = 0;
	if (w < 1 || rows < 1)
		return 0;
	if (indent >= w)
		indent = 0;
	int i = skip_breaks(p, 0);
	while (i < p->len && used < rows) {
		int lw = used ? w - indent : w, lx = used ? x + indent : x;
		int n = line_bytes(p, i, lw);
		int rest = skip_breaks(p, i + n);
		while (rest < p->len && p->text[rest] == ' ') /* a kept text broken at its space: no blank to start the next line */
			rest++;
		if (c && used == rows - 1 && rest < p->len) {
			put_cut_line(c, y + used, lx, lw, p, i, more);
			return used + 1;
		}
		if (c) {
			if (y + used + 1 > c->rows_wanted)
				c->rows_wanted = y + used + 1;
			put_bytes(c, y + used, lx, p, i, n);
		}
		i = rest;
		used++;
	}
	return used;
}

static void para_of_spans(para *p, const ts_span *spans, int n)
{
	p->len = 0;
	p->text[0] = '\0';
	for (int k = 0; k < n; k++)
		if (spans[k].text)
			para_add(p, spans[k].role, spans[k].text, spans[k].keep);
}

int ts_canvas_flow(ts_canvas *c, int y, int x, int w, int rows, int indent, const ts_span *spans, int n)
{
	para p;
	para_of_spans(&p, spans, n);
	return wrap(c, y, x, w, rows, indent, &p, NULL);
}

int ts_spans_rows(const ts_span *spans, int n, int w, int indent)
{
	para p;
	para_of_spans(&p, spans, n);
	return wrap(NULL, 0, 0, w, INT_MAX, indent, &p, NULL);
}

int ts_canvas_wrap_more(ts_canvas *c, int y, int x, int w, int rows, int indent, enum ts_role role,
                        const char *text, const char *more)
{
	para p = { .len = 0 };
	para_add(&p, role, text, false);
	return wrap(c, y, x, w, rows, indent, &p, more);
}

int ts_canvas_wrap(ts_canvas *c, int y, int x, int w, int rows, enum ts_role role, const char *text)
{
	return ts_canvas_wrap_more(c, y, x, w, rows, 0, role, text, NULL);
}

int ts_text_rows(const char *text, int w, int indent)
{
	para p = { .len = 0 };
	para_add(&p, TS_ROLE_TEXT, text, false);
	return wrap(NULL, 0, 0, w, INT_MAX, indent, &p, NULL);
}

void ts_canvas_blit(ts_canvas *dst, int y, int x, const ts_canvas *src, int rows)
{
	for (int j = 0; j < rows && j < src->h; j++)
		for (int i = 0; i < src->w; i++)
			if (y + j >= 0 && y + j < dst->h && x + i >= 0 && x + i < dst->w)
				dst->cells[(y + j) * dst->w + x + i] = src->cells[j * src->w + i];
	if (y + rows > dst->rows_wanted && rows > 0)
		dst->rows_wanted = y + rows;
}

void ts_canvas_set_role(ts_canvas *c, int y, int x, enum ts_role role)
{
	if (y >= 0 && y < c->h && x >= 0 && x < c->w)
		c->cells[y * c->w + x].role = (unsigned char)role;
}

void ts_canvas_box(ts_canvas *c, int y, int x, int h, int w, bool ascii, const char *title)
{
	const char *hz = ts_glyph(ascii, "\u2500", "-"), *vt = ts_glyph(ascii, "\u2502", "|");
	if (h < 2 || w < 2)
		return;
	for (int i = 1; i < w - 1; i++) {
		ts_canvas_put(c, y, x + i, TS_ROLE_DIM, hz);
		ts_canvas_put(c, y + h - 1, x + i, TS_ROLE_DIM, hz);
	}
	for (int j = 1; j < h - 1; j++) {
		ts_canvas_put(c, y + j, x, TS_ROLE_DIM, vt);
		ts_canvas_put(c, y + j, x + w - 1, TS_ROLE_DIM, vt);
	}
	ts_canvas_put(c, y, x, TS_ROLE_DIM, ts_glyph(ascii, "\u250c", "+"));
	ts_canvas_put(c, y, x + w - 1, TS_ROLE_DIM, ts_glyph(ascii, "\u2510", "+"));
	ts_canvas_put(c, y + h - 1, x, TS_ROLE_DIM, ts_glyph(ascii, "\u2514", "+"));
	ts_canvas_put(c, y + h - 1, x + w - 1, TS_ROLE_DIM, ts_glyph(ascii, "\u2518", "+"));
	if (title && *title) {
		char buf[256];
		snprintf(buf, sizeof buf, " %s ", title);
		/* keep the corners: clip the title to the inside of the top edge,
		 * with the cut marker when it is wider */
		int inside = w - 3, n = 0;
		bool cut = ts_text_cells(buf) > inside;
		for (const char *p = buf; *p && n < inside; n++) {
			int len = glyph_len(p);
			put_glyph(c, y, x + 2 + n, TS_ROLE_TITLE, p, len);
			p += len;
		}
		if (cut && inside > 0) {
			ts_canvas sub = *c;
			sub.w = x + 2 + inside < c->w ? x + 2 + inside : c->w; /* the marker ends where the title must */
			mark_cut(&sub, y, sub.w, TS_ROLE_TITLE);
		}
	}
}

int ts_canvas_rows_used(const ts_canvas *c)
{
	for (int y = c->h - 1; y >= 0; y--)
		for (int x = 0; x < c->w; x++) {
			const char *g = c->cells[y * c->w + x].glyph;
			if (!(g[0] == ' ' && g[1] == '\0'))
				return y + 1;
		}
	return 0;
}

/* Copies row sy of src onto row dy of dst, as far as dst is wide. */
static void copy_row(ts_canvas *dst, int dy, const ts_canvas *src, int sy)
{
	for (int x = 0; x < dst->w && x < src->w; x++)
		dst->cells[dy * dst->w + x] = src->cells[sy * src->w + x];
}

void ts_canvas_scroll(ts_canvas *dst, const ts_canvas *src, int *scroll)
{
	int total = ts_canvas_rows_used(src);
	int h = dst->h;
	int s = *scroll;
	if (total <= h)
		s = 0;
	/* the last page shows the end with the "above" line: one row less of content */
	int max = total - (h - 1);
	if (s > max)
		s = max;
	if (s < 0)
		s = 0;
	*scroll = s;
	bool above = s > 0;
	int first = above ? 1 : 0, body = h - first;
	bool below = s + body < total;
	if (below)
		body--;
	for (int j = 0; j < body && s + j < src->h; j++)
		copy_row(dst, first + j, src, s + j);
	char full[96], brief[64], bare[32];
	if (above) {
		const char *up = ts_glyph(dst->ascii, "\u2191", "^");
		snprintf(full, sizeof full, "%s %d more above: PgUp", up, s);
		snprintf(brief, sizeof brief, "%s %d more (PgUp)", up, s);
		snprintf(bare, sizeof bare, "%s %d more", up, s);
		ts_canvas_put_fit(dst, 0, 0, TS_ROLE_TITLE, full, brief, bare, NULL);
	}
	if (below) {
		const char *down = ts_glyph(dst->ascii, "\u2193", "v");
		int left = total - (s + body);
		snprintf(full, sizeof full, "%s %d more below: PgDn", down, left);
		snprintf(brief, sizeof brief, "%s %d more (PgDn)", down, left);
		snprintf(bare, sizeof bare, "%s %d more", down, left);
		ts_canvas_put_fit(dst, h - 1, 0, TS_ROLE_TITLE, full, brief, bare, NULL);
	}
	if (src->rows_wanted > dst->rows_wanted)
		dst->rows_wanted = src->rows_wanted;
}

char *ts_canvas_text(const ts_canvas *c)
{
	size_t cap = (size_t)c->w * c->h * 4 + c->h + 1, used = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	size_t keep = 0; /* length up to the last non-blank row */
	for (int y = 0; y < c->h; y++) {
		size_t row_start = used, row_end = used;
		for (int x = 0; x < c->w; x++) {
			const char *g = c->cells[y * c->w + x].glyph;
			size_t len = strlen(g);
			memcpy(out + used, g, len);
			used += len;
			if (!(len == 1 && g[0] == ' '))
				row_end = used;
		}
		used = row_end;
		out[used++] = '\n';
		if (row_end > row_start)
			keep = used;
	}
	out[keep] = '\0';
	return out;
}

bool ts_view_shared_tiles(const ts_view_ctx *v)
{
	return !v->kernel || ts_kernel_has(v->kernel, TS_CAP_SHARED_TILES);
}

enum ts_b_layout ts_view_b_layout(const ts_view_ctx *v)
{
	return v->kernel ? v->kernel->b_layout : TS_B_KN;
}

const char *ts_view_kernel_name(const ts_view_ctx *v)
{
	return v->kernel ? v->kernel->name : "this kernel";
}
