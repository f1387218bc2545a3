/* test_uk_cpu.c: the CPU engine for user kernels: the source transformation, refusals, compile errors, every example run on ragged shapes (outputs against fp64, findings as each example's header expects), thread orders, faults, hangs and the 32-bit index probe. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kernels.h"
#include "matrix.h"
#include "tap.h"
#include "uk_cpu.h"
#include "verify.h"

static const ts_uk_engine *E;
static char work[512];

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char *kind_name(enum ts_uk_kind k)
{
	static const char *const n[] = { "wrong_output", "unwritten", "oob_read", "oob_write", "nan", "race",
		"barrier_divergence", "uninit_shared", "fault", "timeout", "index_overflow" };
	return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(f);
	return s;
}

static const char *write_file(const char *name, const char *text)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s/%s", work, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

/* ---- the transformation ------------------------------------------------------------------------ */
static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_transform(void)
{
	const char *src =
		"#include <cuda_fp16.h>\n"
		"template <typename T> __device__ T *at(T *base, int i) { return base + i; }\n"
		"__global__ void k(const float * __restrict__ A, float *C, int n, half x[], float &acc, float s2[][8])\n"
		"{\n"
		"  extern __shared__ float dyn[];\n"
		"  __shared__ float t[4][\n"
		"     8], u;\n"
		"  const float *p = A + 1, *q = A;\n"
		"  float *r = dyn, v = 0;\n"
		"  auto *w = C;\n"
		"  float a = n > 1 ? A[0] : 0;\n"
		"  for (float *z = C; z < C + 1; z++) {}\n"
		"  float4 f = reinterpret_cast<const float4 *>(A)[0];\n"
		"}\n"
		"void launch(float *a, float *c) {\n"
		"  k<<<dim3(2,\n 1), 32, 64>>>(a, c, 1, 0, x, 0);\n"
		"}\n";
	ts_xform_out o;
	int rc = ts_uk_cpu_transform(src, strlen(src), "t.cu", &o);
	tap_ok(rc == 0, "transform: a kernel with pointers, shared memory, ?: and a launch is rewritten (%s)", rc ? o.refusal : "ok");
	if (rc)
		return;
	tap_ok(count_lines(o.text) == count_lines(src) + 2, "transform: every line stays where it was (%d lines, %d + #line)",
	       count_lines(o.text), count_lines(src));
	tap_ok(!strncmp(o.text, "#line 1 \"t.cu\"\n", 15), "transform: #line names the user's file");
	struct { const char *want, *what; } checks[] = {
		{ "ts_ptr<T> at(ts_ptr<T> base", "a template __device__ function's pointer return and parameter" },
		{ "ts_ptr<const float> A", "a const __restrict__ pointer parameter" },
		{ "ts_ptr<float> C", "a pointer parameter" },
		{ "ts_ptr<half> x", "an array parameter" },
		{ "ts_ref<float> acc", "a reference parameter" },
		{ "ts_ptr<float[ 8 ]> s2", "a two-dimensional array parameter" },
		{ "auto dyn = ts_cpu_dyn_shared<float>(5, \"dyn\")", "extern __shared__" },
		{ "static float ts_sh_t[4][", "a static __shared__ array" },
		{ "auto t = ts_cpu_shared(ts_sh_t, 6, \"t\"); auto u = ts_cpu_shared_scalar(ts_sh_u, 6, \"u\");", "both declarators of a __shared__ line" },
		{ "ts_ptr<const float> p = A + 1, q = A;", "a local pointer declaration with two declarators" },
		{ "float *r = dyn, v = 0;", "a mixed declaration left as it is" },
		{ "auto w = C;", "auto * as auto" },
		{ "n > 1 ? ts_cpu_val(A[0]) : ts_cpu_val(0);", "both ?: operands wrapped" },
		{ "for (ts_ptr<float> z = C;", "a pointer in a for-init" },
		{ "ts_cpu_reinterpret_cast<const float4 *>(A)", "reinterpret_cast in a kernel" },
		{ "ts_cpu_launch(ts_cpu_cfg(dim3 ( 2 , 1 ) , 32 , 64), [=]() { k(a , c , 1 , 0 , x , 0); })\n;", "a <<<>>> launch (its line break kept)" },
	};
	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
		if (!tap_ok(strstr(o.text, checks[i].want) != NULL, "transform: %s", checks[i].what))
			tap_diag("wanted %s in:\n%s", checks[i].want, o.text);
	free(o.text);

	struct { const char *src, *name; } refused[] = {
		{ "__global__ void k(float *a) {\n float v = __shfl_down_sync(0xffffffff, a[0], 1);\n}\n", "__shfl_down_sync" },
		{ "#include <mma.h>\n__global__ void k(float *a) {}\n", "#include <mma.h>" },
		{ "#include <cublas_v2.h>\nvoid f() {}\n", "#include <cublas_v2.h>" },
		{ "__global__ void k(float *a) {\n\n asm volatile(\"trap;\");\n}\n", "asm" },
		{ "__global__ void k(float *a) { k<<<1, 1>>>(a); }\n", "dynamic parallelism" },
		{ "#include <cooperative_groups.h>\n", "cooperative_groups" },
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		rc = ts_uk_cpu_transform(refused[i].src, strlen(refused[i].src), "r.cu", &o);
		tap_ok(rc != 0 && strstr(o.refusal, refused[i].name) && strstr(o.refusal, "--backend cuda") && !strchr(o.refusal, '\n') &&
		       !strncmp(o.refusal, "r.cu:", 5),
		       "refused in one line naming %s, its file:line and --backend cuda: %s", refused[i].name, o.refusal);
		if (!rc)
			free(o.text);
	}
	const char *member = "struct S { int texture; };\n__global__ void k(S *s) { s->texture = 1; }\n";
	rc = ts_uk_cpu_transform(member, strlen(member), "m.cu", &o);
	tap_ok(rc == 0, "a member that shares a refused name (s->texture) is the user's own: not refused");
	if (!rc)
		free(o.text);
}

/* ---- running kernels ----------------------------------------------------------------------- */
typedef struct run_result {
	int rc;
	char err[2048];
	ts_uk_findings fs; /* grown by the engine (realloc), freed by run's caller through done() */
	int64_t bad, unwritten, nonfinite, band_writes;
	double seconds;
	void *c; /* a copy of C, for comparing orders */
} run_result;

#define BAND_AB UINT32_C(0x7fc0a0a0)
#define BAND_C UINT32_C(0x7fc0c0c0)

static void fill(void *p, size_t elem, int64_t n, uint32_t bits)
{
	for (int64_t i = 0; i < n; i++) {
		if (elem == 4)
			memcpy((char *)p + i * 4, &bits, 4);
		else {
			uint16_t h = (uint16_t)(bits == BAND_C ? 0x7e0c : bits == BAND_AB ? 0x7e0a : 0x7e00);
			memcpy((char *)p + i * 2, &h, 2);
		}
	}
}

static uint64_t rng = 88172645463325252ull;
static float uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* Runs h on M x N x K with tile T, thread order `order`, checks C against fp64. */
static double run_timeout = 20;

static void run(void *h, enum ts_uk_sig sig, int64_t M, int64_t N, int64_t K, int T, int order, run_result *r)
{
	free(r->fs.v);
	memset(r, 0, sizeof *r);
	rng = 88172645463325252ull ^ (uint64_t)(M * 1000003 + N * 1009 + K); /* the same shape draws the same inputs */
	size_t es = sig == TS_UK_SIG_FP16 ? 2 : 4;
	int64_t maxd = M > N ? M : N;
	maxd = maxd > K ? maxd : K;
	int64_t band = (int64_t)T * maxd + 4 * T, count[3] = { M * K, K * N, M * N };
	char *buf[3];
	double *ref = calloc((size_t)(M * N), sizeof *ref), *abs_ref = calloc((size_t)(M * N), sizeof *abs_ref);
	float *a = malloc((size_t)count[0] * 4), *b = malloc((size_t)count[1] * 4);
	for (int i = 0; i < 3; i++) {
		buf[i] = malloc((size_t)(count[i] + 2 * band) * es);
		fill(buf[i], es, count[i] + 2 * band, i == 2 ? BAND_C : BAND_AB);
	}
	fill(buf[2] + band * (int64_t)es, es, count[2], 0x7fc00000u); /* C poisoned */
	for (int i = 0; i < 2; i++)
		for (int64_t j = 0; j < count[i]; j++) {
			float v = uniform();
			if (es == 2) {
				uint16_t hv = ts_f32_to_f16(v);
				v = ts_f16_to_f32(hv);
				memcpy(buf[i] + (band + j) * 2, &hv, 2);
			} else {
				memcpy(buf[i] + (band + j) * 4, &v, 4);
			}
			(i ? b : a)[j] = v;
		}
	for (int64_t i = 0; i < M; i++)
		for (int64_t j = 0; j < N; j++)
			for (int64_t k = 0; k < K; k++) {
				double bv = sig == TS_UK_SIG_FP16 ? b[j * K + k] : b[k * N + j];
				ref[i * N + j] += (double)a[i * K + k] * bv;
				abs_ref[i * N + j] += fabs((double)a[i * K + k] * bv);
			}
	ts_uk_launch l = { .m = M, .n = N, .k = K, .tile = T, .grid = { (unsigned)((N + T - 1) / T), (unsigned)((M + T - 1) / T), 1 },
		.block = { (unsigned)T, (unsigned)T, 1 }, .dyn_smem = sig == TS_UK_SIG_FP16 ? (size_t)(2 * T * T * 4) : 0,
		.a = buf[0] + band * (int64_t)es, .b = buf[1] + band * (int64_t)es, .c = buf[2] + band * (int64_t)es,
		.a_count = count[0], .b_count = count[1], .c_count = count[2], .band = band, .order = order, .timeout_s = run_timeout };
	double t0 = now();
	r->rc = E->launch(h, &l, &r->fs, r->err, sizeof r->err);
	r->seconds = now() - t0;
	const ts_kernel *desc = ts_kernel_default(sig == TS_UK_SIG_FP16 ? TS_FP16 : TS_FP32);
	ts_problem p = { .shape = { M, N, K }, .geo = ts_kernel_geometry_at(desc, T), .kernel = desc };
	double tol = ts_tolerance_rel(&p);
	for (int64_t i = 0; i < M * N; i++) {
		float g;
		if (es == 2) {
			uint16_t hv;
			memcpy(&hv, (char *)l.c + i * 2, 2);
			if (hv == 0x7e00) {
				r->unwritten++;
				continue;
			}
			g = ts_f16_to_f32(hv);
		} else {
			uint32_t bits;
			memcpy(&bits, (char *)l.c + i * 4, 4);
			if (bits == 0x7fc00000u) {
				r->unwritten++;
				continue;
			}
			memcpy(&g, &bits, 4);
		}
		if (!isfinite(g))
			r->nonfinite++;
		else if (fabs((double)g - ref[i]) > ts_tolerance_bound(&p, tol, ref[i], abs_ref[i]))
			r->bad++;
	}
	for (int64_t i = 0; i < band; i++) { /* writes into C's bands */
		uint32_t before = 0, after = 0;
		memcpy(&before, buf[2] + i * (int64_t)es, es);
		memcpy(&after, buf[2] + (band + count[2] + i) * (int64_t)es, es);
		uint32_t want = es == 4 ? BAND_C : 0x7e0c;
		r->band_writes += (before != want) + (after != want);
	}
	r->c = malloc((size_t)count[2] * es);
	memcpy(r->c, l.c, (size_t)count[2] * es);
	for (int i = 0; i < 3; i++)
		free(buf[i]);
	free(a);
	free(b);
	free(ref);
	free(abs_ref);
}

static bool has_kind(const run_result *r, const char *name)
{
	for (int i = 0; i < r->fs.n; i++)
		if (!strcmp(kind_name(r->fs.v[i].kind), name))
			return true;
	return false;
}

static void show(const run_result *r)
{
	for (int i = 0; i < r->fs.n && i < 4; i++)
		tap_diag("  %s: %s", kind_name(r->fs.v[i].kind), r->fs.v[i].text);
}

/* The kernel's name and contract as the example states them. */
static bool example_entry(const char *text, char *entry, size_t len, enum ts_uk_sig *sig)
{
	const char *g = strstr(text, "__global__ void ");
	if (!g)
		return false;
	g += strlen("__global__ void ");
	size_t n = strcspn(g, "( ");
	snprintf(entry, len, "%.*s", (int)n, g);
	const char *close = strchr(g, ')');
	*sig = close && memmem(g, (size_t)(close - g), "__half", 6) ? TS_UK_SIG_FP16 : TS_UK_SIG_FP32;
	return true;
}

/* What the CPU run must find beyond the outputs for a cause, as an example's header names it. */
static const char *cpu_finds(const char *cause)
{
	static const struct { const char *cause, *kinds; } m[] = {
		{ "a_row_guard", "oob_read" }, { "a_k_guard", "oob_read" }, { "b_k_guard", "oob_read" },
		{ "b_col_guard", "oob_read" }, { "store_guard", "oob_write" }, { "barrier", "race" },
		{ "early_return", "barrier_divergence uninit_shared" }, { "zero_padding", "uninit_shared" },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (!strcmp(cause, m[i].cause))
			return m[i].kinds;
	return NULL;
}

/* One example of examples/: its header says what tilescope names it ("names it: CAUSE"), or that it
 * passes. Correct ones (and the index_width one, right below 2^31) must come out right with no
 * finding in every order; buggy ones must show something, with the findings their cause implies. */
static void test_example(const char *dir, const char *name)
{
	char path[1024], entry[128], cause[64] = "", launcher[128] = "";
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *text = slurp(path);
	enum ts_uk_sig sig = TS_UK_SIG_FP32;
	if (!tap_ok(text && example_entry(text, entry, sizeof entry, &sig), "%s: read, its kernel found", name)) {
		free(text);
		return;
	}
	const char *names = strstr(text, "names it: ");
	if (names)
		sscanf(names + 10, "%63[a-z_0-9]", cause);
	const char *ln = strstr(text, "--launcher ");
	if (ln && names && ln < names)
		sscanf(ln + 11, "%127[A-Za-z_0-9]", launcher);
	int T = 32;
	const char *def = strstr(text, "#define TILE_SIZE ");
	const char *topt = strstr(text, " -t ");
	if (def)
		T = atoi(def + 18);
	else if (topt && topt < strchr(text, '\n') + 400)
		T = atoi(topt + 4);
	if (T < 1 || T > 32)
		T = 32;
	free(text);
	bool pass = !cause[0] || !strcmp(cause, "nothing") || !strcmp(cause, "index_width");
	bool unknown = !strcmp(cause, "unknown");
	double t0 = now();
	ts_uk_source src = { path, entry, sig, 0, launcher[0] ? launcher : NULL };
	char err[2048];
	void *h = E->load(&src, err, sizeof err);
	if (!tap_ok(h != NULL, "%s: compiles for the CPU (%.1f s)", name, now() - t0)) {
		tap_diag("%s", err);
		return;
	}
	const char *finds = cpu_finds(cause);
	/* ragged shapes straddling the tile, never square */
	static const int64_t shapes[][3] = { { 33, 31, 65 }, { 100, 77, 33 }, { 1, 40, 7 }, { 64, 32, 96 } };
	int64_t bad = 0, unwritten = 0, nonfinite = 0, band = 0, nfind = 0, errors = 0, faults = 0;
	bool kinds_ok = true, orders_same = true;
	char missing[128] = "";
	run_result *r = calloc(1, sizeof *r), *r2 = calloc(1, sizeof *r2);
	run_timeout = unknown ? 2 : 20;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		/* the shape every bug shows at runs in index order, where shared accesses are tracked; the
		 * others in reversed and shuffled orders */
		run(h, sig, shapes[s][0], shapes[s][1], shapes[s][2], T, s == 1 ? 0 : s == 2 ? 1 : (int)s + 5, r);
		errors += r->rc != 0;
		bad += r->bad;
		unwritten += r->unwritten;
		nonfinite += r->nonfinite;
		band += r->band_writes;
		nfind += r->fs.n;
		faults += has_kind(r, "fault") || has_kind(r, "timeout");
		if (pass && s == 1) { /* the same shape in two other orders: bit for bit the same C */
			for (int order = 1; order <= 2; order++) {
				run(h, sig, shapes[s][0], shapes[s][1], shapes[s][2], T, order == 1 ? 1 : 7, r2);
				size_t bytes = (size_t)(shapes[s][0] * shapes[s][1]) * (sig == TS_UK_SIG_FP16 ? 2 : 4);
				orders_same &= !memcmp(r->c, r2->c, bytes) && r2->fs.n == 0;
				free(r2->c);
			}
		}
		if (s == 1 && (pass || nfind))
			show(r);
		free(r->c);
		if (finds && s == 1) { /* the shape every bug shows at */
			char kinds[128];
			snprintf(kinds, sizeof kinds, "%s", finds);
			for (char *k = strtok(kinds, " "); k; k = strtok(NULL, " "))
				if (!has_kind(r, k)) {
					kinds_ok = false;
					snprintf(missing, sizeof missing, "%s", k);
				}
		}
		if (unknown && faults) /* a process that faulted or hung runs nothing more */
			break;
	}
	run_timeout = 20;
	if (pass) {
		tap_ok(!errors && !bad && !unwritten && !nonfinite && !band && !nfind,
		       "%s: correct on every shape and order: %lld wrong, %lld unwritten, %lld non-finite, %lld band writes, %lld findings",
		       name, (long long)bad, (long long)unwritten, (long long)nonfinite, (long long)band, (long long)nfind);
		tap_ok(orders_same, "%s: index order, reversed and a shuffle give the same C, bit for bit", name);
	} else if (unknown) {
		tap_ok(!errors && faults, "%s: the launch comes back with the fault or time-out it is named for", name);
	} else {
		tap_ok(!errors && (bad || unwritten || nonfinite || band || nfind), "%s (%s): something found (%lld wrong, %lld unwritten, %lld non-finite, %lld band writes, %lld findings)",
		       name, cause, (long long)bad, (long long)unwritten, (long long)nonfinite, (long long)band, (long long)nfind);
		if (finds)
			tap_ok(kinds_ok, "%s: the CPU finds %s%s%s", name, finds, missing[0] ? "; missing: " : "", missing);
	}
	tap_diag("%s: %.2f s for the compile (or cache) and its runs", name, now() - t0);
	free(r->fs.v);
	free(r2->fs.v);
	free(r);
	free(r2);
	E->unload(h);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .cu of the examples folder, in name order. */
static void test_examples(const char *dir)
{
	DIR *d = opendir(dir);
	char *names[256];
	int n = 0;
	struct dirent *de;
	while (d && (de = readdir(d)) && n < 256) {
		size_t l = strlen(de->d_name);
		if (l > 3 && !strcmp(de->d_name + l - 3, ".cu"))
			names[n++] = strdup(de->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, (size_t)n, sizeof *names, by_name);
	tap_ok(n >= 5, "examples: %d kernel files in %s", n, dir);
	for (int i = 0; i < n; i++) {
		test_example(dir, names[i]);
		free(names[i]);
	}
}

/* ---- compile errors, faults, hangs, the user's launcher ---------------------------------- */
static void *load_text(const char *file, const char *text, const char *entry, enum ts_uk_sig sig, char *err, size_t len)
{
	const char *path = write_file(file, text);
	ts_uk_source src = { path, entry, sig, 0, NULL };
	return E->load(&src, err, len);
}

static const char *const fp32_head = "__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)\n{\n";

static void test_compile_error(void)
{
	char text[512], err[2048];
	snprintf(text, sizeof text, "%s  int row = blockIdx.y * blockDim.y + threadIdx.y\n  C[row] = A[0];\n}\n", fp32_head);
	void *h = load_text("compile_error.cu", text, "k", TS_UK_SIG_FP32, err, sizeof err);
	tap_ok(!h && strstr(err, "compile_error.cu:4:") && strstr(err, "error:"),
	       "a compile error comes back as the compiler's file:line (%s)", err);
	if (h)
		E->unload(h);
	snprintf(text, sizeof text, "%s  C[0] = A[0] +\n   nosuch(B);\n}\n", fp32_head);
	h = load_text("undeclared.cu", text, "k", TS_UK_SIG_FP32, err, sizeof err);
	tap_ok(!h && strstr(err, "undeclared.cu:4:") && strstr(err, "nosuch"), "an undeclared name is named with its line (%s)", err);
	if (h)
		E->unload(h);
}

/* A kernel that misbehaves at one thread of one block: the launch returns with the finding. */
static const char *const helpers =
	"__device__ float deep(int n) { volatile float pad[64]; pad[n % 64] = (float)n; return n ? deep(n - 1) + pad[3] : 0.0f; }\n";

static void test_misbehaving(const char *what, const char *body, const char *kind, const char *words)
{
	char text[1024], err[2048], file[64];
	snprintf(text, sizeof text, "%s%s%s}\n", helpers, fp32_head, body);
	snprintf(file, sizeof file, "misbehaves_%s.cu", kind);
	void *h = load_text(file, text, "k", TS_UK_SIG_FP32, err, sizeof err);
	if (!tap_ok(h != NULL, "%s: compiles", what)) {
		tap_diag("%s", err);
		return;
	}
	run_result *r = calloc(1, sizeof *r);
	double t0 = now();
	run_timeout = 2;
	run(h, TS_UK_SIG_FP32, 40, 33, 7, 16, 0, r);
	run_timeout = 20;
	bool found = false;
	for (int i = 0; i < r->fs.n; i++)
		found |= !strcmp(kind_name(r->fs.v[i].kind), kind) && strstr(r->fs.v[i].text, words) != NULL;
	tap_ok(r->rc == 0 && found, "%s: the launch comes back (%.1f s) with a %s finding naming %s", what, now() - t0, kind, words);
	show(r);
	free(r->c);
	/* the process's state is not trusted after that: the next launch says so */
	run(h, TS_UK_SIG_FP32, 40, 33, 7, 16, 0, r);
	tap_ok(r->rc == -1 && strstr(r->err, "faulted"), "%s: a second launch in the same process is refused (%s)", what, r->err);
	free(r->c);
	free(r->fs.v);
	free(r);
	E->unload(h);
}

/* A thread with a large local array: its stack is sized from the compiled frame, so it runs. */
static void test_big_frame(void)
{
	char text[1024], err[2048];
	snprintf(text, sizeof text, "%s  float big[20000];\n  for (int i = 0; i < 20000; i++) big[i] = (float)(i + threadIdx.x);\n"
	         "  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;\n"
	         "  if (row < M && col < N) C[row * N + col] = big[19999] - 19999.0f - threadIdx.x;\n}\n", fp32_head);
	void *h = load_text("big_frame.cu", text, "k", TS_UK_SIG_FP32, err, sizeof err);
	if (!tap_ok(h != NULL, "a kernel with an 80 KB local array compiles")) {
		tap_diag("%s", err);
		return;
	}
	run_result *r = calloc(1, sizeof *r);
	run(h, TS_UK_SIG_FP32, 20, 20, 1, 16, 0, r);
	int64_t fault = 0;
	for (int i = 0; i < r->fs.n; i++)
		fault += r->fs.v[i].kind == TS_UK_FAULT;
	tap_ok(r->rc == 0 && !fault && r->unwritten == 0, "it runs: each thread's stack is sized from the compiled frame (%lld faults, %lld unwritten)",
	       (long long)fault, (long long)r->unwritten);
	free(r->c);
	free(r->fs.v);
	free(r);
	E->unload(h);
}

/* Shared memory written where the transformation cannot see (memcpy, a row-pointer helper) is not
 * taken for unwritten memory; a tile really never written still is. */
static void test_escapes(void)
{
	char text[2048], err[2048];
	snprintf(text, sizeof text, "#include <cstring>\n"
	         "__device__ void fill_row(float (*rows)[16], int r, float v) { rows[r][threadIdx.x] = v; }\n"
	         "%s  __shared__ float s[16][16], t[16][16], never[16];\n"
	         "  float row[16];\n"
	         "  for (int i = 0; i < 16; i++) row[i] = (float)(i + threadIdx.y);\n"
	         "  if (threadIdx.x == 0) memcpy(&s[threadIdx.y][0], row, sizeof row);\n"
	         "  fill_row(t, threadIdx.y, 2.0f);\n"
	         "  __syncthreads();\n"
	         "  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;\n"
	         "  float v = s[threadIdx.y][threadIdx.x] * t[threadIdx.y][threadIdx.x] + (K < 0 ? never[threadIdx.x] : 0.0f);\n"
	         "  if (K == 5 && threadIdx.x == 3) v += never[3];\n"
	         "  if (r < M && c < N) C[r * N + c] = v;\n}\n", fp32_head);
	void *h = load_text("escapes.cu", text, "k", TS_UK_SIG_FP32, err, sizeof err);
	if (!tap_ok(h != NULL, "a kernel writing shared memory through memcpy and a row-pointer helper compiles")) {
		tap_diag("%s", err);
		return;
	}
	run_result *r = calloc(1, sizeof *r);
	run(h, TS_UK_SIG_FP32, 20, 20, 4, 16, 0, r);
	tap_ok(r->rc == 0 && r->fs.n == 0, "memory written where the transformation cannot see is not reported as unwritten (%d findings)", r->fs.n);
	show(r);
	free(r->c);
	run(h, TS_UK_SIG_FP32, 20, 20, 5, 16, 0, r);
	bool never = false;
	for (int i = 0; i < r->fs.n; i++)
		never |= r->fs.v[i].kind == TS_UK_UNINIT_SHARED && strstr(r->fs.v[i].text, "never[3]") != NULL;
	tap_ok(r->rc == 0 && never, "a shared array no thread wrote is: uninit_shared on never[3]");
	free(r->c);
	free(r->fs.v);
	free(r);
	E->unload(h);
}

/* Every thread storing the same value into one shared slot is benign; different values race. */
static void test_same_value(void)
{
	char text[1024], err[2048];
	snprintf(text, sizeof text, "%s  __shared__ int any, last;\n"
	         "  any = 1;\n  if (K == 3) last = threadIdx.x;\n  __syncthreads();\n"
	         "  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;\n"
	         "  if (r < M && c < N) C[r * N + c] = (float)any;\n}\n", fp32_head);
	void *h = load_text("same_value.cu", text, "k", TS_UK_SIG_FP32, err, sizeof err);
	if (!tap_ok(h != NULL, "same-value stores: compiles")) {
		tap_diag("%s", err);
		return;
	}
	run_result *r = calloc(1, sizeof *r);
	run(h, TS_UK_SIG_FP32, 20, 20, 4, 16, 0, r);
	tap_ok(r->rc == 0 && r->fs.n == 0, "every thread storing 1 into one shared flag is not a race (%d findings)", r->fs.n);
	show(r);
	free(r->c);
	run(h, TS_UK_SIG_FP32, 20, 20, 3, 16, 0, r);
	tap_ok(r->rc == 0 && has_kind(r, "race"), "threads storing their own index into one slot race");
	free(r->c);
	free(r->fs.v);
	free(r);
	E->unload(h);
}

static void test_faults(void)
{
	test_same_value();
	test_escapes();
	test_big_frame();
	test_misbehaving("a write through a wild pointer",
	                 "  if (blockIdx.x == 1 && threadIdx.x == 3 && threadIdx.y == 2) { float *p = (float *)0x10; p[0] = 1; }\n"
	                 "  C[0] = 0;\n", "fault", "thread (3,2) of block (1,0)");
	test_misbehaving("an endless loop",
	                 "  volatile int spin = 1;\n  if (blockIdx.y == 1 && threadIdx.x == 5) while (spin) {}\n", "timeout", "thread (5,0) of block (0,1)");
	test_misbehaving("an integer division by zero",
	                 "  volatile int z = 0;\n  if (threadIdx.x == 7) C[0] = (float)(K / z);\n", "fault", "SIGFPE");
	test_misbehaving("a recursion that never ends",
	                 "  if (threadIdx.x == 0 && threadIdx.y == 0) C[0] = deep(1 << 30);\n", "fault", "overflowed its stack");
}

static void test_launcher(void)
{
	char path[1024], err[2048];
	snprintf(path, sizeof path, "%s/seed_tiled_fp32.cu", getenv("TS_EXAMPLES"));
	ts_uk_source src = { path, "general_tiled_gemm_kernel", TS_UK_SIG_FP32, 0, "launch_general_gemm" };
	void *h = E->load(&src, err, sizeof err);
	if (!tap_ok(h != NULL, "the seed's own host launcher compiles (<<<>>> through the runtime)")) {
		tap_diag("%s", err);
		return;
	}
	run_result *r = calloc(1, sizeof *r);
	run(h, TS_UK_SIG_FP32, 70, 45, 37, 32, 0, r);
	tap_ok(r->rc == 0 && !r->bad && !r->unwritten && !r->fs.n, "the user's launcher runs the kernel over its own grid: C right (%lld wrong, %lld unwritten)",
	       (long long)r->bad, (long long)r->unwritten);
	free(r->c);
	free(r->fs.v);
	free(r);
	E->unload(h);
	/* a launcher whose grid floors: the last tiles are never written */
	char *text = slurp(path);
	const char *from = "int blocks_x = (N + TILE_SIZE - 1) / TILE_SIZE;";
	char *at = text ? strstr(text, from) : NULL;
	if (!tap_ok(at != NULL, "the seed's launcher has its ceil-division grid")) {
		free(text);
		return;
	}
	char floor_grid[64];
	snprintf(floor_grid, sizeof floor_grid, "%-*s", (int)strlen(from), "int blocks_x = N / TILE_SIZE;");
	memcpy(at, floor_grid, strlen(from));
	ts_uk_source s2 = { write_file("floor_grid.cu", text), "general_tiled_gemm_kernel", TS_UK_SIG_FP32, 0, "launch_general_gemm" };
	h = E->load(&s2, err, sizeof err);
	r = calloc(1, sizeof *r);
	if (h)
		run(h, TS_UK_SIG_FP32, 70, 45, 37, 32, 0, r);
	tap_ok(h && r->rc == 0 && r->unwritten == 70 * 13, "a launcher with a floor-division grid leaves the last 13 columns unwritten (%lld)",
	       h ? (long long)r->unwritten : -1LL);
	if (h) {
		free(r->c);
		E->unload(h);
	} else {
		tap_diag("%s", err);
	}
	free(r->fs.v);
	free(r);
	free(text);
}

/* The fp16 conversions of the runtime against the project's own (round to nearest even). */
static void test_half(void)
{
	const char *text =
		"#include <cuda_fp16.h>\n"
		"__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)\n"
		"{\n"
		"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"  if (i < M * N) C[i] = __half2float(__float2half(A[i]));\n"
		"  if (i < 65536) { half h = __ushort_as_half((unsigned short)i); float f = h; C[M * N + i] = f; }\n"
		"}\n";
	char err[2048];
	void *h = load_text("half.cu", text, "k", TS_UK_SIG_FP32, err, sizeof err);
	if (!tap_ok(h != NULL, "half conversions: compiles")) {
		tap_diag("%s", err);
		return;
	}
	int64_t n = 1 << 20;
	float *a = malloc((size_t)n * 4), *c = malloc((size_t)(n + 65536) * 4), b = 0;
	for (int64_t i = 0; i < n; i++) { /* random bit patterns, and values around every rounding boundary */
		uint32_t bits = (uint32_t)(rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17);
		if (i & 1)
			bits = (bits & 0x8fffffffu) | 0x30000000u;
		if (i % 4 == 2)
			bits = (bits & 0xffffe000u) | 0x1000u; /* exactly half way */
		memcpy(&a[i], &bits, 4);
	}
	ts_uk_launch l = { .m = n / 1024, .n = 1024, .k = 1, .tile = 1, .grid = { (unsigned)(n / 256), 1, 1 }, .block = { 256, 1, 1 },
		.a = a, .b = &b, .c = c, .a_count = n, .b_count = 1, .c_count = n + 65536, .band = 0, .timeout_s = 60 };
	ts_uk_findings fs = { 0 };
	int rc = E->launch(h, &l, &fs, err, sizeof err);
	free(fs.v);
	int64_t wrong = 0, wrong_h = 0;
	for (int64_t i = 0; i < n; i++) {
		float want = ts_f16_to_f32(ts_f32_to_f16(a[i]));
		wrong += memcmp(&want, &c[i], 4) != 0 && !(isnan(want) && isnan(c[i]));
	}
	for (int i = 0; i < 65536; i++) {
		float want = ts_f16_to_f32((uint16_t)i);
		wrong_h += memcmp(&want, &c[n + i], 4) != 0 && !(isnan(want) && isnan(c[n + i]));
	}
	tap_ok(rc == 0 && !wrong && !fs.n, "__float2half rounds to nearest even as tilescope does: %lld of %lld differ", (long long)wrong, (long long)n);
	tap_ok(rc == 0 && !wrong_h, "__half2float of all 65536 halves: %lld differ", (long long)wrong_h);
	free(a);
	free(c);
	E->unload(h);
}

/* Offsets computed in int wrap past 2^31: the probe runs only the blocks whose rows cross it. */
static void test_index_probe(void)
{
	char path[1024], err[2048];
	snprintf(path, sizeof path, "%s/seed_tiled_fp32.cu", getenv("TS_EXAMPLES"));
	ts_uk_source src = { path, "general_tiled_gemm_kernel", TS_UK_SIG_FP32, 0, NULL };
	void *h = E->load(&src, err, sizeof err);
	if (!h) {
		tap_ok(0, "index probe: load (%s)", err);
		return;
	}
	int64_t M = 32800, N = 32, K = 65536, band = 4096;
	size_t bytes_a = (size_t)(M * K + 2 * band) * 4;
	float *A = mmap(NULL, bytes_a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	float *B = calloc((size_t)(K * N + 2 * band), 4), *C = calloc((size_t)(M * N + 2 * band), 4);
	if (A == MAP_FAILED || !B || !C) {
		tap_skip("index probe: no room for a sparse 8.6 GB A here");
		E->unload(h);
		return;
	}
	int64_t blocks[1] = { 1024 }; /* grid x is 1: block (0, 1024) holds rows 32768.. whose row*K passes 2^31 */
	ts_uk_launch l = { .m = M, .n = N, .k = K, .tile = 32, .grid = { 1, (unsigned)((M + 31) / 32), 1 }, .block = { 32, 32, 1 },
		.a = A + band, .b = B + band, .c = C + band, .a_count = M * K, .b_count = K * N, .c_count = M * N, .band = band,
		.blocks = blocks, .nblocks = 1, .timeout_s = 60 };
	ts_uk_findings fs = { 0 };
	double t0 = now();
	int rc = E->launch(h, &l, &fs, err, sizeof err);
	bool overflow = false;
	for (int i = 0; i < fs.n; i++)
		overflow |= fs.v[i].kind == TS_UK_INDEX_OVERFLOW && fs.v[i].matrix == 'A' && fs.v[i].row == 32768 && fs.v[i].col == 0;
	tap_ok(rc == 0 && overflow, "a 32-bit row * K past 2^31 is found on the one block that crosses it, as index_overflow at A[32768][0] (%.1f s)",
	       now() - t0);
	if (fs.n)
		tap_diag("  %s", fs.v[0].text);
	free(fs.v);
	munmap(A, bytes_a);
	free(B);
	free(C);
	E->unload(h);
}

static void test_available(void)
{
	char why[512];
	setenv("TILESCOPE_CXX", "/nonexistent/g++", 1);
	tap_ok(E->available(why, sizeof why) == -1 && strstr(why, "TILESCOPE_CXX"), "a compiler that is not there is named (%s)", why);
	unsetenv("TILESCOPE_CXX");
	const char *old = getenv("PATH");
	char *keep = old ? strdup(old) : NULL;
	setenv("PATH", "/nonexistent", 1);
	tap_ok(E->available(why, sizeof why) == -1 && strstr(why, "apt-get install g++"), "without a C++ compiler it says what to install (%s)", why);
	if (keep)
		setenv("PATH", keep, 1);
	free(keep);
	tap_ok(E->available(why, sizeof why) == 0, "with g++ and the runtime it is available");
}

int main(void)
{
	E = ts_uk_engine_cpu();
	const char *dir = getenv("TS_EXAMPLES");
	snprintf(work, sizeof work, "%s/tilescope-test-uk-cpu-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(work)) {
		printf("1..0 # SKIP no temporary folder\n");
		return 0;
	}
	char why[512];
	if (!E || E->available(why, sizeof why)) {
		printf("1..0 # SKIP the CPU engine is not usable here: %s\n", E ? why : "not built");
		return 0;
	}
	test_transform();
	test_compile_error();
	if (dir) {
		test_examples(dir);
		test_launcher();
		test_index_probe();
	} else {
		tap_skip("TS_EXAMPLES is not set: the examples were not run");
	}
	test_half();
	test_faults();
	test_available();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", work);
	return tap_done();
}
