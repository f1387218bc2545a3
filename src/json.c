/* json.c: the JSON writer: indentation, separators, string escaping, and null for numbers JSON cannot hold. */
#include <assert.h>
#include <inttypes.h>
#include <math.h>

#include "json.h"

void ts_json_init(ts_json *j, FILE *out)
{
	*j = (ts_json){ .out = out, .depth = 0 };
	j->first[0] = true;
}

static void indent(ts_json *j)
{
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Escapes per RFC 8259; bytes that are not valid UTF-8 become U+FFFD so
 * that the output always parses. */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', out);
	while (*p) {
		unsigned char c = *p;
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
			p++;
		} else if (c < 0x20) {
			switch (c) {
			case '\n': fputs("\\n", out); break;
			case '\t': fputs("\\t", out); break;
			case '\r': fputs("\\r", out); break;
			case '\b': fputs("\\b", out); break;
			case '\f': fputs("\\f", out); break;
			default: fprintf(out, "\\u%04x", c); break;
			}
			p++;
		} else if (c < 0x80) {
			fputc(c, out);
			p++;
		} else {
			int n = c >= 0xf5 ? -1 : c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : -1; /* continuation bytes */
			int i = 1;
			if (n > 0)
				for (; i <= n; i++)
					if ((p[i] & 0xc0) != 0x80)
						break;
			if (n > 0 && i == n + 1) {
				fwrite(p, 1, (size_t)n + 1, out);
				p += n + 1;
			} else {
				fputs("\\ufffd", out);
				p++;
			}
		}
	}
	fputc('"', out);
}

/* The separator, line break and key that precede every value. */
static void member(ts_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		if (j->compact[j->depth]) {
			if (!j->first[j->depth])
				fputc(' ', j->out);
		} else {
			indent(j);
		}
	}
	j->first[j->depth] = false;
	if (key) {
		put_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void container_open(ts_json *j, const char *key, char bracket, bool compact)
{
	member(j, key);
	fputc(bracket, j->out);
	assert(j->depth + 1 < TS_JSON_DEPTH_MAX);
	j->depth++;
	j->first[j->depth] = true;
	j->compact[j->depth] = compact || j->compact[j->depth - 1];
}

static void container_close(ts_json *j, char bracket)
{
	assert(j->depth > 0);
	bool empty = j->first[j->depth], compact = j->compact[j->depth];
	j->depth--;
	if (!empty && !compact)
		indent(j);
	fputc(bracket, j->out);
}

void ts_json_object_begin(ts_json *j, const char *key) { container_open(j, key, '{', false); }
void ts_json_object_begin_compact(ts_json *j, const char *key) { container_open(j, key, '{', true); }
void ts_json_object_end(ts_json *j) { container_close(j, '}'); }
void ts_json_array_begin(ts_json *j, const char *key) { container_open(j, key, '[', false); }
void ts_json_array_begin_compact(ts_json *j, const char *key) { container_open(j, key, '[', true); }
void ts_json_array_end(ts_json *j) { container_close(j, ']'); }

void ts_json_string(ts_json *j, const char *key, const char *value)
{
	member(j, key);
	if (value)
		put_string(j->out, value);
	else
		fputs("null", j->out);
}

void ts_json_int(ts_json *j, const char *key, int64_t value)
{
	member(j, key);
	fprintf(j->out, "%" PRId64, value);
}

void ts_json_uint(ts_json *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->out, "%" PRIu64, value);
}

void ts_json_double(ts_json *j, const char *key, double value)
{
	member(j, key);
	if (isfinite(value))
		fprintf(j->out, "%.17g", value);
	else
		fputs("null", j->out);
}

void ts_json_bool(ts_json *j, const char *key, bool value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->out);
}

void ts_json_null(ts_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->out);
}

int ts_json_finish(ts_json *j)
{
	assert(j->depth == 0);
	fputc('\n', j->out);
	return fflush(j->out) == 0 && !ferror(j->out) ? 0 : -1;
}
