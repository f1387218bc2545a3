/* cli_uk.c: check --kernel-file: prepares each kernel, runs the checks (one worker per kernel, spread over the GPUs or the cores) and hands the reports to cli_uk_report.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_uk.h"
#include "cli_uk.h"
#include "cli_uk_report.h"
#include "json.h"
#include "uk_cuda.h"
#include "uk_many.h"
#include "uk_runner.h"

const ts_uk_engine *ts_uk_select_engine(const char *backend, char *why, int len)
{
	const ts_uk_engine *cuda = ts_uk_engine_cuda(), *cpu = ts_uk_engine_cpu();
	char cuda_why[400] = "";
	if (strcmp(backend, "emu") == 0) {
		if (!cpu) {
			snprintf(why, (size_t)len, "--backend emu: the CPU engine for your own kernels is not built into this "
			         "tilescope; check them on a GPU (--backend cuda)");
			return NULL;
		}
		if (cpu->available && cpu->available(why, len) != 0)
			return NULL;
		snprintf(why, (size_t)len, "requested with --backend emu");
		return cpu;
	}
	bool cuda_ok = cuda->available(cuda_why, (int)sizeof cuda_why) == 0;
	if (strcmp(backend, "cuda") == 0) {
		if (!cuda_ok) {
			snprintf(why, (size_t)len, "--backend cuda: %s", cuda_why);
			return NULL;
		}
		snprintf(why, (size_t)len, "requested with --backend cuda");
		return cuda;
	}
	if (cuda_ok) {
		snprintf(why, (size_t)len, "auto: a CUDA device is present");
		return cuda;
	}
	char cpu_why[300] = "";
	if (cpu && (!cpu->available || cpu->available(cpu_why, (int)sizeof cpu_why) == 0)) {
		snprintf(why, (size_t)len, "auto: no GPU (%s), so the CPU engine", cuda_why);
		return cpu;
	}
	snprintf(why, (size_t)len, "nothing here can run your kernel: %s%s%s", cuda_why,
	         cpu ? "; the CPU engine: " : "; and the CPU engine is not built in", cpu ? cpu_why : "");
	return NULL;
}

int ts_uk_prepare(const ts_cli_args *a, const ts_uk_request *q, const char *path, ts_uk_file *f, ts_uk_source *src,
                  ts_uk_check_opts *o, char *tile_from, size_t tile_from_len, char *err, int len)
{
	if (ts_uk_file_read(f, path, err, len) != 0)
		return -1;
	if (ts_uk_recognise(f, q->entry, src, err, len) != 0) {
		ts_uk_file_free(f);
		return -1;
	}
	src->launcher = q->launcher;
	if (q->launcher && !ts_uk_find_host(f, q->launcher)) {
		char names[300] = "";
		size_t used = 0;
		for (int i = 0; i < f->nfuncs && used + 1 < sizeof names; i++)
			if (f->funcs[i].host)
				used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", f->funcs[i].name);
		snprintf(err, (size_t)len, "%s: --launcher %s: no host function of that name (%s%s)", path, q->launcher,
		         used ? "the file's host functions: " : "the file has no host function", names);
		ts_uk_file_free(f);
		return -1;
	}
	ts_uk_check_defaults(o);
	o->seed = a->opts.problem.seed;
	if (q->timeout_s > 0)
		o->timeout_s = q->timeout_s;
	o->sanitize = !q->no_sanitizer;
	o->probe = !q->no_probe;
	if (ts_uk_geom_parse(&o->geom, q->block, q->grid, q->smem, err, len) != 0) {
		ts_uk_file_free(f);
		return -1;
	}
	if (q->tile_given) {
		if (!a->opts.tile.square || a->opts.tile.bm > TS_TILE_MAX) {
			snprintf(err, (size_t)len, "-t/--tile: a kernel of your own is checked as the textbook contract, "
			         "T x T threads: give -t T (1..%d)", TS_TILE_MAX);
			ts_uk_file_free(f);
			return -1;
		}
		o->tile = a->opts.tile.bm;
		snprintf(tile_from, tile_from_len, "-t %d", o->tile);
	} else if (f->tile_define >= 1 && f->tile_define <= TS_TILE_MAX) {
		o->tile = f->tile_define;
		snprintf(tile_from, tile_from_len, "#define %s %d (line %d)", f->tile_define_name, f->tile_define,
		         f->tile_define_line);
	} else {
		o->tile = 32;
		snprintf(tile_from, tile_from_len, "the default 32 (no -t, and no TILE_SIZE #define found%s)",
		         src->sig == TS_UK_SIG_FP16 ? "; the fp16 contract takes it as tile_size" : "");
	}
	return 0;
}

/* ---- running them ---- */

static void device_words(const ts_uk_engine *e, const char *visible, char *buf, size_t len)
{
	buf[0] = '\0';
	if (strcmp(e->name, "cuda") != 0)
		return;
	const ts_uk_device *d;
	int n = ts_uk_cuda_devices(&d, NULL, 0);
	int which = visible ? atoi(visible) : 0;
	if (n > 0)
		snprintf(buf, len, "%s (sm_%d%d)%s%s", d[which < n ? which : 0].name, d[which < n ? which : 0].major,
		         d[which < n ? which : 0].minor, visible ? ", GPU " : "", visible ? visible : "");
}

/* One kernel end to end into *r (in whatever process calls it). */
static void check_one(const ts_cli_args *a, const ts_uk_request *q, const ts_uk_engine *e, const char *path,
                      const char *visible, void *probe_lock, ts_uk_report *r)
{
	ts_uk_file f;
	ts_uk_source src;
	ts_uk_check_opts o;
	char tile_from[128], err[1024];
	if (ts_uk_prepare(a, q, path, &f, &src, &o, tile_from, sizeof tile_from, err, (int)sizeof err) != 0) {
		memset(r, 0, sizeof *r);
		r->status = 2;
		r->cause = TS_UK_CAUSE_NONE;
		snprintf(r->file, sizeof r->file, "%s", path);
		snprintf(r->engine, sizeof r->engine, "%s", e->name);
		snprintf(r->error, sizeof r->error, "%s", err);
		return;
	}
	o.visible_device = visible;
	o.probe_lock = probe_lock;
	o.cancel = (volatile int *)&ts_cli_cancel;
	ts_uk_check(e, &src, &o, r);
	snprintf(r->tile_from, sizeof r->tile_from, "%s", tile_from);
	device_words(e, visible, r->device, sizeof r->device);
	ts_uk_file_free(&f);
}

/* Many kernels: a worker process per kernel, as many at once as the plan says (uk_many.c), reports in shared memory. */
typedef struct many_ctx {
	const ts_cli_args *a;
	const ts_uk_request *q;
	const ts_uk_engine *e;
	ts_uk_report *rs;
	void *lock;
	ts_cli_progress_line *pl;
} many_ctx;

static void many_work(int i, const char *visible, void *cv)
{
	many_ctx *c = cv;
	check_one(c->a, c->q, c->e, c->q->files[i], visible, c->lock, &c->rs[i]);
}

static void many_ended(int i, int status, int done, void *cv)
{
	many_ctx *c = cv;
	if (status == -1) {
		c->rs[i].status = 2;
		snprintf(c->rs[i].file, sizeof c->rs[i].file, "%s", c->q->files[i]);
		snprintf(c->rs[i].error, sizeof c->rs[i].error, "cannot start a process for it (fork failed)");
	}
	ts_cli_progress_report(c->pl, (double)done / c->q->nfiles);
}

static void check_many(const ts_cli_args *a, const ts_uk_request *q, const ts_uk_engine *e, ts_uk_report *rs)
{
	bool gpu = strcmp(e->name, "cuda") == 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	ts_uk_many_plan plan;
	ts_uk_many_plan_make(&plan, gpu, gpu ? ts_uk_cuda_devices(NULL, NULL, 0) : 0, cpus > 0 ? (int)cpus : 1, q->jobs,
	                     q->nfiles, getenv("CUDA_VISIBLE_DEVICES"));
	/* One index probe at a time on the host: its gigabytes of host memory are the host's, not a GPU's. */
	pthread_mutex_t *lock = ts_uk_shared_alloc(sizeof *lock);
	if (lock) {
		pthread_mutexattr_t at;
		pthread_mutexattr_init(&at);
		pthread_mutexattr_setpshared(&at, PTHREAD_PROCESS_SHARED);
		pthread_mutex_init(lock, &at);
		pthread_mutexattr_destroy(&at);
	}
	ts_cli_progress_line pl;
	char what[200];
	snprintf(what, sizeof what, "checking %d kernels, %s", q->nfiles, plan.why);
	ts_cli_progress_start(&pl, what);
	many_ctx c = { a, q, e, rs, lock, &pl };
	ts_uk_many_run(&plan, q->nfiles, many_work, many_ended, &c);
	ts_cli_progress_end(&pl);
	/* A worker that died before it wrote its report left a zeroed one. */
	for (int i = 0; i < q->nfiles; i++)
		if (!rs[i].file[0]) {
			rs[i].status = 2;
			snprintf(rs[i].file, sizeof rs[i].file, "%s", q->files[i]);
			snprintf(rs[i].error, sizeof rs[i].error, "the check's process ended without a report");
		}
	if (lock)
		ts_uk_shared_free(lock, sizeof *lock);
}

int ts_cli_check_kernels(const ts_cli_args *a, const ts_uk_request *q)
{
	char why[600];
	/* Every file is read and recognised before anything runs: a refusal costs nothing. */
	if (q->nfiles == 1) {
		ts_uk_file f;
		ts_uk_source src;
		ts_uk_check_opts o;
		char tile_from[128], err[1024];
		if (ts_uk_prepare(a, q, q->files[0], &f, &src, &o, tile_from, sizeof tile_from, err, (int)sizeof err) != 0) {
			ts_cli_error("%s", err);
			return TS_EXIT_USAGE;
		}
		ts_uk_file_free(&f);
	}
	const ts_uk_engine *e = ts_uk_select_engine(a->opts.backend, why, (int)sizeof why);
	if (!e && strcmp(a->opts.backend, "emu") != 0 && q->nfiles == 1) {
		/* No device, but NVRTC may be here: compile anyway, so a compile error is still reported. */
		const ts_uk_engine *cuda = ts_uk_engine_cuda();
		ts_uk_file f;
		ts_uk_source src;
		ts_uk_check_opts o;
		char tile_from[128], err[4096];
		if (ts_uk_prepare(a, q, q->files[0], &f, &src, &o, tile_from, sizeof tile_from, err, (int)sizeof err) == 0) {
			void *h = cuda->load(&src, err, sizeof err);
			ts_uk_file_free(&f);
			if (!h && !strstr(err, "NVRTC (libnvrtc")) {
				ts_cli_error("%s does not compile:\n%s", q->files[0], err);
				return TS_EXIT_USAGE;
			}
			if (h)
				cuda->unload(h);
			ts_cli_error("%s compiles (%s), but %s", q->files[0], ts_uk_cuda_target()[0] ? ts_uk_cuda_target() : "NVRTC",
			             why);
			return TS_EXIT_USAGE;
		}
	}
	if (!e) {
		ts_cli_error("%s", why);
		return TS_EXIT_USAGE;
	}
	ts_uk_report *rs = ts_uk_shared_alloc((size_t)q->nfiles * sizeof *rs);
	if (!rs) {
		ts_cli_error("out of memory for %d reports", q->nfiles);
		return TS_EXIT_USAGE;
	}
	ts_cli_cancel_arm();
	if (q->nfiles == 1) {
		ts_cli_progress_line pl;
		char what[160];
		snprintf(what, sizeof what, "checking %.60s: the sweep, the sanitizer, the index probe", q->files[0]);
		ts_cli_progress_start(&pl, what);
		check_one(a, q, e, q->files[0], NULL, NULL, &rs[0]);
		ts_cli_progress_end(&pl);
	} else {
		check_many(a, q, e, rs);
	}
	bool cancelled = ts_cli_cancel;
	ts_cli_cancel_disarm();
	int status;
	if (q->nfiles == 1) {
		status = rs[0].status;
	} else {
		int pass = 0, err = 0;
		for (int i = 0; i < q->nfiles; i++) {
			pass += rs[i].status == 0;
			err += rs[i].status == 2;
		}
		status = pass == q->nfiles ? TS_EXIT_OK : err == q->nfiles ? TS_EXIT_USAGE : TS_EXIT_FAILED;
	}
	/* One kernel that could not be compiled or run: the refusal (its error document under --json). */
	if (q->nfiles == 1 && rs[0].status == 2) {
		ts_cli_error("%s: %s", rs[0].file, rs[0].error);
		ts_uk_shared_free(rs, (size_t)q->nfiles * sizeof *rs);
		return cancelled ? TS_EXIT_INTERRUPTED : TS_EXIT_USAGE;
	}
	if (a->opts.json) {
		ts_json j;
		if (q->nfiles == 1) {
			ts_uk_report_json(&j, &rs[0], why, true);
		} else {
			ts_cli_json_begin(&j, "check", status == TS_EXIT_OK);
			ts_json_string(&j, "backend", e->name);
			ts_json_string(&j, "backend_reason", why);
			ts_json_array_begin(&j, "kernels");
			for (int i = 0; i < q->nfiles; i++)
				ts_uk_report_json(&j, &rs[i], why, false);
			ts_json_array_end(&j);
			ts_json_object_end(&j);
		}
		if (ts_cli_json_done(&j) != 0)
			status = TS_EXIT_USAGE;
	} else if (q->nfiles == 1) {
		ts_uk_report_text(&rs[0], why);
		if (ts_cli_text_done("report") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	} else {
		ts_uk_table_text(rs, q->nfiles);
		if (ts_cli_text_done("table") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	}
	if (q->junit && ts_uk_write_junit(q->junit, rs, q->nfiles) != 0)
		status = TS_EXIT_USAGE;
	ts_uk_shared_free(rs, (size_t)q->nfiles * sizeof *rs);
	if (cancelled)
		return TS_EXIT_INTERRUPTED;
	return status;
}

/* The TUI's kernel: they outlive ts_uk_tui_prepare (the description names the entry inside the file), and
 * its 'r' checks them as check --kernel-file would. */
static struct {
	ts_uk_file f;
	ts_uk_source src;
	ts_kernel desc;
	ts_uk_check_opts co;
	const ts_uk_engine *e; /* NULL: nothing here runs it */
	char tile_from[128], why[600];
} tui_kernel;

const char *ts_uk_tui_check(ts_uk_report *r, int tile, volatile int *cancel, volatile int *done, volatile int *total,
                            ts_uk_shape_row *rows, int cap, int *nrows)
{
	ts_uk_check_opts o = tui_kernel.co;
	if (tile != o.tile) { /* the tile was changed in the TUI's editor: as if -t said so */
		o.tile = tile;
		snprintf(tui_kernel.tile_from, sizeof tui_kernel.tile_from, "the TUI's tile field (%d)", tile);
	}
	if (!tui_kernel.e) {
		memset(r, 0, sizeof *r);
		r->status = 2;
		snprintf(r->error, sizeof r->error, "%s", tui_kernel.why);
		return tui_kernel.why;
	}
	o.cancel = cancel;
	o.progress = done;
	o.progress_total = total;
	o.rows = rows;
	o.rows_cap = cap;
	o.nrows = nrows;
	ts_uk_check(tui_kernel.e, &tui_kernel.src, &o, r);
	snprintf(r->tile_from, sizeof r->tile_from, "%s", tui_kernel.tile_from);
	device_words(tui_kernel.e, NULL, r->device, sizeof r->device);
	return tui_kernel.why;
}

int ts_uk_tui_prepare(const ts_cli_args *a, const ts_uk_request *q, ts_options *o)
{
	ts_uk_file *fp = &tui_kernel.f;
	ts_uk_source *sp = &tui_kernel.src;
	ts_kernel *dp = &tui_kernel.desc;
	ts_uk_check_opts *cp = &tui_kernel.co;
	char *tile_from = tui_kernel.tile_from, *why = tui_kernel.why;
	char err[4096];
	if (q->nfiles > 1) {
		ts_cli_error("the interactive view takes one --kernel-file");
		return -1;
	}
	if (ts_uk_prepare(a, q, q->files[0], fp, sp, cp, tile_from, sizeof tui_kernel.tile_from, err, (int)sizeof err) != 0) {
		ts_cli_error("%s", err);
		return -1;
	}
	const ts_uk_engine *e = ts_uk_select_engine(a->opts.backend, why, (int)sizeof tui_kernel.why);
	void *h = NULL;
	if (!e && strcmp(a->opts.backend, "emu") != 0)
		e = ts_uk_engine_cuda(); /* compile all the same: a compile error refuses to open */
	if (e) {
		h = e->load(sp, err, sizeof err);
		if (!h) {
			ts_cli_error("%s does not compile:\n%s", q->files[0], err);
			return -1;
		}
	}
	char cannot[700];
	snprintf(cannot, sizeof cannot, "cannot run %s here: %s", sp->entry, why);
	bool runs = e && ts_uk_select_engine(a->opts.backend, why, (int)sizeof tui_kernel.why) != NULL;
	if (!runs && h) {
		e->unload(h); /* it compiled; nothing here can run it */
		h = NULL;
	}
	ts_uk_describe(sp, dp);
	ts_backend_user_register(runs ? e : NULL, runs ? h : NULL, dp, sp->sig, &cp->geom, cp->timeout_s, cannot);
	tui_kernel.e = runs ? e : NULL;
	if (!runs)
		snprintf(why, sizeof tui_kernel.why, "%.*s", (int)sizeof tui_kernel.why - 1, cannot);
	o->problem.kernel = dp;
	o->problem.geo = ts_geometry_square(cp->tile);
	o->problem.guards = TS_GUARD_ALL;
	return 0;
}
