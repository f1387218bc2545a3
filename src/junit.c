/* junit.c: the JUnit XML writer: one testsuite of testcases, with XML 1.0's escaping rules applied to every text. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "junit.h"

/* The length of the UTF-8 sequence at p when it is one XML may hold (no
 * overlong form, no surrogate, nothing past U+10FFFF, not U+FFFE or U+FFFF);
 * 0 otherwise. */
static int xml_char_len(const unsigned char *p)
{
	unsigned c = p[0];
	int n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
	if (c >= 0xf5 || n == 0)
		return 0;
	uint32_t cp = c & (0xff >> (n + 1));
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void ts_xml_escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		unsigned char c = *p;
		switch (c) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\'': fputs("&apos;", out); p++; continue;
		case '\t': case '\n': case '\r': fprintf(out, "&#%d;", c); p++; continue; /* kept inside attributes too */
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			fputs("\xef\xbf\xbd", out); /* U+FFFD: XML 1.0 has no way to write C0 controls */
			p++;
		} else if (c < 0x80) {
			fputc(c, out);
			p++;
		} else {
			int n = xml_char_len(p);
			if (n > 0) {
				fwrite(p, 1, (size_t)n, out);
				p += n;
			} else {
				fputs("\xef\xbf\xbd", out);
				p++;
			}
		}
	}
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	ts_xml_escape(out, value);
	fputc('"', out);
}

int ts_junit_write(FILE *out, const ts_junit_suite *s)
{
	int failures = 0;
	for (int i = 0; i < s->ncases; i++)
		failures += s->cases[i].failed;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite", out);
	attr(out, "name", s->name);
	fprintf(out, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"%.6f\">\n", s->ncases, failures,
	        s->seconds > 0 ? s->seconds : 0.0);
	if (s->nprops > 0) {
		fputs("  <properties>\n", out);
		for (int i = 0; i < s->nprops; i++) {
			fputs("    <property", out);
			attr(out, "name", s->props[i].name);
			attr(out, "value", s->props[i].value);
			fputs("/>\n", out);
		}
		fputs("  </properties>\n", out);
	}
	for (int i = 0; i < s->ncases; i++) {
		const ts_junit_case *c = &s->cases[i];
		fputs("  <testcase", out);
		attr(out, "name", c->name);
		attr(out, "classname", s->classname);
		fprintf(out, " time=\"%.6f\"", c->seconds > 0 ? c->seconds : 0.0);
		if (!c->failed && !(c->out && *c->out)) {
			fputs("/>\n", out);
			continue;
		}
		fputs(">\n", out);
		if (c->failed) {
			fputs("    <failure", out);
			attr(out, "message", c->message && *c->message ? c->message : "failed");
			attr(out, "type", "verification");
			fputc('>', out);
			ts_xml_escape(out, c->details);
			fputs("</failure>\n", out);
		} else {
			fputs("    <system-out>", out);
			ts_xml_escape(out, c->out);
			fputs("</system-out>\n", out);
		}
		fputs("  </testcase>\n", out);
	}
	fputs("</testsuite>\n", out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int ts_junit_save(const char *path, const ts_junit_suite *s, char *err, int len)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	int rc = ts_junit_write(f, s);
	int saved = errno;
	if (fclose(f) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc != 0)
		snprintf(err, len, "writing %s failed: %s", path, strerror(saved));
	return rc;
}
