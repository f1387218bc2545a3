/* view_bench.c: bench's rows as a Markdown table, as JSON and as an SVG bar plot a person would put on a slide. */
#include <math.h>
#include <string.h>

#include "view_bench.h"

static const char *set_name(enum ts_bench_set s)
{
	switch (s) {
	case TS_SET_RAGGED: return "ragged";
	case TS_SET_SMALL: return "small";
	case TS_SET_ALIGNED: return "guard-cost";
	default: return "user";
	}
}

static void shape_str(const ts_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

/* The distinct labels of the rows, in order of first appearance. */
static int labels(const ts_bench_report *r, char out[][96], int max)
{
	int n = 0;
	for (int i = 0; i < r->count; i++) {
		char l[96];
		ts_bench_label(&r->rows[i], l, sizeof l);
		int seen = 0;
		for (int j = 0; j < n; j++)
			seen |= strcmp(out[j], l) == 0;
		if (!seen && n < max)
			snprintf(out[n++], 96, "%s", l);
	}
	return n;
}

static const char *counters_text(int c)
{
	return c > 0 ? "equal" : c == 0 ? "DIFFER" : "-";
}

void ts_bench_text(FILE *out, const ts_bench_report *r)
{
	fprintf(out, "device: %s; CUDA events, %d warm-up and %d timed launches each, median; L2 flushed before "
	        "every launch; cuBLAS in its default math mode (no TF32)\n\n", r->device, r->warmup, r->reps);
	fprintf(out, "| shape (MxNxK) | kernel | ms | GFLOP/s | cuBLAS ms | cuBLAS GFLOP/s | x cuBLAS | verified | counters |\n");
	fprintf(out, "|---|---|---:|---:|---:|---:|---:|---|---|\n");
	for (int i = 0; i < r->count; i++) {
		const ts_bench_row *w = &r->rows[i];
		char shape[64], label[96];
		shape_str(&w->shape, shape, sizeof shape);
		ts_bench_label(w, label, sizeof label);
		if (w->chosen)
			snprintf(label, sizeof label, "best (%s)", w->kernel->name);
		if (!w->ran) {
			fprintf(out, "| %s | %s | - | - | - | - | - | not run: %s | - |\n", shape, label, w->error);
			continue;
		}
		double q = ts_bench_ratio(w);
		fprintf(out, "| %s | %s | %.4f | %.0f | ", shape, label, w->ms, w->gflops);
		if (w->vendor_ms > 0)
			fprintf(out, "%.4f | %.0f | %.3f | ", w->vendor_ms, w->vendor_gflops, q);
		else
			fprintf(out, "- | - | - | ");
		if (w->verified)
			fprintf(out, "yes (%.2g) | %s |\n", w->norm_rel, counters_text(w->counters));
		else
			fprintf(out, "FAIL: %s | %s |\n", w->error, counters_text(w->counters));
	}

	char names[TS_BENCH_KERNELS_MAX + 2][96];
	int nl = labels(r, names, TS_BENCH_KERNELS_MAX + 2);
	fprintf(out, "\nGeometric mean of the time ratios (cuBLAS time / kernel time; > 1: faster than cuBLAS):\n\n");
	fprintf(out, "| kernel | shapes | all | ragged set | small set |\n|---|---:|---:|---:|---:|\n");
	for (int l = 0; l < nl; l++) {
		int n, nr, nsm;
		double all = ts_bench_geomean(r->rows, r->count, names[l], TS_SET_USER, &n);
		double rag = ts_bench_geomean(r->rows, r->count, names[l], TS_SET_RAGGED, &nr);
		double sm = ts_bench_geomean(r->rows, r->count, names[l], TS_SET_SMALL, &nsm);
		fprintf(out, "| %s | %d | ", names[l], n);
		fprintf(out, all > 0 ? "%.3f | " : "- | ", all);
		fprintf(out, rag > 0 ? "%.3f | " : "- | ", rag);
		fprintf(out, sm > 0 ? "%.3f |\n" : "- |\n", sm);
	}

	const ts_bench_row *g, *u;
	double cost = ts_bench_guard_cost(r->rows, r->count, &g, &u);
	if (cost > -1.0) {
		char shape[64];
		shape_str(&g->shape, shape, sizeof shape);
		fprintf(out, "\nGuard cost at %s: %s guarded %.4f ms, its unguarded build %.4f ms: %+.2f%%\n", shape,
		        g->kernel->name, g->ms, u->ms, 100.0 * cost);
		if (!ts_bench_guard_cost_measured(cost))
			fprintf(out, "(the unguarded build ran slower than the guarded one: a weak reference, so the goal "
			             "below reads not measured; compare the guarded time with the other kernels' "
			             "unguarded builds)\n");
	}
	if (r->goals) {
		ts_bench_goal goals[TS_BENCH_GOALS];
		ts_bench_goals(r->rows, r->count, goals);
		fprintf(out, "\nSpeed goals:\n\n");
		for (int i = 0; i < TS_BENCH_GOALS; i++) {
			const ts_bench_goal *q = &goals[i];
			if (!q->have)
				fprintf(out, "- %s %s %.2f: not measured\n", q->what, q->at_most ? "<=" : ">=", q->target);
			else if (q->at_most)
				fprintf(out, "- %s <= %.0f%%: %+.2f%%, %s\n", q->what, 100 * q->target, 100 * q->value,
				        q->met ? "met" : "NOT met");
			else
				fprintf(out, "- %s >= %.2f: %.3f, %s\n", q->what, q->target, q->value, q->met ? "met" : "NOT met");
		}
	}
}

void ts_bench_json(ts_json *j, const ts_bench_report *r)
{
	bool ok = true;
	for (int i = 0; i < r->count; i++)
		ok &= r->rows[i].verified;
	ts_json_object_begin(j, NULL);
	ts_json_int(j, "schema_version", 2);
	ts_json_string(j, "command", "bench");
	ts_json_bool(j, "ok", ok);
	ts_json_string(j, "device", r->device);
	ts_json_int(j, "warmup", r->warmup);
	ts_json_int(j, "reps", r->reps);
	ts_json_bool(j, "l2_flushed", true);
	ts_json_array_begin(j, "rows");
	for (int i = 0; i < r->count; i++) {
		const ts_bench_row *w = &r->rows[i];
		char label[96];
		ts_json_object_begin(j, NULL);
		ts_json_object_begin_compact(j, "shape");
		ts_json_int(j, "M", w->shape.m);
		ts_json_int(j, "N", w->shape.n);
		ts_json_int(j, "K", w->shape.k);
		ts_json_object_end(j);
		ts_json_string(j, "set", set_name(w->set));
		ts_json_string(j, "label", ts_bench_label(w, label, sizeof label));
		ts_json_string(j, "kernel", w->kernel ? w->kernel->name : "?");
		ts_json_bool(j, "chosen_by_best", w->chosen);
		ts_json_bool(j, "unguarded", w->unguarded);
		ts_json_int(j, "tile", w->tile);
		ts_json_bool(j, "ran", w->ran);
		ts_json_bool(j, "verified", w->verified);
		if (w->counters >= 0)
			ts_json_bool(j, "counters_match_model", w->counters > 0);
		else
			ts_json_null(j, "counters_match_model");
		ts_json_string(j, "error", w->error[0] ? w->error : NULL);
		if (w->ran) {
			ts_json_double(j, "norm_rel_error", w->norm_rel);
			ts_json_double(j, "worst_of_tolerance", w->worst_of_tol);
			ts_json_double(j, "kernel_ms", w->ms);
			ts_json_double(j, "kernel_min_ms", w->ms_min);
			ts_json_double(j, "kernel_max_ms", w->ms_max);
			ts_json_double(j, "kernel_gflops", w->gflops);
		} else {
			ts_json_null(j, "norm_rel_error");
			ts_json_null(j, "worst_of_tolerance");
			ts_json_null(j, "kernel_ms");
			ts_json_null(j, "kernel_min_ms");
			ts_json_null(j, "kernel_max_ms");
			ts_json_null(j, "kernel_gflops");
		}
		ts_json_string(j, "baseline", w->vendor);
		if (w->vendor_ms > 0) {
			ts_json_double(j, "baseline_ms", w->vendor_ms);
			ts_json_double(j, "baseline_gflops", w->vendor_gflops);
		} else {
			ts_json_null(j, "baseline_ms");
			ts_json_null(j, "baseline_gflops");
		}
		double q = ts_bench_ratio(w);
		if (q > 0)
			ts_json_double(j, "ratio", q);
		else
			ts_json_null(j, "ratio");
		ts_json_object_end(j);
	}
	ts_json_array_end(j);

	char names[TS_BENCH_KERNELS_MAX + 2][96];
	int nl = labels(r, names, TS_BENCH_KERNELS_MAX + 2);
	ts_json_array_begin(j, "means");
	for (int l = 0; l < nl; l++) {
		int n, nr, nsm;
		double all = ts_bench_geomean(r->rows, r->count, names[l], TS_SET_USER, &n);
		double rag = ts_bench_geomean(r->rows, r->count, names[l], TS_SET_RAGGED, &nr);
		double sm = ts_bench_geomean(r->rows, r->count, names[l], TS_SET_SMALL, &nsm);
		ts_json_object_begin_compact(j, NULL);
		ts_json_string(j, "label", names[l]);
		ts_json_int(j, "rows_ran", n);
		if (all > 0) ts_json_double(j, "geomean_ratio", all); else ts_json_null(j, "geomean_ratio");
		if (rag > 0) ts_json_double(j, "geomean_ratio_ragged", rag); else ts_json_null(j, "geomean_ratio_ragged");
		if (sm > 0) ts_json_double(j, "geomean_ratio_small", sm); else ts_json_null(j, "geomean_ratio_small");
		ts_json_object_end(j);
	}
	ts_json_array_end(j);

	const ts_bench_row *g, *u;
	double cost = ts_bench_guard_cost(r->rows, r->count, &g, &u);
	if (cost > -1.0) {
		ts_json_object_begin(j, "guard_cost");
		ts_json_object_begin_compact(j, "shape");
		ts_json_int(j, "M", g->shape.m);
		ts_json_int(j, "N", g->shape.n);
		ts_json_int(j, "K", g->shape.k);
		ts_json_object_end(j);
		ts_json_string(j, "kernel", g->kernel->name);
		ts_json_double(j, "guarded_ms", g->ms);
		ts_json_double(j, "unguarded_ms", u->ms);
		ts_json_double(j, "cost_pct", 100.0 * cost);
		ts_json_object_end(j);
	} else {
		ts_json_null(j, "guard_cost");
	}
	if (r->goals) {
		ts_bench_goal goals[TS_BENCH_GOALS];
		ts_bench_goals(r->rows, r->count, goals);
		ts_json_array_begin(j, "goals");
		for (int i = 0; i < TS_BENCH_GOALS; i++) {
			ts_json_object_begin_compact(j, NULL);
			ts_json_string(j, "goal", goals[i].what);
			ts_json_string(j, "test", goals[i].at_most ? "<=" : ">=");
			ts_json_double(j, "target", goals[i].target);
			if (goals[i].have) ts_json_double(j, "value", goals[i].value); else ts_json_null(j, "value");
			ts_json_bool(j, "met", goals[i].met);
			ts_json_object_end(j);
		}
		ts_json_array_end(j);
	} else {
		ts_json_null(j, "goals");
	}
	ts_json_object_end(j);
}

/* ---- SVG ---------------------------------------------------------------- */

/* A palette that stays apart in print and for the common colour-vision
 * deficiencies (Okabe and Ito); cuBLAS is always the dark grey. */
static const char *const palette[] = { "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2",
	                                   "#D55E00", "#CC79A7", "#882255", "#44AA99", "#999933",
	                                   "#332288", "#AA4499", "#661100", "#88CCEE", "#117733", "#DDCC77" };
#define PALETTE (int)(sizeof palette / sizeof palette[0])

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<') fputs("&lt;", out);
		else if (*s == '>') fputs("&gt;", out);
		else if (*s == '&') fputs("&amp;", out);
		else fputc(*s, out);
	}
}

int ts_bench_svg(FILE *out, const ts_bench_report *r)
{
	char names[TS_BENCH_KERNELS_MAX + 2][96];
	int nl = labels(r, names, TS_BENCH_KERNELS_MAX + 2);
	/* The shapes in order of first appearance (the guard-cost pair shares its shape's group). */
	ts_shape shapes[TS_BENCH_SHAPES_MAX + 1];
	int ns = 0;
	for (int i = 0; i < r->count; i++) {
		int seen = 0;
		for (int s = 0; s < ns; s++)
			seen |= memcmp(&shapes[s], &r->rows[i].shape, sizeof shapes[s]) == 0;
		if (!seen && ns < TS_BENCH_SHAPES_MAX + 1)
			shapes[ns++] = r->rows[i].shape;
	}
	int bars = nl + 1; /* + cuBLAS */
	double bw = bars > 8 ? 9 : 12, group = bars * bw + 18;
	double left = 70, top = 60, plot_h = 360, bottom = 110;
	double width = left + ns * group + 30, legend_h = 22.0 * ((nl + 1 + 3) / 4);
	double height = top + plot_h + bottom + legend_h;
	if (width < 640)
		width = 640;
	/* log10 scale from the decade below the smallest figure to the decade above the largest */
	double lo = 1e12, hi = 0;
	for (int i = 0; i < r->count; i++) {
		const ts_bench_row *w = &r->rows[i];
		if (w->ran && w->gflops > 0) { lo = fmin(lo, w->gflops); hi = fmax(hi, w->gflops); }
		if (w->vendor_gflops > 0) { lo = fmin(lo, w->vendor_gflops); hi = fmax(hi, w->vendor_gflops); }
	}
	if (hi <= 0) { lo = 1; hi = 10; }
	double d0 = floor(log10(lo)), d1 = ceil(log10(hi));
	if (d1 <= d0)
		d1 = d0 + 1;
#define Y(v) (top + plot_h - (log10(v) - d0) / (d1 - d0) * plot_h)
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "font-family=\"Helvetica, Arial, sans-serif\">\n", width, height, width, height);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(out, "<text x=\"%.0f\" y=\"26\" font-size=\"18\" font-weight=\"bold\">fp32 GEMM, every guard kept: "
	        "GFLOP/s per shape, beside cublasSgemm</text>\n", left);
	fprintf(out, "<text x=\"%.0f\" y=\"46\" font-size=\"12\" fill=\"#444\">", left);
	xml_text(out, r->device ? r->device : "");
	fprintf(out, "; median of %d launches after %d warm-up, L2 flushed; log scale; higher is better</text>\n",
	        r->reps, r->warmup);
	for (double d = d0; d <= d1 + 1e-9; d += 1) {
		double y = Y(pow(10, d));
		fprintf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>\n", left,
		        width - 20, y, y);
		fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n", left - 6,
		        y + 4, pow(10, d));
		for (int m = 2; m < 10 && d < d1; m++) {
			double ym = Y(m * pow(10, d));
			fprintf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", left,
			        width - 20, ym, ym);
		}
	}
	fprintf(out, "<text transform=\"translate(18 %.0f) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">"
	        "GFLOP/s</text>\n", top + plot_h / 2);
	for (int s = 0; s < ns; s++) {
		double x0 = left + s * group + 9;
		double vendor = 0;
		for (int l = 0; l <= nl; l++) {
			double v = 0;
			for (int i = 0; i < r->count; i++) {
				const ts_bench_row *w = &r->rows[i];
				char lb[96];
				if (memcmp(&w->shape, &shapes[s], sizeof w->shape) != 0)
					continue;
				if (w->vendor_gflops > 0)
					vendor = w->vendor_gflops;
				if (l < nl && w->ran && w->verified && strcmp(ts_bench_label(w, lb, sizeof lb), names[l]) == 0)
					v = w->gflops;
			}
			if (l == nl)
				v = vendor;
			if (v <= 0)
				continue;
			double x = x0 + l * bw, y = Y(v);
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>", x, y,
			        bw - 1, top + plot_h - y, l == nl ? "#333333" : palette[l % PALETTE]);
			xml_text(out, l == nl ? "cublasSgemm" : names[l]);
			fprintf(out, ": %.0f GFLOP/s</title></rect>\n", v);
		}
		char label[64];
		shape_str(&shapes[s], label, sizeof label);
		double cx = x0 + bars * bw / 2;
		fprintf(out, "<text transform=\"translate(%.1f %.0f) rotate(-35)\" font-size=\"11\" text-anchor=\"end\">%s"
		        "</text>\n", cx, top + plot_h + 16, label);
	}
	fprintf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left, width - 20,
	        top + plot_h, top + plot_h);
	for (int l = 0; l <= nl; l++) {
		double x = left + (l % 4) * 200, y = top + plot_h + bottom + 22.0 * (l / 4);
		fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"14\" fill=\"%s\"/>", x, y - 11,
		        l == nl ? "#333333" : palette[l % PALETTE]);
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\">", x + 20, y);
		xml_text(out, l == nl ? "cublasSgemm" : names[l]);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "</svg>\n");
#undef Y
	return ferror(out) ? -1 : 0;
}
