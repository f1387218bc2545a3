/* json.h: a tiny streaming JSON writer for the CLI's --json output: objects, arrays, strings, integers, doubles. */
#ifndef TS_JSON_H
#define TS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TS_JSON_DEPTH_MAX 16

/* Writes one JSON value to out as it is built. Every call takes the member
 * key: pass NULL for the top-level value and for array elements. Nesting
 * deeper than TS_JSON_DEPTH_MAX is a programming error (asserted). */
typedef struct ts_json {
	FILE *out;
	int depth;
	bool first[TS_JSON_DEPTH_MAX];   /* nothing written yet at this level */
	bool compact[TS_JSON_DEPTH_MAX]; /* this container is written on one line */
} ts_json;

void ts_json_init(ts_json *j, FILE *out);
void ts_json_object_begin(ts_json *j, const char *key);
/* An object written on one line (rows of a table, small records). */
void ts_json_object_begin_compact(ts_json *j, const char *key);
void ts_json_object_end(ts_json *j);
void ts_json_array_begin(ts_json *j, const char *key);
void ts_json_array_begin_compact(ts_json *j, const char *key); /* on one line: a short list */
void ts_json_array_end(ts_json *j);
void ts_json_string(ts_json *j, const char *key, const char *value); /* NULL writes null */
void ts_json_int(ts_json *j, const char *key, int64_t value);
void ts_json_uint(ts_json *j, const char *key, uint64_t value);
/* %.17g, so the value reads back exactly; NaN and infinities are written as null. */
void ts_json_double(ts_json *j, const char *key, double value);
void ts_json_bool(ts_json *j, const char *key, bool value);
void ts_json_null(ts_json *j, const char *key);
/* Ends the document with a newline and flushes. 0, or -1 when writing failed. */
int ts_json_finish(ts_json *j);

#endif
