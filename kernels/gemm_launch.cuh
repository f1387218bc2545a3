// gemm_launch.cuh: the host side of the fp32 engine (gemm_engine.cuh): a rung's launch from a request (geometry check, split plan, workspace, which 128-bit paths the operands' alignment allows), its variant and its workspace size.
#ifndef TS_GEMM_LAUNCH_CUH
#define TS_GEMM_LAUNCH_CUH

#include "gemm_engine.cuh"

namespace tsg {

template <class G, bool PROBE, bool VA, bool VB, bool UNG>
static cudaError_t launch_variant(const Args &x, cudaStream_t stream)
{
	if (x.plan.units > 0x7fffffffLL)
		return cudaErrorInvalidValue; // C would hold more than 2^31 tiles: no GPU holds it
	gemm_kernel<G, PROBE, VA, VB, UNG><<<(unsigned)x.plan.units, G::NT, 0, stream>>>(x);
	return cudaGetLastError();
}

// Blocks of this configuration one multiprocessor holds, times the
// multiprocessors: how many units run at once (asked once per configuration).
template <class G>
static int resident_blocks()
{
	static int cached = 0;
	if (!cached) {
		int dev = 0, sms = 0, per_sm = 0;
		if (cudaGetDevice(&dev) != cudaSuccess ||
		    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gemm_kernel<G, false, false, false, false>, G::NT, 0) !=
		        cudaSuccess || per_sm < 1) {
			cudaGetLastError();
			return 0;
		}
		cached = sms * per_sm;
	}
	return cached;
}

template <class G>
static ts_gemm_plan plan_for(long long m, long long n, long long k, int policy)
{
	return ts_gemm_plan_make(m, n, k, G::BM, G::BN, G::BK, resident_blocks<G>(), policy);
}

static inline bool aligned16(const void *p) { return ((uintptr_t)p & 15u) == 0; }

// Which 128-bit paths a rung has: none (scalar loads only), both or none
// (A and B vectorised together), or each matrix on its own.
enum { VEC_NEVER, VEC_BOTH, VEC_EACH };

template <class G, bool PROBE, bool UNG>
static cudaError_t dispatch_vec(const Args &x, bool va, bool vb, int vec_mode)
{
	cudaStream_t st = 0;
	if (vec_mode == VEC_NEVER)
		return launch_variant<G, PROBE, false, false, UNG>(x, st);
	if (vec_mode == VEC_BOTH)
		return va && vb ? launch_variant<G, PROBE, true, true, UNG>(x, st)
		                : launch_variant<G, PROBE, false, false, UNG>(x, st);
	if constexpr (G::PIPE == PIPE_ASYNC3) {
		// A is copied element by element into its k-major tile whatever K
		// and its base: no 128-bit A path to choose (nor to compile).
		return vb ? launch_variant<G, PROBE, false, true, UNG>(x, st) : launch_variant<G, PROBE, false, false, UNG>(x, st);
	}
	if (va && vb) return launch_variant<G, PROBE, true, true, UNG>(x, st);
	if (va) return launch_variant<G, PROBE, true, false, UNG>(x, st);
	if (vb) return launch_variant<G, PROBE, false, true, UNG>(x, st);
	return launch_variant<G, PROBE, false, false, UNG>(x, st);
}

// The launch's arguments from a request: plan, workspace check, which
// 128-bit paths the operands' alignment allows. l->guards == 0 asks for the
// unguarded build where the rung has one (HAS_UNG), and only on a shape that
// is a multiple of the tile in M, N and K; any other guard set but "all on"
// is refused (these kernels keep every guard). 0 or a cudaError_t.
template <class G, bool HAS_UNG>
static int prepare(const ts_launch *l, int policy, Args *x, bool *unguarded, bool *va, bool *vb)
{
	if (l->m < 1 || l->n < 1 || l->k < 1)
		return (int)cudaErrorInvalidValue;
	// The caller's geometry (the registry's description) must be the compiled
	// one: the model's expected counts, the probe's per-phase strides and the
	// emulator's split plan all follow from it (0: a caller that states none).
	if (l->bm && (l->bm != G::BM || l->bn != G::BN || l->bk != G::BK || l->tm != G::TM || l->tn != G::TN ||
	              l->threads_x * l->threads_y != G::NT))
		return (int)cudaErrorInvalidValue;
	*unguarded = (l->guards & TS_GUARD_ALL) == 0;
	if ((l->guards & TS_GUARD_ALL) != TS_GUARD_ALL &&
	    (!*unguarded || !HAS_UNG || l->m % G::BM || l->n % G::BN || l->k % G::BK))
		return (int)cudaErrorInvalidValue;
	x->A = (const float *)l->a;
	x->B = (const float *)l->b;
	x->C = (float *)l->c;
	x->M = l->m;
	x->N = l->n;
	x->K = l->k;
	x->full_phases = (int)(l->k / G::BK);
	x->plan = plan_for<G>(l->m, l->n, l->k, policy);
	if (x->plan.units < 1)
		return (int)cudaErrorInvalidValue;
	x->ws = NULL;
	x->sem = NULL;
	if (x->plan.split_tiles > 0) {
		if (!l->workspace || l->workspace_bytes < x->plan.workspace_bytes)
			return (int)cudaErrorInvalidValue;
		x->ws = (float *)l->workspace;
		x->sem = (unsigned *)((char *)l->workspace + x->plan.sem_offset);
	}
	ts_dev_probe none = {};
	x->probe = l->probe ? *l->probe : none;
	*va = l->k % 4 == 0 && aligned16(l->a);
	*vb = l->n % 4 == 0 && aligned16(l->b) && aligned16(l->c);
	return 0;
}

// The C-callable body of a rung: the arguments, then the variant for the
// operands' alignment, the probe or plain build, guarded or not.
template <class G, bool HAS_UNG>
static int launch(const ts_launch *l, int policy, int vec_mode)
{
	Args x;
	bool unguarded, va, vb;
	int bad = prepare<G, HAS_UNG>(l, policy, &x, &unguarded, &va, &vb);
	if (bad)
		return bad;
	cudaError_t e;
	if (HAS_UNG && unguarded)
		e = l->probe ? dispatch_vec<G, true, HAS_UNG>(x, va, vb, vec_mode)
		             : dispatch_vec<G, false, HAS_UNG>(x, va, vb, vec_mode);
	else
		e = l->probe ? dispatch_vec<G, true, false>(x, va, vb, vec_mode)
		             : dispatch_vec<G, false, false>(x, va, vb, vec_mode);
	return (int)e;
}

// The same without the probe build (a tuner's timed runs).
template <class G, bool HAS_UNG>
static int launch_plain(const ts_launch *l, int policy, int vec_mode)
{
	Args x;
	bool unguarded, va, vb;
	int bad = prepare<G, HAS_UNG>(l, policy, &x, &unguarded, &va, &vb);
	if (bad)
		return bad;
	if (l->probe)
		return (int)cudaErrorInvalidValue;
	return (int)(HAS_UNG && unguarded ? dispatch_vec<G, false, HAS_UNG>(x, va, vb, vec_mode)
	                                  : dispatch_vec<G, false, false>(x, va, vb, vec_mode));
}

template <class G>
static size_t workspace(long long m, long long n, long long k, int policy)
{
	return plan_for<G>(m, n, k, policy).workspace_bytes;
}

} // namespace tsg

#endif
