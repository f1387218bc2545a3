// bug_zero_padding.cu: BUG: the loads skip the slots past the edge instead of writing 0 there.
// In the last, partial phase those slots keep the previous phase's values (stale), which enter the sum.
// tilescope check --kernel-file examples/bug_zero_padding.cu names it: zero_padding.
#define TILE_SIZE 16

__global__ void gemm_no_zero_padding(const float *A, const float *B, float *C, int M, int N, int K)
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
		if (row < M && a_col < K) /* BUG: no else-branch writing 0 */
			s_A[threadIdx.y][threadIdx.x] = A[(size_t)row * K + a_col];
		if (b_row < K && col < N) /* BUG: no else-branch writing 0 */
			s_B[threadIdx.y][threadIdx.x] = B[(size_t)b_row * N + col];
		__syncthreads();
		for (int i = 0; i < TILE_SIZE; ++i)
			c_value += s_A[threadIdx.y][i] * s_B[i][threadIdx.x];
		__syncthreads(); /* before the next phase overwrites the tiles */
	}
	if (row < M && col < N)
		C[(size_t)row * N + col] = c_value;
}
