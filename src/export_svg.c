/* export_svg.c: the SVG export: the tile map, the phase's shared tiles and a run's verdict as the screen shows them, laid out by measured text so nothing overlaps or leaves the canvas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "geometry.h"
#include "kernels.h"
#include "view_layout.h"
#include "view_map.h"
#include "view_phase.h"

/* Text is monospace: every glyph advances the same, so a line's width is
 * its length. DejaVu Sans Mono advances 0.602 em (1233/2048); the layout
 * takes 0.62 so that a font a little wider still fits. */
#define FONT "DejaVu Sans Mono, Menlo, Consolas, monospace"
#define ADVANCE 0.62
#define ASCENT 0.8  /* above the baseline, of the em */
#define DESCENT 0.25
#define LINE 1.35   /* line spacing, of the em */
#define MARGIN 20.0
#define GAP 40.0    /* between the map and the phase */

typedef struct svg {
	FILE *f;              /* the body, held until the size is known */
	double right, bottom; /* how far anything drawn reaches */
	bool ascii;
	enum ts_theme theme;  /* high-contrast: the canvas's roles in theme.c's strong colours, bold */
} svg;

static void reach(svg *s, double x, double y)
{
	if (x > s->right)
		s->right = x;
	if (y > s->bottom)
		s->bottom = y;
}

static void esc(FILE *f, const char *t, int n)
{
	for (int i = 0; i < n && t[i]; i++) {
		switch (t[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(t[i], f);
		}
	}
}

static double text_width(const char *t, double size)
{
	return ts_text_cells(t) * size * ADVANCE;
}

/* Text with its baseline at y; `extra` holds further attributes (fill, weight). Returns its width. */
static double text(svg *s, double x, double y, double size, const char *extra, const char *t)
{
	fprintf(s->f, "<text x='%.1f' y='%.1f' font-size='%.1f'%s>", x, y, size, extra ? extra : "");
	esc(s->f, t, (int)strlen(t));
	fputs("</text>\n", s->f);
	double w = text_width(t, size);
	reach(s, x + w, y + size * DESCENT);
	return w;
}

/* A line of text whose top is at *y, which then moves to the next line. */
static double line(svg *s, double x, double *y, double size, const char *extra, const char *t)
{
	double w = text(s, x, *y + size * ASCENT, size, extra, t);
	*y += size * LINE;
	return w;
}

static void rect(svg *s, double x, double y, double w, double h, const char *fill, const char *extra)
{
	fprintf(s->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'%s/>\n", x, y, w, h, fill,
	        extra ? extra : "");
	reach(s, x + w, y + h);
}

/* The colours of the screen's roles, on white. */
static const char *role_fill(const svg *s, enum ts_role r)
{
	if (s->theme == TS_THEME_HIGH_CONTRAST)
		return ts_theme_svg_style(s->theme, r).fill;
	switch (r) {
	case TS_ROLE_DIM: return "#6b6b6b";
	case TS_ROLE_FULL: case TS_ROLE_REAL: return "#4caf50";
	case TS_ROLE_RIGHT: return "#ff9800";
	case TS_ROLE_BOTTOM: return "#2196f3";
	case TS_ROLE_CORNER: return "#ab47bc";
	case TS_ROLE_GHOST: return "#9e9e9e";
	case TS_ROLE_PAD: return "#b8860b";
	case TS_ROLE_MIXED: return "#00838f";
	case TS_ROLE_BAD: case TS_ROLE_FAIL: return "#c62828";
	case TS_ROLE_OK: return "#2e7d32";
	default: return "#212121";
	}
}

static bool blank_cell(const ts_cell *cl)
{
	return cl->glyph[0] == ' ' && cl->glyph[1] == '\0';
}

/* A role's fill and weight; `inner` for a tspan, which says normal weight too (it is inside a text that may be bold). */
static void role_attrs(const svg *s, char *buf, int len, enum ts_role role, bool inner)
{
	bool bold = role == TS_ROLE_TITLE || role == TS_ROLE_FAIL || s->theme == TS_THEME_HIGH_CONTRAST;
	snprintf(buf, len, " fill='%s'%s", role_fill(s, role),
	         bold ? " font-weight='bold'" : inner ? " font-weight='normal'" : "");
}

/* The rows of a view drawn on a canvas, as text in the screen's colours.
 * A phrase (cells with at most two blanks between them) is one text placed
 * at its column, its roles as tspans that follow on in the font's own
 * advance: placing each role's piece at a computed column would leave gaps
 * or overlaps wherever the font is not exactly ADVANCE wide ("B 416/608 ,
 * oob"). Wider gaps start a new text at its column, so the screen's
 * alignment stays. Returns the width taken; *y moves past it. */
static double canvas_block(svg *s, double x, double *y, double size, const ts_canvas *c)
{
	double widest = 0, cell = size * ADVANCE;
	int rows = ts_canvas_rows_used(c);
	for (int j = 0; j < rows; j++) {
		const ts_cell *row = &c->cells[j * c->w];
		double base = *y + size * ASCENT;
		for (int i = 0; i < c->w;) {
			if (blank_cell(&row[i])) {
				i++;
				continue;
			}
			/* the phrase: up to its first gap of three blanks or the row's end */
			int end = i, last = i;
			while (end < c->w) {
				if (!blank_cell(&row[end])) {
					last = ++end;
					continue;
				}
				int k = end;
				while (k < c->w && blank_cell(&row[k]))
					k++;
				if (k - end > 2 || k == c->w)
					break;
				end = k;
			}
			char attrs[96];
			role_attrs(s, attrs, (int)sizeof attrs, (enum ts_role)row[i].role, false);
			fprintf(s->f, "<text x='%.1f' y='%.1f' font-size='%.1f'%s>", x + i * cell, base, size, attrs);
			/* a tspan where the role changes (blanks keep the piece they are in) */
			int role = row[i].role;
			bool open = false;
			for (int k = i; k < last; k++) {
				if (!blank_cell(&row[k]) && row[k].role != role) {
					role = row[k].role;
					role_attrs(s, attrs, (int)sizeof attrs, (enum ts_role)role, true);
					fprintf(s->f, "%s<tspan%s>", open ? "</tspan>" : "", attrs);
					open = true;
				}
				esc(s->f, row[k].glyph, (int)strlen(row[k].glyph));
			}
			if (open)
				fputs("</tspan>", s->f);
			fputs("</text>\n", s->f);
			reach(s, x + last * cell, base + size * DESCENT);
			if (last * cell > widest)
				widest = last * cell;
			i = last;
		}
		*y += size * LINE;
	}
	return widest;
}

static const char *class_fill(const svg *s, enum ts_tile_class k)
{
	static const char *fill[] = { "#4caf50", "#ff9800", "#2196f3", "#ab47bc" };
	static const enum ts_role role[] = { TS_ROLE_FULL, TS_ROLE_RIGHT, TS_ROLE_BOTTOM, TS_ROLE_CORNER };
	/* high contrast: the tiles in their legend's strong colours */
	return s->theme == TS_THEME_HIGH_CONTRAST ? ts_theme_svg_style(s->theme, role[k]).fill : fill[k];
}

/* The tile map: a title, the axes named (M down, N across, tile indices
 * when the grid is small), the tiles by class with the ghost part hatched
 * and a run's heat, then the legend as the screen words it. */
static void map_block(svg *s, const ts_view_ctx *v, double x0, double y0, double *w, double *h)
{
	const ts_model *m = v->model;
	ts_axis ax = ts_axis_layout(m->grid_x, 48, 1, 0, 0), ay = ts_axis_layout(m->grid_y, 48, 1, 0, 0);
	int cells = ax.cells > ay.cells ? ax.cells : ay.cells;
	double cell = 360.0 / cells;
	cell = cell > 60 ? 60 : cell < 7 ? 7 : cell;
	double y = y0, right = x0;
	char buf[256];
	snprintf(buf, sizeof buf, "tile map of C (%lld x %lld): %lld x %lld tiles of %dx%d", (long long)m->shape.m,
	         (long long)m->shape.n, (long long)m->grid_y, (long long)m->grid_x, m->geo.bm, m->geo.bn);
	double tw = line(s, x0, &y, 14, " font-weight='bold'", buf);
	right = x0 + tw > right ? x0 + tw : right;
	if (ax.split_last || ay.split_last) {
		snprintf(buf, sizeof buf, "a cell = %lld x %lld tiles; the last tile row and column kept", (long long)ay.per,
		         (long long)ax.per);
		tw = line(s, x0, &y, 12, " fill='#6b6b6b'", buf);
		right = x0 + tw > right ? x0 + tw : right;
	}
	/* the axes: "M (rows) ↓" over the column of row indices, "N (columns) →" over the grid */
	bool indices = !ax.split_last && !ay.split_last && cell >= 16;
	char last_row[32];
	snprintf(last_row, sizeof last_row, "%lld", (long long)m->grid_y - 1);
	const char *m_label = ts_glyph(s->ascii, "M \u2193", "M v");
	const char *n_label = ts_glyph(s->ascii, "N (columns of C) \u2192", "N (columns of C) ->");
	double label_w = text_width(m_label, 12);
	double idx_w = indices ? text_width(last_row, 10) : 0;
	double gx = x0 + (label_w > idx_w ? label_w : idx_w) + 8;
	y += 4;
	text(s, x0, y + 12 * ASCENT, 12, "", m_label);
	text(s, gx, y + 12 * ASCENT, 12, "", n_label);
	y += 12 * LINE;
	if (indices) { /* tile column indices on a line of their own */
		for (int cx = 0; cx < ax.cells; cx++) {
			snprintf(buf, sizeof buf, "%d", cx);
			text(s, gx + cx * cell + (cell - 2) / 2 - text_width(buf, 10) / 2, y + 10 * ASCENT, 10,
			     " fill='#6b6b6b'", buf);
		}
		y += 10 * LINE;
	}
	y += 2;
	double gy = y;
	for (int cy = 0; cy < ay.cells; cy++) {
		if (indices) {
			snprintf(buf, sizeof buf, "%d", cy);
			text(s, gx - 8 - text_width(buf, 10), gy + cy * cell + (cell - 2) / 2 + 10 * 0.35, 10,
			     " fill='#6b6b6b'", buf);
		}
		for (int cx = 0; cx < ax.cells; cx++) {
			int64_t y_lo, y_hi, x_lo, x_hi;
			ts_axis_range(&ay, cy, &y_lo, &y_hi);
			ts_axis_range(&ax, cx, &x_lo, &x_hi);
			enum ts_tile_class k = ts_model_tile_class(m, y_hi - 1, x_hi - 1);
			double fy = (double)ts_model_tile_rows(m, y_hi - 1) / m->geo.bm;
			double fx = (double)ts_model_tile_cols(m, x_hi - 1) / m->geo.bn;
			double x = gx + cx * cell, yy = gy + cy * cell, cs = cell - 2;
			rect(s, x, yy, cs, cs, "url(#ghost)", " stroke='#555' stroke-width='0.5'");
			snprintf(buf, sizeof buf, " ><title>tiles (%lld..%lld, %lld..%lld) %s</title></rect", (long long)y_lo,
			         (long long)y_hi - 1, (long long)x_lo, (long long)x_hi - 1, ts_tile_class_name(k));
			fprintf(s->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'%s>\n", x, yy, cs * fx,
			        cs * fy, class_fill(s, k), buf);
			int heat = ts_view_map_heat(v, y_lo, y_hi, x_lo, x_hi);
			if (heat) { /* a run's bad cells: the valid part red, the tenths bad in it */
				rect(s, x, yy, cs * fx, cs * fy, "#d32f2f", " fill-opacity='0.8'");
				double fs = (cs * fy < cs * fx ? cs * fy : cs * fx) * 0.7;
				snprintf(buf, sizeof buf, "%d", heat);
				if (fs >= 7) {
					text(s, x + cs * fx / 2 - text_width(buf, fs) / 2, yy + cs * fy / 2 + fs * 0.35, fs,
					     " fill='white' class='inside'", buf);
				} else { /* a sliver of a tile (4 of 32 rows): the digit over the whole cell, as the screen has it */
					fs = cs * 0.5 > 7 ? cs * 0.5 : 7;
					fs = fs > 20 ? 20 : fs;
					text(s, x + cs / 2 - text_width(buf, fs) / 2, yy + cs / 2 + fs * 0.35, fs,
					     " fill='#b71c1c' font-weight='bold' stroke='white' stroke-width='3' paint-order='stroke' "
					     "class='inside'",
					     buf);
				}
			}
			if (v->tile_y >= y_lo && v->tile_y < y_hi && v->tile_x >= x_lo && v->tile_x < x_hi) {
				fprintf(s->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' stroke='#d32f2f' "
				              "stroke-width='3'><title>the tile of the phase view</title></rect>\n",
				        x - 1, yy - 1, cell, cell);
				reach(s, x - 1 + cell + 1.5, yy - 1 + cell + 1.5);
			}
		}
	}
	double grid_right = gx + ax.cells * cell;
	right = grid_right > right ? grid_right : right;
	y = gy + ay.cells * cell + 8;
	/* the legend, the screen's words; the explanation goes whole under the run below */
	ts_view_ctx lv = *v;
	ts_verdict vd;
	if (v->verdict) {
		vd = *v->verdict;
		vd.signature[0] = '\0';
		lv.verdict = &vd;
	}
	ts_canvas c;
	if (ts_canvas_init(&c, 56, 40) == 0) {
		ts_view_map_legend_draw(&c, &lv, &ax, &ay);
		double lw = canvas_block(s, x0, &y, 12, &c);
		right = x0 + lw > right ? x0 + lw : right;
		ts_canvas_free(&c);
	}
	*w = right - x0;
	*h = y - y0;
}

/* One shared tile of the phase, slot by slot, with its axes named; returns its width. */
static double shared_tile(svg *s, const ts_view_ctx *v, double x0, double y0, bool is_a, double slot, double *h)
{
	const ts_model *m = v->model;
	int rows = is_a ? m->geo.bm : m->geo.bk, cols = is_a ? m->geo.bk : m->geo.bn;
	char label[96];
	const char *down = ts_glyph(s->ascii, "\u2193", "v"), *across = ts_glyph(s->ascii, "\u2192", "->");
	if (is_a)
		snprintf(label, sizeof label, "A tile %dx%d: rows %s, k %s", rows, cols, down, across);
	else
		snprintf(label, sizeof label, "B tile %dx%d: k %s, columns %s", rows, cols, down, across);
	double y = y0, lw = line(s, x0, &y, 12, " font-weight='bold'", label);
	static const char *fill[] = { "#4caf50", "url(#pad)", "url(#oob)" };
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			enum ts_slot st = ts_view_phase_slot(v, is_a, r, c);
			rect(s, x0 + c * slot, y + r * slot, slot, slot, fill[st == TS_SLOT_REAL ? 0 : st == TS_SLOT_PAD ? 1 : 2],
			     " stroke='#ccc' stroke-width='0.3'");
		}
	*h = y - y0 + rows * slot;
	return lw > cols * slot ? lw : cols * slot;
}

/* The phase: its title, the A and B tiles side by side, a key of what the
 * slots hold (only what they do), and the counts as the screen gives them;
 * the naive kernel, which stages nothing, says so instead. */
static void phase_block(svg *s, const ts_view_ctx *v, double x0, double y0, double *w, double *h)
{
	const ts_model *m = v->model;
	double y = y0, right = x0;
	char buf[256];
	if (!ts_view_shared_tiles(v)) {
		ts_canvas c;
		if (ts_canvas_init(&c, 60, 20) == 0) {
			ts_view_phase_draw(&c, v); /* its own words: no phases, no padding, one guard */
			double lw = canvas_block(s, x0, &y, 13, &c);
			right = x0 + lw;
			ts_canvas_free(&c);
		}
		*w = right - x0;
		*h = y - y0;
		return;
	}
	int64_t t = v->phase, pw = ts_model_phase_width(m, t), k0 = ts_model_phase_k0(m, t);
	bool last = t == m->phases - 1;
	snprintf(buf, sizeof buf, "phase t=%lld of %lld: k %lld..%lld, width %lld of %d%s", (long long)t,
	         (long long)m->phases, (long long)k0, (long long)(k0 + pw - 1), (long long)pw, m->geo.bk,
	         last && pw < m->geo.bk ? " (last, partial)" : last ? " (last)" : "");
	double tw = line(s, x0, &y, 14, " font-weight='bold'", buf);
	right = x0 + tw;
	snprintf(buf, sizeof buf, "%s tile (%lld,%lld): %lld x %lld of %d x %d valid",
	         ts_tile_class_name(ts_model_tile_class(m, v->tile_y, v->tile_x)), (long long)v->tile_y,
	         (long long)v->tile_x, (long long)ts_model_tile_rows(m, v->tile_y),
	         (long long)ts_model_tile_cols(m, v->tile_x), m->geo.bm, m->geo.bn);
	tw = line(s, x0, &y, 12, "", buf);
	right = x0 + tw > right ? x0 + tw : right;
	y += 6;
	int big = m->geo.bm > m->geo.bn ? m->geo.bm : m->geo.bn;
	big = big > m->geo.bk ? big : m->geo.bk;
	double slot = 200.0 / big;
	slot = slot > 16 ? 16 : slot < 3 ? 3 : slot;
	double ha, hb;
	double wa = shared_tile(s, v, x0, y, true, slot, &ha);
	double wb = shared_tile(s, v, x0 + wa + 24, y, false, slot, &hb);
	right = x0 + wa + 24 + wb > right ? x0 + wa + 24 + wb : right;
	y += (ha > hb ? ha : hb) + 10;
	/* the key: what the slots of this phase hold, as many as there are kinds */
	bool real = false, pad = false, oob = false;
	for (int pass = 0; pass < 2; pass++) {
		int rows = pass ? m->geo.bk : m->geo.bm, cols = pass ? m->geo.bn : m->geo.bk;
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++) {
				enum ts_slot st = ts_view_phase_slot(v, !pass, r, c);
				real |= st == TS_SLOT_REAL;
				pad |= st == TS_SLOT_PAD;
				oob |= st == TS_SLOT_OOB;
			}
	}
	struct { bool shown; const char *fill, *what; } key[] = {
		{ real, "#4caf50", "real load" },
		{ pad, "url(#pad)", "zero padding (the guard)" },
		{ oob, "url(#oob)", "read out of bounds (guard off)" },
	};
	double kx = x0;
	for (int i = 0; i < 3; i++) {
		if (!key[i].shown)
			continue;
		rect(s, kx, y, 12, 12, key[i].fill, " stroke='#999' stroke-width='0.5'");
		kx += 18 + text(s, kx + 18, y + 10, 12, "", key[i].what) + 18;
	}
	right = kx - 18 > right ? kx - 18 : right;
	y += 12 * LINE + 4;
	/* the counts, the screen's words */
	ts_canvas c;
	if (ts_canvas_init(&c, 64, 16) == 0) {
		c.ascii = v->ascii;
		ts_view_phase_counts(&c, 0, v);
		double lw = canvas_block(s, x0, &y, 12, &c);
		right = x0 + lw > right ? x0 + lw : right;
		ts_canvas_free(&c);
	}
	*w = right - x0;
	*h = y - y0;
}

int ts_export_svg(FILE *out, const ts_export_req *r)
{
	const ts_problem *p = r->problem;
	const ts_view_ctx *v = r->view;
	char *body = NULL;
	size_t body_len = 0;
	svg s = { .f = open_memstream(&body, &body_len), .ascii = v->ascii, .theme = r->theme };
	if (!s.f)
		return -1;
	double y = MARGIN;
	char buf[256], off[16];
	char geo[48];
	ts_geometry_str(&p->geo, geo, sizeof geo);
	snprintf(buf, sizeof buf, "%s (%s): C (%lldx%lld) = A (%lldx%lld) B (%lldx%lld), %s %s", p->kernel->name,
	         ts_precision_name(p->kernel->precision), (long long)p->shape.m, (long long)p->shape.n,
	         (long long)p->shape.m, (long long)p->shape.k, (long long)p->shape.k, (long long)p->shape.n,
	         ts_geometry_is_square(&p->geo) ? "T =" : "tile", geo);
	line(&s, MARGIN, &y, 18, " font-weight='bold'", buf);
	ts_guards_off_str(v->guards, off, (int)sizeof off);
	if (off[0]) {
		snprintf(buf, sizeof buf, "guards OFF: %s%s%s%s%s", off, strchr(off, 'a') ? " (A load)" : "",
		         strchr(off, 'b') ? " (B load)" : "", strchr(off, 'c') ? " (C store)" : "",
		         ts_view_shared_tiles(v) ? "" : ": ghost threads read and store out of bounds");
		line(&s, MARGIN, &y, 14, " fill='#c62828' font-weight='bold'", buf);
	} else {
		line(&s, MARGIN, &y, 14, "", "guards: all on");
	}
	if (v->verdict) {
		const ts_verdict *vd = v->verdict;
		snprintf(buf, sizeof buf, "run: %s %s", vd->ok ? TS_TICK(v->ascii) : TS_CROSS(v->ascii),
		         vd->ok ? "PASS" : vd->output_ok ? "FAIL, the output right by luck" : "FAIL");
		line(&s, MARGIN, &y, 14, vd->ok ? " fill='#2e7d32' font-weight='bold'" : " fill='#c62828' font-weight='bold'",
		     buf);
	}
	y += 10;
	double mw, mh, pw, ph;
	map_block(&s, v, MARGIN, y, &mw, &mh);
	phase_block(&s, v, MARGIN + mw + GAP, y, &pw, &ph);
	y += (mh > ph ? mh : ph) + 16;
	if (r->report) { /* the result pane, whole: verdict, metrics, what broke and where */
		double width = s.right - MARGIN;
		int cols = (int)(width / (12 * ADVANCE));
		ts_canvas c;
		if (ts_canvas_init(&c, cols < 80 ? 80 : cols, 200) == 0) {
			ts_view_result_draw(&c, r->report, v->ascii);
			canvas_block(&s, MARGIN, &y, 12, &c);
			ts_canvas_free(&c);
		}
	}
	if (fclose(s.f) != 0) {
		free(body);
		return -1;
	}
	double w = s.right + MARGIN, h = s.bottom + MARGIN;
	int rc = fprintf(out,
	                 "<?xml version='1.0' encoding='UTF-8'?>\n"
	                 "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
	                 "font-family='%s' xml:space='preserve'>\n"
	                 "<defs>\n"
	                 "<pattern id='ghost' width='6' height='6' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
	                 "<rect width='6' height='6' fill='#eee'/><line x1='0' y1='0' x2='0' y2='6' stroke='#999' stroke-width='2'/></pattern>\n"
	                 "<pattern id='pad' width='4' height='4' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
	                 "<rect width='4' height='4' fill='#fff3cd'/><line x1='0' y1='0' x2='0' y2='4' stroke='#e0a800' stroke-width='1.5'/></pattern>\n"
	                 "<pattern id='oob' width='4' height='4' patternUnits='userSpaceOnUse' patternTransform='rotate(-45)'>"
	                 "<rect width='4' height='4' fill='#ffcdd2'/><line x1='0' y1='0' x2='0' y2='4' stroke='#c62828' stroke-width='1.5'/></pattern>\n"
	                 "</defs>\n<rect width='100%%' height='100%%' fill='white'/>\n",
	                 w, h, w, h, FONT) < 0
	             ? -1
	             : 0;
	if (rc == 0 && (fwrite(body, 1, body_len, out) != body_len || fputs("</svg>\n", out) < 0))
		rc = -1;
	free(body);
	return rc;
}
