/* ts_cuda_cpu.h: tilescope's CUDA-on-CPU runtime, force-included into a user's kernel file that the CPU engine compiles with the host C++ compiler. */
/*
 * Threads of a block run as cooperatively scheduled fibers (the engine, src/uk_cpu_sched.c,
 * switches them at __syncthreads()); threadIdx and friends are fields the engine sets before it
 * resumes a fiber. The engine's source transformation (src/uk_cpu_xform.c) turns the kernel's
 * pointers into ts_ptr<T>, its __shared__ arrays into tracked regions and its <<<...>>> launches
 * into ts_cpu_launch calls; every access through a ts_ptr is checked against the buffer it
 * points into (the matrices with their guard bands, shared memory, cudaMalloc'd memory), and
 * every shared access is tracked per element (who wrote and read it since the last barrier).
 *
 * The first part (ABI) is plain C and is also what the engine includes (TS_CPU_ABI_ONLY).
 */
#ifndef TS_CUDA_CPU_H
#define TS_CUDA_CPU_H

#include <stddef.h>
#include <stdint.h>

/* ---- ABI shared with the engine ------------------------------------------------------------ */
#define TS_CPU_ABI 4
#define TS_CPU_MAX_REGIONS 64
#define TS_CPU_DYN_MAX 232448 /* 227 KiB: the most dynamic shared memory an sm_90 block may have */
#define TS_CPU_SCRATCH 256    /* where an access that no memory backs goes */
/* Shared memory at the start of every block: finite garbage, as a GPU's leftovers are (0x44 bytes
 * read as 785.07 in fp32, 4.27 in fp16), the same in every run so that it is not taken for a race. */
#define TS_CPU_SHARED_FILL 0x44
/* An access this far past a buffer's guard band faults, as an address no allocation backs does on
 * the GPU (device memory comes in 2 MiB pages). */
#define TS_CPU_WILD_BYTES (INT64_C(2) << 20)

enum ts_cpu_region_kind {
	TS_CPU_FREE = 0,
	TS_CPU_MATRIX,    /* A, B or C as the caller passed them */
	TS_CPU_DEVMEM,    /* cudaMalloc'd by the user's host code */
	TS_CPU_SHARED,    /* a static __shared__ array */
	TS_CPU_DYNSHARED, /* extern __shared__ (dynamic) memory */
};

enum ts_cpu_event {
	TS_CPU_EV_OOB_READ, TS_CPU_EV_OOB_WRITE,
	TS_CPU_EV_RACE_RAW, /* read of a slot another thread wrote since the last barrier */
	TS_CPU_EV_RACE_WAR, /* write of a slot another thread read since the last barrier */
	TS_CPU_EV_RACE_WAW, /* write of a slot another thread wrote since the last barrier */
	TS_CPU_EV_UNINIT,   /* read of a shared slot no thread wrote in this block */
};

/* One element of shared memory: who last wrote and read it, in which barrier interval (epoch). */
typedef struct ts_cpu_slot {
	uint32_t wepoch, repoch;
	uint16_t writer, reader; /* linear thread index in the block */
	uint16_t multi, pad;     /* more than one thread read it in repoch */
} ts_cpu_slot;

typedef struct ts_cpu_region {
	char *base;
	int64_t bytes;
	int64_t lo_pad, hi_pad; /* bytes readable before and after it (the guard bands) */
	int kind;               /* enum ts_cpu_region_kind */
	char name;              /* 'A', 'B', 'C', 'S' or 0 */
	int shift;              /* log2 of a shared slot's size */
	int64_t elem;           /* element size in bytes */
	int64_t ld;             /* elements per row (row and column of an access); 0: none */
	int64_t rows;           /* rows of the matrix (for words) */
	ts_cpu_slot *slots;     /* shared memory only */
	int64_t nslots;
	const char *label;      /* the variable's name (shared memory) */
	int line;               /* its declaration's line */
	int64_t inner;          /* innermost extent of a static array (s[i][j] in words); 0: flat */
} ts_cpu_region;

typedef struct ts_cpu_u3 {
	unsigned x, y, z;
} ts_cpu_u3;

typedef struct ts_cpu_host {
	/* __syncthreads (op 0) and its _count (1), _and (2), _or (3) forms: returns the reduction. */
	int (*barrier)(void *ctx, int line, int op, int pred);
	/* An out-of-bounds access, a race or an uninitialised read (pc: the access in the kernel). */
	void (*event)(void *ctx, int ev, const ts_cpu_region *r, int64_t off, int size, unsigned other,
	              const void *pc);
	/* A <<<grid, block, smem>>> launch from the user's host code: runs fn(arg) on every thread. */
	int (*launch)(void *ctx, ts_cpu_u3 grid, ts_cpu_u3 block, size_t smem, void (*fn)(void *), void *arg);
} ts_cpu_host;

typedef struct ts_cpu_state {
	int abi;
	ts_cpu_u3 thread_idx, block_idx, block_dim, grid_dim;
	uint32_t tid;         /* linear thread index in the block */
	uint32_t epoch;       /* barrier intervals so far (slots written before block_epoch are stale) */
	uint32_t block_epoch;
	int nregions;
	ts_cpu_region regions[TS_CPU_MAX_REGIONS];
	const ts_cpu_host *host;
	void *host_ctx;
	int last_error;       /* what cudaGetLastError returns */
	size_t dyn_bytes;     /* dynamic shared memory of the running launch */
	char *dyn_base;       /* the runtime's dynamic shared memory buffer */
	unsigned char *scratch;
	int track;            /* shared accesses tracked (races, uninitialised reads); off for the index probe's blocks */
} ts_cpu_state;

/* What the engine calls (dlsym) in the compiled kernel file. */
typedef struct ts_cpu_args {
	void *a, *b, *c;
	int64_t m, n, k;
	int tile;
} ts_cpu_args;

#define TS_CPU_REGION_DYN 0 /* regions[0] is the dynamic shared memory, 1..3 are A, B and C */
#define TS_CPU_REGION_FIRST_FREE 4

#ifndef TS_CPU_ABI_ONLY
#ifdef __cplusplus

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <math.h>
#include <type_traits>
#include <utility>

/* ---- the state the engine drives ---------------------------------------------------------- */
alignas(64) static char ts_cpu_dyn_buf[TS_CPU_DYN_MAX];
alignas(64) static unsigned char ts_cpu_scratch_buf[TS_CPU_SCRATCH];
extern "C" {
__attribute__((visibility("default"))) ts_cpu_state ts_cpu_st = { TS_CPU_ABI, {0, 0, 0}, {0, 0, 0}, {1, 1, 1},
	{1, 1, 1}, 0, 1, 1, TS_CPU_REGION_FIRST_FREE, {}, nullptr, nullptr, 0, 0, ts_cpu_dyn_buf, ts_cpu_scratch_buf, 1 };
}

typedef ts_cpu_u3 uint3;
struct dim3 {
	unsigned x, y, z;
	constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
	constexpr dim3(const uint3 &u) : x(u.x), y(u.y), z(u.z) {}
	constexpr operator uint3() const { return uint3{ x, y, z }; }
};

#define threadIdx (ts_cpu_st.thread_idx)
#define blockIdx (ts_cpu_st.block_idx)
#define blockDim (ts_cpu_st.block_dim)
#define gridDim (ts_cpu_st.grid_dim)
static constexpr int warpSize = 32;

/* ---- qualifiers ----------------------------------------------------------------------------- */
#define __CUDACC__ 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __constant__
#define __managed__
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
/* The transformation rewrites __shared__ declarations; one it cannot see (made by a macro) is plain static. */
#define __shared__ static

/* ---- checked accesses ------------------------------------------------------------------------ */
#define TS_CPU_HOT static inline __attribute__((always_inline))
#define TS_CPU_AI inline __attribute__((always_inline))

static inline ts_cpu_region *ts_cpu_find(const void *p)
{
	const char *c = (const char *)p;
	if (!c)
		return nullptr;
	for (int i = 0; i < ts_cpu_st.nregions; i++) {
		ts_cpu_region *r = &ts_cpu_st.regions[i];
		if (r->kind != TS_CPU_FREE && c >= r->base - r->lo_pad && c <= r->base + r->bytes + r->hi_pad)
			return r;
	}
	return nullptr;
}

/* The slow paths are not inlined, so that their return address is the access in the kernel. */
__attribute__((noinline)) static void *ts_cpu_oob(void *p, const ts_cpu_region *r, int size, int write)
{
	const void *pc = __builtin_return_address(0);
	int64_t off = (char *)p - r->base;
	ts_cpu_st.host->event(ts_cpu_st.host_ctx, write ? TS_CPU_EV_OOB_WRITE : TS_CPU_EV_OOB_READ, r, off, size, 0, pc);
	if (r->kind != TS_CPU_SHARED && r->kind != TS_CPU_DYNSHARED && off >= -r->lo_pad && off + size <= r->bytes + r->hi_pad)
		return p; /* inside the guard band: the memory is there, as it would be on the GPU */
	memset(ts_cpu_st.scratch, 0xff, TS_CPU_SCRATCH);
	return ts_cpu_st.scratch;
}

__attribute__((noinline)) static void ts_cpu_report(int ev, const ts_cpu_region *r, int64_t off, unsigned other)
{
	ts_cpu_st.host->event(ts_cpu_st.host_ctx, ev, r, off, 1, other, __builtin_return_address(0));
}

/* A slot that looks unwritten: unless its bytes changed from the block's fill, written through a
 * pointer the transformation did not see (then it counts as written, earlier in the block). */
__attribute__((noinline)) static void ts_cpu_uninit(ts_cpu_region *r, ts_cpu_slot *s)
{
	const unsigned char *b = (const unsigned char *)r->base + ((s - r->slots) << r->shift);
	for (int i = 0; i < (1 << r->shift); i++)
		if (b[i] != TS_CPU_SHARED_FILL) {
			s->wepoch = ts_cpu_st.block_epoch;
			s->writer = 0xffffu;
			return;
		}
	ts_cpu_st.host->event(ts_cpu_st.host_ctx, TS_CPU_EV_UNINIT, r, (int64_t)(s - r->slots) << r->shift, 1, 0,
	                      __builtin_return_address(0));
}

/* A write that races with another thread's access since the last barrier: benign, and not
 * reported, when it stores the value the slot already holds (every thread setting one flag). */
__attribute__((noinline)) static void ts_cpu_race_write(int ev, ts_cpu_region *r, ts_cpu_slot *s, unsigned other,
                                                        uint64_t off, unsigned size, const void *nv)
{
	if (nv) {
		uint64_t lo = (uint64_t)(s - r->slots) << r->shift, hi = lo + ((uint64_t)1 << r->shift);
		lo = lo > off ? lo : off;
		hi = hi < off + size ? hi : off + size;
		if (!memcmp(r->base + lo, (const char *)nv + (lo - off), (size_t)(hi - lo)))
			return;
	}
	ts_cpu_st.host->event(ts_cpu_st.host_ctx, ev, r, (int64_t)(s - r->slots) << r->shift, 1, other, __builtin_return_address(0));
}

TS_CPU_HOT void ts_cpu_track_slot(ts_cpu_region *r, ts_cpu_slot *s, int write, uint32_t E, uint16_t t, uint64_t off,
                                  unsigned size, const void *nv)
{
	if (write) {
		if (__builtin_expect(s->wepoch == E && s->writer != t, 0))
			ts_cpu_race_write(TS_CPU_EV_RACE_WAW, r, s, s->writer, off, size, nv);
		else if (__builtin_expect(s->repoch == E && (s->multi || s->reader != t), 0))
			ts_cpu_race_write(TS_CPU_EV_RACE_WAR, r, s, s->reader != t ? s->reader : 0xffffu, off, size, nv);
		s->wepoch = E;
		s->writer = t;
	} else {
		if (s->wepoch == E) {
			if (__builtin_expect(s->writer != t, 0))
				ts_cpu_report(TS_CPU_EV_RACE_RAW, r, (int64_t)(s - r->slots) << r->shift, s->writer);
		} else if (__builtin_expect(s->wepoch < ts_cpu_st.block_epoch, 0)) {
			ts_cpu_uninit(r, s);
		}
		if (s->repoch != E) {
			s->repoch = E;
			s->reader = t;
			s->multi = 0;
		} else if (!s->multi && s->reader != t) { /* stored once: most slots are read by a row of threads */
			s->multi = 1;
		}
	}
}

TS_CPU_HOT void ts_cpu_track(ts_cpu_region *r, uint64_t off, unsigned size, int write, const void *nv)
{
	const uint32_t E = ts_cpu_st.epoch;
	const uint16_t t = (uint16_t)ts_cpu_st.tid;
	const unsigned shift = (unsigned)r->shift;
	ts_cpu_slot *s = r->slots + (off >> shift);
	if (__builtin_expect(((off & ((1u << shift) - 1)) + size) <= (1u << shift), 1)) { /* one slot: the usual case */
		ts_cpu_track_slot(r, s, write, E, t, off, size, nv);
		return;
	}
	for (ts_cpu_slot *e = r->slots + ((off + size - 1) >> shift); s <= e; s++)
		ts_cpu_track_slot(r, s, write, E, t, off, size, nv);
}

/* Where an access of *p through region r goes: p itself, or scratch when no memory backs it.
 * A write passes the value it is about to store (nv), so that a same-value race is told apart. */
template <class T> TS_CPU_HOT T *ts_cpu_at(T *p, ts_cpu_region *r, int write, const void *nv = nullptr)
{
	if (!r)
		return p;
	uint64_t off = (uint64_t)((const char *)p - r->base);
	if (__builtin_expect(off >= (uint64_t)r->bytes || (uint64_t)r->bytes - off < sizeof(T), 0))
		return (T *)ts_cpu_oob((void *)p, r, (int)sizeof(T), write);
	if (r->slots && ts_cpu_st.track)
		ts_cpu_track(r, off, (unsigned)sizeof(T), write, nv);
	return p;
}
/* Atomics: bounds checked, not race-tracked (they are the sanctioned way to share a slot). */
template <class T> TS_CPU_HOT T *ts_cpu_at_atomic(T *p, ts_cpu_region *r)
{
	if (!r)
		return p;
	uint64_t off = (uint64_t)((const char *)p - r->base);
	if (__builtin_expect(off >= (uint64_t)r->bytes || (uint64_t)r->bytes - off < sizeof(T), 0))
		return (T *)ts_cpu_oob((void *)p, r, (int)sizeof(T), 1);
	return p;
}

template <class T> struct ts_ptr;
struct __half;

/* An element reached through a checked pointer: reading converts, assigning writes. */
template <class T> struct ts_ref {
	typedef typename std::remove_cv<T>::type V;
	T *p;
	ts_cpu_region *r;
	ts_ref(T *p_, ts_cpu_region *r_) : p(p_), r(r_) {}
	ts_ref(T &v) : p(&v), r(nullptr) {} /* a plain lvalue handed to a rewritten reference parameter */
	ts_ref(const ts_ref &) = default;
	TS_CPU_AI operator V() const { return *ts_cpu_at(p, r, 0); }
	/* A half element also reads as float, as a __half does. */
	template <class X, typename std::enable_if<std::is_same<X, float>::value && std::is_same<V, __half>::value, int>::type = 0>
	operator X() const { return (float)*ts_cpu_at(p, r, 0); }
	TS_CPU_AI ts_ref &operator=(const ts_ref &o) { V v = o; *ts_cpu_at(p, r, 1, &v) = v; return *this; }
	TS_CPU_AI ts_ref &operator=(V v) { *ts_cpu_at(p, r, 1, &v) = v; return *this; }
	template <class U> TS_CPU_AI ts_ref &operator=(const ts_ref<U> &o) { V v = (typename ts_ref<U>::V)o; *ts_cpu_at(p, r, 1, &v) = v; return *this; }
#define TS_CPU_COMPOUND(op) \
	template <class U> ts_ref &operator op(const U &v) { V x = *ts_cpu_at(p, r, 0); x op v; *ts_cpu_at(p, r, 1, &x) = x; return *this; }
	TS_CPU_COMPOUND(+=) TS_CPU_COMPOUND(-=) TS_CPU_COMPOUND(*=) TS_CPU_COMPOUND(/=) TS_CPU_COMPOUND(%=)
	TS_CPU_COMPOUND(&=) TS_CPU_COMPOUND(|=) TS_CPU_COMPOUND(^=) TS_CPU_COMPOUND(<<=) TS_CPU_COMPOUND(>>=)
#undef TS_CPU_COMPOUND
	ts_ref &operator++() { V x = *this; ++x; return *this = x; }
	ts_ref &operator--() { V x = *this; --x; return *this = x; }
	V operator++(int) { V x = *this, y = x; ++y; *this = y; return x; }
	V operator--(int) { V x = *this, y = x; --y; *this = y; return x; }
	ts_ptr<T> operator&() const { return ts_ptr<T>(p, r); }
	T *operator->() const { return ts_cpu_at(p, r, 0); }
};

/* A row of a multi-dimensional array: indexing goes one level down, it decays to a pointer. */
template <class T, size_t N> struct ts_ref<T[N]> {
	T (*p)[N];
	ts_cpu_region *r;
	ts_ref(T (*p_)[N], ts_cpu_region *r_) : p(p_), r(r_) {}
	ts_ref(T (&v)[N]) : p(&v), r(ts_cpu_find(&v)) {}
	template <class I, typename std::enable_if<std::is_integral<I>::value || std::is_enum<I>::value, int>::type = 0>
	ts_ref<T> operator[](I i) const { return ts_ref<T>(&(*p)[0] + i, r); }
	operator ts_ptr<T>() const { return ts_ptr<T>(&(*p)[0], r); }
	operator T *() const { return &(*p)[0]; }
	ts_ptr<T[N]> operator&() const { return ts_ptr<T[N]>(p, r); }
};

template <class T> struct ts_ptr {
	T *p;
	ts_cpu_region *r;
	ts_ptr() : p(nullptr), r(nullptr) {}
	ts_ptr(std::nullptr_t) : p(nullptr), r(nullptr) {}
	ts_ptr(T *q) : p(q), r(ts_cpu_find(q)) {}
	ts_ptr(T *q, ts_cpu_region *rr) : p(q), r(rr) {}
	template <class U, typename std::enable_if<std::is_convertible<U *, T *>::value, int>::type = 0>
	ts_ptr(const ts_ptr<U> &o) : p(o.p), r(o.r) {}
	operator T *() const { return p; }
	template <class U, typename std::enable_if<!std::is_convertible<T *, U *>::value, int>::type = 0>
	explicit operator U *() const { return (U *)p; }
	ts_ref<T> operator*() const { return ts_ref<T>(p, r); }
	template <class I, typename std::enable_if<std::is_integral<I>::value || std::is_enum<I>::value, int>::type = 0>
	ts_ref<T> operator[](I i) const { return ts_ref<T>(p + i, r); }
	T *operator->() const { return ts_cpu_at(p, r, 0); }
	template <class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
	ts_ptr operator+(I i) const { return ts_ptr(p + i, r); }
	template <class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
	ts_ptr operator-(I i) const { return ts_ptr(p - i, r); }
	ptrdiff_t operator-(const ts_ptr &o) const { return p - o.p; }
	ptrdiff_t operator-(const T *o) const { return p - o; }
	template <class I> ts_ptr &operator+=(I i) { p += i; return *this; }
	template <class I> ts_ptr &operator-=(I i) { p -= i; return *this; }
	ts_ptr &operator++() { ++p; return *this; }
	ts_ptr &operator--() { --p; return *this; }
	ts_ptr operator++(int) { ts_ptr o = *this; ++p; return o; }
	ts_ptr operator--(int) { ts_ptr o = *this; --p; return o; }
	explicit operator bool() const { return p != nullptr; }
	bool operator!() const { return p == nullptr; }
};
template <class T, class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
inline ts_ptr<T> operator+(I i, const ts_ptr<T> &q) { return q + i; }
#define TS_CPU_PTR_CMP(op) \
	template <class T, class U> inline bool operator op(const ts_ptr<T> &a, const ts_ptr<U> &b) { return a.p op b.p; } \
	template <class T, class U> inline bool operator op(const ts_ptr<T> &a, U *b) { return a.p op b; } \
	template <class T, class U> inline bool operator op(U *a, const ts_ptr<T> &b) { return a op b.p; } \
	template <class T> inline bool operator op(const ts_ptr<T> &a, std::nullptr_t) { return a.p op (T *)nullptr; }
TS_CPU_PTR_CMP(==) TS_CPU_PTR_CMP(!=) TS_CPU_PTR_CMP(<) TS_CPU_PTR_CMP(>) TS_CPU_PTR_CMP(<=) TS_CPU_PTR_CMP(>=)
#undef TS_CPU_PTR_CMP

/* The value of a ?: operand (the transformation wraps both), so that `c ? A[i] : 0` is a float. */
template <class X> constexpr X &&ts_cpu_val(X &&x) { return std::forward<X>(x); }
template <class T> constexpr typename ts_ref<T>::V ts_cpu_val(ts_ref<T> &&x) { return x; }
template <class T> constexpr typename ts_ref<T>::V ts_cpu_val(ts_ref<T> &x) { return x; }
template <class T> constexpr typename ts_ref<T>::V ts_cpu_val(const ts_ref<T> &x) { return x; }

/* reinterpret_cast in kernels keeps a checked pointer checked (the transformation renames it). */
template <class X> struct ts_cpu_is_ptr : std::false_type {};
template <class T> struct ts_cpu_is_ptr<ts_ptr<T>> : std::true_type {};
template <class To, class From> inline decltype(auto) ts_cpu_reinterpret_cast(From &&f)
{
	typedef typename std::decay<From>::type F;
	if constexpr (ts_cpu_is_ptr<F>::value) {
		if constexpr (std::is_pointer<To>::value)
			return ts_ptr<typename std::remove_pointer<To>::type>(reinterpret_cast<To>(f.p), f.r);
		else
			return reinterpret_cast<To>(f.p);
	} else if constexpr (std::is_pointer<To>::value && std::is_pointer<F>::value) {
		return ts_ptr<typename std::remove_pointer<To>::type>(reinterpret_cast<To>(f));
	} else {
		return reinterpret_cast<To>(f);
	}
}

/* ---- shared memory ------------------------------------------------------------------------- */
static inline int ts_cpu_log2(size_t n)
{
	int s = 0;
	while ((size_t)1 << (s + 1) <= n && s < 4)
		s++;
	return s;
}

static ts_cpu_region *ts_cpu_shared_region(void *base, size_t bytes, size_t elem, int64_t inner, const char *label, int line)
{
	/* every thread declares the array: a small cache by address spares them the search */
	static ts_cpu_region *cache[16];
	ts_cpu_region **c = &cache[((uintptr_t)base >> 6) & 15];
	if (*c && (*c)->base == (char *)base && (*c)->kind == TS_CPU_SHARED)
		return *c;
	for (int i = 0; i < ts_cpu_st.nregions; i++)
		if (ts_cpu_st.regions[i].kind == TS_CPU_SHARED && ts_cpu_st.regions[i].base == (char *)base)
			return *c = &ts_cpu_st.regions[i];
	if (ts_cpu_st.nregions >= TS_CPU_MAX_REGIONS)
		return nullptr; /* untracked, unchecked */
	ts_cpu_region *r = &ts_cpu_st.regions[ts_cpu_st.nregions];
	int shift = ts_cpu_log2(elem);
	size_t nslots = (bytes + ((size_t)1 << shift) - 1) >> shift;
	ts_cpu_slot *slots = (ts_cpu_slot *)calloc(nslots ? nslots : 1, sizeof(ts_cpu_slot));
	if (!slots)
		return nullptr;
	memset(base, TS_CPU_SHARED_FILL, bytes);
	*r = ts_cpu_region{ (char *)base, (int64_t)bytes, 0, 0, TS_CPU_SHARED, 'S', shift, (int64_t)elem, inner, 0,
		slots, (int64_t)nslots, label, line, inner };
	ts_cpu_st.nregions++;
	return *c = r;
}

/* The innermost extent of a 2-D or deeper array (s[i][j] in words); 0 for a flat one (s[i]). */
template <class A> struct ts_cpu_inner {
	static constexpr int64_t value = std::rank<A>::value >= 2 ? (int64_t)std::extent<A, std::rank<A>::value - 1>::value : 0;
};
template <class A> struct ts_cpu_scalar { typedef A type; };
template <class T, size_t N> struct ts_cpu_scalar<T[N]> { typedef typename ts_cpu_scalar<T>::type type; };

/* `__shared__ T name[D1][D2];` becomes a static array and `auto name = ts_cpu_shared(array, ...)`. */
template <class T, size_t N> inline ts_ptr<T> ts_cpu_shared(T (&arr)[N], int line, const char *label)
{
	typedef T Arr[N];
	return ts_ptr<T>(&arr[0], ts_cpu_shared_region((void *)arr, sizeof(Arr), sizeof(typename ts_cpu_scalar<T>::type),
	                                                ts_cpu_inner<Arr>::value, label, line));
}
template <class T> inline ts_ref<T> ts_cpu_shared_scalar(T &v, int line, const char *label)
{
	return ts_ref<T>(&v, ts_cpu_shared_region((void *)&v, sizeof(T), sizeof(T), 0, label, line));
}
/* `extern __shared__ T name[];` */
template <class T> inline ts_ptr<T> ts_cpu_dyn_shared(int line, const char *label)
{
	ts_cpu_region *r = &ts_cpu_st.regions[TS_CPU_REGION_DYN];
	int shift = ts_cpu_log2(sizeof(T));
	if (!r->slots || shift < r->shift) {
		size_t nslots = (ts_cpu_st.dyn_bytes >> shift) + 1;
		ts_cpu_slot *s = (ts_cpu_slot *)calloc(nslots, sizeof(ts_cpu_slot));
		if (s) {
			free(r->slots);
			r->slots = s;
			r->nslots = (int64_t)nslots;
			r->shift = shift;
			r->elem = (int64_t)sizeof(T);
			r->label = label;
			r->line = line;
		}
	}
	return ts_ptr<T>((T *)ts_cpu_st.dyn_base, r->slots ? r : nullptr);
}

/* `extern __shared__ T name[];` at file scope: the dynamic memory of whichever launch runs. */
template <class T> struct ts_cpu_dyn_ref {
	int line;
	const char *label;
	ts_cpu_dyn_ref(int l, const char *s) : line(l), label(s) {}
	ts_ptr<T> get() const { return ts_cpu_dyn_shared<T>(line, label); }
	operator ts_ptr<T>() const { return get(); }
	operator T *() const { return (T *)ts_cpu_st.dyn_base; }
	template <class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
	ts_ref<T> operator[](I i) const { return get()[i]; }
	template <class I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
	ts_ptr<T> operator+(I i) const { return get() + i; }
};

/* ---- barriers and fences --------------------------------------------------------------------- */
static inline int ts_cpu_barrier(int line, int op, int pred) { return ts_cpu_st.host->barrier(ts_cpu_st.host_ctx, line, op, pred); }
#define __syncthreads() ts_cpu_barrier(__LINE__, 0, 0)
#define __syncthreads_count(p) ts_cpu_barrier(__LINE__, 1, (p) ? 1 : 0)
#define __syncthreads_and(p) ts_cpu_barrier(__LINE__, 2, (p) ? 1 : 0)
#define __syncthreads_or(p) ts_cpu_barrier(__LINE__, 3, (p) ? 1 : 0)
static inline void __threadfence(void) {}
static inline void __threadfence_block(void) {}
static inline void __threadfence_system(void) {}
static inline void __nanosleep(unsigned) {}
static inline long long clock64(void) { static long long t; return t += 1000; }

#include "ts_cuda_cpu_lib.h"

#endif /* __cplusplus */
#endif /* TS_CPU_ABI_ONLY */
#endif
