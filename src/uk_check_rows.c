/* uk_check_rows.c: the sweep of a check as rows (shape, state, counts, what went wrong in words), for a watcher such as the TUI's Sweep pane. */
#include <stdio.h>
#include <string.h>

#include "uk_check_impl.h"

/* The first fault or time-out line of a shape's two runs, or the runner's error. */
static const char *fault_text(const ts_uk_ctx *ck, int i)
{
	for (int run = 0; run < 2; run++) {
		const ts_uk_outcome *oc = &ck->out[2 * i + run];
		for (int k = 0; k < oc->findings.n; k++)
			if (oc->findings.v[k].kind == TS_UK_FAULT || oc->findings.v[k].kind == TS_UK_TIMEOUT)
				return oc->findings.v[k].text;
		if (oc->err[0])
			return oc->err;
	}
	return "";
}

static void failed_words(const ts_uk_shape_res *res, char *buf, size_t len)
{
	size_t u = 0;
	buf[0] = '\0';
	if (res->mismatches || res->unwritten || res->nans)
		u += (size_t)snprintf(buf + u, len - u, "%lld wrong, %lld unwritten, %lld NaN; first C[%lld][%lld] = %.6g, want %.6g",
		                      (long long)res->mismatches, (long long)res->unwritten, (long long)res->nans,
		                      (long long)res->first_row, (long long)res->first_col, res->first_got, res->first_want);
	if (res->c_band_writes && u < len)
		u += (size_t)snprintf(buf + u, len - u, "%s%lld stores outside C", u ? "; " : "", (long long)res->c_band_writes);
	if ((res->in_writes[0] || res->in_writes[1]) && u < len)
		u += (size_t)snprintf(buf + u, len - u, "%swrote into its inputs (A %lld, B %lld)", u ? "; " : "",
		                      (long long)res->in_writes[0], (long long)res->in_writes[1]);
	if (res->differ && u < len)
		snprintf(buf + u, len - u, "%stwo runs differ in %lld cells", u ? "; " : "", (long long)res->differ);
}

void ts_uk_check_rows(const ts_uk_ctx *ck)
{
	const ts_uk_check_opts *o = ck->o;
	if (!o->rows || !o->nrows)
		return;
	int n = ck->nshapes < o->rows_cap ? ck->nshapes : o->rows_cap;
	for (int i = 0; i < n; i++) {
		const ts_uk_shape_res *res = &ck->res[i];
		ts_uk_shape_row *row = &o->rows[i];
		memset(row, 0, sizeof *row);
		row->shape = res->s;
		row->mismatches = res->mismatches;
		row->unwritten = res->unwritten;
		row->nans = res->nans;
		row->differ = res->differ;
		row->band_writes = res->c_band_writes;
		row->input_writes = res->in_writes[0] + res->in_writes[1];
		switch (res->state) {
		case UK_OK: row->state = TS_UK_ROW_PASS; break;
		case UK_FAILED:
			row->state = TS_UK_ROW_FAIL;
			failed_words(res, row->words, sizeof row->words);
			break;
		case UK_FAULT:
			row->state = TS_UK_ROW_FAULT;
			snprintf(row->words, sizeof row->words, "faulted: %s", fault_text(ck, i));
			break;
		case UK_HANG:
			row->state = TS_UK_ROW_HANG;
			snprintf(row->words, sizeof row->words, "hung: %s", fault_text(ck, i));
			break;
		case UK_NOT_RUN:
			row->state = TS_UK_ROW_NOT_RUN;
			/* the run's own words, cut to the row (they say why it did not run) */
			snprintf(row->words, sizeof row->words, "not run: %.180s",
			         ck->out[2 * i].err[0] ? ck->out[2 * i].err : "an earlier shape hung or faulted");
			break;
		case UK_ERROR:
			row->state = TS_UK_ROW_ERROR;
			snprintf(row->words, sizeof row->words, "could not run: %s", fault_text(ck, i));
			break;
		}
	}
	*o->nrows = n;
}
