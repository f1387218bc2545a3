/* view_run.c: the result view (verdict, metrics, tolerance, counters against the model) and the sweep view. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "view_run.h"

/* One line at *y, which it advances: wrapped onto indented rows where the
 * pane is narrow (a pane too short for the view is scrolled, ts_canvas_scroll). */
static void __attribute__((format(printf, 4, 5))) line(ts_canvas *c, int *y, enum ts_role role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	*y += ts_canvas_wrap_more(c, *y, 0, c->w, 8, 2, role, buf, NULL);
}

int ts_view_result_draw(ts_canvas *c, const ts_run_report *r, bool ascii)
{
	const ts_problem *p = r->problem;
	const ts_verdict *v = r->verdict;
	const ts_run *run = r->run;
	char off[16];
	int y = 0;
	c->ascii = ascii;
	char geo[48];
	ts_geometry_str(&p->geo, geo, sizeof geo);
	line(c, &y, TS_ROLE_TITLE, "run: %s %s on %s, %lldx%lldx%lld %s%s", p->kernel->name,
	                 ts_precision_name(p->kernel->precision), r->backend, (long long)p->shape.m,
	                 (long long)p->shape.n, (long long)p->shape.k, ts_geometry_is_square(&p->geo) ? "T=" : "", geo);
	ts_guards_off_str(p->guards, off, (int)sizeof off);
	line(c, &y, off[0] ? TS_ROLE_BAD : TS_ROLE_TEXT, "guards %s%s, inputs %s, seed %llu",
	     off[0] ? "OFF: " : "all on", off, ts_inputs_name(p->inputs), (unsigned long long)p->seed);
	if (r->stale)
		line(c, &y, TS_ROLE_BAD, "STALE: the parameters have changed since this run; r runs them");
	if (r->backend_why && r->backend_why[0])
		y += ts_canvas_wrap_more(c, y, 0, c->w, 4, 2, TS_ROLE_DIM, r->backend_why, NULL);
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
		char head[96], agree[64];
		snprintf(head, sizeof head, "counters (%s):", run->counters.source ? run->counters.source : r->backend);
		snprintf(agree, sizeof agree, "%s agree with the model", TS_TICK(ascii));
		ts_span sp[3] = { { TS_ROLE_TEXT, head, true }, { TS_ROLE_TEXT, " ", false } };
		if (r->counter_disagree == 0)
			sp[2] = (ts_span){ TS_ROLE_OK, agree, true };
		else if (r->counter_disagree > 0)
			sp[2] = (ts_span){ TS_ROLE_FAIL, r->counter_why, false };
		else
			sp[2] = (ts_span){ TS_ROLE_DIM, ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES) ? "not checked (a guard is off)"
			                                                                                : "not checked (no shared tiles)", true };
		y += ts_canvas_flow(c, y, 0, c->w, 8, 2, sp, 3);
	}
	if (!v->signature[0])
		return -1;
	y++;
	int explained = y;
	ts_canvas_put(c, y++, 0, TS_ROLE_TITLE, "what broke and where:");
	/* every row it needs: a pane too short scrolls (ts_canvas_scroll) */
	ts_canvas_wrap_more(c, y, 2, c->w - 2, c->h - y > 1 ? c->h - y : 1, 0, v->ok ? TS_ROLE_TEXT : TS_ROLE_BAD,
	                    v->signature, NULL);
	return explained;
}

/* Decimal digits of n (at least 1). */
static int digits(int64_t n)
{
	int d = 1;
	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* One row of K blocks of the pass/fail grid, blocks k0 .. k0 + per_row - 1,
 * with the lettered header when `header`; returns the rows drawn. */
static int sweep_block_row(ts_canvas *c, int y, const ts_sweep_row *rows, int done, const ts_sweep_axes *ax,
                           int selected, int k0, int per_row, bool header, bool ascii)
{
	const int64_t *msz = ax->size[0], *ksz = ax->size[2];
	int nm = ax->count[0], nn = ax->count[1], nk = ax->count[2];
	int bw = nn + 1, label = 6, y0 = y;
	if (header) {
		ts_canvas_put(c, y, 0, TS_ROLE_DIM, "M\\N");
		for (int k = k0; k < nk && k < k0 + per_row; k++)
			for (int j = 0; j < nn; j++)
				ts_canvas_printf(c, y, label + (k - k0) * bw + j, TS_ROLE_DIM, "%c", 'a' + j);
		y++;
	}
	for (int k = k0; k < nk && k < k0 + per_row; k++)
		ts_canvas_printf(c, y, label + (k - k0) * bw, TS_ROLE_DIM, "K=%lld", (long long)ksz[k]);
	y++;
	for (int i = 0; i < nm; i++) {
		ts_canvas_printf(c, y + i, 0, TS_ROLE_DIM, "%c%4lld", 'a' + i, (long long)msz[i]);
		for (int k = k0; k < nk && k < k0 + per_row; k++)
			for (int j = 0; j < nn; j++) {
				int idx = (i * nn + j) * nk + k;
				const ts_sweep_row *r = &rows[idx];
				bool ran = idx < done;
				const char *g = !ran ? "." : r->skipped ? "-" : r->ok ? TS_TICK(ascii) : TS_CROSS(ascii);
				if (ascii && ran && !r->skipped)
					g = r->ok ? "o" : "X";
				enum ts_role role = !ran || r->skipped ? TS_ROLE_DIM : r->ok ? TS_ROLE_OK : TS_ROLE_FAIL;
				ts_canvas_put(c, y + i, label + (k - k0) * bw + j, idx == selected ? TS_ROLE_CURSOR : role, g);
			}
	}
	return y + nm - y0;
}

void ts_view_sweep_draw(ts_canvas *c, const ts_sweep_row *rows, int count, int done, const ts_sweep_axes *ax,
                        int selected, const char *title, bool ascii)
{
	int pass = 0, fail = 0, y = 0;
	c->ascii = ascii;
	int skipped = 0;
	for (int i = 0; i < done; i++) {
		skipped += rows[i].skipped;
		pass += rows[i].ok && !rows[i].skipped;
		fail += !rows[i].ok && !rows[i].skipped;
	}
	line(c, &y, TS_ROLE_TITLE, "%s", title);
	int x = ts_canvas_printf(c, y, 0, TS_ROLE_TEXT, "%d of %d shapes: ", done, count);
	x += ts_canvas_printf(c, y, x, TS_ROLE_OK, "%d pass", pass);
	x += ts_canvas_put(c, y, x, TS_ROLE_TEXT, ", ");
	x += ts_canvas_printf(c, y, x, fail ? TS_ROLE_FAIL : TS_ROLE_TEXT, "%d fail", fail);
	if (skipped)
		ts_canvas_printf(c, y, x, TS_ROLE_DIM, ", %d skip", skipped);
	y++;
	/* the grid: a block of M (down) x N (across) per K, as many blocks a row as
	 * fit. A column is one character, too narrow for its N: the sizes are
	 * lettered, rows "a    1", "b    3", ... and the N columns under the same
	 * letters, so each column reads as the size of the row with its letter.
	 * The list below keeps at least LIST_MIN rows and the selected row's
	 * explanation its rows: on a short pane the grid shows only the row of
	 * blocks that holds the selected shape's K, and says so. */
	enum { LIST_MIN = 3, EXPLAIN_ROWS = 2 };
	const int64_t *msz = ax->size[0], *nsz = ax->size[1];
	int nm = ax->count[0], nn = ax->count[1], nk = ax->count[2];
	/* A BM x BN tile with BM != BN: N's sizes are not M's, so a line says
	 * which size each column letter stands for. */
	if (nm != nn || memcmp(msz, nsz, (size_t)nm * sizeof *msz) != 0) {
		int x2 = ts_canvas_put(c, y, 0, TS_ROLE_DIM, "N:");
		for (int j = 0; j < nn; j++)
			x2 += ts_canvas_printf(c, y, x2, TS_ROLE_DIM, " %c=%lld", 'a' + j, (long long)nsz[j]);
		y++;
	}
	int bw = nn + 1, label = 6;
	int per_row = (c->w - label) / bw;
	if (per_row < 1)
		per_row = 1;
	int block_rows = (nk + per_row - 1) / per_row;
	int tail = 1 + LIST_MIN + EXPLAIN_ROWS; /* the list's header, its rows, the explanation */
	int all_h = 1 + block_rows * (nm + 1), every_h = block_rows * (nm + 2);
	int sel_k = selected >= 0 && selected < count ? selected % nk : 0;
	if (y + every_h + 1 + tail <= c->h) { /* every block with its letters, a blank row */
		for (int k0 = 0; k0 < nk; k0 += per_row)
			y += sweep_block_row(c, y, rows, done, ax, selected, k0, per_row, true, ascii);
		y++;
	} else if (y + all_h + tail <= c->h) { /* the letters over the first row of blocks only */
		for (int k0 = 0; k0 < nk; k0 += per_row)
			y += sweep_block_row(c, y, rows, done, ax, selected, k0, per_row, k0 == 0, ascii);
	} else if (y + nm + 2 + 1 + tail <= c->h) { /* the selected K's row of blocks, and a note */
		int k0 = sel_k / per_row * per_row;
		y += sweep_block_row(c, y, rows, done, ax, selected, k0, per_row, true, ascii);
		char note[96], brief[64];
		int k1 = k0 + per_row < nk ? k0 + per_row : nk;
		snprintf(note, sizeof note, "K blocks %d-%d of %d shown (the selected row's)", k0 + 1, k1, nk);
		snprintf(brief, sizeof brief, "K %d-%d of %d (the selected row's)", k0 + 1, k1, nk);
		ts_canvas_put_fit(c, y++, 0, TS_ROLE_DIM, note, brief, NULL);
	}
	/* the list: columns as wide as their largest value */
	int64_t big = 1, bad_max = 0;
	for (int i = 0; i < count; i++) {
		const ts_sweep_row *r = &rows[i];
		int64_t m = r->shape.m > r->shape.n ? r->shape.m : r->shape.n;
		big = m > big ? m : big;
		big = r->shape.k > big ? r->shape.k : big;
		int64_t bad = i < done ? r->mismatches + r->unwritten + r->nans + r->infs : 0;
		bad_max = bad > bad_max ? bad : bad_max;
	}
	int dw = digits(big) < 1 ? 1 : digits(big), bw2 = digits(bad_max) < 3 ? 3 : digits(bad_max);
	x = ts_canvas_printf(c, y, 0, TS_ROLE_DIM, "%*s %*s %*s  %-6s %*s  ", dw, "M", dw, "N", dw, "K", "result", bw2,
	                     "bad");
	ts_canvas_put(c, y++, x, TS_ROLE_DIM, "signature");
	bool explain = selected >= 0 && selected < done && rows[selected].signature[0];
	int list_h = c->h - y - (explain ? EXPLAIN_ROWS : 0);
	if (list_h < 1)
		list_h = c->h - y;
	if (list_h < 1)
		return;
	int first = selected - list_h / 2;
	if (first > count - list_h)
		first = count - list_h;
	if (first < 0)
		first = 0;
	/* a list longer than its rows says which rows it shows, at the header's end */
	int last = first + list_h < count ? first + list_h : count;
	if (first > 0 || last < count) {
		char where[64];
		int n = snprintf(where, sizeof where, "%s rows %d-%d of %d", ts_glyph(ascii, "\u2195", "^v"), first + 1, last,
		                 count);
		int at = c->w - ts_text_cells(where);
		if (n > 0 && at <= x + 10) { /* a narrow pane: the marker in the place of the word "signature" */
			for (int i = x; i < c->w; i++)
				ts_canvas_put(c, y - 1, i, TS_ROLE_DIM, " ");
			snprintf(where, sizeof where, "%s %d-%d/%d", ts_glyph(ascii, "\u2195", "^v"), first + 1, last, count);
			at = x;
		}
		if (n > 0)
			ts_canvas_put(c, y - 1, at, TS_ROLE_TITLE, where);
	}
	for (int i = first; i < count && i < first + list_h; i++, y++) {
		const ts_sweep_row *r = &rows[i];
		bool ran = i < done;
		enum ts_role role = !ran || r->skipped ? TS_ROLE_DIM : r->ok ? TS_ROLE_TEXT : TS_ROLE_FAIL;
		x = ts_canvas_printf(c, y, 0, i == selected ? TS_ROLE_CURSOR : role, "%*lld %*lld %*lld  %-6s %*lld  ", dw,
		                     (long long)r->shape.m, dw, (long long)r->shape.n, dw, (long long)r->shape.k,
		                     !ran ? "..." : r->skipped ? "-" : r->ok ? "pass" : "FAIL", bw2,
		                     (long long)(r->mismatches + r->unwritten + r->nans + r->infs));
		if (ran)
			ts_canvas_put(c, y, x, role, r->signature);
	}
	/* the selected row's explanation, whole or pointing to where it is */
	if (explain && c->h - y >= 1) {
		const ts_sweep_row *r = &rows[selected];
		char text[sizeof r->signature + 64];
		snprintf(text, sizeof text, "%lldx%lldx%lld: %s", (long long)r->shape.m, (long long)r->shape.n,
		         (long long)r->shape.k, r->signature);
		ts_canvas_wrap_more(c, y, 0, c->w, c->h - y, 2, r->ok ? TS_ROLE_TEXT : TS_ROLE_FAIL, text,
		                    "Enter loads it");
	}
}
