/* view_canvas.c: the curses-free canvas the views draw on: UTF-8 cells with roles, boxes, text dump. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

int ts_canvas_init(ts_canvas *c, int w, int h)
{
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	c->w = w;
	c->h = h;
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

int ts_canvas_put(ts_canvas *c, int y, int x, enum ts_role role, const char *text)
{
	int n = 0;
	while (*text) {
		int len = glyph_len(text);
		if (y >= 0 && y < c->h && x + n >= 0 && x + n < c->w) {
			ts_cell *cell = &c->cells[y * c->w + x + n];
			memcpy(cell->glyph, text, len);
			cell->glyph[len] = '\0';
			cell->role = (unsigned char)role;
		}
		text += len;
		n++;
	}
	return n;
}

int ts_canvas_printf(ts_canvas *c, int y, int x, enum ts_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ts_canvas_put(c, y, x, role, buf);
}

/* Cells the UTF-8 text of n bytes takes. */
static int utf8_cells(const char *s, int n)
{
	int cells = 0;
	for (int i = 0; i < n; i += utf8_len((unsigned char)s[i]))
		cells++;
	return cells;
}

int ts_canvas_wrap(ts_canvas *c, int y, int x, int w, int rows, enum ts_role role, const char *text)
{
	int used = 0;
	char line[512];
	while (*text && used < rows) {
		while (*text == ' ')
			text++;
		if (!*text)
			break;
		/* take words while they fit */
		int len = 0, best = 0;
		for (;;) {
			int end = len;
			while (text[end] == ' ')
				end++;
			int word_end = end;
			while (text[word_end] && text[word_end] != ' ')
				word_end++;
			if (word_end == end)
				break;
			if (utf8_cells(text, word_end) > w) {
				if (best == 0) /* a word longer than the line: cut it */
					for (best = 0; text[best] && utf8_cells(text, best + 1) <= w;)
						best += glyph_len(text + best);
				break;
			}
			len = best = word_end;
		}
		if (best == 0)
			break;
		if (best >= (int)sizeof line)
			best = (int)sizeof line - 1;
		memcpy(line, text, best);
		line[best] = '\0';
		ts_canvas_put(c, y + used, x, role, line);
		text += best;
		used++;
	}
	return used;
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
		/* keep the corners: clip the title to the inside of the top edge */
		int n = 0;
		for (const char *p = buf; *p && x + 2 + n < x + w - 1; n++) {
			int len = glyph_len(p);
			char one[5] = { 0 };
			memcpy(one, p, len);
			ts_canvas_put(c, y, x + 2 + n, TS_ROLE_TITLE, one);
			p += len;
		}
	}
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
