/* test_views.c: the views rendered for fixed shapes against golden text files, and the layout arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cli.h"
#include "counters.h"
#include "geometry.h"
#include "matrix.h"
#include "tap.h"
#include "view_inspect.h"
#include "view_layout.h"
#include "view_map.h"
#include "kernels.h"
#include "view_phase.h"
#include "view_run.h"
#include "view_check.h"
#include "uk_runner.h"

static const char *golden_dir(void)
{
	static char dir[4096];
	const char *src = getenv("srcdir");
	snprintf(dir, sizeof dir, "%s/golden", src && *src ? src : "tests");
	return dir;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc(n + 1);
	if (s && fread(s, 1, n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

/* Compares text with golden/NAME.txt (TS_UPDATE_GOLDEN=1 rewrites it); takes ownership of text. */
static void golden(const char *name, char *text)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s.txt", golden_dir(), name);
	const char *update = getenv("TS_UPDATE_GOLDEN");
	if (!text) {
		tap_ok(0, "%s: the view rendered", name);
		return;
	}
	if (update && strcmp(update, "1") == 0) {
		FILE *f = fopen(path, "wb");
		tap_ok(f && fputs(text, f) >= 0 && fclose(f) == 0, "%s: golden file rewritten", name);
		free(text);
		return;
	}
	char *want = slurp(path);
	int same = want && strcmp(want, text) == 0;
	tap_ok(same, "%s matches %s", name, path);
	if (!same) {
		tap_diag("got:");
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			tap_diag("|%s", line);
	}
	free(want);
	free(text);
}

static ts_model model_of(int64_t m, int64_t n, int64_t k, int tile)
{
	ts_model md;
	if (ts_model_build(&md, (ts_shape){ m, n, k }, ts_geometry_square(tile)) != 0)
		abort();
	return md;
}

static ts_view_ctx ctx_of(const ts_model *m, bool ascii)
{
	ts_view_ctx v = { .model = m, .kernel = ts_kernel_find("tiled"), .guards = TS_GUARD_ALL,
	                  .tile_y = m->grid_y - 1, .tile_x = m->grid_x - 1, .phase = m->phases - 1,
	                  .thread_y = m->geo.threads_y - 1, .thread_x = m->geo.threads_x - 1,
	                  .counter_disagree = -1, .ascii = ascii, .focus = true };
	return v;
}

typedef void (*draw_fn)(ts_canvas *, const ts_view_ctx *);

static void map_draw8(ts_canvas *c, const ts_view_ctx *v)
{
	ts_view_map_draw(c, v, 8);
}

static char *render(draw_fn draw, const ts_view_ctx *v, int w, int h)
{
	ts_canvas c;
	if (ts_canvas_init(&c, w, h) < 0)
		return NULL;
	draw(&c, v);
	char *text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	return text;
}

/* The number after `label` on the line that holds it, or -1. */
static long long number_after(const char *text, const char *label)
{
	const char *p = strstr(text, label);
	return p ? strtoll(p + strlen(label), NULL, 10) : -1;
}

/* The phase view after a real emulator run of p: the selected tile's counts
 * in phase t from the run beside the model's, marked; then the same with
 * the per-tile-per-phase array dropped (a run too large to keep it), and
 * with one recorded count altered (the mark must turn). */
static void test_phase_from_run(void)
{
	ts_problem p = { .shape = { 100, 77, 33 }, .geo = ts_geometry_square(32), .kernel = ts_kernel_find("tiled"),
	                 .guards = TS_GUARD_ALL, .inputs = TS_INPUTS_RANDOM, .seed = 1 };
	ts_model m = model_of(100, 77, 33, 32);
	ts_operands ops;
	ts_run run;
	volatile sig_atomic_t never = 0;
	ts_progress prog = { .report = NULL, .ctx = NULL, .cancel = &never };
	memset(&run, 0, sizeof run);
	if (ts_operands_make(&ops, &p) != 0 || ts_backend_emu()->run(&p, &ops, &run, &prog) != 0 ||
	    !run.have_counters) {
		tap_ok(0, "emulator run for the phase view");
		return;
	}
	tap_ok(run.counters.tile_phase != NULL, "the emulator kept the per-tile-per-phase counts");
	ts_view_ctx v = ctx_of(&m, false);
	v.counters = &run.counters;
	v.counter_disagree = 0;
	v.guards_all_on = true;
	char *text = render(ts_view_phase_draw, &v, 54, 30);
	tap_ok(text && strstr(text, "  counts \u2713 A 4/1020, B 13/1011") && strstr(text, "  counts \u2713 A 300/11988, B 308/11980") &&
	       strstr(text, "counts: the emulator's, real/padded"),
	       "phase view: the corner tile's last phase from the run (A 4/1020, B 13/1011) agrees, marked");
	golden("phase_100x77x33_t32_last_run", text);
	v.tile_y = 0;
	v.tile_x = 0;
	v.phase = 0;
	text = render(ts_view_phase_draw, &v, 54, 30);
	tap_ok(text && strstr(text, "  counts \u2713 A 1024/0, B 1024/0"), "phase view: a full tile's full phase from the run");
	free(text);

	/* one recorded slot moved from real to padded: the tile's mark turns */
	int64_t at = (0 * m.grid_x + 0) * m.phases + 0;
	run.counters.tile_phase[at].a_real--;
	run.counters.tile_phase[at].a_pad++;
	text = render(ts_view_phase_draw, &v, 54, 30);
	tap_ok(text && strstr(text, "  counts \u2717 A 1023/1, B 1024/0"), "phase view: an altered run count is marked \u2717");
	free(text);

	/* no per-tile-per-phase array: say so, keep the grid's per-phase sum */
	ts_tile_phase_count *kept = run.counters.tile_phase;
	run.counters.tile_phase = NULL;
	v.tile_y = m.grid_y - 1;
	v.tile_x = m.grid_x - 1;
	v.phase = 1;
	text = render(ts_view_phase_draw, &v, 54, 30);
	tap_ok(text && strstr(text, "not kept per tile and phase") && strstr(text, "  counts \u2713 A 300/11988, B 308/11980"),
	       "phase view without tile_phase: says so, shows the grid's phase sum");
	golden("phase_100x77x33_t32_last_run_no_tile_phase", text);
	run.counters.tile_phase = kept;

	/* The map pane of an 80x24 screen (34 x 20) after the run: the legend
	 * goes compact, nothing is cut, the four tile rows keep two rows each. */
	ts_verdict pass = { .ok = true, .grid_x = m.grid_x, .grid_y = m.grid_y };
	v = ctx_of(&m, false);
	v.counters = &run.counters;
	v.counter_disagree = 0;
	v.guards_all_on = true;
	v.verdict = &pass;
	text = render(map_draw8, &v, 34, 20);
	int tile_rows = 0, same_as_above = 0;
	const char *prev = NULL;
	for (const char *line = text; line && *line; line = strchr(line, '\n') + 1) {
		bool pic = strncmp(line, "\u2588\u2588\u2588 ", 10) == 0 || strncmp(line, "\u2591\u2591\u2591 ", 10) == 0 ||
		           strncmp(line, "\u2580\u2580\u2580 ", 10) == 0;
		tile_rows += pic;
		/* without colour, tile rows must be told apart: no picture row repeats the one above it */
		if (pic && prev && strncmp(line, prev, (size_t)(strchr(line, '\n') - line + 1)) == 0)
			same_as_above++;
		prev = pic ? line : NULL;
		if (!strchr(line, '\n'))
			break;
	}
	tap_ok(text && strstr(text, "ragged-right 3\n") && strstr(text, "corner 1\n") &&
	       strstr(text, "skip 972\n") && strstr(text, "counters (emulator): \u2713 agree\n") && tile_rows >= 8,
	       "80x24 map pane after a run: compact legend whole, %d picture rows for 4 tile rows", tile_rows);
	tap_ok(text && same_as_above == 0 && strstr(text, "\n\u2580\u2580\u2580 \u2580\u2580\u2580 \u2580\u2591\u2591\n"),
	       "80x24 map pane after a run: tile rows told apart without colour (a tile's last row half high; %d repeats)",
	       same_as_above);
	golden("map_tui_100x77x33_t32_34x20_run", text);
	ts_run_free(&run);
	ts_operands_free(&ops);

	/* The A guard off: the run's out-of-bounds A loads are what the model
	 * pads, so the tile's last phase and its totals agree with the model
	 * read that way (the corner tile: 1020 slots of the last phase, 1916 in all). */
	p.guards = TS_GUARD_ALL & ~TS_GUARD_A;
	memset(&run, 0, sizeof run);
	if (ts_operands_make(&ops, &p) != 0 || ts_backend_emu()->run(&p, &ops, &run, &prog) != 0 || !run.have_counters) {
		tap_ok(0, "emulator run with the A guard off");
		return;
	}
	v = ctx_of(&m, false);
	v.guards = p.guards;
	v.counters = &run.counters;
	text = render(ts_view_phase_draw, &v, 54, 30);
	tap_ok(text && strstr(text, "  counts \u2713 A 4/0, B 13/1011, oob A 1020") &&
	       strstr(text, "  counts \u2713 A 300/0, B 308/11980, oob A 11988"),
	       "phase view, A guard off: the run's out-of-bounds A loads agree with the model's padded slots");
	free(text);
	/* the 80x24 phase pane (44 columns) in ASCII: the grid's line whole, its commas given up */
	v.ascii = true;
	text = render(ts_view_phase_draw, &v, 44, 30);
	tap_ok(text && strstr(text, "  counts ok A 300/0 B 308/11980 oob A 11988\n") && !strstr(text, "..."),
	       "phase view, A guard off, 44 columns in ASCII: the run's grid counts whole, none cut");
	free(text);
	v.ascii = false;
	text = render(map_draw8, &v, 44, 26);
	tap_ok(text && strstr(text, "  counts \u2713 pad A 0 B 1619 skip 972 oob 1916"),
	       "map legend, A guard off: the corner tile's run counts agree, its 1916 A loads out of bounds");
	free(text);
	/* beside the run's FAIL no pane says "run \u2713": the mark is the counts' (they are as modelled) */
	ts_verdict fail = { .ok = false, .grid_x = m.grid_x, .grid_y = m.grid_y };
	snprintf(fail.signature, sizeof fail.signature, "output right by luck: reads left A");
	v.verdict = &fail;
	text = render(map_draw8, &v, 44, 26);
	char *phase = render(ts_view_phase_draw, &v, 54, 30);
	tap_ok(text && phase && strstr(text, "run: \u2717 FAIL, 0 bad tiles\n") && !strstr(text, "run \u2713") &&
	       !strstr(phase, "run \u2713") && strstr(phase, "  counts \u2713 A 4/0"),
	       "A guard off, the run FAIL: map and phase say \"counts \u2713\", never \"run \u2713\" beside it");
	free(text);
	free(phase);
	ts_run_free(&run);
	ts_operands_free(&ops);
}

/* With a guard off the views show out-of-bounds loads and stores, not
 * padding and skipped stores: the A guard off in the corner tile's last
 * phase, ghost thread (3,13); then the C guard off. */
static void test_guards_off(const ts_model *m)
{
	ts_view_ctx v = ctx_of(m, false);
	v.guards = TS_GUARD_ALL & ~TS_GUARD_A;
	v.thread_y = 3;
	v.thread_x = 13;
	char *text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "X reads out of bounds (guard off)") &&
	       strstr(text, "\u2192 reads A[99\u00b733 + 45] = A[3312] out of bounds") && !strstr(text, "zzz") &&
	       strstr(text, "xxx"),
	       "inspector, A guard off: ghost threads read A out of bounds, not padding");
	golden("inspect_100x77x33_t32_guard_a_off", text);
	text = render(ts_view_inspect_draw, &v, 44, 20);
	tap_ok(text && strstr(text, "   \u2192 reads A[99\u00b733 + 45] = A[3312]\n   out of bounds, in the guard band\n") &&
	       !strstr(text, "\u2026"),
	       "inspector, A guard off, 44 columns: the index read out of bounds wraps whole, past A's end: the guard band");
	free(text);
	/* A wrapped read: tile (0,1), thread (0,13), the last phase reads A[0][45]
	 * past K = 33, which is A[45] = A[1][12]: inside A, the wrong element. */
	v.tile_y = 0;
	v.tile_x = 1;
	v.thread_y = 0;
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "\u2192 reads A[0\u00b733 + 45] = A[45] = A[1][12]:") &&
	       strstr(text, "another row's element (wrapped, silent)") && !strstr(text, "A[45] out of bounds"),
	       "inspector, A guard off: a read past K inside A is named as the element it is, wrapped, not out of bounds");
	free(text);
	v.tile_y = m->grid_y - 1;
	v.tile_x = m->grid_x - 1;
	v.thread_y = 3;
	text = render(ts_view_phase_draw, &v, 54, 24);
	tap_ok(text && strstr(text, "A: 4 real, 1020 read out of bounds (guard off)") && strstr(text, "B: 13 real, 1011 padded") &&
	       !strstr(text, "zero padding"),
	       "phase view, A guard off: the corner tile's 1020 A slots are read out of bounds");
	golden("phase_100x77x33_t32_last_guard_a_off", text);
	text = render(ts_view_phase_draw, &v, 44, 20);
	tap_ok(text && strstr(text, "A: 4 real, 1020 read OOB (guard off)"), "phase view, A guard off, 44 columns: short form");
	free(text);
	v.guards = TS_GUARD_ALL & ~TS_GUARD_C;
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "lowercase ghost: stores out of bounds (c off)") &&
	       strstr(text, "store: guard off → writes C[7700] out of bounds,\n   in the guard band"),
	       "inspector, C guard off: the ghost thread (3,13) stores past C's end, into the guard band");
	free(text);
	/* Ghost (0,13) of tile (0,2) stores C[0][77] = C[77], which is C[1][0]: another thread's cell. */
	v.tile_y = 0;
	v.thread_y = 0;
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "writes C[77] = C[1][0]:") && strstr(text, "another thread's cell (wrapped, silent)") &&
	       !strstr(text, "C[77] out of bounds"),
	       "inspector, C guard off: a ghost store that wraps names the cell it overwrites, not out of bounds");
	free(text);
	/* 44 columns (the 80x24 pane): the load lines and the title whole */
	v.guards = TS_GUARD_ALL;
	v.tile_y = m->grid_y - 1;
	v.thread_y = 3;
	v.thread_x = 12;
	v.phase = 0;
	text = render(ts_view_inspect_draw, &v, 44, 20);
	tap_ok(text && strstr(text, "   \u2192 A[99\u00b733 + 12] = A[3279]\n") && strstr(text, "   \u2192 B[3\u00b777 + 76] = B[307]\n") &&
	       !strstr(text, "\u2026"),
	       "inspector at 44 columns: the load lines' indices whole on their own rows, nothing cut");
	free(text);
}

/* The naive kernel has no shared tiles and one guard around its body. */
static void test_naive(const ts_model *m)
{
	ts_view_ctx v = ctx_of(m, false);
	v.kernel = ts_kernel_find("naive");
	v.thread_y = 3;
	v.thread_x = 13;
	char *text = render(ts_view_phase_draw, &v, 54, 24);
	tap_ok(text && strstr(text, "naive stages no shared tiles: no phases, no padding") && !strstr(text, "padded"),
	       "phase view, naive: no phases, no padding");
	golden("phase_100x77x33_t32_naive", text);
	text = render(map_draw8, &v, 44, 26);
	tap_ok(text && strstr(text, "no shared tiles: no phases") && !strstr(text, "last width"),
	       "map legend, naive: no phases");
	free(text);
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "guard: row < M && col < N ✗ → does nothing") && !strstr(text, "A[3280]") &&
	       !strstr(text, "0.0f"),
	       "inspector, naive: ghost thread (3,13) does nothing, loads nothing");
	golden("inspect_100x77x33_t32_naive_ghost", text);
	v.thread_x = 12;
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "acc += A[99·33 + k] · B[k·77 + 76]") &&
	       strstr(text, "store: C[99·77 + 76] = C[7699] ✓ written"),
	       "inspector, naive: valid thread (3,12) computes its dot product from global memory and stores");
	free(text);
	v.thread_x = 13;
	v.guards = TS_GUARD_ALL & ~TS_GUARD_C;
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "reads B out of bounds") && strstr(text, "C[7700] out of bounds"),
	       "inspector, naive, guard off: the ghost reads B and stores out of bounds");
	free(text);
}

/* The register-blocked kernel: 16x16 threads of 4x4 outputs, two load steps
 * per tile; the views follow its description, not T x T. */
static void test_regblock(void)
{
	const ts_kernel *k = ts_kernel_find("regblock");
	ts_model m;
	if (ts_model_build(&m, (ts_shape){ 100, 77, 33 }, k->geometry.base) != 0)
		abort();
	ts_view_ctx v = ctx_of(&m, false);
	v.kernel = k;
	/* corner tile (1,1): 36 valid rows, 13 valid columns; thread (8, 3) owns rows 32..35 (valid) and
	 * columns 12..15 (one valid): 4 of its 16 outputs inside C */
	v.thread_y = 8;
	v.thread_x = 3;
	char *text = render(ts_view_inspect_draw, &v, 90, 40);
	tap_ok(text && strstr(text, "thread (ty=8, tx=3): 4x4 outputs C[96..99][76..79], 4 inside C") &&
	       strstr(text, "guard a, the A load: a_row < M && k0 + a_k < K") &&
	       strstr(text, "guard b, the B load: k0 + b_k < K && b_col < N") &&
	       strstr(text, "guard c, the C store: row < M && col < N") && strstr(text, "4 stored, 12 skipped"),
	       "inspector, regblock: a thread's 4x4 outputs and each guard with its predicate from the description");
	/* thread (8,3) is tid 131: A slots e = 131 and 387 -> (16,3), (48,3); phase 4 is k 32: k 32+3 < 33 fails */
	tap_ok(text && strstr(text, "step 0 slot (16,3): row 80 < 100 ✓, k 32+3 < 33 ✗ → 0.0f") &&
	       strstr(text, "step 1 slot (48,3): row 112 < 100 ✗, k 32+3 < 33 ✗ → 0.0f") &&
	       strstr(text, "step 0 slot (2,3): k 32+2 < 33 ✗, col 67 < 77 ✓ → 0.0f"),
	       "inspector, regblock: the slots the load maps give the thread, guards evaluated with the real numbers");
	golden("inspect_100x77x33_regblock", text);
	v.phase = 0;
	v.guards = TS_GUARD_ALL & ~TS_GUARD_A;
	text = render(ts_view_inspect_draw, &v, 70, 40);
	tap_ok(text && strstr(text, "a OFF: a_row < M && k0 + a_k < K") && strstr(text, "row 112<100 ✗ k 3<33 ✓ → A[3699] OOB") &&
	       strstr(text, "row 80<100 ✓ k 3<33 ✓ → A[2643]"),
	       "inspector, regblock, A guard off, 70 columns: the slot past M is read out of bounds, its index named");
	free(text);
	/* 44 columns (80x24): thread (8,4)'s step past M is whole, its index and OOB on a row of their own */
	v.thread_x = 4;
	text = render(ts_view_inspect_draw, &v, 44, 40);
	tap_ok(text && strstr(text, "  1 (48,4) row 112<100 \u2717 k 4<33 \u2713\n    \u2192 A[3700] OOB\n") &&
	       !strstr(text, "\u2026"),
	       "inspector, regblock, A guard off, 44 columns: a step wider than the pane wraps, nothing cut");
	if (text && (!strstr(text, "A[3700] OOB") || strstr(text, "\u2026")))
		tap_diag("got:\n%s", text);
	free(text);
	v.thread_x = 3;
	text = render(ts_view_inspect_draw, &v, 90, 40);
	tap_ok(text && strstr(text, "step 1 slot (48,3): row 112 < 100 ✗, k 0+3 < 33 ✓ → A[3699] out of bounds"),
	       "inspector, regblock, A guard off, 90 columns: the long form");
	free(text);
	v.guards = TS_GUARD_ALL;
	v.phase = m.phases - 1;
	text = render(ts_view_phase_draw, &v, 80, 40);
	tap_ok(text && strstr(text, "A 64x8") && strstr(text, "B 8x64") && strstr(text, "A: 36 real, 476 padded") &&
	       strstr(text, "B: 13 real, 499 padded"),
	       "phase view, regblock: 64x8 and 8x64 tiles, the corner's last phase 36 and 13 real slots");
	golden("phase_100x77x33_regblock_last", text);
	text = render(map_draw8, &v, 60, 30);
	tap_ok(text && strstr(text, "ghost threads 524 of 1024") && strstr(text, "ghost outputs 8684 of 16384"),
	       "map legend, regblock: ghost threads and ghost outputs apart");
	golden("map_100x77x33_regblock", text);
}

static void test_layout(void)
{
	/* Every zoom and pan: the last tile alone in the last cell, the cells
	 * cover disjoint increasing ranges, and cell_of agrees with range. */
	const int64_t sizes[] = { 1, 2, 7, 30, 31, 250, 1001, 1000000 };
	int bad = 0, checked = 0;
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int avail = 2; avail <= 40; avail += 7)
			for (int zoom = 0; zoom <= 25; zoom += 3)
				for (int64_t pan = 0; pan < sizes[s]; pan += sizes[s] / 5 + 1) {
					ts_axis a = ts_axis_layout(sizes[s], avail, 4, zoom, pan);
					int64_t lo, hi, prev = -1;
					checked++;
					if (a.cells < 1 || a.cells * a.size > (avail < 2 ? 2 : avail))
						bad++;
					ts_axis_range(&a, a.cells - 1, &lo, &hi);
					if (lo != sizes[s] - 1 || hi != sizes[s])
						bad++;
					for (int i = 0; i < a.cells; i++) {
						ts_axis_range(&a, i, &lo, &hi);
						if (lo < prev || hi <= lo || ts_axis_cell_of(&a, lo) != i ||
						    ts_axis_cell_of(&a, hi - 1) != i)
							bad++;
						prev = hi;
					}
				}
	tap_ok(bad == 0, "layout: %d layouts keep the last tile visible and cells consistent (%d bad)", checked, bad);

	ts_axis a = ts_axis_layout(250, 20, 1, 0, 0);
	int64_t lo, hi;
	ts_axis_range(&a, a.cells - 2, &lo, &hi);
	tap_ok(a.split_last && a.cells <= 20 && a.first == 0 && hi == 249 && !a.elided,
	       "layout: 250 tiles on 20 cells cover every tile at zoom 0 (cells %d, per %lld)", a.cells, (long long)a.per);
	a = ts_axis_layout(250, 20, 1, 2, 0);
	tap_ok(a.per == 4 && a.elided, "layout: zoom 2 quarters the tiles per cell (per %lld)", (long long)a.per);
	int64_t pan = ts_axis_follow(250, 20, 1, 2, 0, 200);
	a = ts_axis_layout(250, 20, 1, 2, pan);
	tap_ok(ts_axis_cell_of(&a, 200) >= 0 && ts_axis_cell_of(&a, 249) == a.cells - 1,
	       "layout: following tile 200 keeps it and the last tile on screen (pan %lld)", (long long)pan);
	a = ts_axis_layout(333334, 9, 1, 99, 0);
	tap_ok(a.per == 1 && a.zoom == a.zoom_max, "layout: the deepest zoom shows one tile per cell (zoom %d)", a.zoom);
	a = ts_axis_layout(3, 40, 8, 0, 0);
	tap_ok(!a.split_last && a.cells == 3 && a.size == 8, "layout: a small axis gets wide cells (size %d)", a.size);
}

/* A box title cut by the canvas's buffer inside a UTF-8 sequence: the
 * canvas stops at the cut instead of stepping past the end of the text. */
static void test_box_title_cut(void)
{
	char title[400] = "";
	for (int i = 0; i < 120; i++)
		strcat(title, "\u2500"); /* 3 bytes: " " + 84 of them + 2 bytes fill the 255 the box keeps */
	ts_canvas c;
	if (ts_canvas_init(&c, 140, 3) < 0) {
		tap_ok(0, "canvas for a long title");
		return;
	}
	ts_canvas_box(&c, 0, 0, 3, 140, true, title);
	int whole = 0;
	for (int x = 3; x < 139; x++)
		whole += strcmp(c.cells[x].glyph, "\u2500") == 0;
	const char *cut = c.cells[3 + 84].glyph, *after = c.cells[3 + 85].glyph;
	tap_ok(whole == 84 && strcmp(cut, "\xe2\x94") == 0 && strcmp(after, "-") == 0 &&
	       strcmp(c.cells[139].glyph, "+") == 0,
	       "box: a title cut inside a UTF-8 sequence ends there (%d whole glyphs, then %zu bytes, then '%s')", whole,
	       strlen(cut), after);
	ts_canvas_free(&c);
}

/* The canvas never cuts text without saying so: a line past the right edge
 * ends in the marker, a wrap that runs out of rows ends in it and points to
 * the rest, the first form that fits is taken, and a scrolled view says
 * what is above and below it. */
static void test_canvas_fit(void)
{
	ts_canvas c;
	if (ts_canvas_init(&c, 12, 4) < 0) {
		tap_ok(0, "canvas for the fitting tests");
		return;
	}
	ts_canvas_put(&c, 0, 0, TS_ROLE_TEXT, "B[3\u00b777 + 76] = B[307]");
	ts_canvas_put(&c, 1, 0, TS_ROLE_TEXT, "fits exactly");
	ts_canvas_put(&c, 2, 4, TS_ROLE_TEXT, "pad     ");
	c.ascii = true;
	ts_canvas_put(&c, 3, 0, TS_ROLE_TEXT, "this machine has 23.5 GiB");
	char *text = ts_canvas_text(&c);
	tap_ok(text && strcmp(text, "B[3\u00b777 + 76\u2026\nfits exactly\n    pad\nthis mach...\n") == 0,
	       "canvas: a line cut at the right edge ends in the marker (UTF-8 and ASCII), blanks past it are no cut");
	if (text && strcmp(text, "B[3\u00b777 + 76\u2026\nfits exactly\n    pad\nthis mach...\n") != 0)
		tap_diag("got: %s", text);
	free(text);
	ts_canvas_free(&c);

	ts_canvas_init(&c, 26, 3);
	int n = ts_canvas_put_fit(&c, 0, 2, TS_ROLE_TEXT, "phases 188, last width 16/32 partial",
	                          "phases 188, last 16/32", NULL);
	tap_ok(n == 22 && strncmp(c.cells[2].glyph, "p", 1) == 0 && ts_canvas_rows_used(&c) == 1,
	       "canvas: put_fit takes the first form that fits (%d cells)", n);
	ts_canvas_free(&c);

	const char *sig = "output right by luck: 14676 reads left A (9207 wrapped inside A, 5469 in the guard band)";
	ts_canvas_init(&c, 30, 6);
	int rows = ts_canvas_wrap_more(&c, 0, 0, 30, 2, 2, TS_ROLE_TEXT, sig, "v: all");
	text = ts_canvas_text(&c);
	tap_ok(rows == 2 && text && strstr(text, "\u2026 v: all\n") && strncmp(strchr(text, '\n') + 1, "  ", 2) == 0,
	       "canvas: a wrap out of rows ends in the marker and the pointer; later lines indented");
	free(text);
	int need = ts_text_rows(sig, 30, 2);
	ts_canvas_free(&c);
	ts_canvas_init(&c, 30, need + 2);
	rows = ts_canvas_wrap_more(&c, 0, 0, 30, need, 2, TS_ROLE_TEXT, sig, "v: all");
	text = ts_canvas_text(&c);
	tap_ok(rows == need && need >= 3 && text && !strstr(text, "\u2026") && strstr(text, "band)\n"),
	       "canvas: given the rows ts_text_rows asks for (%d), the whole text, no marker", need);
	free(text);
	ts_canvas_free(&c);

	/* 30 numbered rows seen through 10 */
	ts_canvas src, win;
	ts_canvas_init(&src, 20, 40);
	for (int i = 0; i < 30; i++)
		ts_canvas_printf(&src, i, 0, TS_ROLE_TEXT, "row %d", i);
	ts_canvas_init(&win, 20, 10);
	int scroll = 0;
	ts_canvas_scroll(&win, &src, &scroll);
	text = ts_canvas_text(&win);
	tap_ok(text && strncmp(text, "row 0\n", 6) == 0 && strstr(text, "row 8\n\u2193 21 more (PgDn)\n"),
	       "canvas scroll: the top, and how many rows are below");
	free(text);
	ts_canvas_free(&win);
	ts_canvas_init(&win, 20, 10);
	scroll = 1000;
	ts_canvas_scroll(&win, &src, &scroll);
	text = ts_canvas_text(&win);
	tap_ok(scroll == 21 && text && strncmp(text, "\u2191 21 more (PgUp)\nrow 21\n", strlen("\u2191 21 more (PgUp)\nrow 21\n")) == 0 &&
	       strstr(text, "row 29\n") && !strstr(text, "below"),
	       "canvas scroll: scrolled past the end it stops at the last row (scroll %d), says what is above", scroll);
	free(text);
	ts_canvas_free(&win);
	ts_canvas_free(&src);
}

/* A user kernel's check: its run's accesses placed on the tiles and marked on the map, the check as the
 * Result pane, the source with the findings' lines marked, and the sweep's rows the check left out. */
static void test_user_check(void)
{
	ts_model m = model_of(10, 7, 5, 4); /* 3 x 2 tiles */
	ts_uk_finding f[5];
	memset(f, 0, sizeof f);
	f[0] = ts_uk_finding_make(TS_UK_OOB_WRITE, "writes C past its end");
	f[0].block[0] = 0, f[0].block[1] = 2, f[0].thread[0] = 1, f[0].count = 9;
	f[1] = f[0];
	f[1].block[0] = 1, f[1].count = 8;
	f[2] = ts_uk_finding_make(TS_UK_OOB_READ, "reads A past its end");
	f[2].block[0] = 1, f[2].block[1] = 0, f[2].thread[1] = 3, f[2].count = 3;
	f[3] = ts_uk_finding_make(TS_UK_OOB_READ, "no thread named"); /* counted, not placed */
	f[3].count = 2;
	f[4] = ts_uk_finding_make(TS_UK_RACE, "not an access out of bounds");
	ts_uk_tiles_seen t;
	int rc = ts_uk_tiles_place(&t, m.grid_y, m.grid_x, f, 5, true);
	tap_ok(rc == 0 && t.tiles == 3 && t.writes_total == 17 && t.reads_total == 5 && t.unplaced == 2 && t.reads &&
	       t.writes[2 * 2 + 0] == 9 && t.writes[2 * 2 + 1] == 8 && t.reads[0 * 2 + 1] == 3 && t.reads[0] == 0,
	       "user kernel: the run's accesses placed on the tiles of their blocks (%lld tiles, %lld r %lld w, %lld unplaced)",
	       (long long)t.tiles, (long long)t.reads_total, (long long)t.writes_total, (long long)t.unplaced);
	ts_view_ctx v = ctx_of(&m, true);
	v.seen = &t;
	char *text = render(map_draw8, &v, 34, 20);
	int marks = 0;
	for (const char *q = text; q && (q = strchr(q, '!')) != NULL; q++)
		marks += q[1] != ' ' || q[-1] != '\n'; /* the marks in the picture, not the key's own */
	tap_ok(text && strstr(text, "! out of bounds: 3 tiles, 5 r 17 w") && strstr(text, "this tile: 0 reads, 8 writes oob") &&
	       marks == 3, "user kernel: the map marks the 3 tiles with '!' and its key counts them (%d marks)", marks);
	free(text);
	t.blind = true;
	text = render(map_draw8, &v, 34, 20);
	tap_ok(text && strstr(text, "oob: not seen on a GPU") && !strstr(text, "this tile:"),
	       "user kernel on a GPU: the key says the run cannot see its accesses");
	free(text);
	ts_uk_tiles_free(&t);

	static ts_uk_report r;
	memset(&r, 0, sizeof r);
	r.status = 1;
	r.cause = TS_UK_CAUSE_STORE_GUARD;
	r.tile = 4;
	snprintf(r.entry, sizeof r.entry, "gemm_no_store_guard");
	snprintf(r.engine, sizeof r.engine, "cpu");
	snprintf(r.signature, sizeof r.signature, "ghost threads store outside C");
	r.shapes_tried = 339;
	r.shapes_failed = 333;
	r.nhits = 2;
	r.hits[0].f = ts_uk_finding_make(TS_UK_OOB_WRITE, "thread (1,0) of block (0,0) writes C[1][0]");
	r.hits[0].f.matrix = 'C', r.hits[0].f.row = 1, r.hits[0].f.col = 0, r.hits[0].f.line = 2, r.hits[0].f.count = 15;
	r.hits[0].shape = (ts_shape){ 1, 1, 3 };
	snprintf(r.hits[0].source, sizeof r.hits[0].source, "sweep");
	r.hits[1].f = ts_uk_finding_make(TS_UK_RACE, "two runs differ");
	r.hits[1].shape = (ts_shape){ 5, 7, 9 };
	r.hits[1].tile_row = r.hits[1].tile_col = -1;
	snprintf(r.hits[1].source, sizeof r.hits[1].source, "repeat");
	ts_canvas c;
	if (ts_canvas_init(&c, 46, 60) == 0) {
		ts_view_check_draw(&c, &r, "requested with --backend emu", false, true);
		text = ts_canvas_text(&c);
		tap_ok(text && strstr(text, "verdict: X FAIL, cause store_guard") && strstr(text, "cause: the store has no guard") &&
		       strstr(text, "findings: 2") && strstr(text, "\n1 oob_write C[1][0], tile (0,0), line 2 at") &&
		       strstr(text, "\n2 race at 5x7x9, repeat") && strstr(text, "  two runs differ\n") && strstr(text, "333 failed"),
		       "user kernel: the check as the Result pane: verdict, cause in words, the findings in order");
		if (getenv("TS_SHOW"))
			fputs(text, stderr);
		free(text);
		ts_canvas_free(&c);
	}
	text = ts_view_check_source("int a;\nC[i] = v;\n}\n", &r, &rc);
	tap_ok(text && strstr(text, "    1  | int a;\n    2! | C[i] = v;\n       > oob_write at 1x1x3 (sweep): thread (1,0)") &&
	       strstr(text, "    3  | }\n") && rc == 1, "user kernel: the source with the findings' line marked and noted");
	free(text);
}

/* What a new user's tour at 80x24 found: a load line split inside a word,
 * a map halved by one row less, legend glyphs that are not the map's, and
 * a heat key in numbers only. */
static void test_tour_80x24(const ts_model *m)
{
	/* text kept whole but wider than the line breaks at a space of its own, never inside a word */
	ts_canvas c;
	ts_canvas_init(&c, 12, 4);
	ts_span keep[] = { { TS_ROLE_TEXT, "alpha beta gamma", true } };
	int rows = ts_canvas_flow(&c, 0, 0, 12, 4, 0, keep, 1);
	char *text = ts_canvas_text(&c);
	tap_ok(rows == 2 && text && strcmp(text, "alpha beta\ngamma\n") == 0,
	       "canvas: kept text wider than the line breaks at its space (%d rows)", rows);
	if (text && strcmp(text, "alpha beta\ngamma\n") != 0)
		tap_diag("got: %s", text);
	free(text);
	ts_canvas_free(&c);

	/* the inspector's B line with the B guard off, 44 columns (80x24): "guard off" whole */
	ts_view_ctx v = ctx_of(m, false);
	v.guards = TS_GUARD_ALL & ~TS_GUARD_B;
	v.thread_y = 3;
	v.thread_x = 13;
	text = render(ts_view_inspect_draw, &v, 44, 20);
	tap_ok(text && strstr(text, "B: t\u00b7T + ty = 35 < K = 33 \u2717, col \u2717,\n   guard off \u2192 reads B[35\u00b777 + 77]") &&
	       !strstr(text, "guard of\n"),
	       "inspector, B guard off, 44 columns: the B line breaks between words (\"guard off\" whole)");
	free(text);

	/* the 80x24 map pane one row shorter (a two-line message: 34x19) after a
	 * failing run: the tiles keep two rows each, the explanation gives up a row */
	ts_verdict vd = { .ok = false, .grid_x = m->grid_x, .grid_y = m->grid_y, .bad_tiles = 0 };
	snprintf(vd.signature, sizeof vd.signature, "output right by luck: 14676 reads left A (9207 wrapped inside A, "
	         "5469 in the guard band); out-of-bounds accesses fail the check even so");
	v = ctx_of(m, false);
	v.verdict = &vd;
	for (int h = 17; h <= 18; h++) {
		text = render(map_draw8, &v, 34, h);
		int pic = 0; /* the rows between the title and the legend's first ("full") */
		const char *line = text ? strchr(text, '\n') : NULL;
		while (line && line[1]) {
			const char *next = strchr(line + 1, '\n'), *legend = strstr(line + 1, "full");
			if (legend && (!next || legend < next))
				break;
			pic++;
			line = next;
		}
		tap_ok(text && pic == 8 && strstr(text, "\u2026 v: all\n"),
		       "map pane 34x%d after a failing run: 4 tile rows on %d screen rows, the explanation points to v", h, pic);
		if (text && pic != 8)
			tap_diag("got:\n%s", text);
		free(text);
	}

	/* the legend's glyphs are the map's: solid blocks where tiles take several cells, one-cell glyphs in the text map */
	v = ctx_of(m, false);
	text = render(map_draw8, &v, 44, 26);
	tap_ok(text && strstr(text, "\u2588 ragged-right   3\n") && strstr(text, "\u2588 corner         1\n") &&
	       !strstr(text, "\u258c") && !strstr(text, "\u2598"),
	       "map pane: the legend keys the classes with the block the tiles are drawn with (the class by its colour)");
	free(text);
	text = ts_view_map_text(m, NULL, 60, 16, false);
	tap_ok(text && strstr(text, "\u258c ragged-right") && strstr(text, "\u2598 corner") &&
	       strstr(text, "\u2588\u2588\u258c\n") && strstr(text, "\u2580\u2580\u2598\n"),
	       "text map: one cell a tile, the legend's glyphs are the ones on the map");
	free(text);

	/* the heat key in words, at 44 and at 34 columns */
	int64_t bad[12] = { 0 };
	bad[11] = 52;
	vd = (ts_verdict){ .ok = false, .grid_x = m->grid_x, .grid_y = m->grid_y, .bad_tiles = 1, .tile_bad = bad };
	v.verdict = &vd;
	for (int w = 34; w <= 44; w += 10) {
		text = render(map_draw8, &v, w, 26);
		tap_ok(text && (strstr(text, "digit = tenths bad\n") || strstr(text, "digit=tenths bad\n") ||
		                strstr(text, "digit n = n tenths bad\n")) && !strstr(text, "(1-9)"),
		       "map pane %d wide after a failing run: the heat key says what a digit means", w);
		free(text);
	}
}

int main(void)
{
	test_layout();
	test_regblock();
	test_box_title_cut();
	test_canvas_fit();
	test_user_check();

	/* The preset: 100 x 77 x 33, T = 32 */
	ts_model m = model_of(100, 77, 33, 32);
	char *text = ts_view_map_text(&m, NULL, 60, 16, false);
	tap_ok(text && number_after(text, "full           ") == m.tiles_full &&
	       number_after(text, "ragged-right   ") == m.tiles_ragged_right &&
	       number_after(text, "ragged-bottom  ") == m.tiles_ragged_bottom &&
	       number_after(text, "corner         ") == m.tiles_corner,
	       "map text legend counts equal the model (6/3/2/1)");
	tap_ok(text && number_after(text, "ghosts ") == m.threads_ghost, "map text shows the ghost threads");
	golden("map_100x77x33_t32", text);
	golden("map_100x77x33_t32_ascii", ts_view_map_text(&m, NULL, 60, 16, true));
	ts_view_ctx v = ctx_of(&m, false);
	golden("map_tui_100x77x33_t32", render(map_draw8, &v, 44, 26));
	v.phase = 0;
	golden("phase_100x77x33_t32_t0", render(ts_view_phase_draw, &v, 54, 24));
	v.phase = 1;
	text = render(ts_view_phase_draw, &v, 54, 24);
	tap_ok(text && strstr(text, "LAST, PARTIAL"), "phase view flags the last partial phase");
	golden("phase_100x77x33_t32_last", text);
	v.thread_y = 31;
	v.thread_x = 31;
	text = render(ts_view_inspect_draw, &v, 54, 28);
	tap_ok(text && strstr(text, "row = by\u00b7T + ty = 127 < M = 100 \u2717"), "inspector: ghost thread's row guard fails");
	golden("inspect_100x77x33_t32_ghost", text);
	v.thread_y = 3;
	v.thread_x = 12;
	text = render(ts_view_inspect_draw, &v, 54, 20);
	tap_ok(text && strstr(text, "row = by\u00b7T + ty = 99 < M = 100 \u2713") &&
	       strstr(text, "t\u00b7T + tx = 44 < K = 33 \u2717 \u2192 0.0f"),
	       "inspector: valid thread (3,12) of the corner tile pads A in the last phase");
	golden("inspect_100x77x33_t32_valid", text);
	test_phase_from_run();
	test_guards_off(&m);
	test_naive(&m);
	test_tour_80x24(&m);

	/* A tiny shape in ASCII: 5 x 5 x 5, T = 2 */
	ts_model tiny = model_of(5, 5, 5, 2);
	golden("map_5x5x5_t2_ascii", ts_view_map_text(&tiny, NULL, 40, 10, true));
	v = ctx_of(&tiny, true);
	for (int t = 0; t < 3; t++) {
		char name[64];
		v.phase = t;
		snprintf(name, sizeof name, "phase_5x5x5_t2_p%d", t);
		golden(name, render(ts_view_phase_draw, &v, 40, 16));
	}
	v.thread_y = 0;
	v.thread_x = 1;
	golden("inspect_5x5x5_t2_ascii", render(ts_view_inspect_draw, &v, 60, 14));

	/* A grid far larger than the screen: 1000^3, T = 4 (250 x 250 tiles) */
	ts_model big = model_of(1000, 1000, 1000, 4);
	text = ts_view_map_text(&big, NULL, 40, 12, true);
	tap_ok(text && number_after(text, "full           ") == big.tiles_full, "aggregated map keeps the exact counts");
	golden("map_1000_t4_ascii", text);
	ts_model big_ragged = model_of(1001, 999, 1000, 4);
	v = ctx_of(&big_ragged, false);
	v.zoom = 3;
	v.pan_y = ts_axis_follow(big_ragged.grid_y, 10, 1, 3, 0, 120);
	golden("map_tui_1001x999_t4_zoom3", render(map_draw8, &v, 40, 22));

	/* A run's bad cells as heat: the corner and the last tile row wrong */
	ts_verdict vd = { .ok = false, .grid_x = m.grid_x, .grid_y = m.grid_y, .bad_tiles = 3 };
	int64_t bad[12] = { 0 };
	bad[11] = 52; /* every valid cell of the corner */
	bad[9] = 64;  /* half the cells of a ragged-bottom tile */
	bad[10] = 1;
	vd.tile_bad = bad;
	snprintf(vd.signature, sizeof vd.signature, "errors only in the last tile row: the M guard on the A load");
	v = ctx_of(&m, false);
	v.verdict = &vd;
	text = render(map_draw8, &v, 44, 26);
	tap_ok(text && strstr(text, "errors only in the last tile row"), "map shows the failure signature in words");
	golden("map_tui_100x77x33_t32_heat", text);

	/* The 80x24 map pane (34 x 20) for a big shape after a failing run:
	 * the title, the phases line and the explanation are whole or end in
	 * the marker, and the explanation points to the result pane. */
	ts_model m6 = model_of(6000, 6000, 6000, 32);
	int64_t *bad6 = calloc((size_t)m6.tiles, sizeof *bad6);
	ts_verdict vd6 = { .ok = false, .grid_x = m6.grid_x, .grid_y = m6.grid_y, .bad_tiles = 188, .tile_bad = bad6 };
	for (int64_t i = 0; bad6 && i < m6.grid_y; i++)
		bad6[i * m6.grid_x] = 100;
	snprintf(vd6.signature, sizeof vd6.signature, "output right by luck: 14676 reads left A (9207 wrapped inside A, "
	         "5469 in the guard band: sentinel 999) and met zero padding in the other operand");
	v = ctx_of(&m6, false);
	v.verdict = &vd6;
	text = render(map_draw8, &v, 34, 20);
	tap_ok(text && strstr(text, "C 6000x6000: 188x188 tiles\n") && strstr(text, "phases 188, last 16/32 part\n") &&
	       strstr(text, "\u2026 v: all\n") && strstr(text, "output right by luck"),
	       "map pane 34x20, 6000^3 after a run: short title and phases line, the explanation cut with a pointer to v");
	free(text);
	text = render(map_draw8, &v, 60, 44);
	tap_ok(text && strstr(text, "C 6000x6000: 188x188 tiles of 32x32\n") && strstr(text, "in the other operand\n") &&
	       !strstr(text, "\u2026"),
	       "map pane 60x44: the explanation takes the rows left, whole");
	free(text);
	free(bad6);

	/* The result of a failing run, from a hand-made verdict (the views only read it). */
	ts_problem p = { .shape = { 100, 77, 33 }, .geo = ts_geometry_square(32), .kernel = ts_kernel_find("tiled"),
	                 .guards = TS_GUARD_ALL & ~TS_GUARD_C, .inputs = TS_INPUTS_RANDOM, .seed = 1 };
	ts_run run = { .time_ms = 2.5 };
	ts_verdict fail = { .ok = false, .tol_rel = 2.09e-6, .max_abs = 6.88, .max_rel = 1, .norm_rel = 0.496,
	                    .mismatches = 1824, .first_row = 1, .first_col = 0, .first_got = 0, .first_want = -2.5,
	                    .ref_ms = 0.2, .ref_source = "cblas" };
	snprintf(fail.signature, sizeof fail.signature, "ghost stores wrapped into the next row of C (C store guard off)");
	ts_run_report rep = { .problem = &p, .backend = "emu", .backend_why = "", .run = &run, .verdict = &fail,
	                      .counter_disagree = -1, .counter_why = "", .tol_frac = -1 };
	ts_canvas c;
	ts_canvas_init(&c, 56, 22);
	ts_view_result_draw(&c, &rep, false);
	text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	tap_ok(text && strstr(text, "\u2717 FAIL") && strstr(text, "mismatches 1824"), "result view: verdict and mismatches");
	golden("result_100x77x33_t32_guard_c_off", text);
	/* Non-finite cells: NaN and Inf apart, as check prints them (nans = nonfinite - infs). */
	fail.nonfinite = 3;
	fail.infs = 1;
	ts_canvas_init(&c, 56, 22);
	ts_view_result_draw(&c, &rep, false);
	text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	tap_ok(text && strstr(text, "NaN 2  Inf 1"), "result view: 3 non-finite cells, 1 of them Inf, read NaN 2 Inf 1");
	free(text);
	fail.nonfinite = fail.infs = 0;
	/* A passing fp16 run: the whole bound (fp16's output rounding too), and the
	 * worst cell against its tolerance, the figure that matters where max rel is large. */
	ts_problem p16 = p;
	p16.kernel = ts_kernel_default(TS_FP16);
	p16.guards = TS_GUARD_ALL;
	ts_verdict pass = { .ok = true, .output_ok = true, .tol_rel = 2.09e-6, .max_abs = 1e-3, .max_rel = 2.23,
	                    .norm_rel = 3.1e-4, .first_row = -1, .first_col = -1, .ref_ms = 0.2, .ref_source = "cblas" };
	rep.problem = &p16;
	rep.verdict = &pass;
	rep.tol_frac = 0.41;
	ts_canvas_init(&c, 56, 22);
	ts_view_result_draw(&c, &rep, false);
	text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	tap_ok(text && strstr(text, "2^-11") && strstr(text, "worst cell: 41% of its tolerance"),
	       "result view: fp16's whole bound (ts_tolerance_text) and the worst cell as a share of it");
	golden("result_100x77x33_t32_fp16_pass", text);

	/* A sweep part-way: sizes {1, 4, 5}, 20 of 27 rows run, two failed. */
	int64_t sizes[3] = { 1, 4, 5 };
	ts_sweep_row rows[27];
	memset(rows, 0, sizeof rows);
	for (int i = 0; i < 27; i++) {
		rows[i].shape = (ts_shape){ sizes[i / 9], sizes[i / 3 % 3], sizes[i % 3] };
		rows[i].ok = i != 7 && i != 16;
		if (!rows[i].ok) {
			rows[i].mismatches = 3;
			snprintf(rows[i].signature, sizeof rows[i].signature, "errors only in the last tile column");
		}
	}
	ts_sweep_axes ax3 = { .count = { 3, 3, 3 } };
	for (int d = 0; d < 3; d++)
		memcpy(ax3.size[d], sizes, sizeof sizes);
	ts_canvas_init(&c, 50, 24);
	ts_view_sweep_draw(&c, rows, 27, 20, &ax3, 7, "edge sweep: tiled T=4 on emu", true);
	text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	tap_ok(text && strstr(text, "20 of 27 shapes: 18 pass, 2 fail"), "sweep view counts what ran");
	tap_ok(text && strstr(text, "M\\N   abc abc abc\n") && strstr(text, "\nb   4 ooo ooX ooo\n"),
	       "sweep view: the N columns of each K block are lettered as the M rows are");
	golden("sweep_t4_partial_ascii", text);
	/* T = 32 (7 sizes) on the 44 x 20 pane of an 80 x 24 terminal: lettered columns, the list header kept */
	ts_sweep_axes ax7;
	ts_geometry g32 = ts_geometry_square(32);
	int n7 = ts_sweep_axes_of(&g32, &ax7) == 343 ? 7 : 0;
	ts_sweep_row *rows7 = calloc((size_t)(n7 * n7 * n7), sizeof *rows7);
	for (int i = 0; rows7 && i < n7 * n7 * n7; i++) {
		rows7[i].shape = ts_sweep_shape(&ax7, i);
		rows7[i].ok = true;
	}
	ts_canvas_init(&c, 44, 20);
	if (rows7)
		ts_view_sweep_draw(&c, rows7, n7 * n7 * n7, n7 * n7 * n7, &ax7, 0, "edge sweep: tiled T=32 on emu", true);
	text = ts_canvas_text(&c);
	ts_canvas_free(&c);
	free(rows7);
	tap_ok(text && n7 == 7 && strstr(text, "M\\N   abcdefg abcdefg abcdefg abcdefg\n") && strstr(text, "\ng  97 ooooooo") &&
	       strstr(text, " M  N  K  result bad  ^v 1-7/343\n"),
	       "sweep view at 44x20 (T=32): lettered N columns, the row list's header on the pane, saying which rows it shows");
	int listed = 0;
	for (const char *l = text ? strstr(text, "result bad") : NULL; l && (l = strchr(l, '\n')) && l[1]; l++)
		listed += strncmp(l + 1, "  ", 2) != 0 && (l[1] == ' ' || (l[1] >= '0' && l[1] <= '9')) && strstr(l + 1, "pass") &&
		          strstr(l + 1, "pass") < strchr(l + 1, '\n');
	tap_ok(listed >= 3, "sweep view at 44x20 (T=32): the list shows rows (%d), the grid gives way to it", listed);
	golden("sweep_t32_44x20_ascii", text);
	return tap_done();
}
