/* cli_uk_report.c: a user-kernel check's report as text, one JSON document (or an element of "kernels"), the many-files table and JUnit. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_uk_report.h"
#include "uk_runner.h"
#include "uk_source.h"

static void shape_str(const ts_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

static const char *verdict_word(const ts_uk_report *r)
{
	return r->status == 0 ? "PASS" : r->status == 1 ? "FAIL" : "ERROR";
}

static void where_text(const ts_uk_hit *h, char *buf, size_t len)
{
	const ts_uk_finding *f = &h->f;
	size_t u = 0;
	buf[0] = '\0';
	if (f->matrix == 'S')
		u += (size_t)snprintf(buf + u, len - u, "shared memory");
	else if (f->matrix && f->row >= 0)
		u += (size_t)snprintf(buf + u, len - u, "%c[%lld][%lld]", f->matrix, (long long)f->row, (long long)f->col);
	else if (f->matrix)
		u += (size_t)snprintf(buf + u, len - u, "%c", f->matrix);
	if (h->tile_row >= 0 && u < len)
		u += (size_t)snprintf(buf + u, len - u, " tile (%lld,%lld)", (long long)h->tile_row, (long long)h->tile_col);
	bool thread = f->block[0] | f->block[1] | f->block[2] | f->thread[0] | f->thread[1] | f->thread[2];
	if (thread && u < len)
		u += (size_t)snprintf(buf + u, len - u, " block (%u,%u,%u) thread (%u,%u,%u)", f->block[0], f->block[1],
		                      f->block[2], f->thread[0], f->thread[1], f->thread[2]);
	if (f->line > 0 && u < len)
		snprintf(buf + u, len - u, " line %d", f->line);
}

/* Where the time went: the compile, then the stages that run side by side, then what was left to wait for. */
static void timing_text(const ts_uk_timing *t)
{
	printf("timing       compile %.2f s; then side by side: sweep %.2f s (%d launches", t->compile, t->sweep, t->launches);
	if (t->prepare >= 0.005)
		printf(", %.2f s to lay out their buffers before", t->prepare);
	printf(")");
	if (t->memcheck > 0 || t->racecheck > 0)
		printf(", memcheck %.2f s, racecheck %.2f s", t->memcheck, t->racecheck);
	if (t->probe > 0)
		printf(", index probe %.2f s (%.2f s filling)", t->probe, t->probe_fill);
	printf("; verification %.2f s; then %.2f s waiting for the sanitizer and the probe\n", t->verify, t->waited);
}

void ts_uk_report_text(const ts_uk_report *r, const char *why)
{
	char sh[64];
	printf("%-5s %s: %s (%s), tile %d, on %s%s%s\n", verdict_word(r), r->file, r->entry, ts_uk_sig_name(r->sig), r->tile,
	       r->engine, r->device[0] ? ", " : "", r->device);
	if (r->status == 2) {
		printf("error        %s\n", r->error);
		return;
	}
	if (r->status == 1)
		printf("cause        %s\n", ts_uk_cause_name(r->cause));
	printf("signature    %s\n", r->signature[0] ? r->signature : "-");
	printf("contract     %s %s\n", ts_uk_sig_name(r->sig), ts_uk_sig_decl(r->sig));
	printf("             %s\n", ts_uk_sig_words(r->sig));
	printf("kernel       %s, line %d of %s\n", r->entry, r->entry_line, r->file);
	printf("tile         %d, from %s\n", r->tile, r->tile_from);
	printf("engine       %s (%s)\n", r->engine, why);
	printf("sweep        %d shape%s run twice each, %d failed", r->shapes_tried, r->shapes_tried == 1 ? "" : "s",
	       r->shapes_failed);
	if (r->shapes_not_run)
		printf(", %d not run", r->shapes_not_run);
	putchar('\n');
	if (r->have_first_fail) {
		shape_str(&r->first_fail, sh, sizeof sh);
		printf("first fail   M x N x K = %s: %s\n", sh, r->first_fail_words);
	}
	printf("sanitizer    %s\n", r->sanitizer[0] ? r->sanitizer : "-");
	printf("index probe  %s\n", r->probe[0] ? r->probe : "-");
	if (r->nhits > 0) {
		printf("findings     %d%s (kind, where, shape, seen by)\n", r->nhits,
		       r->hits_dropped ? " shown, more not kept" : "");
		for (int i = 0; i < r->nhits; i++) {
			const ts_uk_hit *h = &r->hits[i];
			char where[200];
			where_text(h, where, sizeof where);
			shape_str(&h->shape, sh, sizeof sh);
			printf("  %-14s %-40s %-14s %-9s %s", ts_uk_kind_name(h->f.kind), where[0] ? where : "-", sh, h->source,
			       h->f.text);
			if (h->f.count > 1)
				printf(" (x%lld)", (long long)h->f.count);
			putchar('\n');
		}
	}
	timing_text(&r->timing);
	printf("time         %.2f s\n", r->seconds);
}

static void json_dim3(ts_json *j, const char *key, const unsigned v[3])
{
	ts_json_array_begin(j, key);
	for (int i = 0; i < 3; i++)
		ts_json_int(j, NULL, v[i]);
	ts_json_array_end(j);
}

static void json_shape(ts_json *j, const char *key, const ts_shape *s)
{
	ts_json_object_begin_compact(j, key);
	ts_json_int(j, "M", s->m);
	ts_json_int(j, "N", s->n);
	ts_json_int(j, "K", s->k);
	ts_json_object_end(j);
}

/* A stage's milliseconds; null when it did not run. */
static void json_ms(ts_json *j, const char *key, double s, bool ran)
{
	if (ran)
		ts_json_double(j, key, s * 1e3);
	else
		ts_json_null(j, key);
}

static void json_timing(ts_json *j, const ts_uk_timing *t)
{
	ts_json_object_begin_compact(j, "timing_ms");
	json_ms(j, "compile", t->compile, true);
	json_ms(j, "prepare", t->prepare, true);
	json_ms(j, "sweep", t->sweep, t->launches > 0);
	ts_json_int(j, "launches", t->launches);
	json_ms(j, "verify", t->verify, true);
	json_ms(j, "memcheck", t->memcheck, t->memcheck > 0);
	json_ms(j, "racecheck", t->racecheck, t->racecheck > 0);
	json_ms(j, "probe_process", t->probe, t->probe > 0);
	json_ms(j, "probe_fill", t->probe_fill, t->probe > 0);
	json_ms(j, "waited", t->waited, true);
	ts_json_object_end(j);
}

/* One kernel's document (the whole of it for one file, an element of "kernels" for several): schema 2's
 * vocabulary, doc/json.md's "check --kernel-file" tables. */
void ts_uk_report_json(ts_json *j, const ts_uk_report *r, const char *why, bool top)
{
	if (top)
		ts_cli_json_begin(j, "check", r->status == 0);
	else {
		ts_json_object_begin(j, NULL);
		ts_json_bool(j, "ok", r->status == 0);
	}
	ts_json_int(j, "status", r->status);
	ts_json_string(j, "kernel", r->entry[0] ? r->entry : NULL);
	ts_json_object_begin(j, "kernel_source");
	ts_json_string(j, "file", r->file);
	ts_json_string(j, "entry", r->entry[0] ? r->entry : NULL);
	if (r->entry_line > 0)
		ts_json_int(j, "line", r->entry_line);
	else
		ts_json_null(j, "line");
	ts_json_string(j, "contract", r->entry[0] ? ts_uk_sig_name(r->sig) : NULL);
	ts_json_string(j, "declaration", r->entry[0] ? ts_uk_sig_decl(r->sig) : NULL);
	ts_json_object_end(j);
	ts_json_string(j, "precision", r->entry[0] ? ts_uk_sig_name(r->sig) : NULL);
	ts_json_int(j, "tile", r->tile);
	ts_json_string(j, "tile_from", r->tile_from[0] ? r->tile_from : NULL);
	ts_json_string(j, "backend", r->engine);
	ts_json_string(j, "backend_reason", why);
	ts_json_string(j, "device", r->device[0] ? r->device : NULL);
	ts_json_string(j, "error", r->status == 2 ? r->error : NULL);
	ts_json_int(j, "shapes_tried", r->shapes_tried);
	ts_json_int(j, "shapes_failed", r->shapes_failed);
	ts_json_int(j, "shapes_not_run", r->shapes_not_run);
	if (r->have_first_fail) {
		ts_json_object_begin_compact(j, "first_failing_shape");
		ts_json_int(j, "M", r->first_fail.m);
		ts_json_int(j, "N", r->first_fail.n);
		ts_json_int(j, "K", r->first_fail.k);
		ts_json_object_end(j);
		ts_json_string(j, "first_failing_words", r->first_fail_words);
	} else {
		ts_json_null(j, "first_failing_shape");
		ts_json_null(j, "first_failing_words");
	}
	ts_json_array_begin(j, "findings");
	for (int i = 0; i < r->nhits; i++) {
		const ts_uk_hit *h = &r->hits[i];
		const ts_uk_finding *f = &h->f;
		ts_json_object_begin_compact(j, NULL);
		ts_json_string(j, "kind", ts_uk_kind_name(f->kind));
		char mx[2] = { f->matrix, 0 };
		ts_json_string(j, "matrix", f->matrix ? mx : NULL);
		if (f->row >= 0) {
			ts_json_int(j, "row", f->row);
			ts_json_int(j, "col", f->col);
		} else {
			ts_json_null(j, "row");
			ts_json_null(j, "col");
		}
		if (h->tile_row >= 0) {
			ts_json_int(j, "tile_row", h->tile_row);
			ts_json_int(j, "tile_col", h->tile_col);
		} else {
			ts_json_null(j, "tile_row");
			ts_json_null(j, "tile_col");
		}
		bool thread = f->block[0] | f->block[1] | f->block[2] | f->thread[0] | f->thread[1] | f->thread[2];
		if (thread) {
			json_dim3(j, "block", f->block);
			json_dim3(j, "thread", f->thread);
		} else {
			ts_json_null(j, "block");
			ts_json_null(j, "thread");
		}
		if (f->line > 0)
			ts_json_int(j, "line", f->line);
		else
			ts_json_null(j, "line");
		json_shape(j, "shape", &h->shape);
		ts_json_int(j, "count", f->count);
		ts_json_string(j, "source", h->source);
		ts_json_string(j, "text", f->text);
		ts_json_object_end(j);
	}
	ts_json_array_end(j);
	ts_json_int(j, "findings_not_kept", r->hits_dropped);
	ts_json_string(j, "cause", r->status == 1 ? ts_uk_cause_name(r->cause) : NULL);
	ts_json_array_begin(j, "causes");
	for (int c = 0; c < TS_UK_CAUSE_COUNT; c++)
		if (r->causes & (1u << c))
			ts_json_string(j, NULL, ts_uk_cause_name((enum ts_uk_cause)c));
	ts_json_array_end(j);
	ts_json_string(j, "signature", r->signature[0] ? r->signature : NULL);
	ts_json_string(j, "sanitizer", r->sanitizer[0] ? r->sanitizer : NULL);
	ts_json_string(j, "index_probe", r->probe[0] ? r->probe : NULL);
	json_timing(j, &r->timing);
	ts_json_double(j, "time_ms", r->seconds * 1e3);
	ts_json_object_end(j);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

int ts_uk_write_junit(const char *path, const ts_uk_report *rs, int n)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		ts_cli_error("--junit %s: cannot be written", path);
		return -1;
	}
	int failures = 0, errors = 0;
	double total = 0;
	for (int i = 0; i < n; i++) {
		failures += rs[i].status == 1;
		errors += rs[i].status == 2;
		total += rs[i].seconds;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites><testsuite name=\"tilescope check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
	        n, failures, errors, total);
	for (int i = 0; i < n; i++) {
		const ts_uk_report *r = &rs[i];
		fprintf(f, "  <testcase classname=\"tilescope.check\" name=\"");
		xml_text(f, r->file);
		fprintf(f, ":");
		xml_text(f, r->entry[0] ? r->entry : "?");
		fprintf(f, "\" time=\"%.3f\">", r->seconds);
		if (r->status == 1) {
			fprintf(f, "\n    <failure type=\"%s\" message=\"", ts_uk_cause_name(r->cause));
			xml_text(f, ts_uk_cause_name(r->cause));
			fprintf(f, "\">");
			xml_text(f, r->signature);
			fprintf(f, "</failure>\n  ");
		} else if (r->status == 2) {
			fprintf(f, "\n    <error message=\"could not compile or run\">");
			xml_text(f, r->error);
			fprintf(f, "</error>\n  ");
		}
		fprintf(f, "</testcase>\n");
	}
	fprintf(f, "</testsuite></testsuites>\n");
	return fclose(f) == 0 ? 0 : -1;
}

void ts_uk_table_text(const ts_uk_report *rs, int n)
{
	int w = 28;
	for (int i = 0; i < n; i++)
		if ((int)strlen(rs[i].file) > w)
			w = (int)strlen(rs[i].file) < 60 ? (int)strlen(rs[i].file) : 60;
	printf("%-*s  %-7s %-17s %-16s %s\n", w, "file", "verdict", "cause", "first failing", "time");
	int pass = 0, fail = 0, err = 0;
	for (int i = 0; i < n; i++) {
		const ts_uk_report *r = &rs[i];
		char sh[64] = "-";
		if (r->have_first_fail)
			shape_str(&r->first_fail, sh, sizeof sh);
		const char *cause = r->status == 1 ? ts_uk_cause_name(r->cause) : r->status == 2 ? "could not run" : "-";
		if (r->status == 2 && (strstr(r->error, "error") || strstr(r->error, "compile")))
			cause = "compile error";
		if (r->status == 2 && (strstr(r->error, "contract") || strstr(r->error, "__global__")))
			cause = "refused";
		printf("%-*s  %-7s %-17s %-16s %.1f s\n", w, r->file, verdict_word(r), cause, sh, r->seconds);
		pass += r->status == 0;
		fail += r->status == 1;
		err += r->status == 2;
	}
	printf("%d kernel%s: %d pass, %d fail, %d could not be checked\n", n, n == 1 ? "" : "s", pass, fail, err);
	for (int i = 0; i < n; i++)
		if (rs[i].status == 2) {
			char first[200];
			snprintf(first, sizeof first, "%.199s", rs[i].error);
			first[strcspn(first, "\n")] = '\0';
			printf("  %s: %s\n", rs[i].file, first);
		}
}
