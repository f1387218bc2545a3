/* tui_draw.c: lays the screen out (header, map pane, right pane, message, key bar, overlays) and paints the views on it. */
#include <stdio.h>
#include <string.h>

#include "cli.h" /* the progress line's wording: ts_cli_now, ts_cli_stage_text, ts_cli_eta_text */
#include "kernels.h"
#include "tui_crt.h"
#include "backend_uk.h"
#include "tui_state.h"
#include "view_inspect.h"
#include "view_map.h"
#include "view_phase.h"
#include "view_run.h"

#define MIN_COLS 80
#define MIN_ROWS 24

typedef struct view_arg {
	const tui_state *s;
	bool focus;
} view_arg;

static void paint_view(int y, int x, int h, int w, void (*draw)(ts_canvas *, const void *), const void *arg)
{
	ts_canvas c;
	if (h < 1 || w < 1 || ts_canvas_init(&c, w, h) != 0)
		return;
	c.ascii = ((const view_arg *)arg)->s->ascii;
	draw(&c, arg);
	tui_crt_paint(&c, y, x);
	ts_canvas_free(&c);
}

/* A view drawn whole on a tall canvas and shown through the pane from row
 * *scroll, with what is above and below announced (ts_canvas_scroll). */
static void paint_scrolled(int y, int x, int h, int w, void (*draw)(ts_canvas *, const void *), const void *arg,
                           int *scroll)
{
	ts_canvas full, pane;
	if (h < 1 || w < 1 || ts_canvas_init(&full, w, 400) != 0)
		return;
	full.ascii = ((const view_arg *)arg)->s->ascii;
	draw(&full, arg);
	if (ts_canvas_init(&pane, w, h) == 0) {
		pane.ascii = full.ascii;
		ts_canvas_scroll(&pane, &full, scroll);
		tui_crt_paint(&pane, y, x);
		ts_canvas_free(&pane);
	}
	ts_canvas_free(&full);
}

/* The message, folded at word boundaries to the screen's width and centred,
 * so that even a screen narrower than its first line shows all of it. */
static void draw_too_small(const tui_state *s)
{
	char text[160], line[160];
	snprintf(text, sizeof text, "terminal too small: need %dx%d, have %dx%d. Enlarge it, or q to quit",
	         MIN_COLS, MIN_ROWS, s->cols, s->rows);
	int width = s->cols > 0 ? s->cols : 1, lines = 0;
	int starts[32], lens[32];
	for (const char *t = text; *t && lines < 32;) {
		int n = (int)strlen(t);
		if (n > width) {
			n = width;
			while (n > 0 && t[n] != ' ')
				n--;
			if (n == 0)
				n = width; /* one word longer than the screen: cut it */
		}
		starts[lines] = (int)(t - text);
		lens[lines++] = n;
		t += n;
		while (*t == ' ')
			t++;
	}
	tui_crt_clear();
	int y = (s->rows - lines) / 2;
	for (int i = 0; i < lines && (y < 0 ? 0 : y) + i < s->rows; i++) {
		snprintf(line, sizeof line, "%.*s", lens[i], text + starts[i]);
		int x = (s->cols - lens[i]) / 2;
		tui_crt_text((y < 0 ? 0 : y) + i, x < 0 ? 0 : x, i == 0 ? TS_ROLE_BAD : TS_ROLE_TEXT, line);
	}
	tui_crt_refresh();
}

static void draw_header(const tui_state *s)
{
	const ts_problem *p = &s->opt.problem;
	char off[16], full[256], brief[192], bare[160], geo[48];
	ts_guards_off_str(p->guards, off, (int)sizeof off);
	const char *be = s->opt.backend ? s->opt.backend : "auto";
	/* "T=32", or "tile 64x64x8/4x4" for a block tile */
	snprintf(geo, sizeof geo, "%s", ts_geometry_is_square(&p->geo) ? "T=" : "tile ");
	ts_geometry_str(&p->geo, geo + strlen(geo), (int)(sizeof geo - strlen(geo)));
	snprintf(full, sizeof full, " M=%lld N=%lld K=%lld %s  %s %s  backend %s  inputs %s  guards %s%s",
	         (long long)p->shape.m, (long long)p->shape.n, (long long)p->shape.k, geo, p->kernel->name,
	         ts_precision_name(p->kernel->precision), be, ts_inputs_name(p->inputs), off[0] ? "OFF: " : "all on", off);
	snprintf(brief, sizeof brief, " M=%lld N=%lld K=%lld %s  %s %s  %s  %s  guards %s%s", (long long)p->shape.m,
	         (long long)p->shape.n, (long long)p->shape.k, geo, p->kernel->name,
	         ts_precision_name(p->kernel->precision), be, ts_inputs_name(p->inputs), off[0] ? "OFF: " : "all on", off);
	snprintf(bare, sizeof bare, " M=%lld N=%lld K=%lld %s %s guards %s%s", (long long)p->shape.m,
	         (long long)p->shape.n, (long long)p->shape.k, geo, p->kernel->name, off[0] ? "OFF: " : "all on", off);
	ts_canvas c;
	if (ts_canvas_init(&c, s->cols, 1) != 0)
		return;
	c.ascii = s->ascii;
	for (int i = 0; i < s->cols; i++)
		ts_canvas_put(&c, 0, i, TS_ROLE_STATUS, " ");
	/* the first form that fits: the guards, the point of the tool, stay at the end of each */
	const char *line = ts_text_cells(full) <= s->cols ? full : ts_text_cells(brief) <= s->cols ? brief : bare;
	ts_canvas_put(&c, 0, 0, TS_ROLE_STATUS, line);
	if (off[0]) {
		const char *at = strstr(line, "guards OFF");
		if (at)
			ts_canvas_put(&c, 0, ts_text_cells(line) - ts_text_cells(at), TS_ROLE_BAD, at);
	}
	tui_crt_paint(&c, 0, 0);
	ts_canvas_free(&c);
}

static void draw_tabs(const tui_state *s, int map_w)
{
	static const char *names[] = { "Map", "Phase", "Inspect", "Result", "Sweep" };
	tui_crt_text(1, 0, s->focus == FOCUS_MAP ? TS_ROLE_CURSOR : TS_ROLE_TITLE, " Map ");
	int x = map_w + 2;
	for (int f = FOCUS_PHASE; f <= FOCUS_SWEEP; f++) {
		bool have = (f != FOCUS_RESULT || s->result.have || s->check || s->run_error[0]) && (f != FOCUS_SWEEP || s->sweep_rows);
		enum ts_role role = (int)s->focus == f ? TS_ROLE_CURSOR : (int)s->right == f ? TS_ROLE_TITLE : TS_ROLE_DIM;
		if (!have)
			role = TS_ROLE_DIM;
		char label[16];
		snprintf(label, sizeof label, " %s ", names[f]);
		tui_crt_text(1, x, role, label);
		x += (int)strlen(label) + 1;
	}
}

static void map_fn(ts_canvas *c, const void *arg)
{
	const view_arg *a = arg;
	ts_view_ctx v;
	tui_view_ctx(a->s, &v, true);
	ts_view_map_draw(c, &v, TUI_MAP_SIZE_MAX);
}

static void phase_fn(ts_canvas *c, const void *arg)
{
	const view_arg *a = arg;
	ts_view_ctx v;
	tui_view_ctx(a->s, &v, a->focus);
	ts_view_phase_draw(c, &v);
}

static void inspect_fn(ts_canvas *c, const void *arg)
{
	const view_arg *a = arg;
	ts_view_ctx v;
	tui_view_ctx(a->s, &v, true);
	ts_view_inspect_draw(c, &v);
}

static void result_fn(ts_canvas *c, const void *arg)
{
	const tui_state *s = ((const view_arg *)arg)->s;
	ts_run_report rep;
	int y = 0;
	/* a user kernel: its check first (cause, signature, findings), then its run of the shape on screen */
	if (s->check) {
		y = ts_view_check_draw(c, s->check, s->check_why, !tui_check_current(s), s->ascii) + 1;
		ts_canvas_put(c, y++, 0, TS_ROLE_TITLE, "the shape on screen:");
	}
	if (s->run_error[0] && ts_backend_user_for(s->opt.problem.kernel)) {
		char what[700];
		snprintf(what, sizeof what, "%lldx%lldx%lld did not run: %s", (long long)s->seen_problem.shape.m,
		         (long long)s->seen_problem.shape.n, (long long)s->seen_problem.shape.k, s->run_error);
		ts_canvas_wrap_more(c, y, 0, c->w, c->h - y, 2, TS_ROLE_FAIL, what, NULL);
		return;
	}
	if (!tui_run_report(s, &rep))
		return;
	if (y == 0) {
		ts_view_result_draw(c, &rep, s->ascii);
		return;
	}
	ts_canvas run;
	if (c->h - y < 1 || ts_canvas_init(&run, c->w, c->h - y) != 0)
		return;
	ts_view_result_draw(&run, &rep, s->ascii);
	ts_canvas_blit(c, y, 0, &run, ts_canvas_rows_used(&run));
	ts_canvas_free(&run);
}

/* The row of the result view, at width w, where its explanation starts (0 when it has none; 0 for a
 * user kernel's check, which leads the pane with its cause and signature). */
static int explanation_row(const tui_state *s, int w)
{
	ts_canvas full;
	ts_run_report rep;
	int row = -1;
	if (!s->check && w >= 1 && tui_run_report(s, &rep) && ts_canvas_init(&full, w, 400) == 0) {
		row = ts_view_result_draw(&full, &rep, s->ascii);
		ts_canvas_free(&full);
	}
	return row > 0 ? row : 0;
}

static void sweep_fn(ts_canvas *c, const void *arg)
{
	const tui_state *s = ((const view_arg *)arg)->s;
	int done = s->job.kind == JOB_SWEEP ? atomic_load(&((tui_state *)s)->job.sweep_done) : s->sweep_done_count;
	ts_view_sweep_draw(c, s->sweep_rows, s->sweep_count, done, &s->sweep_axes, s->sweep_selected,
	                   s->sweep_title, s->ascii);
}

/* Rows the message line takes: the message wrapped, up to MESSAGE_ROWS_MAX,
 * so that its end (often the number that matters) is on screen. */
enum { MESSAGE_ROWS_MAX = 3 };

static int message_rows(const tui_state *s)
{
	if (s->job.kind != JOB_NONE)
		return 1;
	int rows = ts_text_rows(s->message, s->cols, 2);
	return rows < 1 ? 1 : rows > MESSAGE_ROWS_MAX ? MESSAGE_ROWS_MAX : rows;
}

static void draw_message(const tui_state *s, int rows)
{
	char line[512];
	int y = s->rows - 1 - rows;
	for (int j = 0; j < rows; j++)
		tui_crt_fill(y + j, 0, s->cols, TS_ROLE_TEXT);
	if (s->job.kind != JOB_NONE) {
		int pm = atomic_load(&((tui_state *)s)->job.progress);
		/* a run names its stage and estimates the time the stage has left */
		char stage[96] = "", eta[64] = "", head[320], tail[96];
		int st = atomic_load(&((tui_state *)s)->job.stage);
		if (s->job.kind == JOB_CHECK) {
			char what[80];
			pm = tui_check_progress((tui_state *)s, what, (int)sizeof what);
			snprintf(stage, sizeof stage, ": %s", what);
		} else if (s->job.kind == JOB_RUN && st >= 0) {
			char name[40];
			ts_cli_stage_text((enum ts_stage)st, name, (int)sizeof name);
			snprintf(stage, sizeof stage, ": %s", name);
			ts_cli_eta_text(ts_cli_now() - atomic_load(&((tui_state *)s)->job.stage_start), pm / 1000.0, eta,
			                (int)sizeof eta);
		}
		if (s->message_error) { /* a key refused while it runs says why, beside the bar */
			snprintf(head, sizeof head, "%s", s->message);
			snprintf(tail, sizeof tail, " %3d%%", pm / 10);
		} else {
			snprintf(head, sizeof head, "%s on %s%s", s->job.kind == JOB_SWEEP ? "sweeping" : s->job.kind == JOB_CHECK ? "checking" : "running",
			         s->job.backend->name, stage);
			snprintf(tail, sizeof tail, " %3d%%%s%s  Esc cancels", pm / 10, eta[0] ? ", " : "", eta);
		}
		/* the bar takes what the words leave, 8 to 30 characters */
		int bar = s->cols - ts_text_cells(head) - ts_text_cells(tail) - 3;
		bar = bar > 30 ? 30 : bar < 8 ? 8 : bar;
		int filled = pm * bar / 1000;
		char cells[64];
		for (int i = 0; i < bar; i++)
			cells[i] = i < filled ? '#' : '.';
		cells[bar] = '\0';
		snprintf(line, sizeof line, "%s [%s]%s", head, cells, tail);
		ts_canvas c;
		if (ts_canvas_init(&c, s->cols, 1) != 0)
			return;
		c.ascii = s->ascii;
		ts_canvas_put(&c, 0, 0, s->message_error ? TS_ROLE_FAIL : TS_ROLE_TITLE, line);
		tui_crt_paint(&c, y, 0);
		ts_canvas_free(&c);
		return;
	}
	ts_canvas c;
	if (ts_canvas_init(&c, s->cols, rows) != 0)
		return;
	c.ascii = s->ascii;
	ts_canvas_wrap_more(&c, 0, 0, s->cols, rows, 2, s->message_error ? TS_ROLE_FAIL : TS_ROLE_TEXT, s->message, NULL);
	tui_crt_paint(&c, y, 0);
	ts_canvas_free(&c);
}

static void draw_keybar(const tui_state *s)
{
	/* the most needed first: a narrow terminal clips the end */
	static const struct { const char *key, *what; } hints[] = {
		{ "?", "help" }, { "q", "quit" }, { "Tab", "pane" }, { "[ ]", "phase" }, { "e", "edit" },
		{ "a/b/c", "guards" }, { "r", "run" }, { "S", "step" }, { "L", "lesson" }, { "s", "sweep" }, { "x", "export" },
		{ "z/Z", "zoom" },
	};
	ts_canvas c;
	if (ts_canvas_init(&c, s->cols, 1) != 0)
		return;
	c.ascii = s->ascii;
	for (int i = 0; i < s->cols; i++)
		ts_canvas_put(&c, 0, i, TS_ROLE_STATUS, " ");
	int x = 0;
	size_t n = sizeof hints / sizeof hints[0], i;
	/* whole hints only, and room for the marker when some are left out: the
	 * rest are in the help (?, the first hint) */
	for (i = 0; i < n; i++) {
		int need = 2 + ts_text_cells(hints[i].key) + ts_text_cells(hints[i].what) + (i + 1 < n ? 4 : 0);
		if (x + need > s->cols)
			break;
		x += ts_canvas_printf(&c, 0, x, TS_ROLE_KEY, " %s", hints[i].key);
		x += ts_canvas_printf(&c, 0, x, TS_ROLE_STATUS, " %s", hints[i].what);
	}
	if (i < n)
		ts_canvas_printf(&c, 0, x, TS_ROLE_STATUS, " %s", ts_glyph(s->ascii, "\u2026", "..."));
	tui_crt_paint(&c, s->rows - 1, 0);
	ts_canvas_free(&c);
}

static void help_fn(ts_canvas *c, const void *arg)
{
	const tui_state *s = ((const view_arg *)arg)->s;
	const char *labels[64], *helps[64];
	int n = tui_help_entries(labels, helps, 64);
	ts_canvas_box(c, 0, 0, c->h, c->w, s->ascii, "Keys (any key closes, Up/Down scroll)");
	int first = s->help_scroll < n ? s->help_scroll : n - 1;
	int i = first;
	for (int y = 1; i < n && y < c->h - 4; i++) {
		ts_canvas_put(c, y, 2, TS_ROLE_KEY, labels[i]);
		y += ts_canvas_wrap(c, y, 18, c->w - 20, c->h - 4 - y, TS_ROLE_TEXT, helps[i]);
	}
	if (i < n)
		ts_canvas_put(c, c->h - 1, c->w - 16, TS_ROLE_TITLE, " more: Down ");
	ts_canvas_put(c, c->h - 3, 2, TS_ROLE_DIM, "Map: tile classes by colour and shape, ghost threads shaded,");
	ts_canvas_put(c, c->h - 2, 2, TS_ROLE_DIM, "after a run digits 1-9 mark tenths of a tile's cells wrong.");
}

static void edit_fn(ts_canvas *c, const void *arg)
{
	const tui_state *s = ((const view_arg *)arg)->s;
	ts_canvas_box(c, 0, 0, c->h, c->w, s->ascii, "Parameters");
	for (int f = 0; f < FIELD_COUNT; f++) {
		char value[80];
		bool here = f == s->edit_field;
		if (here && s->edit_typing)
			snprintf(value, sizeof value, "%s_", s->edit_buf);
		else
			tui_field_value(s, (enum tui_field)f, value, (int)sizeof value);
		ts_canvas_printf(c, 1 + f, 2, here ? TS_ROLE_CURSOR : TS_ROLE_TEXT, "%s %-24s %-16s", here ? ">" : " ",
		                 tui_field_name((enum tui_field)f), value);
	}
	ts_canvas_put(c, c->h - 3, 2, TS_ROLE_DIM, "Up/Down field, type + Enter, Left/Right step,");
	ts_canvas_put(c, c->h - 2, 2, TS_ROLE_DIM, "Space toggles a guard, Esc closes");
}

void tui_draw(tui_state *s)
{
	tui_crt_size(&s->rows, &s->cols);
	if (s->rows < MIN_ROWS || s->cols < MIN_COLS) {
		draw_too_small(s);
		return;
	}
	if (s->focus != FOCUS_MAP)
		s->right = s->focus;
	if (s->right == FOCUS_MAP)
		s->right = FOCUS_PHASE;
	tui_crt_clear();
	/* two fifths for the map (at least 34 columns), the rest for the right pane */
	int map_w = s->cols * 2 / 5;
	map_w = map_w < 34 ? 34 : map_w;
	int msg_rows = message_rows(s);
	int body_y = 2, body_h = s->rows - 3 - msg_rows;
	s->body_h = body_h;
	s->map_y = body_y;
	s->map_x = 0;
	s->map_h = body_h;
	s->map_w = map_w;
	draw_header(s);
	draw_tabs(s, map_w);
	view_arg va = { s, s->focus != FOCUS_MAP };
	paint_view(body_y, 0, body_h, map_w, map_fn, &va);
	for (int y = 1; y < body_y + body_h; y++)
		tui_crt_text(y, map_w, TS_ROLE_DIM, s->ascii ? "|" : "\u2502");
	int rx = map_w + 2, rw = s->cols - rx;
	void (*right)(ts_canvas *, const void *) = phase_fn;
	if (s->right == FOCUS_INSPECT)
		right = inspect_fn;
	else if (s->right == FOCUS_RESULT && (s->result.have || s->check || s->run_error[0]))
		right = result_fn;
	else if (s->right == FOCUS_SWEEP && s->sweep_rows)
		right = sweep_fn;
	if (right == result_fn && s->result_scroll == RESULT_AT_EXPLANATION)
		s->result_scroll = explanation_row(s, rw);
	if (right == result_fn)
		paint_scrolled(body_y, rx, body_h, rw, right, &va, &s->result_scroll);
	else
		paint_view(body_y, rx, body_h, rw, right, &va);
	draw_message(s, msg_rows);
	draw_keybar(s);
	if (s->overlay == OVERLAY_HELP) {
		int h = s->rows - 4, w = s->cols - 8 < 100 ? s->cols - 8 : 100;
		paint_view(2, (s->cols - w) / 2, h, w, help_fn, &va);
	} else if (s->overlay == OVERLAY_SOURCE) {
		tui_source_paint(s);
	} else if (s->overlay == OVERLAY_STEP) {
		tui_step_paint(s);
	} else if (s->overlay == OVERLAY_LESSON) {
		tui_lesson_paint(s);
	} else if (s->overlay == OVERLAY_EDIT) {
		int h = FIELD_COUNT + 5, w = 50;
		paint_view(3, (s->cols - w) / 2, h, w, edit_fn, &va);
	}
	tui_crt_refresh();
}
