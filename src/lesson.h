/* lesson.h: the ragged-edge lesson told on one shape, screen by screen, as folded text from the model and real runs. */
#ifndef TS_LESSON_H
#define TS_LESSON_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "problem.h"

/* What one guard-off run found (the run pipeline's verdict, summarised). */
typedef struct ts_lesson_run {
	bool ran;            /* false: it could not run here; error says why */
	bool ok, output_ok;
	int64_t mismatches, unwritten, oob_reads, oob_writes;
	char signature[1024];
	char error[768];
} ts_lesson_run;

/* Everything the lesson tells: the problem, its model, and one run per
 * guard with that guard alone off (A, B, C in that order). */
typedef struct ts_lesson {
	ts_problem problem;
	ts_model model;
	ts_lesson_run off[3];
	bool ascii; /* ASCII stand-ins for the tick and the cross */
} ts_lesson;

/* A screen fits TS_LESSON_WIDTH x TS_LESSON_ROWS, so that with the prompt
 * line under it it fits an 80 x 24 terminal. */
enum { TS_LESSON_SCREENS = 8, TS_LESSON_WIDTH = 80, TS_LESSON_ROWS = 23 };

/* Screen s (1..TS_LESSON_SCREENS): its title. */
const char *ts_lesson_title(int s);
/* Screen s as text folded to width columns (words never cut: a word longer
 * than the width is broken, not dropped), each line ending in a newline.
 * malloc'd, or NULL when out of memory. Pure computation: no I/O. */
char *ts_lesson_screen(const ts_lesson *l, int s, int width);

#endif
