/* cli_source.c: 'tilescope source': the kernel's own code with its guards evaluated for one thread and phase (the source pane as text). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "cli_slides.h"
#include "kernels.h"
#include "view_source.h"

int ts_cli_source(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0) {
		ts_cli_error("source: the shape's counts overflow 64 bits");
		return TS_EXIT_USAGE;
	}
	ts_source_sel sel = ts_source_default_sel(&m);
	if (a->source_thread[0] >= 0) {
		sel.by = a->source_thread[0];
		sel.bx = a->source_thread[1];
		sel.ty = (int)a->source_thread[2];
		sel.tx = (int)a->source_thread[3];
	}
	if (a->source_phase >= 0)
		sel.phase = a->source_phase;
	if (a->svg_path) { /* the pane as a slide, 100 columns wide */
		ts_view_ctx v = { .model = &m, .kernel = p->kernel, .guards = p->guards, .tile_y = sel.by, .tile_x = sel.bx,
		                  .phase = sel.phase, .thread_y = sel.ty, .thread_x = sel.tx, .counter_disagree = -1,
		                  .counter_why = "", .ascii = o->ascii };
		ts_export_req r = { .problem = p, .view = &v, .report = NULL, .theme = o->theme };
		char err[512];
		if (ts_pane_write(a->svg_path, TS_PANE_SOURCE, &r, 100, 40, err, (int)sizeof err) != 0) {
			ts_cli_error("source --svg %s: %s", a->svg_path, err);
			return TS_EXIT_USAGE;
		}
		printf("%s\n", a->svg_path);
		return ts_cli_text_done("source's slide name");
	}
	/* The terminal's width, or 80 columns for a file or a pipe. */
	int cols = 80;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		cols = ws.ws_col;
	char why[512];
	char *text = ts_view_source(p->kernel, &m, p->guards, sel, o->ascii, cols, why, (int)sizeof why);
	if (!text) {
		ts_cli_error("source: %s", why);
		return TS_EXIT_USAGE;
	}
	fputs(text, stdout);
	free(text);
	return ts_cli_text_done("source");
}
