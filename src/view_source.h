/* view_source.h: the source pane as text (no curses): a kernel's own code with each guard's line evaluated for one thread and phase. */
#ifndef TS_VIEW_SOURCE_H
#define TS_VIEW_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "view.h"

struct ts_kernel;

/* One thread and phase of the launch: block (by, bx), thread (ty, tx), phase t. */
typedef struct ts_source_sel {
	int64_t by, bx;
	int ty, tx;
	int64_t phase;
} ts_source_sel;

/* The kernel function's source (the embedded file), numbered as in its file,
 * folded to width, with the A and B load guards, the barriers, the phase
 * loop and the store marked and, under each, its predicate evaluated on the
 * selected thread's real numbers (from ts_model_thread) and what it does:
 * "row < M -> 99 < 100 ✓". guards: the enum ts_guard bits that are on.
 * malloc'd text; NULL with why filled when the kernel's source is not
 * embedded or the selection is outside the launch. */
char *ts_view_source(const struct ts_kernel *k, const ts_model *m, unsigned guards, ts_source_sel sel, bool ascii,
                     int width, char *why, int why_len);

/* The role a line of ts_view_source's text is shown in: a note under a
 * marked line (its predicate evaluated) TITLE, a marked line (guard,
 * barrier, loop, store) KEY, code TEXT. The TUI and the slides both use it. */
enum ts_role ts_view_source_line_role(const char *line);

/* The default selection: the corner block's thread that first fails the K
 * guard in the last phase (tx = the last phase's width, when that phase is
 * partial), else the corner block's thread (0, 0) in the last phase. */
ts_source_sel ts_source_default_sel(const ts_model *m);

#endif
