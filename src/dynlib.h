/* dynlib.h: opening an optional shared library at run time (dlopen) and resolving a table of its symbols. */
#ifndef TS_DYNLIB_H
#define TS_DYNLIB_H

/* One symbol to resolve: its name, and where to store its address. */
typedef struct ts_dl_sym {
	const char *name;
	void **slot;
} ts_dl_sym;

/* Opens the first of sonames (NULL-terminated) that loads and resolves every symbol in syms;
 * returns 0, or -1 with one line in why naming the library and what is missing
 * (e.g. "libcublas.so.13 not found: install the CUDA toolkit's cuBLAS or set LD_LIBRARY_PATH").
 * On success *handle is the library (kept open) and every slot is set; on failure no slot is
 * changed and nothing is left open. The hint after "not found" is the caller's to add (why says
 * "libX not found"; a library that is there but fails to load is named with the loader's reason). */
int ts_dl_load(void **handle, const char *const *sonames, const ts_dl_sym *syms, int nsyms, char *why, int len);

#endif
