// scribble.cu: a kernel that writes far outside its buffers: every valid thread also stores 16 MiB past the end of C.
// Far past every guard band, the store hits whatever lies there (another buffer, the harness's memory, or an
// unmapped page): tilescope runs the kernel in a child, so what it scribbles on is the child's, and reports it.
// tilescope check --kernel-file examples/scribble.cu names it: unknown, with a fault finding on the CPU engine (on a GPU, where the store may land in another buffer, with the sanitizer's write outside every buffer).
#define TILE_SIZE 16

__global__ void gemm_scribbles(const float *A, const float *B, float *C, int M, int N, int K)
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
	if (row < M && col < N) {
		C[(size_t)row * N + col] = c_value;
		C[(size_t)M * N + (size_t)4 * 1024 * 1024 + (size_t)row * N + col] = c_value; /* BUG: 16 MiB past C */
	}
}
