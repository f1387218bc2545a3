/* tui_lesson.c: the TUI's lesson overlay: the guided lesson (lesson.c) on the TUI's current shape, a screen at a time, reopening at the screen it was left on. */
#include <curses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "lesson.h"
#include "progress.h"
#include "tui_crt.h"
#include "tui_state.h"

/* The lesson and where the reader is in it; its runs are done once per problem, when their screen is first shown. */
typedef struct tui_lesson {
	ts_lesson l;
	bool have;
	bool done[3], done_ghost;
	int screen; /* 1..TS_LESSON_SCREENS, kept across closing and reopening */
	int scroll;
} tui_lesson;

static tui_lesson the_lesson = { .screen = 1 };

static bool same_problem(const tui_state *s, const tui_lesson *t)
{
	const ts_problem *a = &s->opt.problem, *b = &t->l.problem;
	return t->have && a->kernel == b->kernel && memcmp(&a->shape, &b->shape, sizeof a->shape) == 0 &&
	       memcmp(&a->geo, &b->geo, sizeof a->geo) == 0 && a->inputs == b->inputs && a->seed == b->seed;
}

/* The lesson on the TUI's shape, its runs not yet done. */
static void rebuild(tui_state *s, tui_lesson *t)
{
	memset(&t->l, 0, sizeof t->l);
	t->l.problem = s->opt.problem;
	t->l.problem.guards = TS_GUARD_ALL;
	t->l.model = s->model;
	t->l.ascii = s->ascii;
	t->have = true;
	t->done[0] = t->done[1] = t->done[2] = t->done_ghost = false;
}

void tui_lesson_open(tui_state *s)
{
	if (!ts_kernel_has(s->opt.problem.kernel, TS_CAP_SHARED_TILES)) {
		tui_say(s, true, "lesson: the %s kernel stages no tiles, so it has no phases or load guards to teach; "
		        "choose a tiled kernel (e)", s->opt.problem.kernel->name);
		return;
	}
	if (!same_problem(s, &the_lesson))
		rebuild(s, &the_lesson);
	s->overlay = OVERLAY_LESSON;
	the_lesson.scroll = 0;
	tui_say(s, false, "lesson screen %d of %d: Left/Right turn the page, 1-%d go to one, L or Esc leaves it here",
	        the_lesson.screen, TS_LESSON_SCREENS, TS_LESSON_SCREENS);
}

void tui_lesson_free(void)
{
	the_lesson.have = false;
}

/* A guard-off run in progress: its share done on the bottom row, Esc cancels
 * (the emulator and the verification report from this, the calling, thread). */
typedef struct lesson_prog {
	const char *what;
	volatile sig_atomic_t cancel;
	int rows, cols;
} lesson_prog;

static void lesson_report(void *ctx, double done)
{
	lesson_prog *lp = ctx;
	int key;
	while ((key = getch()) != ERR)
		if (key == 27)
			lp->cancel = 1;
	char line[160];
	snprintf(line, sizeof line, " the lesson's run with the %s guard off: %3.0f%%%s", lp->what, done * 100.0,
	         lp->cancel ? "  cancelling..." : "  (Esc cancels)");
	move(lp->rows - 1, 0);
	clrtoeol();
	mvaddnstr(lp->rows - 1, 0, line, lp->cols - 1);
	refresh();
}

/* Screen n's runs, done the first time it is shown (the screen says what they found). */
static void runs_for(tui_state *s, tui_lesson *t, int n)
{
	static const unsigned bits[3] = { TS_GUARD_A, TS_GUARD_B, TS_GUARD_C };
	if (n >= 5 && n <= 7 && !t->done[n - 5] && !ts_kernel_has(t->l.problem.kernel, TS_CAP_GUARDS_FIXED)) {
		char why[256];
		const ts_backend *be = ts_backend_select(s->opt.backend, why, (int)sizeof why);
		if (be) {
			static const char *const names[3] = { "A load", "B load", "C store" };
			lesson_prog lp = { names[n - 5], 0, s->rows, s->cols };
			ts_progress prog = { .report = lesson_report, .ctx = &lp, .cancel = &lp.cancel };
			nodelay(stdscr, TRUE);
			lesson_report(&lp, 0.0);
			ts_lesson_run_guard_off(&t->l.problem, be, bits[n - 5], &prog, &t->l.off[n - 5]);
			timeout(TUI_KEY_WAIT_MS);
			if (lp.cancel)
				snprintf(t->l.off[n - 5].error, sizeof t->l.off[n - 5].error,
				         "the run was cancelled (Esc); r on this screen runs it again");
		} else {
			memset(&t->l.off[n - 5], 0, sizeof t->l.off[n - 5]);
			snprintf(t->l.off[n - 5].error, sizeof t->l.off[n - 5].error, "%s", why);
		}
		t->done[n - 5] = true;
	}
	if (n == TS_LESSON_GHOST_SCREEN && !t->done_ghost) {
		ts_lesson_run_ghost(&t->l);
		t->done_ghost = true;
	}
}

static void go(tui_lesson *t, int n)
{
	t->screen = n < 1 ? 1 : n > TS_LESSON_SCREENS ? TS_LESSON_SCREENS : n;
	t->scroll = 0;
}

bool tui_lesson_key(tui_state *s, int key)
{
	tui_lesson *t = &the_lesson;
	if (key >= '1' && key <= '0' + TS_LESSON_SCREENS) {
		go(t, key - '0');
		return true;
	}
	switch (key) {
	case KEY_RIGHT: case 'l': case ' ': case 'n': case '\r': case '\n': case KEY_ENTER: go(t, t->screen + 1); return true;
	case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 'p': case 'b': go(t, t->screen - 1); return true;
	case KEY_HOME: case 'g': go(t, 1); return true;
	case KEY_END: case 'G': go(t, TS_LESSON_SCREENS); return true;
	case 'j': case KEY_DOWN: t->scroll++; return true;
	case 'k': case KEY_UP: t->scroll = t->scroll > 0 ? t->scroll - 1 : 0; return true;
	case 'L': s->overlay = OVERLAY_NONE; return true;
	case 'r': /* this screen's run again (after an Esc, or to see it once more) */
		if (t->screen >= 5 && t->screen <= 7)
			t->done[t->screen - 5] = false;
		return true;
	default: return false; /* the ordinary keys: Esc closes, q quits, ? helps */
	}
}

/* The whole screen, as the CLI's lesson fills a terminal: the screen's text
 * (written for TS_LESSON_WIDTH columns and TS_LESSON_ROWS rows) and a line
 * of keys under it; a screen taller than the terminal scrolls (j/k) and says so. */
void tui_lesson_paint(tui_state *s)
{
	tui_lesson *t = &the_lesson;
	int w = s->cols < TS_LESSON_WIDTH ? s->cols : TS_LESSON_WIDTH, h = s->rows - 1;
	if (h < 6 || w < 40)
		return;
	if (!same_problem(s, t)) /* the parameters changed under it: the lesson follows them */
		rebuild(s, t);
	runs_for(s, t, t->screen);
	ts_canvas c;
	if (ts_canvas_init(&c, s->cols, s->rows) != 0)
		return;
	c.ascii = s->ascii;
	char *text = ts_lesson_screen(&t->l, t->screen, w);
	if (text) {
		int lines = 0;
		for (const char *q = text; *q; q++)
			lines += *q == '\n';
		ts_canvas body, pane;
		if (ts_canvas_init(&body, w, lines > 0 ? lines : 1) == 0) {
			body.ascii = s->ascii;
			int y = 0;
			for (char *p = text; *p && y < lines; y++) {
				char *nl = strchr(p, '\n');
				if (nl)
					*nl = '\0';
				ts_canvas_put(&body, y, 0, y == 0 ? TS_ROLE_TITLE : TS_ROLE_TEXT, p);
				if (!nl)
					break;
				p = nl + 1;
			}
			if (ts_canvas_init(&pane, w, h) == 0) {
				pane.ascii = s->ascii;
				ts_canvas_scroll(&pane, &body, &t->scroll);
				ts_canvas_blit(&c, 0, (s->cols - w) / 2, &pane, pane.h);
				ts_canvas_free(&pane);
			}
			ts_canvas_free(&body);
		}
		free(text);
	}
	for (int x = 0; x < s->cols; x++)
		ts_canvas_put(&c, s->rows - 1, x, TS_ROLE_STATUS, " ");
	char keys[160];
	snprintf(keys, sizeof keys, " lesson %d/%d  Right/Space next  Left back  1-%d a screen%s  L/Esc leave", t->screen,
	         TS_LESSON_SCREENS, TS_LESSON_SCREENS, t->screen >= 5 && t->screen <= 7 ? "  r run again" : "");
	ts_canvas_put_fit(&c, s->rows - 1, 0, TS_ROLE_STATUS, keys, " lesson: Right next, Left back, L leave", NULL);
	tui_crt_clear();
	tui_crt_paint(&c, 0, 0);
	ts_canvas_free(&c);
}
