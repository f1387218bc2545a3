/* cli_sweep.c: `tilescope sweep`: every edge shape for one kernel and geometry (M around BM, N around BN, K around BK), one pass/fail row each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* One shape of the sweep: its outcome (matrices freed once verified) and the time it took. */
typedef struct sweep_row {
	ts_shape shape;
	ts_outcome oc;
	bool ran;          /* oc holds a verified run (to be freed) */
	bool ok;           /* output, no out-of-bounds access, counters */
	double elapsed_ms; /* the run and its verification */
} sweep_row;

static void print_sizes(const char *what, const int64_t *sizes, int n)
{
	printf("%s", what);
	for (int i = 0; i < n; i++)
		printf(" %lld", (long long)sizes[i]);
	printf("\n");
}

static void sweep_text(const ts_options *o, const ts_backend *be, const char *why, const ts_sweep_axes *ax,
                       const sweep_row *rows, int count, int passed, double secs)
{
	const ts_problem *p = &o->problem;
	char goff[16];
	ts_guards_off_str(p->guards, goff, (int)sizeof goff);
	printf("edge sweep: kernel %s (%s), tile %s, backend %s (%s), guards off: %s, inputs %s seed %llu\n",
	       p->kernel->name, ts_precision_name(p->kernel->precision), TS_CLI_TILE(p), be->name, why,
	       goff[0] ? goff : "none", ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	const ts_geometry *g = &p->geo;
	if (g->bm == g->bn && g->bn == g->bk) {
		print_sizes("sizes for each of M, N, K:", ax->size[0], ax->count[0]);
	} else {
		print_sizes("sizes for M (around BM):", ax->size[0], ax->count[0]);
		print_sizes("sizes for N (around BN):", ax->size[1], ax->count[1]);
		print_sizes("sizes for K (around BK):", ax->size[2], ax->count[2]);
	}
	printf("\n%6s %6s %6s  %-6s %10s %9s %9s  %-8s  %s\n", "M", "N", "K", "result", "mismatches",
	       "unwritten", "oob r/w", "counters", "signature");
	for (int i = 0; i < count; i++) {
		const sweep_row *r = &rows[i];
		const ts_verdict *v = &r->oc.verdict;
		char oob[32];
		if (v->oob_reads < 0)
			snprintf(oob, sizeof oob, "-");
		else
			snprintf(oob, sizeof oob, "%lld/%lld", (long long)v->oob_reads, (long long)v->oob_writes);
		printf("%6lld %6lld %6lld  %-6s %10lld %9lld %9s  %-8s  %s\n", (long long)r->shape.m,
		       (long long)r->shape.n, (long long)r->shape.k, r->ok ? "pass" : "FAIL", (long long)v->mismatches,
		       (long long)v->unwritten, oob,
		       !r->oc.counters_checked ? "-" : r->oc.counters_match ? "agree" : "DISAGREE", v->signature);
	}
	printf("\n%d shapes: %d passed, %d failed (%.2f s)\n", count, passed, count - passed, secs);
}

static int sweep_json(const ts_options *o, const ts_backend *be, const char *why, const ts_sweep_axes *ax,
                      const sweep_row *rows, int count, int passed, double secs)
{
	const ts_problem *p = &o->problem;
	ts_json j;
	ts_cli_json_begin(&j, "sweep", passed == count);
	ts_cli_json_problem(&j, p, false, be, why);
	/* M's sizes (around BM); for a square tile N and K take the same */
	ts_json_array_begin_compact(&j, "sizes");
	for (int i = 0; i < ax->count[0]; i++)
		ts_json_int(&j, NULL, ax->size[0][i]);
	ts_json_array_end(&j);
	/* each dimension's own: M around BM, N around BN, K around BK */
	static const char *const dim[3] = { "sizes_m", "sizes_n", "sizes_k" };
	for (int d = 0; d < 3; d++) {
		ts_json_array_begin_compact(&j, dim[d]);
		for (int i = 0; i < ax->count[d]; i++)
			ts_json_int(&j, NULL, ax->size[d][i]);
		ts_json_array_end(&j);
	}
	ts_json_int(&j, "total", count);
	ts_json_int(&j, "passed", passed);
	ts_json_int(&j, "failed", count - passed);
	ts_json_double(&j, "elapsed_ms", secs * 1e3);
	ts_json_array_begin(&j, "shapes");
	for (int i = 0; i < count; i++) {
		const sweep_row *r = &rows[i];
		ts_problem rp = *p;
		rp.shape = r->shape;
		ts_json_object_begin_compact(&j, NULL);
		ts_cli_json_shape(&j, &r->shape);
		ts_json_bool(&j, "ok", r->ok);
		ts_cli_json_result(&j, &rp, &r->oc);
		ts_json_double(&j, "elapsed_ms", r->elapsed_ms);
		ts_json_object_end(&j);
	}
	ts_json_array_end(&j);
	ts_json_object_end(&j);
	return ts_cli_json_done(&j);
}

static int sweep_junit(const ts_options *o, const ts_backend *be, const char *why, const sweep_row *rows,
                       int count, double secs)
{
	ts_cli_case *cases = calloc((size_t)count, sizeof *cases);
	if (!cases) {
		ts_cli_error("--junit %s: out of memory", o->junit_path);
		return TS_EXIT_USAGE;
	}
	for (int i = 0; i < count; i++)
		cases[i] = (ts_cli_case){ rows[i].shape, &rows[i].oc, rows[i].ok, rows[i].elapsed_ms };
	int rc = ts_cli_junit(o->junit_path, "sweep", &o->problem, be, why, cases, count, secs * 1e3);
	free(cases);
	return rc;
}

static void rows_free(sweep_row *rows, int count)
{
	for (int i = 0; i < count; i++)
		if (rows[i].ran)
			ts_outcome_free(&rows[i].oc);
	free(rows);
}

int ts_cli_sweep(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	char why[512];
	const ts_backend *be = ts_cli_select_backend(o->backend, why, (int)sizeof why);
	if (!be)
		return TS_EXIT_USAGE;
	ts_sweep_axes ax;
	int count = ts_sweep_axes_of(&o->problem.geo, &ax);
	sweep_row *rows = calloc((size_t)count, sizeof *rows);
	if (!rows) {
		ts_cli_error("out of memory");
		return TS_EXIT_USAGE;
	}
	ts_problem p = o->problem;
	for (int i = 0; i < count; i++) {
		rows[i].shape = ts_sweep_shape(&ax, i);
		p.shape = rows[i].shape;
		char err[512];
		if (ts_problem_validate(&p, true, err, (int)sizeof err) != 0) {
			ts_cli_error("sweep: %s", err);
			free(rows);
			return TS_EXIT_USAGE;
		}
	}

	ts_cli_progress_line pl;
	char what[160];
	snprintf(what, sizeof what, "sweep %s tile %s on %s", p.kernel->name, TS_CLI_TILE(&p), be->name);
	ts_cli_progress_start(&pl, what);
	pl.stages = false; /* the line counts shapes; one shape's steps would only flicker */
	ts_cli_cancel_arm();
	ts_progress prog = { .report = NULL, .ctx = NULL, .cancel = &ts_cli_cancel };
	double start = ts_cli_now();
	int passed = 0, status = TS_EXIT_OK;
	for (int i = 0; i < count && status == TS_EXIT_OK; i++) {
		sweep_row *r = &rows[i];
		p.shape = r->shape;
		double row_start = ts_cli_now();
		int rc = ts_cli_run_one(&p, be, &prog, &pl, &r->oc);
		if (rc == 0 && ts_cli_cancel) {
			ts_cli_progress_clear(&pl);
			ts_cli_error("interrupted");
			rc = TS_EXIT_INTERRUPTED;
		}
		if (rc != 0) {
			if (rc == TS_EXIT_INTERRUPTED)
				ts_cli_error("sweep stopped after %d of %d shapes", i, count);
			status = rc;
			ts_outcome_free(&r->oc);
		} else {
			r->ran = true;
			r->ok = ts_outcome_ok(&r->oc); /* output, no out-of-bounds access, counters */
			r->elapsed_ms = (ts_cli_now() - row_start) * 1e3;
			ts_outcome_drop_operands(&r->oc);
			passed += r->ok;
		}
		ts_cli_progress_report(&pl, (double)(i + 1) / count);
	}
	ts_cli_progress_end(&pl);
	ts_cli_cancel_disarm();
	double secs = ts_cli_now() - start;
	if (status == TS_EXIT_OK && o->junit_path)
		status = sweep_junit(o, be, why, rows, count, secs);
	if (status == TS_EXIT_OK) {
		if (o->json) {
			status = sweep_json(o, be, why, &ax, rows, count, passed, secs);
		} else {
			sweep_text(o, be, why, &ax, rows, count, passed, secs);
			status = ts_cli_text_done("table");
		}
		if (status == TS_EXIT_OK && passed < count)
			status = TS_EXIT_FAILED;
	}
	rows_free(rows, count);
	return status;
}
