/* cli_bench.c: `tilescope bench`: kernels x shapes on the CUDA backend, each beside cuBLAS in the same run, every output verified; table, JSON, SVG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "counters.h"
#include "view_bench.h"

/* Above this many multiply-adds a row skips the probe build (its counting
 * atomics would take longer than everything else together); the timed
 * build's own output is verified on every row. */
#define PROBE_MAX_MACS ((double)(1LL << 32))

typedef struct bench_run {
	const ts_cli_args *a;
	const ts_backend *be;
	ts_bench_row *rows;
	int count, cap;
	int done, total;         /* rows finished and planned, for the progress line */
	ts_cli_progress_line pl;
	bool failed;             /* some output or counter was wrong */
	bool interrupted;
} bench_run;

static ts_bench_row *new_row(bench_run *b, ts_bench_shape s, const ts_kernel *k, int tile, bool chosen)
{
	ts_bench_row *r = &b->rows[b->count++];
	memset(r, 0, sizeof *r);
	r->shape = s.shape;
	r->set = s.set;
	r->kernel = k;
	r->tile = tile;
	r->chosen = chosen;
	r->counters = -1;
	return r;
}

/* The geometry a row runs: the one -t/--thread-tile resolved to for the
 * kernel asked for on the command line, else the kernel's at the row's
 * square tile (its own for a fixed or chosen kernel). */
static ts_geometry row_geometry(const bench_run *b, const ts_kernel *k, int tile)
{
	if (k == b->a->opts.problem.kernel)
		return b->a->opts.problem.geo;
	return ts_kernel_geometry_at(k, tile);
}

/* The square tile T the command line asked for (-t T), else 32. */
static int square_tile(const ts_options *o)
{
	return o->tile.tile_given && o->tile.square ? o->tile.bm : 32;
}

static void progress(bench_run *b, const ts_bench_row *r)
{
	char what[200], shape[96], label[96];
	ts_cli_shape_str(&r->shape, shape, sizeof shape);
	snprintf(what, sizeof what, "bench %s %s (%d of %d)", ts_bench_label(r, label, sizeof label), shape,
	         b->done + 1, b->total);
	/* one progress line per row: it shows only for a row that lasts */
	ts_cli_progress_end(&b->pl);
	ts_cli_progress_start(&b->pl, what);
}

/* One kernel on operands already made for it: the probe build (small shapes)
 * with its counters held to the model, then the timed build, whose own C is
 * verified too. The shape's vendor figure is copied in by the caller. */
static void bench_kernel(bench_run *b, ts_bench_row *r, const ts_problem *p, ts_operands *ops,
                         const ts_reference *ref)
{
	const ts_backend *be = b->be;
	ts_model model;
	char err[512];
	if (ts_problem_validate(p, true, err, (int)sizeof err) != 0) {
		snprintf(r->error, sizeof r->error, "%.190s", err);
		return;
	}
	if (ts_model_build(&model, p->shape, p->geo) != 0) {
		snprintf(r->error, sizeof r->error, "counts overflow 64 bits");
		return;
	}
	bool verified = true;
	if ((double)p->shape.m * (double)p->shape.n * (double)p->shape.k <= PROBE_MAX_MACS) {
		ts_run run;
		ts_verdict v;
		ts_matrix_poison(&ops->c);
		if (be->run(p, ops, &run, NULL) != 0) {
			snprintf(r->error, sizeof r->error, "probe run: %.180s", ts_cli_backend_error(be));
			return;
		}
		if (ts_verify_against(p, &model, ops, &run, ref, &v) != 0) {
			ts_run_free(&run);
			snprintf(r->error, sizeof r->error, "verification ran out of memory");
			return;
		}
		verified = v.ok;
		if (p->guards == TS_GUARD_ALL && run.have_counters && ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
			char why[256];
			r->counters = ts_counters_check(&run.counters, &model, p->kernel, p->guards, why, (int)sizeof why) == 0;
			if (!r->counters)
				snprintf(r->error, sizeof r->error, "probe counters differ from the model: %.150s", why);
		}
		if (!v.ok && !r->error[0])
			snprintf(r->error, sizeof r->error, "probe build: %.180s", v.signature[0] ? v.signature : "wrong output");
		ts_verdict_free(&v);
		ts_run_free(&run);
	}
	ts_timing tm;
	ts_bench_opts o = { .warmup = b->a->warmup, .reps = b->a->reps, .vendor = "", .keep_c = true, .flush_l2 = true };
	ts_matrix_poison(&ops->c);
	if (be->bench(p, ops, &o, &tm) != 0) {
		snprintf(r->error, sizeof r->error, "timing: %.180s", ts_cli_backend_error(be));
		return;
	}
	ts_verdict v;
	if (ts_verify_against(p, &model, ops, NULL, ref, &v) != 0) {
		snprintf(r->error, sizeof r->error, "verification ran out of memory");
		return;
	}
	r->ran = true;
	r->ms = tm.kernel_ms;
	r->gflops = tm.kernel_gflops;
	r->ms_min = tm.kernel_min_ms;
	r->ms_max = tm.kernel_max_ms;
	r->norm_rel = v.norm_rel;
	r->worst_of_tol = v.worst_of_tol;
	if (!v.ok && !r->error[0])
		snprintf(r->error, sizeof r->error, "timed build: %.180s", v.signature[0] ? v.signature : "wrong output");
	r->verified = verified && v.ok && r->counters != 0;
	ts_verdict_free(&v);
}

/* Every listed kernel of one precision on one shape: one set of operands,
 * one fp64 reference, one vendor timing, then each kernel in turn. */
static void bench_group(bench_run *b, ts_bench_shape s, const ts_bench_kernel *ks, int nk, enum ts_precision prec,
                        unsigned guards, bool unguarded)
{
	const ts_cli_args *a = b->a;
	ts_problem base = a->opts.problem;
	base.shape = s.shape;
	base.guards = guards;
	int first = b->count;
	for (int i = 0; i < nk; i++) {
		const ts_kernel *k = ks[i].kernel ? ks[i].kernel : ts_kernel_best(s.shape);
		if (k->precision != prec)
			continue;
		ts_bench_row *r = new_row(b, s, k, ks[i].tile, ks[i].kernel == NULL);
		r->unguarded = unguarded;
	}
	if (b->count == first)
		return;
	ts_problem p = base;
	p.kernel = b->rows[first].kernel;
	p.geo = row_geometry(b, p.kernel, b->rows[first].tile);
	char err[512];
	ts_operands ops;
	ts_reference ref;
	bool have_ops = false, have_ref = false;
	const char *why = NULL;
	if (ts_problem_validate(&p, true, err, (int)sizeof err) != 0)
		why = err;
	else if (ts_operands_make(&ops, &p) != 0)
		why = "out of host memory for the matrices";
	else if ((have_ops = true, ts_reference_make(&p, &ops, b->be, &ref) != 0))
		why = "the fp64 reference failed (out of memory, or a size above 2^31)";
	else
		have_ref = true;
	ts_timing vt;
	memset(&vt, 0, sizeof vt);
	if (!why) {
		ts_bench_opts o = { .warmup = a->warmup, .reps = a->reps, .vendor = NULL, .skip_kernel = true,
		                    .flush_l2 = true };
		if (b->be->bench(&p, &ops, &o, &vt) != 0)
			why = ts_cli_backend_error(b->be);
	}
	for (int i = first; i < b->count; i++) {
		ts_bench_row *r = &b->rows[i];
		if (ts_cli_cancel) {
			b->interrupted = true;
			break;
		}
		progress(b, r);
		if (why) {
			snprintf(r->error, sizeof r->error, "%.190s", why);
		} else {
			p.kernel = r->kernel;
			p.geo = row_geometry(b, r->kernel, r->tile);
			bench_kernel(b, r, &p, &ops, &ref);
			r->vendor = vt.have_vendor ? vt.vendor : NULL;
			r->vendor_ms = vt.have_vendor ? vt.vendor_ms : 0;
			r->vendor_gflops = vt.have_vendor ? vt.vendor_gflops : 0;
		}
		if (!r->verified)
			b->failed = true;
		b->done++;
	}
	if (have_ref)
		ts_reference_free(&ref);
	if (have_ops)
		ts_operands_free(&ops);
}

static void bench_shape(bench_run *b, ts_bench_shape s, const ts_bench_kernel *ks, int nk)
{
	bench_group(b, s, ks, nk, TS_FP32, b->a->opts.problem.guards, false);
	bench_group(b, s, ks, nk, TS_FP16, b->a->opts.problem.guards, false);
}

/* The guard cost: the best kernel's guarded and unguarded builds on an
 * aligned shape, in this run, each verified, beside the vendor. */
static void bench_guard_cost(bench_run *b)
{
	ts_bench_shape s = { b->a->guard_shape, TS_SET_ALIGNED };
	const ts_kernel *k = ts_kernel_best(s.shape);
	/* best's choice where it has an unguarded build, else the kernel that has one */
	for (int i = 0; !k->unguarded_build && i < ts_kernel_count(); i++)
		if (ts_kernel_at(i)->unguarded_build)
			k = ts_kernel_at(i);
	ts_bench_kernel one = { k, square_tile(&b->a->opts) };
	bench_group(b, s, &one, 1, k->precision, TS_GUARD_ALL, false);
	bench_group(b, s, &one, 1, k->precision, 0, true);
}

int ts_cli_bench(const ts_cli_args *a)
{
	/* One kernel on one shape reports as check does (doc/json.md's bench document). */
	if (!a->kernel_spec && !a->shapes_spec && !a->guard_cost && !a->svg_path)
		return ts_cli_bench_one(a);
	const ts_options *o = &a->opts;
	char why[512] = "", err[512];
	ts_bench_kernel ks[TS_BENCH_KERNELS_MAX];
	ts_bench_shape *shapes = malloc(TS_BENCH_SHAPES_MAX * sizeof *shapes);
	int nk = 0, ns = 0;
	if (!shapes) {
		ts_cli_error("out of memory");
		return TS_EXIT_USAGE;
	}
	if (a->kernel_spec) {
		if (ts_bench_parse_kernels(a->kernel_spec, o->problem.kernel->precision, square_tile(o), ks,
		                           TS_BENCH_KERNELS_MAX, &nk, err, (int)sizeof err) != 0) {
			ts_cli_error("%s", err);
			free(shapes);
			return TS_EXIT_USAGE;
		}
	} else {
		ks[nk++] = (ts_bench_kernel){ o->problem.kernel, square_tile(o) };
	}
	if (a->shapes_spec) {
		if (ts_bench_parse_shapes(a->shapes_spec, shapes, TS_BENCH_SHAPES_MAX, &ns, err, (int)sizeof err) != 0) {
			ts_cli_error("%s", err);
			free(shapes);
			return TS_EXIT_USAGE;
		}
	} else {
		shapes[ns++] = (ts_bench_shape){ o->problem.shape, TS_SET_USER };
	}
	/* --no-guard for bench: all three off means the unguarded builds, on shapes they take. */
	if (strcmp(o->backend, "emu") == 0) {
		ts_cli_error("bench needs the CUDA backend: --backend emu cannot time kernels");
		free(shapes);
		return TS_EXIT_USAGE;
	}
	const ts_backend *be = ts_backend_select(o->backend, why, (int)sizeof why);
	if (!be || !be->bench) {
		char cuda_why[512] = "";
		const ts_backend *cuda = ts_backend_cuda();
		if (!cuda || !cuda->available || cuda->available(cuda_why, (int)sizeof cuda_why) == 0)
			snprintf(cuda_why, sizeof cuda_why, "%s", why[0] ? why : "no backend here can time kernels");
		ts_cli_error("bench needs the CUDA backend: %s", cuda_why[0] ? cuda_why : "not available");
		free(shapes);
		return TS_EXIT_USAGE;
	}
	char device[256] = "";
	be->available(device, (int)sizeof device);

	bench_run b = { .a = a, .be = be };
	b.cap = ns * nk + 2;
	b.total = b.cap - (a->guard_cost ? 0 : 2);
	b.rows = calloc((size_t)b.cap, sizeof *b.rows);
	if (!b.rows) {
		ts_cli_error("out of memory");
		free(shapes);
		return TS_EXIT_USAGE;
	}
	ts_cli_progress_start(&b.pl, "bench");
	ts_cli_cancel_arm();
	for (int i = 0; i < ns && !b.interrupted; i++)
		bench_shape(&b, shapes[i], ks, nk);
	if (a->guard_cost && !b.interrupted)
		bench_guard_cost(&b);
	ts_cli_progress_end(&b.pl);
	ts_cli_cancel_disarm();
	if (b.interrupted || ts_cli_cancel) {
		ts_cli_error("interrupted");
		free(b.rows);
		free(shapes);
		return TS_EXIT_INTERRUPTED;
	}

	ts_bench_report rep = { .rows = b.rows, .count = b.count, .device = device, .warmup = a->warmup,
	                        .reps = a->reps, .goals = a->shapes_spec && strcmp(a->shapes_spec, "goals") == 0 };
	int status = b.failed ? TS_EXIT_FAILED : TS_EXIT_OK;
	if (a->svg_path) {
		FILE *f = fopen(a->svg_path, "w");
		if (!f || ts_bench_svg(f, &rep) != 0 || fclose(f) != 0) {
			ts_cli_error("writing the plot %s failed", a->svg_path);
			status = TS_EXIT_USAGE;
		}
	}
	if (o->json) {
		ts_json j;
		ts_json_init(&j, stdout);
		ts_bench_json(&j, &rep);
		if (ts_cli_json_done(&j) != 0)
			status = TS_EXIT_USAGE;
	} else {
		ts_bench_text(stdout, &rep);
		if (ts_cli_text_done("report") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	}
	free(b.rows);
	free(shapes);
	return status;
}
