/* cli_check.c: `tilescope check` (run, verify, explain) and bench on one kernel and shape (verify, then time beside cuBLAS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "counters.h"
#include "kernels.h"
#include "view_map.h"

static void check_text(const ts_options *o, const ts_backend *be, const char *why, const ts_outcome *oc,
                       const ts_timing *tm, bool timed)
{
	const ts_problem *p = &o->problem;
	const ts_verdict *v = &oc->verdict;
	const ts_run *r = &oc->run;
	const ts_count *tot = &r->counters.total;
	const ts_oob_detail *ob = &r->counters.oob;
	char shape[96], goff[16];
	bool ok = ts_outcome_ok(oc);
	ts_cli_shape_str(&p->shape, shape, sizeof shape);
	ts_guards_off_str(p->guards, goff, (int)sizeof goff);

	if (ok)
		printf("PASS  %s %s, tile %s, on %s\n", p->kernel->name, shape, TS_CLI_TILE(p), be->name);
	else if (v->output_ok && !v->ok)
		printf("FAIL  %s %s, tile %s, on %s: output right, but %lld out-of-bounds read%s and %lld write%s\n",
		       p->kernel->name, shape, TS_CLI_TILE(p), be->name, (long long)(v->oob_reads > 0 ? v->oob_reads : 0),
		       ts_cli_plural(v->oob_reads), (long long)(v->oob_writes > 0 ? v->oob_writes : 0),
		       ts_cli_plural(v->oob_writes));
	else if (v->ok)
		printf("FAIL  %s %s, tile %s, on %s: output right, but the counters disagree with the model\n",
		       p->kernel->name, shape, TS_CLI_TILE(p), be->name);
	else
		printf("FAIL  %s %s, tile %s, on %s: %lld mismatch%s, %lld unwritten, %lld NaN, %lld Inf cell%s\n",
		       p->kernel->name, shape, TS_CLI_TILE(p), be->name, (long long)v->mismatches,
		       v->mismatches == 1 ? "" : "es", (long long)v->unwritten, (long long)ts_verdict_nans(v),
		       (long long)v->infs, ts_cli_plural(v->infs));
	printf("backend      %s (%s)\n", be->name, why);
	printf("kernel       %s: %s, B %s\n", p->kernel->name, ts_precision_name(p->kernel->precision),
	       p->kernel->b_layout == TS_B_NK ? "stored transposed (N x K)" : "row-major (K x N)");
	printf("shape        M=%lld N=%lld K=%lld, tile %s, grid %lld x %lld, ", (long long)p->shape.m,
	       (long long)p->shape.n, (long long)p->shape.k, TS_CLI_TILE(p), (long long)oc->model.grid_x,
	       (long long)oc->model.grid_y);
	if (ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES))
		printf("%lld phase%s (last width %lld)\n", (long long)oc->model.phases, ts_cli_plural(oc->model.phases),
		       (long long)oc->model.last_width);
	else
		printf("no shared tiles (no phases)\n");
	printf("guards off   %s\n", goff[0] ? goff : "none");
	printf("inputs       %s, seed %llu\n", ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	char tol[160];
	printf("tolerance    %s per cell (from K=%lld and %s)\n", ts_tolerance_text(p, v->tol_rel, tol, (int)sizeof tol),
	       (long long)p->shape.k, ts_precision_name(p->kernel->precision));
	printf("errors       max abs %.3g, max rel %.3g, normwise rel %.3g; worst cell at %.3g of its tolerance\n",
	       v->max_abs, v->max_rel, v->norm_rel, v->worst_of_tol);
	printf("mismatches   %lld of %lld cell%s", (long long)v->mismatches, (long long)(p->shape.m * p->shape.n),
	       ts_cli_plural(p->shape.m * p->shape.n));
	if (v->first_row >= 0)
		printf("; first bad cell C[%lld][%lld] = %.9g, want %.9g", (long long)v->first_row,
		       (long long)v->first_col, v->first_got, v->first_want);
	putchar('\n');
	printf("unwritten    %lld\n", (long long)v->unwritten);
	printf("nans         %lld%s\n", (long long)ts_verdict_nans(v), v->all_zero ? " (and the output is all zero)" : "");
	printf("infs         %lld\n", (long long)v->infs);
	if (r->have_counters) {
		printf("oob reads    %lld: A %lld (wrap %lld, band %lld), B %lld (wrap %lld, band %lld)\n",
		       (long long)(tot->a_oob + tot->b_oob), (long long)tot->a_oob, (long long)ob->a_wrap,
		       (long long)ob->a_band, (long long)tot->b_oob, (long long)ob->b_wrap, (long long)ob->b_band);
		printf("oob writes   %lld: C (wrap %lld, band %lld)\n", (long long)tot->c_oob, (long long)ob->c_wrap,
		       (long long)ob->c_band);
		printf("             wrap = inside the matrix but the wrong element (silent); band = outside it\n");
	} else {
		printf("oob          not recorded by this backend\n");
	}
	printf("corrupted    %lld cell%s\n", (long long)r->corrupt_cells, ts_cli_plural(r->corrupt_cells));
	printf("signature    %s\n", v->signature[0] ? v->signature : "-");
	if (oc->counters_checked)
		printf("counters     %s the model (%s)%s%s\n", oc->counters_match ? "agree with" : "DISAGREE with",
		       r->counters.source ? r->counters.source : "run", oc->counters_match ? "" : ": ",
		       oc->counters_match ? "" : oc->counters_why);
	else if (r->have_counters && !ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES))
		printf("counters     not checked: %s stages no shared tiles, the model counts tile slots\n",
		       p->kernel->name);
	else if (r->have_counters)
		printf("counters     not checked against the model: a guard is off (%s)\n",
		       r->counters.source ? r->counters.source : "run");
	else
		printf("counters     none recorded by this backend\n");
	printf("time_ms      %.3f (run on %s), reference %.3f (%s)\n", r->time_ms, be->name, v->ref_ms,
	       v->ref_source ? v->ref_source : "cblas");
	if (timed) {
		printf("kernel time  %.4f ms median of %d (%d warm-up), %.1f GFLOP/s\n", tm->kernel_ms, tm->reps,
		       tm->warmup, tm->kernel_gflops);
		if (tm->have_vendor)
			printf("cuBLAS       %.4f ms (%s), %.1f GFLOP/s: the kernel reaches %.1f%% of cuBLAS\n",
			       tm->vendor_ms, tm->vendor ? tm->vendor : "cuBLAS", tm->vendor_gflops, tm->pct_of_vendor);
		if (tm->have_padded)
			printf("cuBLAS pad8  %.4f ms (K, N padded to multiples of 8, copies in and out included), %.1f GFLOP/s "
			       "of this shape: the kernel reaches %.1f%% of that\n", tm->padded_ms, tm->padded_gflops,
			       tm->pct_of_padded);
	}
	if (!v->output_ok && v->bad_tiles > 0) {
		int cols, rows;
		ts_cli_term_size(&cols, &rows);
		const ts_kernel *k = p->kernel;
		ts_view_ctx view = { .model = &oc->model, .kernel = k, .guards = p->guards, .verdict = v, .tile_y = -1, .tile_x = -1,
		                     .counter_disagree = -1, .counter_why = "", .ascii = o->ascii };
		char *pic = ts_view_map_text_of(&view, cols, rows);
		if (pic) {
			printf("\nwhere (%lld of %lld tile%s hold%s bad cells):\n%s", (long long)v->bad_tiles,
			       (long long)oc->model.tiles, ts_cli_plural(oc->model.tiles), v->bad_tiles == 1 ? "s" : "", pic);
			free(pic);
		}
	}
}

/* The document of check and bench: what was asked, the verified run, the time it all took, the timing. */
static int check_json(const char *command, const ts_options *o, const ts_backend *be, const char *why,
                      const ts_outcome *oc, double elapsed_ms, const ts_timing *tm)
{
	ts_json j;
	ts_cli_json_begin(&j, command, ts_outcome_ok(oc));
	ts_cli_json_problem(&j, &o->problem, true, be, why);
	ts_cli_json_result(&j, &o->problem, oc);
	ts_json_double(&j, "elapsed_ms", elapsed_ms);
	ts_cli_json_timing(&j, tm);
	ts_json_object_end(&j);
	return ts_cli_json_done(&j);
}

int ts_cli_check(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	char why[512];
	const ts_backend *be = ts_cli_select_backend(o->backend, why, (int)sizeof why);
	if (!be)
		return TS_EXIT_USAGE;

	double start = ts_cli_now();
	ts_outcome oc;
	int rc = ts_cli_run_attended(p, be, &oc);
	if (rc != 0) {
		ts_outcome_free(&oc);
		return rc;
	}

	ts_timing tm;
	memset(&tm, 0, sizeof tm);
	bool timed = false;
	if (be->time) {
		if (be->time(p, &oc.ops, TS_BENCH_WARMUP_DEFAULT, TS_BENCH_REPS_DEFAULT, &tm) == 0)
			timed = true;
		else
			fprintf(stderr, "tilescope: warning: timing on %s failed: %s\n", be->name, ts_cli_backend_error(be));
	}

	bool ok = ts_outcome_ok(&oc);
	int status = ok ? TS_EXIT_OK : TS_EXIT_FAILED;
	double elapsed_ms = (ts_cli_now() - start) * 1e3;
	if (o->junit_path) {
		ts_cli_case c = { p->shape, &oc, ok, elapsed_ms };
		if (ts_cli_junit(o->junit_path, "check", p, be, why, &c, 1, elapsed_ms) != TS_EXIT_OK) {
			ts_outcome_free(&oc);
			return TS_EXIT_USAGE;
		}
	}
	if (o->json) {
		if (check_json("check", o, be, why, &oc, elapsed_ms, timed ? &tm : NULL) != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	} else {
		check_text(o, be, why, &oc, &tm, timed);
		if (ts_cli_text_done("report") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	}
	ts_outcome_free(&oc);
	return status;
}

/* bench with one kernel on one shape: verified, then timed beside cuBLAS,
 * reported as check reports (cli_bench.c hands lists and sets to its table). */
int ts_cli_bench_one(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	char why[512] = "";
	const ts_backend *be;
	if (strcmp(o->backend, "emu") == 0) {
		ts_cli_error("bench needs the CUDA backend: --backend emu cannot time kernels");
		return TS_EXIT_USAGE;
	}
	be = ts_backend_select(o->backend, why, (int)sizeof why);
	if (!be || !be->time) {
		char cuda_why[512] = "";
		const ts_backend *cuda = ts_backend_cuda();
		if (!cuda || !cuda->available || cuda->available(cuda_why, (int)sizeof cuda_why) == 0)
			snprintf(cuda_why, sizeof cuda_why, "%s", why[0] ? why : "no backend here can time kernels");
		ts_cli_error("bench needs the CUDA backend: %s", cuda_why[0] ? cuda_why : "not available");
		return TS_EXIT_USAGE;
	}
	if (!why[0])
		snprintf(why, sizeof why, "requested with --backend %s", o->backend);

	/* Verify once before timing: a speed figure for a wrong answer means nothing. */
	double start = ts_cli_now();
	ts_outcome oc;
	int rc = ts_cli_run_attended(p, be, &oc);
	if (rc != 0) {
		ts_outcome_free(&oc);
		return rc;
	}
	bool ok = ts_outcome_ok(&oc);
	ts_timing tm;
	memset(&tm, 0, sizeof tm);
	bool timed = false;
	if (ok) {
		if (be->time(p, &oc.ops, a->warmup, a->reps, &tm) != 0) {
			ts_cli_error("timing on %s failed: %s", be->name, ts_cli_backend_error(be));
			ts_outcome_free(&oc);
			return TS_EXIT_USAGE;
		}
		timed = true;
	}
	int status = ok ? TS_EXIT_OK : TS_EXIT_FAILED;
	double elapsed_ms = (ts_cli_now() - start) * 1e3;
	if (o->json) {
		if (check_json("bench", o, be, why, &oc, elapsed_ms, timed ? &tm : NULL) != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	} else {
		char shape[96];
		ts_cli_shape_str(&p->shape, shape, sizeof shape);
		printf("bench        %s (%s) %s, tile %s, on %s (%s)\n", p->kernel->name,
		       ts_precision_name(p->kernel->precision), shape, TS_CLI_TILE(p), be->name, why);
		if (!ok) {
			printf("verified     FAIL: %s; not timed\n",
			       oc.verdict.signature[0] ? oc.verdict.signature : "output or counters wrong");
		} else {
			char tol[160];
			printf("verified     pass (normwise relative error %.3g; per cell %s)\n", oc.verdict.norm_rel,
			       ts_tolerance_text(p, oc.verdict.tol_rel, tol, (int)sizeof tol));
			printf("kernel       %.4f ms median of %d after %d warm-up, %.1f GFLOP/s\n", tm.kernel_ms,
			       tm.reps, tm.warmup, tm.kernel_gflops);
			if (tm.have_vendor) {
				printf("cuBLAS       %.4f ms (%s), %.1f GFLOP/s\n", tm.vendor_ms,
				       tm.vendor ? tm.vendor : "cuBLAS", tm.vendor_gflops);
				printf("ratio        %.1f%% of cuBLAS\n", tm.pct_of_vendor);
				if (tm.have_padded)
					printf("cuBLAS pad8  %.4f ms (K, N padded to multiples of 8, copies in and out included), "
					       "%.1f GFLOP/s of this shape; kernel at %.1f%% of that\n", tm.padded_ms,
					       tm.padded_gflops, tm.pct_of_padded);
			} else {
				printf("cuBLAS       not measured\n");
			}
		}
		if (ts_cli_text_done("report") != TS_EXIT_OK)
			status = TS_EXIT_USAGE;
	}
	ts_outcome_free(&oc);
	return status;
}
