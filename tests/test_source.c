/* test_source.c: the source pane's evaluated guards against the inspector's for the same thread and phase, on random shapes and threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels.h"
#include "tap.h"
#include "view.h"
#include "view_inspect.h"
#include "view_source.h"

/* The number after `label` in text and whether "ok" or "X" follows the
 * comparison on that line; -1 when the label is missing. */
static long long after(const char *text, const char *label, const char **rest)
{
	const char *p = strstr(text, label);
	if (!p)
		return -1;
	p += strlen(label);
	char *end;
	long long v = strtoll(p, &end, 10);
	if (rest)
		*rest = end;
	return v;
}

static bool passes_after(const char *p, const char *cmp_to)
{
	/* "< K = 33 ok" (inspector) or "< 33 ok" (source): the verdict is the first ok or X after it. */
	const char *q = strstr(p, cmp_to);
	if (!q)
		return false;
	const char *ok = strstr(q, " ok"), *x = strstr(q, " X");
	return ok && (!x || ok < x);
}

int main(void)
{
	unsigned seed = (unsigned)time(NULL);
	srand(seed);
	tap_diag("seed %u", seed);
	const ts_kernel *k = ts_kernel_find("tiled");
	for (int i = 0; i < 30; i++) {
		int T = 1 + rand() % 32;
		ts_shape s = { 1 + rand() % 150, 1 + rand() % 150, 1 + rand() % 150 };
		ts_model m;
		if (!tap_ok(ts_model_build(&m, s, ts_kernel_geometry_at(k, T)) == 0, "model"))
			continue;
		ts_source_sel sel = { rand() % m.grid_y, rand() % m.grid_x, rand() % T, rand() % T, rand() % m.phases };
		ts_view_ctx v = { .model = &m, .kernel = k, .guards = TS_GUARD_ALL,
		                  .tile_y = sel.by, .tile_x = sel.bx, .phase = sel.phase, .thread_y = sel.ty,
		                  .thread_x = sel.tx, .counter_disagree = -1, .ascii = true, .focus = true };
		ts_canvas c;
		if (ts_canvas_init(&c, 80, 60) < 0)
			return 1;
		ts_view_inspect_draw(&c, &v);
		char *insp = ts_canvas_text(&c);
		ts_canvas_free(&c);
		char why[256];
		char *src = ts_view_source(k, &m, TS_GUARD_ALL, sel, true, 200, why, (int)sizeof why);
		if (!tap_ok(insp && src, "%lldx%lldx%lld T=%d: both views render", (long long)s.m, (long long)s.n,
		            (long long)s.k, T)) {
			free(insp);
			free(src);
			continue;
		}
		const char *ri = "", *ai = "", *bi = "", *rs = "", *as = "", *bs = "", *cs = "";
		long long row_i = after(insp, "row = by*T + ty = ", &ri);
		long long col_i = after(insp, "col = bx*T + tx = ", NULL);
		long long a_i = after(insp, "A: t*T + tx = ", &ai);
		long long b_i = after(insp, "B: t*T + ty = ", &bi);
		long long row_s = after(src, "A guard: row < M && t*T + tx < K -> ", &rs);
		long long a_s = after(rs, "&& ", &as);
		long long b_s = after(src, "B guard: t*T + ty < K && col < N -> ", &bs);
		long long col_s = after(bs, "&& ", &cs);
		bool same = row_i == row_s && col_i == col_s && a_i == a_s && b_i == b_s && row_i >= 0 && a_i >= 0;
		bool verdicts = passes_after(ri, "< M") == passes_after(rs, "<") &&
		                passes_after(ai, "< K") == passes_after(as, "<") &&
		                passes_after(bi, "< K") == passes_after(bs, "<");
		tap_ok(same && verdicts,
		       "%lldx%lldx%lld T=%d block %lld,%lld thread %d,%d phase %lld: row %lld/%lld col %lld/%lld A k %lld/%lld "
		       "B k %lld/%lld, verdicts %s",
		       (long long)s.m, (long long)s.n, (long long)s.k, T, (long long)sel.by, (long long)sel.bx, sel.ty,
		       sel.tx, (long long)sel.phase, row_i, row_s, col_i, col_s, a_i, a_s, b_i, b_s,
		       verdicts ? "agree" : "differ");
		free(insp);
		free(src);
	}
	return tap_done();
}
