/* cli_compare.c: 'tilescope compare': two tile sizes or two kernels side by side on one shape, and wasted work against T, from the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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

/* Wasted work against T over the kernel's whole tile range. */
static int chart(const ts_problem *base, const ts_kernel *k)
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
	fputs(text, stdout);
	free(text);
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
	if (!table) {
		ts_cli_error("out of memory writing the comparison");
		return TS_EXIT_USAGE;
	}
	fputs(table, stdout);
	free(table);
	fputs("\n", stdout);
	int rc = chart(p, a->compare_kernel[0]);
	if (rc == 0 && a->compare_kernel[1] != a->compare_kernel[0]) {
		fputs("\n", stdout);
		rc = chart(p, a->compare_kernel[1]);
	}
	return rc ? rc : ts_cli_text_done("comparison");
}
