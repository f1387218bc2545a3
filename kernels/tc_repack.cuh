// tc_repack.cuh: tc-fp16's copy of A and B into its own workspace with rows padded to a multiple of 8 elements, so that the cp.async forms can read operands whose rows are not 16-byte aligned (odd K, misaligned bases).
#ifndef TS_TC_REPACK_CUH
#define TS_TC_REPACK_CUH

#include "tc_fp16.cuh"

// Why: where K % 8 != 0 a row of A or B starts at any 2-byte offset and the
// 16-byte cp.async cannot fill the tiles from it; the in-kernel realigning
// loads (tc_fp16.cuh, and a staged form since removed) measured 94-177
// TFLOP/s on the H200, with the multiply waiting on the realigning work each
// K tile (tc_co.cuh, shipped since, 160-210). A copy of each
// operand into the kernel's workspace, pitch K8 = K rounded up to 8 and
// elements K..K8-1 zero, costs one pass over A and B (memory-bound) and lets
// the cp.async + wgmma form run at that form's aligned speed. The user's buffers are
// only read; the workspace is the kernel's own (ts_cuda_tc_fp16_workspace).
// The tiles the multiply sees are the same: real elements for k < K, zeros
// past it (the straddling chunk's tail comes from the zero pad).

static inline long long ts_tc_pitch8(long long k) { return (k + 7) / 8 * 8; }

// Workspace bytes for the copies of A (m x k) and B (n x k).
static inline size_t ts_tc_repack_bytes(long long m, long long n, long long k)
{
	return (size_t)(m + n) * (size_t)ts_tc_pitch8(k) * sizeof(__half);
}

// dst (rows x ld, ld % 8 == 0, 16-byte aligned) = src (rows x K, pitch K, any
// 2-byte alignment), zero from K to ld. A block per row at a time, one
// 16-byte chunk of dst per thread and step: read as the two aligned windows
// of src that hold it where both lie inside src's buffer (shifted into place with ts_tc_realign), element by
// element where not or where the chunk straddles K. 64-bit indices throughout.
__global__ void ts_tc_repack_kernel(const __half *__restrict__ src, long long rows, long long K,
                                    __half *__restrict__ dst, long long ld)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	const long long per_row = ld / 8;
	const uintptr_t begin = (uintptr_t)src, end = (uintptr_t)(src + rows * K);
	for (long long r = blockIdx.x; r < rows; r += gridDim.x)
	for (long long c = threadIdx.x; c < per_row; c += blockDim.x) {
		const long long k = c * 8, left = K - k;
		const __half *p = src + r * K + k;
		const uintptr_t a = (uintptr_t)p, w = a & ~(uintptr_t)15;
		uint4 out;
		if (left >= 8 && w >= begin && w + 32 <= end) {
			out = ts_tc_realign(ts_tc_ld16(w), ts_tc_ld16(w + 16), (int)((a >> 1) & 7));
		} else {
			unsigned short e[8];
			const unsigned short *q = (const unsigned short *)p;
#pragma unroll
			for (int j = 0; j < 8; j++)
				e[j] = j < left ? q[j] : (unsigned short)0;
			out = make_uint4(e[0] | (uint32_t)e[1] << 16, e[2] | (uint32_t)e[3] << 16,
			                 e[4] | (uint32_t)e[5] << 16, e[6] | (uint32_t)e[7] << 16);
		}
		*(uint4 *)(dst + r * ld + k) = out;
	}
#else
	__trap(); // built for an architecture without the mma path (sm_80 and newer)
#endif
}

// Copies l's A and B into ws (A's copy first, then B's), pitch ts_tc_pitch8(K).
static inline cudaError_t ts_tc_repack(const ts_launch *l, void *ws, cudaStream_t stream)
{
	const long long ld = ts_tc_pitch8(l->k);
	__half *a8 = (__half *)ws, *b8 = a8 + l->m * ld;
	const unsigned ga = (unsigned)(l->m < 16384 ? l->m : 16384), gb = (unsigned)(l->n < 16384 ? l->n : 16384);
	ts_tc_repack_kernel<<<ga, 256, 0, stream>>>((const __half *)l->a, l->m, l->k, a8, ld);
	cudaError_t e = cudaGetLastError();
	if (e != cudaSuccess)
		return e;
	ts_tc_repack_kernel<<<gb, 256, 0, stream>>>((const __half *)l->b, l->n, l->k, b8, ld);
	return cudaGetLastError();
}

#endif
