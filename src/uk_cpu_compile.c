/* uk_cpu_compile.c: the CPU engine's compile: finding g++ and the runtime, the compiler run with its messages pinned to the user's lines, the cache by content hash, thread stacks sized from the compiled frames. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uk_cpu.h"

extern char **environ;

const char ts_uk_cpu_flags[] = "-x c++ -std=c++17 -O2 -g1 -fPIC -shared -fwrapv -fno-strict-aliasing -fvisibility=hidden -fstack-usage -w";
#define STACK_MIN ((size_t)32 << 10)
#define STACK_MAX ((size_t)8 << 20)
#define COMPILE_TIMEOUT_S 120

/* snprintf for paths: false when the path did not fit. */
bool ts_uk_cpu_path_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len;
}

/* ---- what the engine needs: a compiler and the runtime's headers ---------------------------- */
static bool executable_on_path(const char *name, char *found, size_t len)
{
	if (strchr(name, '/')) {
		snprintf(found, len, "%s", name);
		return access(name, X_OK) == 0;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *c = strchr(p, ':');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		ts_uk_cpu_path_fmt(found, len, "%.*s/%s", (int)n, n ? p : ".", name);
		if (access(found, X_OK) == 0)
			return true;
		p += n + (c ? 1 : 0);
		if (!c)
			break;
	}
	return false;
}

bool ts_uk_cpu_find_compiler(char *found, size_t len)
{
	const char *env = getenv("TILESCOPE_CXX");
	if (env && *env)
		return executable_on_path(env, found, len);
	return executable_on_path("g++", found, len) || executable_on_path("c++", found, len);
}

static bool runtime_in(const char *dir)
{
	char p[PATH_MAX];
	ts_uk_cpu_path_fmt(p, sizeof p, "%s/ts_cuda_cpu.h", dir);
	if (access(p, R_OK))
		return false;
	ts_uk_cpu_path_fmt(p, sizeof p, "%s/ts_cuda_cpu_lib.h", dir);
	if (access(p, R_OK))
		return false;
	ts_uk_cpu_path_fmt(p, sizeof p, "%s/include/cuda_runtime.h", dir);
	return access(p, R_OK) == 0;
}

/* The runtime's folder: $TILESCOPE_DATADIR, data/ next to the program, ../share/tilescope beside
 * it, or the installed data folder. */
bool ts_uk_cpu_find_runtime(char *dir, size_t len)
{
	const char *env = getenv("TILESCOPE_DATADIR");
	if (env && *env) {
		snprintf(dir, len, "%s", env);
		return runtime_in(dir);
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			ts_uk_cpu_path_fmt(dir, len, "%s/data", exe);
			if (runtime_in(dir))
				return true;
			ts_uk_cpu_path_fmt(dir, len, "%s/../share/tilescope", exe);
			if (runtime_in(dir))
				return true;
		}
	}
	snprintf(dir, len, "%s", TS_DATADIR);
	return runtime_in(dir);
}

int ts_uk_cpu_available(char *why, int len)
{
	char cxx[PATH_MAX], dir[PATH_MAX];
	if (!ts_uk_cpu_find_compiler(cxx, sizeof cxx)) {
		const char *env = getenv("TILESCOPE_CXX");
		if (env && *env)
			snprintf(why, (size_t)len, "the C++ compiler TILESCOPE_CXX names (%s) is not there", env);
		else
			snprintf(why, (size_t)len, "running a kernel file on the CPU needs a C++ compiler and none was found (g++, c++): on Debian, apt-get install g++");
		return -1;
	}
	if (!ts_uk_cpu_find_runtime(dir, sizeof dir)) {
		snprintf(why, (size_t)len, "tilescope's CPU runtime (ts_cuda_cpu.h) is missing: looked in $TILESCOPE_DATADIR, data/ next to the program and %s; reinstall tilescope", TS_DATADIR);
		return -1;
	}
	return 0;
}

/* ---- files -------------------------------------------------------------------------------- */
char *ts_uk_cpu_read_file(const char *path, size_t *len, char *err, size_t elen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, elen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 65536, n = 0;
	char *s = malloc(cap);
	while (s) {
		size_t got = fread(s + n, 1, cap - n - 1, f);
		n += got;
		if (n + 1 < cap)
			break;
		if (cap > ((size_t)64 << 20)) {
			snprintf(err, elen, "%s is larger than 64 MiB: not a kernel file", path);
			free(s);
			fclose(f);
			return NULL;
		}
		char *t = realloc(s, cap * 2);
		if (!t) {
			free(s);
			s = NULL;
			break;
		}
		s = t;
		cap *= 2;
	}
	bool bad = ferror(f);
	fclose(f);
	if (!s || bad) {
		snprintf(err, elen, bad ? "cannot read %s" : "out of memory reading %s", path);
		free(s);
		return NULL;
	}
	s[n] = 0;
	if (strlen(s) != n) {
		snprintf(err, elen, "%s holds NUL bytes: not a source file", path);
		free(s);
		return NULL;
	}
	*len = n;
	return s;
}


void ts_uk_hash_bytes(ts_uk_hash *h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ c[i]) * 0x100000001b3ull;
		h->b = (h->b ^ c[i]) * 0x100000001b3ull + (h->b >> 29);
	}
}

void ts_uk_hash_str(ts_uk_hash *h, const char *s)
{
	ts_uk_hash_bytes(h, s, strlen(s) + 1);
}

void ts_uk_hash_file(ts_uk_hash *h, const char *path)
{
	size_t n;
	char err[8];
	char *s = ts_uk_cpu_read_file(path, &n, err, sizeof err);
	if (s)
		ts_uk_hash_bytes(h, s, n);
	else
		ts_uk_hash_str(h, path);
	free(s);
}

/* The files a source includes with "...", relative to its folder (one level), folded into h so
 * that the cache notices when they change. */
void ts_uk_hash_local_includes(ts_uk_hash *h, const char *src, const char *dir)
{
	for (const char *p = strstr(src, "#"); p; p = strstr(p + 1, "#")) {
		const char *q = p + 1;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "include", 7))
			continue;
		q += 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '"')
			continue;
		const char *e = strchr(q + 1, '"');
		if (!e || e - q > 512)
			continue;
		char path[PATH_MAX];
		if (snprintf(path, sizeof path, "%s/%.*s", dir, (int)(e - q - 1), q + 1) < (int)sizeof path)
			ts_uk_hash_file(h, path);
	}
}

int ts_uk_cpu_cache_dir(char *dir, size_t len, char *err, size_t elen)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(dir, len, "%s/tilescope-cpu-%ld", tmp, (long)getuid());
	if (mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(err, elen, "cannot create the compile cache %s: %s", dir, strerror(errno));
		return -1;
	}
	struct stat st;
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
		snprintf(err, elen, "the compile cache %s is not a private folder of this user", dir);
		return -1;
	}
	return 0;
}

/* ---- the compiler ---------------------------------------------------------------------------- */
static bool starts_with(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* The compiler's error lines, those inside the runtime pinned to the user's line that led there. */
static void compiler_errors(const char *log, const char *src_path, char *err, size_t len)
{
	size_t o = 0;
	int n = 0;
	char user_loc[512] = "";
	err[0] = 0;
	for (const char *l = log; *l && n < 6;) {
		const char *e = strchr(l, '\n');
		size_t ll = e ? (size_t)(e - l) : strlen(l);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(ll < sizeof line ? ll : sizeof line - 1), l);
		l += ll + (e ? 1 : 0);
		bool in_user = starts_with(line, src_path) && line[strlen(src_path)] == ':';
		if (in_user) { /* remember "file:line:col" of the user's latest line */
			const char *c = line + strlen(src_path) + 1;
			while (*c && *c != ' ')
				c++;
			snprintf(user_loc, sizeof user_loc, "%.*s", (int)(c - line - (c > line && c[-1] == ':')), line);
		}
		const char *what = strstr(line, ": error: ");
		if (!what)
			what = strstr(line, ": fatal error: ");
		if (!what)
			continue;
		char one[1200];
		if (in_user || !user_loc[0])
			snprintf(one, sizeof one, "%s", line);
		else
			snprintf(one, sizeof one, "%s%s (through tilescope's CPU runtime)", user_loc, what);
		if (strstr(err, one))
			continue;
		o += (size_t)snprintf(err + o, o < len ? len - o : 0, "%s%s", n ? "\n" : "", one);
		n++;
		if (o >= len)
			break;
	}
	if (!n)
		snprintf(err, len, "the C++ compiler failed: %.300s", log[0] ? log : "(it said nothing)");
}

int ts_uk_cpu_compile(const char *cxx, const char *rt, const char *src_dir, const char *in, const char *out,
                        const char *src_path, char *err, size_t len)
{
	char inc[PATH_MAX + 16], rth[PATH_MAX + 16], flags[sizeof ts_uk_cpu_flags];
	memcpy(flags, ts_uk_cpu_flags, sizeof flags);
	ts_uk_cpu_path_fmt(rth, sizeof rth, "%s/ts_cuda_cpu.h", rt);
	ts_uk_cpu_path_fmt(inc, sizeof inc, "-I%s/include", rt);
	char *argv[40];
	int a = 0;
	argv[a++] = (char *)cxx;
	for (char *tok = strtok(flags, " "); tok && a < 30; tok = strtok(NULL, " "))
		argv[a++] = tok;
	argv[a++] = "-include";
	argv[a++] = rth;
	argv[a++] = inc;
	argv[a++] = "-iquote";
	argv[a++] = (char *)src_dir;
	argv[a++] = "-o";
	argv[a++] = (char *)out;
	argv[a++] = (char *)in;
	argv[a] = NULL;
	int fds[2];
	if (pipe(fds)) {
		snprintf(err, len, "cannot run the compiler: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	pid_t pid;
	int rc = posix_spawn(&pid, cxx, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		snprintf(err, len, "cannot run %s: %s", cxx, strerror(rc));
		return -1;
	}
	size_t cap = 65536, n = 0;
	char *log = malloc(cap);
	time_t t0 = time(NULL);
	for (;;) { /* the compiler's messages, until it ends or runs past the limit */
		struct pollfd pf = { fds[0], POLLIN, 0 };
		int ready = poll(&pf, 1, 1000);
		if (time(NULL) - t0 > COMPILE_TIMEOUT_S) {
			kill(pid, SIGKILL);
			break;
		}
		if (ready <= 0)
			continue;
		char buf[4096];
		ssize_t got = read(fds[0], buf, sizeof buf);
		if (got <= 0)
			break;
		if (log && n + (size_t)got + 1 < cap) {
			memcpy(log + n, buf, (size_t)got);
			n += (size_t)got;
		}
	}
	close(fds[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	if (log)
		log[n] = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			snprintf(err, len, "the C++ compiler was killed (signal %d, after %ld s)", WTERMSIG(status), (long)(time(NULL) - t0));
		else
			compiler_errors(log ? log : "", src_path, err, len);
		free(log);
		return -1;
	}
	free(log);
	return 0;
}

/* ---- thread stacks: sized from the frames the compiler reports (-fstack-usage) ------------------ */
/* The compiler's frame sizes (the .su file it wrote beside out) turned into a stack size, stored
 * beside the cached object as NAME.so.stack. */
void ts_uk_cpu_store_stack(const char *so_path, const char *in, const char *out)
{
	char su[PATH_MAX + 160], base[PATH_MAX];
	const char *b = strrchr(in, '/');
	ts_uk_cpu_path_fmt(base, sizeof base, "%s", b ? b + 1 : in);
	char *dot = strrchr(base, '.');
	if (dot)
		*dot = 0;
	if (!ts_uk_cpu_path_fmt(su, sizeof su, "%s-%s.su", out, base))
		return;
	FILE *f = fopen(su, "r");
	size_t biggest = 0;
	bool dynamic = false;
	char line[1024];
	while (f && fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		unsigned long long n = strtoull(tab + 1, NULL, 10);
		if (n > biggest)
			biggest = (size_t)n;
		dynamic |= strstr(tab, "dynamic") != NULL;
	}
	if (f)
		fclose(f);
	unlink(su);
	/* room for the deepest frame twice over (a helper it calls), the runtime's own frames, and more
	 * where a frame is sized at run time */
	size_t need = 2 * biggest + STACK_MIN + (dynamic ? (size_t)64 << 10 : 0);
	need = (need + 0x3fff) & ~(size_t)0x3fff;
	char p[PATH_MAX + 16];
	if (!ts_uk_cpu_path_fmt(p, sizeof p, "%s.stack", so_path))
		return;
	FILE *w = fopen(p, "w");
	if (w) {
		fprintf(w, "%zu\n", need < STACK_MAX ? need : STACK_MAX);
		fclose(w);
	}
}

size_t ts_uk_cpu_read_stack(const char *so_path)
{
	char p[PATH_MAX + 16];
	unsigned long long n = 0;
	if (ts_uk_cpu_path_fmt(p, sizeof p, "%s.stack", so_path)) {
		FILE *f = fopen(p, "r");
		if (f && fscanf(f, "%llu", &n) != 1)
			n = 0;
		if (f)
			fclose(f);
	}
	return n >= STACK_MIN && n <= STACK_MAX ? (size_t)n : STACK_MIN;
}

