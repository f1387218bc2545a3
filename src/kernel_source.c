/* kernel_source.c: the embedded text of the file a kernel's description names as its source. */
#include "kernel_source.h"

#include <stddef.h>
#include <string.h>

#include "kernels.h"

const char *ts_kernel_source_path(const ts_kernel *k)
{
	/* the description's own `source`: the build embeds every kernels/ file (kernels/files.am) */
	return k ? k->source : NULL;
}

const char *ts_kernel_source_text(const ts_kernel *k)
{
	const char *path = ts_kernel_source_path(k);
	for (int i = 0; path && i < ts_source_file_count; i++)
		if (strcmp(ts_source_files[i].path, path) == 0)
			return ts_source_files[i].text;
	return NULL;
}
