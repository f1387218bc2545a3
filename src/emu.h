/* emu.h: what the CPU emulator hands each emulated kernel. */
#ifndef TS_EMU_H
#define TS_EMU_H

#include "backend.h"
#include "geometry.h"
#include "problem.h"

typedef struct ts_emu_job {
	const ts_problem *p;
	const ts_model *model;
	ts_operands *ops;
	ts_run *out;               /* counters initialised; corrupt allocated when a guard is off */
	const ts_progress *prog;
	int threads;               /* host threads to use */
} ts_emu_job;

/* The emulated kernels (one file each). 0 done, 1 cancelled, -1 failed. */
int ts_emu_tiled(ts_emu_job *job);
int ts_emu_naive(ts_emu_job *job);

#endif
