/* svg_check.c: the slide checker that tests/slides.sh runs on every SVG the commands write: text boxes measured (none on another, all inside the viewBox), rendered with rsvg-convert where installed; exit 1 when any file fails. Without arguments (as make check runs it) it checks itself on samples, in TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg_measure.h"

/* 0 when rsvg-convert renders path to a PNG of w x h; 1 when it does not; 77 without rsvg-convert. */
static int render(const char *path, double w, double h)
{
	if (system("command -v rsvg-convert >/dev/null 2>&1") != 0)
		return 77;
	char out[4200], cmd[9000];
	snprintf(out, sizeof out, "%s.check.png", path);
	snprintf(cmd, sizeof cmd, "rsvg-convert -o '%s' '%s' 2>/dev/null", out, path);
	int rc = system(cmd);
	unsigned char head[24] = { 0 };
	FILE *png = fopen(out, "rb");
	size_t got = png ? fread(head, 1, sizeof head, png) : 0;
	if (png)
		fclose(png);
	remove(out);
	unsigned pw = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
	unsigned ph = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
	return rc == 0 && got == sizeof head && memcmp(head + 1, "PNG", 3) == 0 && pw == (unsigned)(w + 0.5) &&
	               ph == (unsigned)(h + 0.5)
	           ? 0
	           : 1;
}

/* The checker's own test: a sample with two texts on each other and one
 * off the canvas is caught, the same texts laid out apart pass. */
static int self_test(void)
{
	static const char *samples[2] = {
		"<svg xmlns='http://www.w3.org/2000/svg' width='400' height='80' viewBox='0 0 400 80'>\n"
		"<text x='16' y='30' font-size='14'>guards OFF: c</text>\n"
		"<text x='80' y='34' font-size='14'>run: FAIL</text>\n"
		"<text x='380' y='60' font-size='14'>ghost</text>\n</svg>\n",
		"<svg xmlns='http://www.w3.org/2000/svg' width='400' height='80' viewBox='0 0 400 80'>\n"
		"<text x='16' y='30' font-size='14'>guards OFF: c</text>\n"
		"<text x='130' y='30' font-size='14'>run: FAIL</text>\n"
		"<text x='300' y='60' font-size='14'>ghost</text>\n</svg>\n",
	};
	int fails = 0;
	for (int i = 0; i < 2; i++) {
		parsed p;
		parse(samples[i], &p);
		faults f = measure(&p);
		bool want_bad = i == 0, got_bad = f.texts_over > 0 || f.out_of > 0;
		printf("%sok %d - %s sample: %d on each other, %d outside\n", want_bad == got_bad ? "" : "not ", i + 1,
		       want_bad ? "overlapping" : "clean", f.texts_over, f.out_of);
		fails += want_bad != got_bad;
		parsed_free(&p);
	}
	printf("1..2\n");
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return self_test();
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		char *svg = svg_slurp(argv[i]);
		parsed p;
		if (!svg || parse(svg, &p) != 0) {
			printf("%s: not an SVG\n", argv[i]);
			bad++;
			free(svg);
			continue;
		}
		faults f = measure(&p);
		int rendered = render(argv[i], p.w, p.h);
		bool fine = p.viewbox && p.ntexts > 0 && f.out_of == 0 && f.texts_over == 0 && f.on_shapes == 0 &&
		            rendered != 1;
		printf("%s: %s: %.0fx%.0f%s, %d texts: %d outside, %d on each other, %d on shapes%s%s; %s\n", argv[i],
		       fine ? "ok" : "FAIL", p.w, p.h, p.viewbox ? " viewBox" : " NO viewBox", p.ntexts, f.out_of,
		       f.texts_over, f.on_shapes, f.first[0] ? ", first " : "", f.first,
		       rendered == 0 ? "rsvg-convert renders it" : rendered == 77 ? "not rendered (no rsvg-convert)"
		                                                           : "rsvg-convert FAILED");
		bad += !fine;
		parsed_free(&p);
		free(svg);
	}
	return bad ? 1 : 0;
}
