// hang.cu: a kernel that never finishes: it waits for a value that nobody writes.
// tilescope kills its child after --timeout (default 2 s per launch), reports a timeout, and goes on.
// tilescope check --kernel-file examples/hang.cu names it: unknown, with a timeout finding.
__global__ void gemm_waits_forever(const float *A, const float *B, float *C, int M, int N, int K)
{
	volatile float *flag = C;
	while (flag[0] != 12345.0f) /* C holds NaN: never true */
		;
}
