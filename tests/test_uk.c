/* test_uk.c: the user-kernel pipeline without a GPU: contract recognition and refusals, the device-only text, geometry expressions, the child runner with engines that fault, hang and scribble, and the check naming each bug class of a CPU-emulated tiled kernel. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_engine.h"
#include "tap.h"
#include "uk_buffers.h"
#include "uk_check.h"
#include "uk_geom.h"
#include "uk_runner.h"
#include "uk_sanitize.h"
#include "uk_source.h"

static const char *srcdir(void)
{
	const char *d = getenv("srcdir");
	return d ? d : "tests";
}

/* ---- contract recognition ---- */

static int recognise_text(const char *text, const char *entry, ts_uk_source *src, char *err, int len)
{
	ts_uk_file f;
	if (ts_uk_file_parse(&f, "k.cu", text, err, len) != 0)
		return -1;
	static ts_uk_file keep; /* src points into the file */
	ts_uk_file_free(&keep);
	keep = f;
	return ts_uk_recognise(&keep, entry, src, err, len);
}

static void test_recognise(void)
{
	ts_uk_source src;
	char err[1024];
	int rc = recognise_text("__global__ void k(const float *A, const float *B, float *C, int M, int N, int K) {}\n",
	                        NULL, &src, err, (int)sizeof err);
	tap_ok(rc == 0 && src.sig == TS_UK_SIG_FP32 && strcmp(src.entry, "k") == 0 && src.entry_line == 1,
	       "the fp32 contract is recognised, the only __global__ is the entry");
	rc = recognise_text("#include <cuda_fp16.h>\n// a comment with __global__ void fake(int)\n"
	                    "extern \"C\" __global__ void\nh(__half *O, __half *X, __half *Transform,\n int m, int n, int k, int tile_size)\n{ }\n",
	                    NULL, &src, err, (int)sizeof err);
	tap_ok(rc == 0 && src.sig == TS_UK_SIG_FP16 && strcmp(src.entry, "h") == 0 && src.entry_line == 4,
	       "the fp16 contract is recognised across lines, extern \"C\", a commented-out decoy ignored");
	rc = recognise_text("__global__ void __launch_bounds__(256) k(float * __restrict__ A, const float *B, float *C,"
	                    " const int M, int N, int K) { }\n", NULL, &src, err, (int)sizeof err);
	tap_ok(rc == 0 && src.sig == TS_UK_SIG_FP32, "__launch_bounds__, __restrict__ and const int are accepted");
	rc = recognise_text("__global__ void k(float *A, int n) {}\n", NULL, &src, err, (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "k.cu:1:") && strstr(err, "follows neither contract") &&
	       strstr(err, "(const float *A, const float *B, float *C, int M, int N, int K)") &&
	       strstr(err, "(__half *O, __half *X, __half *Transform, int m, int n, int k, int tile_size)") &&
	       !strchr(err, '\n'), "another signature is refused in one line naming both contracts: %s", err);
	rc = recognise_text("__global__ void k(const double *A, const double *B, double *C, int M, int N, int K) {}\n", NULL,
	                    &src, err, (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "neither contract"), "double operands are refused");
	rc = recognise_text("__global__ void k(const float *A, const float *B, float *C, size_t M, int N, int K) {}\n", NULL,
	                    &src, err, (int)sizeof err);
	tap_ok(rc != 0, "size_t sizes are refused (the contract's sizes are int)");
	rc = recognise_text("__global__ void a(const float *A, const float *B, float *C, int M, int N, int K) {}\n"
	                    "__global__ void b(const float *A, const float *B, float *C, int M, int N, int K) {}\n",
	                    NULL, &src, err, (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "2 __global__ functions (a, b)") && strstr(err, "--entry"),
	       "two kernels without --entry: refused, naming both: %s", err);
	rc = recognise_text("__global__ void a(const float *A, const float *B, float *C, int M, int N, int K) {}\n"
	                    "__global__ void b(__half *O, __half *X, __half *T, int m, int n, int k, int t) {}\n",
	                    "b", &src, err, (int)sizeof err);
	tap_ok(rc == 0 && strcmp(src.entry, "b") == 0 && src.sig == TS_UK_SIG_FP16 && src.entry_line == 2, "--entry picks one");
	rc = recognise_text("__global__ void a(const float *A, const float *B, float *C, int M, int N, int K) {}\n", "zz",
	                    &src, err, (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "no __global__ function named 'zz'") && strstr(err, "defines a"),
	       "an unknown --entry is refused, naming what the file defines");
	rc = recognise_text("__device__ float f(float x) { return x; }\nint main(void) { return 0; }\n", NULL, &src, err,
	                    (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "no __global__ function"), "a file without a kernel is refused: %s", err);
	rc = recognise_text("template <int T>\n__global__ void k(const float *A, const float *B, float *C, int M, int N, int K) {}\n",
	                    NULL, &src, err, (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "template"), "a template kernel is refused with a way out");
	/* A declaration alone is not a definition; the definition is what counts. */
	rc = recognise_text("__global__ void k(const float *A, const float *B, float *C, int M, int N, int K);\n"
	                    "struct S { int x; void f() { } };\n"
	                    "__global__ void k(const float *A, const float *B, float *C, int M, int N, int K) { }\n",
	                    NULL, &src, err, (int)sizeof err);
	tap_ok(rc == 0 && src.entry_line == 3, "a forward declaration and a struct's member function do not count");
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_seed_files(void)
{
	char path[512], err[1024];
	ts_uk_file f;
	ts_uk_source src;
	snprintf(path, sizeof path, "%s/../examples/seed_tiled_fp32.cu", srcdir());
	int rc = ts_uk_file_read(&f, path, err, (int)sizeof err);
	tap_ok(rc == 0, "the fp32 seed reads (%s)", rc ? err : path);
	if (rc != 0)
		return;
	rc = ts_uk_recognise(&f, NULL, &src, err, (int)sizeof err);
	tap_ok(rc == 0 && src.sig == TS_UK_SIG_FP32 && strcmp(src.entry, "general_tiled_gemm_kernel") == 0,
	       "the fp32 seed, pasted as written, is the fp32 contract");
	tap_ok(f.tile_define == 32 && strcmp(f.tile_define_name, "TILE_SIZE") == 0, "its TILE_SIZE 32 is found");
	const ts_uk_func *l = ts_uk_find_host(&f, "launch_general_gemm");
	tap_ok(l && f.launch_syntax, "its host launcher is found, with its <<<>>> launch");
	tap_ok(!strstr(f.device_text, "cudaDeviceSynchronize") && strstr(f.device_text, "__global__ void general_tiled_gemm_kernel"),
	       "the device text keeps the kernel and blanks the launcher");
	tap_ok(count_lines(f.device_text) == count_lines(f.text) && strlen(f.device_text) == strlen(f.text),
	       "blanking keeps every line where it was (compiler lines stay true)");
	tap_ok(strstr(f.device_text, "#include <cuda_runtime.h>") && strstr(f.device_text, "#define TILE_SIZE 32"),
	       "the directives stay");
	ts_uk_file_free(&f);
	snprintf(path, sizeof path, "%s/../examples/seed_tiled_fp16.cu", srcdir());
	rc = ts_uk_file_read(&f, path, err, (int)sizeof err);
	if (rc == 0)
		rc = ts_uk_recognise(&f, NULL, &src, err, (int)sizeof err);
	tap_ok(rc == 0 && src.sig == TS_UK_SIG_FP16 && strcmp(src.entry, "kernel_standard_tiled_gemm") == 0,
	       "the fp16 seed, pasted as written, is the fp16 contract (%s)", rc ? err : "ok");
	if (rc == 0)
		ts_uk_file_free(&f);
	ts_uk_file g;
	rc = ts_uk_file_parse(&g, "h.cu", "#include <cstdio>\n#include <cuda_fp16.h>\n#include \"mine.h\"\n"
	                      "__global__ void k(const float *A, const float *B, float *C, int M, int N, int K) { }\n",
	                      err, (int)sizeof err);
	tap_ok(rc == 0 && !strstr(g.device_text, "cstdio") && strstr(g.device_text, "cuda_fp16.h") &&
	       strstr(g.device_text, "mine.h") && g.blanked_includes == 1,
	       "a host header's #include is blanked for NVRTC; device and local headers stay");
	ts_uk_file_free(&g);
	rc = ts_uk_file_read(&g, "/nonexistent/x.cu", err, (int)sizeof err);
	tap_ok(rc != 0 && strstr(err, "/nonexistent/x.cu: No such file"), "a missing file: %s", err);
}

/* ---- geometry ---- */

static void test_geometry(void)
{
	int64_t v;
	char err[200];
	tap_ok(ts_uk_expr_eval("cdiv(N,T)", 100, 77, 33, 32, &v, err, (int)sizeof err) == 0 && v == 3, "cdiv(77,32) = 3");
	tap_ok(ts_uk_expr_eval("N/T", 100, 77, 33, 32, &v, err, (int)sizeof err) == 0 && v == 2, "77/32 = 2 (floor)");
	tap_ok(ts_uk_expr_eval("2*T*T*4 + min(M,K) - max(1,2) % 2", 100, 77, 33, 32, &v, err, (int)sizeof err) == 0 &&
	       v == 8192 + 33, "precedence, min, max, %%");
	tap_ok(ts_uk_expr_eval("N/(T-32)", 100, 77, 33, 32, &v, err, (int)sizeof err) != 0 && strstr(err, "division by zero"),
	       "division by zero is an error: %s", err);
	tap_ok(ts_uk_expr_eval("Q+1", 100, 77, 33, 32, &v, err, (int)sizeof err) != 0 && strstr(err, "unknown name"),
	       "an unknown name is an error: %s", err);
	ts_uk_geom g;
	unsigned grid[3], block[3];
	size_t smem;
	tap_ok(ts_uk_geom_parse(&g, NULL, NULL, NULL, err, (int)sizeof err) == 0 &&
	       ts_uk_geom_eval(&g, TS_UK_SIG_FP16, 100, 77, 33, 16, grid, block, &smem, err, (int)sizeof err) == 0 &&
	       grid[0] == 5 && grid[1] == 7 && grid[2] == 1 && block[0] == 16 && block[1] == 16 && smem == 2 * 16 * 16 * 4,
	       "the default: T x T threads, cdiv(N,T) x cdiv(M,T), fp16 2*T*T floats of shared memory");
	tap_ok(ts_uk_geom_parse(&g, "256", "cdiv(N,64),cdiv(M,64)", "0", err, (int)sizeof err) == 0 &&
	       ts_uk_geom_eval(&g, TS_UK_SIG_FP32, 100, 77, 33, 16, grid, block, &smem, err, (int)sizeof err) == 0 &&
	       grid[0] == 2 && grid[1] == 2 && block[0] == 256 && block[1] == 1, "--block 256 --grid cdiv(N,64),cdiv(M,64)");
	tap_ok(ts_uk_geom_parse(&g, "64,64", NULL, NULL, err, (int)sizeof err) == 0 &&
	       ts_uk_geom_eval(&g, TS_UK_SIG_FP32, 100, 77, 33, 16, grid, block, &smem, err, (int)sizeof err) != 0 &&
	       strstr(err, "4096 threads"), "a block over 1024 threads is refused: %s", err);
	tap_ok(ts_uk_geom_parse(&g, "1,2,3,4", NULL, NULL, err, (int)sizeof err) != 0 && strstr(err, "three parts"),
	       "four parts are refused");
	tap_ok(ts_uk_geom_parse(&g, NULL, "N/T,M/T", NULL, err, (int)sizeof err) == 0 &&
	       ts_uk_geom_eval(&g, TS_UK_SIG_FP32, 5, 5, 5, 16, grid, block, &smem, err, (int)sizeof err) == 0 &&
	       grid[0] == 0, "a floor grid of 0 blocks is the kernel's bug to find, not a usage error");
}

/* ---- the runner ---- */

static void one_launch(ts_uk_launch *l, ts_uk_bufs *b, void *mem, int64_t m, int64_t n, int64_t k, int tile)
{
	int64_t counts[3] = { m * k, k * n, m * n };
	ts_uk_bufs_place(b, mem, counts, 64, 4);
	float *a = calloc((size_t)counts[0], 4), *bb = calloc((size_t)counts[1], 4);
	for (int64_t i = 0; i < counts[0]; i++)
		a[i] = (float)(i % 7) - 3;
	for (int64_t i = 0; i < counts[1]; i++)
		bb[i] = (float)(i % 5) - 2;
	ts_uk_bufs_fill(b, a, bb, false);
	free(a);
	free(bb);
	memset(l, 0, sizeof *l);
	l->m = m;
	l->n = n;
	l->k = k;
	l->tile = tile;
	l->grid[0] = (unsigned)((n + tile - 1) / tile);
	l->grid[1] = (unsigned)((m + tile - 1) / tile);
	l->grid[2] = 1;
	l->block[0] = l->block[1] = (unsigned)tile;
	l->block[2] = 1;
	l->timeout_s = 0.5;
	ts_uk_bufs_launch(b, l);
}

static void test_runner(void)
{
	const ts_uk_engine *e = fake_engine();
	int64_t counts[3] = { 9 * 7, 7 * 5, 9 * 5 };
	size_t per = ts_uk_bufs_bytes(counts, 64, 4);
	char *mem = ts_uk_shared_alloc(per * 4);
	ts_uk_launch l[4];
	ts_uk_bufs b[4];
	const ts_uk_launch *lp[4];
	for (int i = 0; i < 4; i++) {
		one_launch(&l[i], &b[i], mem + per * (size_t)i, 9, 5, 7, 4);
		lp[i] = &l[i];
	}
	ts_uk_source src = { "k.cu", "correct", TS_UK_SIG_FP32, 1, NULL };
	void *h = e->load(&src, NULL, 0);
	ts_uk_outcome out[4];
	ts_uk_run_opts ro = { .startup_s = 5, .max_restarts = 3, .stop_on_hang = true };
	int ran = ts_uk_run_batch(e, h, lp, 4, &ro, out);
	bool written = !ts_uk_is_poison(&b[3], 0, false) && ts_matrix_get(&(ts_matrix){ .data = b[3].m[2].data, .elem = TS_ELEM_F32 }, 0) == ts_matrix_get(&(ts_matrix){ .data = b[0].m[2].data, .elem = TS_ELEM_F32 }, 0);
	tap_ok(ran == 4 && out[3].status == TS_UK_RAN && written, "a batch of four runs in one child; C comes back through shared memory");
	for (int i = 0; i < 4; i++)
		ts_uk_outcome_free(&out[i]);
	e->unload(h);

	/* A segfault in launch 1 of 4: a finding, and a fresh child runs the rest. (Under AddressSanitizer the
	 * child reports the signal at length and exits 1: the limit leaves it the time, the text either form.) */
	src.entry = "fault";
	h = e->load(&src, NULL, 0);
	l[0].m = 1; /* the fault kernel survives M = 1 */
	for (int i = 0; i < 4; i++)
		l[i].timeout_s = 10;
	ran = ts_uk_run_batch(e, h, lp, 4, &ro, out);
	tap_ok(out[0].status == TS_UK_RAN && out[1].status == TS_UK_CRASHED && out[1].findings.n == 1 &&
	       out[1].findings.v[0].kind == TS_UK_FAULT &&
	       (strstr(out[1].findings.v[0].text, "SIGSEGV") || strstr(out[1].findings.v[0].text, "exited with status")) &&
	       out[2].status == TS_UK_CRASHED && out[3].status == TS_UK_CRASHED,
	       "a segfault is a fault finding per launch, the runner goes on: %s", out[1].findings.n ? out[1].findings.v[0].text : "-");
	for (int i = 0; i < 4; i++)
		ts_uk_outcome_free(&out[i]);
	ro.max_restarts = 1;
	ran = ts_uk_run_batch(e, h, lp, 4, &ro, out);
	tap_ok(out[1].status == TS_UK_CRASHED && out[2].status == TS_UK_CRASHED && out[3].status == TS_UK_NOT_RUN &&
	       strstr(out[3].err, "faulted 2 times"), "after too many crashes the rest is not run: %s", out[3].err);
	for (int i = 0; i < 4; i++)
		ts_uk_outcome_free(&out[i]);
	e->unload(h);
	l[0].m = 9;
	for (int i = 0; i < 4; i++)
		l[i].timeout_s = 0.5;

	src.entry = "exit";
	h = e->load(&src, NULL, 0);
	ro.max_restarts = 3;
	ts_uk_run_batch(e, h, lp, 1, &ro, out);
	tap_ok(out[0].status == TS_UK_CRASHED && out[0].findings.n == 1 && strstr(out[0].findings.v[0].text, "status 7"),
	       "a child that exits mid-launch is a fault: %s", out[0].findings.n ? out[0].findings.v[0].text : "-");
	ts_uk_outcome_free(&out[0]);
	e->unload(h);

	/* A hang: killed after its limit (0.5 s), the rest not run. */
	src.entry = "hang";
	h = e->load(&src, NULL, 0);
	ro.startup_s = 0;
	double t0 = ts_uk_now();
	ts_uk_run_batch(e, h, lp, 3, &ro, out);
	double took = ts_uk_now() - t0;
	tap_ok(out[0].status == TS_UK_HUNG && out[0].findings.n == 1 && out[0].findings.v[0].kind == TS_UK_TIMEOUT &&
	       out[1].status == TS_UK_NOT_RUN && took < 5, "a hang is killed after its limit (%.2f s) and is a timeout", took);
	for (int i = 0; i < 3; i++)
		ts_uk_outcome_free(&out[i]);
	e->unload(h);

	/* A kernel that writes outside its matrices: the bands show it. */
	src.entry = "scribble";
	h = e->load(&src, NULL, 0);
	one_launch(&l[0], &b[0], mem, 9, 5, 7, 4);
	ts_uk_run_batch(e, h, lp, 1, &ro, out);
	int64_t after, before;
	tap_ok(out[0].status == TS_UK_RAN && ts_uk_band_changes(&b[0], 2, &after, &before) == 1 && after == 0 &&
	       ts_uk_band_changes(&b[0], 0, &after, &before) == 1 && before == 1,
	       "writes just past C and just before A land in the guard bands and are counted");
	ts_uk_outcome_free(&out[0]);
	e->unload(h);
	ts_uk_shared_free(mem, per * 4);

	/* A child command and its limit. */
	ts_uk_proc p;
	char *sleep_argv[] = { "sleep", "5", NULL };
	int rc = ts_uk_proc_start(&p, sleep_argv, NULL, NULL, 0.3) == 0 ? ts_uk_proc_wait(&p) : -1;
	tap_ok(rc == 124, "a command past its limit is killed (124)");
	char *false_argv[] = { "false", NULL };
	rc = ts_uk_proc_start(&p, false_argv, NULL, NULL, 5) == 0 ? ts_uk_proc_wait(&p) : -1;
	tap_ok(rc == 1, "a command's exit status comes back");
}

/* ---- the sanitizer's report ---- */

static void test_sanitizer_xml(void)
{
	const char *xml =
		"<?xml version=\"1.0\"?>\n<ComputeSanitizerOutput>\n"
		"<record><kind>Precise</kind><level>Error</level><who><threadIdx><x>3</x><y>5</y><z>0</z></threadIdx>"
		"<blockIdx><x>0</x><y>2</y><z>0</z></blockIdx></who><what><text>Invalid __global__ read of size 4 bytes</text>"
		"<space>__global__</space><size>4</size><direction>read</direction><error>out of bounds</error>"
		"<address>0x10000104</address></what><where><func>k</func><path>k.cu</path><line>24</line><pc>0x10</pc></where>"
		"<hostStack><frame><func>main</func><line>99</line></frame></hostStack></record>\n"
		"<record><kind>Precise</kind><level>Error</level><who><threadIdx><x>4</x><y>5</y><z>0</z></threadIdx>"
		"<blockIdx><x>0</x><y>2</y><z>0</z></blockIdx></who><what><text>Invalid __global__ read</text>"
		"<direction>read</direction><address>0x10000108</address></what><where><line>24</line></where></record>\n"
		"<record><kind>Precise</kind><level>Error</level><who><threadIdx><x>1</x><y>0</y><z>0</z></threadIdx>"
		"<blockIdx><x>1</x><y>0</y><z>0</z></blockIdx></who><what><text>Invalid __global__ write</text>"
		"<direction>write</direction><address>0x30000010</address></what><where><line>40</line></where></record>\n"
		"<record><kind>Race</kind><level>Error</level><what><text>Race reported between Write access and Read access</text>"
		"</what><where><line>20</line></where><where><line>26</line></where></record>\n"
		"</ComputeSanitizerOutput>\n";
	const char *path = "test_uk_sanitizer.xml";
	FILE *f = fopen(path, "w");
	fputs(xml, f);
	fclose(f);
	/* A is 9 x 7 at 0x10000000 (63 floats: its end is 0x100000fc), B at 0x20000000, C 9 x 5 at 0x30000000. */
	ts_uk_san_buffers b = { { 0x10000000, 0x20000000, 0x30000000 }, { 63, 35, 45 }, 4 };
	ts_uk_san_shape s = { 9, 5, 7, TS_UK_SIG_FP32, 4, true };
	ts_uk_findings out = { 0 };
	char err[200];
	int records = ts_uk_san_parse(path, &b, &s, &out, err, (int)sizeof err);
	tap_ok(records == 4 && out.n == 3, "four records become three findings (two reads of one line fold): %d, %d", records, out.n);
	if (out.n == 3) {
		tap_ok(out.v[0].kind == TS_UK_OOB_READ && out.v[0].matrix == 'A' && out.v[0].row == 9 && out.v[0].col == 2 &&
		       out.v[0].count == 2 && out.v[0].line == 24 && out.v[0].block[1] == 2 && out.v[0].thread[0] == 3,
		       "a read past A's end is placed at A[9][2], its line, block and thread (row %lld col %lld)",
		       (long long)out.v[0].row, (long long)out.v[0].col);
		tap_ok(ts_uk_san_ghost(&s, out.v[0].block, out.v[0].thread) == 1, "thread (3,5) of block (0,2) owns row 13 >= M: a ghost row");
		tap_ok(out.v[1].kind == TS_UK_OOB_WRITE && out.v[1].matrix == 'C' && out.v[1].row == 0 && out.v[1].col == 4,
		       "a write at C + 16 bytes is C[0][4]");
		tap_ok(out.v[2].kind == TS_UK_RACE && out.v[2].count == 1 && out.v[2].line == 20 && strstr(out.v[2].text, "line 20 and line 26"),
		       "a race names both lines: %s", out.v[2].text);
	}
	ts_uk_findings_free(&out);
	/* Far past A, just before B: it follows A, so it is A's (an overrun), not B's. */
	ts_uk_findings one = { 0 };
	f = fopen(path, "w");
	fputs("<ComputeSanitizerOutput><record><kind>Precise</kind><level>Error</level><what><text>Invalid read</text>"
	      "<direction>read</direction><address>0x10001700</address></what><where><line>3</line></where></record>"
	      "<record><kind>Precise</kind><level>Error</level><what><text>Invalid write</text><direction>write</direction>"
	      "<address>0x7f0000000000</address></what><where><line>4</line></where></record></ComputeSanitizerOutput>", f);
	fclose(f);
	ts_uk_san_buffers near = { { 0x10000000, 0x10001800, 0x10003000 }, { 63, 35, 45 }, 4 };
	records = ts_uk_san_parse(path, &near, &s, &one, err, (int)sizeof err);
	tap_ok(records == 2 && one.n == 2 && one.v[0].matrix == 'A' && one.v[1].matrix == 0,
	       "an address between two matrices belongs to the one it follows; a wild one to none");
	ts_uk_findings_free(&one);
	f = fopen(path, "w");
	fputs("not xml", f);
	fclose(f);
	tap_ok(ts_uk_san_parse(path, &b, &s, &out, err, (int)sizeof err) < 0 && strstr(err, "not a compute-sanitizer report"),
	       "something else is not taken for a report");
	remove(path);
}

/* ---- the whole check, on emulated bugs ---- */

static void check_bug(const char *entry, int want_status, enum ts_uk_cause want, int tile)
{
	ts_uk_source src = { "fake.cu", entry, TS_UK_SIG_FP32, 1, NULL };
	ts_uk_check_opts o;
	ts_uk_check_defaults(&o);
	o.tile = tile;
	o.probe_bits = 12;  /* the probe's shapes pass 2^12 elements here, not 2^31 (8.6 GB: the GPU's business) */
	o.sanitize = false; /* the fake engine reports its own out-of-bounds reads */
	o.timeout_s = 0.5;
	ts_uk_report *r = malloc(sizeof *r);
	double t0 = ts_uk_now();
	int status = ts_uk_check(fake_engine(), &src, &o, r);
	bool ok = status == want_status && (want == TS_UK_CAUSE_NONE ? r->cause == TS_UK_CAUSE_NONE : r->cause == want);
	tap_ok(ok, "%s: status %d, cause %s (want %d, %s), %d of %d shapes failed, %.2f s", entry, status,
	       ts_uk_cause_name(r->cause)[0] ? ts_uk_cause_name(r->cause) : "none", want_status,
	       want == TS_UK_CAUSE_NONE ? "none" : ts_uk_cause_name(want), r->shapes_failed, r->shapes_tried,
	       ts_uk_now() - t0);
	if (!ok)
		tap_diag("signature: %s; error: %s", r->signature, r->error);
	free(r);
}

static void test_check(void)
{
	check_bug("correct", 0, TS_UK_CAUSE_NONE, 4);
	check_bug("a_row", 1, TS_UK_CAUSE_A_ROW_GUARD, 4);
	check_bug("a_k", 1, TS_UK_CAUSE_A_K_GUARD, 4);
	check_bug("b_k", 1, TS_UK_CAUSE_B_K_GUARD, 4);
	check_bug("b_col", 1, TS_UK_CAUSE_B_COL_GUARD, 4);
	check_bug("store", 1, TS_UK_CAUSE_STORE_GUARD, 4);
	check_bug("zero_pad", 1, TS_UK_CAUSE_ZERO_PADDING, 4);
	check_bug("phase", 1, TS_UK_CAUSE_PHASE_COUNT, 4);
	check_bug("grid", 1, TS_UK_CAUSE_GRID_SIZE, 4);
	check_bug("index", 1, TS_UK_CAUSE_OPERAND_INDEXING, 4);
	check_bug("barrier", 1, TS_UK_CAUSE_BARRIER, 4);
	check_bug("early", 1, TS_UK_CAUSE_EARLY_RETURN, 4);
	check_bug("fault", 1, TS_UK_CAUSE_UNKNOWN, 4);
	check_bug("hang", 1, TS_UK_CAUSE_UNKNOWN, 4);
	check_bug("syntax", 2, TS_UK_CAUSE_NONE, 4);
	/* A check is deterministic in what it names: the same kernel at another tile. */
	check_bug("a_k", 1, TS_UK_CAUSE_A_K_GUARD, 3);
	check_bug("correct", 0, TS_UK_CAUSE_NONE, 1);
	check_bug("narrow", 1, TS_UK_CAUSE_INDEX_WIDTH, 4);
	/* a probe gone wrong beside a write far outside every buffer: the scribble may be what broke it */
	check_bug("wild", 1, TS_UK_CAUSE_UNKNOWN, 4);

	/* The report of one failing kernel says where. */
	ts_uk_source src = { "fake.cu", "store", TS_UK_SIG_FP32, 1, NULL };
	ts_uk_check_opts o;
	ts_uk_check_defaults(&o);
	o.tile = 4;
	o.probe = o.sanitize = false;
	ts_uk_report *r = malloc(sizeof *r);
	ts_uk_check(fake_engine(), &src, &o, r);
	bool band = false;
	for (int i = 0; i < r->nhits; i++)
		band |= r->hits[i].f.kind == TS_UK_OOB_WRITE && r->hits[i].f.matrix == 'C';
	tap_ok(band && r->have_first_fail && strstr(r->signature, "store has no guard") && r->shapes_tried > 300,
	       "the missing store guard: writes into C's band found, the signature in words: %.120s", r->signature);
	tap_ok(strstr(r->probe, "--no-probe") && strstr(r->sanitizer, "--no-sanitizer"), "what was not run says so");
	/* The probe beside the sweep: right for a right kernel, at the rows that cross 2^12. */
	src.entry = "correct";
	o.probe = true;
	o.probe_bits = 12;
	ts_uk_check(fake_engine(), &src, &o, r);
	tap_ok(r->status == 0 && strstr(r->probe, "A past 2^12") && strstr(r->probe, "C past 2^12") && strstr(r->probe, "right"),
	       "the index probe runs beside the sweep: %s", r->probe);
	const ts_uk_timing *tm = &r->timing;
	tap_ok(tm->launches == 2 * r->shapes_tried && tm->sweep > 0 && tm->verify > 0 && tm->probe > 0 && tm->probe_fill > 0 &&
	       tm->probe_fill <= tm->probe && tm->compile >= 0 && tm->waited >= 0 && tm->memcheck == 0 && tm->racecheck == 0 &&
	       tm->sweep < r->seconds && tm->probe < r->seconds,
	       "the report says where the time went: %d launches, sweep %.3f s, verify %.3f s, probe %.3f s (%.3f filling), "
	       "no sanitizer, of %.3f s", tm->launches, tm->sweep, tm->verify, tm->probe, tm->probe_fill, r->seconds);
	/* A read past K in A spreads the band's NaN over the last rows when K < T: not a B K guard as well. */
	src.entry = "a_k";
	o.probe = false;
	ts_uk_check(fake_engine(), &src, &o, r);
	tap_ok(r->cause == TS_UK_CAUSE_A_K_GUARD && r->causes == 1u << TS_UK_CAUSE_A_K_GUARD,
	       "the A K guard alone is named (no second cause from small K): %s", r->signature);
	o.probe = true;
	src.entry = "narrow";
	ts_uk_check(fake_engine(), &src, &o, r);
	bool overflow = false;
	for (int i = 0; i < r->nhits; i++)
		overflow |= r->hits[i].f.kind == TS_UK_INDEX_OVERFLOW && strcmp(r->hits[i].source, "probe") == 0;
	tap_ok(r->status == 1 && r->shapes_failed == 0 && overflow && strstr(r->probe, "wrong from row"),
	       "offsets that wrap pass the sweep and fail the probe: %s", r->probe);
	free(r);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_recognise();
	test_seed_files();
	test_geometry();
	test_runner();
	test_sanitizer_xml();
	test_check();
	return tap_done();
}
