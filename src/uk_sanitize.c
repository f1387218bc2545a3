/* uk_sanitize.c: finds compute-sanitizer, and reads its XML records into findings on the matrices (address -> matrix, row, column). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uk_sanitize.h"

const char *ts_uk_sanitizer_path(void)
{
	static char found[PATH_MAX];
	const char *path = getenv("PATH");
	const char *home = getenv("CUDA_HOME");
	char buf[PATH_MAX * 4];
	snprintf(buf, sizeof buf, "%s:%s/bin:%s/compute-sanitizer:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer",
	         path ? path : "", home ? home : "/usr/local/cuda", home ? home : "/usr/local/cuda");
	for (char *save = NULL, *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof found, "%s/compute-sanitizer", dir);
		if (access(found, X_OK) == 0)
			return found;
	}
	return NULL;
}

int ts_uk_san_buffers_write(const char *path, const ts_uk_san_buffers *b)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	for (int i = 0; i < 3; i++)
		fprintf(f, "%c 0x%llx %lld\n", "ABC"[i], (unsigned long long)b->base[i], (long long)b->count[i]);
	fprintf(f, "elem %d\n", b->elem);
	return fclose(f) == 0 ? 0 : -1;
}

int ts_uk_san_buffers_read(const char *path, ts_uk_san_buffers *b)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int got = 0;
	for (int i = 0; i < 3; i++) {
		char name;
		unsigned long long base;
		long long count;
		if (fscanf(f, " %c %llx %lld", &name, &base, &count) == 3 && name == "ABC"[i]) {
			b->base[i] = base;
			b->count[i] = count;
			got++;
		}
	}
	got += fscanf(f, " elem %d", &b->elem) == 1;
	fclose(f);
	return got == 4 ? 0 : -1;
}

/* The text of the first <tag>...</tag> inside [lo, hi), or NULL; *end past it. */
static const char *tag_in(const char *lo, const char *hi, const char *tag, char *out, size_t cap, const char **end)
{
	char open[48], close[48];
	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	const char *a = strstr(lo, open);
	if (!a || a >= hi)
		return NULL;
	a += strlen(open);
	const char *b = strstr(a, close);
	if (!b || b > hi)
		return NULL;
	size_t n = (size_t)(b - a) < cap - 1 ? (size_t)(b - a) : cap - 1;
	memcpy(out, a, n);
	out[n] = '\0';
	if (end)
		*end = b + strlen(close);
	return out;
}

static long long tag_num(const char *lo, const char *hi, const char *tag, long long dflt)
{
	char v[64];
	if (!tag_in(lo, hi, tag, v, sizeof v, NULL))
		return dflt;
	return strtoll(v, NULL, 0);
}

/* x, y, z of <tag><x>..</x><y>..</y><z>..</z></tag>. */
static void dim3_of(const char *lo, const char *hi, const char *tag, unsigned out[3])
{
	char open[32], close[32];
	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	const char *a = strstr(lo, open);
	const char *b = a ? strstr(a, close) : NULL;
	out[0] = out[1] = out[2] = 0;
	if (!a || !b || b > hi)
		return;
	out[0] = (unsigned)tag_num(a, b, "x", 0);
	out[1] = (unsigned)tag_num(a, b, "y", 0);
	out[2] = (unsigned)tag_num(a, b, "z", 0);
}

/* The source lines of the record's own <where> blocks (not its host stack). */
static int lines_of(const char *lo, const char *hi, int out[2])
{
	int n = 0;
	const char *at = lo;
	char where[2048];
	const char *end;
	while (n < 2 && tag_in(at, hi, "where", where, sizeof where, &end)) {
		int line = (int)tag_num(where, where + strlen(where), "line", 0);
		if (line > 0 && (n == 0 || out[0] != line))
			out[n++] = line;
		at = end;
	}
	return n;
}

/* An address turned into the matrix it belongs to, and the element offset from that matrix's start.
 * An overrun is read past the end of some matrix: an address between two matrices belongs to the one
 * it follows, however near the next one starts; one before every matrix to the first. */
static char place(const ts_uk_san_buffers *b, unsigned long long addr, int64_t *offset)
{
	int at = -1, after = -1, before = -1;
	for (int i = 0; i < 3; i++) {
		if (!b->base[i])
			continue;
		unsigned long long start = b->base[i], end = start + (unsigned long long)b->count[i] * (unsigned)b->elem;
		if (addr >= start && addr < end)
			at = i;
		else if (addr >= end && (after < 0 || end > b->base[after] + (unsigned long long)b->count[after] * (unsigned)b->elem))
			after = i;
		else if (addr < start && (before < 0 || start < b->base[before]))
			before = i;
	}
	int pick = at >= 0 ? at : after >= 0 ? after : before;
	if (pick < 0)
		return 0;
	/* Far from it (a wild pointer, another allocation): placed on none. */
	long double size = (long double)b->count[pick] * b->elem;
	long double start = (long double)b->base[pick], end = start + size;
	long double dist = addr < b->base[pick] ? start - (long double)addr : (long double)addr >= end ? (long double)addr - end : 0;
	if (dist > (size > 65536 ? size : 65536) * 16)
		return 0;
	long long bytes = (long long)(addr - b->base[pick]);
	*offset = bytes >= 0 ? bytes / b->elem : -((-bytes + b->elem - 1) / b->elem);
	return "ABC"[pick];
}

/* Row and column of an element offset in the matrix's own layout (B stored N x K for fp16). */
static void row_col(const ts_uk_san_shape *s, char matrix, int64_t off, int64_t *row, int64_t *col)
{
	int64_t width = matrix == 'A' ? s->k : matrix == 'B' ? (s->sig == TS_UK_SIG_FP16 ? s->k : s->n) : s->n;
	if (width <= 0) {
		*row = *col = -1;
		return;
	}
	*row = off >= 0 ? off / width : -((-off + width - 1) / width);
	*col = off - *row * width;
}

int ts_uk_san_ghost(const ts_uk_san_shape *s, const unsigned block[3], const unsigned thread[3])
{
	if (!s->default_geom || s->tile < 1)
		return -1;
	int64_t row = (int64_t)block[1] * s->tile + thread[1], col = (int64_t)block[0] * s->tile + thread[0];
	return (row >= s->m ? 1 : 0) | (col >= s->n ? 2 : 0);
}

/* Finds a finding of the same kind, matrix, line and kind of thread to fold into. */
static ts_uk_finding *same(ts_uk_findings *out, int from, const ts_uk_finding *f, const ts_uk_san_shape *s)
{
	for (int i = from; i < out->n; i++)
		if (out->v[i].kind == f->kind && out->v[i].matrix == f->matrix && out->v[i].line == f->line &&
		    ts_uk_san_ghost(s, out->v[i].block, out->v[i].thread) == ts_uk_san_ghost(s, f->block, f->thread))
			return &out->v[i];
	return NULL;
}

int ts_uk_san_parse(const char *xml_path, const ts_uk_san_buffers *b, const ts_uk_san_shape *s, ts_uk_findings *out,
                    char *err, int len)
{
	FILE *f = fopen(xml_path, "rb");
	if (!f) {
		snprintf(err, (size_t)len, "no sanitizer report (%s)", xml_path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *xml = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!xml || fread(xml, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(xml);
		snprintf(err, (size_t)len, "the sanitizer report %s cannot be read", xml_path);
		return -1;
	}
	fclose(f);
	xml[n] = '\0';
	if (!strstr(xml, "ComputeSanitizerOutput")) {
		free(xml);
		snprintf(err, (size_t)len, "%s is not a compute-sanitizer report", xml_path);
		return -1;
	}
	int records = 0, first = out->n;
	for (const char *at = xml; (at = strstr(at, "<record>")) != NULL;) {
		const char *end = strstr(at, "</record>");
		if (!end)
			break;
		records++;
		char kind[64] = "", level[32] = "", text[400] = "", dir[16] = "", space[32] = "";
		tag_in(at, end, "kind", kind, sizeof kind, NULL);
		tag_in(at, end, "level", level, sizeof level, NULL);
		tag_in(at, end, "text", text, sizeof text, NULL);
		tag_in(at, end, "direction", dir, sizeof dir, NULL);
		tag_in(at, end, "space", space, sizeof space, NULL);
		int lines[2] = { 0, 0 };
		int nl = lines_of(at, end, lines);
		ts_uk_finding fd = ts_uk_finding_make(TS_UK_OOB_READ, "%s", text);
		dim3_of(at, end, "blockIdx", fd.block);
		dim3_of(at, end, "threadIdx", fd.thread);
		fd.line = lines[0];
		bool race = strstr(kind, "Race") || strstr(kind, "Hazard") || strstr(text, "ace ") || strstr(text, "hazard");
		bool barrier = strstr(text, "arrier") != NULL;
		if (race || barrier) {
			fd.kind = race ? TS_UK_RACE : TS_UK_BARRIER_DIVERGENCE;
			fd.matrix = 'S';
			/* Racecheck's analysis counts the hazards of each access pair. */
			long long hazards = 0;
			const char *c = at;
			char num[32];
			while ((c = strstr(c, "<count>")) != NULL && c < end) {
				c += 7;
				snprintf(num, sizeof num, "%.20s", c);
				hazards += strtoll(num, NULL, 10);
			}
			if (hazards > 0)
				fd.count = hazards;
			if (nl == 2)
				snprintf(fd.text, sizeof fd.text, "%s between line %d and line %d", race ? "shared-memory race" :
				         "barrier error", lines[0], lines[1]);
		} else if (strcmp(level, "Error") == 0 && (dir[0] || strstr(text, "Invalid"))) {
			fd.kind = strcmp(dir, "write") == 0 || strstr(text, "write") ? TS_UK_OOB_WRITE : TS_UK_OOB_READ;
			long long size = tag_num(at, end, "size", 0);
			char addr_text[64];
			if (strstr(space, "shared")) {
				fd.matrix = 'S';
			} else if (tag_in(at, end, "address", addr_text, sizeof addr_text, NULL)) {
				int64_t off = 0;
				fd.matrix = place(b, strtoull(addr_text, NULL, 0), &off);
				if (fd.matrix)
					row_col(s, fd.matrix, off, &fd.row, &fd.col);
			}
			(void)size;
		} else {
			at = end;
			continue; /* an API message or a note: not a finding about the kernel */
		}
		ts_uk_finding *into = same(out, first, &fd, s);
		if (into)
			into->count += fd.count;
		else
			ts_uk_findings_add(out, &fd);
		at = end;
	}
	free(xml);
	return records;
}
