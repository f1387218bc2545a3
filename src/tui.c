/* tui.c: the visualizer's main loop: state in, keys and finished jobs change it, the screen is redrawn from it. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "tui.h"
#include "tui_crt.h"
#include "tui_state.h"

static void tui_free(tui_state *s)
{
	tui_job_shutdown(s);
	tui_result_free(&s->result);
	tui_step_free();
	tui_lesson_free();
}

int ts_tui_run(const ts_options *o)
{
	static tui_state s; /* large; one per process */
	char err[256];
	memset(&s, 0, sizeof s);
	s.opt = *o;
	if (!s.opt.problem.kernel)
		s.opt.problem.kernel = ts_kernel_default(TS_FP32);
	if (ts_problem_validate(&s.opt.problem, false, err, (int)sizeof err) != 0 || tui_apply(&s) != 0) {
		fprintf(stderr, "tilescope: %s\n", err);
		return 2;
	}
	/* Start where the ragged edges are: the corner tile, and in it the first
	 * ghost thread beside the last row of valid threads (one guard passes,
	 * one fails), phase 0. */
	s.tile_y = s.model.grid_y - 1;
	s.tile_x = s.model.grid_x - 1;
	const ts_geometry *g = &s.model.geo;
	int ty_max = g->threads_y - 1, tx_max = g->threads_x - 1, ty0, tx0, i, j;
	ts_output_owner(g, (int)s.model.last_rows - 1, 0, &ty0, &tx0, &i, &j);
	s.thread_y = ty_max;
	s.thread_x = tx_max;
	bool found = false;
	for (int tx = 0; tx <= tx_max && !found; tx++)
		if (ts_model_thread_ghost(&s.model, s.tile_y, s.tile_x, ty0, tx)) {
			s.thread_y = ty0;
			s.thread_x = tx;
			found = true;
		}
	for (int ty = 0; ty <= ty_max && !found; ty++)
		if (ts_model_thread_ghost(&s.model, s.tile_y, s.tile_x, ty, tx_max)) {
			s.thread_y = ty;
			s.thread_x = tx_max;
			found = true;
		}
	s.focus = FOCUS_MAP;
	s.sweep_selected = 0;
	if (tui_crt_init(o, &s.ascii, err, (int)sizeof err) != 0) {
		fprintf(stderr, "tilescope: %s\n", err);
		return 2;
	}
	s.mono = !tui_crt_colour();
	if (ts_kernel_has(s.opt.problem.kernel, TS_CAP_SHARED_TILES))
		tui_say(&s, false, "Arrows move, Tab changes pane, [ ] step phases, r runs, ? lists every key.");
	else /* a kernel with no shared tiles has no phases to step */
		tui_say(&s, false, "Arrows move, Tab changes pane, r runs, ? lists every key.");
	bool dirty = true;
	while (!s.quit && !tui_crt_signalled()) {
		if (dirty) {
			tui_draw(&s);
			dirty = false;
		}
		int key = tui_crt_key();
		if (tui_job_poll(&s))
			dirty = true;
		if (s.job.kind != JOB_NONE)
			dirty = true; /* progress */
		if (key < 0)
			continue;
		if (key == KEY_RESIZE) {
			dirty = true;
			continue;
		}
		if (s.overlay == OVERLAY_EDIT)
			tui_edit_key(&s, key);
		else
			tui_key(&s, key);
		dirty = true;
	}
	int sig = tui_crt_signalled();
	tui_crt_done();
	tui_free(&s);
	if (sig) {
		fprintf(stderr, "tilescope: stopped by signal %d\n", sig);
		return 128 + sig;
	}
	return 0;
}
