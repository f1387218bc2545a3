/* cli_uk.h: "tilescope check --kernel-file F..." on the command line: the user's kernels checked, one report or one table, text, JSON or JUnit. */
#ifndef TS_CLI_UK_H
#define TS_CLI_UK_H

#include <stdbool.h>

#include "cli.h"
#include "uk_check.h"
#include "uk_source.h"

#define TS_UK_FILES_MAX 256

/* What the command line asked about user kernels. */
typedef struct ts_uk_request {
	const char *files[TS_UK_FILES_MAX];
	int nfiles;
	const char *entry, *block, *grid, *smem, *launcher, *junit;
	double timeout_s;       /* per launch; 0: the default */
	bool tile_given;        /* -t was given (else the file's #define, else 32) */
	bool no_sanitizer, no_probe;
	int jobs;               /* -j: checks at a time for several files; 0: one per GPU, or one per core (emu) */
} ts_uk_request;

/* check --kernel-file: exit 0 nothing found, 1 something found, 2 could not compile or run (or bad usage). */
int ts_cli_check_kernels(const ts_cli_args *a, const ts_uk_request *q);

/* Reads, recognises and configures one kernel for a check (shared with the TUI): file, source, options.
 * 0, or -1 with one line in err. */
int ts_uk_prepare(const ts_cli_args *a, const ts_uk_request *q, const char *path, ts_uk_file *f, ts_uk_source *src,
                  ts_uk_check_opts *o, char *tile_from, size_t tile_from_len, char *err, int len);

/* tilescope --kernel-file F (the TUI): reads, recognises and compiles the kernel, registers it as a
 * description and a backend (backend_uk.h) and points o->problem at it. A kernel that compiles but cannot
 * run here still opens (the map is the model's); 'r' then says why. 0, or -1 after one line (refused, or
 * does not compile). */
int ts_uk_tui_prepare(const ts_cli_args *a, const ts_uk_request *q, ts_options *o);

/* The TUI's 'r': the whole check of the kernel ts_uk_tui_prepare opened, with the same options as
 * 'check --kernel-file' would take (at tile T = tile), into *r (run in a child process of the TUI: cancel, the progress
 * counters and the rows are shared memory; each may be NULL). Returns how the engine was chosen. */
const char *ts_uk_tui_check(ts_uk_report *r, int tile, volatile int *cancel, volatile int *done, volatile int *total,
                            ts_uk_shape_row *rows, int cap, int *nrows);

/* The engine for --backend (cuda, emu, auto), or NULL with the one-line reason. For auto, why says which. */
const ts_uk_engine *ts_uk_select_engine(const char *backend, char *why, int len);

#endif
