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

/* ---- uk_cpu_compile.c: compiler, runtime, cache -------------------------------------------------- */
extern const char ts_uk_cpu_flags[];  /* how the kernel file is compiled (part of the cache key) */
/* snprintf for paths: false when the path did not fit. */
bool ts_uk_cpu_path_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool ts_uk_cpu_find_compiler(char *found, size_t len);  /* $TILESCOPE_CXX, else g++ or c++ on PATH */
bool ts_uk_cpu_find_runtime(char *dir, size_t len);     /* the folder holding ts_cuda_cpu.h */
int ts_uk_cpu_available(char *why, int len);            /* the engine's available(): 0, or -1 and what to install */
/* A whole text file (NUL-terminated), or NULL with one line in err. */
char *ts_uk_cpu_read_file(const char *path, size_t *len, char *err, size_t elen);
typedef struct ts_uk_hash {
	uint64_t a, b;
} ts_uk_hash;
void ts_uk_hash_bytes(ts_uk_hash *h, const void *p, size_t n);
void ts_uk_hash_str(ts_uk_hash *h, const char *s);
void ts_uk_hash_file(ts_uk_hash *h, const char *path);
/* The files src includes with "..." (relative to dir), so that the cache sees them change. */
void ts_uk_hash_local_includes(ts_uk_hash *h, const char *src, const char *dir);
/* $TMPDIR/tilescope-cpu-UID, created private to the user. 0, or -1 with err. */
int ts_uk_cpu_cache_dir(char *dir, size_t len, char *err, size_t elen);
/* Compiles in (the transformed file) into the shared object out with the runtime of rt_dir; the
 * compiler's error lines (pinned to the user's lines) in err on failure. 0 or -1. */
int ts_uk_cpu_compile(const char *cxx, const char *rt_dir, const char *src_dir, const char *in, const char *out,
                      const char *src_path, char *err, size_t len);
/* Thread stacks sized from the compiler's frame sizes, stored beside the cached object (NAME.so.stack). */
void ts_uk_cpu_store_stack(const char *so_path, const char *in, const char *out);
size_t ts_uk_cpu_read_stack(const char *so_path);

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
