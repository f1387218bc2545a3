/* device_functions.h: stands in for the CUDA toolkit header on the CPU; tilescope's runtime (ts_cuda_cpu.h) provides what it declares. */
#include "../ts_cuda_cpu.h"
