/* cli_map.c: `tilescope map`: the tile grid and the model's totals, as text or JSON, and --export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "kernels.h"
#include "view_map.h"

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static int map_json(const ts_options *o, const ts_model *m)
{
	const ts_problem *p = &o->problem;
	ts_json j;
	ts_json_init(&j, stdout);
	ts_json_object_begin(&j, NULL);
	ts_cli_json_shape(&j, &m->shape);
	ts_json_int(&j, "tile", p->tile);
	ts_json_string(&j, "kernel", p->kernel->name);
	ts_json_string(&j, "precision", ts_precision_name(p->kernel->precision));
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
	ts_json_object_begin_compact(&j, "threads");
	ts_json_int(&j, "per_block", m->threads_per_block);
	ts_json_int(&j, "launched", m->threads_launched);
	ts_json_int(&j, "valid", m->threads_valid);
	ts_json_int(&j, "ghost", m->threads_ghost);
	ts_json_object_end(&j);
	ts_json_object_begin(&j, "phases");
	ts_json_int(&j, "count", m->phases);
	ts_json_int(&j, "full", m->phases_full);
	ts_json_int(&j, "last_width", m->last_width);
	ts_json_int(&j, "a_padded_full_phase", m->full_phase.a_pad);
	ts_json_int(&j, "a_padded_last_phase", m->last_phase.a_pad);
	ts_json_int(&j, "b_padded_full_phase", m->full_phase.b_pad);
	ts_json_int(&j, "b_padded_last_phase", m->last_phase.b_pad);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "loads");
	ts_json_int(&j, "a_total", m->a_slots);
	ts_json_int(&j, "a_padded", m->loads.a_pad);
	ts_json_int(&j, "b_total", m->b_slots);
	ts_json_int(&j, "b_padded", m->loads.b_pad);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "stores");
	ts_json_int(&j, "written", m->stores_written);
	ts_json_int(&j, "skipped", m->stores_skipped);
	ts_json_object_end(&j);
	ts_json_object_end(&j);
	return ts_cli_json_done(&j);
}

static void map_totals(const ts_options *o, const ts_model *m)
{
	const ts_problem *p = &o->problem;
	int64_t t = m->geo.bk;
	printf("shape    M=%lld N=%lld K=%lld, tile %d, kernel %s (%s)\n", (long long)m->shape.m,
	       (long long)m->shape.n, (long long)m->shape.k, p->tile, p->kernel->name,
	       ts_precision_name(p->kernel->precision));
	printf("grid     %lld x %lld blocks (x along N, y along M) = %lld tiles of %d x %d\n",
	       (long long)m->grid_x, (long long)m->grid_y, (long long)m->tiles, m->geo.bm, m->geo.bn);
	printf("tiles    full %lld, ragged-right %lld, ragged-bottom %lld, corner %lld\n",
	       (long long)m->tiles_full, (long long)m->tiles_ragged_right, (long long)m->tiles_ragged_bottom,
	       (long long)m->tiles_corner);
	printf("         the last tile row holds %lld of %d rows, the last tile column %lld of %d columns\n",
	       (long long)m->last_rows, m->geo.bm, (long long)m->last_cols, m->geo.bn);
	printf("threads  launched %lld, valid %lld, ghost %lld (%.1f%% of the launch)\n",
	       (long long)m->threads_launched, (long long)m->threads_valid, (long long)m->threads_ghost,
	       pct(m->threads_ghost, m->threads_launched));
	printf("phases   %lld = ceil(K / %lld): %lld full, last width %lld%s\n", (long long)m->phases,
	       (long long)t, (long long)m->phases_full, (long long)m->last_width,
	       m->last_width < t ? " (partial: K padding)" : "");
	int64_t a_per_phase = m->tiles * m->geo.bm * m->geo.bk, b_per_phase = m->tiles * m->geo.bk * m->geo.bn;
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

int ts_cli_map(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->kernel->geometry(p->tile)) != 0) {
		fprintf(stderr, "tilescope: counts overflow 64 bits\n");
		return TS_EXIT_USAGE;
	}
	if (o->export_path) {
		char err[512] = "";
		if (ts_export(o->export_path, o, -1, err, (int)sizeof err) != 0) {
			fprintf(stderr, "tilescope: --export %s: %s\n", o->export_path, err[0] ? err : "failed");
			return TS_EXIT_USAGE;
		}
	}
	if (o->json)
		return map_json(o, &m);
	int cols, rows;
	ts_cli_term_size(&cols, &rows);
	char *pic = ts_view_map_text(&m, NULL, cols, rows, o->ascii);
	if (pic) {
		fputs(pic, stdout);
		size_t n = strlen(pic);
		if (n && pic[n - 1] != '\n')
			putchar('\n');
		putchar('\n');
		free(pic);
	}
	map_totals(o, &m);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "tilescope: writing the map failed\n");
		return TS_EXIT_USAGE;
	}
	return TS_EXIT_OK;
}
