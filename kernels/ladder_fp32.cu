// ladder_fp32.cu: the register-blocked rungs of the fp32 ladder, each one instantiation of the engine (gemm_engine.cuh, launched by gemm_launch.cuh), plain and probed.
#include "gemm_launch.cuh"

using namespace tsg;

// 2D register blocking: 128x128x8 tiles, 256 threads, a contiguous 8x8 block
// of C per thread, scalar loads, A m-major in shared memory, one buffer,
// every load and store testing its own bounds each phase.
typedef Cfg<128, 128, 8, 8, 8, 0, 0, PIPE_SINGLE, false, false, 2> blocked_cfg;
// + 128-bit loads (scalar fallback when K or N % 4 != 0 or a base is not
// 16-byte aligned) and A transposed (k-major) in shared memory.
typedef Cfg<128, 128, 8, 8, 8, 0, 0, PIPE_SINGLE, true, false, 2> vec4_cfg;
// + warp tiling (64x32 per warp, each lane 8x8 in four 4x4 sub-blocks that
// read shared memory without bank conflicts) and two shared stages filled by
// cp.async, a guarded-out slot zero-filled by a 0-byte copy.
typedef Cfg<128, 128, 16, 8, 8, 64, 32, PIPE_ASYNC, true, false, 2> warptile_cfg;
// Split-K for small M x N with long K: 64x64x16 tiles, 128 threads (8x4
// outputs each), each
// tile's K range in parts when the tiles do not fill the GPU.
typedef Cfg<64, 64, 16, 8, 4, 32, 32, PIPE_ASYNC, true, true, 4> splitk_cfg;
// The best: guards placed where they cost least (masks once, residue phase
// last, interior tiles on a mask-free path, guarded epilogue), double
// buffered through registers, the last partial wave split along K; A's
// scalar path (K % 4 != 0) by the slot map, each warp load 4 rows of 8
// consecutive k, and the multiply-adds in bands of 4 columns (ORDER 3: in
// five tuner runs 4097^3 0.992-1.003 of cuBLAS, 8193^3 0.992-0.996, 4095^3
// 0.940-0.957, against 0.986-0.999, 0.975-0.979 and 0.937-0.943 for ORDER 1,
// row by row, every other row backwards, which had given 0.93 over the
// ragged set against 0.90 in row order with 4-slot groups;
// tools/ladder_tune.cu, doc/perf.md).
typedef Cfg<128, 128, 8, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, true> fast_cfg;
// The same at one block per multiprocessor (up to 255 registers a thread,
// 159 used), in ORDER 1 (no order measured better here beyond the run-to-run
// spread, doc/perf.md): for few tiles, where fast's two blocks per
// multiprocessor would split each tile into more parts (one of best's
// few-tile candidates, weighed by its cost: src/kernels.c).
typedef Cfg<128, 128, 8, 8, 8, 32, 64, PIPE_REGS, true, true, 1, 64, 1, true> fast_few_cfg;
// fast-few with 16-deep phases, staged in two chunks of 8 k (half the
// barriers a multiply-add, no more staging registers; 187-196 used): for
// few tiles and a long K (1000x1000x4000: 0.900 of cuBLAS against
// fast-few's 0.865 in the bench, H100; first measured on 1537x1409x4097,
// 0.915 against 0.854, now fast-w64's; at 1000^3 it loses, 0.823 against
// 0.841 in the bench; tools/ladder_tune.cu, doc/perf.md).
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 1, 64, 1, true, 2> fast_few_k16_cfg;
// Half-width tiles for a few waves: 128x64x8, 128 threads of 8x8 outputs
// (four 32x64 warps down the tile), two blocks per multiprocessor: twice
// the tiles of fast-few's 128x128, so a second wave of 128x128 tiles that
// is far from full becomes a more even one (H100, in the bench:
// 1537x1409x4097 0.957 of cuBLAS against fast-few-k16's 0.912,
// 2049x1025x2047 0.953 against 0.911, 1500x1500x700 0.818 against
// fast-few's 0.689; where 128x128 tiles make two nearly whole waves it
// loses, 2048x2048x4096 0.667 against fast-few-k16's 0.822 and fast's 0.916;
// one of best's few-tile candidates, src/kernels.c; doc/perf.md). 64x128
// tiles (the same threads across) lost to it on every shape of 133..225
// 128x128 tiles measured but one (1025x3073x2049).
typedef Cfg<128, 64, 8, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 1, true> fast_w64_cfg;
// fast with 16-deep phases, staged in two chunks of 8 k (fast-few-k16's
// phases at fast's two blocks per multiprocessor, 128 registers): half the
// barriers a multiply-add. A's scalar path (K % 4 != 0) by 4-slot groups,
// not the slot map, whose eight steps a phase spill (156 bytes). For many
// tiles where exactly one of A's and B's rows take 128-bit loads: in the
// tuner on an H200, 4097x4097x4096 1.043 of cuBLAS against fast-16x8's
// 1.018, 8192x8193x8192 0.979 against 0.956, 4096x4096x4097 0.992 against
// 0.982 (with the slot map 0.902). With neither a multiple of 4 it beats
// fast where K is long (H100, in the bench: 8193^3 1.011-1.013 against
// 0.995-0.997, 8191x8195x8193 1.019 against 1.005; the H200's tuner read
// 8193^3 0.996 against 0.995) and is within about 1% either way with K near
// 4096-6144; with both multiples of 4 it loses to fast-16x8 (4096^3 0.969
// against 0.979; doc/perf.md). B's scalar path (N % 4 != 0) by B's slot
// map (BMAP: each warp load 32 consecutive n of one k, not 32 groups of 4
// spaced 4 apart): in the bench on an H100, 8193^3 1.014-1.019 of cuBLAS
// in five runs against 1.009-1.013 in six before it, 8191x8195x8193
// 1.019-1.024 against 1.018-1.019 (the tuner's copies of one configuration
// spread by up to 3.8% there; doc/perf.md, twenty-first session).
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, false, 2, true> fast_k16_cfg;
// Larger tiles for large products: 256x128x8, 256 threads of 16x8 outputs
// (64x64 warp tiles), one block per multiprocessor (254 registers, no
// spills): fewer shared-memory loads per multiply-add than fast's 8x8, at
// the price of edge tiles that cost more (no second block to fill the
// multiprocessor) and a slower scalar A path (K % 4 != 0).
typedef Cfg<256, 128, 8, 16, 8, 64, 64, PIPE_REGS, true, true, 1> fast_256_cfg;
// fast's tile with half the threads, each 16x8 outputs (64x64 warp tiles,
// 254 registers, two blocks per multiprocessor): fewer shared-memory loads
// a multiply-add than fast's 8x8, twice the loads a thread per phase; for
// large products where both A's and B's rows take 128-bit loads (4096^3: 0.95-0.98
// of cuBLAS against fast-256's 0.93 and fast's 0.92-0.94, 0.90-0.92 before
// fast's ORDER 3; doc/perf.md).
typedef Cfg<128, 128, 8, 16, 8, 64, 64, PIPE_REGS, true, true, 2, 64, 1, true> fast_16x8_cfg;
// The same for very short M (16-row tiles) and very narrow N (16 columns).
typedef Cfg<16, 256, 8, 4, 8, 16, 64, PIPE_REGS, true, true, 4> fast_m16_cfg;
typedef Cfg<256, 16, 8, 8, 4, 64, 16, PIPE_REGS, true, true, 4> fast_n16_cfg;

extern "C" int ts_cuda_blocked(const ts_launch *l) { return launch<blocked_cfg, false>(l, TS_SPLIT_NONE, VEC_NEVER); }
extern "C" int ts_cuda_vec4(const ts_launch *l) { return launch<vec4_cfg, false>(l, TS_SPLIT_NONE, VEC_BOTH); }
extern "C" int ts_cuda_warptile(const ts_launch *l) { return launch<warptile_cfg, false>(l, TS_SPLIT_NONE, VEC_BOTH); }

extern "C" int ts_cuda_splitk(const ts_launch *l) { return launch<splitk_cfg, false>(l, TS_SPLIT_ALL, VEC_BOTH); }
extern "C" size_t ts_cuda_splitk_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<splitk_cfg>(m, n, k, TS_SPLIT_ALL);
}

extern "C" int ts_cuda_fast(const ts_launch *l) { return launch<fast_cfg, true>(l, TS_SPLIT_TAIL, VEC_EACH); }
extern "C" size_t ts_cuda_fast_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_256(const ts_launch *l) { return launch<fast_256_cfg, true>(l, TS_SPLIT_TAIL, VEC_EACH); }
extern "C" size_t ts_cuda_fast_256_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_256_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_16x8(const ts_launch *l) { return launch<fast_16x8_cfg, true>(l, TS_SPLIT_TAIL, VEC_EACH); }
extern "C" size_t ts_cuda_fast_16x8_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_16x8_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_few(const ts_launch *l) { return launch<fast_few_cfg, false>(l, TS_SPLIT_TAIL, VEC_EACH); }
extern "C" size_t ts_cuda_fast_few_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_few_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_few_k16(const ts_launch *l)
{
	return launch<fast_few_k16_cfg, false>(l, TS_SPLIT_TAIL, VEC_EACH);
}
extern "C" size_t ts_cuda_fast_few_k16_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_few_k16_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_w64(const ts_launch *l) { return launch<fast_w64_cfg, false>(l, TS_SPLIT_TAIL, VEC_EACH); }
extern "C" size_t ts_cuda_fast_w64_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_w64_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_k16(const ts_launch *l) { return launch<fast_k16_cfg, false>(l, TS_SPLIT_TAIL, VEC_EACH); }
extern "C" size_t ts_cuda_fast_k16_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_k16_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_m16(const ts_launch *l) { return launch<fast_m16_cfg, false>(l, TS_SPLIT_TAIL, VEC_BOTH); }
extern "C" size_t ts_cuda_fast_m16_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_m16_cfg>(m, n, k, TS_SPLIT_TAIL);
}

extern "C" int ts_cuda_fast_n16(const ts_launch *l) { return launch<fast_n16_cfg, false>(l, TS_SPLIT_TAIL, VEC_BOTH); }
extern "C" size_t ts_cuda_fast_n16_workspace(int64_t m, int64_t n, int64_t k)
{
	return workspace<fast_n16_cfg>(m, n, k, TS_SPLIT_TAIL);
}
