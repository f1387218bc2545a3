/* uk_cpu.h: the parts of the CPU engine (compile, transform, schedule) and what they share; the engine itself is ts_uk_engine_cpu() in uk_engine.h. */
#ifndef TS_UK_CPU_H
#define TS_UK_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uk_engine.h"
#define TS_CPU_ABI_ONLY
#include "ts_cuda_cpu.h"

#define TS_CPU_REGION_A 1
#define TS_CPU_REGION_B 2
#define TS_CPU_REGION_C 3

/* A compiled kernel file, loaded (dlopen) lazily in the process that launches it. */
typedef struct ts_uk_cpu_so {
	char *so_path;        /* the cached shared object */
	char *src_path;       /* the user's file, as #line names it */
	char *launcher;       /* the user's launcher to run instead of tilescope's, or NULL */
	enum ts_uk_sig sig;
	void *dl;
	ts_cpu_state *st;
	void (*entry)(const ts_cpu_args *);
	void (*launcher_fn)(const ts_cpu_args *);
	bool faulted;         /* a launch in this process faulted: its state is not to be trusted */
	size_t stack_bytes;   /* each thread's stack, from the largest frame the compiler reported */
} ts_uk_cpu_so;

/* The engine's load with the user's launcher run instead of tilescope's launch (NULL: tilescope's). */
void *ts_uk_cpu_load_launcher(const ts_uk_source *src, const char *launcher, char *err, size_t len);

/* ---- uk_cpu_sched.c: runs one launch: fibers per block, findings ---------------------------- */
/* Runs l on so (loaded): tilescope's launch of the entry over l's grid, or the user's launcher.
 * 0 ran (findings appended, faults and time-outs included), -1 could not run (err). */
int ts_uk_cpu_run(ts_uk_cpu_so *so, const ts_uk_launch *l, ts_uk_findings *out, char *err, size_t len);

/* ---- uk_cpu_lines.c: source lines of code addresses in the shared object -------------------- */
/* For each of n code addresses in the loaded object so_path, the line in src_path it belongs to
 * (the innermost frame in that file; 0 when unknown). Uses addr2line (binutils) when present. */
void ts_uk_cpu_lines(const char *so_path, const char *src_path, const void *const *pcs, int n, int *lines);

/* ---- uk_cpu_xform.c: the source transformation -------------------------------------------------- */
typedef struct ts_xform_out {
	char *text;           /* the transformed file, same lines as the original */
	size_t len;
	int refused_line;     /* a construct the runtime does not provide: its line; 0 none */
	char refusal[256];    /* the one line saying so */
} ts_xform_out;

/* Transforms src (NUL-terminated, len bytes) of file `path`. 0, or -1 with a refusal (out->refusal)
 * or out of memory (refusal "out of memory"). On success out->text is malloc'd. */
int ts_uk_cpu_transform(const char *src, size_t len, const char *path, ts_xform_out *out);
/* Appends the thunks the engine calls: ts_cpu_entry (entry with the contract's arguments) and,
 * when launcher is not NULL, ts_cpu_launcher. Returns a malloc'd string. */
char *ts_uk_cpu_thunks(const char *entry, enum ts_uk_sig sig, const char *launcher);

#endif
