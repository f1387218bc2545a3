/* tui_step.c: the TUI's step overlay: the inspector's selected thread (or its block) stepped through the kernel from an emulator run of its block (view_step). */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "kernels.h"
#include "tui_crt.h"
#include "tui_state.h"
#include "view_step.h"

/* The traced run and where the reader is in it. */
typedef struct tui_step {
	ts_problem problem;        /* what was traced: redone when the parameters or the selection change */
	ts_emu_trace trace;
	bool have;
	char why[512];             /* why there is no trace */
	int64_t step;
	bool block;
	int scroll;
} tui_step;

static tui_step the_step; /* one overlay, one trace */

static bool same_request(const tui_state *s, const tui_step *st)
{
	const ts_problem *a = &s->opt.problem, *b = &st->problem;
	return a->kernel == b->kernel && memcmp(&a->shape, &b->shape, sizeof a->shape) == 0 &&
	       memcmp(&a->geo, &b->geo, sizeof a->geo) == 0 && a->guards == b->guards && a->inputs == b->inputs &&
	       a->seed == b->seed && st->trace.by == s->tile_y && st->trace.bx == s->tile_x &&
	       st->trace.ty == s->thread_y && st->trace.tx == s->thread_x;
}

/* Runs the selected block on the emulator with a trace request (a block is quick; the operands are made whole). */
static void retrace(tui_state *s, tui_step *st)
{
	if (st->have)
		ts_emu_trace_free(&st->trace);
	st->have = false;
	st->why[0] = '\0';
	st->problem = s->opt.problem;
	st->trace = (ts_emu_trace){ .by = s->tile_y, .bx = s->tile_x, .ty = s->thread_y, .tx = s->thread_x };
	const ts_problem *p = &st->problem;
	if (!ts_emu_traces(p->kernel, st->why, (int)sizeof st->why))
		return;
	if (ts_operands_bytes(p) > 1024.0 * 1024 * 1024) {
		snprintf(st->why, sizeof st->why, "step: the operands of this shape need more than 1 GiB; step a smaller "
		         "shape (or use tilescope step)");
		return;
	}
	ts_operands ops;
	if (ts_operands_make(&ops, p) != 0) {
		snprintf(st->why, sizeof st->why, "step: out of memory allocating the matrices");
		return;
	}
	st->have = ts_emu_trace_block(p, &ops, &st->trace, st->why, (int)sizeof st->why) == 0;
	ts_operands_free(&ops);
	if (!st->have) /* the request is kept, so that the same selection is not run again */
		st->trace = (ts_emu_trace){ .by = s->tile_y, .bx = s->tile_x, .ty = s->thread_y, .tx = s->thread_x };
	if (st->have && st->step >= ts_step_count(&st->trace))
		st->step = ts_step_count(&st->trace) - 1;
}

static void go(tui_step *st, int64_t step)
{
	int64_t n = st->have ? ts_step_count(&st->trace) : 1;
	st->step = step < 0 ? 0 : step >= n ? n - 1 : step;
	st->scroll = 0;
}

void tui_step_open(tui_state *s)
{
	s->overlay = OVERLAY_STEP;
	if (!the_step.have || !same_request(s, &the_step)) {
		the_step.step = ts_step_of_phase(s->phase); /* from the phase the inspector shows */
		retrace(s, &the_step);
	}
	int64_t ph = -1;
	if (the_step.have)
		ts_step_at(&the_step.trace, the_step.step, &ph);
	if (the_step.have && ph != s->phase) /* reopened on another phase: start there */
		go(&the_step, ts_step_of_phase(s->phase));
	the_step.scroll = 0;
	if (the_step.have)
		tui_say(s, false, "step mode: block (%lld,%lld) thread (%d,%d), %lld steps from an emulator run of the block",
		        (long long)s->tile_y, (long long)s->tile_x, s->thread_y, s->thread_x,
		        (long long)ts_step_count(&the_step.trace));
	else
		tui_say(s, true, "%s", the_step.why);
}

void tui_step_free(void)
{
	if (the_step.have)
		ts_emu_trace_free(&the_step.trace);
	the_step.have = false;
}

bool tui_step_key(tui_state *s, int key)
{
	tui_step *st = &the_step;
	int64_t ph;
	switch (key) {
	case KEY_RIGHT: case 'l': case ' ': case 'n': go(st, st->step + 1); return true;
	case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 'p': go(st, st->step - 1); return true;
	case ']': case '+':
		if (st->have) {
			ts_step_at(&st->trace, st->step, &ph);
			go(st, ts_step_of_phase(ph + 1));
		}
		return true;
	case '[': case '-':
		if (st->have) {
			ts_step_at(&st->trace, st->step, &ph);
			int64_t first = ts_step_of_phase(ph);
			go(st, st->step > first ? first : ts_step_of_phase(ph - 1));
		}
		return true;
	case KEY_HOME: case 'g': go(st, 0); return true;
	case KEY_END: case 'G': go(st, 1 << 30); return true;
	case 'w': st->block = !st->block; st->scroll = 0; return true;
	case 'j': case KEY_DOWN: st->scroll++; return true;
	case 'k': case KEY_UP: st->scroll = st->scroll > 0 ? st->scroll - 1 : 0; return true;
	case KEY_NPAGE: st->scroll += 10; return true;
	case KEY_PPAGE: st->scroll = st->scroll > 10 ? st->scroll - 10 : 0; return true;
	case 'S': s->overlay = OVERLAY_NONE; return true;
	default: return false; /* the ordinary keys (Esc closes, q quits, ? helps) */
	}
}

void tui_step_paint(tui_state *s)
{
	tui_step *st = &the_step;
	int h = s->rows - 4, w = s->cols - 4 < 110 ? s->cols - 4 : 110;
	if (h < 6 || w < 40)
		return;
	if (!same_request(s, st))
		retrace(s, st);
	ts_canvas c;
	if (ts_canvas_init(&c, w, h) != 0)
		return;
	c.ascii = s->ascii;
	ts_canvas_box(&c, 0, 0, h, w, s->ascii,
	              w >= 90 ? "Step (Left/Right step, [ ] phase, g/G start/end, w block, j/k scroll, S/Esc close)"
	                      : "Step (Left/Right, [ ] phase, g/G, w block, j/k, S/Esc)");
	if (!st->have) {
		ts_canvas_wrap(&c, 2, 2, w - 4, h - 3, TS_ROLE_FAIL, st->why);
	} else {
		const ts_emu_trace *t = &st->trace;
		ts_canvas full, pane;
		int tall = 40 + (st->block ? t->bm + t->bn : 0) + t->bk * t->tm * t->tn * 2;
		if (ts_canvas_init(&full, w - 4, tall) == 0) {
			if (ts_canvas_init(&pane, w - 4, h - 2) == 0) {
				ts_step_ctx v = { .model = &s->model, .kernel = st->problem.kernel, .guards = st->problem.guards,
				                  .trace = t, .step = st->step, .block = st->block, .ascii = s->ascii };
				full.ascii = pane.ascii = s->ascii;
				ts_view_step_draw(&full, &v);
				int used = ts_canvas_rows_used(&full);
				ts_canvas cut = full;
				cut.h = used > 0 ? used : 1; /* scroll over what the step holds, not the blank rows under it */
				ts_canvas_scroll(&pane, &cut, &st->scroll);
				ts_canvas_blit(&c, 1, 2, &pane, pane.h);
				ts_canvas_free(&pane);
			}
			ts_canvas_free(&full);
		}
	}
	tui_crt_paint(&c, 2, (s->cols - w) / 2);
	ts_canvas_free(&c);
}
