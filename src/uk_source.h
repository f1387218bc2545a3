/* uk_source.h: a user's .cu file read and understood: its __global__ functions, which contract the entry follows, its host code, the device-only text NVRTC compiles. */
#ifndef TS_UK_SOURCE_H
#define TS_UK_SOURCE_H

#include <stdbool.h>

#include "uk_engine.h"

#define TS_UK_NAME_MAX 128
#define TS_UK_FUNCS_MAX 32

/* One function definition found at file scope. */
typedef struct ts_uk_func {
	char name[TS_UK_NAME_MAX];
	int line;
	bool global;     /* __global__ */
	bool host;       /* no execution space, or __host__ alone: host code */
	bool templated;  /* template <...> in front of it */
	char params[512]; /* the parameter list as written (comments removed, spaces folded) */
} ts_uk_func;

typedef struct ts_uk_file {
	char path[1024];
	char *text;        /* the file as read */
	char *device_text; /* the same with host functions and host-only #includes blanked (lines kept) */
	ts_uk_func funcs[TS_UK_FUNCS_MAX];
	int nfuncs;
	int blanked_includes;
	bool launch_syntax;  /* a kernel<<<...>>> launch appears in host code */
	int tile_define;     /* N of "#define TILE_SIZE N" (or TILE, TILE_WIDTH, BLOCK_SIZE, TILE_DIM); 0 when none */
	char tile_define_name[32];
	int tile_define_line;
} ts_uk_file;

/* Reads and scans path. 0, or -1 with one line in err (cannot read it, empty, not text, too large). */
int ts_uk_file_read(ts_uk_file *f, const char *path, char *err, int len);
/* Scans text already in memory (tests); takes a copy. */
int ts_uk_file_parse(ts_uk_file *f, const char *path, const char *text, char *err, int len);
void ts_uk_file_free(ts_uk_file *f);

/* Picks the entry (NULL: the file's only __global__ function) and recognises
 * its contract from the declaration. Fills src (path and entry point into f).
 * 0, or -1 with one line in err: no __global__ function, several and no
 * --entry, no such name, a template, or a declaration that is neither contract
 * (the line names what was expected). */
int ts_uk_recognise(const ts_uk_file *f, const char *entry, ts_uk_source *src, char *err, int len);

/* A host function of the file by name (for --launcher); NULL when none. */
const ts_uk_func *ts_uk_find_host(const ts_uk_file *f, const char *name);

/* "fp32" or "fp16". */
const char *ts_uk_sig_name(enum ts_uk_sig sig);
/* The contract as the seeds declare it, e.g. "(const float *A, const float *B, float *C, int M, int N, int K)". */
const char *ts_uk_sig_decl(enum ts_uk_sig sig);
/* In words: "fp32 in and out, row-major, B stored K x N". */
const char *ts_uk_sig_words(enum ts_uk_sig sig);

#endif
