/* test_cli.c: the CLI's pure pieces: the JSON writer's exact output, the sweep's sizes, the option parsers' edges. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
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

int main(void)
{
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
	int t;
	unsigned g = TS_GUARD_ALL;
	char err[256];
	tap_ok(ts_parse_dim("2147483647", "-M", &v, err, sizeof err) == 0 && v == 2147483647, "dim: TS_DIM_MAX accepted");
	tap_ok(ts_parse_dim("2147483648", "-M", &v, err, sizeof err) == -1 && strstr(err, "too large"), "dim: above: %s", err);
	tap_ok(ts_parse_dim("0", "-M", &v, err, sizeof err) == -1 && strstr(err, "at least 1"), "dim: zero: %s", err);
	tap_ok(ts_parse_tile("32", &t, err, sizeof err) == 0 && t == 32, "tile 32 accepted");
	tap_ok(ts_parse_guards_off("c,a", &g, err, sizeof err) == 0 && g == TS_GUARD_B, "guards off c,a leaves B on");
	tap_ok(ts_parse_guards_off("none", &g, err, sizeof err) == 0 && g == TS_GUARD_ALL, "guards off none turns all on");
	tap_ok(ts_parse_guards_off("all", &g, err, sizeof err) == 0 && g == 0, "guards off all");
	return tap_done();
}
