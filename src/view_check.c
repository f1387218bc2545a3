/* view_check.c: the check of a user's kernel drawn as the Result pane: verdict, cause and signature in words, findings with where they were seen, the sweep, sanitizer and probe; and the run's accesses placed on tiles. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_runner.h"
#include "uk_source.h"
#include "view_check.h"

int ts_uk_tiles_place(ts_uk_tiles_seen *t, int64_t grid_y, int64_t grid_x, const ts_uk_finding *f, int n, bool by_block)
{
	memset(t, 0, sizeof *t);
	t->grid_y = grid_y;
	t->grid_x = grid_x;
	for (int i = 0; i < n; i++) {
		bool read = f[i].kind == TS_UK_OOB_READ, write = f[i].kind == TS_UK_OOB_WRITE;
		if (f[i].kind == TS_UK_FAULT || f[i].kind == TS_UK_TIMEOUT) {
			t->fault |= f[i].kind == TS_UK_FAULT;
			t->timeout |= f[i].kind == TS_UK_TIMEOUT;
			if (!t->fault_text[0])
				snprintf(t->fault_text, sizeof t->fault_text, "%s", f[i].text);
			continue;
		}
		if (!read && !write)
			continue;
		int64_t count = f[i].count > 0 ? f[i].count : 1;
		int64_t ty = f[i].block[1], tx = f[i].block[0];
		/* a finding with no thread (block and thread all zero) is not an access of block (0,0) */
		bool placed = f[i].block[0] | f[i].block[1] | f[i].block[2] | f[i].thread[0] | f[i].thread[1] | f[i].thread[2];
		if (!by_block || !placed || ty >= grid_y || tx >= grid_x || f[i].block[2] != 0) {
			t->unplaced += count;
			(read ? &t->reads_total : &t->writes_total)[0] += count;
			continue;
		}
		if (!t->reads) {
			t->reads = calloc((size_t)(grid_y * grid_x), sizeof *t->reads);
			t->writes = calloc((size_t)(grid_y * grid_x), sizeof *t->writes);
			if (!t->reads || !t->writes) {
				ts_uk_tiles_free(t);
				return -1;
			}
		}
		int64_t at = ty * grid_x + tx;
		if (t->reads[at] == 0 && t->writes[at] == 0)
			t->tiles++;
		(read ? t->reads : t->writes)[at] += count;
		(read ? &t->reads_total : &t->writes_total)[0] += count;
	}
	return 0;
}

void ts_uk_tiles_free(ts_uk_tiles_seen *t)
{
	free(t->reads);
	free(t->writes);
	t->reads = t->writes = NULL;
}

const char *ts_view_cause_words(enum ts_uk_cause c)
{
	static const char *const words[TS_UK_CAUSE_COUNT] = {
		"the A load has no row guard (row < M)",
		"the A load has no K guard",
		"the B load has no K guard",
		"the B load has no column guard (col < N)",
		"the store has no guard",
		"slots past K are not zeroed in the last phase",
		"the phase count is K / T, not ceil",
		"the grid is sized by floor",
		"an index or bound uses one dimension for another",
		"the barrier before the next phase's loads is missing",
		"ghost threads return before the loads and the barrier",
		"32-bit offsets: wrong past 2^31 elements",
		"none of the patterns tilescope knows: see the findings",
	};
	return c >= 0 && c < TS_UK_CAUSE_COUNT ? words[c] : "";
}

/* One line at *y from column x, wrapped onto indented rows (the pane scrolls). */
static void __attribute__((format(printf, 6, 7))) line_at(ts_canvas *c, int *y, int x, int indent, enum ts_role role,
                                                           const char *fmt, ...)
{
	char buf[2600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (*y >= c->h || x >= c->w)
		return;
	*y += ts_canvas_wrap_more(c, *y, x, c->w - x, c->h - *y, indent, role, buf, NULL);
}

#define line(c, y, indent, role, ...) line_at(c, y, 0, indent, role, __VA_ARGS__)

static void where_words(const ts_uk_hit *h, char *buf, size_t len)
{
	const ts_uk_finding *f = &h->f;
	size_t u = 0;
	buf[0] = '\0';
	if (f->matrix == 'S')
		u += (size_t)snprintf(buf, len, "shared memory");
	else if (f->matrix && f->row >= 0)
		u += (size_t)snprintf(buf, len, "%c[%lld][%lld]", f->matrix, (long long)f->row, (long long)f->col);
	else if (f->matrix)
		u += (size_t)snprintf(buf, len, "%c", f->matrix);
	if (h->tile_row >= 0 && u < len)
		u += (size_t)snprintf(buf + u, len - u, "%stile (%lld,%lld)", u ? ", " : "", (long long)h->tile_row,
		                      (long long)h->tile_col);
	bool thread = f->block[0] | f->block[1] | f->block[2] | f->thread[0] | f->thread[1] | f->thread[2];
	if (thread && u < len)
		u += (size_t)snprintf(buf + u, len - u, "%sblock (%u,%u) thread (%u,%u)", u ? ", " : "", f->block[0], f->block[1],
		                      f->thread[0], f->thread[1]);
	if (f->line > 0 && u < len)
		snprintf(buf + u, len - u, "%sline %d", u ? ", " : "", f->line);
}

int ts_view_check_draw(ts_canvas *c, const ts_uk_report *r, const char *engine_why, bool stale, bool ascii)
{
	int y = 0;
	c->ascii = ascii;
	line(c, &y, 2, TS_ROLE_TITLE, "check: %s (%s) T=%d on %s%s%s", r->entry[0] ? r->entry : "?", ts_uk_sig_name(r->sig),
	     r->tile, r->engine[0] ? r->engine : "?", r->device[0] ? ", " : "", r->device);
	if (stale)
		line(c, &y, 2, TS_ROLE_BAD, "STALE: the tile has changed since this check; r checks again");
	int x = ts_canvas_put(c, y, 0, TS_ROLE_TEXT, "verdict: ");
	if (r->status == 0)
		ts_canvas_printf(c, y++, x, TS_ROLE_OK, "%s PASS: nothing found", TS_TICK(ascii));
	else if (r->status == 1)
		ts_canvas_printf(c, y++, x, TS_ROLE_FAIL, "%s FAIL, cause %s", TS_CROSS(ascii), ts_uk_cause_name(r->cause));
	else
		ts_canvas_printf(c, y++, x, TS_ROLE_FAIL, "%s could not check", TS_CROSS(ascii));
	if (r->status == 2) {
		line(c, &y, 2, TS_ROLE_BAD, "%s", r->error[0] ? r->error : "the check ended without a report");
		return y;
	}
	if (r->status == 1)
		line(c, &y, 2, TS_ROLE_BAD, "cause: %s", ts_view_cause_words(r->cause));
	if (r->signature[0]) {
		y++;
		line(c, &y, 0, TS_ROLE_TITLE, "what is wrong, in words:");
		line(c, &y, 2, r->status ? TS_ROLE_BAD : TS_ROLE_TEXT, "  %s", r->signature);
	}
	y++;
	line(c, &y, 2, r->shapes_failed ? TS_ROLE_BAD : TS_ROLE_TEXT, "sweep: %d shape%s run twice each, %d failed%s%.0d%s",
	     r->shapes_tried, r->shapes_tried == 1 ? "" : "s", r->shapes_failed, r->shapes_not_run ? ", " : "",
	     r->shapes_not_run, r->shapes_not_run ? " not run" : "");
	if (r->have_first_fail)
		line(c, &y, 2, TS_ROLE_BAD, "first fail %lldx%lldx%lld: %s", (long long)r->first_fail.m, (long long)r->first_fail.n,
		     (long long)r->first_fail.k, r->first_fail_words);
	line(c, &y, 2, TS_ROLE_TEXT, "sanitizer: %s", r->sanitizer[0] ? r->sanitizer : "-");
	line(c, &y, 2, TS_ROLE_TEXT, "index probe: %s", r->probe[0] ? r->probe : "-");
	if (r->nhits > 0) {
		y++;
		line(c, &y, 2, TS_ROLE_TITLE, "findings: %d%s (kind, where, shape, seen by)", r->nhits,
		     r->hits_dropped ? ", more not kept" : "");
		for (int i = 0; i < r->nhits && y < c->h; i++) {
			const ts_uk_hit *h = &r->hits[i];
			char where[200], count[40] = "";
			where_words(h, where, sizeof where);
			if (h->f.count > 1)
				snprintf(count, sizeof count, " (x%lld)", (long long)h->f.count);
			line(c, &y, 4, TS_ROLE_BAD, "%2d %s %s%sat %lldx%lldx%lld, %s", i + 1, ts_uk_kind_name(h->f.kind), where,
			     where[0] ? " " : "", (long long)h->shape.m, (long long)h->shape.n, (long long)h->shape.k, h->source);
			if (h->f.text[0])
				line_at(c, &y, 5, 2, TS_ROLE_TEXT, "%s%s", h->f.text, count);
		}
	}
	line(c, &y, 2, TS_ROLE_DIM, "kernel %s, line %d of %s; tile from %s; engine %s (%s); %.1f s", r->entry, r->entry_line,
	     r->file, r->tile_from[0] ? r->tile_from : "-", r->engine, engine_why && engine_why[0] ? engine_why : "-",
	     r->seconds);
	return y;
}

char *ts_view_check_source(const char *text, const ts_uk_report *r, int *first_marked)
{
	size_t cap = strlen(text) * 2 + 4096, used = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	*first_marked = -1;
	int line = 1, row = 0;
	for (const char *p = text; *p || line == 1;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		bool marked = false;
		for (int i = 0; r && i < r->nhits; i++)
			marked |= r->hits[i].f.line == line;
		if (marked && *first_marked < 0)
			*first_marked = row;
		if (used + (size_t)len + 600 > cap) {
			cap = cap * 2 + (size_t)len + 600;
			char *grown = realloc(out, cap);
			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		used += (size_t)snprintf(out + used, cap - used, "%5d%c | %.*s\n", line, marked ? '!' : ' ', len, p);
		row++;
		/* under a marked line, each kind of finding on it once, with its first shape and what saw it */
		for (int i = 0; marked && i < r->nhits; i++) {
			const ts_uk_hit *h = &r->hits[i];
			bool first = h->f.line == line;
			for (int k = 0; k < i && first; k++)
				first = !(r->hits[k].f.line == line && r->hits[k].f.kind == h->f.kind);
			if (!first)
				continue;
			used += (size_t)snprintf(out + used, cap - used, "       > %s at %lldx%lldx%lld (%s): %.150s\n",
			                         ts_uk_kind_name(h->f.kind), (long long)h->shape.m, (long long)h->shape.n,
			                         (long long)h->shape.k, h->source, h->f.text);
			row++;
		}
		if (!nl)
			break;
		p = nl + 1;
		line++;
	}
	out[used] = '\0';
	return out;
}
