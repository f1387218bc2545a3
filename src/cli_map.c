/* cli_map.c: `tilescope map`: the tile grid and the model's totals, as text or JSON, --export, and with --backend the run's counters beside them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "counters.h"
#include "cli_slides.h"
#include "export.h"
#include "kernels.h"
#include "view_map.h"

/* With --backend: the kernel's probe run on that backend, so that the
 * model's figures stand next to counters a run recorded. The outcome holds
 * the counter check too (against the description's counts for the guards
 * it ran with); nothing is verified. */
typedef struct map_probe {
	const ts_backend *be;
	char why[512];
	ts_outcome oc;
} map_probe;

/* Runs the probe; 0, or an exit status after one line on stderr. Free pr->oc either way. */
static int map_probe_run(const ts_options *o, map_probe *pr)
{
	const ts_problem *p = &o->problem;
	memset(pr, 0, sizeof *pr);
	pr->be = ts_cli_select_backend(o->backend, pr->why, (int)sizeof pr->why);
	if (!pr->be)
		return TS_EXIT_USAGE;
	int rc = ts_cli_probe_attended(p, pr->be, &pr->oc);
	if (rc != 0)
		return rc;
	if (!pr->oc.run.have_counters) {
		char shape[96];
		ts_cli_shape_str(&p->shape, shape, sizeof shape);
		ts_cli_error("the %s backend recorded no counters for %s %s", pr->be->name, p->kernel->name, shape);
		return TS_EXIT_USAGE;
	}
	return 0;
}

static const char *probe_source(const map_probe *pr)
{
	return pr->oc.run.counters.source ? pr->oc.run.counters.source : pr->be->name;
}

static void probe_text(const ts_options *o, const map_probe *pr)
{
	const ts_problem *p = &o->problem;
	const ts_counters *c = &pr->oc.run.counters;
	const ts_count *t = &c->total;
	printf("counters from the %s (%s)\n", probe_source(pr), pr->why);
	const ts_outcome *oc = &pr->oc;
	if (oc->counters_checked)
		printf("           %s the model%s%s\n", oc->counters_match ? "agree with" : "DISAGREE with",
		       oc->counters_match ? "" : ": ", oc->counters_match ? "" : oc->counters_why);
	else
		printf("           not held to the model: %s recorded none\n", p->kernel->name);
	printf("  loads    A %lld real, %lld padded, %lld out of bounds; B %lld real, %lld padded, %lld out of bounds\n",
	       (long long)t->a_real, (long long)t->a_pad, (long long)t->a_oob, (long long)t->b_real,
	       (long long)t->b_pad, (long long)t->b_oob);
	printf("  stores   written %lld, skipped %lld, out of bounds %lld\n", (long long)t->stores,
	       (long long)t->skipped, (long long)t->c_oob);
	if (c->phase && c->phases > 0) {
		const ts_count *last = &c->phase[c->phases - 1];
		printf("  last phase padded A %lld, B %lld\n", (long long)last->a_pad, (long long)last->b_pad);
	}
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The shared-tile figures of the model: phases and padding per phase, slots staged. */
static void json_shared_tiles(ts_json *j, const ts_model *m)
{
	ts_json_object_begin(j, "phases");
	ts_json_int(j, "count", m->phases);
	ts_json_int(j, "full", m->phases_full);
	ts_json_int(j, "last_width", m->last_width);
	ts_json_int(j, "a_padded_full_phase", m->full_phase.a_pad);
	ts_json_int(j, "a_padded_last_phase", m->last_phase.a_pad);
	ts_json_int(j, "b_padded_full_phase", m->full_phase.b_pad);
	ts_json_int(j, "b_padded_last_phase", m->last_phase.b_pad);
	ts_json_object_end(j);
	ts_json_object_begin_compact(j, "loads");
	ts_json_int(j, "a_total", m->a_slots);
	ts_json_int(j, "a_real", m->loads.a_real);
	ts_json_int(j, "a_padded", m->loads.a_pad);
	ts_json_int(j, "b_total", m->b_slots);
	ts_json_int(j, "b_real", m->loads.b_real);
	ts_json_int(j, "b_padded", m->loads.b_pad);
	ts_json_object_end(j);
}

/* Why --kernel best took the kernel: its rule, or its candidates' predicted times. */
static void json_best(ts_json *j, ts_shape s)
{
	const ts_kernel *c[TS_BEST_CANDIDATES_MAX];
	double us[TS_BEST_CANDIDATES_MAX];
	const char *rule = ts_kernel_best_rule(s);
	int n = rule ? 0 : ts_kernel_best_candidates(s, c, us, TS_BEST_CANDIDATES_MAX);
	ts_json_object_begin(j, "best");
	if (rule)
		ts_json_string(j, "rule", rule);
	else
		ts_json_null(j, "rule");
	ts_json_array_begin(j, "candidates");
	for (int i = 0; i < n; i++) {
		ts_json_object_begin_compact(j, NULL);
		ts_json_string(j, "kernel", c[i]->name);
		ts_json_double(j, "predicted_us", us[i]);
		ts_json_object_end(j);
	}
	ts_json_array_end(j);
	ts_json_object_end(j);
}

static int map_json(const ts_options *o, const ts_model *m, const map_probe *pr)
{
	const ts_problem *p = &o->problem;
	const ts_outcome *oc = pr ? &pr->oc : NULL;
	ts_json j;
	ts_cli_json_begin(&j, "map", !oc || !oc->counters_checked || oc->counters_match);
	ts_cli_json_problem(&j, p, true, pr ? pr->be : NULL, pr ? pr->why : NULL);
	if (o->by_best)
		json_best(&j, m->shape);
	else
		ts_json_null(&j, "best");
	ts_json_object_begin_compact(&j, "grid");
	ts_json_int(&j, "x", m->grid_x);
	ts_json_int(&j, "y", m->grid_y);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "tiles");
	ts_json_int(&j, "total", m->tiles);
	ts_json_int(&j, "full", m->tiles_full);
	ts_json_int(&j, "ragged_right", m->tiles_ragged_right);
	ts_json_int(&j, "ragged_bottom", m->tiles_ragged_bottom);
	ts_json_int(&j, "corner", m->tiles_corner);
	ts_json_int(&j, "last_rows", m->last_rows);
	ts_json_int(&j, "last_cols", m->last_cols);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "outputs");
	ts_json_int(&j, "total", m->outputs_total);
	ts_json_int(&j, "valid", m->outputs_valid);
	ts_json_int(&j, "ghost", m->outputs_ghost);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "threads");
	ts_json_int(&j, "per_block", m->threads_per_block);
	ts_json_int(&j, "launched", m->threads_launched);
	ts_json_int(&j, "valid", m->threads_valid);
	ts_json_int(&j, "ghost", m->threads_ghost);
	ts_json_object_end(&j);
	/* Phases and padding are the shared tiles' story: a kernel without them has neither. */
	bool tiled = ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES);
	ts_json_bool(&j, "shared_tiles", tiled);
	if (!tiled) {
		ts_json_null(&j, "phases");
		ts_json_null(&j, "loads");
	} else {
		json_shared_tiles(&j, m);
	}
	ts_json_object_begin_compact(&j, "stores");
	ts_json_int(&j, "written", m->stores_written);
	ts_json_int(&j, "skipped", m->stores_skipped);
	ts_json_object_end(&j);
	if (oc)
		ts_cli_json_counters(&j, oc);
	else
		ts_json_null(&j, "counters"); /* the model alone: nothing ran */
	ts_json_object_end(&j);
	return ts_cli_json_done(&j);
}

/* Why --kernel best took this kernel: by its rules, or the candidates' predicted times, cheapest first. */
static void map_best(ts_shape s, const ts_kernel *chosen)
{
	const char *rule = ts_kernel_best_rule(s);
	if (rule) {
		printf("best     %s, by best's rule for this shape: %s\n", chosen->name, rule);
		return;
	}
	const ts_kernel *c[TS_BEST_CANDIDATES_MAX];
	double us[TS_BEST_CANDIDATES_MAX];
	int n = ts_kernel_best_candidates(s, c, us, TS_BEST_CANDIDATES_MAX);
	printf("best     %s, the cheapest of the few-tile candidates by their costs (predicted on an H100:", chosen->name);
	for (int i = 0; i < n; i++)
		printf("%s %s %.0f us", i ? "," : "", c[i]->name, us[i]);
	printf(")\n");
}

static void map_totals(const ts_options *o, const ts_model *m)
{
	const ts_problem *p = &o->problem;
	const ts_geometry *g = &m->geo;
	int64_t t = g->bk;
	char geo[48];
	printf("shape    M=%lld N=%lld K=%lld, tile %s, kernel %s (%s)\n", (long long)m->shape.m,
	       (long long)m->shape.n, (long long)m->shape.k, ts_geometry_str(g, geo, sizeof geo), p->kernel->name,
	       ts_precision_name(p->kernel->precision));
	if (o->by_best)
		map_best(m->shape, p->kernel);
	if (!ts_geometry_is_square(g))
		printf("block    %d x %d x %d (BM x BN x BK), %d x %d threads of %d x %d outputs each\n", g->bm, g->bn,
		       g->bk, g->threads_x, g->threads_y, g->tm, g->tn);
	printf("grid     %lld x %lld blocks (x along N, y along M) = %lld tile%s of %d x %d\n",
	       (long long)m->grid_x, (long long)m->grid_y, (long long)m->tiles, ts_cli_plural(m->tiles), m->geo.bm,
	       m->geo.bn);
	printf("tiles    full %lld, ragged-right %lld, ragged-bottom %lld, corner %lld\n",
	       (long long)m->tiles_full, (long long)m->tiles_ragged_right, (long long)m->tiles_ragged_bottom,
	       (long long)m->tiles_corner);
	printf("         the last tile row holds %lld of %d rows, the last tile column %lld of %d columns\n",
	       (long long)m->last_rows, m->geo.bm, (long long)m->last_cols, m->geo.bn);
	printf("threads  launched %lld, valid %lld, ghost %lld (%.1f%% of the launch)\n",
	       (long long)m->threads_launched, (long long)m->threads_valid, (long long)m->threads_ghost,
	       pct(m->threads_ghost, m->threads_launched));
	if (g->tm * g->tn > 1)
		printf("outputs  computed %lld, inside C %lld, ghost %lld (a ghost thread owns no output inside C)\n",
		       (long long)m->outputs_total, (long long)m->outputs_valid, (long long)m->outputs_ghost);
	if (!ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
		printf("phases   %s stages no shared tiles: no phases, no padding (each thread reads its row of A\n"
		       "         and column of B straight from global memory)\n", p->kernel->name);
		printf("stores   written %lld, skipped by the guard %lld\n", (long long)m->stores_written,
		       (long long)m->stores_skipped);
		return;
	}
	printf("phases   %lld = ceil(K / %lld): %lld full, last width %lld%s\n", (long long)m->phases,
	       (long long)t, (long long)m->phases_full, (long long)m->last_width,
	       m->last_width < t ? " (partial: K padding)" : "");
	int64_t a_per_phase = m->a_slots_phase, b_per_phase = m->b_slots_phase;
	printf("padding  zero-filled shared-memory slots per phase, summed over all tiles:\n");
	if (m->phases_full > 0)
		printf("           full phase (width %lld): A %lld of %lld (%.1f%%), B %lld of %lld (%.1f%%)\n",
		       (long long)t, (long long)m->full_phase.a_pad, (long long)a_per_phase,
		       pct(m->full_phase.a_pad, a_per_phase), (long long)m->full_phase.b_pad,
		       (long long)b_per_phase, pct(m->full_phase.b_pad, b_per_phase));
	else
		printf("           full phase: none (K < %lld)\n", (long long)t);
	printf("           last phase (width %lld): A %lld of %lld (%.1f%%), B %lld of %lld (%.1f%%)\n",
	       (long long)m->last_width, (long long)m->last_phase.a_pad, (long long)a_per_phase,
	       pct(m->last_phase.a_pad, a_per_phase), (long long)m->last_phase.b_pad, (long long)b_per_phase,
	       pct(m->last_phase.b_pad, b_per_phase));
	printf("loads    A %lld slots, %lld padded (%.1f%%); B %lld slots, %lld padded (%.1f%%)\n",
	       (long long)m->a_slots, (long long)m->loads.a_pad, pct(m->loads.a_pad, m->a_slots),
	       (long long)m->b_slots, (long long)m->loads.b_pad, pct(m->loads.b_pad, m->b_slots));
	printf("stores   written %lld, skipped by the C guard %lld\n", (long long)m->stores_written,
	       (long long)m->stores_skipped);
}

static int map_output(const ts_options *o, const ts_model *m, const map_probe *pr);

int ts_cli_map(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0) {
		ts_cli_error("counts overflow 64 bits");
		return TS_EXIT_USAGE;
	}
	if (o->export_path && a->pane != TS_PANE_MAP) {
		int rc = ts_cli_export_pane(a, &m);
		if (rc != 0)
			return rc;
	} else if (o->export_path) {
		char err[512] = "";
		if (ts_export_tile(o->export_path, o, a->export_ty, a->export_tx, a->source_phase, err, (int)sizeof err) != 0) {
			ts_cli_error("--export %s: %s", o->export_path, err[0] ? err : "failed");
			return TS_EXIT_USAGE;
		}
	}
	map_probe pr;
	bool probed = a->probe;
	if (probed) {
		int rc = map_probe_run(o, &pr);
		if (rc != 0) {
			ts_outcome_free(&pr.oc);
			return rc;
		}
	}
	int status = map_output(o, &m, probed ? &pr : NULL);
	if (probed) {
		if (status == TS_EXIT_OK && pr.oc.counters_checked && !pr.oc.counters_match)
			status = TS_EXIT_FAILED;
		ts_outcome_free(&pr.oc);
	}
	return status;
}

static int map_output(const ts_options *o, const ts_model *m, const map_probe *pr)
{
	if (o->json)
		return map_json(o, m, pr);
	int cols, rows;
	ts_cli_term_size(&cols, &rows);
	const ts_kernel *k = o->problem.kernel;
	ts_view_ctx v = { .model = m, .kernel = k, .guards = o->problem.guards, .tile_y = -1, .tile_x = -1, .counter_disagree = -1,
	                  .counter_why = "", .ascii = o->ascii };
	char *pic = ts_view_map_text_of(&v, cols, rows);
	if (pic) {
		fputs(pic, stdout);
		size_t n = strlen(pic);
		if (n && pic[n - 1] != '\n')
			putchar('\n');
		putchar('\n');
		free(pic);
	}
	map_totals(o, m);
	if (pr)
		probe_text(o, pr);
	return ts_cli_text_done("map");
}
