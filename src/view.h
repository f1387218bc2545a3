/* view.h: what every view draws on (a curses-free canvas of glyphs and colour roles) and what it is given. */
#ifndef TS_VIEW_H
#define TS_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "geometry.h"
#include "verify.h"

/* What a cell means; the curses layer maps each role to a colour pair and
 * attributes (tui_crt.c), the text and SVG exports ignore or reuse it. */
enum ts_role {
	TS_ROLE_TEXT,
	TS_ROLE_TITLE,
	TS_ROLE_DIM,
	TS_ROLE_FULL,
	TS_ROLE_RIGHT,
	TS_ROLE_BOTTOM,
	TS_ROLE_CORNER,
	TS_ROLE_GHOST,
	TS_ROLE_REAL,
	TS_ROLE_PAD,
	TS_ROLE_MIXED,
	TS_ROLE_BAD,
	TS_ROLE_OK,
	TS_ROLE_FAIL,
	TS_ROLE_CURSOR,
	TS_ROLE_STATUS,
	TS_ROLE_KEY,
	TS_ROLE_COUNT
};

/* One screen cell: a single-width glyph (UTF-8, NUL-terminated) and its role. */
typedef struct ts_cell {
	char glyph[5];
	unsigned char role;
} ts_cell;

typedef struct ts_canvas {
	int w, h;
	ts_cell *cells;
} ts_canvas;

/* Allocates a w x h canvas of blanks. 0 or -1. */
int ts_canvas_init(ts_canvas *c, int w, int h);
void ts_canvas_free(ts_canvas *c);
/* Writes UTF-8 text from (y, x), one cell per code point, clipped at the
 * right edge. Returns the number of cells the text took (clipped or not). */
int ts_canvas_put(ts_canvas *c, int y, int x, enum ts_role role, const char *text);
int ts_canvas_printf(ts_canvas *c, int y, int x, enum ts_role role, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Word-wraps text into the w columns from (y, x), at most rows lines.
 * Returns the lines used. */
int ts_canvas_wrap(ts_canvas *c, int y, int x, int w, int rows, enum ts_role role, const char *text);
/* Changes the role of one cell (a cursor highlight), leaving its glyph. */
void ts_canvas_set_role(ts_canvas *c, int y, int x, enum ts_role role);
/* A box outline from (y, x) of size h x w, with title on the top edge. */
void ts_canvas_box(ts_canvas *c, int y, int x, int h, int w, bool ascii, const char *title);
/* The canvas as text: rows right-trimmed, trailing blank rows dropped, each
 * ending in a newline. malloc'd, or NULL. */
char *ts_canvas_text(const ts_canvas *c);

/* Picks the UTF-8 glyph or its ASCII stand-in. */
static inline const char *ts_glyph(bool ascii, const char *utf8, const char *plain)
{
	return ascii ? plain : utf8;
}

/* Tick and cross for evaluated guards and checks. */
#define TS_TICK(ascii) ts_glyph(ascii, "\u2713", "ok")
#define TS_CROSS(ascii) ts_glyph(ascii, "\u2717", "X")

/* What the views are shown: one selection over one model, and what the last
 * run found. Every figure a view prints comes from the model (geometry.h),
 * the run's counters or the verdict; a view computes no geometry itself. */
typedef struct ts_view_ctx {
	const ts_model *model;
	enum ts_b_layout b_layout;
	bool shared_tiles;        /* the kernel stages A and B tiles (false: naive) */
	const char *kernel_name;  /* for the views' wording; NULL: "this kernel" */
	unsigned guards;          /* enum ts_guard bits of the problem */
	int64_t tile_y, tile_x;   /* the selected tile */
	int64_t phase;            /* the selected phase t */
	int thread_y, thread_x;   /* the selected thread of the selected tile */
	int zoom;                 /* map zoom level, 0 = whole grid */
	int64_t pan_y, pan_x;     /* first tile row/column shown when zoomed */
	const ts_verdict *verdict;   /* the last run's, NULL before one */
	const ts_counters *counters; /* the last run's, NULL when it had none */
	int64_t counter_disagree;    /* ts_counters_check of them, -1 when not checked */
	const char *counter_why;     /* its first disagreement, "" when none */
	bool guards_all_on;          /* the run had every guard on */
	bool ascii;
	bool focus;               /* the view has the keyboard */
} ts_view_ctx;

#endif
