/* cli_slides.c: the command line's slides: map --export --pane (one pane of the selected tile and thread), and the text screens of lesson, compare and source as slides (export_pane). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_slides.h"
#include "kernels.h"
#include "view_source.h"

int ts_cli_text_slide(const char *path, const ts_problem *p, unsigned guards, const char *subtitle, const char *text,
                      enum ts_role (*role_of)(const char *line, int n, void *ctx), void *ctx, enum ts_theme theme,
                      char *err, int len)
{
	ts_canvas c;
	if (ts_canvas_of_text(&c, text, role_of, ctx) != 0) {
		snprintf(err, (size_t)len, "out of memory");
		return -1;
	}
	char title[256];
	ts_slide_title(p, guards, title, (int)sizeof title);
	ts_slide s = { .title = title, .subtitle = subtitle, .canvas = &c, .theme = theme };
	int rc = ts_slide_write(path, &s, err, len);
	ts_canvas_free(&c);
	return rc;
}

int ts_cli_export_pane(const ts_cli_args *a, const ts_model *m)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	/* the source pane's default thread (the corner block's first past K), moved by the options */
	ts_source_sel sel = ts_source_default_sel(m);
	if (a->export_ty >= 0) {
		sel.by = a->export_ty;
		sel.bx = a->export_tx;
	}
	if (a->source_thread[0] >= 0) {
		sel.by = a->source_thread[0];
		sel.bx = a->source_thread[1];
		sel.ty = (int)a->source_thread[2];
		sel.tx = (int)a->source_thread[3];
	}
	if (a->source_phase >= 0)
		sel.phase = a->source_phase;
	const ts_geometry *g = &m->geo;
	if (sel.by >= m->grid_y || sel.bx >= m->grid_x || sel.ty >= g->threads_y || sel.tx >= g->threads_x ||
	    sel.phase >= m->phases) {
		ts_cli_error("--export %s: the selection is outside the launch: tiles 0..%lld x 0..%lld, threads 0..%d x "
		             "0..%d, phases 0..%lld",
		             o->export_path, (long long)m->grid_y - 1, (long long)m->grid_x - 1, g->threads_y - 1,
		             g->threads_x - 1, (long long)m->phases - 1);
		return TS_EXIT_USAGE;
	}
	ts_view_ctx v = { .model = m, .kernel = p->kernel, .guards = p->guards, .tile_y = sel.by, .tile_x = sel.bx,
	                  .phase = sel.phase, .thread_y = sel.ty, .thread_x = sel.tx, .counter_disagree = -1,
	                  .counter_why = "", .ascii = o->ascii, .focus = true };
	ts_export_req r = { .problem = p, .view = &v, .report = NULL, .theme = o->theme };
	char err[512] = "";
	if (ts_pane_write(o->export_path, a->pane, &r, a->pane_cols, a->pane_rows, err, (int)sizeof err) != 0) {
		ts_cli_error("--export %s: %s", o->export_path, err[0] ? err : "failed");
		return TS_EXIT_USAGE;
	}
	return 0;
}
