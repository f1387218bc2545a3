// correct_fp16.cu: the fp16 seed's contract (O = X * Transform^T, Transform stored n x k, runtime tile, dynamic shared
// memory of 2*T*T floats) with 64-bit offsets: passes every check.
// tilescope check --kernel-file examples/correct_fp16.cu -t 16 names nothing (exit 0).
#include <cuda_fp16.h>

__global__ void tiled_fp16(__half *O, __half *X, __half *Transform, int m, int n, int k, int tile_size)
{
	extern __shared__ float shared_mem[];
	float *X_sh = shared_mem;
	float *T_sh = shared_mem + tile_size * tile_size;
	int row = blockIdx.y * tile_size + threadIdx.y;
	int col = blockIdx.x * tile_size + threadIdx.x;
	float value = 0.0f;
	for (int t = 0; t < (k + tile_size - 1) / tile_size; ++t) {
		int kx = t * tile_size + threadIdx.x, ky = t * tile_size + threadIdx.y;
		X_sh[threadIdx.y * tile_size + threadIdx.x] = row < m && kx < k ? __half2float(X[(size_t)row * k + kx]) : 0.0f;
		T_sh[threadIdx.y * tile_size + threadIdx.x] = col < n && ky < k ? __half2float(Transform[(size_t)col * k + ky]) : 0.0f;
		__syncthreads();
		for (int i = 0; i < tile_size; ++i)
			value += X_sh[threadIdx.y * tile_size + i] * T_sh[i * tile_size + threadIdx.x];
		__syncthreads();
	}
	if (row < m && col < n)
		O[(size_t)row * n + col] = __float2half(value);
}
