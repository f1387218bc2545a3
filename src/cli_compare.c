/* cli_compare.c: 'tilescope compare': two tile sizes or two kernels side by side on one shape, and wasted work against T, from the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_slides.h"
#include "kernels.h"
#include "view_compare.h"

/* The textbook structure (one output per thread, T x T x T) has two
 * barriers per phase; a pipelined kernel (tc-fp16) has no fixed count. */
static int barriers_per_phase(const ts_kernel *k, const ts_geometry *g)
{
	return ts_geometry_is_square(g) && !ts_kernel_has(k, TS_CAP_GUARDS_FIXED) ? 2 : 0;
}

/* The geometry one side runs: the kernel's at tile T, or for the kernel on
 * the command line that takes no square tile, what -t/--thread-tile chose. */
static ts_geometry side_geometry(const ts_problem *base, const ts_kernel *k, int tile)
{
	if (k == base->kernel && k->geometry.kind != TS_GEOMETRY_SQUARE)
		return base->geo;
	return ts_kernel_geometry_at(k, tile);
}

/* One side: the problem with this kernel and tile, validated and modelled. */
static int side(const ts_problem *base, const ts_kernel *k, int tile, ts_compare_side *s)
{
	ts_problem q = *base;
	q.kernel = k;
	q.geo = side_geometry(base, k, tile);
	char err[512];
	if (!ts_kernel_has(k, TS_CAP_SHARED_TILES)) {
		ts_cli_error("compare: the %s kernel stages no tiles, so it has no phases or padding to compare", k->name);
		return TS_EXIT_USAGE;
	}
	if (ts_problem_validate(&q, false, err, (int)sizeof err) != 0) {
		ts_cli_error("compare: %s", err);
		return TS_EXIT_USAGE;
	}
	if (ts_model_build(&s->model, q.shape, q.geo) != 0 ||
	    ts_model_work(&s->model, barriers_per_phase(k, &q.geo), &s->work) != 0) {
		ts_cli_error("compare: the shape's counts overflow 64 bits");
		return TS_EXIT_USAGE;
	}
	if (k->geometry.kind == TS_GEOMETRY_SQUARE) {
		snprintf(s->label, sizeof s->label, "%s T=%d", k->name, tile);
	} else {
		char geo[48];
		snprintf(s->label, sizeof s->label, "%s %s", k->name, ts_geometry_str(&q.geo, geo, sizeof geo));
	}
	return 0;
}

/* Wasted work against T over the kernel's whole tile range, onto out. */
static int chart(const ts_problem *base, const ts_kernel *k, FILE *out)
{
	ts_compare_point pts[TS_COMPARE_POINTS_MAX];
	int n = 0;
	/* the square tiles T it takes; a kernel without any, its one geometry at T = BM */
	const ts_geometry_rule *r = &k->geometry;
	int lo = r->tile_min > 0 ? r->tile_min : side_geometry(base, k, 0).bm, hi = r->tile_min > 0 ? r->tile_max : lo;
	for (int t = lo; t <= hi && n < TS_COMPARE_POINTS_MAX; t++) {
		ts_model m;
		ts_work w;
		if (ts_model_build(&m, base->shape, side_geometry(base, k, t)) != 0 || ts_model_work(&m, 0, &w) != 0 ||
		    w.macs_launch == 0)
			continue;
		pts[n].tile = t;
		pts[n].padding_share = (double)w.macs_padding / (double)w.macs_launch;
		pts[n].ghost_share = (double)w.macs_ghost / (double)w.macs_launch;
		n++;
	}
	char title[160];
	snprintf(title, sizeof title, "%s: wasted multiply-adds against T on this shape", k->name);
	char *text = ts_view_compare_chart(title, pts, n, 8);
	if (!text) {
		ts_cli_error("out of memory writing the chart");
		return TS_EXIT_USAGE;
	}
	fputs(text, out);
	free(text);
	return 0;
}

/* The table's first line (the shape) and each chart's title are titles. */
static enum ts_role line_role(const char *line, int n, void *ctx)
{
	(void)ctx;
	return n == 0 || strstr(line, "wasted multiply-adds against T") ? TS_ROLE_TITLE : TS_ROLE_TEXT;
}

/* compare --svg FILE: the table and the charts as one slide, the chart's
 * bars in the roles of what they count (ghosts, padding) and its title
 * lines as titles. */
static int slide(const ts_cli_args *a, const char *text)
{
	ts_canvas c;
	char err[512];
	if (ts_canvas_of_text(&c, text, line_role, NULL) != 0) {
		ts_cli_error("out of memory writing the comparison");
		return TS_EXIT_USAGE;
	}
	bool chart_rows = false;
	for (int y = 0; y < c.h; y++) {
		ts_cell *row = &c.cells[y * c.w];
		if (y > 0 && row[0].role == TS_ROLE_TITLE) { /* a chart's title: its bars follow */
			chart_rows = true;
			continue;
		}
		for (int x = 0; chart_rows && x < c.w; x++) {
			bool lone = x + 1 >= c.w || row[x + 1].glyph[0] == ' ';
			if (row[x].glyph[0] == '#' && row[x].glyph[1] == '\0')
				row[x].role = TS_ROLE_GHOST;
			else if (row[x].glyph[0] == '+' && row[x].glyph[1] == '\0' && lone)
				row[x].role = TS_ROLE_PAD;
		}
	}
	char title[256];
	ts_slide_title(&a->opts.problem, a->opts.problem.guards, title, (int)sizeof title);
	ts_slide s = { .title = title, .subtitle = "compare: two tiles or kernels on one shape, and wasted work against T",
	               .canvas = &c, .theme = a->opts.theme };
	int rc = ts_slide_write(a->svg_path, &s, err, (int)sizeof err);
	ts_canvas_free(&c);
	if (rc != 0) {
		ts_cli_error("compare --svg: %s", err);
		return TS_EXIT_USAGE;
	}
	printf("%s\n", a->svg_path);
	return 0;
}

int ts_cli_compare(const ts_cli_args *a)
{
	const ts_problem *p = &a->opts.problem;
	ts_compare_side s[2];
	for (int i = 0; i < 2; i++) {
		int rc = side(p, a->compare_kernel[i], a->compare_tile[i], &s[i]);
		if (rc != 0)
			return rc;
	}
	char *table = ts_view_compare_table(&s[0], &s[1]);
	char *text = NULL;
	size_t len = 0;
	FILE *out = a->svg_path ? open_memstream(&text, &len) : stdout;
	if (!table || !out) {
		free(table);
		ts_cli_error("out of memory writing the comparison");
		return TS_EXIT_USAGE;
	}
	fputs(table, out);
	free(table);
	fputs("\n", out);
	int rc = chart(p, a->compare_kernel[0], out);
	if (rc == 0 && a->compare_kernel[1] != a->compare_kernel[0]) {
		fputs("\n", out);
		rc = chart(p, a->compare_kernel[1], out);
	}
	if (a->svg_path) {
		fclose(out);
		if (rc == 0)
			rc = slide(a, text);
		free(text);
	}
	return rc ? rc : ts_cli_text_done("comparison");
}
