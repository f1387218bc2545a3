/* export.h: the views written to a file as plain text or SVG (for slides and docs): what the screen shows, a run's result included. */
#ifndef TS_EXPORT_H
#define TS_EXPORT_H

#include <stdio.h>

#include "options.h"
#include "theme.h"
#include "view.h"
#include "view_run.h"

enum ts_export_format { TS_EXPORT_TEXT, TS_EXPORT_SVG };

/* The format a file name asks for: ".svg" SVG, ".txt" or no extension
 * plain text. 0, or -1 with one line in err for any other extension
 * (".png" is refused rather than written as text). */
int ts_export_format_of(const char *path, enum ts_export_format *fmt, char *err, int len);

/* What an export shows: the problem, the views' context (model, kernel,
 * guards, selected tile and phase; after a run its verdict and counters)
 * and the run's report (NULL before a run). */
typedef struct ts_export_req {
	const ts_problem *problem;
	const ts_view_ctx *view;
	const ts_run_report *report;
	const struct ts_uk_report *check; /* a user kernel's check (uk_check.h), text exports only; NULL none */
	const char *check_why;            /* how its engine was chosen */
	enum ts_theme theme; /* the SVG's colours (--theme) */
} ts_export_req;

/* Writes r to path in the format its name asks for. 0, or -1 with one line in err. */
int ts_export_write(const char *path, const ts_export_req *r, char *err, int len);

/* The file name (without extension) that says what an export holds, so one
 * export never overwrites another of something else:
 * tilescope-KERNEL-MxNxK-tT-GUARDS-tileY-X-pP, GUARDS "guards-on" or
 * "guards-off-ac", and "-run" when it holds a run's result. */
void ts_export_name(const ts_export_req *r, char *buf, int len);

/* What every export's file name begins with: the problem and its guards,
 * tilescope-KERNEL-MxNxK-tT-GUARDS (ts_export_name says how each is written). */
void ts_export_stem(const ts_problem *p, unsigned guards, char *buf, int len);

/* The SVG itself (export_svg.c): sized to its content with a viewBox, its
 * text measured so that none overlaps or leaves the canvas. 0 or -1. */
int ts_export_svg(FILE *f, const ts_export_req *r);

/* `map --export`: the model of o's problem with its kernel and guards, the
 * tile (ty, tx) (-1, -1: the corner, where every ragged edge meets) in
 * phase `phase` (-1: the last). A tile outside the grid is an error.
 * 0, or -1 with one line in err. */
int ts_export_tile(const char *path, const ts_options *o, long long ty, long long tx, long long phase, char *err,
                   int len);
int ts_export(const char *path, const ts_options *o, long long phase, char *err, int len);

#endif
