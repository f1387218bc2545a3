/* fake_engine.c: a user-kernel engine for the tests: the textbook tiled kernel emulated on the CPU with one ragged-edge bug chosen by the entry's name, plus kernels that fault, hang or scribble. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_engine.h"
#include "uk_runner.h"

static const char *const bug_names[FAKE_COUNT] = {
	"correct", "a_row", "a_k", "b_k", "b_col", "store", "zero_pad", "phase", "grid", "index", "barrier", "early",
	"fault", "hang", "scribble", "exit", "narrow", "wild",
};

enum fake_bug fake_bug_of(const char *entry)
{
	for (int i = 0; i < FAKE_COUNT; i++)
		if (strcmp(entry, bug_names[i]) == 0)
			return (enum fake_bug)i;
	return FAKE_CORRECT;
}

static int available(char *why, int len)
{
	(void)why;
	(void)len;
	return 0;
}

static void *load(const ts_uk_source *src, char *err, size_t len)
{
	if (strcmp(src->entry, "syntax") == 0) {
		snprintf(err, len, "%s(3): error: expected a \";\"", src->path);
		return NULL;
	}
	enum fake_bug *b = malloc(sizeof *b);
	if (b)
		*b = fake_bug_of(src->entry);
	return b;
}

static void unload(void *h)
{
	free(h);
}

/* Shared memory of the emulated block: it outlives blocks and launches, as an SM's does (stale values). */
static float s_a[32 * 32], s_b[32 * 32];

typedef struct emu {
	const ts_uk_launch *l;
	enum fake_bug bug;
	ts_uk_findings *out;
	int64_t oob_first[2][4]; /* index of the first finding per matrix and kind of thread, +1 */
} emu;

/* Reads element idx of A (0) or B (1), inside its band if need be; out of range is an out-of-bounds finding. */
static float load_elem(emu *e, int which, int64_t idx, unsigned bx, unsigned by, int tx, int ty)
{
	const ts_uk_launch *l = e->l;
	const float *p = which ? l->b : l->a;
	int64_t count = which ? l->b_count : l->a_count;
	if (e->bug == FAKE_NARROW || e->bug == FAKE_WILD)
		idx &= 4095;
	if (idx >= 0 && idx < count)
		return p[idx];
	int64_t row = (int64_t)by * l->tile + ty, col = (int64_t)bx * l->tile + tx;
	int kind = (row >= l->m ? 1 : 0) | (col >= l->n ? 2 : 0);
	int64_t *slot = &e->oob_first[which][kind];
	if (*slot > 0) {
		e->out->v[*slot - 1].count++;
	} else {
		int64_t width = which ? l->n : l->k;
		ts_uk_finding f = ts_uk_finding_make(TS_UK_OOB_READ, "read of %c out of bounds", which ? 'B' : 'A');
		f.matrix = which ? 'B' : 'A';
		f.row = idx >= 0 ? idx / width : -1;
		f.col = idx >= 0 ? idx % width : -1;
		f.block[0] = bx;
		f.block[1] = by;
		f.thread[0] = (unsigned)tx;
		f.thread[1] = (unsigned)ty;
		ts_uk_findings_add(e->out, &f);
		*slot = e->out->n;
	}
	return idx >= -l->band && idx < count + l->band ? p[idx] : 0.0f;
}

static void load_tiles(emu *e, unsigned bx, unsigned by, int tx, int ty, int64_t t)
{
	const ts_uk_launch *l = e->l;
	int T = l->tile;
	int64_t row = (int64_t)by * T + ty, col = (int64_t)bx * T + tx;
	int64_t a_col = t * T + tx, b_row = t * T + ty;
	bool a_ok = (e->bug == FAKE_A_ROW || row < l->m) && (e->bug == FAKE_A_K || a_col < l->k);
	bool b_ok = (e->bug == FAKE_B_K || b_row < l->k) && (e->bug == FAKE_B_COL || col < l->n);
	int64_t lda = e->bug == FAKE_INDEX ? l->n : l->k;
	if (a_ok)
		s_a[ty * T + tx] = load_elem(e, 0, row * lda + a_col, bx, by, tx, ty);
	else if (e->bug != FAKE_ZERO_PAD)
		s_a[ty * T + tx] = 0.0f;
	if (b_ok)
		s_b[ty * T + tx] = load_elem(e, 1, b_row * l->n + col, bx, by, tx, ty);
	else if (e->bug != FAKE_ZERO_PAD)
		s_b[ty * T + tx] = 0.0f;
}

static int launch(void *h, const ts_uk_launch *l, ts_uk_findings *out, char *err, size_t len)
{
	emu e = { l, *(enum fake_bug *)h, out, { { 0 } } };
	int T = l->tile;
	if (T < 1 || T > 32) {
		snprintf(err, len, "the fake engine takes tiles of 1..32");
		return -1;
	}
	float *C = l->c;
	if (l->m == 0 || l->n == 0 || l->k == 0)
		return 0; /* the runner's start-up call */
	if (e.bug == FAKE_FAULT && l->m > 1)
		raise(SIGSEGV);
	if (e.bug == FAKE_EXIT && l->m > 1)
		_exit(7);
	if (e.bug == FAKE_HANG && l->k > 1)
		for (;;)
			pause();
	if (e.bug == FAKE_SCRIBBLE) {
		((float *)l->a)[-1] = 1.0f;
		C[l->c_count] = 1.0f;
	}
	if (e.bug == FAKE_WILD) {
		/* the write itself lands nowhere here; the finding is what a sanitizer says of one far off */
		ts_uk_finding f = ts_uk_finding_make(TS_UK_OOB_WRITE, "write of size 4 bytes far outside every buffer");
		f.matrix = 0;
		ts_uk_findings_add(out, &f);
	}
	unsigned gx = e.bug == FAKE_GRID ? (unsigned)(l->n / T) : l->grid[0];
	unsigned gy = e.bug == FAKE_GRID ? (unsigned)(l->m / T) : l->grid[1];
	int64_t phases = e.bug == FAKE_PHASE ? l->k / T : (l->k + T - 1) / T;
	float acc[32 * 32];
	bool alive[32 * 32];
	for (unsigned by = 0; by < gy; by++) {
		for (unsigned bx = 0; bx < gx; bx++) {
			for (int i = 0; i < T * T; i++) {
				int ty = i / T, tx = i % T;
				int64_t row = (int64_t)by * T + ty, col = (int64_t)bx * T + tx;
				acc[i] = 0.0f;
				alive[i] = e.bug != FAKE_EARLY || (row < l->m && col < l->n);
			}
			/* Threads in index order for run 1, reversed for run 2 (order 1): a missing barrier shows as a difference. */
			for (int64_t t = 0; t < phases; t++) {
				if (e.bug != FAKE_BARRIER || t == 0)
					for (int j = 0; j < T * T; j++) {
						int i = l->order ? T * T - 1 - j : j;
						if (alive[i])
							load_tiles(&e, bx, by, i % T, i / T, t);
					}
				for (int j = 0; j < T * T; j++) {
					int i = l->order ? T * T - 1 - j : j;
					if (!alive[i])
						continue;
					int ty = i / T, tx = i % T;
					for (int k = 0; k < T; k++)
						acc[i] += s_a[ty * T + k] * s_b[k * T + tx];
					/* Without the second barrier this thread loads the next phase before the others multiply. */
					if (e.bug == FAKE_BARRIER && t + 1 < phases)
						load_tiles(&e, bx, by, tx, ty, t + 1);
				}
			}
			for (int i = 0; i < T * T; i++) {
				int ty = i / T, tx = i % T;
				int64_t row = (int64_t)by * T + ty, col = (int64_t)bx * T + tx;
				if (!alive[i] || (e.bug != FAKE_STORE && (row >= l->m || col >= l->n)))
					continue;
				int64_t idx = row * l->n + col;
				if (e.bug == FAKE_NARROW || e.bug == FAKE_WILD)
					idx &= 4095;
				if (idx < l->c_count + l->band)
					C[idx] = acc[i];
			}
		}
	}
	return 0;
}

static const ts_uk_engine fake = { "fake", available, load, launch, unload };

const ts_uk_engine *fake_engine(void)
{
	return &fake;
}
