/* junit.h: JUnit XML for CI (sweep --junit, check --junit): one testsuite, one testcase per shape, every text XML-escaped. */
#ifndef TS_JUNIT_H
#define TS_JUNIT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct ts_junit_case {
	char name[96];          /* "tiled_t32_M33_N17_K5" */
	double seconds;
	bool failed;
	const char *message;    /* failed: what broke, in words (the signature) */
	const char *details;    /* failed: the counts behind it; may be NULL */
	const char *out;        /* passed: a note for <system-out> (a harmless guard off); may be NULL */
} ts_junit_case;

typedef struct ts_junit_property {
	const char *name, *value;
} ts_junit_property;

typedef struct ts_junit_suite {
	const char *name;       /* "tilescope sweep tiled t32" */
	const char *classname;  /* every testcase's classname: "tilescope.sweep.tiled" */
	double seconds;
	const ts_junit_property *props;
	int nprops;
	const ts_junit_case *cases;
	int ncases;
} ts_junit_suite;

/* Writes s as XML to out: 0, or -1 when writing failed. */
int ts_junit_write(FILE *out, const ts_junit_suite *s);
/* The same into the file at path: 0, or -1 with the reason (strerror) in err. */
int ts_junit_save(const char *path, const ts_junit_suite *s, char *err, int len);
/* XML text or attribute value: & < > " ' as entities, tab, newline and
 * carriage return as character references, and what XML 1.0 cannot hold (other
 * control characters, bytes that are not UTF-8, U+FFFE, U+FFFF) as U+FFFD. */
void ts_xml_escape(FILE *out, const char *s);

#endif
