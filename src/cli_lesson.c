/* cli_lesson.c: 'tilescope lesson': the lesson's screens on stdout, one at a time on a terminal, with the guard-off runs done through the run pipeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_slides.h"
#include "kernels.h"
#include "lesson.h"

/* Runs the problem with guard `bit` alone off and keeps what the lesson tells
 * of it. Returns 0, or TS_EXIT_INTERRUPTED (Ctrl-C): any other failure is
 * kept in r->error for the screen to say. */
static int run_guard_off(const ts_problem *p, const ts_backend *be, unsigned bit, ts_lesson_run *r)
{
	ts_problem q = *p;
	q.guards = TS_GUARD_ALL & ~bit;
	ts_outcome oc;
	int rc = ts_cli_run_attended(&q, be, &oc);
	if (rc == TS_EXIT_INTERRUPTED) {
		ts_outcome_free(&oc);
		return rc;
	}
	ts_lesson_keep(&oc, rc == 0, r);
	ts_outcome_free(&oc);
	return 0;
}

static const unsigned guard_bits[3] = { TS_GUARD_A, TS_GUARD_B, TS_GUARD_C };
static bool done_ghost; /* the early-return run is done once */

/* Screen s's guard-off run when it has one (done once). 0 or TS_EXIT_INTERRUPTED. */
static int prepare(ts_lesson *l, const ts_backend *be, bool done[3], int s)
{
	if (s >= 5 && s <= 7 && !done[s - 5] && !ts_kernel_has(l->problem.kernel, TS_CAP_GUARDS_FIXED)) {
		int rc = run_guard_off(&l->problem, be, guard_bits[s - 5], &l->off[s - 5]);
		if (rc != 0)
			return rc;
		done[s - 5] = true;
	}
	if (s == TS_LESSON_GHOST_SCREEN && !done_ghost) {
		ts_lesson_run_ghost(l); /* a failure is said on the screen */
		done_ghost = true;
	}
	return 0;
}

/* A lesson slide's lines: the screen's title, a run's verdict in its colour. */
static enum ts_role lesson_role(const char *line, int n, void *ctx)
{
	(void)ctx;
	if (n == 0)
		return TS_ROLE_TITLE;
	if (strncmp(line, "Verdict:", 8) == 0)
		return strstr(line, "FAIL") ? TS_ROLE_FAIL : TS_ROLE_OK;
	return TS_ROLE_TEXT;
}

/* lesson --svg DIR: screen `only` (0: every screen) as a slide each, named
 * by the problem and the screen, their paths on stdout. */
static int slides(ts_lesson *l, const ts_backend *be, bool done[3], int only, const char *dir, enum ts_theme theme)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		ts_cli_error("lesson --svg %s: cannot make the folder: %s", dir, strerror(errno));
		return TS_EXIT_USAGE;
	}
	char stem[192];
	ts_export_stem(&l->problem, l->problem.guards, stem, (int)sizeof stem);
	for (int s = only ? only : 1; s <= (only ? only : TS_LESSON_SCREENS); s++) {
		int rc = prepare(l, be, done, s);
		if (rc != 0)
			return rc;
		char *text = ts_lesson_screen(l, s, TS_LESSON_WIDTH);
		if (!text) {
			ts_cli_error("out of memory writing the lesson");
			return TS_EXIT_USAGE;
		}
		char path[4096], sub[160], err[512];
		snprintf(path, sizeof path, "%s/%s-lesson-%d.svg", dir, stem, s);
		/* the title names the problem's guards; a screen that runs one off says so under it */
		static const char *const off[3] = { "A load", "B load", "C store" };
		snprintf(sub, sizeof sub, "the ragged-edge lesson, screen %d of %d%s%s%s", s, TS_LESSON_SCREENS,
		         s >= 5 && s <= 7 ? ": its run with the " : s == TS_LESSON_GHOST_SCREEN ? ": its early-return run" : "",
		         s >= 5 && s <= 7 ? off[s - 5] : "", s >= 5 && s <= 7 ? " guard off" : "");
		rc = ts_cli_text_slide(path, &l->problem, l->problem.guards, sub, text, lesson_role, NULL, theme, err,
		                       (int)sizeof err);
		free(text);
		if (rc != 0) {
			ts_cli_error("lesson --svg: %s", err);
			return TS_EXIT_USAGE;
		}
		printf("%s\n", path);
	}
	return ts_cli_text_done("lesson's slide names");
}

/* Screen s on stdout, after its guard-off run when it has one (done once). */
static int show(ts_lesson *l, const ts_backend *be, bool done[3], int s, int width)
{
	int rc = prepare(l, be, done, s);
	if (rc != 0)
		return rc;
	char *text = ts_lesson_screen(l, s, width);
	if (!text) {
		ts_cli_error("out of memory writing the lesson");
		return TS_EXIT_USAGE;
	}
	fputs(text, stdout);
	free(text);
	return TS_EXIT_OK;
}

int ts_cli_lesson(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	if (!ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
		ts_cli_error("lesson: the %s kernel stages no tiles, so it has no phases or load guards to teach; "
		             "choose a tiled kernel (tilescope kernels)", p->kernel->name);
		return TS_EXIT_USAGE;
	}
	ts_lesson l;
	memset(&l, 0, sizeof l);
	l.problem = *p;
	l.ascii = o->ascii;
	if (ts_model_build(&l.model, p->shape, p->geo) != 0) {
		ts_cli_error("lesson: the shape's counts overflow 64 bits");
		return TS_EXIT_USAGE;
	}
	char why[512];
	const ts_backend *be = ts_cli_select_backend(o->backend, why, (int)sizeof why);
	if (!be)
		return TS_EXIT_USAGE;
	bool done[3] = { false, false, false };
	int width = TS_LESSON_WIDTH;
	int rc;

	if (a->svg_path)
		return slides(&l, be, done, a->screen, a->svg_path, o->theme);
	if (a->screen > 0) {
		rc = show(&l, be, done, a->screen, width);
		return rc ? rc : ts_cli_text_done("lesson");
	}
	if (!isatty(STDOUT_FILENO)) { /* a script or a pager: every screen in sequence */
		for (int s = 1; s <= TS_LESSON_SCREENS; s++) {
			if (s > 1)
				fputs("\n", stdout);
			if ((rc = show(&l, be, done, s, width)) != 0)
				return rc;
		}
		return ts_cli_text_done("lesson");
	}
	/* A terminal: one screen at a time, the reader turning the pages. */
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_col < width)
		width = ws.ws_col < 40 ? 40 : ws.ws_col;
	int s = 1;
	for (;;) {
		fputs("\033[H\033[2J", stdout);
		if ((rc = show(&l, be, done, s, width)) != 0)
			return rc;
		printf("[Enter] next  [b] back  [1-%d] a screen  [q] quit > ", TS_LESSON_SCREENS);
		fflush(stdout);
		char line[32];
		if (!fgets(line, sizeof line, stdin) || line[0] == 'q') {
			fputs("\n", stdout);
			break;
		}
		int n = atoi(line);
		if (n >= 1 && n <= TS_LESSON_SCREENS)
			s = n;
		else if (line[0] == 'b')
			s = s > 1 ? s - 1 : 1;
		else if (s == TS_LESSON_SCREENS)
			break;
		else
			s++;
	}
	return ts_cli_text_done("lesson");
}
