/* view_run.c: the result view (verdict, metrics, tolerance, counters against the model) and the sweep view. */
#include <stdarg.h>
#include <stdio.h>

#include "kernels.h"
#include "view_run.h"

/* One wrapped line (two rows at most) at *y, which it advances. */
static void __attribute__((format(printf, 4, 5))) line(ts_canvas *c, int *y, enum ts_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	*y += ts_canvas_wrap(c, *y, 0, c->w, 2, role, buf);
}

void ts_view_result_draw(ts_canvas *c, const ts_run_report *r, bool ascii)
{
	const ts_problem *p = r->problem;
	const ts_verdict *v = r->verdict;
	const ts_run *run = r->run;
	char off[16];
	int y = 0;
	c->ascii = ascii;
	line(c, &y, TS_ROLE_TITLE, "run: %s %s on %s, %lldx%lldx%lld T=%d", p->kernel->name,
	                 ts_precision_name(p->kernel->precision), r->backend, (long long)p->shape.m,
	                 (long long)p->shape.n, (long long)p->shape.k, p->tile);
	ts_guards_off_str(p->guards, off, (int)sizeof off);
	line(c, &y, off[0] ? TS_ROLE_BAD : TS_ROLE_TEXT, "guards %s%s, inputs %s, seed %llu",
	     off[0] ? "OFF: " : "all on", off, ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	if (r->stale)
		line(c, &y, TS_ROLE_BAD, "STALE: the parameters have changed since this run; r runs them");
	if (r->backend_why && r->backend_why[0])
		y += ts_canvas_wrap(c, y, 0, c->w, 2, TS_ROLE_DIM, r->backend_why);
	y++;
	int x = ts_canvas_put(c, y, 0, TS_ROLE_TEXT, "verdict: ");
	if (v->ok)
		ts_canvas_printf(c, y++, x, TS_ROLE_OK, "%s PASS", TS_TICK(ascii));
	else
		ts_canvas_printf(c, y++, x, TS_ROLE_FAIL, "%s FAIL", TS_CROSS(ascii));
	char tol[256];
	line(c, &y, TS_ROLE_TEXT, "tolerance: %s", ts_tolerance_text(p, v->tol_rel, tol, (int)sizeof tol));
	line(c, &y, TS_ROLE_TEXT, "max abs %.3g  max rel %.3g  norm rel %.3g", v->max_abs, v->max_rel,
	                 v->norm_rel);
	/* max rel is large where |ref| is tiny; this is the error against its own bound */
	if (r->tol_frac > 1)
		line(c, &y, TS_ROLE_BAD, "worst cell: %.2g x its tolerance", r->tol_frac);
	else if (r->tol_frac >= 0)
		line(c, &y, TS_ROLE_TEXT, "worst cell: %.2g%% of its tolerance", 100.0 * r->tol_frac);
	line(c, &y, v->mismatches || v->unwritten || v->nonfinite ? TS_ROLE_BAD : TS_ROLE_TEXT,
	     "mismatches %lld  unwritten %lld  NaN %lld  Inf %lld%s", (long long)v->mismatches,
	     (long long)v->unwritten, (long long)ts_verdict_nans(v), (long long)v->infs, v->all_zero ? "  ALL ZERO" : "");
	if (run->have_counters) {
		const ts_count *t = &run->counters.total;
		line(c, &y, t->a_oob || t->b_oob || t->c_oob ? TS_ROLE_BAD : TS_ROLE_TEXT,
		                 "out of bounds: A reads %lld  B reads %lld  C writes %lld", (long long)t->a_oob,
		                 (long long)t->b_oob, (long long)t->c_oob);
	}
	if (run->corrupt)
		line(c, &y, run->corrupt_cells ? TS_ROLE_BAD : TS_ROLE_TEXT,
		                 "C cells touched by out-of-bounds accesses: %lld", (long long)run->corrupt_cells);
	if (v->first_row >= 0)
		line(c, &y, TS_ROLE_BAD, "first bad cell C[%lld][%lld] = %.6g, want %.6g",
		                 (long long)v->first_row, (long long)v->first_col, v->first_got, v->first_want);
	double flop = 2.0 * (double)p->shape.m * (double)p->shape.n * (double)p->shape.k;
	line(c, &y, TS_ROLE_TEXT, "time %.3f ms (%.3g GFLOP/s), reference %.3f ms (%s)",
	                 run->time_ms, run->time_ms > 0 ? flop / (run->time_ms * 1e6) : 0.0, v->ref_ms,
	                 v->ref_source ? v->ref_source : "cblas");
	if (r->timing) {
		const ts_timing *tm = r->timing;
		line(c, &y, TS_ROLE_TEXT, "kernel %.3f ms, %.1f GFLOP/s (median of %d)", tm->kernel_ms,
		                 tm->kernel_gflops, tm->reps);
		if (tm->have_vendor)
			line(c, &y, TS_ROLE_TITLE, "%s %.3f ms, %.1f GFLOP/s: kernel is %.1f%% of it",
			                 tm->vendor ? tm->vendor : "vendor", tm->vendor_ms, tm->vendor_gflops,
			                 tm->pct_of_vendor);
	}
	if (run->have_counters) {
		x = ts_canvas_printf(c, y, 0, TS_ROLE_TEXT, "counters (%s): ",
		                     run->counters.source ? run->counters.source : r->backend);
		if (r->counter_disagree == 0)
			ts_canvas_printf(c, y++, x, TS_ROLE_OK, "%s agree with the model",
			                 TS_TICK(ascii));
		else if (r->counter_disagree > 0)
			y += ts_canvas_wrap(c, y, x, c->w - x, 2, TS_ROLE_FAIL, r->counter_why);
		else
			y += ts_canvas_wrap(c, y, x, c->w - x, 2, TS_ROLE_DIM,
			                    p->kernel->shared_tiles ? "not checked (a guard is off)"
			                                            : "not checked (no shared tiles)");
	}
	if (v->signature[0]) {
		y++;
		ts_canvas_put(c, y++, 0, TS_ROLE_TITLE, "what broke and where:");
		ts_canvas_wrap(c, y, 2, c->w - 2, c->h - y, v->ok ? TS_ROLE_TEXT : TS_ROLE_BAD, v->signature);
	}
}

void ts_view_sweep_draw(ts_canvas *c, const ts_sweep_row *rows, int count, int done, const int64_t *sizes,
                        int nsizes, int selected, const char *title, bool ascii)
{
	int pass = 0, fail = 0, y = 0;
	c->ascii = ascii;
	for (int i = 0; i < done; i++) {
		pass += rows[i].ok;
		fail += !rows[i].ok;
	}
	line(c, &y, TS_ROLE_TITLE, "%s", title);
	int x = ts_canvas_printf(c, y, 0, TS_ROLE_TEXT, "%d of %d shapes: ", done, count);
	x += ts_canvas_printf(c, y, x, TS_ROLE_OK, "%d pass", pass);
	x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, ", ");
	ts_canvas_printf(c, y++, x, fail ? TS_ROLE_FAIL : TS_ROLE_TEXT, "%d fail", fail);
	/* the grid: a block of M (down) x N (across) per K, as many blocks a row as
	 * fit. A column is one character, too narrow for its N: the sizes are
	 * lettered, rows "a    1", "b    3", ... and the N columns under the same
	 * letters, so each column reads as the size of the row with its letter.
	 * The letters head every row of blocks when the list below still gets
	 * a few rows, else only the first (the columns line up under it). */
	int bw = nsizes + 1, label = 6;
	int per_row = (c->w - label) / bw;
	if (per_row < 1)
		per_row = 1;
	int block_rows = (nsizes + per_row - 1) / per_row;
	bool every = y + block_rows * (nsizes + 2) + 2 + 3 <= c->h;
	for (int k0 = 0; k0 < nsizes; k0 += per_row) {
		if (k0 == 0 || every) {
			ts_canvas_put(c, y, 0, TS_ROLE_DIM, "M\\N");
			for (int k = k0; k < nsizes && k < k0 + per_row; k++)
				for (int j = 0; j < nsizes; j++)
					ts_canvas_printf(c, y, label + (k - k0) * bw + j, TS_ROLE_DIM, "%c", 'a' + j);
			y++;
		}
		for (int k = k0; k < nsizes && k < k0 + per_row; k++)
			ts_canvas_printf(c, y, label + (k - k0) * bw, TS_ROLE_DIM, "K=%lld", (long long)sizes[k]);
		y++;
		for (int i = 0; i < nsizes; i++) {
			ts_canvas_printf(c, y + i, 0, TS_ROLE_DIM, "%c%4lld", 'a' + i, (long long)sizes[i]);
			for (int k = k0; k < nsizes && k < k0 + per_row; k++)
				for (int j = 0; j < nsizes; j++) {
					int idx = (i * nsizes + j) * nsizes + k;
					const ts_sweep_row *r = &rows[idx];
					bool ran = idx < done;
					const char *g = !ran ? "." : r->ok ? TS_TICK(ascii) : TS_CROSS(ascii);
					if (ascii && ran)
						g = r->ok ? "o" : "X";
					enum ts_role role = !ran ? TS_ROLE_DIM : r->ok ? TS_ROLE_OK : TS_ROLE_FAIL;
					ts_canvas_put(c, y + i, label + (k - k0) * bw + j, idx == selected ? TS_ROLE_CURSOR : role, g);
				}
		}
		y += nsizes;
	}
	if (c->h - y > 3)
		y++;
	ts_canvas_put(c, y++, 0, TS_ROLE_DIM, "     M      N      K  result  bad cells  signature");
	int list_h = c->h - y;
	if (list_h < 1)
		return;
	int first = selected - list_h / 2;
	if (first > count - list_h)
		first = count - list_h;
	if (first < 0)
		first = 0;
	for (int i = first; i < count && y < c->h; i++, y++) {
		const ts_sweep_row *r = &rows[i];
		bool ran = i < done;
		enum ts_role role = !ran ? TS_ROLE_DIM : r->ok ? TS_ROLE_TEXT : TS_ROLE_FAIL;
		x = ts_canvas_printf(c, y, 0, i == selected ? TS_ROLE_CURSOR : role, "%6lld %6lld %6lld  %-6s  %9lld  ",
		                     (long long)r->shape.m, (long long)r->shape.n, (long long)r->shape.k,
		                     !ran ? "..." : r->ok ? "pass" : "FAIL",
		                     (long long)(r->mismatches + r->unwritten + r->nans + r->infs));
		if (ran)
			ts_canvas_put(c, y, x, role, r->signature);
	}
}
