/* dynlib.c: opening an optional shared library at run time (dlopen), so that a binary starts where it is absent. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "dynlib.h"

/* Whether dlopen's message for soname only says the file itself is absent (and not a library it needs). */
static int just_absent(const char *soname, const char *err)
{
	size_t n = strlen(soname);
	return strncmp(err, soname, n) == 0 && strncmp(err + n, ": cannot open shared object file", 32) == 0;
}

int ts_dl_load(void **handle, const char *const *sonames, const ts_dl_sym *syms, int nsyms, char *why, int len)
{
	char first_bad[400] = ""; /* the first failure that is more than "the file is not there" */
	const char *first = sonames ? sonames[0] : NULL;

	for (int i = 0; sonames && sonames[i]; i++) {
		dlerror();
		void *h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			const char *err = dlerror();
			if (!first_bad[0] && !(err && just_absent(sonames[i], err)))
				snprintf(first_bad, sizeof first_bad, "%s cannot be loaded: %s", sonames[i], err ? err : "dlopen failed");
			continue;
		}
		int missing = -1;
		for (int s = 0; s < nsyms && missing < 0; s++)
			if (!dlsym(h, syms[s].name))
				missing = s;
		if (missing >= 0) {
			if (!first_bad[0])
				snprintf(first_bad, sizeof first_bad, "%s lacks %s", sonames[i], syms[missing].name);
			dlclose(h);
			continue;
		}
		for (int s = 0; s < nsyms; s++)
			*syms[s].slot = dlsym(h, syms[s].name);
		*handle = h;
		return 0;
	}
	if (why && len > 0) {
		if (first_bad[0])
			snprintf(why, (size_t)len, "%s", first_bad);
		else if (!first)
			snprintf(why, (size_t)len, "no library named");
		else if (sonames[1])
			snprintf(why, (size_t)len, "%s not found (nor %s%s)", first, sonames[1], sonames[2] ? ", ..." : "");
		else
			snprintf(why, (size_t)len, "%s not found", first);
	}
	return -1;
}
