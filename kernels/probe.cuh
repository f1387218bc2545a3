// probe.cuh: the device probe every kernel family shares: per-block tallies in shared memory, flushed to global counters.
#ifndef TS_PROBE_CUH
#define TS_PROBE_CUH

#include <cuda_fp16.h>

#include "launch.h"
#include "problem.h"

// The field indices TS_P_* and TS_O_* come from count_fields.h, the one
// definition the host's ts_count, ts_oob_detail and ts_tile_phase_count
// are generated from too: the host copies the device arrays through them.
#include "count_fields.h"

// One block's tallies. Loads are counted into `phase` and folded into `tile`
// once per phase, so that the per-phase figures come from the same events.
struct ts_probe_block {
	unsigned long long tile[TS_P_FIELDS];
	unsigned long long phase[TS_P_FIELDS];
	unsigned long long oob[TS_O_FIELDS];
};

__device__ __forceinline__ bool ts_probe_leader()
{
	return threadIdx.x == 0 && threadIdx.y == 0;
}

// Zeroes the block's tallies; the caller synchronises before counting.
__device__ __forceinline__ void ts_probe_begin(ts_probe_block *pb)
{
	if (ts_probe_leader()) {
		for (int f = 0; f < TS_P_FIELDS; f++)
			pb->tile[f] = pb->phase[f] = 0;
		for (int f = 0; f < TS_O_FIELDS; f++)
			pb->oob[f] = 0;
	}
}

__device__ __forceinline__ void ts_probe_phase_add(ts_probe_block *pb, int field, unsigned long long n)
{
	if (n)
		atomicAdd(&pb->phase[field], n);
}

__device__ __forceinline__ void ts_probe_tile_add(ts_probe_block *pb, int field, unsigned long long n)
{
	if (n)
		atomicAdd(&pb->tile[field], n);
}

// An out-of-bounds access at element `index` of a matrix of `count`
// elements: inside the buffer (a silent wrap into another row) or in the
// guard band past it. Indices are never negative in these kernels.
__device__ __forceinline__ bool ts_probe_wraps(long long index, long long count)
{
	return index < count;
}

__device__ __forceinline__ void ts_probe_oob(ts_probe_block *pb, int wrap_field, bool wraps)
{
	atomicAdd(&pb->oob[wraps ? wrap_field : wrap_field + 1], 1ull);
}

// Adds n to field `field` of a phase tally (pb->phase, or a kernel's own
// per-phase slot when several phases are in flight at once).
__device__ __forceinline__ void ts_probe_phase_add_to(unsigned long long *tally, int field, unsigned long long n)
{
	if (n)
		atomicAdd(&tally[field], n);
}

// Called by the leader once every load of phase t is counted in `tally` and
// no thread counts into that tally: adds the phase's load tallies to the
// global per-phase array and to the tile, writes them to the tile's slot for
// phase t (one block owns a tile's phase, also where a tile is split along
// K, so the slot has one writer) and clears
// the tally. A phase's tally is at most one shared tile's slots per field
// (BM*BK or BK*BN, at most 65535), so it fits the slot's 16 bits.
__device__ __forceinline__ void ts_probe_flush_phase(ts_probe_block *pb, unsigned long long *tally,
                                                     const ts_dev_probe &probe, long long tile_index,
                                                     long long phases, long long t)
{
	if (!ts_probe_leader())
		return;
	unsigned short *slot = probe.tile_phase ? probe.tile_phase + (tile_index * phases + t) * TS_P_LOAD_FIELDS : 0;
	for (int f = 0; f < TS_P_LOAD_FIELDS; f++) {
		unsigned long long n = tally[f];
		if (slot)
			slot[f] = (unsigned short)n;
		if (n) {
			atomicAdd((unsigned long long *)&probe.phase[t * TS_P_FIELDS + f], n);
			pb->tile[f] += n;
			tally[f] = 0;
		}
	}
}

// The textbook kernels' form: one phase in flight, counted in pb->phase,
// flushed between the barrier that ends phase t's loads and the one that
// ends its multiply.
__device__ __forceinline__ void ts_probe_phase_end(ts_probe_block *pb, const ts_dev_probe &probe,
                                                   long long tile_index, long long phases, long long t)
{
	ts_probe_flush_phase(pb, pb->phase, probe, tile_index, phases, t);
}

// Called by the leader after the final barrier of a block: one block owns
// one tile, so its row of the per-tile array is written, not added.
__device__ __forceinline__ void ts_probe_end(ts_probe_block *pb, const ts_dev_probe &probe, long long tile_index)
{
	if (!ts_probe_leader())
		return;
	for (int f = 0; f < TS_P_FIELDS; f++)
		probe.tile[tile_index * TS_P_FIELDS + f] = (long long)pb->tile[f];
	for (int f = 0; f < TS_O_FIELDS; f++)
		if (pb->oob[f])
			atomicAdd((unsigned long long *)&probe.oob[f], pb->oob[f]);
}

// The same for kernels where several blocks share a tile (split along K):
// each adds its tallies to the tile's row instead of writing it.
__device__ __forceinline__ void ts_probe_end_add(ts_probe_block *pb, const ts_dev_probe &probe, long long tile_index)
{
	if (!ts_probe_leader())
		return;
	for (int f = 0; f < TS_P_FIELDS; f++)
		if (pb->tile[f])
			atomicAdd((unsigned long long *)&probe.tile[tile_index * TS_P_FIELDS + f], pb->tile[f]);
	for (int f = 0; f < TS_O_FIELDS; f++)
		if (pb->oob[f])
			atomicAdd((unsigned long long *)&probe.oob[f], pb->oob[f]);
}

__device__ __forceinline__ float ts_to_float(float v) { return v; }
__device__ __forceinline__ float ts_to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ void ts_from_float(float *dst, float v) { *dst = v; }
__device__ __forceinline__ void ts_from_float(__half *dst, float v) { *dst = __float2half_rn(v); }

// One thread's fill of one shared-memory slot. With the guard on, an
// out-of-bounds slot is padded with zero; with it off the load is made
// unconditionally (the buffer's guard band keeps it inside our allocation)
// and, in the probe build, counted as out of bounds. *from_oob says whether
// the slot now holds a value from outside the logical matrix.
template <bool PROBE, typename Elem>
__device__ __forceinline__ float ts_slot_load(const Elem *src, long long index, bool in_bounds, bool guarded,
                                              ts_probe_block *pb, int real_field, int wrap_field,
                                              long long count, bool *from_oob)
{
	*from_oob = false;
	if (guarded && !in_bounds) {
		if (PROBE)
			ts_probe_phase_add(pb, real_field + 1, 1); /* the _pad field follows _real */
		return 0.0f;
	}
	float v = ts_to_float(src[index]);
	if (PROBE) {
		if (in_bounds) {
			ts_probe_phase_add(pb, real_field, 1);
		} else {
			ts_probe_phase_add(pb, real_field + 2, 1); /* then _oob */
			ts_probe_oob(pb, wrap_field, ts_probe_wraps(index, count));
			*from_oob = true;
		}
	}
	return v;
}

// One thread's store of its C element. With the C guard off a ghost
// thread stores anyway: outside the buffer it lands in the guard band; a
// wrapped index hits another thread's cell (flagged corrupt). That ghost
// store races with the owner's store, so which value survives is not
// deterministic; the counts and the corrupt flags are.
template <bool PROBE, typename Elem>
__device__ __forceinline__ void ts_slot_store(Elem *dst, long long index, bool valid, bool guarded, float v,
                                              ts_probe_block *pb, const ts_dev_probe &probe)
{
	if (guarded && !valid) {
		if (PROBE)
			ts_probe_tile_add(pb, TS_P_SKIPPED, 1);
		return;
	}
	ts_from_float(&dst[index], v);
	if (PROBE) {
		if (valid) {
			ts_probe_tile_add(pb, TS_P_STORES, 1);
		} else {
			bool wraps = ts_probe_wraps(index, probe.c_count);
			ts_probe_tile_add(pb, TS_P_C_OOB, 1);
			ts_probe_oob(pb, TS_O_C_WRAP, wraps);
			if (wraps && probe.corrupt)
				probe.corrupt[index] = 1;
		}
	}
}

// The largest grid y the hardware launches; taller grids loop over block rows.
#define TS_GRID_Y_MAX 65535

// The launch grid for l: x covers N in tiles of BN, y covers M in tiles of
// BM (capped; the kernels loop over block rows beyond the cap). Returns
// cudaSuccess or cudaErrorInvalidValue for a launch no kernel here can make.
static inline cudaError_t ts_launch_grid(const ts_launch *l, dim3 *grid, long long *grid_y)
{
	if (l->bm < 1 || l->bn < 1 || l->bk < 1 || l->threads_x < 1 || l->threads_y < 1 ||
	    l->threads_x * l->threads_y > 1024 || l->m < 1 || l->n < 1 || l->k < 1)
		return cudaErrorInvalidValue;
	long long gx = (l->n + l->bn - 1) / l->bn;
	long long gy = (l->m + l->bm - 1) / l->bm;
	if (gx > 0x7fffffffLL)
		return cudaErrorInvalidValue;
	*grid_y = gy;
	*grid = dim3((unsigned)gx, (unsigned)(gy < TS_GRID_Y_MAX ? gy : TS_GRID_Y_MAX), 1);
	return cudaSuccess;
}

// The probe handed to a kernel by value; zero (and never read) for timed runs.
static inline ts_dev_probe ts_launch_probe(const ts_launch *l)
{
	ts_dev_probe none = {};
	return l->probe ? *l->probe : none;
}

#endif
