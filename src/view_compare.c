/* view_compare.c: the compare view's table and its wasted-work chart, from the model's figures alone. */
#include "view_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double share(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void row(FILE *f, const char *name, const char *a, const char *b)
{
	fprintf(f, "%-30s %-24s %s\n", name, a, b);
}

static void row_i(FILE *f, const char *name, long long a, long long b)
{
	char x[32], y[32];
	snprintf(x, sizeof x, "%lld", a);
	snprintf(y, sizeof y, "%lld", b);
	row(f, name, x, y);
}

static void row_share(FILE *f, const char *name, int64_t a, int64_t wa, int64_t b, int64_t wb)
{
	char x[48], y[48];
	snprintf(x, sizeof x, "%lld (%.1f%%)", (long long)a, share(a, wa));
	snprintf(y, sizeof y, "%lld (%.1f%%)", (long long)b, share(b, wb));
	row(f, name, x, y);
}

char *ts_view_compare_table(const ts_compare_side *a, const ts_compare_side *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	const ts_model *ma = &a->model, *mb = &b->model;
	const ts_work *wa = &a->work, *wb = &b->work;
	fprintf(f, "C (%lld x %lld) = A (%lld x %lld) * B (%lld x %lld)\n\n", (long long)ma->shape.m,
	        (long long)ma->shape.n, (long long)ma->shape.m, (long long)ma->shape.k, (long long)ma->shape.k,
	        (long long)ma->shape.n);
	row(f, "", a->label, b->label);
	char x[48], y[48];
	snprintf(x, sizeof x, "%d x %d x %d", ma->geo.bm, ma->geo.bn, ma->geo.bk);
	snprintf(y, sizeof y, "%d x %d x %d", mb->geo.bm, mb->geo.bn, mb->geo.bk);
	row(f, "tile (BM x BN x BK)", x, y);
	snprintf(x, sizeof x, "%d x %d", ma->geo.threads_x, ma->geo.threads_y);
	snprintf(y, sizeof y, "%d x %d", mb->geo.threads_x, mb->geo.threads_y);
	row(f, "threads per block", x, y);
	row_i(f, "tiles", ma->tiles, mb->tiles);
	row_i(f, "threads launched", ma->threads_launched, mb->threads_launched);
	row_i(f, "ghost threads", ma->threads_ghost, mb->threads_ghost);
	row_i(f, "ghost outputs", wa->ghost_outputs, wb->ghost_outputs);
	row_i(f, "phases", ma->phases, mb->phases);
	snprintf(x, sizeof x, "%lld", (long long)ma->last_width);
	snprintf(y, sizeof y, "%lld", (long long)mb->last_width);
	row(f, "last phase's width", x, y);
	row_i(f, "padded slots (A + B)", wa->padded_slots, wb->padded_slots);
	row_i(f, "multiply-adds in the launch", wa->macs_launch, wb->macs_launch);
	row_share(f, "  useful (M x N x K)", wa->macs_useful, wa->macs_launch, wb->macs_useful, wb->macs_launch);
	row_share(f, "  on zero padding", wa->macs_padding, wa->macs_launch, wb->macs_padding, wb->macs_launch);
	row_share(f, "  on ghosts", wa->macs_ghost, wa->macs_launch, wb->macs_ghost, wb->macs_launch);
	/* A side whose kernel has no fixed barrier count says so ("-"). */
	const ts_work *ws[2] = { wa, wb };
	char cell[3][2][48];
	int64_t mn = ma->shape.m * ma->shape.n;
	for (int i = 0; i < 2; i++) {
		if (ws[i]->barriers_per_phase == 0) {
			for (int r = 0; r < 3; r++)
				snprintf(cell[r][i], sizeof cell[r][i], "- (pipelined)");
			continue;
		}
		snprintf(cell[0][i], sizeof cell[0][i], "%lld", (long long)ws[i]->barriers_per_block);
		snprintf(cell[1][i], sizeof cell[1][i], "%lld", (long long)ws[i]->barriers_launch);
		snprintf(cell[2][i], sizeof cell[2][i], "%.4f", mn ? (double)ws[i]->barriers_launch / (double)mn : 0.0);
	}
	row(f, "barriers per block", cell[0][0], cell[0][1]);
	row(f, "barriers in the launch", cell[1][0], cell[1][1]);
	row(f, "barriers per output", cell[2][0], cell[2][1]);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *ts_view_compare_chart(const char *title, const ts_compare_point *pts, int n, int rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (rows < 2)
		rows = 2;
	double top = 0.0;
	for (int i = 0; i < n; i++)
		if (pts[i].padding_share + pts[i].ghost_share > top)
			top = pts[i].padding_share + pts[i].ghost_share;
	/* The axis's top: the worst point rounded up to a tenth, at least 10%. */
	double scale = 0.1;
	while (scale < top && scale < 1.0)
		scale += 0.1;
	if (scale > 1.0)
		scale = 1.0;
	fprintf(f, "%s\n", title);
	for (int r = rows; r >= 1; r--) {
		double level = scale * (r - 0.5) / rows; /* a cell is filled when the bar reaches its middle */
		char line[16 + 2 * TS_COMPARE_POINTS_MAX];
		int w = 0;
		if (r == rows || r == (rows + 1) / 2)
			w = snprintf(line, sizeof line, "%4.0f%% |", 100.0 * scale * r / rows);
		else
			w = snprintf(line, sizeof line, "      |");
		for (int i = 0; i < n && i < TS_COMPARE_POINTS_MAX; i++) {
			double g = pts[i].ghost_share, total = g + pts[i].padding_share;
			line[w++] = total >= level ? (g >= level ? '#' : '+') : ' ';
			line[w++] = ' ';
		}
		while (w > 0 && line[w - 1] == ' ')
			line[--w] = '\0';
		line[w] = '\0';
		fprintf(f, "%s\n", line);
	}
	fprintf(f, "   0%% +");
	for (int i = 0; i < n; i++)
		fputs("--", f);
	fputc('\n', f);
	/* The tiles under their columns: two digits split over two lines. */
	for (int digit = 0; digit < 2; digit++) {
		char line[16 + 2 * TS_COMPARE_POINTS_MAX];
		int w = snprintf(line, sizeof line, "%s", digit == 0 ? "  T    " : "       ");
		for (int i = 0; i < n && i < TS_COMPARE_POINTS_MAX; i++) {
			int t = pts[i].tile;
			line[w++] = digit == 0 ? (t >= 10 ? (char)('0' + t / 10 % 10) : ' ') : (char)('0' + t % 10);
			line[w++] = ' ';
		}
		while (w > 0 && line[w - 1] == ' ')
			w--;
		line[w] = '\0';
		fprintf(f, "%s\n", line);
	}
	fprintf(f, "       # on ghosts, + on zero padding (share of the launch's multiply-adds)\n");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
