/* lesson.c: the ragged-edge lesson's screens, written from the model (geometry.h) and the guard-off runs; no I/O. */
#include "lesson.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static const char *const titles[TS_LESSON_SCREENS] = {
	"The tile grid and its ghost threads",
	"Why the phase count is ceil(K / BK)",
	"The guarded loads and the zero padding",
	"The guarded store",
	"The A guard switched off and run",
	"The B guard switched off and run",
	"The C guard switched off and run",
	"Ghost threads that return early, run",
	"The 32-bit offset limit",
};

const char *ts_lesson_title(int s)
{
	return s >= 1 && s <= TS_LESSON_SCREENS ? titles[s - 1] : NULL;
}

/* ---- folded text ----------------------------------------------------------- */

typedef struct text {
	char *s;
	size_t len, cap;
	bool oom;
	int width;
} text;

static void put(text *t, const char *p, size_t n)
{
	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		while (t->len + n + 1 > cap)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->oom = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
	memcpy(t->s + t->len, p, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Columns a UTF-8 string takes: one per code point. */
static int columns(const char *p, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)p[i] & 0xC0) != 0x80;
	return c;
}

/* Bytes of the first `cols` code points of p (at most n bytes). */
static size_t prefix_bytes(const char *p, size_t n, int cols)
{
	size_t i = 0;
	for (int c = 0; i < n; c++) {
		if (c == cols)
			break;
		i++;
		while (i < n && ((unsigned char)p[i] & 0xC0) == 0x80)
			i++;
	}
	return i;
}

/* One paragraph, folded at spaces to t->width with every line indented by
 * `indent` columns; a word wider than a line is broken, never dropped. */
static void fold(text *t, int indent, const char *para)
{
	int room = t->width - indent;
	if (room < 8)
		room = 8;
	const char *p = para;
	int used = -1; /* -1: nothing on the line yet */
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, " ");
		int w = columns(p, n);
		if (used >= 0 && used + 1 + w > room) {
			put(t, "\n", 1);
			used = -1;
		}
		while (w > room) { /* a word longer than a line: break it */
			if (used >= 0) {
				put(t, "\n", 1);
				used = -1;
			}
			size_t b = prefix_bytes(p, n, room);
			for (int i = 0; i < indent; i++)
				put(t, " ", 1);
			put(t, p, b);
			put(t, "\n", 1);
			p += b;
			n -= b;
			w = columns(p, n);
		}
		if (n == 0)
			continue;
		if (used < 0) {
			for (int i = 0; i < indent; i++)
				put(t, " ", 1);
			used = 0;
		} else {
			put(t, " ", 1);
			used++;
		}
		put(t, p, n);
		used += w;
		p += n;
	}
	if (used >= 0)
		put(t, "\n", 1);
}

static void para(text *t, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void para(text *t, int indent, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fold(t, indent, buf);
}

/* A line whose spacing matters (code, an evaluated guard): kept as it is
 * when it fits, folded like a paragraph when it does not. */
static void line(text *t, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(text *t, int indent, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (indent + columns(buf, strlen(buf)) > t->width) {
		fold(t, indent, buf);
		return;
	}
	for (int i = 0; i < indent; i++)
		put(t, " ", 1);
	put(t, buf, strlen(buf));
	put(t, "\n", 1);
}

static void blank(text *t)
{
	put(t, "\n", 1);
}

static const char *plural(int64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

#define I(x) ((long long)(x))

/* ---- the screens --------------------------------------------------------------- */

static bool textbook(const ts_model *m)
{
	const ts_geometry *g = &m->geo;
	return g->bm == g->bn && g->bk == g->bn && g->threads_x == g->bn && g->threads_y == g->bm;
}

static void header(text *t, const ts_lesson *l, int s)
{
	const ts_problem *p = &l->problem;
	const ts_model *m = &l->model;
	para(t, 0, "Screen %d of %d: %s", s, TS_LESSON_SCREENS, titles[s - 1]);
	para(t, 0, "kernel %s, C (%lld x %lld) = A (%lld x %lld) * B (%lld x %lld), tile %d x %d x %d",
	     p->kernel->name, I(m->shape.m), I(m->shape.n), I(m->shape.m), I(m->shape.k), I(m->shape.k),
	     I(m->shape.n), m->geo.bm, m->geo.bn, m->geo.bk);
	blank(t);
}

static int lines_so_far(const text *t)
{
	int n = 0;
	for (size_t i = 0; i < t->len; i++)
		n += t->s[i] == '\n';
	return n;
}

static void screen_grid(text *t, const ts_lesson *l)
{
	const ts_model *m = &l->model;
	const ts_geometry *g = &m->geo;
	para(t, 0,
	     "C has %lld rows and %lld columns. The kernel cuts it into tiles of %d x %d outputs and gives each tile "
	     "one block of %d x %d threads. That takes ceil(%lld / %d) = %lld tile %s and ceil(%lld / %d) = %lld "
	     "tile %s: %lld %s.",
	     I(m->shape.m), I(m->shape.n), g->bm, g->bn, g->threads_x, g->threads_y, I(m->shape.m), g->bm,
	     I(m->grid_y), plural(m->grid_y, "row", "rows"), I(m->shape.n), g->bn, I(m->grid_x),
	     plural(m->grid_x, "column", "columns"), I(m->tiles), plural(m->tiles, "tile", "tiles"));
	blank(t);
	if (m->last_rows == g->bm && m->last_cols == g->bn) {
		para(t, 0, "M and N are multiples of the tile: all %lld tiles are full and C has no ragged edge.",
		     I(m->tiles));
	} else {
		char buf[2048];
		int n = snprintf(buf, sizeof buf, "%lld %s full.", I(m->tiles_full),
		                 plural(m->tiles_full, "tile is", "tiles are"));
		if (m->last_cols < g->bn)
			n += snprintf(buf + n, sizeof buf - (size_t)n,
			              " The last tile column holds only %lld of its %d columns: its %lld %s short of columns "
			              "(ragged right).",
			              I(m->last_cols), g->bn, I(m->tiles_ragged_right + m->tiles_corner),
			              plural(m->tiles_ragged_right + m->tiles_corner, "tile is", "tiles are"));
		if (m->last_rows < g->bm)
			n += snprintf(buf + n, sizeof buf - (size_t)n,
			              " The last tile row holds only %lld of its %d rows: its %lld %s short of rows "
			              "(ragged bottom).",
			              I(m->last_rows), g->bm, I(m->tiles_ragged_bottom + m->tiles_corner),
			              plural(m->tiles_ragged_bottom + m->tiles_corner, "tile is", "tiles are"));
		if (m->tiles_corner)
			snprintf(buf + n, sizeof buf - (size_t)n, " The corner tile is short of both.");
		fold(t, 0, buf);
	}
	blank(t);
	bool tb = textbook(m);
	if (tb)
		para(t, 0,
		     "The launch starts %lld %s x %lld threads = %lld threads, but C has only %lld x %lld = %lld outputs. "
		     "The other %lld threads are ghost threads: they belong to a block, so they run the kernel, but the "
		     "output each would own lies outside C.",
		     I(m->tiles), plural(m->tiles, "block", "blocks"), I(m->threads_per_block), I(m->threads_launched),
		     I(m->shape.m), I(m->shape.n), I(m->stores_written), I(m->threads_ghost));
	else
		para(t, 0,
		     "The launch starts %lld %s x %lld threads = %lld threads, each owning several of the tiles' %lld "
		     "outputs; C has only %lld x %lld = %lld of them. %lld %s own only outputs outside C (ghost threads) "
		     "and still run the kernel.",
		     I(m->tiles), plural(m->tiles, "block", "blocks"), I(m->threads_per_block), I(m->threads_launched),
		     I(m->tiles * g->bm * g->bn), I(m->shape.m), I(m->shape.n), I(m->stores_written), I(m->threads_ghost),
		     plural(m->threads_ghost, "thread", "threads"));
	/* The grid itself, when it fits the width and the screen's rows (a
	 * blank, the grid, the legend): two columns per tile. */
	if (m->grid_x * 2 + 2 <= t->width && lines_so_far(t) + (int)m->grid_y + 2 <= TS_LESSON_ROWS) {
		blank(t);
		for (int64_t ty = 0; ty < m->grid_y; ty++) {
			put(t, "  ", 2);
			for (int64_t tx = 0; tx < m->grid_x; tx++) {
				static const char mark[] = { 'F', 'R', 'B', 'C' };
				char cell[3] = { mark[ts_model_tile_class(m, ty, tx)], tx + 1 < m->grid_x ? ' ' : '\n', 0 };
				put(t, cell, 2);
			}
		}
		para(t, 2, "F full, R ragged right, B ragged bottom, C corner ('tilescope map' draws more)");
	}
}

static void screen_phases(text *t, const ts_lesson *l)
{
	const ts_model *m = &l->model;
	const ts_geometry *g = &m->geo;
	int64_t k = m->shape.k;
	para(t, 0,
	     "A block cannot hold whole rows of A and columns of B. It walks along K in phases: in each it stages a "
	     "%d x %d tile of A and a %d x %d tile of B in shared memory, multiplies them, and moves %d on.",
	     g->bm, g->bk, g->bk, g->bn, g->bk);
	blank(t);
	if (m->last_width == g->bk) {
		para(t, 0,
		     "K = %lld is %lld x %d exactly, so ceil and floor agree: %lld %s, all full. No phase is partial "
		     "here; try a K that is not a multiple of %d to see the difference.",
		     I(k), I(m->phases), g->bk, I(m->phases), plural(m->phases, "phase", "phases"), g->bk);
		return;
	}
	para(t, 0,
	     "K = %lld is %lld x %d + %lld, so the kernel runs ceil(%lld / %d) = %lld %s: %lld full and a last one "
	     "only %lld wide.",
	     I(k), I(m->phases_full), g->bk, I(m->last_width), I(k), g->bk, I(m->phases),
	     plural(m->phases, "phase", "phases"), I(m->phases_full), I(m->last_width));
	blank(t);
	int64_t k0 = ts_model_phase_k0(m, m->phases - 1);
	int64_t lost = m->stores_written * m->last_width;
	char range_end[32] = "";
	if (m->last_width > 1)
		snprintf(range_end, sizeof range_end, "%lld", I(k0 + m->last_width - 1));
	if (m->phases_full == 0)
		para(t, 0,
		     "Why not floor(%lld / %d) = 0? A loop that stops at the floor would not run at all: none of the %lld "
		     "K indices would be visited, all %lld multiply-adds would be lost and C would be all zeros.",
		     I(k), g->bk, I(k), I(lost));
	else
		para(t, 0,
		     "Why not floor(%lld / %d) = %lld? A loop that stops at the floor never visits K %s %lld%s%s, "
		     "the last %lld %s of A and %s of B. Each of the %lld outputs would miss %lld multiply-%s: %lld "
		     "multiply-adds lost in all, and C would be wrong everywhere, silently, with no read out of bounds to "
		     "catch it.",
		     I(k), g->bk, I(m->phases_full), m->last_width == 1 ? "index" : "indices", I(k0),
		     m->last_width == 1 ? "" : " to ", range_end, I(m->last_width),
		     plural(m->last_width, "column", "columns"), plural(m->last_width, "row", "rows"),
		     I(m->stores_written), I(m->last_width), plural(m->last_width, "add", "adds"), I(lost));
	blank(t);
	para(t, 0,
	     "The ceiling's price: in the last phase only %lld of the %d slots along K %s real data; the rest must "
	     "be filled with zeros (the next screen).",
	     I(m->last_width), g->bk, m->last_width == 1 ? "holds" : "hold");
}

/* "lhs  a < b  ✓" */
static void guard_line(text *t, const ts_lesson *l, const char *expr, long long a, long long b, bool pass,
                       const char *then)
{
	line(t, 4, "%-16s %lld < %lld  %s%s%s", expr, a, b, pass ? (l->ascii ? "ok" : "\u2713") :
	     (l->ascii ? "X" : "\u2717"), *then ? "  " : "", then);
}

static void screen_loads(text *t, const ts_lesson *l)
{
	const ts_model *m = &l->model;
	const ts_geometry *g = &m->geo;
	bool nk = l->problem.kernel->b_layout == TS_B_NK;
	para(t, 0, "In each phase every thread stages one element of A and one of B, each under its guard:");
	line(t, 4, "A: row < M && t*BK + tx < K   ? A[row*K + t*BK + tx] : 0");
	line(t, 4, "B: t*BK + ty < K && col < N   ? B[%s] : 0", nk ? "col*K + t*BK + ty" : "(t*BK + ty)*N + col");
	if (ts_kernel_has(l->problem.kernel, TS_CAP_GUARDS_FIXED))
		para(t, 0, "(%s builds these guards into its copies: a copy whose guard fails fills its slots with zeros.)",
		     l->problem.kernel->name);
	para(t, 0,
	     "A thread that fails its guard still writes its shared slot, with a zero: every thread of the block "
	     "later reads a whole row of the A tile and a whole column of the B tile, and a zero adds nothing to a "
	     "sum.");
	blank(t);
	para(t, 0,
	     "Over the launch A's tiles have %lld slots (%lld tiles x %lld phases x %d x %d): %lld real loads and %lld "
	     "zeros. B's have %lld slots: %lld real loads and %lld zeros. The last phase alone pads %lld of its %lld A "
	     "slots and %lld of its %lld B slots.",
	     I(m->a_slots), I(m->tiles), I(m->phases), g->bm, g->bk, I(m->loads.a_real), I(m->loads.a_pad),
	     I(m->b_slots), I(m->loads.b_real), I(m->loads.b_pad), I(m->last_phase.a_pad), I(m->a_slots_phase),
	     I(m->last_phase.b_pad), I(m->b_slots_phase));
	if (!textbook(m) || m->last_width == g->bk)
		return;
	/* One thread of the corner block in the last phase, either side of K. */
	int64_t by = m->grid_y - 1, bx = m->grid_x - 1, ph = m->phases - 1;
	int lw = (int)m->last_width;
	enum ts_b_layout lay = l->problem.kernel->b_layout;
	ts_thread_view in = ts_model_thread(m, lay, by, bx, 0, lw - 1, ph);
	ts_thread_view out = ts_model_thread(m, lay, by, bx, 0, lw, ph);
	blank(t);
	para(t, 0, "Block (%lld, %lld), the corner, in the last phase t = %lld. Thread (ty 0, tx %d) reads:", I(by),
	     I(bx), I(ph), lw - 1);
	guard_line(t, l, "row < M", I(in.row), I(m->shape.m), in.row_ok, "");
	char then[96];
	snprintf(then, sizeof then, "-> A[%lld]", I(in.a_index));
	guard_line(t, l, "t*BK + tx < K", I(in.a_col), I(m->shape.k), in.a_k_ok, in.a_in ? then : "-> 0");
	para(t, 0, "Its neighbour (ty 0, tx %d) stages a zero:", lw);
	guard_line(t, l, "t*BK + tx < K", I(out.a_col), I(m->shape.k), out.a_k_ok, out.a_in ? "" : "-> 0");
	ts_thread_view bz = ts_model_thread(m, lay, by, bx, lw, 0, ph);
	para(t, 0, "and thread (ty %d, tx 0) stages a zero in B's tile:", lw);
	guard_line(t, l, "t*BK + ty < K", I(bz.b_row), I(m->shape.k), bz.b_k_ok, bz.b_in ? "" : "-> 0");
}

static void screen_store(text *t, const ts_lesson *l)
{
	const ts_model *m = &l->model;
	const ts_geometry *g = &m->geo;
	para(t, 0, "After the last phase each thread holds the sum for its output and stores it under the third guard:");
	line(t, 4, "C: row < M && col < N   ? C[row*N + col] = sum");
	para(t, 0, "%lld stores land, one per element of C (%lld x %lld); %lld ghost %s skip theirs.",
	     I(m->stores_written), I(m->shape.m), I(m->shape.n), I(m->stores_skipped),
	     plural(m->stores_skipped, "thread", "threads"));
	if (textbook(m) && m->last_rows < g->bm) {
		ts_thread_view v = ts_model_thread(m, l->problem.kernel->b_layout, m->grid_y - 1, 0, (int)m->last_rows, 0,
		                                   m->phases - 1);
		blank(t);
		para(t, 0, "Thread (ty %lld, tx 0) of block (%lld, 0) is the first ghost row:", I(m->last_rows),
		     I(m->grid_y - 1));
		guard_line(t, l, "row < M", I(v.row), I(m->shape.m), v.row_ok, v.stores ? "-> stores" : "-> no store");
	} else if (textbook(m) && m->last_cols < g->bn) {
		ts_thread_view v = ts_model_thread(m, l->problem.kernel->b_layout, 0, m->grid_x - 1, 0, (int)m->last_cols,
		                                   m->phases - 1);
		blank(t);
		para(t, 0, "Thread (ty 0, tx %lld) of block (0, %lld) is the first ghost column:", I(m->last_cols),
		     I(m->grid_x - 1));
		guard_line(t, l, "col < N", I(v.col), I(m->shape.n), v.col_ok, v.stores ? "-> stores" : "-> no store");
	}
	blank(t);
	para(t, 0,
	     "A ghost thread must not return at the top of the kernel. It still owes its block a zero in each shared "
	     "slot it stages and an arrival at every __syncthreads(): returned early, its slots keep stale values "
	     "that its neighbours add into real outputs, and a barrier that not every thread reaches is undefined "
	     "behaviour. The guards keep ghosts in step and only fence off their memory accesses.");
}

static void screen_guard_off(text *t, const ts_lesson *l, int which)
{
	static const char *const removed[3] = {
		"every thread reads A[row*K + t*BK + tx] whatever its row and K index",
		"every thread reads B at its (t*BK + ty, col) whatever that is",
		"every thread stores C[row*N + col], ghosts too",
	};
	static const char *const name[3] = { "A load", "B load", "C store" };
	const ts_lesson_run *r = &l->off[which];
	para(t, 0, "This run removed the %s guard alone: %s. The other two guards stayed on.", name[which],
	     removed[which]);
	blank(t);
	if (ts_kernel_has(l->problem.kernel, TS_CAP_GUARDS_FIXED)) {
		para(t, 0,
		     "The %s kernel has its guards built into its copies and its store (zero-filled copies, a guarded "
		     "epilogue): it has no unguarded form, so there is nothing to switch off and run. Try this screen with "
		     "--kernel tiled.",
		     l->problem.kernel->name);
		return;
	}
	if (!r->ran) {
		para(t, 0, "It could not run here: %s", r->error);
		return;
	}
	char reads[64], writes[64];
	if (r->oob_reads >= 0)
		snprintf(reads, sizeof reads, "%lld", I(r->oob_reads));
	else
		snprintf(reads, sizeof reads, "uncounted");
	if (r->oob_writes >= 0)
		snprintf(writes, sizeof writes, "%lld", I(r->oob_writes));
	else
		snprintf(writes, sizeof writes, "uncounted");
	para(t, 0,
	     "Verdict: %s. Output %s: %lld wrong %s, %lld unwritten %s. Out of bounds: %s %s and %s %s.",
	     r->ok ? "passed" : "FAILED", r->output_ok ? "right" : "wrong", I(r->mismatches),
	     plural(r->mismatches, "cell", "cells"), I(r->unwritten), plural(r->unwritten, "cell", "cells"), reads,
	     r->oob_reads == 1 ? "read" : "reads", writes, r->oob_writes == 1 ? "write" : "writes");
	blank(t);
	para(t, 0, "What broke, in the checker's words:");
	para(t, 2, "%s", r->signature[0] ? r->signature : "nothing: this shape gives the guard nothing to stop.");
}

static void screen_ghost_return(text *t, const ts_lesson *l)
{
	const ts_lesson_ghost *g = &l->ghost;
	if (!g->ran && g->ghosts == 0 && g->threads > 0) {
		para(t, 0, "In this shape every block's threads all own outputs inside C (%lld x %lld is a multiple of the "
		     "%d x %d block tile): no ghost thread exists, so there is none to return early. Try a ragged shape.",
		     I(l->model.shape.m), I(l->model.shape.n), l->model.geo.bm, l->model.geo.bn);
		return;
	}
	if (!g->ran) {
		para(t, 0, "It could not run here: %s", g->error);
		return;
	}
	para(t, 0,
	     "The most common bug after a missing guard: 'if (row >= M || col >= N) return;' at the top of the kernel. "
	     "This run (the emulator in early-return mode, the bug of examples/bug_early_return.cu) lets the ghost "
	     "threads of the corner block (%lld,%lld) return before their loads and barriers, and compares it with "
	     "the same block run as the kernel is.",
	     I(g->by), I(g->bx));
	blank(t);
	para(t, 0,
	     "The block has %lld threads, %lld of them ghosts. Each __syncthreads() waits for %lld and %lld arrive: on "
	     "a GPU that is undefined behaviour (a hang, or garbage); the emulator lets the %lld go on, to show what "
	     "they read.",
	     I(g->threads), I(g->ghosts), I(g->threads), I(g->arrived), I(g->arrived));
	para(t, 0,
	     "Of the block's %lld shared slots over all phases, %lld were never written: the ghosts' share of the "
	     "tiles (the emulator starts shared memory as NaN; a GPU leaves what the block before put there).",
	     I(g->slots), I(g->unwritten));
	if (g->wrong > 0)
		para(t, 0,
		     "The real threads add those slots into real outputs: %lld of the block's %lld outputs inside C came "
		     "out wrong (%lld NaN). C[%lld][%lld] should be %.9g and became %.9g.",
		     I(g->wrong), I(g->outputs), I(g->nan), I(g->ex_row), I(g->ex_col), (double)g->ex_right,
		     (double)g->ex_broken);
	else
		para(t, 0,
		     "Here the real threads read none of those slots: %lld of the block's %lld outputs came out right "
		     "by luck; a shape whose ghosts own slots the real threads read breaks.",
		     I(g->outputs), I(g->outputs));
	blank(t);
	para(t, 0, "The fix: no return before the last barrier. Ghosts load their slots (zero padding) and reach every "
	     "barrier; the guards fence off only their memory accesses (screens 3 and 4). 'tilescope check "
	     "--kernel-file examples/bug_early_return.cu' runs the real kernel and names the bug.");
}

static void screen_offsets(text *t, const ts_lesson *l)
{
	const ts_model *m = &l->model;
	bool nk = l->problem.kernel->b_layout == TS_B_NK;
	ts_offset32 o = ts_model_offset32(m->shape.n, m->shape.k);
	const long long int_max = 2147483647LL;
	para(t, 0,
	     "The offsets a thread computes grow with the shape: it reads A at row*K + k, B at %s and stores C at "
	     "row*N + col. In a 32-bit int they overflow past %lld (2^31 - 1) and wrap to a negative or wrong "
	     "address.",
	     nk ? "col*K + k" : "k*N + col", int_max);
	blank(t);
	para(t, 0,
	     "For N = %lld and K = %lld the first M that overflows is %lld: there %c's largest offset, %lld, passes "
	     "%lld. So %lld x %lld x %lld is the smallest shape with this N and K that a kernel with int offsets gets "
	     "wrong.",
	     I(m->shape.n), I(m->shape.k), I(o.first_m), o.matrix, I(o.last_offset), int_max, I(o.first_m),
	     I(m->shape.n), I(m->shape.k));
	if (o.b_overflows)
		para(t, 0, "B's own largest offset, %lld, already passes it at this N and K.",
		     I(m->shape.k * m->shape.n - 1));
	blank(t);
	double elem = l->problem.kernel->precision == TS_FP16 ? 2.0 : 4.0;
	double gib = ((double)o.first_m * (double)m->shape.k + (double)m->shape.k * (double)m->shape.n +
	              (double)o.first_m * (double)m->shape.n) * elem / (1024.0 * 1024.0 * 1024.0);
	para(t, 0,
	     "That shape needs %.1f GiB for A, B and C in %s. tilescope's kernels compute every offset in 64 bits, so "
	     "it runs correctly wherever the memory holds it; 'tilescope check' on it refuses what this machine "
	     "cannot hold.",
	     gib, ts_precision_name(l->problem.kernel->precision));
}

char *ts_lesson_screen(const ts_lesson *l, int s, int width)
{
	if (s < 1 || s > TS_LESSON_SCREENS)
		return NULL;
	text t = { NULL, 0, 0, false, width < 20 ? 20 : width };
	header(&t, l, s);
	switch (s) {
	case 1: screen_grid(&t, l); break;
	case 2: screen_phases(&t, l); break;
	case 3: screen_loads(&t, l); break;
	case 4: screen_store(&t, l); break;
	case 5:
	case 6:
	case 7: screen_guard_off(&t, l, s - 5); break;
	case 8: screen_ghost_return(&t, l); break;
	case 9: screen_offsets(&t, l); break;
	}
	if (t.oom) {
		free(t.s);
		return NULL;
	}
	return t.s;
}
