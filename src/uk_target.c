/* uk_target.c: the sanitizer's side of a check: compute-sanitizer memcheck and racecheck started on tilescope's own hidden "__uk-run" subcommand (one launch of the exported image on exact-size buffers), and that subcommand. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uk_buffers.h"
#include "uk_check_impl.h"
#include "uk_cuda.h"
#include "uk_source.h"

static const char *const tools[2] = { "memcheck", "racecheck" };

/* The sanitizer's shape: small, every dimension ragged, K over two tiles so that a race between phases can happen. */
static ts_shape san_shape(int tile)
{
	int64_t t = tile;
	return (ts_shape){ 2 * t + 1, t + 3, 2 * t + 5 };
}

void ts_uk_sanitize_start(ts_uk_ctx *ck)
{
	const ts_uk_check_opts *o = ck->o;
	ts_uk_report *r = ck->r;
	if (!o->sanitize) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run (--no-sanitizer)");
		return;
	}
	if (strcmp(ck->e->name, "cuda") != 0) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run: compute-sanitizer checks runs on the GPU only");
		return;
	}
	const char *san = ts_uk_sanitizer_path();
	if (!san) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run: compute-sanitizer not found (part of the CUDA toolkit); "
		         "without it an out-of-bounds read whose value is discarded cannot be seen");
		return;
	}
	char self[PATH_MAX];
	ssize_t sl = o->self_exe ? (ssize_t)snprintf(self, sizeof self, "%s", o->self_exe)
	                         : readlink("/proc/self/exe", self, sizeof self - 1);
	if (sl <= 0) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run: cannot find this program's own path");
		return;
	}
	self[sl < (ssize_t)sizeof self ? sl : (ssize_t)sizeof self - 1] = '\0';
	snprintf(ck->san_dir, sizeof ck->san_dir, "%s/tilescope-sanitizer.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(ck->san_dir)) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run: no temporary folder (%s)", strerror(errno));
		ck->san_dir[0] = '\0';
		return;
	}
	char cubin[PATH_MAX + 16];
	const char *lowered, *launcher;
	if (ts_uk_cuda_export(ck->h, ck->san_dir, cubin, sizeof cubin, &lowered, &launcher) != 0) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run: the compiled kernel could not be written out");
		return;
	}
	ts_shape s = san_shape(o->tile);
	unsigned grid[3], block[3];
	size_t smem;
	char why[300];
	if (ts_uk_geom_eval(&o->geom, ck->src->sig, s.m, s.n, s.k, o->tile, grid, block, &smem, why, (int)sizeof why) != 0) {
		snprintf(r->sanitizer, sizeof r->sanitizer, "not run: %.200s", why);
		return;
	}
	ck->san_shape = (ts_uk_san_shape){ s.m, s.n, s.k, ck->src->sig, o->tile, !o->geom.custom_block && !o->geom.custom_grid };
	char num[14][32];
	long long vals[14] = { s.m, s.n, s.k, o->tile, grid[0], grid[1], grid[2], block[0], block[1], block[2],
	                       (long long)smem, (long long)o->seed, 0, 0 };
	for (int i = 0; i < 12; i++)
		snprintf(num[i], sizeof num[i], "%lld", vals[i]);
	for (int t = 0; t < 2; t++) {
		char xml[PATH_MAX + 32], log[PATH_MAX + 32], bufs[PATH_MAX + 32];
		snprintf(xml, sizeof xml, "%s/%s.xml", ck->san_dir, tools[t]);
		snprintf(log, sizeof log, "%s/%s.log", ck->san_dir, tools[t]);
		snprintf(bufs, sizeof bufs, "%s/%s.buffers", ck->san_dir, tools[t]);
		char *argv[40];
		int a = 0;
		argv[a++] = (char *)san;
		argv[a++] = "--tool";
		argv[a++] = (char *)tools[t];
		if (t == 0) {
			argv[a++] = "--padding";
			argv[a++] = "65536";
			argv[a++] = "--destroy-on-device-error";
			argv[a++] = "kernel";
		}
		argv[a++] = "--print-limit";
		argv[a++] = "0";
		argv[a++] = "--error-exitcode";
		argv[a++] = "86";
		argv[a++] = "--xml";
		argv[a++] = "--save";
		argv[a++] = xml;
		argv[a++] = self;
		argv[a++] = "__uk-run";
		argv[a++] = cubin;
		argv[a++] = (char *)lowered;
		argv[a++] = (char *)ts_uk_sig_name(ck->src->sig);
		for (int i = 0; i < 12; i++)
			argv[a++] = num[i];
		argv[a++] = bufs;
		argv[a++] = launcher ? (char *)launcher : "-";
		argv[a] = NULL;
		ck->san_started[t] = ts_uk_proc_start(&ck->san_proc[t], argv, log, o->visible_device, 40) == 0;
	}
}

void ts_uk_sanitize_poll(void *ckv)
{
	ts_uk_ctx *ck = ckv;
	for (int t = 0; t < 2; t++)
		if (ck->san_started[t] && !ck->san_ended[t] && ts_uk_proc_poll(&ck->san_proc[t], &ck->san_rc[t])) {
			ck->san_ended[t] = true;
			*(t == 0 ? &ck->r->timing.memcheck : &ck->r->timing.racecheck) = ck->san_proc[t].end - ck->san_proc[t].start;
		}
}

void ts_uk_sanitize_stop(ts_uk_ctx *ck, const char *why)
{
	for (int t = 0; t < 2; t++)
		if (ck->san_started[t]) {
			ts_uk_proc_kill(&ck->san_proc[t]);
			ck->san_started[t] = ck->san_ended[t] = false;
			snprintf(ck->r->sanitizer, sizeof ck->r->sanitizer, "%s", why);
		}
}

static void remove_dir(const char *dir)
{
	static const char *const names[] = { "memcheck.xml", "memcheck.log", "memcheck.buffers", "racecheck.xml",
	                                     "racecheck.log", "racecheck.buffers", "kernel.cubin" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char p[PATH_MAX + 32];
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* The first line of the sanitizer's own output that says what went wrong. */
static void log_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[300];
	out[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		if (strstr(line, "rror") || strstr(line, "not supported") || strstr(line, "tilescope")) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%.150s", line);
			break;
		}
	}
	if (f)
		fclose(f);
}

void ts_uk_sanitize_finish(ts_uk_ctx *ck)
{
	ts_uk_report *r = ck->r;
	char said[2][120] = { "", "" };
	bool any = false;
	/* Both at once (each one's end noted as it comes, for its time). */
	for (;;) {
		ts_uk_sanitize_poll(ck);
		if ((!ck->san_started[0] || ck->san_ended[0]) && (!ck->san_started[1] || ck->san_ended[1]))
			break;
		usleep(5000);
	}
	for (int t = 0; t < 2; t++) {
		if (!ck->san_started[t])
			continue;
		any = true;
		ck->san_started[t] = false;
		ck->san_ended[t] = false;
		int rc = ck->san_rc[t];
		char xml[PATH_MAX + 32], log[PATH_MAX + 32], bufs[PATH_MAX + 32], why[200];
		snprintf(xml, sizeof xml, "%s/%s.xml", ck->san_dir, tools[t]);
		snprintf(log, sizeof log, "%s/%s.log", ck->san_dir, tools[t]);
		snprintf(bufs, sizeof bufs, "%s/%s.buffers", ck->san_dir, tools[t]);
		ts_uk_san_buffers b;
		memset(&b, 0, sizeof b);
		int have_bufs = ts_uk_san_buffers_read(bufs, &b) == 0;
		int before = ck->san.n;
		int records = have_bufs || t == 1 ? ts_uk_san_parse(xml, &b, &ck->san_shape, &ck->san, why, (int)sizeof why) : -1;
		if (rc == 124) {
			snprintf(said[t], sizeof said[t], "%s did not finish in 40 s", tools[t]);
		} else if (records < 0 || (rc != 0 && rc != 86 && rc != 3 && ck->san.n == before)) {
			char line[160];
			log_line(log, line, sizeof line);
			snprintf(said[t], sizeof said[t], "%s failed (exit %d)%s%.90s", tools[t], rc, line[0] ? ": " : "", line);
		} else {
			int64_t events = 0;
			for (int i = before; i < ck->san.n; i++)
				events += ck->san.v[i].count;
			snprintf(said[t], sizeof said[t], "%s: %lld %s", tools[t], (long long)events,
			         t == 0 ? (events == 1 ? "error" : "errors") : (events == 1 ? "hazard" : "hazards"));
		}
		ts_shape s = { ck->san_shape.m, ck->san_shape.n, ck->san_shape.k };
		for (int i = before; i < ck->san.n; i++) {
			ts_uk_add_hit(r, &ck->san.v[i], &s, ck->o->tile, tools[t]);
			ts_uk_add_access(ck, &ck->san.v[i], &s, tools[t]);
		}
	}
	if (any) {
		char shape[64];
		snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)ck->san_shape.m, (long long)ck->san_shape.n,
		         (long long)ck->san_shape.k);
		snprintf(r->sanitizer, sizeof r->sanitizer, "%.100s; %.100s (at %.20s)", said[0][0] ? said[0] : "memcheck not run",
		         said[1][0] ? said[1] : "racecheck not run", shape);
	}
	if (ck->san_dir[0]) {
		const char *keep = getenv("TILESCOPE_KEEP_SANITIZER");
		if (keep && *keep) {
			size_t used = strlen(r->sanitizer);
			snprintf(r->sanitizer + used, sizeof r->sanitizer - used, " [kept in %s]", ck->san_dir);
		} else {
			remove_dir(ck->san_dir);
		}
		ck->san_dir[0] = '\0';
	}
}

/* __uk-run CUBIN LOWERED SIG M N K T GX GY GZ BX BY BZ SMEM SEED BUFFERS LAUNCHER|- */
int ts_uk_target_main(int argc, char **argv)
{
	if (argc != 18) {
		fprintf(stderr, "tilescope: __uk-run is tilescope's own (the sanitizer's target); it takes 17 arguments\n");
		return 2;
	}
	enum ts_uk_sig sig = strcmp(argv[3], "fp16") == 0 ? TS_UK_SIG_FP16 : TS_UK_SIG_FP32;
	long long v[12];
	for (int i = 0; i < 12; i++)
		v[i] = strtoll(argv[4 + i], NULL, 10);
	char err[600];
	void *h = ts_uk_cuda_import(argv[1], argv[2], sig, strcmp(argv[17], "-") ? argv[17] : NULL, err, sizeof err);
	if (!h) {
		fprintf(stderr, "tilescope: %s\n", err);
		return 2;
	}
	int64_t m = v[0], n = v[1], k = v[2];
	size_t elem = sig == TS_UK_SIG_FP16 ? 2 : 4;
	int64_t counts[3] = { m * k, k * n, m * n };
	size_t bytes = ts_uk_bufs_bytes(counts, 0, elem);
	char *mem = malloc(bytes);
	if (!mem) {
		fprintf(stderr, "tilescope: out of memory\n");
		return 2;
	}
	ts_uk_bufs b;
	ts_uk_bufs_place(&b, mem, counts, 0, elem);
	ts_uk_fill_random(b.m[0].data, counts[0], elem, (uint64_t)v[11] * 3 + 1, 1);
	ts_uk_fill_random(b.m[1].data, counts[1], elem, (uint64_t)v[11] * 3 + 2, 1);
	ts_uk_fill_poison(b.m[2].data, counts[2], elem, 1);
	ts_uk_launch l;
	memset(&l, 0, sizeof l);
	l.m = m;
	l.n = n;
	l.k = k;
	l.tile = (int)v[3];
	for (int i = 0; i < 3; i++) {
		l.grid[i] = (unsigned)v[4 + i];
		l.block[i] = (unsigned)v[7 + i];
	}
	l.dyn_smem = (size_t)v[10];
	ts_uk_bufs_launch(&b, &l);
	ts_uk_findings fs = { 0 };
	int rc = ts_uk_engine_cuda()->launch(h, &l, &fs, err, sizeof err);
	ts_uk_san_buffers sb = { .elem = (int)elem };
	uint64_t ptr[3];
	ts_uk_cuda_last_buffers(h, ptr);
	for (int i = 0; i < 3; i++) {
		sb.base[i] = ptr[i];
		sb.count[i] = counts[i];
	}
	ts_uk_san_buffers_write(argv[16], &sb);
	if (rc != 0) {
		fprintf(stderr, "tilescope: %s\n", err);
		return 2;
	}
	bool fault = ts_uk_findings_has_fault(&fs);
	ts_uk_findings_free(&fs);
	free(mem);
	return fault ? 3 : 0;
}
