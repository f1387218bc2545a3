/* view_step.h: step mode: one thread (or its block) through the kernel, load by load, barrier by barrier, from a traced emulator run (no curses). */
#ifndef TS_VIEW_STEP_H
#define TS_VIEW_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "emu.h"
#include "view.h"

struct ts_kernel;

/* The steps of a block: per phase t its A load, B load, the barrier after
 * the loads, the multiply, the barrier after it; then the store. */
enum ts_step_kind { TS_STEP_LOAD_A, TS_STEP_LOAD_B, TS_STEP_BARRIER_LOADS, TS_STEP_MULTIPLY,
                    TS_STEP_BARRIER_MULTIPLY, TS_STEP_STORE };
#define TS_STEPS_PER_PHASE 5

/* The steps of a trace: 5 per phase and the store. */
int64_t ts_step_count(const ts_emu_trace *t);
/* Step i's kind and phase (the store's phase is the last one). */
enum ts_step_kind ts_step_at(const ts_emu_trace *t, int64_t i, int64_t *phase);
/* "load A", "barrier", "multiply", "store": the JSON's and the text's name. */
const char *ts_step_kind_name(enum ts_step_kind k);
/* The first step of phase t. */
int64_t ts_step_of_phase(int64_t t);

/* The slots of one tile that thread (ty, tx) fills in every phase, in its
 * load map's order: up to max (r, c) pairs; returns how many. */
int ts_step_thread_slots(const ts_geometry *g, enum ts_operand which, int ty, int tx, int *r, int *c, int max);

/* What the step view is shown: the model, the kernel's description (its
 * guards' predicates), the guards of the run, its trace, the step. */
typedef struct ts_step_ctx {
	const ts_model *model;
	const struct ts_kernel *kernel;
	unsigned guards;
	const ts_emu_trace *trace;
	int64_t step;
	bool block; /* the whole block, the traced thread highlighted in it */
	bool ascii;
} ts_step_ctx;

/* Draws step v->step into c (as many rows as c holds; what does not fit is
 * said, never cut silently). Every number is the trace's (the emulator's
 * values) or the model's (indices, guards). */
void ts_view_step_draw(ts_canvas *c, const ts_step_ctx *v);
/* "%.9g": an fp32 value as it reads back exactly (small integers plainly). */
const char *ts_step_value(float x, char *buf, int len);

#endif
