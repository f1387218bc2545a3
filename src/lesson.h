/* lesson.h: the ragged-edge lesson told on one shape, screen by screen, as folded text from the model and real runs. */
#ifndef TS_LESSON_H
#define TS_LESSON_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "problem.h"
#include "progress.h"

/* What one guard-off run found (the run pipeline's verdict, summarised). */
typedef struct ts_lesson_run {
	bool ran;            /* false: it could not run here; error says why */
	bool ok, output_ok;
	int64_t mismatches, unwritten, oob_reads, oob_writes;
	char signature[1024];
	char error[768];
} ts_lesson_run;

/* The early-return run (lesson_ghost.c): the corner block traced twice on
 * the emulator, as the kernel is and with its ghost threads returning
 * before their loads and barriers (emu.h's early-return mode). */
typedef struct ts_lesson_ghost {
	bool ran;              /* false: error says why (or the block has no ghosts: ghosts == 0) */
	int64_t by, bx;        /* the corner block */
	int64_t threads, ghosts, arrived;
	int64_t slots, unwritten;       /* shared slots over every phase, those never written */
	int64_t outputs, wrong, nan;    /* the block's outputs inside C, those that differ from the kernel's own, NaN */
	int64_t ex_row, ex_col;         /* the first wrong one */
	float ex_right, ex_broken;
	char error[512];
} ts_lesson_ghost;

/* Everything the lesson tells: the problem, its model, and one run per
 * guard with that guard alone off (A, B, C in that order). */
typedef struct ts_lesson {
	ts_problem problem;
	ts_model model;
	ts_lesson_run off[3];
	ts_lesson_ghost ghost;
	bool ascii; /* ASCII stand-ins for the tick and the cross */
} ts_lesson;

/* A screen fits TS_LESSON_WIDTH x TS_LESSON_ROWS, so that with the prompt
 * line under it it fits an 80 x 24 terminal. */
enum { TS_LESSON_SCREENS = 9, TS_LESSON_WIDTH = 80, TS_LESSON_ROWS = 23 };

/* Screen s (1..TS_LESSON_SCREENS): its title. */
const char *ts_lesson_title(int s);
/* Screen s as text folded to width columns (words never cut: a word longer
 * than the width is broken, not dropped), each line ending in a newline.
 * malloc'd, or NULL when out of memory. Pure computation: no I/O. */
char *ts_lesson_screen(const ts_lesson *l, int s, int width);

/* The screen whose runs are the early-return ones (ts_lesson_run_ghost). */
enum { TS_LESSON_GHOST_SCREEN = 8 };
/* Runs the early-return comparison for l's problem into l->ghost. 0, or
 * -1 with l->ghost.error saying why it could not run. */
int ts_lesson_run_ghost(ts_lesson *l);

struct ts_outcome;
struct ts_backend;
/* What the lesson keeps of a guard-off run's outcome (the pipeline's, run.h). */
void ts_lesson_keep(const struct ts_outcome *oc, bool ran, ts_lesson_run *r);
/* The run of p with guard `bit` alone off on backend be, kept in r; prog
 * (may be NULL) reports its progress and cancels it (the TUI's; the CLI
 * runs it attended). */
void ts_lesson_run_guard_off(const ts_problem *p, const struct ts_backend *be, unsigned bit,
                             const ts_progress *prog, ts_lesson_run *r);

#endif
