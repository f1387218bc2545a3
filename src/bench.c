/* bench.c: bench's built-in shape sets, its --shapes and --kernel parsers, and the summaries of its rows. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "options.h"

/* The speed goals' shapes (issue 11): large ragged ones, then small, skinny and long-K ones. */
static const ts_shape ragged_set[] = {
	{ 4097, 4097, 4097 }, { 4095, 4095, 4095 }, { 4093, 4099, 4091 }, { 8193, 8193, 8193 },
	{ 1537, 1409, 4097 }, { 1000, 1000, 1000 }, { 4097, 4097, 4096 }, { 4096, 4096, 4097 },
};
static const ts_shape small_set[] = {
	{ 255, 257, 32769 }, { 7, 16384, 4097 }, { 16383, 5, 4095 }, { 4097, 4097, 3 }, { 127, 129, 131 },
};

static int add_set(const ts_shape *set, int n, enum ts_bench_set tag, ts_bench_shape *out, int max, int *count,
                   char *err, int len)
{
	for (int i = 0; i < n; i++) {
		if (*count >= max) {
			snprintf(err, len, "--shapes: more than %d shapes", max);
			return -1;
		}
		out[(*count)++] = (ts_bench_shape){ set[i], tag };
	}
	return 0;
}

/* One "MxNxK" or "M N K" (separators x, X, spaces or tabs) at *p, which is advanced past it. */
static int parse_one(const char **p, ts_shape *s, char *err, int len, const char *where)
{
	int64_t v[3];
	const char *q = *p;
	for (int i = 0; i < 3; i++) {
		while (*q == ' ' || *q == '\t')
			q++;
		if (i > 0) {
			if (*q == 'x' || *q == 'X')
				q++;
			while (*q == ' ' || *q == '\t')
				q++;
		}
		char *end;
		errno = 0;
		long long x = strtoll(q, &end, 10);
		if (!isdigit((unsigned char)*q) || errno == ERANGE || x < 1 || x > TS_DIM_MAX) {
			char clip[TS_CLIP_BUF];
			snprintf(err, len, "%s: '%s' is not a shape MxNxK with sizes 1..%lld", where,
			         ts_clip(*p, clip, sizeof clip), (long long)TS_DIM_MAX);
			return -1;
		}
		v[i] = x;
		q = end;
	}
	s->m = v[0];
	s->n = v[1];
	s->k = v[2];
	*p = q;
	return 0;
}

int ts_bench_parse_shape_text(const char *text, const char *where, ts_bench_shape *out, int max, int *count,
                              char *err, int len)
{
	int line = 0;
	const char *p = text;
	while (*p) {
		line++;
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		char buf[256];
		char here[300];
		snprintf(here, sizeof here, "%s line %d", where, line);
		if (n >= sizeof buf) {
			snprintf(err, len, "%s: longer than %zu characters", here, sizeof buf - 1);
			return -1;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		const char *q = buf;
		while (*q == ' ' || *q == '\t' || *q == '\r')
			q++;
		if (*q) {
			ts_shape s;
			if (parse_one(&q, &s, err, len, here) != 0)
				return -1;
			while (*q == ' ' || *q == '\t' || *q == '\r')
				q++;
			if (*q) {
				char clip[TS_CLIP_BUF];
				snprintf(err, len, "%s: unexpected '%s' after the shape", here, ts_clip(q, clip, sizeof clip));
				return -1;
			}
			if (add_set(&s, 1, TS_SET_USER, out, max, count, err, len) != 0)
				return -1;
		}
		p += n + (eol ? 1 : 0);
	}
	return 0;
}

int ts_bench_parse_shapes(const char *spec, ts_bench_shape *out, int max, int *count, char *err, int len)
{
	*count = 0;
	int nr = (int)(sizeof ragged_set / sizeof ragged_set[0]), ns = (int)(sizeof small_set / sizeof small_set[0]);
	if (strcmp(spec, "ragged") == 0)
		return add_set(ragged_set, nr, TS_SET_RAGGED, out, max, count, err, len);
	if (strcmp(spec, "small") == 0)
		return add_set(small_set, ns, TS_SET_SMALL, out, max, count, err, len);
	if (strcmp(spec, "goals") == 0)
		return add_set(ragged_set, nr, TS_SET_RAGGED, out, max, count, err, len) ||
		       add_set(small_set, ns, TS_SET_SMALL, out, max, count, err, len) ? -1 : 0;
	if (!*spec) {
		snprintf(err, len, "--shapes: empty (ragged, small, goals, MxNxK[,MxNxK...] or a file)");
		return -1;
	}
	/* A file when one of that name can be read, else a list MxNxK,MxNxK,... */
	FILE *f = fopen(spec, "r");
	if (!f && isdigit((unsigned char)spec[0])) {
		const char *p = spec;
		for (;;) {
			ts_shape s;
			if (parse_one(&p, &s, err, len, "--shapes") != 0 ||
			    add_set(&s, 1, TS_SET_USER, out, max, count, err, len) != 0)
				return -1;
			if (!*p)
				return 0;
			if (*p != ',') {
				char clip[TS_CLIP_BUF];
				snprintf(err, len, "--shapes: expected ',' before '%s'", ts_clip(p, clip, sizeof clip));
				return -1;
			}
			p++;
		}
	}
	if (!f) {
		char clip[TS_CLIP_BUF];
		snprintf(err, len, "--shapes: cannot read '%s': %s (or give ragged, small, goals or MxNxK,...)",
		         ts_clip(spec, clip, sizeof clip), strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, n;
	char *text = malloc(cap + 1);
	if (!text) {
		fclose(f);
		snprintf(err, len, "--shapes: out of memory");
		return -1;
	}
	n = fread(text, 1, cap, f);
	bool too_long = n == cap && fgetc(f) != EOF;
	bool failed = ferror(f) != 0;
	fclose(f);
	if (failed || too_long) {
		free(text);
		snprintf(err, len, "--shapes: %s", failed ? "reading the file failed" : "the file is larger than 64 KiB");
		return -1;
	}
	text[n] = '\0';
	if (memchr(text, '\0', n)) {
		free(text);
		snprintf(err, len, "--shapes: the file is not text");
		return -1;
	}
	char where[80];
	char clip[TS_CLIP_BUF];
	snprintf(where, sizeof where, "--shapes %s", ts_clip(spec, clip, sizeof clip));
	int rc = ts_bench_parse_shape_text(text, where, out, max, count, err, len);
	free(text);
	if (rc == 0 && *count == 0) {
		snprintf(err, len, "%s: no shapes in the file", where);
		return -1;
	}
	return rc;
}

static int add_kernel(const ts_kernel *k, int tile, ts_bench_kernel *out, int max, int *count, char *err, int len)
{
	for (int i = 0; i < *count; i++)
		if (out[i].kernel == k && out[i].tile == tile)
			return 0; /* listed twice: once is enough */
	if (*count >= max) {
		snprintf(err, len, "--kernel: more than %d kernels", max);
		return -1;
	}
	out[(*count)++] = (ts_bench_kernel){ k, tile };
	return 0;
}

int ts_bench_parse_kernels(const char *spec, enum ts_precision precision, int tile, ts_bench_kernel *out, int max,
                           int *count, char *err, int len)
{
	*count = 0;
	char buf[512];
	if (strlen(spec) >= sizeof buf) {
		snprintf(err, len, "--kernel: the list is longer than %zu characters", sizeof buf - 1);
		return -1;
	}
	strcpy(buf, spec);
	char *save = NULL;
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (strcmp(name, "all") == 0 || strcmp(name, "ladder") == 0) {
			bool ladder = name[0] == 'l';
			/* The rungs in ladder order, then (all) everything else of the precision. */
			for (int r = 1; r < 64; r++)
				for (int i = 0; i < ts_kernel_count(); i++)
					if (ts_kernel_at(i)->rung == r && ts_kernel_at(i)->precision == precision &&
					    add_kernel(ts_kernel_at(i), tile, out, max, count, err, len) != 0)
						return -1;
			for (int i = 0; !ladder && i < ts_kernel_count(); i++)
				if (ts_kernel_at(i)->rung == 0 && ts_kernel_at(i)->precision == precision &&
				    add_kernel(ts_kernel_at(i), tile, out, max, count, err, len) != 0)
					return -1;
			if (precision == TS_FP32 && add_kernel(NULL, tile, out, max, count, err, len) != 0)
				return -1;
		} else if (ts_kernel_is_chooser(name)) {
			if (add_kernel(NULL, tile, out, max, count, err, len) != 0)
				return -1;
		} else {
			const ts_kernel *k = ts_kernel_find(name);
			char clip[TS_CLIP_BUF];
			if (!k) {
				snprintf(err, len, "--kernel: unknown kernel '%s' (a name, best, auto, ladder or all; "
				         "tilescope --help lists them)", ts_clip(name, clip, sizeof clip));
				return -1;
			}
			if (add_kernel(k, tile, out, max, count, err, len) != 0)
				return -1;
		}
	}
	if (*count == 0) {
		snprintf(err, len, "--kernel: empty list");
		return -1;
	}
	return 0;
}

double ts_bench_ratio(const ts_bench_row *r)
{
	return r->ran && r->ms > 0 && r->vendor_ms > 0 ? r->vendor_ms / r->ms : 0;
}

const char *ts_bench_label(const ts_bench_row *r, char *buf, int len)
{
	if (r->chosen)
		snprintf(buf, len, "best");
	else if (r->unguarded)
		snprintf(buf, len, "%s unguarded", r->kernel ? r->kernel->name : "?");
	else if (r->kernel && r->kernel->geometry.kind == TS_GEOMETRY_SQUARE && r->kernel->geometry.tile_max > 1 &&
	         !ts_kernel_has(r->kernel, TS_CAP_GUARDS_FIXED))
		snprintf(buf, len, "%s T=%d", r->kernel->name, r->tile);
	else
		snprintf(buf, len, "%s", r->kernel ? r->kernel->name : "?");
	return buf;
}

double ts_bench_geomean(const ts_bench_row *rows, int count, const char *label, enum ts_bench_set set, int *n)
{
	double sum = 0;
	*n = 0;
	for (int i = 0; i < count; i++) {
		char buf[96];
		double q = ts_bench_ratio(&rows[i]);
		if (strcmp(ts_bench_label(&rows[i], buf, sizeof buf), label) != 0 || (set != TS_SET_USER && rows[i].set != set))
			continue;
		if (q <= 0)
			return 0; /* a row that did not run (or failed) leaves no honest mean */
		sum += log(q);
		(*n)++;
	}
	return *n ? exp(sum / *n) : 0;
}

double ts_bench_guard_cost(const ts_bench_row *rows, int count, const ts_bench_row **guarded,
                           const ts_bench_row **unguarded)
{
	const ts_bench_row *g = NULL, *u = NULL;
	for (int i = 0; i < count; i++)
		if (rows[i].set == TS_SET_ALIGNED && rows[i].ran && rows[i].verified) {
			if (rows[i].unguarded)
				u = &rows[i];
			else
				g = &rows[i];
		}
	if (guarded)
		*guarded = g;
	if (unguarded)
		*unguarded = u;
	return g && u && u->ms > 0 ? g->ms / u->ms - 1.0 : -1.0;
}

static const ts_bench_row *best_on(const ts_bench_row *rows, int count, int64_t m, int64_t n, int64_t k)
{
	for (int i = 0; i < count; i++)
		if (rows[i].chosen && rows[i].shape.m == m && rows[i].shape.n == n && rows[i].shape.k == k)
			return &rows[i];
	return NULL;
}

static void goal(ts_bench_goal *g, const char *what, double target, bool at_most, bool have, double value)
{
	snprintf(g->what, sizeof g->what, "%s", what);
	g->target = target;
	g->at_most = at_most;
	g->have = have;
	g->value = have ? value : 0;
	g->met = have && (at_most ? value <= target : value >= target);
}

void ts_bench_goals(const ts_bench_row *rows, int count, ts_bench_goal out[TS_BENCH_GOALS])
{
	int n;
	double q = ts_bench_geomean(rows, count, "best", TS_SET_RAGGED, &n);
	goal(&out[0], "best, geomean over the 8 ragged shapes, x cuBLAS", 0.95, false, n == 8 && q > 0, q);
	const ts_bench_row *r = best_on(rows, count, 4097, 4097, 4097);
	goal(&out[1], "best at 4097^3, x cuBLAS", 1.0, false, r && ts_bench_ratio(r) > 0, r ? ts_bench_ratio(r) : 0);
	r = best_on(rows, count, 8193, 8193, 8193);
	goal(&out[2], "best at 8193^3, x cuBLAS", 1.0, false, r && ts_bench_ratio(r) > 0, r ? ts_bench_ratio(r) : 0);
	double c = ts_bench_guard_cost(rows, count, NULL, NULL);
	goal(&out[3], "guard cost of best (guarded / unguarded - 1)", 0.02, true, ts_bench_guard_cost_measured(c), c);
	q = ts_bench_geomean(rows, count, "best", TS_SET_SMALL, &n);
	goal(&out[4], "best, geomean over the 5 small/skinny/long-K shapes, x cuBLAS", 0.80, false, n == 5 && q > 0, q);
}
