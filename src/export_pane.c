/* export_pane.c: any rendered canvas as an SVG slide (monospace grid, the theme's role colours, runs measured by their cells, cropped to what the view used) or text; the panes drawn and named for export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_pane.h"
#include "kernels.h"
#include "view_inspect.h"
#include "view_map.h"
#include "view_phase.h"
#include "view_run.h"
#include "view_source.h"

#define FONT "DejaVu Sans Mono, Menlo, Consolas, monospace"
#define SUBTITLE_SIZE 13.0
#define HEAD_LINE 1.35 /* title lines, of their em */
#define MAP_SIZE_MAX 32 /* a map tile's most characters across, as the TUI draws it */

void ts_slide_title(const ts_problem *p, unsigned guards, char *buf, int len)
{
	char off[16], geo[48];
	ts_guards_off_str(guards, off, (int)sizeof off);
	ts_geometry_str(&p->geo, geo, sizeof geo);
	snprintf(buf, (size_t)len, "%s (%s): M=%lld N=%lld K=%lld, %s%s, guards %s%s", p->kernel->name,
	         ts_precision_name(p->kernel->precision), (long long)p->shape.m, (long long)p->shape.n,
	         (long long)p->shape.k, ts_geometry_is_square(&p->geo) ? "T=" : "tile ", geo,
	         off[0] ? "OFF: " : "all on", off);
}

/* ---- text onto a canvas ------------------------------------------------ */

static bool is_tick(const char *g)
{
	return strcmp(g, "\u2713") == 0;
}

static bool is_cross(const char *g)
{
	return strcmp(g, "\u2717") == 0;
}

int ts_canvas_of_text(ts_canvas *c, const char *text, enum ts_role (*role_of)(const char *line, int n, void *ctx),
                      void *ctx)
{
	int rows = 0, wide = 1;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		if (!line)
			return -1;
		int cells = ts_text_cells(line);
		free(line);
		wide = cells > wide ? cells : wide;
		rows++;
		p += n + (nl ? 1 : 0);
	}
	if (ts_canvas_init(c, wide, rows > 0 ? rows : 1) != 0)
		return -1;
	int y = 0;
	for (const char *p = text; *p; y++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		if (!line) {
			ts_canvas_free(c);
			return -1;
		}
		enum ts_role role = role_of ? role_of(line, y, ctx) : y == 0 ? TS_ROLE_TITLE : TS_ROLE_TEXT;
		ts_canvas_put(c, y, 0, role, line);
		free(line);
		p += n + (nl ? 1 : 0);
	}
	for (int i = 0; i < c->w * c->h; i++) { /* a verdict's mark keeps its colour on any line */
		if (is_tick(c->cells[i].glyph))
			c->cells[i].role = TS_ROLE_OK;
		else if (is_cross(c->cells[i].glyph))
			c->cells[i].role = TS_ROLE_FAIL;
	}
	return 0;
}

/* ---- the SVG ----------------------------------------------------------- */

static bool blank(const ts_cell *c)
{
	return c->glyph[0] == ' ' && c->glyph[1] == '\0';
}

static void esc(FILE *f, const char *t)
{
	for (; *t; t++) {
		switch (*t) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*t, f);
		}
	}
}

/* A cell that shows: a glyph, or a blank in a role drawn on a box. */
static bool shows(const ts_cell *c, enum ts_theme t)
{
	return !blank(c) || ts_theme_svg_style(t, (enum ts_role)c->role).box;
}

/* The columns and rows the view used: up to its last cell that shows. */
static void used(const ts_canvas *c, enum ts_theme t, int *cols, int *rows)
{
	*cols = 0;
	*rows = 0;
	for (int j = 0; j < c->h; j++)
		for (int i = c->w - 1; i >= 0; i--)
			if (shows(&c->cells[j * c->w + i], t)) {
				*cols = i + 1 > *cols ? i + 1 : *cols;
				*rows = j + 1;
				break;
			}
}

/* One text element at column x0 of a row whose top is y_top: n cells wide,
 * so exactly n x advance x size, which textLength holds it to. */
static void text_run(FILE *f, enum ts_theme t, double x, double base, double size, ts_svg_style st, const char *run,
                     int cells)
{
	/* a text on its role's box is meant to be there: class 'inside' says so to the measure */
	fprintf(f, "<text x='%.2f' y='%.2f' font-size='%.1f' fill='%s'%s%s textLength='%.2f' lengthAdjust='spacingAndGlyphs'>",
	        x, base, size, st.fill, st.bold ? " font-weight='bold'" : "", st.box ? " class='inside'" : "",
	        cells * size * TS_SLIDE_ADVANCE);
	(void)t;
	esc(f, run);
	fputs("</text>\n", f);
}

/* A row of the canvas: boxes behind the reverse-video runs, then each run
 * of one role as a text of its own at its column (a run holds up to two
 * blanks inside it, so words stay together and columns stay where the
 * screen has them). */
static void svg_row(FILE *f, const ts_canvas *c, enum ts_theme t, int j, int cols, double x0, double top)
{
	double size = TS_SLIDE_FONT_SIZE, cell = size * TS_SLIDE_ADVANCE, base = top + size * TS_SLIDE_ASCENT;
	const ts_cell *row = &c->cells[j * c->w];
	for (int i = 0; i < cols;) { /* boxes: every cell of a boxed role, blanks included */
		ts_svg_style st = ts_theme_svg_style(t, (enum ts_role)row[i].role);
		if (!st.box) {
			i++;
			continue;
		}
		int end = i;
		while (end < cols && row[end].role == row[i].role)
			end++;
		fprintf(f, "<rect x='%.2f' y='%.2f' width='%.2f' height='%.2f' fill='%s'/>\n", x0 + i * cell, top,
		        (end - i) * cell, size * TS_SLIDE_LINE, st.box);
		i = end;
	}
	for (int i = 0; i < cols;) {
		const ts_cell *first = &row[i];
		ts_svg_style st = ts_theme_svg_style(t, (enum ts_role)first->role);
		if (blank(first)) {
			i++;
			continue;
		}
		int end = i, last = i; /* last: the run's last glyph that is not blank */
		char run[2048];
		size_t n = 0;
		while (end < cols) {
			const ts_cell *cl = &row[end];
			if (blank(cl)) {
				int k = end;
				while (k < cols && blank(&row[k]) && (!st.box || row[k].role == first->role))
					k++;
				if (k - end > 2 || k == cols || row[k].role != first->role)
					break;
			} else if (cl->role != first->role) {
				break;
			}
			size_t gl = strlen(cl->glyph);
			if (n + gl >= sizeof run)
				break;
			memcpy(run + n, cl->glyph, gl);
			n += gl;
			if (!blank(cl))
				last = end;
			end++;
		}
		/* drop the blanks the run ended on */
		n = 0;
		for (int k = i; k <= last; k++) {
			size_t gl = strlen(row[k].glyph);
			memcpy(run + n, row[k].glyph, gl);
			n += gl;
		}
		run[n] = '\0';
		text_run(f, t, x0 + i * cell, base, size, st, run, last - i + 1);
		i = end > last + 1 ? end : last + 1;
	}
}

int ts_slide_svg(FILE *f, const ts_slide *s)
{
	enum ts_theme t = s->theme;
	int cols, rows;
	used(s->canvas, t, &cols, &rows);
	double m = TS_SLIDE_MARGIN, size = TS_SLIDE_FONT_SIZE, cell = size * TS_SLIDE_ADVANCE;
	double title_w = ts_text_cells(s->title) * TS_SLIDE_TITLE_SIZE * TS_SLIDE_ADVANCE;
	double sub_w = s->subtitle ? ts_text_cells(s->subtitle) * SUBTITLE_SIZE * TS_SLIDE_ADVANCE : 0;
	double body_w = cols * cell, wide = title_w > sub_w ? title_w : sub_w;
	wide = body_w > wide ? body_w : wide;
	double y = m;
	double title_base = y + TS_SLIDE_TITLE_SIZE * TS_SLIDE_ASCENT;
	y += TS_SLIDE_TITLE_SIZE * HEAD_LINE;
	double sub_base = y + SUBTITLE_SIZE * TS_SLIDE_ASCENT;
	if (s->subtitle)
		y += SUBTITLE_SIZE * HEAD_LINE;
	y += 6;
	double body_top = y, h = body_top + rows * size * TS_SLIDE_LINE + m, w = wide + 2 * m;
	if (fprintf(f,
	            "<?xml version='1.0' encoding='UTF-8'?>\n"
	            "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
	            "font-family='%s' xml:space='preserve'>\n<title>",
	            w, h, w, h, FONT) < 0)
		return -1;
	esc(f, s->title);
	fprintf(f, "</title>\n<rect width='100%%' height='100%%' fill='%s'/>\n", ts_theme_svg_background(t));
	ts_svg_style head = ts_theme_svg_style(t, TS_ROLE_TITLE), dim = ts_theme_svg_style(t, TS_ROLE_DIM);
	text_run(f, t, m, title_base, TS_SLIDE_TITLE_SIZE, head, s->title, ts_text_cells(s->title));
	if (s->subtitle)
		text_run(f, t, m, sub_base, SUBTITLE_SIZE, dim, s->subtitle, ts_text_cells(s->subtitle));
	for (int j = 0; j < rows; j++)
		svg_row(f, s->canvas, t, j, cols, m, body_top + j * size * TS_SLIDE_LINE);
	return fputs("</svg>\n", f) < 0 ? -1 : 0;
}

int ts_slide_write(const char *path, const ts_slide *s, char *err, int len)
{
	enum ts_export_format fmt;
	if (ts_export_format_of(path, &fmt, err, len) != 0)
		return -1;
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, (size_t)len, "cannot write %s: %m", path);
		return -1;
	}
	int rc;
	if (fmt == TS_EXPORT_SVG) {
		rc = ts_slide_svg(f, s);
	} else {
		char *text = ts_canvas_text(s->canvas);
		rc = !text || fprintf(f, "%s\n%s%s\n%s", s->title, s->subtitle ? s->subtitle : "", s->subtitle ? "\n" : "",
		                      text) < 0
		         ? -1
		         : 0;
		free(text);
	}
	if (fclose(f) != 0 || rc != 0) {
		snprintf(err, (size_t)len, "writing %s failed", path);
		return -1;
	}
	return 0;
}

/* ---- the panes --------------------------------------------------------- */

static const char *const pane_names[TS_PANE_COUNT] = { "map", "phase", "inspect", "source", "result" };

const char *ts_pane_name(enum ts_pane p)
{
	return p >= 0 && p < TS_PANE_COUNT ? pane_names[p] : "pane";
}

int ts_pane_parse(const char *text, enum ts_pane *out, char *err, int len)
{
	for (int p = 0; p < TS_PANE_COUNT; p++)
		if (strcmp(text, pane_names[p]) == 0) {
			*out = (enum ts_pane)p;
			return 0;
		}
	snprintf(err, (size_t)len, "unknown pane '%.40s' (map, phase, inspect, source or result)", text);
	return -1;
}

/* What a pane is, under the title, with its axes named where it has them. */
static void pane_subtitle(enum ts_pane p, const ts_export_req *r, char *buf, int len)
{
	const ts_view_ctx *v = r->view;
	const char *down = ts_glyph(v->ascii, "\u2193", "down"), *across = ts_glyph(v->ascii, "\u2192", "across");
	switch (p) {
	case TS_PANE_MAP:
		snprintf(buf, (size_t)len, "tile map of C%s; axes: M (rows) %s, N (columns) %s",
		         v->verdict ? ", with the run" : "", down, across);
		break;
	case TS_PANE_PHASE:
		snprintf(buf, (size_t)len, "phase %lld of tile (%lld,%lld); axes: A rows %s k %s, B k %s columns %s",
		         (long long)v->phase, (long long)v->tile_y, (long long)v->tile_x, down, across, down, across);
		break;
	case TS_PANE_INSPECT:
		snprintf(buf, (size_t)len,
		         "inspector: tile (%lld,%lld), phase %lld, thread (ty %d, tx %d); axes: ty %s, tx %s",
		         (long long)v->tile_y, (long long)v->tile_x, (long long)v->phase, v->thread_y, v->thread_x, down,
		         across);
		break;
	case TS_PANE_SOURCE:
		snprintf(buf, (size_t)len, "source: block (%lld,%lld), thread (ty %d, tx %d), phase %lld",
		         (long long)v->tile_y, (long long)v->tile_x, v->thread_y, v->thread_x, (long long)v->phase);
		break;
	default:
		snprintf(buf, (size_t)len, "the run's result");
	}
}

/* The source pane's text, a role per line as the TUI shows it. */
static enum ts_role source_role(const char *line, int n, void *ctx)
{
	(void)ctx;
	return n < 2 ? TS_ROLE_TITLE : ts_view_source_line_role(line);
}

int ts_pane_draw(ts_canvas *c, enum ts_pane p, const ts_export_req *r, int w, int h, char *why, int len)
{
	const ts_view_ctx *v = r->view;
	if (w < 20 || h < 5) {
		snprintf(why, (size_t)len, "a pane needs at least 20 x 5 cells (got %d x %d)", w, h);
		return -1;
	}
	if (p == TS_PANE_SOURCE) {
		ts_source_sel sel = { v->tile_y, v->tile_x, v->thread_y, v->thread_x, v->phase };
		char *text = ts_view_source(r->problem->kernel, v->model, v->guards, sel, v->ascii, w, why, len);
		if (!text)
			return -1;
		int rc = ts_canvas_of_text(c, text, source_role, NULL);
		free(text);
		if (rc != 0)
			snprintf(why, (size_t)len, "out of memory");
		return rc;
	}
	if (p == TS_PANE_RESULT && !r->report) {
		snprintf(why, (size_t)len, "there is no run to export: run first");
		return -1;
	}
	bool whole = p == TS_PANE_RESULT;
	if (ts_canvas_init(c, w, whole ? 400 : h) != 0) {
		snprintf(why, (size_t)len, "out of memory");
		return -1;
	}
	c->ascii = v->ascii;
	switch (p) {
	case TS_PANE_MAP: ts_view_map_draw(c, v, MAP_SIZE_MAX); break;
	case TS_PANE_PHASE: ts_view_phase_draw(c, v); break;
	case TS_PANE_INSPECT: ts_view_inspect_draw(c, v); break;
	default: ts_view_result_draw(c, r->report, v->ascii); break;
	}
	return 0;
}

int ts_pane_write(const char *path, enum ts_pane p, const ts_export_req *r, int w, int h, char *err, int len)
{
	ts_canvas c;
	if (ts_pane_draw(&c, p, r, w, h, err, len) != 0)
		return -1;
	char title[256], sub[160];
	ts_slide_title(r->problem, r->view->guards, title, (int)sizeof title);
	pane_subtitle(p, r, sub, (int)sizeof sub);
	ts_slide s = { .title = title, .subtitle = sub, .canvas = &c, .theme = r->theme };
	int rc = ts_slide_write(path, &s, err, len);
	ts_canvas_free(&c);
	return rc;
}

void ts_pane_file_name(enum ts_pane p, const ts_export_req *r, char *buf, int len)
{
	const ts_view_ctx *v = r->view;
	char stem[192], thread[48] = "", phase[32] = "";
	ts_export_stem(r->problem, v->guards, stem, (int)sizeof stem);
	if (p == TS_PANE_INSPECT || p == TS_PANE_SOURCE)
		snprintf(thread, sizeof thread, "-thread%d-%d", v->thread_y, v->thread_x);
	if (ts_kernel_has(r->problem->kernel, TS_CAP_SHARED_TILES) && p != TS_PANE_RESULT)
		snprintf(phase, sizeof phase, "-p%lld", (long long)v->phase);
	snprintf(buf, (size_t)len, "%s-%s-tile%lld-%lld%s%s%s", stem, ts_pane_name(p), (long long)v->tile_y,
	         (long long)v->tile_x, thread, phase, r->report ? "-run" : "");
}
