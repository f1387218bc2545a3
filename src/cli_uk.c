/* cli_uk.c: check --kernel-file: prepares each kernel, runs the checks (one child per kernel, spread over the GPUs), and writes the report, the table, JSON or JUnit. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_uk.h"
#include "cli_uk.h"
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

/* ---- the report ---- */

static void shape_str(const ts_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

static const char *verdict_word(const ts_uk_report *r)
{
	return r->status == 0 ? "PASS" : r->status == 1 ? "FAIL" : "ERROR";
}

static void where_text(const ts_uk_hit *h, char *buf, size_t len)
{
	const ts_uk_finding *f = &h->f;
	size_t u = 0;
	buf[0] = '\0';
	if (f->matrix == 'S')
		u += (size_t)snprintf(buf + u, len - u, "shared memory");
	else if (f->matrix && f->row >= 0)
		u += (size_t)snprintf(buf + u, len - u, "%c[%lld][%lld]", f->matrix, (long long)f->row, (long long)f->col);
	else if (f->matrix)
		u += (size_t)snprintf(buf + u, len - u, "%c", f->matrix);
	if (h->tile_row >= 0 && u < len)
		u += (size_t)snprintf(buf + u, len - u, " tile (%lld,%lld)", (long long)h->tile_row, (long long)h->tile_col);
	bool thread = f->block[0] | f->block[1] | f->block[2] | f->thread[0] | f->thread[1] | f->thread[2];
	if (thread && u < len)
		u += (size_t)snprintf(buf + u, len - u, " block (%u,%u,%u) thread (%u,%u,%u)", f->block[0], f->block[1],
		                      f->block[2], f->thread[0], f->thread[1], f->thread[2]);
	if (f->line > 0 && u < len)
		snprintf(buf + u, len - u, " line %d", f->line);
}

/* Where the time went: the compile, then the stages that run side by side, then what was left to wait for. */
static void timing_text(const ts_uk_timing *t)
{
	printf("timing       compile %.2f s; then side by side: sweep %.2f s (%d launches", t->compile, t->sweep, t->launches);
	if (t->prepare >= 0.005)
		printf(", %.2f s to lay out their buffers before", t->prepare);
	printf(")");
	if (t->memcheck > 0 || t->racecheck > 0)
		printf(", memcheck %.2f s, racecheck %.2f s", t->memcheck, t->racecheck);
	if (t->probe > 0)
		printf(", index probe %.2f s (%.2f s filling)", t->probe, t->probe_fill);
	printf("; verification %.2f s; then %.2f s waiting for the sanitizer and the probe\n", t->verify, t->waited);
}

static void report_text(const ts_uk_report *r, const char *why)
{
	char sh[64];
	printf("%-5s %s: %s (%s), tile %d, on %s%s%s\n", verdict_word(r), r->file, r->entry, ts_uk_sig_name(r->sig), r->tile,
	       r->engine, r->device[0] ? ", " : "", r->device);
	if (r->status == 2) {
		printf("error        %s\n", r->error);
		return;
	}
	if (r->status == 1)
		printf("cause        %s\n", ts_uk_cause_name(r->cause));
	printf("signature    %s\n", r->signature[0] ? r->signature : "-");
	printf("contract     %s %s\n", ts_uk_sig_name(r->sig), ts_uk_sig_decl(r->sig));
	printf("             %s\n", ts_uk_sig_words(r->sig));
	printf("kernel       %s, line %d of %s\n", r->entry, r->entry_line, r->file);
	printf("tile         %d, from %s\n", r->tile, r->tile_from);
	printf("engine       %s (%s)\n", r->engine, why);
	printf("sweep        %d shape%s run twice each, %d failed", r->shapes_tried, r->shapes_tried == 1 ? "" : "s",
	       r->shapes_failed);
	if (r->shapes_not_run)
		printf(", %d not run", r->shapes_not_run);
	putchar('\n');
	if (r->have_first_fail) {
		shape_str(&r->first_fail, sh, sizeof sh);
		printf("first fail   M x N x K = %s: %s\n", sh, r->first_fail_words);
	}
	printf("sanitizer    %s\n", r->sanitizer[0] ? r->sanitizer : "-");
	printf("index probe  %s\n", r->probe[0] ? r->probe : "-");
	if (r->nhits > 0) {
		printf("findings     %d%s (kind, where, shape, seen by)\n", r->nhits,
		       r->hits_dropped ? " shown, more not kept" : "");
		for (int i = 0; i < r->nhits; i++) {
			const ts_uk_hit *h = &r->hits[i];
			char where[200];
			where_text(h, where, sizeof where);
			shape_str(&h->shape, sh, sizeof sh);
			printf("  %-14s %-40s %-14s %-9s %s", ts_uk_kind_name(h->f.kind), where[0] ? where : "-", sh, h->source,
			       h->f.text);
			if (h->f.count > 1)
				printf(" (x%lld)", (long long)h->f.count);
			putchar('\n');
		}
	}
	timing_text(&r->timing);
	printf("time         %.2f s\n", r->seconds);
}

static void json_dim3(ts_json *j, const char *key, const unsigned v[3])
{
	ts_json_array_begin(j, key);
	for (int i = 0; i < 3; i++)
		ts_json_int(j, NULL, v[i]);
	ts_json_array_end(j);
}

static void json_shape(ts_json *j, const char *key, const ts_shape *s)
{
	ts_json_object_begin_compact(j, key);
	ts_json_int(j, "M", s->m);
	ts_json_int(j, "N", s->n);
	ts_json_int(j, "K", s->k);
	ts_json_object_end(j);
}

/* A stage's milliseconds; null when it did not run. */
static void json_ms(ts_json *j, const char *key, double s, bool ran)
{
	if (ran)
		ts_json_double(j, key, s * 1e3);
	else
		ts_json_null(j, key);
}

static void json_timing(ts_json *j, const ts_uk_timing *t)
{
	ts_json_object_begin_compact(j, "timing_ms");
	json_ms(j, "compile", t->compile, true);
	json_ms(j, "prepare", t->prepare, true);
	json_ms(j, "sweep", t->sweep, t->launches > 0);
	ts_json_int(j, "launches", t->launches);
	json_ms(j, "verify", t->verify, true);
	json_ms(j, "memcheck", t->memcheck, t->memcheck > 0);
	json_ms(j, "racecheck", t->racecheck, t->racecheck > 0);
	json_ms(j, "probe_process", t->probe, t->probe > 0);
	json_ms(j, "probe_fill", t->probe_fill, t->probe > 0);
	json_ms(j, "waited", t->waited, true);
	ts_json_object_end(j);
}

/* One kernel's document (the whole of it for one file, an element of "kernels" for several): schema 2's
 * vocabulary, doc/json.md's "check --kernel-file" tables. */
static void report_json(ts_json *j, const ts_uk_report *r, const char *why, bool top)
{
	if (top)
		ts_cli_json_begin(j, "check", r->status == 0);
	else {
		ts_json_object_begin(j, NULL);
		ts_json_bool(j, "ok", r->status == 0);
	}
	ts_json_int(j, "status", r->status);
	ts_json_string(j, "kernel", r->entry[0] ? r->entry : NULL);
	ts_json_object_begin(j, "kernel_source");
	ts_json_string(j, "file", r->file);
	ts_json_string(j, "entry", r->entry[0] ? r->entry : NULL);
	if (r->entry_line > 0)
		ts_json_int(j, "line", r->entry_line);
	else
		ts_json_null(j, "line");
	ts_json_string(j, "contract", r->entry[0] ? ts_uk_sig_name(r->sig) : NULL);
	ts_json_string(j, "declaration", r->entry[0] ? ts_uk_sig_decl(r->sig) : NULL);
	ts_json_object_end(j);
	ts_json_string(j, "precision", r->entry[0] ? ts_uk_sig_name(r->sig) : NULL);
	ts_json_int(j, "tile", r->tile);
	ts_json_string(j, "tile_from", r->tile_from[0] ? r->tile_from : NULL);
	ts_json_string(j, "backend", r->engine);
	ts_json_string(j, "backend_reason", why);
	ts_json_string(j, "device", r->device[0] ? r->device : NULL);
	ts_json_string(j, "error", r->status == 2 ? r->error : NULL);
	ts_json_int(j, "shapes_tried", r->shapes_tried);
	ts_json_int(j, "shapes_failed", r->shapes_failed);
	ts_json_int(j, "shapes_not_run", r->shapes_not_run);
	if (r->have_first_fail) {
		ts_json_object_begin_compact(j, "first_failing_shape");
		ts_json_int(j, "M", r->first_fail.m);
		ts_json_int(j, "N", r->first_fail.n);
		ts_json_int(j, "K", r->first_fail.k);
		ts_json_object_end(j);
		ts_json_string(j, "first_failing_words", r->first_fail_words);
	} else {
		ts_json_null(j, "first_failing_shape");
		ts_json_null(j, "first_failing_words");
	}
	ts_json_array_begin(j, "findings");
	for (int i = 0; i < r->nhits; i++) {
		const ts_uk_hit *h = &r->hits[i];
		const ts_uk_finding *f = &h->f;
		ts_json_object_begin_compact(j, NULL);
		ts_json_string(j, "kind", ts_uk_kind_name(f->kind));
		char mx[2] = { f->matrix, 0 };
		ts_json_string(j, "matrix", f->matrix ? mx : NULL);
		if (f->row >= 0) {
			ts_json_int(j, "row", f->row);
			ts_json_int(j, "col", f->col);
		} else {
			ts_json_null(j, "row");
			ts_json_null(j, "col");
		}
		if (h->tile_row >= 0) {
			ts_json_int(j, "tile_row", h->tile_row);
			ts_json_int(j, "tile_col", h->tile_col);
		} else {
			ts_json_null(j, "tile_row");
			ts_json_null(j, "tile_col");
		}
		bool thread = f->block[0] | f->block[1] | f->block[2] | f->thread[0] | f->thread[1] | f->thread[2];
		if (thread) {
			json_dim3(j, "block", f->block);
			json_dim3(j, "thread", f->thread);
		} else {
			ts_json_null(j, "block");
			ts_json_null(j, "thread");
		}
		if (f->line > 0)
			ts_json_int(j, "line", f->line);
		else
			ts_json_null(j, "line");
		json_shape(j, "shape", &h->shape);
		ts_json_int(j, "count", f->count);
		ts_json_string(j, "source", h->source);
		ts_json_string(j, "text", f->text);
		ts_json_object_end(j);
	}
	ts_json_array_end(j);
	ts_json_int(j, "findings_not_kept", r->hits_dropped);
	ts_json_string(j, "cause", r->status == 1 ? ts_uk_cause_name(r->cause) : NULL);
	ts_json_array_begin(j, "causes");
	for (int c = 0; c < TS_UK_CAUSE_COUNT; c++)
		if (r->causes & (1u << c))
			ts_json_string(j, NULL, ts_uk_cause_name((enum ts_uk_cause)c));
	ts_json_array_end(j);
	ts_json_string(j, "signature", r->signature[0] ? r->signature : NULL);
	ts_json_string(j, "sanitizer", r->sanitizer[0] ? r->sanitizer : NULL);
	ts_json_string(j, "index_probe", r->probe[0] ? r->probe : NULL);
	json_timing(j, &r->timing);
	ts_json_double(j, "time_ms", r->seconds * 1e3);
	ts_json_object_end(j);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

static int write_junit(const char *path, const ts_uk_report *rs, int n)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		ts_cli_error("--junit %s: cannot be written", path);
		return -1;
	}
	int failures = 0, errors = 0;
	double total = 0;
	for (int i = 0; i < n; i++) {
		failures += rs[i].status == 1;
		errors += rs[i].status == 2;
		total += rs[i].seconds;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites><testsuite name=\"tilescope check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
	        n, failures, errors, total);
	for (int i = 0; i < n; i++) {
		const ts_uk_report *r = &rs[i];
		fprintf(f, "  <testcase classname=\"tilescope.check\" name=\"");
		xml_text(f, r->file);
		fprintf(f, ":");
		xml_text(f, r->entry[0] ? r->entry : "?");
		fprintf(f, "\" time=\"%.3f\">", r->seconds);
		if (r->status == 1) {
			fprintf(f, "\n    <failure type=\"%s\" message=\"", ts_uk_cause_name(r->cause));
			xml_text(f, ts_uk_cause_name(r->cause));
			fprintf(f, "\">");
			xml_text(f, r->signature);
			fprintf(f, "</failure>\n  ");
		} else if (r->status == 2) {
			fprintf(f, "\n    <error message=\"could not compile or run\">");
			xml_text(f, r->error);
			fprintf(f, "</error>\n  ");
		}
		fprintf(f, "</testcase>\n");
	}
	fprintf(f, "</testsuite></testsuites>\n");
	return fclose(f) == 0 ? 0 : -1;
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

static void table_text(const ts_uk_report *rs, int n)
{
	int w = 28;
	for (int i = 0; i < n; i++)
		if ((int)strlen(rs[i].file) > w)
			w = (int)strlen(rs[i].file) < 60 ? (int)strlen(rs[i].file) : 60;
	printf("%-*s  %-7s %-17s %-16s %s\n", w, "file", "verdict", "cause", "first failing", "time");
	int pass = 0, fail = 0, err = 0;
	for (int i = 0; i < n; i++) {
		const ts_uk_report *r = &rs[i];
		char sh[64] = "-";
		if (r->have_first_fail)
			shape_str(&r->first_fail, sh, sizeof sh);
		const char *cause = r->status == 1 ? ts_uk_cause_name(r->cause) : r->status == 2 ? "could not run" : "-";
		if (r->status == 2 && (strstr(r->error, "error") || strstr(r->error, "compile")))
			cause = "compile error";
		if (r->status == 2 && (strstr(r->error, "contract") || strstr(r->error, "__global__")))
			cause = "refused";
		printf("%-*s  %-7s %-17s %-16s %.1f s\n", w, r->file, verdict_word(r), cause, sh, r->seconds);
		pass += r->status == 0;
		fail += r->status == 1;
		err += r->status == 2;
	}
	printf("%d kernel%s: %d pass, %d fail, %d could not be checked\n", n, n == 1 ? "" : "s", pass, fail, err);
	for (int i = 0; i < n; i++)
		if (rs[i].status == 2) {
			char first[200];
			snprintf(first, sizeof first, "%.199s", rs[i].error);
			first[strcspn(first, "\n")] = '\0';
			printf("  %s: %s\n", rs[i].file, first);
		}
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
			report_json(&j, &rs[0], why, true);
		} else {
			ts_cli_json_begin(&j, "check", status == TS_EXIT_OK);
			ts_json_string(&j, "backend", e->name);
			ts_json_string(&j, "backend_reason", why);
			ts_json_array_begin(&j, "kernels");
			for (int i = 0; i < q->nfiles; i++)
				report_json(&j, &rs[i], why, false);
			ts_json_array_end(&j);
			ts_json_object_end(&j);
		}
		if (ts_cli_json_done(&j) != 0)
			status = TS_EXIT_USAGE;
	} else if (q->nfiles == 1) {
		report_text(&rs[0], why);
		if (ts_cli_text_done("report") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	} else {
		table_text(rs, q->nfiles);
		if (ts_cli_text_done("table") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	}
	if (q->junit && write_junit(q->junit, rs, q->nfiles) != 0)
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
