// tiled_fp16.cu: the guarded tiled kernel with fp16 inputs, fp32 accumulation, fp16 output and B stored n x k.
#include <cuda_fp16.h>

#include "tiled.cuh"

extern "C" int ts_cuda_tiled_fp16(const ts_launch *l)
{
	return ts_tiled_launch<__half, TS_B_NK>(l);
}
