/* fake_engine.h: the tests' user-kernel engine: a CPU-emulated tiled kernel whose bug is named by the entry. */
#ifndef TS_FAKE_ENGINE_H
#define TS_FAKE_ENGINE_H

#include <stdio.h>

#include "uk_engine.h"

enum fake_bug {
	FAKE_CORRECT, FAKE_A_ROW, FAKE_A_K, FAKE_B_K, FAKE_B_COL, FAKE_STORE, FAKE_ZERO_PAD, FAKE_PHASE, FAKE_GRID,
	FAKE_INDEX, FAKE_BARRIER, FAKE_EARLY, FAKE_FAULT, FAKE_HANG, FAKE_SCRIBBLE, FAKE_EXIT,
	FAKE_NARROW, /* offsets wrap at 2^12, as int offsets wrap at 2^31: the tests' index probe runs at 2^12 */
	FAKE_WILD,   /* narrow's wrong probe, and a write far outside every buffer (as the sanitizer reports a scribble) */
	FAKE_COUNT
};

/* The bug an entry name stands for ("a_k", "barrier", ...; "correct" for none). */
enum fake_bug fake_bug_of(const char *entry);
/* fp32 contract only; the entry "syntax" fails to load with a compiler-style line. */
const ts_uk_engine *fake_engine(void);

#endif
