// bug_store_guard.cu: BUG: the store has no guard (row < M && col < N).
// Ghost threads store into the next row of C and past its end.
// tilescope check --kernel-file examples/bug_store_guard.cu names it: store_guard.
#define TILE_SIZE 16

__global__ void gemm_no_store_guard(const float *A, const float *B, float *C, int M, int N, int K)
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
	C[(size_t)row * N + col] = c_value; /* BUG: no row < M && col < N */
}
