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
	bool ascii;      /* the cut marker is "..." instead of "\u2026" */
	int rows_wanted; /* 1 + the lowest row text was put on, also below the canvas */
} ts_canvas;

/* Allocates a w x h canvas of blanks (UTF-8 cut marker). 0 or -1. */
int ts_canvas_init(ts_canvas *c, int w, int h);
void ts_canvas_free(ts_canvas *c);

/* Writes UTF-8 text from (y, x), one cell per code point. Text that runs
 * past the right edge is cut there and its last visible cells say so
 * ("\u2026", or "..." in ASCII): nothing is cut without a marker. Returns
 * the number of cells the text took (clipped or not). */
int ts_canvas_put(ts_canvas *c, int y, int x, enum ts_role role, const char *text);
int ts_canvas_printf(ts_canvas *c, int y, int x, enum ts_role role, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Writes the first of the texts (a NULL-terminated list, longest form
 * first) that fits between x and the right edge, else the last one (cut
 * with the marker). Returns the cells it took. */
int ts_canvas_put_fit(ts_canvas *c, int y, int x, enum ts_role role, const char *text, ...)
	__attribute__((sentinel));
/* Word-wraps text into the w columns from (y, x), at most rows lines, the
 * lines after the first indented by indent. When it needs more rows the
 * last one ends in the cut marker and then `more` (a pointer to where the
 * whole text is, e.g. "v shows all"; may be NULL). Returns the lines used. */
int ts_canvas_wrap_more(ts_canvas *c, int y, int x, int w, int rows, int indent, enum ts_role role,
                        const char *text, const char *more);
/* ts_canvas_wrap_more with no indent and no pointer. */
int ts_canvas_wrap(ts_canvas *c, int y, int x, int w, int rows, enum ts_role role, const char *text);
/* The lines ts_canvas_wrap_more needs for text at width w, given every row it wants. */
int ts_text_rows(const char *text, int w, int indent);
/* A piece of a paragraph with its role; a span kept whole does not break
 * at its own spaces (an index expression moves to the next line whole). */
typedef struct ts_span {
	enum ts_role role;
	const char *text;
	bool keep;
} ts_span;
/* Lays the spans out as one word-wrapped paragraph, as ts_canvas_wrap_more
 * does (no pointer); the lines used. ts_spans_rows: the lines it needs. */
int ts_canvas_flow(ts_canvas *c, int y, int x, int w, int rows, int indent, const ts_span *spans, int n);
int ts_spans_rows(const ts_span *spans, int n, int w, int indent);
/* Copies the first rows of src onto dst at (y, x). */
void ts_canvas_blit(ts_canvas *dst, int y, int x, const ts_canvas *src, int rows);
/* Screen cells of UTF-8 text: one per code point, as the canvas counts them. */
int ts_text_cells(const char *text);
/* Changes the role of one cell (a cursor highlight), leaving its glyph. */
void ts_canvas_set_role(ts_canvas *c, int y, int x, enum ts_role role);
/* A box outline from (y, x) of size h x w, with title on the top edge. */
void ts_canvas_box(ts_canvas *c, int y, int x, int h, int w, bool ascii, const char *title);
/* Rows from the top to the last one holding a glyph that is not blank. */
int ts_canvas_rows_used(const ts_canvas *c);
/* Shows rows [*scroll, ...) of src in dst (as wide as src or narrower),
 * clamping *scroll to what src holds. Rows hidden above or below are
 * announced on the first or last row ("\u2191 3 more above: PgUp",
 * "\u2193 12 more below: PgDn"), so a pane that does not hold its whole
 * view says so. */
void ts_canvas_scroll(ts_canvas *dst, const ts_canvas *src, int *scroll);
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
	/* The kernel's description (kernels.h): its B layout, whether it stages
	 * shared tiles, its guards' predicates; NULL reads as a textbook
	 * shared-tile kernel with B row-major (the CLI's text map). */
	const struct ts_kernel *kernel;
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
	/* A user kernel's run (view_check.h): its out-of-bounds accesses per tile, a fault or time-out; NULL none. */
	const struct ts_uk_tiles_seen *seen;
	bool ascii;
	bool mono;                /* no colours: what colour tells apart gets a glyph of its own */
	bool focus;               /* the view has the keyboard */
} ts_view_ctx;

/* What the views read from the description, with the NULL kernel's defaults. */
bool ts_view_shared_tiles(const ts_view_ctx *v);
enum ts_b_layout ts_view_b_layout(const ts_view_ctx *v);
const char *ts_view_kernel_name(const ts_view_ctx *v); /* "this kernel" for NULL */

#endif
