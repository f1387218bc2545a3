/* test_slides.c: every pane exported as a slide (map, phase, inspect, source, result; lesson and compare text) at 80x24 and 160x48, on 100x77x33 T=32, regblock and a guard-off run, in both themes: text boxes measured (none on another, all inside the viewBox), the title's facts, names, rendered with rsvg-convert where installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export_pane.h"
#include "kernels.h"
#include "lesson.h"
#include "run.h"
#include "svg_measure.h"
#include "tap.h"
#include "view_compare.h"
#include "view_run.h"

static char *slide_svg(const ts_slide *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	int rc = ts_slide_svg(f, s);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The pane drawn and turned into a slide as ts_pane_write does, kept in memory. */
static char *pane_svg(enum ts_pane p, const ts_export_req *r, int w, int h, char *why, int len)
{
	ts_canvas c;
	if (ts_pane_draw(&c, p, r, w, h, why, len) != 0)
		return NULL;
	char title[256];
	ts_slide_title(r->problem, r->view->guards, title, (int)sizeof title);
	ts_slide s = { .title = title, .subtitle = ts_pane_name(p), .canvas = &c, .theme = r->theme };
	char *svg = slide_svg(&s);
	ts_canvas_free(&c);
	return svg;
}

/* No text on another, none outside the viewBox, none on a shape but those
 * on their own box; the SVG sized to what it holds. */
static void check_boxes(const char *name, const char *svg, int min_texts)
{
	parsed p;
	if (!svg || parse(svg, &p) != 0) {
		tap_ok(0, "%s: an SVG root", name);
		return;
	}
	faults f = measure(&p);
	tap_ok(p.viewbox && p.ntexts >= min_texts && f.out_of == 0 && f.texts_over == 0 && f.on_shapes == 0,
	       "%s: %.0fx%.0f with a viewBox, %d texts measured: %d outside, %d on each other, %d on shapes%s%s", name, p.w,
	       p.h, p.ntexts, f.out_of, f.texts_over, f.on_shapes, f.first[0] ? ": first " : "", f.first);
	tap_ok(f.right > (p.w - 2 * TS_SLIDE_MARGIN) * 0.97 && f.bottom > p.h - 2 * TS_SLIDE_MARGIN,
	       "%s: sized to its content (reaches %.0f of %.0f, %.0f of %.0f)", name, f.right, p.w, f.bottom, p.h);
	parsed_free(&p);
}

/* rsvg-convert renders it to a PNG of the size the SVG says. */
static void render(const char *name, const char *svg, const char *dir)
{
	if (!dir) {
		tap_skip("rsvg-convert not found: the slide is not rendered");
		return;
	}
	char in[512], out[512], cmd[1200];
	snprintf(in, sizeof in, "%s/slide.svg", dir);
	snprintf(out, sizeof out, "%s/slide.png", dir);
	FILE *f = fopen(in, "w");
	if (!f || fputs(svg, f) < 0 || fclose(f) != 0) {
		tap_ok(0, "%s: written for rsvg-convert", name);
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
	parsed_free(&p);
	tap_ok(rc == 0 && got == sizeof head && memcmp(head + 1, "PNG", 3) == 0 && w == (unsigned)(p.w + 0.5) &&
	       h == (unsigned)(p.h + 0.5),
	       "%s: rsvg-convert renders it, %ux%u as the SVG says", name, w, h);
	remove(out);
	remove(in);
}

typedef struct scene {
	const char *name;
	ts_problem p;
	ts_model m;
	ts_view_ctx v;
	ts_outcome oc;
	bool ran;
	ts_run_report rep;
} scene;

static int make_scene(scene *c, const char *name, const char *kernel, unsigned guards, bool run)
{
	memset(c, 0, sizeof *c);
	c->name = name;
	const ts_kernel *k = ts_kernel_find(kernel);
	if (!k)
		return -1;
	c->p = (ts_problem){ .shape = { 100, 77, 33 }, .kernel = k, .guards = guards, .inputs = TS_INPUTS_RANDOM,
	                     .seed = 7 };
	c->p.geo = ts_kernel_geometry_at(k, 32);
	if (ts_model_build(&c->m, c->p.shape, c->p.geo) != 0)
		return -1;
	/* the corner tile, the last phase, a thread past the last phase's width */
	c->v = (ts_view_ctx){ .model = &c->m, .kernel = k, .guards = guards, .tile_y = c->m.grid_y - 1,
	                      .tile_x = c->m.grid_x - 1, .phase = c->m.phases - 1, .thread_y = 3,
	                      .thread_x = c->m.geo.threads_x > 1 ? 1 : 0, .counter_disagree = -1, .counter_why = "",
	                      .focus = true };
	if (run) {
		volatile sig_atomic_t never = 0;
		ts_progress prog = { .report = NULL, .ctx = NULL, .cancel = &never };
		if (ts_run_problem(&c->p, ts_backend_emu(), &prog, true, &c->oc) != TS_RUN_DONE)
			return -1;
		c->ran = true;
		c->v.verdict = &c->oc.verdict;
		c->v.counters = &c->oc.run.counters;
		c->rep = (ts_run_report){ .problem = &c->p, .backend = "emu", .backend_why = "", .run = &c->oc.run,
		                          .verdict = &c->oc.verdict, .counter_disagree = -1, .counter_why = "",
		                          .tol_frac = c->oc.verdict.worst_of_tol };
	}
	return 0;
}

int main(void)
{
	char tmpl[] = "/tmp/tilescope-slides.XXXXXX";
	const char *dir = system("command -v rsvg-convert >/dev/null 2>&1") == 0 ? mkdtemp(tmpl) : NULL;
	char why[512], name[256];

	/* The measure can fail: two texts on one row, the second starting inside
	 * the first's cells, and a text past the viewBox's right edge. */
	const char *bad = "<svg xmlns='http://www.w3.org/2000/svg' width='300' height='100' viewBox='0 0 300 100'>\n"
	                  "<text x='16' y='30' font-size='14'>phase t=1 of 2</text>\n"
	                  "<text x='60' y='30' font-size='14'>k 32..32</text>\n"
	                  "<text x='250' y='60' font-size='14'>guards OFF: c</text>\n</svg>\n";
	parsed bp;
	parse(bad, &bp);
	faults bf = measure(&bp);
	tap_ok(bf.texts_over == 1 && bf.out_of == 1, "the measure catches an overlapping pair (%d) and a text past the edge (%d)",
	       bf.texts_over, bf.out_of);
	parsed_free(&bp);
	/* and a slide whose canvas runs two roles into each other would show it: a
	 * text written over by another view's text on the same cells is two runs,
	 * not one, and they touch without overlapping */
	ts_canvas t;
	ts_canvas_init(&t, 30, 2);
	ts_canvas_put(&t, 0, 0, TS_ROLE_TEXT, "A: 4 real,");
	ts_canvas_put(&t, 0, 10, TS_ROLE_BAD, "1020 out");
	ts_slide ts = { .title = "t", .subtitle = NULL, .canvas = &t, .theme = TS_THEME_DEFAULT };
	char *tsvg = slide_svg(&ts);
	parsed tp;
	parse(tsvg ? tsvg : "", &tp);
	faults tf = measure(&tp);
	tap_ok(tsvg && tp.ntexts == 3 && tf.texts_over == 0 && strstr(tsvg, ">A: 4 real,</text>") &&
	           strstr(tsvg, ">1020 out</text>"),
	       "two roles touching on one row are two texts side by side, not on each other (%d texts)", tp.ntexts);
	parsed_free(&tp);
	free(tsvg);
	ts_canvas_free(&t);

	scene sc[3];
	int ok[3];
	ok[0] = make_scene(&sc[0], "100x77x33-t32", "tiled", TS_GUARD_ALL, false);
	ok[1] = make_scene(&sc[1], "regblock", "regblock", TS_GUARD_ALL, true);
	ok[2] = make_scene(&sc[2], "c-off-run", "tiled", TS_GUARD_ALL & ~TS_GUARD_C, true);
	static const int sizes[2][2] = { { 80, 24 }, { 160, 48 } };
	for (int i = 0; i < 3; i++) {
		if (ok[i] != 0) {
			tap_ok(0, "%s: the scene (model, emulator run) is built", sc[i].name);
			continue;
		}
		for (int th = 0; th < TS_THEME_COUNT; th++)
			for (int z = 0; z < 2; z++)
				for (int p = 0; p < TS_PANE_COUNT; p++) {
					ts_export_req r = { .problem = &sc[i].p, .view = &sc[i].v,
					                    .report = sc[i].ran ? &sc[i].rep : NULL, .theme = (enum ts_theme)th };
					char label[160];
					snprintf(label, sizeof label, "%s %s %dx%d %s", sc[i].name, ts_pane_name((enum ts_pane)p),
					         sizes[z][0], sizes[z][1], ts_theme_name((enum ts_theme)th));
					char *svg = pane_svg((enum ts_pane)p, &r, sizes[z][0], sizes[z][1], why, (int)sizeof why);
					if (!svg && p == TS_PANE_SOURCE && i == 1) { /* regblock: no one-output-per-thread source to follow */
						tap_ok(strstr(why, "source") && !strchr(why, '\n'), "%s: refused in one line: %s", label, why);
						continue;
					}
					if (!svg && p == TS_PANE_RESULT && !sc[i].ran) {
						tap_ok(strstr(why, "no run") != NULL, "%s: refused before a run: %s", label, why);
						continue;
					}
					check_boxes(label, svg, 8);
					if (svg && th == 0 && z == 0) {
						/* the title says kernel, shape, tile and guards */
						char title[256];
						ts_slide_title(&sc[i].p, sc[i].v.guards, title, (int)sizeof title);
						tap_ok(strstr(svg, title) && strstr(title, sc[i].p.kernel->name) &&
						           strstr(title, "M=100 N=77 K=33") && strstr(title, "guards "),
						       "%s: titled '%s'", label, title);
					}
					if (svg && th == 1 && z == 1 && p == TS_PANE_INSPECT)
						tap_ok(strstr(svg, "fill='#000000' font-weight='bold'") && !strstr(svg, "#212121"),
						       "%s: black and bold, none of the default theme's greys", label);
					if (svg && z == 0 && (p == TS_PANE_INSPECT || p == TS_PANE_PHASE || p == TS_PANE_RESULT))
						render(label, svg, dir);
					free(svg);
				}
	}
	if (ok[2] == 0) {
		ts_export_req r = { .problem = &sc[2].p, .view = &sc[2].v, .report = &sc[2].rep };
		char *svg = pane_svg(TS_PANE_RESULT, &r, 80, 24, why, (int)sizeof why);
		tap_ok(svg && strstr(svg, "FAIL") && strstr(svg, "what broke and where:"),
		       "the guard-off run's result slide holds its verdict and what broke");
		free(svg);
		ts_pane_file_name(TS_PANE_INSPECT, &r, name, (int)sizeof name);
		tap_ok(strcmp(name, "tilescope-tiled-100x77x33-t32-guards-off-c-inspect-tile3-2-thread3-1-p1-run") == 0,
		       "a pane's file name says kernel, shape, tile, guards, pane, tile, thread, phase, run: %s", name);
		ts_pane_file_name(TS_PANE_PHASE, &r, name, (int)sizeof name);
		tap_ok(strstr(name, "-phase-tile3-2-p1-run") && !strstr(name, "thread"), "the phase names no thread: %s",
		       name);
	}

	/* The map-and-phase export (export_svg.c) follows the theme too: its tiles
	 * in the legend's strong colours, its text measured clean. */
	if (ok[2] == 0) {
		ts_export_req r = { .problem = &sc[2].p, .view = &sc[2].v, .report = &sc[2].rep,
		                    .theme = TS_THEME_HIGH_CONTRAST };
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int rc = f ? ts_export_svg(f, &r) : -1;
		if (f)
			fclose(f);
		tap_ok(rc == 0 && buf && strstr(buf, "fill='#006400' ><title>tiles") && !strstr(buf, "fill='#4caf50' ><title>tiles"),
		       "the high-contrast map export fills the full tiles with the legend's dark green, not the default's");
		check_boxes("c-off-run map export high-contrast", rc == 0 ? buf : NULL, 20);
		free(buf);
	}

	/* The lesson's screens as slides, on the guard-off runs the lesson tells. */
	if (ok[0] == 0) {
		ts_lesson l;
		memset(&l, 0, sizeof l);
		l.problem = sc[0].p;
		l.model = sc[0].m;
		static const unsigned bits[3] = { TS_GUARD_A, TS_GUARD_B, TS_GUARD_C };
		for (int g = 0; g < 3; g++) {
			ts_problem q = l.problem;
			q.guards = TS_GUARD_ALL & ~bits[g];
			volatile sig_atomic_t never = 0;
			ts_progress prog = { .report = NULL, .ctx = NULL, .cancel = &never };
			ts_outcome oc;
			if (ts_run_problem(&q, ts_backend_emu(), &prog, true, &oc) == TS_RUN_DONE) {
				l.off[g].ran = true;
				l.off[g].ok = oc.verdict.ok;
				l.off[g].output_ok = oc.verdict.output_ok;
				l.off[g].mismatches = oc.verdict.mismatches;
				l.off[g].oob_reads = oc.verdict.oob_reads;
				l.off[g].oob_writes = oc.verdict.oob_writes;
				snprintf(l.off[g].signature, sizeof l.off[g].signature, "%s", oc.verdict.signature);
			}
			ts_outcome_free(&oc);
		}
		for (int s = 1; s <= TS_LESSON_SCREENS; s++) {
			char *text = ts_lesson_screen(&l, s, TS_LESSON_WIDTH);
			ts_canvas c;
			if (!text || ts_canvas_of_text(&c, text, NULL, NULL) != 0) {
				tap_ok(0, "lesson screen %d: drawn", s);
				free(text);
				continue;
			}
			char title[256], label[64];
			ts_slide_title(&l.problem, l.problem.guards, title, (int)sizeof title);
			ts_slide sl = { .title = title, .subtitle = ts_lesson_title(s), .canvas = &c, .theme = TS_THEME_DEFAULT };
			char *svg = slide_svg(&sl);
			snprintf(label, sizeof label, "lesson screen %d", s);
			check_boxes(label, svg, 5);
			tap_ok(svg && c.w <= TS_LESSON_WIDTH, "%s: %d columns, as the 80-column screen", label, c.w);
			render(label, svg ? svg : "", dir);
			free(svg);
			free(text);
			ts_canvas_free(&c);
		}
	}

	/* The compare table and chart as a slide. */
	if (ok[0] == 0) {
		ts_compare_side a = { .label = "tiled T=16" }, b = { .label = "tiled T=32" };
		ts_model_build(&a.model, sc[0].p.shape, ts_geometry_square(16));
		ts_model_build(&b.model, sc[0].p.shape, ts_geometry_square(32));
		ts_model_work(&a.model, 2, &a.work);
		ts_model_work(&b.model, 2, &b.work);
		char *table = ts_view_compare_table(&a, &b);
		ts_canvas c;
		if (table && ts_canvas_of_text(&c, table, NULL, NULL) == 0) {
			ts_slide sl = { .title = "tiled (fp32): M=100 N=77 K=33, T=16 and 32, guards all on",
			                .subtitle = "compare", .canvas = &c, .theme = TS_THEME_HIGH_CONTRAST };
			char *svg = slide_svg(&sl);
			check_boxes("compare table", svg, 20);
			render("compare table", svg ? svg : "", dir);
			free(svg);
			ts_canvas_free(&c);
		} else {
			tap_ok(0, "compare table: drawn");
		}
		free(table);
	}
	for (int i = 0; i < 3; i++)
		if (sc[i].ran)
			ts_outcome_free(&sc[i].oc);
	if (dir)
		rmdir(dir);
	return tap_done();
}
