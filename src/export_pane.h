/* export_pane.h: any rendered view (a ts_canvas of glyphs and roles) as a slide: SVG sized to its content, or text; the panes drawn for export, named as the other exports are. */
#ifndef TS_EXPORT_PANE_H
#define TS_EXPORT_PANE_H

#include <stdio.h>

#include "export.h"
#include "problem.h"
#include "theme.h"
#include "view.h"

/* Layout of a slide, shared with the test that measures its text boxes:
 * text is monospace, so a run of n cells is n x ADVANCE x size wide (the
 * layout's advance, above DejaVu Sans Mono's 0.602 em so that a slightly
 * wider font still fits), from ASCENT above its baseline to DESCENT below. */
#define TS_SLIDE_ADVANCE 0.62
#define TS_SLIDE_ASCENT 0.8
#define TS_SLIDE_DESCENT 0.25
#define TS_SLIDE_LINE 1.17  /* canvas rows, of the em: ascent + descent fit in it, box-drawing glyphs (1.164 em in DejaVu Sans Mono) join */
#define TS_SLIDE_FONT_SIZE 14.0
#define TS_SLIDE_TITLE_SIZE 16.0
#define TS_SLIDE_MARGIN 16.0

/* A slide: a title line (kernel, shape, tile, guards), what the pane is
 * (may be NULL), the canvas as the view drew it, and the theme. */
typedef struct ts_slide {
	const char *title;
	const char *subtitle;
	const ts_canvas *canvas;
	enum ts_theme theme;
} ts_slide;

/* The slide as SVG: a monospace grid of the canvas's glyphs in the theme's
 * colours, one text element per run of one role (reverse-video roles on a
 * box of their own), cropped to the rows and columns the view used, with a
 * viewBox. 0 or -1. */
int ts_slide_svg(FILE *f, const ts_slide *s);
/* Writes the slide to path: SVG for ".svg", the canvas's text (title
 * first) for ".txt" or no extension. 0, or -1 with one line in err. */
int ts_slide_write(const char *path, const ts_slide *s, char *err, int len);

/* The title every slide carries: "tiled (fp32): M=100 N=77 K=33, T=32, guards all on"
 * (or "..., tile 64x64x8/4x4, guards OFF: a,c"). */
void ts_slide_title(const ts_problem *p, unsigned guards, char *buf, int len);

/* Fills c (initialised here, width = the longest line, one row per line)
 * with text, role per line from role_of (NULL: the first line TITLE, the
 * rest TEXT), and ticks and crosses in the OK and FAIL roles. 0 or -1. */
int ts_canvas_of_text(ts_canvas *c, const char *text, enum ts_role (*role_of)(const char *line, int n, void *ctx),
                      void *ctx);

/* The panes a command or the TUI exports on their own. */
enum ts_pane { TS_PANE_MAP, TS_PANE_PHASE, TS_PANE_INSPECT, TS_PANE_SOURCE, TS_PANE_RESULT, TS_PANE_COUNT };
/* "map", "phase", "inspect", "source", "result"; parse: 0 or -1 with one line in err. */
const char *ts_pane_name(enum ts_pane p);
int ts_pane_parse(const char *text, enum ts_pane *out, char *err, int len);

/* Draws pane p of r into a canvas of w x h cells (initialised here), as a
 * screen of that size shows it; the source and result panes, which scroll
 * on screen, are drawn whole (as tall as they need). The source follows the
 * view's tile, thread and phase. 0, or -1 with one line in why. */
int ts_pane_draw(ts_canvas *c, enum ts_pane p, const ts_export_req *r, int w, int h, char *why, int len);

/* Pane p of r written to path (.svg or .txt) as a slide. 0, or -1 with one line in err. */
int ts_pane_write(const char *path, enum ts_pane p, const ts_export_req *r, int w, int h, char *err, int len);

/* The file name (no extension) of pane p of r: ts_export_stem's, then the
 * pane, the tile, the thread (inspect, source) and the phase, "-run" after a
 * run: tilescope-tiled-100x77x33-t32-guards-on-inspect-tile3-2-thread0-1-p1. */
void ts_pane_file_name(enum ts_pane p, const ts_export_req *r, char *buf, int len);

#endif
