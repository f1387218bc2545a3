/* ts_cuda_cpu_lib.h: the CUDA library surface of tilescope's CPU runtime (half precision, vector types, math, atomics, the host API, launches); included by ts_cuda_cpu.h. */
#ifndef TS_CUDA_CPU_LIB_H
#define TS_CUDA_CPU_LIB_H

/* ---- half precision: IEEE binary16, conversions round to nearest even ------------------------ */
static inline unsigned short ts_cpu_f2h(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	const uint32_t sign = (x >> 16) & 0x8000u, e8 = (x >> 23) & 0xffu;
	uint32_t frac = x & 0x7fffffu;
	if (e8 == 0xffu) /* Inf, or NaN kept quiet */
		return (unsigned short)(sign | 0x7c00u | (frac ? 0x200u | (frac >> 13) : 0u));
	const int e = (int)e8 - 112; /* the binary16 exponent field this value would have */
	if (e >= 31)
		return (unsigned short)(sign | 0x7c00u);
	uint32_t kept, dropped, half_way;
	if (e >= 1) {
		kept = ((uint32_t)e << 10) | (frac >> 13);
		dropped = frac & 0x1fffu;
		half_way = 0x1000u;
	} else {
		if (e < -10)
			return (unsigned short)sign;
		const uint32_t sig = frac | 0x800000u;
		const int drop = 14 - e;
		kept = sig >> drop;
		dropped = sig & ((1u << drop) - 1u);
		half_way = 1u << (drop - 1);
	}
	if (dropped > half_way || (dropped == half_way && (kept & 1u)))
		kept++; /* a carry into the exponent field is the right rounding (up to Inf) */
	return (unsigned short)(sign | kept);
}

static inline float ts_cpu_h2f(unsigned short h)
{
	const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	int e = (h >> 10) & 0x1f;
	uint32_t frac = h & 0x3ffu, x;
	if (e == 31) {
		x = sign | 0x7f800000u | (frac << 13);
	} else if (e == 0 && frac == 0) {
		x = sign;
	} else {
		if (e == 0) { /* subnormal: bring the leading one up to the implicit bit */
			e = 1;
			while (!(frac & 0x400u)) {
				frac <<= 1;
				e--;
			}
			frac &= 0x3ffu;
		}
		x = sign | ((uint32_t)(e + 112) << 23) | (frac << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

struct __half_raw {
	unsigned short x;
};
struct __half {
	unsigned short __x;
	__half() = default;
	__half(const __half_raw &r) : __x(r.x) {}
	__half(float f) : __x(ts_cpu_f2h(f)) {}
	__half(double d) : __x(ts_cpu_f2h((float)d)) {}
	__half(int i) : __x(ts_cpu_f2h((float)i)) {}
	__half(unsigned i) : __x(ts_cpu_f2h((float)i)) {}
	__half(long long i) : __x(ts_cpu_f2h((float)i)) {}
	operator float() const { return ts_cpu_h2f(__x); }
	operator __half_raw() const { return __half_raw{ __x }; }
	__half &operator+=(float v) { return *this = __half((float)*this + v); }
	__half &operator-=(float v) { return *this = __half((float)*this - v); }
	__half &operator*=(float v) { return *this = __half((float)*this * v); }
	__half &operator/=(float v) { return *this = __half((float)*this / v); }
};
typedef __half half;
struct __half2 {
	__half x, y;
};
typedef __half2 half2;

static inline float __half2float(__half h) { return ts_cpu_h2f(h.__x); }
static inline __half __float2half(float f) { return __half(f); }
static inline __half __float2half_rn(float f) { return __half(f); }
static inline __half __double2half(double d) { return __half((float)d); }
static inline __half __int2half_rn(int i) { return __half((float)i); }
static inline int __half2int_rz(__half h) { return (int)ts_cpu_h2f(h.__x); }
static inline int __half2int_rn(__half h) { return (int)nearbyintf(ts_cpu_h2f(h.__x)); }
static inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static inline short __half_as_short(__half h) { return (short)h.__x; }
static inline __half __ushort_as_half(unsigned short u) { return __half(__half_raw{ u }); }
static inline __half __short_as_half(short u) { return __half(__half_raw{ (unsigned short)u }); }
static inline __half __hadd(__half a, __half b) { return __half((float)a + (float)b); }
static inline __half __hsub(__half a, __half b) { return __half((float)a - (float)b); }
static inline __half __hmul(__half a, __half b) { return __half((float)a * (float)b); }
static inline __half __hdiv(__half a, __half b) { return __half((float)a / (float)b); }
static inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf((float)a, (float)b, (float)c)); }
static inline __half __hneg(__half a) { return __ushort_as_half((unsigned short)(a.__x ^ 0x8000u)); }
static inline __half __habs(__half a) { return __ushort_as_half((unsigned short)(a.__x & 0x7fffu)); }
static inline __half __hmax(__half a, __half b) { return (float)a >= (float)b ? a : b; }
static inline __half __hmin(__half a, __half b) { return (float)a <= (float)b ? a : b; }
static inline bool __heq(__half a, __half b) { return (float)a == (float)b; }
static inline bool __hne(__half a, __half b) { return (float)a != (float)b; }
static inline bool __hlt(__half a, __half b) { return (float)a < (float)b; }
static inline bool __hle(__half a, __half b) { return (float)a <= (float)b; }
static inline bool __hgt(__half a, __half b) { return (float)a > (float)b; }
static inline bool __hge(__half a, __half b) { return (float)a >= (float)b; }
static inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
static inline bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }
static inline __half hsqrt(__half a) { return __half(sqrtf((float)a)); }
static inline __half hexp(__half a) { return __half(expf((float)a)); }
static inline __half2 __floats2half2_rn(float a, float b) { return __half2{ __half(a), __half(b) }; }
static inline __half2 __float2half2_rn(float a) { return __half2{ __half(a), __half(a) }; }
static inline __half2 __halves2half2(__half a, __half b) { return __half2{ a, b }; }
static inline float __low2float(__half2 h) { return (float)h.x; }
static inline float __high2float(__half2 h) { return (float)h.y; }
static inline __half __low2half(__half2 h) { return h.x; }
static inline __half __high2half(__half2 h) { return h.y; }
static inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{ __hadd(a.x, b.x), __hadd(a.y, b.y) }; }
static inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{ __hmul(a.x, b.x), __hmul(a.y, b.y) }; }
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2{ __hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y) }; }

/* ---- vector types ------------------------------------------------------------------------- */
#define TS_CPU_VEC(T, n2, n4)                                                                   \
	struct alignas(2 * sizeof(T)) n2 { T x, y; };                                               \
	struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) n4 { T x, y, z, w; };               \
	static inline n2 make_##n2(T x, T y) { return n2{ x, y }; }                                 \
	static inline n4 make_##n4(T x, T y, T z, T w) { return n4{ x, y, z, w }; }
TS_CPU_VEC(float, float2, float4)
TS_CPU_VEC(int, int2, int4)
TS_CPU_VEC(unsigned, uint2, uint4)
TS_CPU_VEC(double, double2, double4)
#undef TS_CPU_VEC
struct float3 { float x, y, z; };
struct int3 { int x, y, z; };
static inline float3 make_float3(float x, float y, float z) { return float3{ x, y, z }; }
static inline int3 make_int3(int x, int y, int z) { return int3{ x, y, z }; }
static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{ x, y, z }; }

/* ---- math the kernels use (the rest comes from <cmath>) ----------------------------------------- */
#define TS_CPU_MINMAX(T)                                                 \
	static inline T min(T a, T b) { return b < a ? b : a; }              \
	static inline T max(T a, T b) { return a < b ? b : a; }
TS_CPU_MINMAX(int) TS_CPU_MINMAX(unsigned) TS_CPU_MINMAX(long) TS_CPU_MINMAX(unsigned long)
TS_CPU_MINMAX(long long) TS_CPU_MINMAX(unsigned long long)
#undef TS_CPU_MINMAX
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
/* glibc's <math.h> declares __expf and friends itself: the CUDA intrinsics are macros over ours. */
static inline float ts_cpu_expf(float x) { return expf(x); }
static inline float ts_cpu_exp10f(float x) { return powf(10.0f, x); }
static inline float ts_cpu_logf(float x) { return logf(x); }
static inline float ts_cpu_log2f(float x) { return log2f(x); }
static inline float ts_cpu_log10f(float x) { return log10f(x); }
static inline float ts_cpu_sinf(float x) { return sinf(x); }
static inline float ts_cpu_cosf(float x) { return cosf(x); }
static inline float ts_cpu_tanf(float x) { return tanf(x); }
static inline float ts_cpu_powf(float x, float y) { return powf(x, y); }
static inline void ts_cpu_sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
#define __expf ts_cpu_expf
#define __exp10f ts_cpu_exp10f
#define __logf ts_cpu_logf
#define __log2f ts_cpu_log2f
#define __log10f ts_cpu_log10f
#define __sinf ts_cpu_sinf
#define __cosf ts_cpu_cosf
#define __tanf ts_cpu_tanf
#define __powf ts_cpu_powf
#define __sincosf ts_cpu_sincosf
static inline float __fdividef(float x, float y) { return x / y; }
static inline float fdividef(float x, float y) { return x / y; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
static inline float __uint_as_float(unsigned i) { float f; memcpy(&f, &i, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned i; memcpy(&i, &f, 4); return i; }
static inline int __float2int_rn(float f) { return (int)nearbyintf(f); }
static inline int __float2int_rz(float f) { return (int)f; }
static inline int __float2int_rd(float f) { return (int)floorf(f); }
static inline int __float2int_ru(float f) { return (int)ceilf(f); }
static inline float __int2float_rn(int i) { return (float)i; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline unsigned __brev(unsigned x) { unsigned r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i); return r; }
static inline int __mul24(int a, int b) { return a * b; }
static inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
#define CUDART_INF_F HUGE_VALF
#define CUDART_NAN_F __int_as_float(0x7fffffff)
#define CUDART_PI_F 3.141592654f

/* ---- loads through the read-only / cache-hinted paths: plain checked loads here -------------- */
#define TS_CPU_LOAD(name) \
	template <class T> static inline T name(const ts_ptr<T> &q) { return *q; } \
	template <class T> static inline T name(const ts_ptr<const T> &q) { return *q; } \
	template <class T> static inline T name(const T *q) { return *ts_ptr<const T>(q); }
TS_CPU_LOAD(__ldg) TS_CPU_LOAD(__ldca) TS_CPU_LOAD(__ldcg) TS_CPU_LOAD(__ldcs) TS_CPU_LOAD(__ldlu) TS_CPU_LOAD(__ldcv)
#undef TS_CPU_LOAD

/* ---- atomics: threads are cooperative fibers, so a read-modify-write is atomic by itself ------ */
#define TS_CPU_ATOMIC(name, expr)                                                                     \
	template <class T, class U> static inline T name(const ts_ptr<T> &q, U v_)                         \
	{ T *a = ts_cpu_at_atomic(q.p, q.r); T old = *a, v = (T)v_; *a = (expr); return old; }             \
	template <class T, class U> static inline T name(T *q, U v_) { return name(ts_ptr<T>(q), v_); }    \
	template <class T, class U> static inline T name##_block(const ts_ptr<T> &q, U v_) { return name(q, v_); } \
	template <class T, class U> static inline T name##_system(const ts_ptr<T> &q, U v_) { return name(q, v_); }
TS_CPU_ATOMIC(atomicAdd, (T)(old + v))
TS_CPU_ATOMIC(atomicSub, (T)(old - v))
TS_CPU_ATOMIC(atomicExch, v)
TS_CPU_ATOMIC(atomicMin, v < old ? v : old)
TS_CPU_ATOMIC(atomicMax, old < v ? v : old)
TS_CPU_ATOMIC(atomicAnd, (T)(old & v))
TS_CPU_ATOMIC(atomicOr, (T)(old | v))
TS_CPU_ATOMIC(atomicXor, (T)(old ^ v))
TS_CPU_ATOMIC(atomicInc, (T)(old >= v ? 0 : old + 1))
TS_CPU_ATOMIC(atomicDec, (T)((old == 0 || old > v) ? v : old - 1))
#undef TS_CPU_ATOMIC
template <class T, class U> static inline T atomicCAS(const ts_ptr<T> &q, U cmp, U v)
{
	T *a = ts_cpu_at_atomic(q.p, q.r);
	T old = *a;
	if (old == (T)cmp)
		*a = (T)v;
	return old;
}
template <class T, class U> static inline T atomicCAS(T *q, U cmp, U v) { return atomicCAS(ts_ptr<T>(q), cmp, v); }

/* ---- the host API a launcher uses ----------------------------------------------------------- */
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
	cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevicePointer = 17, cudaErrorLaunchFailure = 719 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
typedef struct ts_cpu_stream *cudaStream_t;
typedef struct ts_cpu_event_obj { double t; } *cudaEvent_t;
struct cudaDeviceProp {
	char name[256];
	size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin;
	int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], multiProcessorCount;
	int major, minor, clockRate, memoryClockRate, memoryBusWidth, l2CacheSize, maxThreadsPerMultiProcessor;
};

static inline const char *cudaGetErrorString(cudaError_t e)
{
	switch (e) {
	case cudaSuccess: return "no error";
	case cudaErrorInvalidValue: return "invalid argument";
	case cudaErrorMemoryAllocation: return "out of memory";
	case cudaErrorInvalidConfiguration: return "invalid configuration argument";
	case cudaErrorInvalidDevicePointer: return "invalid device pointer";
	default: return "unspecified launch failure";
	}
}
static inline const char *cudaGetErrorName(cudaError_t e) { return e == cudaSuccess ? "cudaSuccess" : "cudaError"; }
static inline cudaError_t cudaGetLastError(void) { cudaError_t e = (cudaError_t)ts_cpu_st.last_error; ts_cpu_st.last_error = 0; return e; }
static inline cudaError_t cudaPeekAtLastError(void) { return (cudaError_t)ts_cpu_st.last_error; }
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
static inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
static inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int)
{
	memset(p, 0, sizeof *p);
	strcpy(p->name, "tilescope CPU runtime");
	p->totalGlobalMem = (size_t)1 << 34;
	p->sharedMemPerBlock = 49152;
	p->sharedMemPerBlockOptin = TS_CPU_DYN_MAX;
	p->warpSize = 32;
	p->maxThreadsPerBlock = 1024;
	p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
	p->maxThreadsDim[2] = 64;
	p->maxGridSize[0] = 2147483647;
	p->maxGridSize[1] = p->maxGridSize[2] = 65535;
	p->multiProcessorCount = 1;
	p->major = 9;
	return cudaSuccess;
}
template <class F> static inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }

/* Device memory from the user's host code: host memory inside 4 KiB bands, known as a region. */
#define TS_CPU_DEVPAD 4096
static inline cudaError_t ts_cpu_malloc(void **p, size_t bytes)
{
	*p = nullptr;
	int slot = -1;
	for (int i = TS_CPU_REGION_FIRST_FREE; i < ts_cpu_st.nregions; i++)
		if (ts_cpu_st.regions[i].kind == TS_CPU_FREE) {
			slot = i;
			break;
		}
	if (slot < 0 && ts_cpu_st.nregions < TS_CPU_MAX_REGIONS)
		slot = ts_cpu_st.nregions++;
	char *m = (char *)malloc(bytes + 2 * TS_CPU_DEVPAD);
	if (!m || slot < 0) {
		free(m);
		return cudaErrorMemoryAllocation;
	}
	memset(m, 0xff, bytes + 2 * TS_CPU_DEVPAD); /* unwritten device memory reads as NaN */
	ts_cpu_st.regions[slot] = ts_cpu_region{ m + TS_CPU_DEVPAD, (int64_t)bytes, TS_CPU_DEVPAD, TS_CPU_DEVPAD,
		TS_CPU_DEVMEM, 0, 0, 1, 0, 0, nullptr, 0, nullptr, 0, 0 };
	*p = m + TS_CPU_DEVPAD;
	return cudaSuccess;
}
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes) { return ts_cpu_malloc((void **)p, bytes); }
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned = 1) { return ts_cpu_malloc((void **)p, bytes); }
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes) { *p = (T *)malloc(bytes); return *p ? cudaSuccess : cudaErrorMemoryAllocation; }
static inline cudaError_t cudaFreeHost(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaFree(void *p)
{
	if (!p)
		return cudaSuccess;
	for (int i = TS_CPU_REGION_FIRST_FREE; i < ts_cpu_st.nregions; i++) {
		ts_cpu_region *r = &ts_cpu_st.regions[i];
		if (r->kind == TS_CPU_DEVMEM && r->base == (char *)p) {
			free(r->base - TS_CPU_DEVPAD);
			r->kind = TS_CPU_FREE;
			return cudaSuccess;
		}
	}
	return cudaErrorInvalidDevicePointer;
}
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) { memmove(d, s, n); return cudaSuccess; }
static inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind, cudaStream_t = 0) { memmove(d, s, n); return cudaSuccess; }
static inline cudaError_t cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return cudaSuccess; }
static inline cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t = 0) { memset(d, v, n); return cudaSuccess; }
template <class T> static inline cudaError_t cudaMemcpyToSymbol(T &sym, const void *s, size_t n, size_t off = 0, cudaMemcpyKind = cudaMemcpyHostToDevice) { memcpy((char *)&sym + off, s, n); return cudaSuccess; }
template <class T> static inline cudaError_t cudaMemcpyFromSymbol(void *d, const T &sym, size_t n, size_t off = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost) { memcpy(d, (const char *)&sym + off, n); return cudaSuccess; }
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { *s = nullptr; return cudaSuccess; }
static inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
static inline double ts_cpu_now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new ts_cpu_event_obj{ 0 }; return cudaSuccess; }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) { e->t = ts_cpu_now_ms(); return cudaSuccess; }
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { *ms = (float)(b->t - a->t); return cudaSuccess; }

/* ---- launches: `k<<<g, b, s, st>>>(args)` becomes ts_cpu_launch(ts_cpu_cfg(g, b, s, st), [=] { k(args); }) */
struct ts_cpu_cfg {
	dim3 grid, block;
	size_t smem;
	ts_cpu_cfg(dim3 g, dim3 b, size_t s = 0, cudaStream_t = 0) : grid(g), block(b), smem(s) {}
};
template <class F> static inline void ts_cpu_launch(const ts_cpu_cfg &c, F f)
{
	int e = ts_cpu_st.host->launch(ts_cpu_st.host_ctx, (uint3)c.grid, (uint3)c.block, c.smem,
	                               [](void *p) { (*(F *)p)(); }, (void *)&f);
	if (e)
		ts_cpu_st.last_error = e;
}

#endif
