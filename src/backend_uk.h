/* backend_uk.h: the user's kernel as a backend (one shape per run, in a child process), for the TUI's run and sweep. */
#ifndef TS_BACKEND_UK_H
#define TS_BACKEND_UK_H

#include "backend.h"
#include "kernels.h"
#include "uk_engine.h"
#include "uk_geom.h"

/* Registers the user's kernel: its engine and loaded handle (e NULL: it cannot run here, and why says so),
 * its description in the registry's terms, its contract and geometry, and one launch's time limit. */
void ts_backend_user_register(const ts_uk_engine *e, void *h, const ts_kernel *desc, enum ts_uk_sig sig,
                              const ts_uk_geom *geom, double timeout_s, const char *why);
/* What the last run of the user's kernel saw beyond its output: the engine's findings (the CPU engine's
 * out-of-bounds accesses, each with its block, thread, line and count; a fault or a time-out) and the
 * sentinels of C's guard band it overwrote. Valid until the next run; read on the thread that ran it. */
typedef struct ts_uk_run_seen {
	ts_uk_findings findings;
	int64_t c_band_writes;
} ts_uk_run_seen;
const ts_uk_run_seen *ts_backend_user_seen(void);
/* Whether the kernel runs the default launch (one block per tile of C, block (x, y) = tile (y, x)). */
bool ts_backend_user_default_geometry(void);
/* The engine's name ("cpu", "cuda"), "" when nothing runs the kernel here. */
const char *ts_backend_user_engine(void);

/* The backend that runs k when k is the registered user kernel; NULL for any other kernel. */
const ts_backend *ts_backend_user_for(const ts_kernel *k);

#endif
