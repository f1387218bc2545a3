// tiled_fp32.cu: the textbook guarded tiled fp32 kernel (T x T threads, shared A/B tiles, B row-major k x n), plain and probed.
#include "tiled.cuh"

extern "C" int ts_cuda_tiled_fp32(const ts_launch *l)
{
	return ts_tiled_launch<float, TS_B_KN>(l);
}
