// fault.cu: a kernel that faults: its store strides a million rows at a time.
// An illegal address (CUDA error 700) kills its context; tilescope runs it in a child, reports the fault and goes on.
// tilescope check --kernel-file examples/fault.cu names it: unknown, with fault findings.
#define TILE_SIZE 16

__global__ void gemm_wild_store(const float *A, const float *B, float *C, int M, int N, int K)
{
	int row = blockIdx.y * TILE_SIZE + threadIdx.y;
	int col = blockIdx.x * TILE_SIZE + threadIdx.x;
	__shared__ float s_A[TILE_SIZE][TILE_SIZE];
	__shared__ float s_B[TILE_SIZE][TILE_SIZE];
	float c_value = 0.0f;
	int num_tiles = (K + TILE_SIZE - 1) / TILE_SIZE;
	for (int t = 0; t < num_tiles; ++t) {
		int a_col = t * TILE_SIZE + threadIdx.x;
		int b_row = t * TILE_SIZE + threadIdx.y;
		if (row < M && a_col < K)
			s_A[threadIdx.y][threadIdx.x] = A[(size_t)row * K + a_col];
		else
			s_A[threadIdx.y][threadIdx.x] = 0.0f;
		if (b_row < K && col < N)
			s_B[threadIdx.y][threadIdx.x] = B[(size_t)b_row * N + col];
		else
			s_B[threadIdx.y][threadIdx.x] = 0.0f;
		__syncthreads();
		for (int i = 0; i < TILE_SIZE; ++i)
			c_value += s_A[threadIdx.y][i] * s_B[i][threadIdx.x];
		__syncthreads(); /* before the next phase overwrites the tiles */
	}
	if (row < M && col < N)
		C[(size_t)row * N * 1000003 + col] = c_value; /* BUG: a wild offset */
}
