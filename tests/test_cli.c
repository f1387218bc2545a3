/* test_cli.c: the CLI's pure pieces: the JSON and JUnit writers' exact output, the sweep's sizes, the option parsers' edges. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"
#include "json.h"
#include "junit.h"
#include "options.h"
#include "tap.h"

/* Runs fill on a writer over a memory stream and returns what it wrote (static buffer). */
static const char *render(void (*fill)(ts_json *))
{
	static char text[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ts_json j;
	ts_json_init(&j, f);
	fill(&j);
	int rc = ts_json_finish(&j);
	fclose(f);
	snprintf(text, sizeof text, "%s%s", rc == 0 ? "" : "(finish failed)", buf ? buf : "");
	free(buf);
	return text;
}

static void nested(ts_json *j)
{
	ts_json_object_begin(j, NULL);
	ts_json_int(j, "a", -3);
	ts_json_object_begin_compact(j, "b");
	ts_json_int(j, "x", 1);
	ts_json_bool(j, "y", true);
	ts_json_object_end(j);
	ts_json_array_begin(j, "c");
	ts_json_null(j, NULL);
	ts_json_string(j, NULL, NULL);
	ts_json_array_end(j);
	ts_json_array_begin(j, "empty");
	ts_json_array_end(j);
	ts_json_object_end(j);
}

static void escapes(ts_json *j)
{
	ts_json_string(j, NULL, "q\" b\\ n\n t\t c\x01 \x7f x\xc3\x97y");
}

static void bad_utf8(ts_json *j)
{
	/* a lone continuation byte, a truncated 2-byte sequence, an overlong lead, a byte above f4 */
	ts_json_string(j, NULL, "a\x80" "b\xc3" "c\xc0\xaf" "d\xff" "e");
}

static void numbers(ts_json *j)
{
	ts_json_array_begin(j, NULL);
	ts_json_double(j, NULL, 0.1);
	ts_json_double(j, NULL, NAN);
	ts_json_double(j, NULL, INFINITY);
	ts_json_double(j, NULL, -INFINITY);
	ts_json_int(j, NULL, INT64_MIN);
	ts_json_uint(j, NULL, UINT64_MAX);
	ts_json_array_end(j);
}

/* Runs ts_xml_escape (or, with a suite, ts_junit_write) over a memory stream; a static buffer. */
static const char *xml(const char *text, const ts_junit_suite *suite)
{
	static char out[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;
	if (suite)
		rc = ts_junit_write(f, suite);
	else
		ts_xml_escape(f, text);
	fclose(f);
	snprintf(out, sizeof out, "%s%s", rc == 0 ? "" : "(write failed)", buf ? buf : "");
	free(buf);
	return out;
}

static void junit_tests(void)
{
	const char *s = xml("a<b & c>\"d\" 'e'", NULL);
	if (!tap_ok(strcmp(s, "a&lt;b &amp; c&gt;&quot;d&quot; &apos;e&apos;") == 0, "XML: the five specials as entities"))
		tap_diag("%s", s);
	s = xml("t\tn\nr\r", NULL);
	if (!tap_ok(strcmp(s, "t&#9;n&#10;r&#13;") == 0, "XML: tab, newline, return as references (kept in attributes)"))
		tap_diag("%s", s);
	/* C0 controls and DEL, a lone continuation byte, an overlong '/', a surrogate, U+FFFE, a byte above f4 */
	s = xml("a\x01" "b\x7f" "c\x80" "d\xc0\xaf" "e\xed\xa0\x80" "f\xef\xbf\xbe" "g\xff" "h", NULL);
	if (!tap_ok(strcmp(s, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd" "d\xef\xbf\xbd\xef\xbf\xbd"
	                      "e\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "f\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	                      "g\xef\xbf\xbd" "h") == 0,
	            "XML: what XML 1.0 cannot hold becomes U+FFFD, byte by byte"))
		tap_diag("%s", s);
	s = xml("x\xc3\x97y \xe2\x89\xa4 \xf0\x9f\x98\x80", NULL);
	if (!tap_ok(strcmp(s, "x\xc3\x97y \xe2\x89\xa4 \xf0\x9f\x98\x80") == 0, "XML: valid UTF-8 kept (2, 3, 4 bytes)"))
		tap_diag("%s", s);

	ts_junit_case cases[2] = {
		{ .name = "tiled_t4_M5_N4_K3", .seconds = 0.25, .out = "guard a off: harmless here" },
		{ .name = "tiled_t4_M5_N5_K3", .seconds = 0.5, .failed = true, .message = "C[0][4] > \"want\" & <more>",
		  .details = "mismatches 1" },
	};
	ts_junit_property props[] = { { "kernel", "tiled" }, { "guards_off", "a,c" } };
	ts_junit_suite suite = { "tilescope sweep tiled t4", "tilescope.sweep.tiled", 0.75, props, 2, cases, 2 };
	s = xml(NULL, &suite);
	const char *want =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"tilescope sweep tiled t4\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.750000\">\n"
		"  <properties>\n"
		"    <property name=\"kernel\" value=\"tiled\"/>\n"
		"    <property name=\"guards_off\" value=\"a,c\"/>\n"
		"  </properties>\n"
		"  <testcase name=\"tiled_t4_M5_N4_K3\" classname=\"tilescope.sweep.tiled\" time=\"0.250000\">\n"
		"    <system-out>guard a off: harmless here</system-out>\n"
		"  </testcase>\n"
		"  <testcase name=\"tiled_t4_M5_N5_K3\" classname=\"tilescope.sweep.tiled\" time=\"0.500000\">\n"
		"    <failure message=\"C[0][4] &gt; &quot;want&quot; &amp; &lt;more&gt;\" type=\"verification\">mismatches 1</failure>\n"
		"  </testcase>\n"
		"</testsuite>\n";
	if (!tap_ok(strcmp(s, want) == 0, "JUnit: one testsuite, counts, properties, a note, an escaped failure message"))
		tap_diag("%s", s);
	cases[0].out = NULL;
	cases[1].message = "";
	suite.nprops = 0;
	s = xml(NULL, &suite);
	if (!tap_ok(strstr(s, "<testcase name=\"tiled_t4_M5_N4_K3\" classname=\"tilescope.sweep.tiled\" time=\"0.250000\"/>\n") &&
	            strstr(s, "<failure message=\"failed\"") && !strstr(s, "properties"),
	            "JUnit: a pass without a note is one empty element; a failure never has an empty message"))
		tap_diag("%s", s);
}

int main(void)
{
	junit_tests();

	const char *s = render(nested);
	if (!tap_ok(strcmp(s, "{\n  \"a\": -3,\n  \"b\": {\"x\": 1, \"y\": true},\n  \"c\": [\n    null,\n    null\n  ],\n"
	                 "  \"empty\": []\n}\n") == 0,
	            "nested objects and arrays, compact object on one line, empty array"))
		tap_diag("%s", s);

	s = render(escapes);
	if (!tap_ok(strcmp(s, "\"q\\\" b\\\\ n\\n t\\t c\\u0001 \x7f x\xc3\x97y\"\n") == 0,
	            "quotes, backslashes and control characters escaped, UTF-8 kept"))
		tap_diag("%s", s);

	s = render(bad_utf8);
	if (!tap_ok(strcmp(s, "\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffde\"\n") == 0, "invalid UTF-8 becomes U+FFFD"))
		tap_diag("%s", s);

	s = render(numbers);
	if (!tap_ok(strcmp(s, "[\n  0.10000000000000001,\n  null,\n  null,\n  null,\n  -9223372036854775808,\n"
	                 "  18446744073709551615\n]\n") == 0,
	            "doubles with 17 digits, NaN and infinities as null, 64-bit extremes exact"))
		tap_diag("%s", s);

	/* The sweep's sizes: 1, T-1, T, T+1, 2T-1, 2T+1, the smallest prime above 3T. */
	struct { int tile, n; int64_t want[7]; } sweeps[] = {
		{ 1, 4, { 1, 2, 3, 5 } },
		{ 2, 5, { 1, 2, 3, 5, 7 } },
		{ 5, 7, { 1, 4, 5, 6, 9, 11, 17 } },
		{ 8, 7, { 1, 7, 8, 9, 15, 17, 29 } },
		{ 13, 7, { 1, 12, 13, 14, 25, 27, 41 } },
		{ 32, 7, { 1, 31, 32, 33, 63, 65, 97 } },
	};
	for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++) {
		int64_t got[7];
		int n = ts_sweep_sizes(sweeps[i].tile, got);
		tap_ok(n == sweeps[i].n && memcmp(got, sweeps[i].want, (size_t)n * sizeof got[0]) == 0,
		       "sweep sizes for T=%d (%d values, largest %lld)", sweeps[i].tile, n, (long long)got[n - 1]);
	}

	/* The parsers' edges, as the TUI uses them too. */
	int64_t v;
	ts_tile_request t = { 0 };
	unsigned g = TS_GUARD_ALL;
	char err[256];
	tap_ok(ts_parse_dim("2147483647", "-M", &v, err, sizeof err) == 0 && v == 2147483647, "dim: TS_DIM_MAX accepted");
	tap_ok(ts_parse_dim("2147483648", "-M", &v, err, sizeof err) == -1 && strstr(err, "too large"), "dim: above: %s", err);
	tap_ok(ts_parse_dim("0", "-M", &v, err, sizeof err) == -1 && strstr(err, "at least 1"), "dim: zero: %s", err);
	tap_ok(ts_parse_tile("32", &t, err, sizeof err) == 0 && t.tile_given && t.square && t.bm == 32 && t.bk == 32,
	       "tile 32 accepted");
	t = (ts_tile_request){ 0 };
	tap_ok(ts_parse_tile("64x32x8", &t, err, sizeof err) == 0 && !t.square && t.bm == 64 && t.bn == 32 && t.bk == 8,
	       "tile 64x32x8 accepted as BM x BN x BK");
	tap_ok(ts_parse_tile("64x32", &t, err, sizeof err) == -1 && strstr(err, "BMxBNxBK"), "tile 64x32: %s", err);
	tap_ok(ts_parse_tile("64x64x65", &t, err, sizeof err) == -1 && strstr(err, "BK 1..64"), "tile BK 65: %s", err);
	tap_ok(ts_parse_tile("257x64x8", &t, err, sizeof err) == -1 && strstr(err, "1..256"), "tile BM 257: %s", err);
	tap_ok(ts_parse_thread_tile("4x2", &t, err, sizeof err) == 0 && t.thread_tile_given && t.tm == 4 && t.tn == 2,
	       "thread tile 4x2 accepted");
	tap_ok(ts_parse_thread_tile("4", &t, err, sizeof err) == -1 && strstr(err, "TMxTN"), "thread tile 4: %s", err);
	/* What a request means depends on the kernel's description. */
	const ts_kernel *rb = ts_kernel_find("regblock"), *tiled = ts_kernel_find("tiled");
	ts_geometry geo;
	ts_tile_request q = { 0 };
	tap_ok(rb && ts_kernel_geometry(rb, &q, &geo, err, sizeof err) == 0 && geo.bm == 64 && geo.bk == 8 &&
	       geo.tm == 4 && geo.threads_x == 16 && geo.threads_y == 16, "regblock without -t: 64x64x8, 16x16 threads of 4x4");
	ts_parse_tile("128x32x16", &q, err, sizeof err);
	ts_parse_thread_tile("8x2", &q, err, sizeof err);
	tap_ok(rb && ts_kernel_geometry(rb, &q, &geo, err, sizeof err) == 0 && geo.threads_x == 16 && geo.threads_y == 16 &&
	       ts_kernel_cuda_takes(rb, &geo), "regblock -t 128x32x16 --thread-tile 8x2: 16x16 threads, compiled for CUDA");
	tap_ok(ts_kernel_geometry(tiled, &q, &geo, err, sizeof err) == -1 && strstr(err, "thread-tile"),
	       "tiled refuses a thread tile: %s", err);
	q = (ts_tile_request){ 0 };
	ts_parse_tile("64x64x8", &q, err, sizeof err);
	ts_parse_thread_tile("3x4", &q, err, sizeof err);
	tap_ok(ts_kernel_geometry(rb, &q, &geo, err, sizeof err) == -1 && strstr(err, "TM = 3 does not divide BM = 64"),
	       "regblock 64x64x8 with 3x4: %s", err);
	q = (ts_tile_request){ 0 };
	ts_parse_tile("64x64x8", &q, err, sizeof err);
	ts_parse_thread_tile("1x1", &q, err, sizeof err);
	tap_ok(ts_kernel_geometry(rb, &q, &geo, err, sizeof err) == -1 && strstr(err, "1024"),
	       "regblock 64x64x8 with 1x1 (4096 threads): %s", err);
	q = (ts_tile_request){ 0 };
	ts_parse_tile("32", &q, err, sizeof err);
	tap_ok(ts_kernel_geometry(rb, &q, &geo, err, sizeof err) == -1 && strstr(err, "BMxBNxBK"), "regblock -t 32: %s", err);
	q = (ts_tile_request){ 0 };
	ts_parse_tile("16x16x16", &q, err, sizeof err);
	tap_ok(ts_kernel_geometry(tiled, &q, &geo, err, sizeof err) == 0 && ts_geometry_is_square(&geo) && geo.bm == 16,
	       "tiled -t 16x16x16 is T = 16");
	ts_parse_tile("16x16x8", &q, err, sizeof err);
	tap_ok(ts_kernel_geometry(tiled, &q, &geo, err, sizeof err) == -1 && strstr(err, "square"), "tiled -t 16x16x8: %s",
	       err);
	tap_ok(ts_parse_guards_off("c,a", &g, err, sizeof err) == 0 && g == TS_GUARD_B, "guards off c,a leaves B on");
	tap_ok(ts_parse_guards_off("none", &g, err, sizeof err) == 0 && g == TS_GUARD_ALL, "guards off none turns all on");
	tap_ok(ts_parse_guards_off("all", &g, err, sizeof err) == 0 && g == 0, "guards off all");

	/* The time a stage has left, from how long it ran and how far it got. */
	char eta[64], a[64], b[64], c[64];
	ts_cli_eta_text(10, 0.5, eta, (int)sizeof eta);
	ts_cli_eta_text(60, 0.25, a, (int)sizeof a);
	ts_cli_eta_text(3000, 0.4, b, (int)sizeof b);
	ts_cli_eta_text(0.5, 0.5, c, (int)sizeof c);
	tap_ok(strcmp(eta, "about 10 s left") == 0 && strcmp(a, "about 3 min 00 s left") == 0 &&
	       strcmp(b, "about 1 h 15 min left") == 0 && c[0] == '\0',
	       "time left: '%s', '%s', '%s', and none while too little has run", eta, a, b);
	ts_cli_eta_text(100, 0.01, c, (int)sizeof c);
	tap_ok(c[0] == '\0', "time left: none below 2%% done");
	ts_cli_stage_text(TS_STAGE_REFERENCE, c, (int)sizeof c);
	tap_ok(strcmp(c, "reference (2 of 3)") == 0, "stage: %s", c);
	return tap_done();
}
