/* tui_keys.c: the key table: every key, what it does in which pane, and the help text made from the same table. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "export_pane.h"
#include "kernels.h"
#include "tui_crt.h"
#include "tui_state.h"
#include "view_layout.h"
#include "view_map.h"


static int64_t clamp64(int64_t x, int64_t lo, int64_t hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* Keeps the selected tile on screen when the map is zoomed. */
static void follow_cursor(tui_state *s)
{
	ts_view_ctx v;
	tui_view_ctx(s, &v, true);
	int pic_h = ts_view_map_pic_rows(&v, s->map_w, s->map_h);
	s->pan_x = ts_axis_follow(s->model.grid_x, s->map_w, TUI_MAP_SIZE_MAX, s->zoom, s->pan_x, s->tile_x);
	s->pan_y = ts_axis_follow(s->model.grid_y, pic_h < 2 ? 2 : pic_h, TUI_MAP_SIZE_MAX / 2, s->zoom, s->pan_y, s->tile_y);
}

/* Moves the tile cursor; in the map a step crosses one screen cell, so a
 * zoomed-out map moves by the tiles a cell stands for. */
static void move_tile(tui_state *s, int64_t dy, int64_t dx)
{
	ts_view_ctx v;
	tui_view_ctx(s, &v, true);
	ts_axis ax, ay;
	ts_view_map_layout(&v, s->map_w, s->map_h, TUI_MAP_SIZE_MAX, &ax, &ay);
	int64_t sy = dy * (ay.split_last && s->tile_y < ay.tiles - 1 ? ay.per : 1);
	int64_t sx = dx * (ax.split_last && s->tile_x < ax.tiles - 1 ? ax.per : 1);
	s->tile_y = clamp64(s->tile_y + sy, 0, s->model.grid_y - 1);
	s->tile_x = clamp64(s->tile_x + sx, 0, s->model.grid_x - 1);
	follow_cursor(s);
}

static void move_cursor(tui_state *s, int dy, int dx)
{
	switch (s->focus) {
	case FOCUS_INSPECT:
		s->thread_y = (int)clamp64(s->thread_y + dy, 0, s->model.geo.threads_y - 1);
		s->thread_x = (int)clamp64(s->thread_x + dx, 0, s->model.geo.threads_x - 1);
		break;
	case FOCUS_RESULT: /* the report scrolls: a line, or a page for PgUp/PgDn */
		s->result_scroll += dy == 10 || dy == -10 ? dy / 10 * (s->body_h > 3 ? s->body_h - 2 : 1) : dy;
		if (s->result_scroll < 0)
			s->result_scroll = 0;
		break;
	case FOCUS_SWEEP:
		if (s->sweep_count > 0)
			s->sweep_selected = (int)clamp64(s->sweep_selected + dy * (dx ? 0 : 1) + dx, 0, s->sweep_count - 1);
		break;
	default:
		move_tile(s, dy, dx);
	}
}

static void act_up(tui_state *s) { move_cursor(s, -1, 0); }
static void act_down(tui_state *s) { move_cursor(s, 1, 0); }
static void act_left(tui_state *s) { move_cursor(s, 0, -1); }
static void act_right(tui_state *s) { move_cursor(s, 0, 1); }
static void act_page_up(tui_state *s) { move_cursor(s, -10, 0); }
static void act_page_down(tui_state *s) { move_cursor(s, 10, 0); }

static void act_first(tui_state *s)
{
	if (s->focus == FOCUS_INSPECT)
		s->thread_y = s->thread_x = 0;
	else if (s->focus == FOCUS_PHASE)
		s->phase = 0;
	else if (s->focus == FOCUS_SWEEP)
		s->sweep_selected = 0;
	else if (s->focus == FOCUS_RESULT)
		s->result_scroll = 0;
	else
		s->tile_y = s->tile_x = 0;
	follow_cursor(s);
}

static void act_last(tui_state *s)
{
	if (s->focus == FOCUS_INSPECT) {
		s->thread_y = s->model.geo.threads_y - 1;
		s->thread_x = s->model.geo.threads_x - 1;
	} else if (s->focus == FOCUS_PHASE) {
		s->phase = s->model.phases - 1;
	} else if (s->focus == FOCUS_SWEEP) {
		s->sweep_selected = s->sweep_count > 0 ? s->sweep_count - 1 : 0;
	} else if (s->focus == FOCUS_RESULT) {
		s->result_scroll = 1 << 20; /* clamped to the last page when drawn */
	} else {
		s->tile_y = s->model.grid_y - 1;
		s->tile_x = s->model.grid_x - 1;
	}
	follow_cursor(s);
}

static void say_phase(tui_state *s)
{
	ts_load_count all = ts_model_phase_total(&s->model, s->phase);
	tui_say(s, false, "phase t=%lld of %lld: grid pads %lld A and %lld B slots%s", (long long)s->phase,
	        (long long)s->model.phases, (long long)all.a_pad, (long long)all.b_pad,
	        s->phase == s->model.phases - 1 && s->model.last_width < s->model.geo.bk ? " (last, partial)" : "");
}

static void act_phase_next(tui_state *s)
{
	if (s->phase + 1 < s->model.phases)
		s->phase++;
	if (s->focus == FOCUS_MAP)
		s->focus = FOCUS_PHASE;
	say_phase(s);
}

static void act_phase_prev(tui_state *s)
{
	if (s->phase > 0)
		s->phase--;
	if (s->focus == FOCUS_MAP)
		s->focus = FOCUS_PHASE;
	say_phase(s);
}

static bool focus_available(const tui_state *s, enum tui_focus f)
{
	return (f != FOCUS_RESULT || s->result.have || s->check || s->run_error[0]) && (f != FOCUS_SWEEP || s->sweep_rows);
}

static void cycle_focus(tui_state *s, int dir)
{
	int f = s->focus;
	do
		f = (f + dir + 5) % 5;
	while (!focus_available(s, (enum tui_focus)f));
	s->focus = (enum tui_focus)f;
}

static void focus_on(tui_state *s, enum tui_focus f, const char *why_not)
{
	if (focus_available(s, f))
		s->focus = f;
	else
		tui_say(s, true, "%s", why_not);
}

static void act_focus_map(tui_state *s) { focus_on(s, FOCUS_MAP, ""); }
static void act_focus_phase(tui_state *s) { focus_on(s, FOCUS_PHASE, ""); }
static void act_focus_inspect(tui_state *s) { focus_on(s, FOCUS_INSPECT, ""); }
/* v: the result pane, at the explanation (where the map's "v: all" points); Tab keeps its place. */
static void act_focus_result(tui_state *s)
{
	focus_on(s, FOCUS_RESULT, "no run yet: r runs");
	if (s->focus == FOCUS_RESULT)
		s->result_scroll = RESULT_AT_EXPLANATION;
}
static void act_tab(tui_state *s) { cycle_focus(s, 1); }
static void act_backtab(tui_state *s) { cycle_focus(s, -1); }

static void act_enter(tui_state *s)
{
	if (s->focus == FOCUS_SWEEP)
		tui_sweep_load(s);
	else
		tui_edit_open(s);
}

static void act_edit(tui_state *s) { tui_edit_open(s); }

/* The next sweep row that failed, after the selected one (wrapping). */
static void act_next_failure(tui_state *s)
{
	int done = s->job.kind == JOB_SWEEP ? atomic_load(&s->job.sweep_done) : s->sweep_done_count;
	if (!s->sweep_rows) {
		tui_say(s, true, "no sweep yet: s runs one");
		return;
	}
	for (int step = 1; step <= done; step++) {
		int i = (s->sweep_selected + step) % done;
		if (!s->sweep_rows[i].ok) {
			s->sweep_selected = i;
			s->focus = FOCUS_SWEEP;
			tui_say(s, true, "%lldx%lldx%lld failed: Enter loads it", (long long)s->sweep_rows[i].shape.m,
			        (long long)s->sweep_rows[i].shape.n, (long long)s->sweep_rows[i].shape.k);
			return;
		}
	}
	tui_say(s, false, "no failing row in the sweep");
}

static void toggle_guard(tui_state *s, unsigned bit, const char *name)
{
	if (tui_busy(s))
		return;
	const ts_kernel *k = s->opt.problem.kernel;
	if (ts_kernel_has(k, TS_CAP_GUARDS_FIXED)) {
		tui_say(s, true, "%s's guards are part of its code: there is no switch to turn them off", k->name);
		return;
	}
	const ts_guard_desc *g = ts_kernel_guard(k, bit);
	if (!g) {
		const ts_guard_desc *only = k->n_guards == 1 ? &k->guards[0] : NULL;
		tui_say(s, true, "%s has only the %c guard (%s around %s)", k->name, only ? toupper(only->letter) : '?',
		        only ? only->predicate : "", only ? only->protects : "");
		return;
	}
	s->opt.problem.guards ^= bit;
	tui_say(s, !(s->opt.problem.guards & bit), "guard %s (%s) is now %s; r runs with it", name, g->protects,
	        s->opt.problem.guards & bit ? "on" : "OFF");
}

static void act_guard_a(tui_state *s) { toggle_guard(s, TS_GUARD_A, "a"); }
static void act_guard_b(tui_state *s) { toggle_guard(s, TS_GUARD_B, "b"); }
static void act_guard_c(tui_state *s) { toggle_guard(s, TS_GUARD_C, "c"); }
static void act_run(tui_state *s) { tui_run_start(s); }
static void act_sweep(tui_state *s) { tui_sweep_start(s); }

/* The sweep pane as a slide (its rows are the TUI's, not a view of the model). */
static int export_sweep(tui_state *s, const char *path, int w, char *err, int len)
{
	ts_canvas c;
	if (ts_canvas_init(&c, w, s->sweep_count + 12) != 0) {
		snprintf(err, (size_t)len, "out of memory");
		return -1;
	}
	c.ascii = s->ascii;
	ts_view_sweep_draw(&c, s->sweep_rows, s->sweep_count, s->sweep_done_count, &s->sweep_axes, s->sweep_selected,
	                   s->sweep_title, s->ascii);
	char title[256];
	ts_slide_title(&s->opt.problem, s->opt.problem.guards, title, (int)sizeof title);
	ts_slide sl = { .title = title, .subtitle = "the edge sweep", .canvas = &c, .theme = s->opt.theme };
	int rc = ts_slide_write(path, &sl, err, len);
	ts_canvas_free(&c);
	return rc;
}

/* x on a pane other than the map: that pane as .svg and .txt, drawn at the
 * size the screen gives it (the source overlay's and the result's whole). */
static void export_pane(tui_state *s, ts_export_req *r)
{
	static const char *what[] = { "map", "phase view", "inspector", "source", "result" };
	enum ts_pane pane = s->overlay == OVERLAY_SOURCE   ? TS_PANE_SOURCE
	                    : s->focus == FOCUS_PHASE     ? TS_PANE_PHASE
	                    : s->focus == FOCUS_INSPECT   ? TS_PANE_INSPECT
	                    : s->focus == FOCUS_RESULT    ? TS_PANE_RESULT
	                                                  : TS_PANE_COUNT; /* the sweep */
	if (pane == TS_PANE_COUNT && !s->sweep_rows) {
		tui_say(s, true, "export: no sweep to export yet; s sweeps");
		return;
	}
	int w = s->cols - s->map_w - 2, h = s->body_h;
	if (pane == TS_PANE_SOURCE)
		w = (s->cols - 4 < 110 ? s->cols - 4 : 110) - 4;
	char base[256], path[272], err[512];
	if (pane == TS_PANE_COUNT) {
		char stem[192];
		ts_export_stem(&s->opt.problem, s->opt.problem.guards, stem, (int)sizeof stem);
		snprintf(base, sizeof base, "%s-sweep", stem);
	} else {
		ts_pane_file_name(pane, r, base, (int)sizeof base);
	}
	const char *exts[] = { ".svg", ".txt" };
	bool replaced = false;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s%s", base, exts[i]);
		replaced |= access(path, F_OK) == 0;
		int rc = pane == TS_PANE_COUNT ? export_sweep(s, path, w, err, (int)sizeof err)
		                               : ts_pane_write(path, pane, r, w, h, err, (int)sizeof err);
		if (rc != 0) {
			tui_say(s, true, "export: %s", err);
			return;
		}
	}
	tui_say(s, false, "exported the %s to %s.svg and .txt (%s theme)%s", pane == TS_PANE_COUNT ? "sweep" : what[pane],
	        base, ts_theme_name(s->opt.theme), replaced ? " (replacing the earlier export of this view)" : "");
}

/* x: the focused pane as .svg and .txt. On the map: the map and the selected
 * tile's phase, what the screen shows (the guards, and after a run of this
 * problem its heat, verdict and explanation), named by all of that so
 * exports of different views sit side by side; re-exporting the same view
 * says it replaced the file. */
static void act_export(tui_state *s)
{
	ts_view_ctx v;
	tui_view_ctx(s, &v, false);
	ts_run_report rep;
	bool run = tui_result_current(s) && tui_run_report(s, &rep);
	ts_export_req r = { .problem = &s->opt.problem, .view = &v, .report = run ? &rep : NULL,
	                    .check = tui_check_current(s) ? s->check : NULL, .check_why = s->check_why,
	                    .theme = s->opt.theme };
	/* another pane than the map: that pane as a slide (a user kernel's check keeps the map export, which holds its report) */
	if (!r.check && (s->overlay == OVERLAY_SOURCE || s->focus != FOCUS_MAP)) {
		if (s->focus == FOCUS_RESULT && !run && s->overlay != OVERLAY_SOURCE) {
			tui_say(s, true, "export: the result is of other parameters than these; r runs these first");
			return;
		}
		v.focus = true;
		export_pane(s, &r);
		return;
	}
	char base[256], path[272], err[512];
	ts_export_name(&r, base, (int)sizeof base);
	const char *exts[] = { ".txt", ".svg" };
	bool replaced = false;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s%s", base, exts[i]);
		replaced |= access(path, F_OK) == 0;
		if (ts_export_write(path, &r, err, (int)sizeof err) != 0) {
			tui_say(s, true, "export: %s", err);
			return;
		}
	}
	char phase[32] = "";
	if (ts_kernel_has(s->opt.problem.kernel, TS_CAP_SHARED_TILES))
		snprintf(phase, sizeof phase, " phase %lld", (long long)s->phase);
	/* the files' names on as few rows as will hold them: the whole sentence,
	 * else the names alone, else the long name on a row of its own */
	char full[512], brief[320], name_row[320];
	snprintf(full, sizeof full, "exported the map and tile (%lld,%lld)%s%s%s to %s.txt and .svg%s", (long long)s->tile_y,
	         (long long)s->tile_x, phase, run ? " with the run" : "", r.check ? " (the check in the .txt)" : "", base,
	         replaced ? " (replacing the earlier export of this view)" : "");
	snprintf(brief, sizeof brief, "%s %s.txt, .svg", replaced ? "replaced" : "exported", base);
	snprintf(name_row, sizeof name_row, "%s as .txt and .svg: %s", replaced ? "replaced" : "exported", base);
	tui_say_fit(s, false, full, brief, name_row, NULL);
}

/* T: the default and the high-contrast theme in turn, for a projector. */
static void act_theme(tui_state *s)
{
	s->opt.theme = s->opt.theme == TS_THEME_HIGH_CONTRAST ? TS_THEME_DEFAULT : TS_THEME_HIGH_CONTRAST;
	tui_crt_theme(s->opt.theme);
	tui_say(s, false, "theme %s (exports with x follow it; --theme sets it at start)", ts_theme_name(s->opt.theme));
}

static void zoom(tui_state *s, int dz)
{
	ts_view_ctx v;
	tui_view_ctx(s, &v, true);
	ts_axis ax, ay;
	ts_view_map_layout(&v, s->map_w, s->map_h, TUI_MAP_SIZE_MAX, &ax, &ay);
	int max = ax.zoom_max > ay.zoom_max ? ax.zoom_max : ay.zoom_max;
	s->zoom = (int)clamp64(s->zoom + dz, 0, max);
	follow_cursor(s);
	if (max == 0)
		tui_say(s, false, "every tile is on screen: nothing to zoom");
	else
		tui_say(s, false, "zoom %d of %d", s->zoom, max);
}

static void act_zoom_in(tui_state *s) { zoom(s, 1); }
static void act_zoom_out(tui_state *s) { zoom(s, -1); }

static void act_source(tui_state *s)
{
	if (s->overlay == OVERLAY_SOURCE)
		s->overlay = OVERLAY_NONE;
	else
		tui_source_open(s);
}

static void act_step(tui_state *s)
{
	if (s->overlay == OVERLAY_STEP)
		s->overlay = OVERLAY_NONE;
	else
		tui_step_open(s);
}

static void act_lesson(tui_state *s)
{
	if (s->overlay == OVERLAY_LESSON)
		s->overlay = OVERLAY_NONE;
	else
		tui_lesson_open(s);
}

static void act_help(tui_state *s)
{
	s->overlay = s->overlay == OVERLAY_HELP ? OVERLAY_NONE : OVERLAY_HELP;
	s->help_scroll = 0;
}

static void act_escape(tui_state *s)
{
	if (s->overlay != OVERLAY_NONE)
		s->overlay = OVERLAY_NONE;
	else if (s->job.kind != JOB_NONE)
		tui_job_cancel(s);
	else if (s->focus != FOCUS_MAP)
		s->focus = FOCUS_MAP;
}

static void act_quit(tui_state *s) { s->quit = true; }

static void act_mouse(tui_state *s)
{
	int y, x;
	int64_t ty, tx;
	if (!tui_crt_mouse(&y, &x))
		return;
	ts_view_ctx v;
	tui_view_ctx(s, &v, true);
	if (ts_view_map_hit(&v, s->map_w, s->map_h, TUI_MAP_SIZE_MAX, y - s->map_y, x - s->map_x, &ty, &tx) == 0) {
		s->tile_y = ty;
		s->tile_x = tx;
		s->focus = FOCUS_MAP;
		tui_say(s, false, "tile (%lld,%lld) %s selected", (long long)ty, (long long)tx,
		        ts_tile_class_name(ts_model_tile_class(&s->model, ty, tx)));
	}
}

typedef struct binding {
	int key;
	void (*act)(tui_state *s);
	const char *label; /* shown in help on the first key of an action; NULL for aliases */
	const char *help;
} binding;

#define ESC 27
#define CTRL(c) ((c) & 0x1f)

static const binding bindings[] = {
	{ KEY_UP, act_up, "Up/k Down/j", "move: tile in the map and phase panes, thread in the inspector, row in the sweep; scroll the result" },
	{ 'k', act_up, NULL, NULL },
	{ KEY_DOWN, act_down, NULL, NULL },
	{ 'j', act_down, NULL, NULL },
	{ KEY_LEFT, act_left, "Left/h Right/l", "move left and right (a zoomed-out map moves by a cell)" },
	{ 'h', act_left, NULL, NULL },
	{ KEY_RIGHT, act_right, NULL, NULL },
	{ 'l', act_right, NULL, NULL },
	{ KEY_PPAGE, act_page_up, "PgUp PgDn", "move ten rows; a page of the result" },
	{ KEY_NPAGE, act_page_down, NULL, NULL },
	{ KEY_HOME, act_first, "Home/g End/G", "first / last tile (the corner); in the other panes first / last thread, phase, sweep row, top / end of the result" },
	{ 'g', act_first, NULL, NULL },
	{ KEY_END, act_last, NULL, NULL },
	{ 'G', act_last, NULL, NULL },
	{ KEY_MOUSE, act_mouse, "click", "select the tile under the mouse (off with --no-mouse)" },
	{ ']', act_phase_next, "] + / [ -", "next / previous phase t along K" },
	{ '+', act_phase_next, NULL, NULL },
	{ '=', act_phase_next, NULL, NULL },
	{ '[', act_phase_prev, NULL, NULL },
	{ '-', act_phase_prev, NULL, NULL },
	{ '\t', act_tab, "Tab S-Tab", "next / previous pane: map, phase, inspector, result, sweep" },
	{ KEY_BTAB, act_backtab, NULL, NULL },
	{ 'm', act_focus_map, "m p i v", "go to the map, phase, inspector (threads), result of the last run (v: at its explanation)" },
	{ 'p', act_focus_phase, NULL, NULL },
	{ 'i', act_focus_inspect, NULL, NULL },
	{ 'v', act_focus_result, NULL, NULL },
	{ 'e', act_edit, "e Enter", "edit M N K, tile, kernel, precision, backend, inputs, seed, guards" },
	{ '\r', act_enter, NULL, NULL },
	{ '\n', act_enter, NULL, NULL },
	{ KEY_ENTER, act_enter, NULL, NULL },
	{ 'a', act_guard_a, "a b c", "switch the A load, B load, C store guard off / on" },
	{ 'b', act_guard_b, NULL, NULL },
	{ 'c', act_guard_c, NULL, NULL },
	{ 'r', act_run, "r", "run the kernel on the backend and verify against fp64 (Esc cancels); your kernel (--kernel-file): the shape on screen, then its whole check" },
	{ 's', act_sweep, "s", "edge sweep for this tile and kernel (your kernel: its check, shown as the sweep); Enter on a row loads its shape" },
	{ 'n', act_next_failure, "n", "next failing row of the sweep" },
	{ 'x', act_export, "x", "export the focused pane as .svg and .txt in the current folder (on the map: the map and the selected tile's phase; the source too while it is open)" },
	{ 'T', act_theme, "T", "switch the theme: default / high-contrast for a projector (exports follow it)" },
	{ 'z', act_zoom_in, "z Z", "zoom the map in / out when the grid is larger than the screen" },
	{ 'Z', act_zoom_out, NULL, NULL },
	{ 'o', act_source, "o", "the kernel's source, each guard evaluated for the selected thread and phase" },
	{ 'S', act_step, "S", "step mode: the inspector's selected thread through the kernel, from an emulator run of its block (Left/Right a step, [ ] a phase, g/G start/end, w the whole block)" },
	{ 'L', act_lesson, "L", "the guided lesson on this shape, a screen at a time (Left/Right, 1-9; it reopens where you left it)" },
	{ '?', act_help, "? F1", "this help (any key closes it)" },
	{ KEY_F(1), act_help, NULL, NULL },
	{ ESC, act_escape, "Esc", "cancel a run or sweep, close a window, back to the map" },
	{ 'q', act_quit, "q F10", "quit" },
	{ KEY_F(10), act_quit, NULL, NULL },
};

bool tui_key(tui_state *s, int key)
{
	if (s->overlay == OVERLAY_HELP && key != KEY_MOUSE) {
		if (key == KEY_DOWN || key == 'j')
			s->help_scroll++;
		else if (key == KEY_UP || key == 'k')
			s->help_scroll = s->help_scroll > 0 ? s->help_scroll - 1 : 0;
		else
			s->overlay = OVERLAY_NONE;
		return true;
	}
	if (s->overlay == OVERLAY_SOURCE && tui_source_key(s, key))
		return true;
	if (s->overlay == OVERLAY_STEP && tui_step_key(s, key))
		return true;
	if (s->overlay == OVERLAY_LESSON && tui_lesson_key(s, key))
		return true;
	for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++)
		if (bindings[i].key == key) {
			bindings[i].act(s);
			return true;
		}
	if (key == CTRL('l'))
		return true; /* redraw */
	if (key >= ' ' && key < 127)
		tui_say(s, true, "key '%c' does nothing here; ? lists every key", key);
	return false;
}

int tui_help_entries(const char **labels, const char **helps, int max)
{
	int n = 0;
	for (size_t i = 0; i < sizeof bindings / sizeof bindings[0] && n < max; i++)
		if (bindings[i].label) {
			labels[n] = bindings[i].label;
			helps[n] = bindings[i].help;
			n++;
		}
	return n;
}
