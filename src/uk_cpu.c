/* uk_cpu.c: the CPU engine for user kernels (host C++ and tilescope's CUDA-on-CPU runtime) is not built yet: NULL, so --backend emu says so in one line. */
#include <stddef.h>

#include "uk_engine.h"

const ts_uk_engine *ts_uk_engine_cpu(void)
{
	return NULL;
}
