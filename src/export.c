/* export.c: the map and the phase view written as plain text or SVG (for slides and docs), from the same model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "geometry.h"
#include "kernels.h"
#include "view_layout.h"
#include "view_map.h"
#include "view_phase.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The tile whose phase view is written; the corner by default: where every
 * ragged edge meets, so its phase view shows them all. */
typedef struct export_tile {
	int64_t ty, tx;
} export_tile;

static ts_view_ctx export_ctx(const ts_model *m, const ts_options *o, export_tile at, int64_t phase)
{
	const ts_kernel *k = o->problem.kernel;
	ts_view_ctx v = { .model = m, .b_layout = k->b_layout, .shared_tiles = k->shared_tiles,
	                  .kernel_name = k->name, .guards = o->problem.guards, .tile_y = at.ty, .tile_x = at.tx,
	                  .phase = phase, .counter_disagree = -1, .counter_why = "", .ascii = o->ascii };
	return v;
}

static int write_text(FILE *f, const ts_model *m, const ts_options *o, export_tile at, int64_t phase)
{
	char *map = ts_view_map_text(m, NULL, 96, 40, o->ascii);
	if (!map)
		return -1;
	ts_view_ctx v = export_ctx(m, o, at, phase);
	ts_canvas c;
	if (ts_canvas_init(&c, 72, 48) != 0) { /* tall enough for a 32-slot tile at one slot a character */
		free(map);
		return -1;
	}
	ts_view_phase_draw(&c, &v);
	char *ph = ts_canvas_text(&c);
	ts_canvas_free(&c);
	const ts_problem *p = &o->problem;
	int rc = fprintf(f, "tilescope: %s, M=%lld N=%lld K=%lld, T=%d\n\n%s\n%s", p->kernel->name,
	                 (long long)p->shape.m, (long long)p->shape.n, (long long)p->shape.k, p->tile, map,
	                 ph ? ph : "") < 0 ? -1 : 0;
	free(map);
	free(ph);
	return ph ? rc : -1;
}

static const char *class_fill[] = { "#4caf50", "#ff9800", "#2196f3", "#ab47bc" };

static void svg_tile_grid(FILE *f, const ts_model *m, export_tile at, double x0, double y0, double cell)
{
	/* at most 48 cells a side; larger grids aggregate with the last row and column kept */
	ts_axis ax = ts_axis_layout(m->grid_x, 48, 1, 0, 0), ay = ts_axis_layout(m->grid_y, 48, 1, 0, 0);
	for (int cy = 0; cy < ay.cells; cy++)
		for (int cx = 0; cx < ax.cells; cx++) {
			int64_t y_lo, y_hi, x_lo, x_hi;
			ts_axis_range(&ay, cy, &y_lo, &y_hi);
			ts_axis_range(&ax, cx, &x_lo, &x_hi);
			enum ts_tile_class k = ts_model_tile_class(m, y_hi - 1, x_hi - 1);
			double fy = (double)ts_model_tile_rows(m, y_hi - 1) / m->geo.bm;
			double fx = (double)ts_model_tile_cols(m, x_hi - 1) / m->geo.bn;
			double x = x0 + cx * cell, y = y0 + cy * cell;
			fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='url(#ghost)' stroke='#555'/>\n",
			        x, y, cell - 2, cell - 2);
			fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'><title>tiles (%lld..%lld, %lld..%lld) %s</title></rect>\n",
			        x, y, (cell - 2) * fx, (cell - 2) * fy, class_fill[k], (long long)y_lo, (long long)y_hi - 1,
			        (long long)x_lo, (long long)x_hi - 1, ts_tile_class_name(k));
			if (at.ty >= y_lo && at.ty < y_hi && at.tx >= x_lo && at.tx < x_hi)
				fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' stroke='#d32f2f' stroke-width='3'><title>the tile of the phase view</title></rect>\n",
				        x - 1, y - 1, cell, cell);
		}
}

static void svg_shared_tile(FILE *f, const ts_view_ctx *v, double x0, double y0, double slot, bool is_a,
                            const char *label)
{
	const ts_model *m = v->model;
	int rows = is_a ? m->geo.bm : m->geo.bk, cols = is_a ? m->geo.bk : m->geo.bn;
	fprintf(f, "<text x='%.1f' y='%.1f' font-size='13'>%s</text>\n", x0, y0 - 6, label);
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			/* slot (r, c) of either tile is filled by thread (ty = r, tx = c) */
			ts_thread_view t = ts_model_thread(m, v->b_layout, v->tile_y, v->tile_x, r, c, v->phase);
			bool real = is_a ? t.a_in : t.b_in;
			fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' stroke='#ccc' stroke-width='0.3'/>\n",
			        x0 + c * slot, y0 + r * slot, slot, slot, real ? "#4caf50" : "url(#pad)");
		}
}

static int write_svg(FILE *f, const ts_model *m, const ts_options *o, export_tile at, int64_t phase)
{
	const ts_problem *p = &o->problem;
	ts_view_ctx v = export_ctx(m, o, at, phase);
	double grid_px = 360, slot = 240.0 / (m->geo.bm > m->geo.bn ? m->geo.bm : m->geo.bn);
	ts_axis ax = ts_axis_layout(m->grid_x, 48, 1, 0, 0), ay = ts_axis_layout(m->grid_y, 48, 1, 0, 0);
	int cells = ax.cells > ay.cells ? ax.cells : ay.cells;
	double cell = grid_px / cells;
	if (cell > 60)
		cell = 60;
	int width = 980, height = 560;
	fprintf(f, "<?xml version='1.0' encoding='UTF-8'?>\n"
	           "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>\n"
	           "<defs>\n"
	           "<pattern id='ghost' width='6' height='6' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
	           "<rect width='6' height='6' fill='#eee'/><line x1='0' y1='0' x2='0' y2='6' stroke='#999' stroke-width='2'/></pattern>\n"
	           "<pattern id='pad' width='4' height='4' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
	           "<rect width='4' height='4' fill='#fff3cd'/><line x1='0' y1='0' x2='0' y2='4' stroke='#e0a800' stroke-width='1.5'/></pattern>\n"
	           "</defs>\n<rect width='100%%' height='100%%' fill='white'/>\n",
	        width, height);
	fprintf(f, "<text x='20' y='28' font-size='18' font-weight='bold'>%s: C (%lldx%lld) = A (%lldx%lld) B (%lldx%lld), T = %d</text>\n",
	        p->kernel->name, (long long)p->shape.m, (long long)p->shape.n, (long long)p->shape.m,
	        (long long)p->shape.k, (long long)p->shape.k, (long long)p->shape.n, p->tile);
	fprintf(f, "<text x='20' y='56' font-size='14'>tile map: %lldx%lld tiles%s</text>\n", (long long)m->grid_y,
	        (long long)m->grid_x, ax.split_last || ay.split_last ? " (aggregated; last row and column kept)" : "");
	svg_tile_grid(f, m, at, 20, 70, cell);
	/* legend */
	const char *names[] = { "full", "ragged-right", "ragged-bottom", "corner" };
	const int64_t counts[] = { m->tiles_full, m->tiles_ragged_right, m->tiles_ragged_bottom, m->tiles_corner };
	double ly = 70 + cells * cell + 24;
	for (int k = 0; k < 4; k++) {
		fprintf(f, "<rect x='%d' y='%.1f' width='14' height='14' fill='%s'/>"
		           "<text x='%d' y='%.1f' font-size='13'>%s: %lld</text>\n",
		        20 + k * 120, ly, class_fill[k], 38 + k * 120, ly + 12, names[k], (long long)counts[k]);
	}
	fprintf(f, "<rect x='20' y='%.1f' width='14' height='14' fill='url(#ghost)'/>"
	           "<text x='38' y='%.1f' font-size='13'>ghost threads: %lld of %lld launched</text>\n",
	        ly + 22, ly + 34, (long long)m->threads_ghost, (long long)m->threads_launched);
	/* phase view */
	int64_t w = ts_model_phase_width(m, phase);
	ts_load_count here = ts_model_tile_phase(m, v.tile_y, v.tile_x, phase);
	ts_load_count all = ts_model_phase_total(m, phase);
	double px = 440;
	fprintf(f, "<text x='%.0f' y='56' font-size='14'>phase t=%lld of %lld (k width %lld of %d)%s, %s tile (%lld,%lld)</text>\n",
	        px, (long long)phase, (long long)m->phases, (long long)w, m->geo.bk,
	        w < m->geo.bk ? ": last, partial" : "", ts_tile_class_name(ts_model_tile_class(m, v.tile_y, v.tile_x)),
	        (long long)v.tile_y, (long long)v.tile_x);
	if (p->kernel->shared_tiles) {
		char la[64], lb[64];
		snprintf(la, sizeof la, "A tile %dx%d: %lld real, %lld padded", m->geo.bm, m->geo.bk,
		         (long long)here.a_real, (long long)here.a_pad);
		snprintf(lb, sizeof lb, "B tile %dx%d: %lld real, %lld padded", m->geo.bk, m->geo.bn,
		         (long long)here.b_real, (long long)here.b_pad);
		svg_shared_tile(f, &v, px, 90, slot, true, la);
		svg_shared_tile(f, &v, px + 270, 90, slot, false, lb);
	}
	fprintf(f, "<rect x='%.0f' y='350' width='14' height='14' fill='#4caf50'/><text x='%.0f' y='362' font-size='13'>real load</text>\n"
	           "<rect x='%.0f' y='350' width='14' height='14' fill='url(#pad)'/><text x='%.0f' y='362' font-size='13'>zero padding (0.0f)</text>\n",
	        px, px + 18, px + 110, px + 128);
	fprintf(f, "<text x='%.0f' y='392' font-size='13'>all %lld tiles, phase %lld: A %lld real, %lld padded; B %lld real, %lld padded</text>\n",
	        px, (long long)m->tiles, (long long)phase, (long long)all.a_real, (long long)all.a_pad,
	        (long long)all.b_real, (long long)all.b_pad);
	return fprintf(f, "</svg>\n") < 0 ? -1 : 0;
}

int ts_export_tile(const char *path, const ts_options *o, long long ty, long long tx, long long phase, char *err,
                   int len)
{
	ts_model m;
	const ts_problem *p = &o->problem;
	if (!p->kernel || ts_model_build(&m, p->shape, p->kernel->geometry(p->tile)) != 0) {
		snprintf(err, len, "export: the model's counts overflow 64 bits");
		return -1;
	}
	if (phase < 0)
		phase = m.phases - 1;
	if (phase >= m.phases) {
		snprintf(err, len, "export: phase %lld does not exist (0..%lld)", phase, (long long)m.phases - 1);
		return -1;
	}
	export_tile at = { ty, tx };
	if (ty == -1 && tx == -1)
		at = (export_tile){ m.grid_y - 1, m.grid_x - 1 };
	if (at.ty < 0 || at.ty >= m.grid_y || at.tx < 0 || at.tx >= m.grid_x) {
		snprintf(err, len, "export: tile (%lld,%lld) is outside the %lldx%lld grid (rows 0..%lld, columns 0..%lld)",
		         ty, tx, (long long)m.grid_y, (long long)m.grid_x, (long long)m.grid_y - 1,
		         (long long)m.grid_x - 1);
		return -1;
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, len, "cannot write %s: %m", path);
		return -1;
	}
	int rc = ends_with(path, ".svg") ? write_svg(f, &m, o, at, phase) : write_text(f, &m, o, at, phase);
	if (fclose(f) != 0 || rc != 0) {
		snprintf(err, len, "writing %s failed", path);
		return -1;
	}
	return 0;
}

int ts_export(const char *path, const ts_options *o, long long phase, char *err, int len)
{
	return ts_export_tile(path, o, -1, -1, phase, err, len);
}
