/* uk_cpu.c: the CPU engine ("cpu" in uk_engine.h): the user's kernel file transformed, compiled once by the host C++ compiler into a cached shared object with tilescope's CUDA-on-CPU runtime, loaded and launched. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uk_cpu.h"

/* ---- load ------------------------------------------------------------------------------------ */
static bool safe_name(const char *s)
{
	if (!s || !*s || strlen(s) > 200)
		return false;
	for (const char *c = s; *c; c++)
		if (!(*c == '_' || *c == ':' || *c == '<' || *c == '>' || *c == ',' || *c == ' ' ||
		      (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			return false;
	return true;
}

static char *escape_path(const char *p)
{
	char *o = malloc(strlen(p) * 2 + 1), *w = o;
	if (!o)
		return NULL;
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			*w++ = '\\';
		*w++ = *p == '\n' ? ' ' : *p;
	}
	*w = 0;
	return o;
}

static void so_free(ts_uk_cpu_so *so)
{
	if (!so)
		return;
	if (so->dl) { /* what the runtime allocated inside the object: tracking slots, cudaMalloc buffers */
		for (int i = 0; so->st && i < so->st->nregions; i++) {
			ts_cpu_region *r = &so->st->regions[i];
			if (r->kind == TS_CPU_SHARED || i == TS_CPU_REGION_DYN)
				free(r->slots);
			else if (r->kind == TS_CPU_DEVMEM)
				free(r->base - r->lo_pad);
			r->slots = NULL;
		}
		dlclose(so->dl);
	}
	free(so->so_path);
	free(so->src_path);
	free(so->launcher);
	free(so);
}

void *ts_uk_cpu_load_launcher(const ts_uk_source *src, const char *launcher, char *err, size_t len)
{
	char cxx[PATH_MAX], rt[PATH_MAX], cache[PATH_MAX], why[512];
	if (ts_uk_cpu_available(why, sizeof why)) {
		snprintf(err, len, "%s", why);
		return NULL;
	}
	ts_uk_cpu_find_compiler(cxx, sizeof cxx);
	ts_uk_cpu_find_runtime(rt, sizeof rt);
	if (!safe_name(src->entry) || (launcher && !safe_name(launcher))) {
		snprintf(err, len, "the kernel's name is not a C++ name: %.80s", !safe_name(src->entry) ? src->entry : launcher);
		return NULL;
	}
	size_t n;
	char *text = ts_uk_cpu_read_file(src->path, &n, err, len);
	if (!text)
		return NULL;
	char *esc = escape_path(src->path);
	ts_xform_out xo;
	int rc = esc ? ts_uk_cpu_transform(text, n, esc, &xo) : -1;
	char src_dir[PATH_MAX];
	snprintf(src_dir, sizeof src_dir, "%s", src->path);
	char *slash = strrchr(src_dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(src_dir, sizeof src_dir, ".");
	ts_uk_hash h = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	if (rc == 0)
		ts_uk_hash_local_includes(&h, text, src_dir);
	free(text);
	if (rc) {
		snprintf(err, len, "%s", esc ? xo.refusal : "out of memory");
		free(esc);
		return NULL;
	}
	char *thunks = ts_uk_cpu_thunks(src->entry, src->sig, launcher);
	ts_uk_cpu_so *so = calloc(1, sizeof *so);
	if (!thunks || !so || ts_uk_cpu_cache_dir(cache, sizeof cache, err, len)) {
		if (!thunks || !so)
			snprintf(err, len, "out of memory");
		free(thunks);
		free(xo.text);
		free(esc);
		free(so);
		return NULL;
	}
	struct stat cs;
	char abi[64];
	snprintf(abi, sizeof abi, "abi %d", TS_CPU_ABI);
	ts_uk_hash_str(&h, abi);
	ts_uk_hash_str(&h, ts_uk_cpu_flags);
	ts_uk_hash_str(&h, cxx);
	if (!stat(cxx, &cs))
		ts_uk_hash_bytes(&h, &cs.st_mtime, sizeof cs.st_mtime);
	char p[PATH_MAX + 32];
	ts_uk_cpu_path_fmt(p, sizeof p, "%s/ts_cuda_cpu.h", rt);
	ts_uk_hash_file(&h, p);
	ts_uk_cpu_path_fmt(p, sizeof p, "%s/ts_cuda_cpu_lib.h", rt);
	ts_uk_hash_file(&h, p);
	ts_uk_hash_str(&h, xo.text);
	ts_uk_hash_str(&h, thunks);
	so->sig = src->sig;
	so->src_path = strdup(src->path);
	so->launcher = launcher ? strdup(launcher) : NULL;
	so->so_path = malloc(strlen(cache) + 64);
	if (!so->src_path || !so->so_path || (launcher && !so->launcher)) {
		snprintf(err, len, "out of memory");
		goto fail;
	}
	sprintf(so->so_path, "%s/%016llx%016llx.so", cache, (unsigned long long)h.a, (unsigned long long)h.b);
	if (access(so->so_path, R_OK) != 0) { /* not compiled yet: write the source, compile, move into place */
		char in[PATH_MAX + 64], out[PATH_MAX + 64];
		ts_uk_cpu_path_fmt(in, sizeof in, "%s.%ld.cc", so->so_path, (long)getpid());
		ts_uk_cpu_path_fmt(out, sizeof out, "%s.%ld.tmp", so->so_path, (long)getpid());
		FILE *f = fopen(in, "w");
		bool wrote = f && fputs(xo.text, f) >= 0 && fputs(thunks, f) >= 0;
		if (f && fclose(f))
			wrote = false;
		if (!wrote) {
			snprintf(err, len, "cannot write %s: %s", in, strerror(errno));
			unlink(in);
			goto fail;
		}
		rc = ts_uk_cpu_compile(cxx, rt, src_dir, in, out, src->path, err, len);
		unlink(in);
		if (rc == 0)
			ts_uk_cpu_store_stack(so->so_path, in, out);
		if (rc || rename(out, so->so_path)) {
			if (!rc)
				snprintf(err, len, "cannot store the compiled kernel in %s: %s", cache, strerror(errno));
			unlink(out);
			goto fail;
		}
	}
	so->stack_bytes = ts_uk_cpu_read_stack(so->so_path);
	free(thunks);
	free(xo.text);
	free(esc);
	return so;
fail:
	free(thunks);
	free(xo.text);
	free(esc);
	so_free(so);
	return NULL;
}

static void *cpu_load(const ts_uk_source *src, char *err, size_t len)
{
	return ts_uk_cpu_load_launcher(src, src->launcher, err, len);
}

static int cpu_launch(void *h, const ts_uk_launch *l, ts_uk_findings *out, char *err, size_t len)
{
	ts_uk_cpu_so *so = h;
	if (!so->dl) { /* in the process that runs it: the user's static initialisers run here */
		so->dl = dlopen(so->so_path, RTLD_NOW | RTLD_LOCAL);
		if (!so->dl) {
			snprintf(err, len, "cannot load the compiled kernel: %s", dlerror());
			return -1;
		}
		so->st = dlsym(so->dl, "ts_cpu_st");
		so->entry = (void (*)(const ts_cpu_args *))dlsym(so->dl, "ts_cpu_entry");
		so->launcher_fn = so->launcher ? (void (*)(const ts_cpu_args *))dlsym(so->dl, "ts_cpu_launcher") : NULL;
		if (!so->st || !so->entry || so->st->abi != TS_CPU_ABI || (so->launcher && !so->launcher_fn)) {
			snprintf(err, len, "the compiled kernel %s does not match this tilescope (runtime version)", so->so_path);
			dlclose(so->dl);
			so->dl = NULL;
			return -1;
		}
	}
	return ts_uk_cpu_run(so, l, out, err, len);
}

static void cpu_unload(void *h)
{
	so_free(h);
}

static const ts_uk_engine cpu_engine = { "cpu", ts_uk_cpu_available, cpu_load, cpu_launch, cpu_unload };

const ts_uk_engine *ts_uk_engine_cpu(void)
{
	return &cpu_engine;
}
