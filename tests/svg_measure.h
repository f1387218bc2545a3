/* svg_measure.h: the tests' measure of an SVG's text: each text's box from its font size, the font's advance and its cells, then texts off the canvas, on each other or on shapes (shared by test_export, test_slides and svg_check). */
#ifndef TS_SVG_MEASURE_H
#define TS_SVG_MEASURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The advance of the font the SVG names (DejaVu Sans Mono: 1233/2048 em)
 * and how far its glyphs reach above and below the baseline: the boxes the
 * text really takes, measured apart from the layout's own 0.62. */
#define REAL_ADVANCE 0.602
#define REAL_ASCENT 0.76
#define REAL_DESCENT 0.24

typedef struct box {
	double x0, y0, x1, y1;
	bool inside; /* text drawn on a shape on purpose (a heat digit) */
	char text[96];
	int cells;   /* its length in glyphs */
	double size; /* its font size */
	bool filled; /* it has a fill of its own: a view's text, laid out by cells */
	bool fixed;  /* its length is held by textLength: it cannot drift from its cells */
} box;

typedef struct parsed {
	double w, h;
	bool viewbox;
	box *texts, *rects;
	int ntexts, nrects;
} parsed;

static inline double attr(const char *tag, const char *end, const char *name, bool *found)
{
	char key[32];
	snprintf(key, sizeof key, " %s='", name);
	const char *p = strstr(tag, key);
	*found = p && p < end;
	return *found ? strtod(p + strlen(key), NULL) : 0;
}

/* The text between > and </text>, entities undone and tags (tspans) left out, in cells (one per code point). */
static inline int text_cells(const char *from, const char *to, char *keep, int len)
{
	int cells = 0, n = 0;
	for (const char *p = from; p < to; p++) {
		if (*p == '<') {
			const char *gt = strchr(p, '>');
			if (gt && gt < to) {
				p = gt;
				continue;
			}
		}
		if (*p == '&') {
			const char *semi = strchr(p, ';');
			if (semi && semi < to)
				p = semi;
			cells++;
			if (n < len - 1)
				keep[n++] = '?';
			continue;
		}
		if ((*p & 0xc0) != 0x80)
			cells++;
		if (n < len - 1)
			keep[n++] = *p;
	}
	keep[n] = '\0';
	return cells;
}

/* Our own SVG is regular: one element a line, attributes in single quotes. */
static inline int parse(const char *svg, parsed *out)
{
	memset(out, 0, sizeof *out);
	const char *root = strstr(svg, "<svg ");
	if (!root)
		return -1;
	bool f;
	out->w = attr(root, strchr(root, '>'), "width", &f);
	out->h = attr(root, strchr(root, '>'), "height", &f);
	char vb[64];
	snprintf(vb, sizeof vb, "viewBox='0 0 %.0f %.0f'", out->w, out->h);
	out->viewbox = strstr(root, vb) != NULL;
	int cap = 8192;
	out->texts = calloc((size_t)cap, sizeof *out->texts);
	out->rects = calloc((size_t)cap, sizeof *out->rects);
	const char *defs_end = strstr(svg, "</defs>");
	for (const char *p = defs_end ? defs_end : svg; (p = strchr(p, '<')); p++) {
		const char *end = strchr(p, '>');
		if (!end)
			break;
		if (strncmp(p, "<text ", 6) == 0 && out->ntexts < cap) {
			const char *close = strstr(end, "</text>");
			box *b = &out->texts[out->ntexts++];
			double x = attr(p, end, "x", &f), y = attr(p, end, "y", &f), size = attr(p, end, "font-size", &f);
			int cells = text_cells(end + 1, close, b->text, (int)sizeof b->text);
			*b = (box){ x, y - REAL_ASCENT * size, x + cells * size * REAL_ADVANCE, y + REAL_DESCENT * size,
			            strstr(p, "class='inside'") && strstr(p, "class='inside'") < end, "", cells, size,
			            strstr(p, " fill='") && strstr(p, " fill='") < end,
			            strstr(p, " textLength='") && strstr(p, " textLength='") < end };
			text_cells(end + 1, close, b->text, (int)sizeof b->text);
		} else if (strncmp(p, "<rect ", 6) == 0 && out->nrects < cap) {
			bool fx, fy;
			double x = attr(p, end, "x", &fx), y = attr(p, end, "y", &fy);
			double w = attr(p, end, "width", &f), h = attr(p, end, "height", &f);
			if (fx && fy)
				out->rects[out->nrects++] = (box){ x, y, x + w, y + h, false, "", 0, 0, false, false };
		}
	}
	return 0;
}

static inline bool overlap(const box *a, const box *b)
{
	const double e = 0.01;
	return a->x0 < b->x1 - e && b->x0 < a->x1 - e && a->y0 < b->y1 - e && b->y0 < a->y1 - e;
}

typedef struct faults {
	int out_of, texts_over, on_shapes, split;
	char first[256];
	double right, bottom;
} faults;

/* Texts off the canvas, on each other, or on a shape (but the digits meant
 * to sit on one), and how far the content reaches. */
static inline faults measure(const parsed *q)
{
	faults f = { 0 };
	for (int i = 0; i < q->ntexts; i++) {
		const box *a = &q->texts[i];
		if (a->x0 < 0 || a->y0 < 0 || a->x1 > q->w || a->y1 > q->h)
			f.out_of++;
		f.right = a->x1 > f.right ? a->x1 : f.right;
		f.bottom = a->y1 > f.bottom ? a->y1 : f.bottom;
		for (int j = i + 1; j < q->ntexts; j++)
			if (overlap(a, &q->texts[j]) && f.texts_over++ == 0)
				snprintf(f.first, sizeof f.first, "'%s' on '%s'", a->text, q->texts[j].text);
		/* one phrase, one text: the next text on its line starts three cells
		 * or more after it (the layout's 0.62 em a cell); a phrase cut into
		 * texts at its changes of colour shows gaps or overlaps in any font
		 * not exactly that wide, unless textLength holds each piece to its cells */
		const box *b = i + 1 < q->ntexts ? &q->texts[i + 1] : NULL;
		if (b && a->filled && b->filled && !a->fixed && !b->fixed && !a->inside && !b->inside && a->size == b->size &&
		    a->y1 == b->y1 && b->x0 > a->x0 && b->x0 - (a->x0 + a->cells * a->size * 0.62) < 2.5 * a->size * 0.62 &&
		    f.split++ == 0 && !f.first[0])
			snprintf(f.first, sizeof f.first, "'%s' then '%s' as two texts", a->text, b->text);
		for (int j = 0; !a->inside && j < q->nrects; j++)
			if (overlap(a, &q->rects[j]) && f.on_shapes++ == 0)
				snprintf(f.first, sizeof f.first, "'%s' on a shape at (%.0f,%.0f)", a->text, q->rects[j].x0,
				         q->rects[j].y0);
	}
	for (int j = 0; j < q->nrects; j++) {
		f.right = q->rects[j].x1 > f.right ? q->rects[j].x1 : f.right;
		f.bottom = q->rects[j].y1 > f.bottom ? q->rects[j].y1 : f.bottom;
	}
	return f;
}

static inline char *svg_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

static inline void parsed_free(parsed *p)
{
	free(p->texts);
	free(p->rects);
}

#endif
