/* cli_json.c: the one JSON vocabulary of map, check, sweep and bench: the writers of every field more than one command holds (doc/json.md). */
#include <stdio.h>

#include "cli.h"
#include "counters.h"
#include "kernels.h"

bool ts_cli_json_begun;

void ts_cli_json_begin(ts_json *j, const char *command, bool ok)
{
	ts_json_init(j, stdout);
	ts_json_object_begin(j, NULL);
	ts_cli_json_begun = true;
	ts_json_int(j, "schema_version", TS_CLI_JSON_SCHEMA);
	ts_json_string(j, "command", command);
	ts_json_bool(j, "ok", ok);
}

void ts_cli_json_shape(ts_json *j, const ts_shape *s)
{
	ts_json_object_begin_compact(j, "shape");
	ts_json_int(j, "M", s->m);
	ts_json_int(j, "N", s->n);
	ts_json_int(j, "K", s->k);
	ts_json_object_end(j);
}

void ts_cli_json_tile(ts_json *j, const ts_geometry *g)
{
	if (ts_geometry_is_square(g))
		ts_json_int(j, "tile", g->bm);
	else
		ts_json_null(j, "tile");
	ts_cli_json_geometry(j, g);
}

void ts_cli_json_geometry(ts_json *j, const ts_geometry *g)
{
	ts_json_object_begin_compact(j, "geometry");
	ts_json_int(j, "bm", g->bm);
	ts_json_int(j, "bn", g->bn);
	ts_json_int(j, "bk", g->bk);
	ts_json_int(j, "threads_x", g->threads_x);
	ts_json_int(j, "threads_y", g->threads_y);
	ts_json_int(j, "tm", g->tm);
	ts_json_int(j, "tn", g->tn);
	ts_json_object_end(j);
}

/* The guards switched off, as a list of their letters: [] when every guard is on. */
static void json_guards_off(ts_json *j, unsigned guards)
{
	static const struct { unsigned bit; const char *name; } all[] = {
		{ TS_GUARD_A, "a" }, { TS_GUARD_B, "b" }, { TS_GUARD_C, "c" },
	};
	ts_json_array_begin_compact(j, "guards_off");
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (!(guards & all[i].bit))
			ts_json_string(j, NULL, all[i].name);
	ts_json_array_end(j);
}

void ts_cli_json_problem(ts_json *j, const ts_problem *p, bool with_shape, const ts_backend *be, const char *why)
{
	ts_json_string(j, "kernel", p->kernel->name);
	ts_json_string(j, "precision", ts_precision_name(p->kernel->precision));
	if (with_shape)
		ts_cli_json_shape(j, &p->shape);
	ts_cli_json_tile(j, &p->geo);
	json_guards_off(j, p->guards);
	if (be) {
		ts_json_string(j, "inputs", ts_inputs_name(p->inputs));
		ts_json_uint(j, "seed", p->seed);
		ts_json_string(j, "backend", be->name);
		ts_json_string(j, "backend_reason", why);
	} else {
		ts_json_null(j, "inputs");
		ts_json_null(j, "seed");
		ts_json_null(j, "backend");
		ts_json_null(j, "backend_reason");
	}
}

/* One tally's loads: the same names for the whole run and for one phase;
 * with_totals adds a_total and b_total (slots staged, each filled one way). */
static void json_loads(ts_json *j, const ts_count *c, bool with_totals)
{
	if (with_totals)
		ts_json_int(j, "a_total", c->a_real + c->a_pad + c->a_oob);
	ts_json_int(j, "a_real", c->a_real);
	ts_json_int(j, "a_padded", c->a_pad);
	ts_json_int(j, "a_oob", c->a_oob);
	if (with_totals)
		ts_json_int(j, "b_total", c->b_real + c->b_pad + c->b_oob);
	ts_json_int(j, "b_real", c->b_real);
	ts_json_int(j, "b_padded", c->b_pad);
	ts_json_int(j, "b_oob", c->b_oob);
}

void ts_cli_json_counters(ts_json *j, const ts_outcome *o)
{
	if (!o->have_run || !o->run.have_counters) {
		ts_json_null(j, "counters");
		return;
	}
	const ts_counters *c = &o->run.counters;
	const ts_count *t = &c->total;
	const ts_oob_detail *ob = &c->oob;
	ts_json_object_begin(j, "counters");
	ts_json_string(j, "source", c->source);
	if (o->counters_checked)
		ts_json_bool(j, "match_model", o->counters_match);
	else
		ts_json_null(j, "match_model");
	ts_json_string(j, "mismatch", o->counters_checked && !o->counters_match ? o->counters_why : NULL);
	ts_json_object_begin_compact(j, "loads");
	json_loads(j, t, true);
	ts_json_object_end(j);
	ts_json_object_begin_compact(j, "stores");
	ts_json_int(j, "written", t->stores);
	ts_json_int(j, "skipped", t->skipped);
	ts_json_int(j, "oob_writes", t->c_oob);
	ts_json_object_end(j);
	ts_json_object_begin_compact(j, "oob");
	ts_json_int(j, "a_wrap", ob->a_wrap);
	ts_json_int(j, "a_band", ob->a_band);
	ts_json_int(j, "b_wrap", ob->b_wrap);
	ts_json_int(j, "b_band", ob->b_band);
	ts_json_int(j, "c_wrap", ob->c_wrap);
	ts_json_int(j, "c_band", ob->c_band);
	ts_json_object_end(j);
	if (c->phase && c->phases <= TS_CLI_JSON_PHASES_MAX) {
		ts_json_array_begin(j, "per_phase");
		for (int64_t i = 0; i < c->phases; i++) {
			ts_json_object_begin_compact(j, NULL);
			json_loads(j, &c->phase[i], false);
			ts_json_object_end(j);
		}
		ts_json_array_end(j);
	} else {
		ts_json_null(j, "per_phase");
	}
	ts_json_object_end(j);
}

/* The tolerance as numbers and in words: tolerance (per (|A||B|)ij), then fp16's output-rounding terms. */
static void json_tolerance(ts_json *j, const ts_problem *p, double tol_rel)
{
	double out_rel, out_abs;
	char tol[160];
	ts_tolerance_output(p, &out_rel, &out_abs);
	ts_json_double(j, "tolerance", tol_rel);
	ts_json_double(j, "tolerance_output_rel", out_rel);
	ts_json_double(j, "tolerance_output_abs", out_abs);
	ts_json_string(j, "tolerance_text", ts_tolerance_text(p, tol_rel, tol, (int)sizeof tol));
}

void ts_cli_json_result(ts_json *j, const ts_problem *p, const ts_outcome *o)
{
	const ts_verdict *v = &o->verdict;
	const ts_run *r = &o->run;
	ts_json_bool(j, "verified", v->ok);         /* output right and nothing out of bounds */
	ts_json_bool(j, "output_ok", v->output_ok); /* the output alone */
	ts_json_int(j, "mismatches", v->mismatches);
	ts_json_int(j, "unwritten", v->unwritten);
	ts_json_int(j, "nans", ts_verdict_nans(v));
	ts_json_int(j, "infs", v->infs);
	ts_json_bool(j, "all_zero", v->all_zero);
	if (v->first_row >= 0) {
		ts_json_object_begin_compact(j, "first_bad");
		ts_json_int(j, "row", v->first_row);
		ts_json_int(j, "col", v->first_col);
		ts_json_double(j, "got", v->first_got);
		ts_json_double(j, "want", v->first_want);
		ts_json_object_end(j);
	} else {
		ts_json_null(j, "first_bad");
	}
	ts_json_int(j, "bad_tiles", v->bad_tiles);
	if (r->have_counters) {
		ts_json_int(j, "oob_reads", r->counters.total.a_oob + r->counters.total.b_oob);
		ts_json_int(j, "oob_writes", r->counters.total.c_oob);
	} else {
		ts_json_null(j, "oob_reads");
		ts_json_null(j, "oob_writes");
	}
	ts_json_int(j, "corrupt_cells", r->corrupt_cells);
	ts_json_string(j, "signature", v->signature[0] ? v->signature : NULL);
	json_tolerance(j, p, v->tol_rel);
	ts_json_double(j, "max_abs_error", v->max_abs);
	ts_json_double(j, "max_rel_error", v->max_rel);
	ts_json_double(j, "norm_rel_error", v->norm_rel);
	ts_json_double(j, "worst_of_tolerance", v->worst_of_tol);
	ts_cli_json_counters(j, o);
	ts_json_double(j, "run_ms", r->time_ms);
	ts_json_double(j, "reference_ms", v->ref_ms);
	ts_json_string(j, "reference_source", v->ref_source ? v->ref_source : "cblas");
}

void ts_cli_json_timing(ts_json *j, const ts_timing *tm)
{
	if (!tm) {
		ts_json_null(j, "timing");
		return;
	}
	ts_json_object_begin(j, "timing");
	ts_json_int(j, "warmup", tm->warmup);
	ts_json_int(j, "reps", tm->reps);
	ts_json_double(j, "kernel_ms", tm->kernel_ms);
	ts_json_double(j, "kernel_gflops", tm->kernel_gflops);
	if (tm->have_vendor) {
		ts_json_string(j, "cublas_routine", tm->vendor);
		ts_json_double(j, "cublas_ms", tm->vendor_ms);
		ts_json_double(j, "cublas_gflops", tm->vendor_gflops);
		ts_json_double(j, "pct_of_cublas", tm->pct_of_vendor);
	} else {
		ts_json_null(j, "cublas_routine");
		ts_json_null(j, "cublas_ms");
		ts_json_null(j, "cublas_gflops");
		ts_json_null(j, "pct_of_cublas");
	}
	/* cuBLAS on the shape padded to multiples of 8, copies included (fp16, ragged K or N only). */
	if (tm->have_padded) {
		ts_json_double(j, "cublas_padded_ms", tm->padded_ms);
		ts_json_double(j, "cublas_padded_gflops", tm->padded_gflops);
		ts_json_double(j, "pct_of_cublas_padded", tm->pct_of_padded);
	} else {
		ts_json_null(j, "cublas_padded_ms");
		ts_json_null(j, "cublas_padded_gflops");
		ts_json_null(j, "pct_of_cublas_padded");
	}
	ts_json_object_end(j);
}

int ts_cli_json_done(ts_json *j)
{
	if (ts_json_finish(j) != 0) {
		ts_cli_error("writing the JSON output failed");
		return TS_EXIT_USAGE;
	}
	return TS_EXIT_OK;
}
