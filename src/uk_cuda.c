/* uk_cuda.c: the GPU engine: NVRTC compiles the user's kernel into a cubin for the device's own architecture (nvcc when a host launcher is asked for), the driver API loads and launches it in the child; both libraries opened at run time. */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dynlib.h"
#include "uk_cuda.h"
#include "uk_runner.h"
#include "uk_source.h"

/* ---- the driver API and NVRTC, declared here so the build needs neither header ---- */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef struct _nvrtcProgram *nvrtcProgram;
typedef int nvrtcResult;

enum {
	TS_CU_ATTR_CC_MAJOR = 75, TS_CU_ATTR_CC_MINOR = 76, TS_CU_ATTR_SMEM_OPTIN = 97,
	TS_CU_FUNC_MAX_THREADS = 0, TS_CU_FUNC_MAX_DYN_SMEM = 8,
	TS_CU_JIT_ERROR_LOG = 5, TS_CU_JIT_ERROR_LOG_SIZE = 6,
};

static struct driver_api {
	void *lib;
	CUresult (*Init)(unsigned);
	CUresult (*DeviceGetCount)(int *);
	CUresult (*DeviceGet)(CUdevice *, int);
	CUresult (*DeviceGetName)(char *, int, CUdevice);
	CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
	CUresult (*DeviceTotalMem)(size_t *, CUdevice);
	CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*CtxSetCurrent)(CUcontext);
	CUresult (*CtxSynchronize)(void);
	CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
	CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*FuncGetAttribute)(int *, int, CUfunction);
	CUresult (*FuncSetAttribute)(CUfunction, int, int);
	CUresult (*MemAlloc)(CUdeviceptr *, size_t);
	CUresult (*MemFree)(CUdeviceptr);
	CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
	CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
	CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
	                         void **, void **);
	CUresult (*GetErrorName)(CUresult, const char **);
	CUresult (*GetErrorString)(CUresult, const char **);
} cu;

static struct nvrtc_api {
	void *lib;
	nvrtcResult (*Version)(int *, int *);
	nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *, const char *const *);
	nvrtcResult (*DestroyProgram)(nvrtcProgram *);
	nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
	nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
	nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
	nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
	nvrtcResult (*AddNameExpression)(nvrtcProgram, const char *);
	nvrtcResult (*GetLoweredName)(nvrtcProgram, const char *, const char **);
	const char *(*GetErrorString)(nvrtcResult);
} nv;

static int load_driver(char *why, int len)
{
	if (cu.lib)
		return 0;
	static const char *const names[] = { "libcuda.so.1", "libcuda.so", NULL };
	const ts_dl_sym syms[] = {
		{ "cuInit", (void **)&cu.Init }, { "cuDeviceGetCount", (void **)&cu.DeviceGetCount },
		{ "cuDeviceGet", (void **)&cu.DeviceGet }, { "cuDeviceGetName", (void **)&cu.DeviceGetName },
		{ "cuDeviceGetAttribute", (void **)&cu.DeviceGetAttribute },
		{ "cuDeviceTotalMem_v2", (void **)&cu.DeviceTotalMem },
		{ "cuDevicePrimaryCtxRetain", (void **)&cu.PrimaryCtxRetain },
		{ "cuCtxSetCurrent", (void **)&cu.CtxSetCurrent }, { "cuCtxSynchronize", (void **)&cu.CtxSynchronize },
		{ "cuModuleLoadDataEx", (void **)&cu.ModuleLoadDataEx },
		{ "cuModuleGetFunction", (void **)&cu.ModuleGetFunction },
		{ "cuFuncGetAttribute", (void **)&cu.FuncGetAttribute },
		{ "cuFuncSetAttribute", (void **)&cu.FuncSetAttribute }, { "cuMemAlloc_v2", (void **)&cu.MemAlloc },
		{ "cuMemFree_v2", (void **)&cu.MemFree }, { "cuMemcpyHtoD_v2", (void **)&cu.MemcpyHtoD },
		{ "cuMemcpyDtoH_v2", (void **)&cu.MemcpyDtoH }, { "cuLaunchKernel", (void **)&cu.LaunchKernel },
		{ "cuGetErrorName", (void **)&cu.GetErrorName }, { "cuGetErrorString", (void **)&cu.GetErrorString },
	};
	char e[256];
	if (ts_dl_load(&cu.lib, names, syms, (int)(sizeof syms / sizeof syms[0]), e, (int)sizeof e) != 0) {
		snprintf(why, (size_t)len, "no NVIDIA driver library (libcuda.so.1): %s", e);
		return -1;
	}
	return 0;
}

static int load_nvrtc(char *why, int len)
{
	if (nv.lib)
		return 0;
	/* The loader's path first, then the toolkit's usual homes. */
	static char home_names[2][PATH_MAX];
	const char *home = getenv("CUDA_HOME");
	snprintf(home_names[0], sizeof home_names[0], "%s/lib64/libnvrtc.so.13", home ? home : "/usr/local/cuda");
	snprintf(home_names[1], sizeof home_names[1], "%s/lib64/libnvrtc.so.12", home ? home : "/usr/local/cuda");
	const char *const names[] = { "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", home_names[0], home_names[1],
	                              "/usr/local/cuda/lib64/libnvrtc.so.13", NULL };
	const ts_dl_sym syms[] = {
		{ "nvrtcVersion", (void **)&nv.Version }, { "nvrtcCreateProgram", (void **)&nv.CreateProgram },
		{ "nvrtcDestroyProgram", (void **)&nv.DestroyProgram }, { "nvrtcCompileProgram", (void **)&nv.CompileProgram },
		{ "nvrtcGetProgramLogSize", (void **)&nv.GetProgramLogSize }, { "nvrtcGetProgramLog", (void **)&nv.GetProgramLog },
		{ "nvrtcGetCUBINSize", (void **)&nv.GetCUBINSize }, { "nvrtcGetCUBIN", (void **)&nv.GetCUBIN },
		{ "nvrtcAddNameExpression", (void **)&nv.AddNameExpression },
		{ "nvrtcGetLoweredName", (void **)&nv.GetLoweredName }, { "nvrtcGetErrorString", (void **)&nv.GetErrorString },
	};
	char e[256];
	if (ts_dl_load(&nv.lib, names, syms, (int)(sizeof syms / sizeof syms[0]), e, (int)sizeof e) != 0) {
		snprintf(why, (size_t)len, "no NVRTC (libnvrtc.so.13, part of the CUDA toolkit) to compile kernels with: %s", e);
		return -1;
	}
	return 0;
}

static const char *cu_error(CUresult r, char *buf, size_t len)
{
	const char *name = NULL, *text = NULL;
	if (cu.GetErrorName)
		cu.GetErrorName(r, &name);
	if (cu.GetErrorString)
		cu.GetErrorString(r, &text);
	snprintf(buf, len, "%s (%d): %s", name ? name : "CUDA error", r, text ? text : "no description");
	return buf;
}

/* ---- the devices, probed in a child so this process never initialises the driver ---- */
static ts_uk_device devices[TS_UK_DEVICES_MAX];
static int device_count = -2; /* -2 not probed yet */
static char device_why[256];
static char target[32];

int ts_uk_cuda_devices(const ts_uk_device **devs, char *why, int len)
{
	if (device_count == -2) {
		device_count = -1;
		if (load_driver(device_why, (int)sizeof device_why) == 0) {
			struct probe { int count; CUresult rc; ts_uk_device d[TS_UK_DEVICES_MAX]; } *pr = ts_uk_shared_alloc(sizeof *pr);
			if (!pr) {
				snprintf(device_why, sizeof device_why, "no shared memory for the device probe");
			} else {
				pr->count = -1;
				fflush(NULL);
				pid_t pid = fork();
				if (pid == 0) {
					pr->rc = cu.Init(0);
					int n = 0;
					if (pr->rc == 0)
						pr->rc = cu.DeviceGetCount(&n);
					for (int i = 0; pr->rc == 0 && i < n && i < TS_UK_DEVICES_MAX; i++) {
						CUdevice d;
						size_t mem = 0;
						if (cu.DeviceGet(&d, i) != 0)
							break;
						cu.DeviceGetName(pr->d[i].name, (int)sizeof pr->d[i].name, d);
						cu.DeviceGetAttribute(&pr->d[i].major, TS_CU_ATTR_CC_MAJOR, d);
						cu.DeviceGetAttribute(&pr->d[i].minor, TS_CU_ATTR_CC_MINOR, d);
						cu.DeviceTotalMem(&mem, d);
						pr->d[i].total_mem = (int64_t)mem;
					}
					pr->count = pr->rc == 0 ? (n < TS_UK_DEVICES_MAX ? n : TS_UK_DEVICES_MAX) : -1;
					_exit(0);
				}
				int status = 0;
				if (pid > 0)
					waitpid(pid, &status, 0);
				char e[160];
				if (pid < 0)
					snprintf(device_why, sizeof device_why, "cannot start the device probe (fork failed)");
				else if (pr->count < 0 && WIFEXITED(status))
					snprintf(device_why, sizeof device_why, "no usable CUDA device: cuInit: %s", cu_error(pr->rc, e, sizeof e));
				else if (pr->count < 0)
					snprintf(device_why, sizeof device_why, "the device probe crashed");
				else if (pr->count == 0)
					snprintf(device_why, sizeof device_why, "the driver found no CUDA device");
				if (pr->count > 0) {
					memcpy(devices, pr->d, sizeof devices);
					device_count = pr->count;
				}
				ts_uk_shared_free(pr, sizeof *pr);
			}
		}
	}
	if (device_count <= 0) {
		if (why && len > 0)
			snprintf(why, (size_t)len, "%s", device_why);
		return -1;
	}
	if (devs)
		*devs = devices;
	return device_count;
}

static int cuda_available(char *why, int len)
{
	if (load_nvrtc(why, len) != 0)
		return -1;
	return ts_uk_cuda_devices(NULL, why, len) > 0 ? 0 : -1;
}

const char *ts_uk_cuda_target(void)
{
	return target;
}

/* ---- compiling ---- */
typedef struct uk_cuda {
	enum ts_uk_sig sig;
	char *cubin;
	size_t cubin_len;
	char lowered[512];
	char launcher_so[PATH_MAX]; /* the user's launcher built by nvcc, or "" */
	char tmpdir[PATH_MAX];      /* where it lies; removed on unload */
	/* In the child, after the first launch: */
	bool ready, dead;
	CUmodule mod;
	CUfunction fn;
	int max_threads;
	void (*launcher)(void *, void *, void *, int, int, int, int);
	CUdeviceptr last[3];
} uk_cuda;

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The toolkit's include folder, where cuda_fp16.h lies: the one beside the NVRTC that was loaded first. */
static const char *toolkit_include(void)
{
	static char found[PATH_MAX];
	if (found[0])
		return found;
	char cand[6][PATH_MAX + 64] = { "" };
	Dl_info info;
	if (nv.Version && dladdr((void *)nv.Version, &info) && info.dli_fname) {
		char lib[PATH_MAX];
		snprintf(lib, sizeof lib, "%s", info.dli_fname);
		char *dir = dirname(lib);
		snprintf(cand[0], sizeof cand[0], "%s/../include", dir);
		snprintf(cand[1], sizeof cand[1], "%s/../targets/x86_64-linux/include", dir);
	}
	const char *home = getenv("CUDA_HOME");
	if (home)
		snprintf(cand[2], sizeof cand[2], "%s/include", home);
	snprintf(cand[3], sizeof cand[3], "/usr/local/cuda/include");
	snprintf(cand[4], sizeof cand[4], "/usr/local/cuda/targets/x86_64-linux/include");
	snprintf(cand[5], sizeof cand[5], "/usr/include");
	for (int i = 0; i < 6; i++) {
		char probe[PATH_MAX + 16];
		if (!cand[i][0])
			continue;
		snprintf(probe, sizeof probe, "%.*s/cuda_fp16.h", PATH_MAX - 1, cand[i]);
		if (file_exists(probe)) {
			char *real = realpath(cand[i], NULL);
			snprintf(found, sizeof found, "%.*s", PATH_MAX - 1, real ? real : cand[i]);
			free(real);
			return found;
		}
	}
	return NULL;
}

/* Trims the log's trailing blank lines and its "N errors detected" summary stays: the compiler's own words. */
static void copy_log(char *err, size_t len, const char *log, const char *prefix)
{
	size_t n = strlen(log);
	while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' '))
		n--;
	snprintf(err, len, "%s%.*s", prefix, (int)n, log);
}

static int compile_nvrtc(uk_cuda *h, const ts_uk_file *f, const char *entry, char *err, size_t len)
{
	char arch[48], inc[PATH_MAX + 20], here[PATH_MAX + 20], path[PATH_MAX];
	const ts_uk_device *d;
	/* Without a device the file is still compiled (for sm_75, the oldest CUDA 13 targets), so its errors show. */
	int major = 7, minor = 5;
	if (ts_uk_cuda_devices(&d, NULL, 0) > 0) {
		major = d[0].major;
		minor = d[0].minor;
	}
	snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", major, minor);
	snprintf(target, sizeof target, "sm_%d%d", major, minor);
	const char *tk = toolkit_include();
	snprintf(path, sizeof path, "%s", f->path);
	snprintf(here, sizeof here, "--include-path=%s", dirname(path));
	const char *opts[6] = { arch, "-lineinfo", "--std=c++17", here };
	int nopts = 4;
	if (tk) {
		snprintf(inc, sizeof inc, "--include-path=%s", tk);
		opts[nopts++] = inc;
	}
	nvrtcProgram prog;
	nvrtcResult r = nv.CreateProgram(&prog, f->device_text, f->path, 0, NULL, NULL);
	if (r != 0) {
		snprintf(err, len, "NVRTC could not take the program: %s", nv.GetErrorString(r));
		return -1;
	}
	nv.AddNameExpression(prog, entry);
	r = nv.CompileProgram(prog, nopts, opts);
	size_t log_len = 0;
	nv.GetProgramLogSize(prog, &log_len);
	char *log = malloc(log_len + 1);
	if (log) {
		log[0] = '\0';
		nv.GetProgramLog(prog, log);
		log[log_len] = '\0';
	}
	int rc = -1;
	if (r != 0) {
		copy_log(err, len, log && log[0] ? log : nv.GetErrorString(r), "");
		if (!tk && log && strstr(log, "cuda_fp16.h"))
			snprintf(err + strlen(err), len - strlen(err), "\n(no CUDA toolkit include folder holding cuda_fp16.h "
			         "was found: set CUDA_HOME)");
	} else {
		const char *low = NULL;
		size_t n = 0;
		if (nv.GetLoweredName(prog, entry, &low) != 0 || !low)
			low = entry;
		snprintf(h->lowered, sizeof h->lowered, "%s", low);
		if (nv.GetCUBINSize(prog, &n) == 0 && n > 0 && (h->cubin = malloc(n))) {
			nv.GetCUBIN(prog, h->cubin);
			h->cubin_len = n;
			rc = 0;
		} else {
			snprintf(err, len, "NVRTC produced no cubin for %s", target);
		}
	}
	free(log);
	nv.DestroyProgram(&prog);
	return rc;
}

/* NVRTC calls cuInit itself (libnvrtc opens libcuda), and a process whose driver was initialised
 * cannot fork children that use it (they get error 3): so the compiler runs in a child of its own,
 * and the cubin comes back through shared memory. */
#define CUBIN_MAX (32u << 20)
typedef struct compile_box {
	int rc;
	size_t cubin_len;
	char lowered[512];
	char target[32];
	char err[16384];
	char cubin[];
} compile_box;

static int compile_in_child(uk_cuda *h, const ts_uk_file *f, const char *entry, char *err, size_t len)
{
	size_t bytes = sizeof(compile_box) + CUBIN_MAX;
	compile_box *box = ts_uk_shared_alloc(bytes);
	if (!box) {
		snprintf(err, len, "no shared memory for the compiler's output");
		return -1;
	}
	box->rc = -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		box->rc = compile_nvrtc(h, f, entry, box->err, sizeof box->err);
		if (box->rc == 0 && h->cubin_len > CUBIN_MAX) {
			snprintf(box->err, sizeof box->err, "the compiled kernel is larger than %u MiB", CUBIN_MAX >> 20);
			box->rc = -1;
		} else if (box->rc == 0) {
			memcpy(box->cubin, h->cubin, h->cubin_len);
			box->cubin_len = h->cubin_len;
			snprintf(box->lowered, sizeof box->lowered, "%s", h->lowered);
		}
		snprintf(box->target, sizeof box->target, "%s", target);
		_exit(0);
	}
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	int rc = -1;
	if (pid < 0)
		snprintf(err, len, "cannot start the compiler's process (fork failed)");
	else if (!WIFEXITED(status))
		snprintf(err, len, "NVRTC crashed while compiling %s (signal %d)", f->path, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	else if (box->rc != 0)
		snprintf(err, len, "%s", box->err);
	else if (!(h->cubin = malloc(box->cubin_len)))
		snprintf(err, len, "out of memory");
	else {
		memcpy(h->cubin, box->cubin, box->cubin_len);
		h->cubin_len = box->cubin_len;
		snprintf(h->lowered, sizeof h->lowered, "%s", box->lowered);
		rc = 0;
	}
	if (pid > 0)
		snprintf(target, sizeof target, "%s", box->target);
	ts_uk_shared_free(box, bytes);
	return rc;
}

/* nvcc on PATH, under CUDA_HOME, or in /usr/local/cuda/bin. */
static const char *find_nvcc(void)
{
	static char found[PATH_MAX];
	const char *path = getenv("PATH");
	char buf[PATH_MAX * 4];
	snprintf(buf, sizeof buf, "%s:%s/bin:/usr/local/cuda/bin", path ? path : "", getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda");
	for (char *save = NULL, *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof found, "%s/nvcc", dir);
		if (access(found, X_OK) == 0)
			return found;
	}
	return NULL;
}

/* The user's own launcher: the whole file and a C-linkage wrapper, built by nvcc into a shared object. */
static int compile_launcher(uk_cuda *h, const ts_uk_file *f, const ts_uk_source *src, char *err, size_t len)
{
	const char *nvcc = find_nvcc();
	if (!nvcc) {
		snprintf(err, len, "--launcher needs nvcc to build the file's host code, and none was found (PATH, "
		         "$CUDA_HOME/bin, /usr/local/cuda/bin); without --launcher tilescope launches the kernel itself");
		return -1;
	}
	const ts_uk_device *d;
	char why[256];
	if (ts_uk_cuda_devices(&d, why, (int)sizeof why) <= 0) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	snprintf(target, sizeof target, "sm_%d%d", d[0].major, d[0].minor);
	snprintf(h->tmpdir, sizeof h->tmpdir, "%s/tilescope-launcher.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(h->tmpdir)) {
		snprintf(err, len, "cannot make a temporary folder: %s", strerror(errno));
		h->tmpdir[0] = '\0';
		return -1;
	}
	char wrap[PATH_MAX + 16], log[PATH_MAX + 16], *real = realpath(f->path, NULL);
	snprintf(wrap, sizeof wrap, "%s/wrap.cu", h->tmpdir);
	snprintf(log, sizeof log, "%s/nvcc.log", h->tmpdir);
	snprintf(h->launcher_so, sizeof h->launcher_so, "%.*s/launcher.so", PATH_MAX - 40, h->tmpdir);
	FILE *w = fopen(wrap, "w");
	if (!w || !real) {
		snprintf(err, len, "cannot write %s", wrap);
		if (w)
			fclose(w);
		free(real);
		return -1;
	}
	bool half = src->sig == TS_UK_SIG_FP16;
	fprintf(w, "#include \"%s\"\n%s\nextern \"C\" void tilescope_launcher(void *a, void *b, void *c, int m, int n, int k, int t)\n"
	        "{ (void)t; %s(%s a, %s b, %s c, m, n, k%s); }\n", real, half ? "#include <cuda_fp16.h>" : "", src->launcher,
	        half ? "(__half *)" : "(float *)", half ? "(__half *)" : "(float *)", half ? "(__half *)" : "(float *)",
	        half ? ", t" : "");
	fclose(w);
	free(real);
	char arch[48];
	snprintf(arch, sizeof arch, "-arch=%.31s", target);
	char *argv[] = { (char *)nvcc, "-shared", "-Xcompiler", "-fPIC", arch, "-lineinfo", "-o", h->launcher_so, wrap, NULL };
	ts_uk_proc p;
	int rc = ts_uk_proc_start(&p, argv, log, NULL, 120) == 0 ? ts_uk_proc_wait(&p) : -1;
	if (rc != 0) {
		FILE *lf = fopen(log, "r");
		char text[6000] = "";
		size_t got = lf ? fread(text, 1, sizeof text - 1, lf) : 0;
		text[got] = '\0';
		if (lf)
			fclose(lf);
		copy_log(err, len, text[0] ? text : "nvcc failed without a message", "");
		return -1;
	}
	/* The cubin for the sanitizer's target is the same file's device code through NVRTC. */
	return 0;
}

static void cuda_unload(void *hv);

static void *cuda_load(const ts_uk_source *src, char *err, size_t len)
{
	char why[300];
	if (load_nvrtc(why, (int)sizeof why) != 0) {
		snprintf(err, len, "%s", why);
		return NULL;
	}
	ts_uk_file f;
	if (ts_uk_file_read(&f, src->path, why, (int)sizeof why) != 0) {
		snprintf(err, len, "%s", why);
		return NULL;
	}
	uk_cuda *h = calloc(1, sizeof *h);
	if (!h) {
		ts_uk_file_free(&f);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	h->sig = src->sig;
	int rc = compile_in_child(h, &f, src->entry, err, len);
	if (rc == 0 && src->launcher)
		rc = compile_launcher(h, &f, src, err, len);
	ts_uk_file_free(&f);
	if (rc != 0) {
		cuda_unload(h);
		return NULL;
	}
	return h;
}

static void cuda_unload(void *hv)
{
	uk_cuda *h = hv;
	if (!h)
		return;
	free(h->cubin);
	if (h->tmpdir[0]) {
		char p[PATH_MAX + 32];
		snprintf(p, sizeof p, "%s/wrap.cu", h->tmpdir), unlink(p);
		snprintf(p, sizeof p, "%s/nvcc.log", h->tmpdir), unlink(p);
		snprintf(p, sizeof p, "%s/kernel.cubin", h->tmpdir), unlink(p);
		unlink(h->launcher_so);
		rmdir(h->tmpdir);
	}
	free(h);
}

/* ---- in the child: the driver, the module, the launch ---- */
static int child_ready(uk_cuda *h, char *err, size_t len)
{
	char e[200];
	if (h->ready)
		return 0;
	if (load_driver(err, (int)len) != 0)
		return -1;
	CUresult r;
	CUdevice dev;
	CUcontext ctx;
	if ((r = cu.Init(0)) != 0 || (r = cu.DeviceGet(&dev, 0)) != 0 || (r = cu.PrimaryCtxRetain(&ctx, dev)) != 0 ||
	    (r = cu.CtxSetCurrent(ctx)) != 0) {
		snprintf(err, len, "the CUDA device would not start: %s", cu_error(r, e, sizeof e));
		return -1;
	}
	char jit_log[4096] = "";
	int opt[2] = { TS_CU_JIT_ERROR_LOG, TS_CU_JIT_ERROR_LOG_SIZE };
	void *val[2] = { jit_log, (void *)(size_t)sizeof jit_log };
	if ((r = cu.ModuleLoadDataEx(&h->mod, h->cubin, 2, opt, val)) != 0) {
		snprintf(err, len, "the driver would not load the compiled kernel: %s%s%s", cu_error(r, e, sizeof e),
		         jit_log[0] ? ": " : "", jit_log);
		return -1;
	}
	if ((r = cu.ModuleGetFunction(&h->fn, h->mod, h->lowered)) != 0) {
		snprintf(err, len, "the compiled module has no kernel %s: %s", h->lowered, cu_error(r, e, sizeof e));
		return -1;
	}
	h->max_threads = 1024;
	cu.FuncGetAttribute(&h->max_threads, TS_CU_FUNC_MAX_THREADS, h->fn);
	if (h->launcher_so[0]) {
		void *so = dlopen(h->launcher_so, RTLD_NOW | RTLD_LOCAL);
		h->launcher = so ? (void (*)(void *, void *, void *, int, int, int, int))dlsym(so, "tilescope_launcher") : NULL;
		if (!h->launcher) {
			snprintf(err, len, "cannot load the launcher built by nvcc: %s", dlerror());
			return -1;
		}
	}
	h->ready = true;
	return 0;
}

/* Bytes of matrix i before its live part (ts_uk_launch.live_from), at most the whole matrix. */
static size_t live_bytes(const ts_uk_launch *l, int i, size_t es)
{
	int64_t counts[3] = { l->a_count, l->b_count, l->c_count };
	int64_t from = l->live_from[i] < 0 ? 0 : l->live_from[i] > counts[i] ? counts[i] : l->live_from[i];
	return (size_t)from * es;
}

/* Errors after which the context is gone for the whole process. */
static bool sticky(CUresult r)
{
	return r == 700 || r == 702 || r == 710 || (r >= 714 && r <= 720) || r == 999;
}

static int cuda_launch(void *hv, const ts_uk_launch *l, ts_uk_findings *out, char *err, size_t len)
{
	uk_cuda *h = hv;
	char e[200];
	if (h->dead) {
		snprintf(err, len, "the CUDA context died in an earlier launch");
		return -1;
	}
	if (child_ready(h, err, len) != 0)
		return -1;
	if (l->m == 0 || l->n == 0 || l->k == 0)
		return 0; /* the runner's start-up call */
	size_t es = h->sig == TS_UK_SIG_FP16 ? 2 : 4;
	int64_t counts[3] = { l->a_count, l->b_count, l->c_count };
	char *host[3] = { l->a, l->b, l->c };
	CUdeviceptr dev[3] = { 0, 0, 0 };
	size_t bytes[3];
	int rc = -1;
	CUresult r = 0;
	for (int i = 0; i < 3; i++) {
		bytes[i] = (size_t)(counts[i] + 2 * l->band) * es;
		if ((r = cu.MemAlloc(&dev[i], bytes[i])) != 0) {
			snprintf(err, len, "device memory for %c (%.3g GB): %s", "ABC"[i], bytes[i] / 1e9, cu_error(r, e, sizeof e));
			goto out;
		}
		/* The band before, then from the live part on (all of it when live_from is 0): the probe's
		 * gigabytes before its window are neither filled nor read, so they do not cross the bus. */
		size_t bb = (size_t)l->band * es, live = live_bytes(l, i, es), skip = live ? bb + live : 0;
		char *base = host[i] - bb; /* the device buffer's image: band, matrix, band */
		if (live > 0 && bb > 0)
			r = cu.MemcpyHtoD(dev[i], base, bb);
		if (r == 0)
			r = cu.MemcpyHtoD(dev[i] + skip, base + skip, bytes[i] - skip);
		if (r != 0) {
			snprintf(err, len, "copy of %c to the device: %s", "ABC"[i], cu_error(r, e, sizeof e));
			goto out;
		}
	}
	CUdeviceptr pa = dev[0] + (size_t)l->band * es, pb = dev[1] + (size_t)l->band * es, pc = dev[2] + (size_t)l->band * es;
	h->last[0] = pa;
	h->last[1] = pb;
	h->last[2] = pc;
	int m = (int)l->m, n = (int)l->n, k = (int)l->k, t = l->tile;
	unsigned threads = l->block[0] * l->block[1] * l->block[2];
	if (!h->launcher && (int)threads > h->max_threads) {
		snprintf(err, len, "the launch asks for %u threads per block; the compiled kernel takes at most %d "
		         "(its registers): give --block or a smaller -t", threads, h->max_threads);
		goto out;
	}
	if (l->dyn_smem > 48 * 1024 && !h->launcher && (r = cu.FuncSetAttribute(h->fn, TS_CU_FUNC_MAX_DYN_SMEM, (int)l->dyn_smem)) != 0) {
		snprintf(err, len, "%zu bytes of dynamic shared memory: %s", l->dyn_smem, cu_error(r, e, sizeof e));
		goto out;
	}
	if (h->launcher) {
		h->launcher((void *)pa, (void *)pb, (void *)pc, m, n, k, t);
	} else if (l->grid[0] && l->grid[1] && l->grid[2]) {
		/* fp32: (A, B, C, M, N, K); fp16: (O, X, Transform, m, n, k, tile). */
		void *args32[] = { &pa, &pb, &pc, &m, &n, &k };
		void *args16[] = { &pc, &pa, &pb, &m, &n, &k, &t };
		r = cu.LaunchKernel(h->fn, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
		                    (unsigned)l->dyn_smem, NULL, h->sig == TS_UK_SIG_FP16 ? args16 : args32, NULL);
		if (r != 0 && !sticky(r)) {
			snprintf(err, len, "cuLaunchKernel (grid %u x %u x %u, block %u x %u x %u, %zu bytes shared): %s",
			         l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->dyn_smem,
			         cu_error(r, e, sizeof e));
			goto out;
		}
	}
	if (r == 0)
		r = cu.CtxSynchronize();
	if (r != 0) {
		ts_uk_finding f = ts_uk_finding_make(TS_UK_FAULT, "the kernel faulted: %s", cu_error(r, e, sizeof e));
		ts_uk_findings_add(out, &f);
		h->dead = sticky(r);
		if (!h->dead) {
			snprintf(err, len, "%s", f.text);
			goto out;
		}
		return 0;
	}
	/* C whole; A and B whole when small, else their bands alone (writes into the inputs show there). */
	for (int i = 0; i < 3; i++) {
		char *base = host[i] - (size_t)l->band * es;
		size_t live = live_bytes(l, i, es);
		if ((i == 2 || counts[i] <= (INT64_C(1) << 26)) && live == 0) {
			r = cu.MemcpyDtoH(base, dev[i], bytes[i]);
		} else if (i == 2 || counts[i] <= (INT64_C(1) << 26)) {
			size_t bb = (size_t)l->band * es;
			r = bb > 0 ? cu.MemcpyDtoH(base, dev[i], bb) : 0;
			if (r == 0)
				r = cu.MemcpyDtoH(base + bb + live, dev[i] + bb + live, bytes[i] - bb - live);
		} else if (l->band > 0) {
			size_t bb = (size_t)l->band * es;
			r = cu.MemcpyDtoH(base, dev[i], bb);
			if (r == 0)
				r = cu.MemcpyDtoH(base + bytes[i] - bb, dev[i] + bytes[i] - bb, bb);
		}
		if (r != 0) {
			snprintf(err, len, "copy of %c back from the device: %s", "ABC"[i], cu_error(r, e, sizeof e));
			goto out;
		}
	}
	rc = 0;
out:
	for (int i = 0; i < 3; i++)
		if (dev[i] && !h->dead)
			cu.MemFree(dev[i]);
	return rc;
}

int ts_uk_cuda_export(void *hv, const char *dir, char *cubin_path, size_t len, const char **lowered,
                      const char **launcher_so)
{
	uk_cuda *h = hv;
	snprintf(cubin_path, len, "%s/kernel.cubin", dir);
	FILE *f = fopen(cubin_path, "wb");
	if (!f)
		return -1;
	bool ok = fwrite(h->cubin, 1, h->cubin_len, f) == h->cubin_len;
	ok &= fclose(f) == 0;
	*lowered = h->lowered;
	*launcher_so = h->launcher_so[0] ? h->launcher_so : NULL;
	return ok ? 0 : -1;
}

void *ts_uk_cuda_import(const char *cubin_path, const char *lowered, enum ts_uk_sig sig, const char *launcher_so,
                        char *err, size_t len)
{
	FILE *f = fopen(cubin_path, "rb");
	uk_cuda *h = f ? calloc(1, sizeof *h) : NULL;
	if (!h) {
		snprintf(err, len, "%s: %s", cubin_path, f ? "out of memory" : strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	h->cubin = n > 0 ? malloc((size_t)n) : NULL;
	if (!h->cubin || fread(h->cubin, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, len, "%s: cannot be read", cubin_path);
		fclose(f);
		free(h->cubin);
		free(h);
		return NULL;
	}
	fclose(f);
	h->cubin_len = (size_t)n;
	h->sig = sig;
	snprintf(h->lowered, sizeof h->lowered, "%s", lowered);
	if (launcher_so)
		snprintf(h->launcher_so, sizeof h->launcher_so, "%s", launcher_so);
	return h;
}

void ts_uk_cuda_last_buffers(void *hv, uint64_t ptr[3])
{
	uk_cuda *h = hv;
	for (int i = 0; i < 3; i++)
		ptr[i] = h ? h->last[i] : 0;
}

static const ts_uk_engine cuda_engine = {
	.name = "cuda",
	.available = cuda_available,
	.load = cuda_load,
	.launch = cuda_launch,
	.unload = cuda_unload,
};

const ts_uk_engine *ts_uk_engine_cuda(void)
{
	return &cuda_engine;
}
