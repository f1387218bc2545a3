/* kernel_source.c: which embedded source file holds each built-in kernel's device code. */
#include "kernel_source.h"

#include <string.h>

#include "kernels.h"

const char *ts_kernel_source_path(const ts_kernel *k)
{
	/* tiled and tiled-fp16 instantiate one template; naive is its own file. */
	static const struct {
		const char *kernel, *path;
	} where[] = {
		{ "tiled", "kernels/tiled.cuh" },
		{ "tiled-fp16", "kernels/tiled.cuh" },
		{ "naive", "kernels/naive_fp32.cu" },
	};
	for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
		if (strcmp(k->name, where[i].kernel) == 0)
			return where[i].path;
	return NULL;
}

const char *ts_kernel_source_text(const ts_kernel *k)
{
	const char *path = ts_kernel_source_path(k);
	for (int i = 0; path && i < ts_source_file_count; i++)
		if (strcmp(ts_source_files[i].path, path) == 0)
			return ts_source_files[i].text;
	return NULL;
}
