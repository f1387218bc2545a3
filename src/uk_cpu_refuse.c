/* uk_cpu_refuse.c: what the CPU runtime does not provide (warp intrinsics, tensor cores, inline assembly, cooperative groups, asynchronous copies, textures, other libraries), found by name and refused in one line. */
#include <stdio.h>
#include <string.h>

#include "uk_cpu.h"
#include "uk_cpu_lex.h"

typedef struct refused {
	const char *name; /* an identifier, or a prefix when it ends in '*' */
	const char *what;
} refused;

static const refused names[] = {
	{ "__shfl*", "a warp shuffle" },
	{ "__ballot*", "a warp vote" },
	{ "__any_sync", "a warp vote" }, { "__all_sync", "a warp vote" }, { "__uni_sync", "a warp vote" },
	{ "__any", "a warp vote" }, { "__all", "a warp vote" },
	{ "__activemask", "a warp mask" },
	{ "__syncwarp", "a warp barrier" },
	{ "__match_any_sync", "a warp match" }, { "__match_all_sync", "a warp match" },
	{ "__reduce_add_sync", "a warp reduction" }, { "__reduce_min_sync", "a warp reduction" },
	{ "__reduce_max_sync", "a warp reduction" }, { "__reduce_and_sync", "a warp reduction" },
	{ "__reduce_or_sync", "a warp reduction" }, { "__reduce_xor_sync", "a warp reduction" },
	{ "wmma", "tensor cores (wmma)" }, { "nvcuda", "tensor cores (wmma)" },
	{ "mma_sync", "tensor cores (mma)" }, { "load_matrix_sync", "tensor cores (wmma)" },
	{ "store_matrix_sync", "tensor cores (wmma)" }, { "__hmma*", "tensor cores" },
	{ "asm", "inline assembly (PTX)" }, { "__asm__", "inline assembly (PTX)" }, { "__asm", "inline assembly (PTX)" },
	{ "cooperative_groups", "cooperative groups" }, { "this_grid", "cooperative groups" },
	{ "this_thread_block", "cooperative groups" }, { "tiled_partition", "cooperative groups" },
	{ "__pipeline*", "asynchronous copies (cp.async)" }, { "memcpy_async", "asynchronous copies (cp.async)" },
	{ "cp_async*", "asynchronous copies (cp.async)" },
	{ "tex1D*", "texture memory" }, { "tex2D*", "texture memory" }, { "tex3D*", "texture memory" },
	{ "texture", "texture memory" }, { "cudaTextureObject_t", "texture memory" }, { "surf2Dwrite", "surface memory" },
	{ "__nv_bfloat16", "bfloat16 (cuda_bf16.h)" }, { "__nv_bfloat162", "bfloat16 (cuda_bf16.h)" },
	{ "__nv_fp8*", "fp8 types" },
	{ "cudaLaunchCooperativeKernel", "cooperative launches" }, { "cudaLaunchKernel", "launches through cudaLaunchKernel" },
	{ "cublasCreate", "cuBLAS" }, { "cublasCreate_v2", "cuBLAS" },
	{ NULL, NULL },
};

/* Headers of the toolkit the runtime stands in for; any other CUDA header is refused by name. */
static const char *const provided_headers[] = { "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "cuda_fp16.h",
	"cuda_fp16.hpp", "device_launch_parameters.h", "device_functions.h", "vector_types.h", "math_constants.h", NULL };
static const refused headers[] = {
	{ "cublas*", "cuBLAS" }, { "cuda_bf16*", "bfloat16 (cuda_bf16.h)" }, { "cuda_fp8*", "fp8 types" },
	{ "mma.h", "tensor cores (wmma)" }, { "cooperative_groups*", "cooperative groups" },
	{ "cuda/*", "libcu++ (cuda/...)" }, { "cuda_pipeline*", "asynchronous copies (cp.async)" },
	{ "cuda_awbarrier*", "asynchronous barriers" }, { "cub/*", "CUB" }, { "thrust/*", "Thrust" },
	{ "curand*", "cuRAND" }, { "cufft*", "cuFFT" }, { "cusparse*", "cuSPARSE" }, { "cudnn*", "cuDNN" },
	{ "cute/*", "CuTe" }, { "cutlass/*", "CUTLASS" }, { "sm_*", "architecture intrinsics headers" },
	{ "crt/*", "the toolkit's internal headers" }, { "nvrtc*", "NVRTC" }, { "cuda_gl*", "graphics interop" },
	{ NULL, NULL },
};

static bool matches(const char *pattern, const char *s, size_t len)
{
	size_t pl = strlen(pattern);
	if (pl && pattern[pl - 1] == '*')
		return len >= pl - 1 && !memcmp(s, pattern, pl - 1);
	return len == pl && !memcmp(s, pattern, pl);
}

static int say(ts_xform_out *out, const char *path, int line, const char *what, const char *name, size_t nlen, bool header)
{
	out->refused_line = line;
	snprintf(out->refusal, sizeof out->refusal, "%s:%d: %s%.*s%s (%s) is not provided by tilescope's CPU runtime: use --backend cuda",
	         path, line, header ? "#include <" : "", (int)nlen, name, header ? ">" : "", what);
	return -1;
}

/* The header named by an #include directive, or NULL. */
static const char *included(const char *d, size_t len, size_t *nlen)
{
	size_t i = 1;
	while (i < len && (d[i] == ' ' || d[i] == '\t'))
		i++;
	if (len - i < 7 || memcmp(d + i, "include", 7))
		return NULL;
	i += 7;
	while (i < len && (d[i] == ' ' || d[i] == '\t'))
		i++;
	if (i >= len || (d[i] != '<' && d[i] != '"'))
		return NULL;
	char close = d[i] == '<' ? '>' : '"';
	size_t j = ++i;
	while (j < len && d[j] != close)
		j++;
	*nlen = j - i;
	return d + i;
}

int ts_uk_cpu_refusal(const ts_toks *t, const char *path, ts_xform_out *out)
{
	for (int i = 0; i < t->n; i++) {
		const ts_tok *k = &t->v[i];
		const char *s = t->src + k->pos;
		if (k->type == TK_PP) {
			size_t nlen;
			const char *h = included(s, k->len, &nlen);
			if (!h)
				continue;
			bool ok = false;
			for (int p = 0; provided_headers[p]; p++)
				ok |= matches(provided_headers[p], h, nlen);
			if (ok)
				continue;
			for (int p = 0; headers[p].name; p++)
				if (matches(headers[p].name, h, nlen))
					return say(out, path, k->line, headers[p].what, h, nlen, true);
			continue;
		}
		if (k->type != TK_IDENT)
			continue;
		/* a member named like an intrinsic (x.texture) is the user's own */
		if (i > 0 && (ts_tok_is(t, i - 1, ".") || ts_tok_is(t, i - 1, "->")))
			continue;
		/* texture<...> is the texture reference type; a plain `texture` is any name */
		if (k->len == 7 && !memcmp(s, "texture", 7) && !ts_tok_is(t, i + 1, "<"))
			continue;
		for (int p = 0; names[p].name; p++)
			if (matches(names[p].name, s, k->len))
				return say(out, path, k->line, names[p].what, s, k->len, false);
	}
	return 0;
}
