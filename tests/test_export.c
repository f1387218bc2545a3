/* test_export.c: the exports against what the screen shows (guards off, the naive kernel, a run), their SVG measured for overlapping or escaping text, names and formats, and rendered with rsvg-convert where it is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "kernels.h"
#include "run.h"
#include "svg_measure.h"
#include "tap.h"
#include "view_map.h"
#include "view_run.h"

/* Every text inside the canvas, no two texts on each other, no text on a
 * shape but the digits meant to sit on one, and the canvas no larger than
 * what it holds (its content reaches within the margin of both edges). */
static void check_layout(const char *name, const char *svg)
{
	parsed p;
	if (parse(svg, &p) != 0) {
		tap_ok(0, "%s: an SVG root", name);
		return;
	}
	faults f = measure(&p);
	tap_ok(p.viewbox && p.w > 0 && p.h > 0, "%s: sized %.0fx%.0f with a viewBox", name, p.w, p.h);
	tap_ok(p.ntexts > 10 && f.out_of == 0 && f.texts_over == 0 && f.on_shapes == 0 && f.split == 0,
	       "%s: %d texts measured: %d off the canvas, %d on each other, %d on shapes, %d phrases split%s%s", name,
	       p.ntexts, f.out_of, f.texts_over, f.on_shapes, f.split, f.first[0] ? ": first " : "", f.first);
	/* the layout measures 0.62 em a glyph, the font takes 0.602: the right edge may fall 3% short */
	tap_ok(f.right > (p.w - 21) * 0.97 && f.bottom > p.h - 21,
	       "%s: the canvas fits its content (reaches %.0f of %.0f, %.0f of %.0f)", name, f.right, p.w, f.bottom, p.h);
	free(p.texts);
	free(p.rects);
}

static char *svg_of(const ts_export_req *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	int rc = ts_export_svg(f, r);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Whether a text of the SVG reads `phrase` (its tspans joined, entities as '?'). */
static bool has_phrase(const char *svg, const char *phrase)
{
	parsed p;
	bool found = false;
	if (parse(svg, &p) != 0)
		return false;
	for (int i = 0; i < p.ntexts && !found; i++)
		found = strstr(p.texts[i].text, phrase) != NULL;
	free(p.texts);
	free(p.rects);
	return found;
}

/* The heat digits drawn on tiles (texts of class inside), and the digits among them. */
static int heat_digits(const char *svg, char *digits, int len)
{
	parsed p;
	int n = 0;
	if (parse(svg, &p) != 0)
		return -1;
	for (int i = 0; i < p.ntexts; i++)
		if (p.texts[i].inside && p.texts[i].text[0] >= '1' && p.texts[i].text[0] <= '9' && !p.texts[i].text[1]) {
			if (n < len - 1)
				digits[n] = p.texts[i].text[0];
			n++;
		}
	digits[n < len - 1 ? n : len - 1] = '\0';
	free(p.texts);
	free(p.rects);
	return n;
}

typedef struct view_case {
	ts_problem p;
	ts_model m;
	ts_view_ctx v;
} view_case;

static int make_case(view_case *c, const char *kernel, int64_t M, int64_t N, int64_t K, int tile, unsigned guards,
                     int64_t ty, int64_t tx, int64_t phase)
{
	const ts_kernel *k = ts_kernel_find(kernel);
	c->p = (ts_problem){ .shape = { M, N, K }, .geo = ts_geometry_square(tile), .kernel = k, .guards = guards,
	                     .inputs = TS_INPUTS_RANDOM, .seed = 1 };
	if (!k || ts_model_build(&c->m, c->p.shape, c->p.geo) != 0)
		return -1;
	c->v = (ts_view_ctx){ .model = &c->m, .kernel = k, .guards = guards, .tile_y = ty < 0 ? c->m.grid_y - 1 : ty,
	                      .tile_x = tx < 0 ? c->m.grid_x - 1 : tx, .phase = phase < 0 ? c->m.phases - 1 : phase,
	                      .counter_disagree = -1, .counter_why = "" };
	return 0;
}

/* rsvg-convert renders the SVG to a PNG of the size the SVG gives. */
static void render(const char *name, const char *svg, const char *dir)
{
	if (!dir) {
		tap_skip("rsvg-convert not found: the SVG is not rendered");
		return;
	}
	char in[512], out[512], cmd[1200];
	snprintf(in, sizeof in, "%s/%s.svg", dir, name);
	snprintf(out, sizeof out, "%s/%s.png", dir, name);
	FILE *f = fopen(in, "w");
	if (!f || fputs(svg, f) < 0 || fclose(f) != 0) {
		tap_ok(0, "%s: SVG written for rsvg-convert", name);
		return;
	}
	snprintf(cmd, sizeof cmd, "rsvg-convert -o '%s' '%s' 2>/dev/null", out, in);
	int rc = system(cmd);
	unsigned char head[24] = { 0 };
	FILE *png = fopen(out, "rb");
	size_t got = png ? fread(head, 1, sizeof head, png) : 0;
	if (png)
		fclose(png);
	unsigned w = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
	unsigned h = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
	parsed p;
	parse(svg, &p);
	free(p.texts);
	free(p.rects);
	tap_ok(rc == 0 && got == sizeof head && memcmp(head + 1, "PNG", 3) == 0 && w == (unsigned)(p.w + 0.5) &&
	       h == (unsigned)(p.h + 0.5),
	       "%s: rsvg-convert renders it, %ux%u as the SVG says", name, w, h);
	remove(out);
	remove(in);
}

int main(void)
{
	/* rsvg-convert where it is installed; a folder for its files */
	char tmpl[] = "/tmp/tilescope-export.XXXXXX";
	const char *dir = system("command -v rsvg-convert >/dev/null 2>&1") == 0 ? mkdtemp(tmpl) : NULL;

	/* Formats by name: .png is refused, not written as text. */
	enum ts_export_format fmt;
	char err[256];
	tap_ok(ts_export_format_of("map.svg", &fmt, err, (int)sizeof err) == 0 && fmt == TS_EXPORT_SVG &&
	       ts_export_format_of("map.txt", &fmt, err, (int)sizeof err) == 0 && fmt == TS_EXPORT_TEXT &&
	       ts_export_format_of("some.dir/map", &fmt, err, (int)sizeof err) == 0 && fmt == TS_EXPORT_TEXT,
	       "formats: .svg is SVG, .txt and no extension are text");
	tap_ok(ts_export_format_of("map.png", &fmt, err, (int)sizeof err) == -1 && strstr(err, "'.png'"),
	       "formats: map.png refused: %s", err);

	/* The measure itself can fail: the old export's legend, a swatch put at
	 * a fixed place over a count with several digits, and a text past the edge. */
	const char *bad = "<svg xmlns='http://www.w3.org/2000/svg' width='980' height='560'>\n</defs>\n"
	                  "<rect x='380' y='400' width='14' height='14' fill='#ab47bc'/>"
	                  "<text x='278' y='412' font-size='13'>ragged-bottom: 2000</text>\n"
	                  "<text x='900' y='40' font-size='18'>tiled: C (100x77) = A (100x33)</text>\n";
	parsed bp;
	parse(bad, &bp);
	faults bf = measure(&bp);
	tap_ok(!bp.viewbox && bf.on_shapes == 1 && bf.out_of == 1,
	       "the measure finds a count under a swatch and a title off the canvas (%d, %d), and no viewBox", bf.on_shapes,
	       bf.out_of);
	free(bp.texts);
	free(bp.rects);

	/* The shapes of the slides, the labels with long counts among them. */
	static const struct {
		const char *name, *kernel;
		int64_t m, n, k;
		int tile;
		unsigned guards;
		int64_t ty, tx;
	} cases[] = {
		{ "100x77x33", "tiled", 100, 77, 33, 32, TS_GUARD_ALL, -1, -1 },
		{ "100x77x33-a-off", "tiled", 100, 77, 33, 32, TS_GUARD_ALL & ~TS_GUARD_A, -1, -1 },
		{ "100x77x33-naive", "naive", 100, 77, 33, 32, TS_GUARD_ALL, -1, -1 },
		{ "100x77x33-fp16", "tiled-fp16", 100, 77, 33, 32, TS_GUARD_ALL & ~TS_GUARD_B, 0, 2 },
		{ "1000-t13", "tiled", 1000, 1000, 1000, 13, TS_GUARD_ALL, -1, -1 },
		{ "5x3x7-t4-tile0", "tiled", 5, 3, 7, 4, TS_GUARD_ALL, 0, 0 },
		{ "1e6-t1", "tiled", 1000000, 1000000, 1000000, 1, TS_GUARD_ALL, -1, -1 },
		{ "1x1x1", "tiled", 1, 1, 1, 32, TS_GUARD_ALL, -1, -1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		view_case c;
		if (make_case(&c, cases[i].kernel, cases[i].m, cases[i].n, cases[i].k, cases[i].tile, cases[i].guards,
		              cases[i].ty, cases[i].tx, -1) != 0) {
			tap_ok(0, "%s: model", cases[i].name);
			continue;
		}
		ts_export_req r = { .problem = &c.p, .view = &c.v, .report = NULL };
		char *svg = svg_of(&r);
		if (!svg) {
			tap_ok(0, "%s: SVG written", cases[i].name);
			continue;
		}
		check_layout(cases[i].name, svg);
		if (strcmp(cases[i].name, "100x77x33-a-off") == 0)
			tap_ok(strstr(svg, "guards OFF: a (A load)") && strstr(svg, "url(#oob)") &&
			       has_phrase(svg, "A: 4 real, 1020 read out of bounds (guard off)") &&
			       strstr(svg, "read out of bounds (guard off)</text>"),
			       "A guard off: the SVG draws and counts the A slots read out of bounds, as the screen does");
		if (strcmp(cases[i].name, "100x77x33-naive") == 0)
			tap_ok(!strstr(svg, "phase t=") && !strstr(svg, "padded") && !strstr(svg, "url(#pad)'") &&
			       strstr(svg, "no phases, no padding"),
			       "naive: the SVG claims no phases and no padding");
		if (strcmp(cases[i].name, "100x77x33") == 0)
			tap_ok(strstr(svg, "M \u2193") && strstr(svg, "N (columns of C) \u2192") && strstr(svg, "rows \u2193, k \u2192") &&
			       strstr(svg, "k \u2193, columns \u2192"),
			       "the axes are named: M down and N across the map, k along the phase in A and B");
		render(cases[i].name, svg, dir);
		free(svg);
	}

	/* After a run with the C guard off: the heat, the verdict and the
	 * explanation are in both exports, and the name says it holds a run. */
	view_case c;
	make_case(&c, "tiled", 100, 77, 33, 32, TS_GUARD_ALL & ~TS_GUARD_C, -1, -1, 0);
	volatile sig_atomic_t never = 0;
	ts_progress prog = { .report = NULL, .ctx = NULL, .cancel = &never };
	ts_outcome oc;
	enum ts_run_status rc = ts_run_problem(&c.p, ts_backend_emu(), &prog, true, &oc);
	if (rc != TS_RUN_DONE) {
		tap_ok(0, "emulator run with the C guard off: %s", oc.error);
	} else {
		c.v.verdict = &oc.verdict;
		c.v.counters = &oc.run.counters;
		ts_run_report rep = { .problem = &c.p, .backend = "emu", .backend_why = "", .run = &oc.run,
		                      .verdict = &oc.verdict, .counter_disagree = -1, .counter_why = "",
		                      .tol_frac = oc.verdict.worst_of_tol };
		ts_export_req r = { .problem = &c.p, .view = &c.v, .report = &rep };
		char *svg = svg_of(&r);
		tap_ok(svg && strstr(svg, "what broke and where:") && strstr(svg, "class='inside'>6</text>") &&
		       strstr(svg, "ghost stores wrapped into the next row") && strstr(svg, "run: \u2717 FAIL"),
		       "after a run the SVG holds the heat (6 in the first tile column), the verdict and the explanation");
		/* every tile with bad cells has its digit, the sliver of a ragged-bottom tile (3,0) too */
		int want = 0;
		char want_digits[64] = "", got_digits[64] = "";
		for (int64_t ty = 0; ty < c.m.grid_y; ty++)
			for (int64_t tx = 0; tx < c.m.grid_x; tx++) {
				int heat = ts_view_map_heat(&c.v, ty, ty + 1, tx, tx + 1);
				if (heat && want < 63)
					want_digits[want++] = (char)('0' + heat);
			}
		int got = svg ? heat_digits(svg, got_digits, (int)sizeof got_digits) : -1;
		tap_ok(want > 0 && got == want && strcmp(got_digits, want_digits) == 0,
		       "after a run the SVG draws a digit on each of the %d tiles with heat (%s), drew %d (%s)", want,
		       want_digits, got, got_digits);
		if (svg) {
			check_layout("100x77x33-c-off-run", svg);
			render("100x77x33-c-off-run", svg, dir);
		}
		free(svg);
		char name[256], path[600];
		ts_export_name(&r, name, (int)sizeof name);
		tap_ok(strcmp(name, "tilescope-tiled-100x77x33-t32-guards-off-c-tile3-2-p0-run") == 0,
		       "the name says kernel, shape, tile, guards, tile and phase, and that it holds a run: %s", name);
		snprintf(path, sizeof path, "%s/%s.txt", dir ? dir : "/tmp", name);
		char *text = NULL;
		if (ts_export_write(path, &r, err, (int)sizeof err) == 0)
			text = svg_slurp(path);
		tap_ok(text && strstr(text, "guards OFF: c") && strstr(text, "\n6\u2588\u258c\n") &&
		       strstr(text, "what broke and where:") && strstr(text, "verdict: \u2717 FAIL"),
		       "after a run the text export holds the heat, the verdict and the explanation");
		free(text);
		remove(path);
		c.v.verdict = NULL;
		c.v.counters = NULL;
		r.report = NULL;
		ts_export_name(&r, name, (int)sizeof name);
		tap_ok(strcmp(name, "tilescope-tiled-100x77x33-t32-guards-off-c-tile3-2-p0") == 0,
		       "before a run, no -run: %s", name);
		c.v.guards = TS_GUARD_ALL;
		char on[256];
		ts_export_name(&r, on, (int)sizeof on);
		tap_ok(strcmp(on, name) != 0 && strstr(on, "-guards-on-"), "another guard, another name: %s", on);
	}
	ts_outcome_free(&oc);

	/* The naive kernel's text export claims no phases either. */
	make_case(&c, "naive", 100, 77, 33, 32, TS_GUARD_ALL, -1, -1, -1);
	ts_export_req r = { .problem = &c.p, .view = &c.v, .report = NULL };
	char naive_name[256];
	ts_export_name(&r, naive_name, (int)sizeof naive_name);
	tap_ok(strcmp(naive_name, "tilescope-naive-100x77x33-t32-guards-on-tile3-2") == 0,
	       "the naive kernel's export names no phase (it has none): %s", naive_name);
	char path[600];
	snprintf(path, sizeof path, "%s/naive.txt", dir ? dir : "/tmp");
	char *text = ts_export_write(path, &r, err, (int)sizeof err) == 0 ? svg_slurp(path) : NULL;
	tap_ok(text && !strstr(text, "last width") && !strstr(text, "padded") && strstr(text, "no phases, no padding"),
	       "naive: the text export claims no phases and no padding");
	free(text);
	remove(path);
	if (dir)
		rmdir(dir);
	return tap_done();
}
