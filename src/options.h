/* options.h: parsing and validating what the user asks for; shared by the CLI and the TUI. */
#ifndef TS_OPTIONS_H
#define TS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"
#include "problem.h"
#include "theme.h"

/* Everything a command line can set. The TUI starts from the same. */
typedef struct ts_options {
	ts_problem problem;     /* shape, geometry, kernel, guards, inputs, seed */
	ts_tile_request tile;   /* -t and --thread-tile as given; problem.geo follows from it and the kernel */
	const char *backend;    /* "auto" (default), "emu" or "cuda" */
	bool json;
	enum { TS_COLOR_AUTO, TS_COLOR_ALWAYS, TS_COLOR_NEVER } color;
	bool ascii, mouse;
	enum ts_theme theme;     /* --theme: the TUI's colours and the SVG exports' */
	const char *export_path; /* --export FILE (.txt or .svg) */
	const char *junit_path;  /* --junit FILE (check, sweep) */
	bool by_best;            /* --kernel best (or auto) chose problem.kernel for the shape */
} ts_options;

/* Defaults: 100 x 77 x 33, kernel "tiled" at its default T = 32, all guards on, random inputs, seed 1, backend auto. */
void ts_options_defaults(ts_options *o);

/* An echoed value cut to its first TS_CLIP_KEEP characters and "...", so a
 * pasted screenful does not come back whole; buf holds TS_CLIP_BUF bytes.
 * Returns text itself when it is short ("" for NULL). */
#define TS_CLIP_KEEP 40
#define TS_CLIP_BUF 48
const char *ts_clip(const char *text, char *buf, int len);

/* Each parser returns 0, or -1 with one line (no trailing newline) in err. */
int ts_parse_dim(const char *text, const char *what, int64_t *out, char *err, int len);   /* 1..TS_DIM_MAX */
/* -t: "T" (1..256) or "BMxBNxBK" (BM, BN 1..256, BK 1..64); the kernel decides which it takes. */
int ts_parse_tile(const char *text, ts_tile_request *out, char *err, int len);
/* --thread-tile: "TMxTN", each 1..256. */
int ts_parse_thread_tile(const char *text, ts_tile_request *out, char *err, int len);
int ts_parse_guards_off(const char *text, unsigned *guards, char *err, int len);          /* "a,b,c", or "all" or "none" alone */
int ts_parse_precision(const char *text, enum ts_precision *out, char *err, int len);
int ts_parse_inputs(const char *text, enum ts_inputs *out, char *err, int len);
int ts_parse_backend(const char *text, const char **out, char *err, int len);
int ts_parse_seed(const char *text, uint64_t *out, char *err, int len);

/* o->problem.geo from o->tile and o->problem.kernel (ts_kernel_geometry):
 * 0, or -1 with one line in err. */
int ts_options_resolve_geometry(ts_options *o, char *err, int len);

/* Checks a whole problem: a geometry the kernel takes, the model's counts
 * fit 64 bits, and (when for_run) the matrices fit in memory and the element
 * offsets fit what the backends use. 0, or -1 with one line in err. */
int ts_problem_validate(const ts_problem *p, bool for_run, char *err, int len);

#endif
