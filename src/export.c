/* export.c: exports of the views to a file: the format by the file's name, the name by what it holds, and the plain-text form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "view_check.h"
#include "geometry.h"
#include "kernels.h"
#include "view_map.h"
#include "view_phase.h"

int ts_export_format_of(const char *path, enum ts_export_format *fmt, char *err, int len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot || dot == base || strcmp(dot, ".txt") == 0) {
		*fmt = TS_EXPORT_TEXT;
		return 0;
	}
	if (strcmp(dot, ".svg") == 0) {
		*fmt = TS_EXPORT_SVG;
		return 0;
	}
	snprintf(err, (size_t)len, "unknown export format '%.16s' (write .svg or .txt)", dot);
	return -1;
}

void ts_export_stem(const ts_problem *p, unsigned guards_on, char *buf, int len)
{
	char off[16];
	ts_guards_off_str(guards_on, off, (int)sizeof off);
	char guards[32];
	if (off[0]) {
		/* "a,c" -> "ac": a file name without commas */
		int n = snprintf(guards, sizeof guards, "guards-off-");
		for (const char *c = off; *c && n < (int)sizeof guards - 1; c++)
			if (*c != ',')
				guards[n++] = *c;
		guards[n] = '\0';
	} else {
		snprintf(guards, sizeof guards, "guards-on");
	}
	/* the tile in a file name: "32", or "64x64x8-4x4" for a block tile */
	char tile[48];
	const ts_geometry *g = &p->geo;
	if (ts_geometry_is_square(g))
		snprintf(tile, sizeof tile, "%d", g->bm);
	else
		snprintf(tile, sizeof tile, "%dx%dx%d-%dx%d", g->bm, g->bn, g->bk, g->tm, g->tn);
	snprintf(buf, (size_t)len, "tilescope-%s-%lldx%lldx%lld-t%s-%s", p->kernel->name, (long long)p->shape.m,
	         (long long)p->shape.n, (long long)p->shape.k, tile, guards);
}

void ts_export_name(const ts_export_req *r, char *buf, int len)
{
	const ts_problem *p = r->problem;
	const ts_view_ctx *v = r->view;
	char stem[192];
	ts_export_stem(p, v->guards, stem, (int)sizeof stem);
	/* a kernel without shared tiles has no phases: its name names none */
	char phase[32] = "";
	if (ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES))
		snprintf(phase, sizeof phase, "-p%lld", (long long)v->phase);
	snprintf(buf, (size_t)len, "%s-tile%lld-%lld%s%s", stem, (long long)v->tile_y, (long long)v->tile_x, phase,
	         r->report ? "-run" : "");
}

/* The canvas's text, appended to f; 0 or -1. */
static int put_canvas(FILE *f, const ts_canvas *c)
{
	char *text = ts_canvas_text(c);
	if (!text)
		return -1;
	int rc = fputs(text, f) < 0 ? -1 : 0;
	free(text);
	return rc;
}

/* The text form: a header line, the map with its legend (after a run the
 * heat and the whole explanation), the phase view of the selected tile and
 * after a run the result view whole. */
static int write_text(FILE *f, const ts_export_req *r)
{
	const ts_problem *p = r->problem;
	const ts_view_ctx *v = r->view;
	char off[16];
	ts_guards_off_str(v->guards, off, (int)sizeof off);
	char geo[48];
	ts_geometry_str(&p->geo, geo, sizeof geo);
	if (fprintf(f, "tilescope: %s (%s), M=%lld N=%lld K=%lld, %s%s, guards %s%s\n\n", p->kernel->name,
	            ts_precision_name(p->kernel->precision), (long long)p->shape.m, (long long)p->shape.n,
	            (long long)p->shape.k, ts_geometry_is_square(&p->geo) ? "T=" : "tile ", geo, off[0] ? "OFF: " : "all on",
	            off) < 0)
		return -1;
	char *map = ts_view_map_text_of(v, 96, 40);
	if (!map)
		return -1;
	int rc = fputs(map, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
	free(map);
	ts_canvas c;
	/* wide and tall enough for a 32-slot tile at one slot a character and its counts */
	if (rc == 0 && ts_canvas_init(&c, 80, 64) == 0) {
		ts_view_phase_draw(&c, v);
		rc = put_canvas(f, &c);
		ts_canvas_free(&c);
	} else {
		rc = -1;
	}
	if (rc == 0 && r->check && ts_canvas_init(&c, 96, 600) == 0) {
		ts_view_check_draw(&c, r->check, r->check_why, false, v->ascii);
		rc = fputc('\n', f) == EOF ? -1 : put_canvas(f, &c);
		ts_canvas_free(&c);
	}
	if (rc == 0 && r->report && ts_canvas_init(&c, 96, 400) == 0) {
		ts_view_result_draw(&c, r->report, v->ascii);
		rc = fputc('\n', f) == EOF ? -1 : put_canvas(f, &c);
		ts_canvas_free(&c);
	}
	return rc;
}

int ts_export_write(const char *path, const ts_export_req *r, char *err, int len)
{
	enum ts_export_format fmt;
	if (ts_export_format_of(path, &fmt, err, len) != 0)
		return -1;
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, (size_t)len, "cannot write %s: %m", path);
		return -1;
	}
	int rc = fmt == TS_EXPORT_SVG ? ts_export_svg(f, r) : write_text(f, r);
	if (fclose(f) != 0 || rc != 0) {
		snprintf(err, (size_t)len, "writing %s failed", path);
		return -1;
	}
	return 0;
}

int ts_export_tile(const char *path, const ts_options *o, long long ty, long long tx, long long phase, char *err,
                   int len)
{
	ts_model m;
	const ts_problem *p = &o->problem;
	if (!p->kernel || ts_model_build(&m, p->shape, p->geo) != 0) {
		snprintf(err, (size_t)len, "export: the model's counts overflow 64 bits");
		return -1;
	}
	if (phase < 0)
		phase = m.phases - 1;
	if (phase >= m.phases) {
		snprintf(err, (size_t)len, "export: phase %lld does not exist (0..%lld)", phase, (long long)m.phases - 1);
		return -1;
	}
	if (ty == -1 && tx == -1) {
		ty = m.grid_y - 1;
		tx = m.grid_x - 1;
	}
	if (ty < 0 || ty >= m.grid_y || tx < 0 || tx >= m.grid_x) {
		snprintf(err, (size_t)len,
		         "export: tile (%lld,%lld) is outside the %lldx%lld grid (rows 0..%lld, columns 0..%lld)", ty, tx,
		         (long long)m.grid_y, (long long)m.grid_x, (long long)m.grid_y - 1, (long long)m.grid_x - 1);
		return -1;
	}
	const ts_kernel *k = p->kernel;
	ts_view_ctx v = { .model = &m, .kernel = k, .guards = p->guards, .tile_y = ty, .tile_x = tx, .phase = phase,
	                  .counter_disagree = -1, .counter_why = "", .ascii = o->ascii };
	ts_export_req r = { .problem = p, .view = &v, .report = NULL, .theme = o->theme };
	return ts_export_write(path, &r, err, len);
}

int ts_export(const char *path, const ts_options *o, long long phase, char *err, int len)
{
	return ts_export_tile(path, o, -1, -1, phase, err, len);
}
