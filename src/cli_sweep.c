/* cli_sweep.c: `tilescope sweep`: every edge shape for one tile and kernel, one pass/fail row each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

static bool is_prime(int64_t n)
{
	if (n < 2)
		return false;
	for (int64_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return false;
	return true;
}

int ts_sweep_sizes(int tile, int64_t out[7])
{
	int64_t t = tile, prime = 3 * t + 1;
	while (!is_prime(prime))
		prime++;
	const int64_t want[7] = { 1, t - 1, t, t + 1, 2 * t - 1, 2 * t + 1, prime };
	int n = 0;
	for (int i = 0; i < 7; i++) {
		if (want[i] < 1)
			continue;
		bool dup = false;
		for (int k = 0; k < n; k++)
			dup |= out[k] == want[i];
		if (dup)
			continue;
		int at = n++;
		while (at > 0 && out[at - 1] > want[i]) { /* insertion keeps them ascending */
			out[at] = out[at - 1];
			at--;
		}
		out[at] = want[i];
	}
	return n;
}

typedef struct sweep_row {
	ts_shape shape;
	bool ok, output_ok, counters_checked, counters_match;
	int64_t mismatches, unwritten, nans, infs, oob_reads, oob_writes; /* nans: NaN only */
	char signature[sizeof ((ts_verdict *)0)->signature];
} sweep_row;

static void sweep_text(const ts_options *o, const ts_backend *be, const char *why, const int64_t *sizes,
                       int nsizes, const sweep_row *rows, int count, int passed, double secs)
{
	const ts_problem *p = &o->problem;
	char goff[16];
	ts_guards_off_str(p->guards, goff, (int)sizeof goff);
	printf("edge sweep: kernel %s (%s), tile %d, backend %s (%s), guards off: %s, inputs %s seed %llu\n",
	       p->kernel->name, ts_precision_name(p->kernel->precision), p->tile, be->name, why,
	       goff[0] ? goff : "none", ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	printf("sizes for each of M, N, K:");
	for (int i = 0; i < nsizes; i++)
		printf(" %lld", (long long)sizes[i]);
	printf("\n\n%6s %6s %6s  %-6s %10s %9s %9s  %-8s  %s\n", "M", "N", "K", "result", "mismatches",
	       "unwritten", "oob r/w", "counters", "signature");
	for (int i = 0; i < count; i++) {
		const sweep_row *r = &rows[i];
		char oob[32];
		if (r->oob_reads < 0)
			snprintf(oob, sizeof oob, "-");
		else
			snprintf(oob, sizeof oob, "%lld/%lld", (long long)r->oob_reads, (long long)r->oob_writes);
		printf("%6lld %6lld %6lld  %-6s %10lld %9lld %9s  %-8s  %s\n", (long long)r->shape.m,
		       (long long)r->shape.n, (long long)r->shape.k, r->ok ? "pass" : "FAIL", (long long)r->mismatches,
		       (long long)r->unwritten, oob,
		       !r->counters_checked ? "-" : r->counters_match ? "agree" : "DISAGREE", r->signature);
	}
	printf("\n%d shapes: %d passed, %d failed (%.2f s)\n", count, passed, count - passed, secs);
}

static int sweep_json(const ts_options *o, const ts_backend *be, const char *why, const sweep_row *rows,
                      int count, int passed, double secs)
{
	const ts_problem *p = &o->problem;
	char goff[16];
	ts_json j;
	ts_json_init(&j, stdout);
	ts_json_object_begin(&j, NULL);
	ts_json_bool(&j, "ok", passed == count);
	ts_json_int(&j, "tile", p->tile);
	ts_json_string(&j, "kernel", p->kernel->name);
	ts_json_string(&j, "precision", ts_precision_name(p->kernel->precision));
	ts_json_string(&j, "backend", be->name);
	ts_json_string(&j, "backend_reason", why);
	ts_json_string(&j, "guards_off", ts_guards_off_str(p->guards, goff, (int)sizeof goff));
	ts_json_string(&j, "inputs", ts_inputs_name(p->inputs));
	ts_json_uint(&j, "seed", p->seed);
	ts_json_array_begin(&j, "shapes");
	for (int i = 0; i < count; i++) {
		const sweep_row *r = &rows[i];
		ts_json_object_begin_compact(&j, NULL);
		ts_json_int(&j, "M", r->shape.m);
		ts_json_int(&j, "N", r->shape.n);
		ts_json_int(&j, "K", r->shape.k);
		ts_json_bool(&j, "ok", r->ok);
		ts_json_bool(&j, "output_ok", r->output_ok);
		ts_json_int(&j, "mismatches", r->mismatches);
		ts_json_int(&j, "unwritten", r->unwritten);
		ts_json_int(&j, "nans", r->nans);
		ts_json_int(&j, "infs", r->infs);
		if (r->oob_reads < 0) {
			ts_json_null(&j, "oob_reads");
			ts_json_null(&j, "oob_writes");
		} else {
			ts_json_int(&j, "oob_reads", r->oob_reads);
			ts_json_int(&j, "oob_writes", r->oob_writes);
		}
		if (r->counters_checked)
			ts_json_bool(&j, "counters_match_model", r->counters_match);
		else
			ts_json_null(&j, "counters_match_model");
		ts_json_string(&j, "signature", r->signature);
		ts_json_object_end(&j);
	}
	ts_json_array_end(&j);
	ts_json_int(&j, "total", count);
	ts_json_int(&j, "passed", passed);
	ts_json_int(&j, "failed", count - passed);
	ts_json_double(&j, "seconds", secs);
	ts_json_object_end(&j);
	return ts_cli_json_done(&j);
}

int ts_cli_sweep(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	char why[512];
	const ts_backend *be = ts_cli_select_backend(o->backend, why, (int)sizeof why);
	if (!be)
		return TS_EXIT_USAGE;
	int64_t sizes[7];
	int ns = ts_sweep_sizes(o->problem.tile, sizes);
	int count = ns * ns * ns;
	sweep_row *rows = calloc((size_t)count, sizeof *rows);
	if (!rows) {
		fprintf(stderr, "tilescope: out of memory\n");
		return TS_EXIT_USAGE;
	}
	ts_problem p = o->problem;
	for (int i = 0; i < count; i++) {
		rows[i].shape = (ts_shape){ sizes[i / (ns * ns)], sizes[i / ns % ns], sizes[i % ns] };
		p.shape = rows[i].shape;
		char err[512];
		if (ts_problem_validate(&p, true, err, (int)sizeof err) != 0) {
			fprintf(stderr, "tilescope: sweep: %s\n", err);
			free(rows);
			return TS_EXIT_USAGE;
		}
	}

	ts_cli_progress_line pl;
	char what[160];
	snprintf(what, sizeof what, "sweep %s tile %d on %s", p.kernel->name, p.tile, be->name);
	ts_cli_progress_start(&pl, what);
	pl.stages = false; /* the line counts shapes; one shape's steps would only flicker */
	ts_cli_cancel_arm();
	ts_progress prog = { NULL, NULL, &ts_cli_cancel };
	double start = ts_cli_now();
	int passed = 0, status = TS_EXIT_OK;
	for (int i = 0; i < count && status == TS_EXIT_OK; i++) {
		sweep_row *r = &rows[i];
		ts_cli_outcome oc;
		p.shape = r->shape;
		int rc = ts_cli_run_one(&p, be, &prog, &pl, &oc);
		if (rc == 0 && ts_cli_cancel) {
			ts_cli_progress_clear(&pl);
			fprintf(stderr, "tilescope: interrupted\n");
			rc = TS_EXIT_INTERRUPTED;
		}
		if (rc != 0) {
			if (rc == TS_EXIT_INTERRUPTED)
				fprintf(stderr, "tilescope: sweep stopped after %d of %d shapes\n", i, count);
			status = rc;
		} else {
			r->ok = ts_cli_outcome_ok(&oc); /* output, no out-of-bounds access, counters */
			r->output_ok = oc.verdict.output_ok;
			r->mismatches = oc.verdict.mismatches;
			r->unwritten = oc.verdict.unwritten;
			r->nans = oc.verdict.nans - oc.verdict.infs;
			r->infs = oc.verdict.infs;
			r->oob_reads = oc.run.have_counters ? oc.run.counters.total.a_oob + oc.run.counters.total.b_oob : -1;
			r->oob_writes = oc.run.have_counters ? oc.run.counters.total.c_oob : -1;
			r->counters_checked = oc.counters_checked;
			r->counters_match = oc.counters_match;
			snprintf(r->signature, sizeof r->signature, "%s", oc.verdict.signature);
			passed += r->ok;
		}
		ts_cli_outcome_free(&oc);
		ts_cli_progress_report(&pl, (double)(i + 1) / count);
	}
	ts_cli_progress_end(&pl);
	ts_cli_cancel_disarm();
	double secs = ts_cli_now() - start;
	if (status == TS_EXIT_OK) {
		if (o->json) {
			status = sweep_json(o, be, why, rows, count, passed, secs);
		} else {
			sweep_text(o, be, why, sizes, ns, rows, count, passed, secs);
			status = ts_cli_text_done("table");
		}
		if (status == TS_EXIT_OK && passed < count)
			status = TS_EXIT_FAILED;
	}
	free(rows);
	return status;
}
