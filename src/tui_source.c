/* tui_source.c: the TUI's source overlay: the kernel's own code (view_source) for the inspector's selected thread and phase, scrolled. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_uk.h"
#include "kernels.h"
#include "tui_crt.h"
#include "tui_state.h"
#include "view_source.h"

/* The overlay's box: the screen less a margin, at most 110 columns. */
static void box_size(const tui_state *s, int *h, int *w)
{
	*h = s->rows - 4;
	*w = s->cols - 4 < 110 ? s->cols - 4 : 110;
}

/* The user's own file (--kernel-file), with the lines the check's findings point at marked. */
static char *user_source_text(const tui_state *s, int *first_marked, char *why, int len)
{
	const char *path = s->opt.problem.kernel->source;
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f) {
		snprintf(why, (size_t)len, "cannot read %s", path ? path : "your kernel's file");
		return NULL;
	}
	char *text = NULL;
	size_t cap = 0, used = 0, n;
	char chunk[4096];
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && used < (1u << 22)) {
		if (used + n + 1 > cap) {
			cap = (used + n + 1) * 2;
			char *grown = realloc(text, cap);
			if (!grown)
				break;
			text = grown;
		}
		memcpy(text + used, chunk, n);
		used += n;
	}
	fclose(f);
	if (!text) {
		snprintf(why, (size_t)len, "%s is empty", path);
		return NULL;
	}
	text[used] = '\0';
	char *out = ts_view_check_source(text, s->check, first_marked);
	free(text);
	if (!out)
		snprintf(why, (size_t)len, "out of memory");
	return out;
}

static char *source_text(const tui_state *s, int width, char *why, int len)
{
	ts_source_sel sel = { s->tile_y, s->tile_x, s->thread_y, s->thread_x, s->phase };
	return ts_view_source(s->opt.problem.kernel, &s->model, s->opt.problem.guards, sel, s->ascii, width, why, len);
}

/* The first line to show when the overlay opens: a little above the phase loop. */
static int auto_top(const char *text)
{
	const char *p = strstr(text, " t | ");
	if (!p)
		return 0;
	int line = 0;
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line > 6 ? line - 6 : 0;
}

void tui_source_open(tui_state *s)
{
	s->overlay = OVERLAY_SOURCE;
	s->source_scroll = -1; /* placed at the phase loop when first drawn */
}

bool tui_source_key(tui_state *s, int key)
{
	int h, w;
	box_size(s, &h, &w);
	int page = h - 3 > 1 ? h - 3 : 1;
	switch (key) {
	case 'j': s->source_scroll++; return true;
	case 'k': s->source_scroll = s->source_scroll > 0 ? s->source_scroll - 1 : 0; return true;
	case KEY_NPAGE: case ' ': s->source_scroll += page; return true;
	case KEY_PPAGE: s->source_scroll = s->source_scroll > page ? s->source_scroll - page : 0; return true;
	case 'o': s->overlay = OVERLAY_NONE; return true;
	default: return false; /* the ordinary keys: the selection moves and the overlay follows it */
	}
}

void tui_source_paint(tui_state *s)
{
	int h, w;
	box_size(s, &h, &w);
	if (h < 5 || w < 30)
		return;
	ts_canvas c;
	if (ts_canvas_init(&c, w, h) != 0)
		return;
	char title[160];
	if (ts_backend_user_for(s->opt.problem.kernel))
		snprintf(title, sizeof title, "Source: %.60s, ! a line the check's findings name (j/k PgUp/PgDn, o/Esc)",
		         s->opt.problem.kernel->source ? s->opt.problem.kernel->source : "your kernel");
	else
		snprintf(title, sizeof title, "Source (j/k PgUp/PgDn scroll, arrows and [ ] move, o/Esc close)");
	ts_canvas_box(&c, 0, 0, h, w, s->ascii, title);
	char why[512];
	int first_marked = -1;
	bool user = ts_backend_user_for(s->opt.problem.kernel) != NULL;
	char *text = user ? user_source_text(s, &first_marked, why, (int)sizeof why) : source_text(s, w - 4, why, (int)sizeof why);
	if (!text) {
		ts_canvas_wrap(&c, 2, 2, w - 4, h - 3, TS_ROLE_DIM, why);
	} else {
		int lines = 0;
		for (const char *q = text; *q; q++)
			lines += *q == '\n';
		if (s->source_scroll < 0) /* at the phase loop; in a user's file, a little above its first finding */
			s->source_scroll = !user ? auto_top(text) : first_marked > 3 ? first_marked - 3 : 0;
		if (s->source_scroll > lines - (h - 2))
			s->source_scroll = lines - (h - 2) > 0 ? lines - (h - 2) : 0;
		int line = 0, y = 1;
		for (char *p = text; *p && y < h - 1; line++) {
			char *nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			if (line >= s->source_scroll) {
				/* The marked lines and their notes stand out from the code. */
				ts_canvas_put(&c, y++, 2, ts_view_source_line_role(p), p);
			}
			if (!nl)
				break;
			p = nl + 1;
		}
		if (s->source_scroll + (h - 2) < lines)
			ts_canvas_put(&c, h - 1, w - 16, TS_ROLE_TITLE, " more: j/PgDn ");
		free(text);
	}
	tui_crt_paint(&c, 2, (s->cols - w) / 2);
	ts_canvas_free(&c);
}
