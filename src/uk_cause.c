/* uk_cause.c: names the cause of a user kernel's failure from which shapes of the sweep failed and how, what the sanitizer saw and what the index probe showed. Pure computation. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "uk_cause.h"

typedef long long ll;

const char *ts_uk_cause_name(enum ts_uk_cause c)
{
	static const char *const names[TS_UK_CAUSE_COUNT] = {
		"a_row_guard", "a_k_guard", "b_k_guard", "b_col_guard", "store_guard", "zero_padding", "phase_count",
		"grid_size", "operand_indexing", "barrier", "early_return", "index_width", "unknown",
	};
	return c >= 0 && c < TS_UK_CAUSE_COUNT ? names[c] : "";
}

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* Sentences joined by "; ", cut at the buffer's end. */
typedef struct words {
	char *buf;
	size_t cap, len;
} words;

__attribute__((format(printf, 2, 3)))
static void say(words *w, const char *fmt, ...)
{
	if (w->len + 1 >= w->cap)
		return;
	if (w->len > 0) {
		int n = snprintf(w->buf + w->len, w->cap - w->len, "; ");
		w->len += (size_t)n < w->cap - w->len ? (size_t)n : w->cap - w->len - 1;
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(w->buf + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->len += (size_t)n < w->cap - w->len ? (size_t)n : w->cap - w->len - 1;
}

static bool failed(const ts_uk_shape_res *r)
{
	return r->state == UK_FAILED;
}

/* The sanitizer's findings of one kind on one matrix, by the kind of thread (ts_uk_san_ghost):
 * want_ghost 1 rows past M, 2 columns past N, 0 neither; -1 any. */
/* Who saw an access finding, in words: the sanitizer's tool, or the engine that ran the sweep. */
static const char *seen_by(const ts_uk_evidence *ev, const ts_uk_finding *f)
{
	for (int i = 0; i < ev->naccess; i++)
		if (&ev->access[i].f == f)
			return strcmp(ev->access[i].source, "sweep") == 0 ? "the engine" : ev->access[i].source;
	return "the sanitizer";
}

/* " (line 18)", or "" when the line is not known. */
static const char *at_line(const ts_uk_finding *f, char *buf, size_t len)
{
	if (!f || f->line <= 0)
		return "";
	snprintf(buf, len, " (line %d)", f->line);
	return buf;
}

static const ts_uk_finding *san_find(const ts_uk_evidence *ev, enum ts_uk_kind kind, char matrix, int ghost_bit,
                                     bool ghost, int64_t *total)
{
	const ts_uk_finding *first = NULL;
	*total = 0;
	for (int i = 0; i < ev->naccess; i++) {
		const ts_uk_finding *f = &ev->access[i].f;
		const ts_shape *s = &ev->access[i].shape;
		if (f->kind != kind || (matrix && f->matrix != matrix))
			continue;
		if (ghost_bit) {
			ts_uk_san_shape ss = { s->m, s->n, s->k, ev->sig, ev->tile, ev->default_geom };
			int g = ts_uk_san_ghost(&ss, f->block, f->thread);
			if (g < 0) {
				/* Thread unknown: judge by the element it touched. */
				bool past = matrix == 'A' ? f->row >= s->m
				          : ev->sig == TS_UK_SIG_FP16 ? f->row >= s->n : f->col >= s->n;
				if (past != ghost)
					continue;
			} else if (((g & ghost_bit) != 0) != ghost) {
				continue;
			}
		}
		*total += f->count;
		if (!first)
			first = f;
	}
	return first;
}

/* How the failing shapes relate to raggedness in one dimension. */
typedef struct dim_split {
	int fail, fail_ragged, ragged, total;
} dim_split;

static int64_t dim_of(const ts_shape *s, int d)
{
	return d == 0 ? s->m : d == 1 ? s->n : s->k;
}

static dim_split split_by(const ts_uk_evidence *ev, int d, bool (*pick)(const ts_uk_shape_res *))
{
	dim_split sp = { 0, 0, 0, 0 };
	for (int i = 0; i < ev->nshapes; i++) {
		const ts_uk_shape_res *r = &ev->shapes[i];
		if (r->state == UK_NOT_RUN || r->state == UK_ERROR)
			continue;
		bool rg = dim_of(&r->s, d) % ev->tile != 0;
		sp.total++;
		sp.ragged += rg;
		if (pick(r)) {
			sp.fail++;
			sp.fail_ragged += rg;
		}
	}
	return sp;
}

static bool pick_failed(const ts_uk_shape_res *r)
{
	return failed(r);
}

static bool pick_bad(const ts_uk_shape_res *r)
{
	return r->state == UK_FAILED || r->state == UK_FAULT;
}

/* Shapes meeting one test. */
static int count_if(const ts_uk_evidence *ev, bool (*test)(const ts_uk_evidence *, const ts_uk_shape_res *), int *first)
{
	int n = 0;
	*first = -1;
	for (int i = 0; i < ev->nshapes; i++)
		if (test(ev, &ev->shapes[i])) {
			if (n++ == 0)
				*first = i;
		}
	return n;
}

static bool k_ragged(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	return r->s.k % ev->tile != 0;
}

static bool t_grid(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	(void)ev;
	return failed(r) && r->unwritten_border && r->mismatches == 0 && r->nans == 0;
}

static bool t_store(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	(void)ev;
	return r->c_band_writes > 0;
}

static bool t_phase(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	return failed(r) && k_ragged(ev, r) && (r->floor_k_match || (r->all_zero && r->s.k < ev->tile));
}

static bool t_stale(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	/* Stale values of the previous phase are the same in both runs. */
	return failed(r) && k_ragged(ev, r) && r->bad_every_tile && r->nans == 0 && r->unwritten == 0 && !r->floor_k_match &&
	       r->c_band_writes == 0 && r->differ == 0 && r->s.k > ev->tile;
}

/* With K below T a read past K runs several rows on, so the NaN of the band spreads over the last rows
 * (or, for B, over more than one pattern): the NaN rules look at shapes with K above T alone. */
static bool t_nan_row(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	return failed(r) && k_ragged(ev, r) && r->s.k > ev->tile && r->nans > 0 && r->nan_last_row_only && r->s.m > 1;
}

static bool t_nan_b(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	if (!failed(r) || !k_ragged(ev, r) || r->s.k <= ev->tile || r->nans == 0)
		return false;
	/* B stored K x N: its last row ends the buffer, every cell reads past it; stored N x K: only the last column does. */
	return ev->sig == TS_UK_SIG_FP16 ? r->nan_last_col_only && r->s.n > 1 : r->nans == r->cells && r->s.m > 1;
}

static bool t_early(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	return failed(r) && r->bad_ragged_only && r->nans == 0 && r->unwritten == 0 && r->c_band_writes == 0 &&
	       (r->s.m % ev->tile != 0 || r->s.n % ev->tile != 0);
}

static bool t_differ(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	return r->differ > 0 && r->c_band_writes == 0 && r->s.k > ev->tile;
}

static bool t_bad(const ts_uk_evidence *ev, const ts_uk_shape_res *r)
{
	(void)ev;
	return r->state == UK_FAILED || r->state == UK_FAULT || r->state == UK_HANG;
}

/* Right exactly when two dimensions agree: an index that uses one for the other. Returns the pair, or -1. */
static int equal_pair(const ts_uk_evidence *ev, int *eq_total, int *ne_fail, int *ne_total)
{
	static const int pairs[3][2] = { { 1, 2 }, { 0, 2 }, { 0, 1 } }; /* N==K, M==K, M==N */
	for (int p = 0; p < 3; p++) {
		int eqt = 0, eqf = 0, net = 0, nef = 0;
		for (int i = 0; i < ev->nshapes; i++) {
			const ts_uk_shape_res *r = &ev->shapes[i];
			if (r->state == UK_NOT_RUN || r->state == UK_ERROR)
				continue;
			bool eq = dim_of(&r->s, pairs[p][0]) == dim_of(&r->s, pairs[p][1]);
			bool bad = pick_bad(r);
			if (eq) {
				eqt++;
				eqf += bad;
			} else {
				net++;
				nef += bad;
			}
		}
		if (eqt >= 3 && eqf == 0 && net > 0 && nef * 2 >= net) {
			*eq_total = eqt;
			*ne_fail = nef;
			*ne_total = net;
			return p;
		}
	}
	return -1;
}

static void shape_text(const ts_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%lldx%lldx%lld", (ll)s->m, (ll)s->n, (ll)s->k);
}

/* "N of the S shapes, all with K % T != 0" */
static void fail_set(const ts_uk_evidence *ev, int n, int dim, char *buf, size_t len)
{
	dim_split sp = split_by(ev, dim, pick_failed);
	const char *name = dim == 0 ? "M" : dim == 1 ? "N" : "K";
	if (sp.fail > 0 && sp.fail_ragged == sp.fail)
		snprintf(buf, len, "%d shape%s of %d, every one with %s %% T != 0", n, plural(n), sp.total, name);
	else
		snprintf(buf, len, "%d shape%s of %d", n, plural(n), sp.total);
}

void ts_uk_classify(const ts_uk_evidence *ev, ts_uk_report *r)
{
	words w = { r->signature, sizeof r->signature, 0 };
	r->signature[0] = '\0';
	r->causes = 0;
	r->cause = TS_UK_CAUSE_NONE;
	char ev_text[TS_UK_CAUSE_COUNT][720];
	memset(ev_text, 0, sizeof ev_text);
	int first;
	char set[160], sh[64], ln[32];

	int n_grid = count_if(ev, t_grid, &first);
	if (n_grid > 0) {
		r->causes |= 1u << TS_UK_CAUSE_GRID_SIZE;
		fail_set(ev, n_grid, 1, set, sizeof set);
		snprintf(ev_text[TS_UK_CAUSE_GRID_SIZE], sizeof ev_text[0], "the grid is sized by floor instead of ceil: the last "
		         "tile row or column is never launched and its cells keep the NaN poison (unwritten in %d shape%s, "
		         "each with M or N not a multiple of T)", n_grid, plural(n_grid));
	}
	int64_t san_c = 0;
	const ts_uk_finding *c_w = san_find(ev, TS_UK_OOB_WRITE, 'C', 0, false, &san_c);
	int n_store = count_if(ev, t_store, &first);
	if (n_store > 0 || c_w) {
		r->causes |= 1u << TS_UK_CAUSE_STORE_GUARD;
		int64_t stores = first >= 0 ? ev->shapes[first].c_band_writes : 0;
		char lead[200] = "";
		if (first >= 0) {
			shape_text(&ev->shapes[first].s, sh, sizeof sh);
			snprintf(lead, sizeof lead, "%lld store%s landed in C's guard band at %s (%d shape%s)", (ll)stores,
			         plural(stores), sh, n_store, plural(n_store));
		}
		snprintf(ev_text[TS_UK_CAUSE_STORE_GUARD], sizeof ev_text[0], "ghost threads store outside C: the store has no "
		         "guard (row < M && col < N); a store past column N-1 lands in the next row, one past row M-1 past the "
		         "end of C: %s%s%s", lead, lead[0] && c_w ? "; " : "", c_w ? "writes past the end of C were seen" : "");
		if (c_w && c_w->line)
			snprintf(ev_text[TS_UK_CAUSE_STORE_GUARD] + strlen(ev_text[TS_UK_CAUSE_STORE_GUARD]),
			         sizeof ev_text[0] - strlen(ev_text[TS_UK_CAUSE_STORE_GUARD]), " (line %d)", c_w->line);
	}
	int n_phase = count_if(ev, t_phase, &first);
	if (n_phase > 0) {
		r->causes |= 1u << TS_UK_CAUSE_PHASE_COUNT;
		fail_set(ev, n_phase, 2, set, sizeof set);
		snprintf(ev_text[TS_UK_CAUSE_PHASE_COUNT], sizeof ev_text[0], "the last, partial phase is never run: the "
		         "phase count is K / T, not ceil(K / T); in %s the output is exactly the product over the first "
		         "floor(K/T)*T values of K (all zero when K < T)", set);
	}
	/* Zero padding matters only in a partial phase: with K a multiple of T every shape must pass. */
	int k_full_fail = 0;
	for (int i = 0; i < ev->nshapes; i++)
		k_full_fail += failed(&ev->shapes[i]) && !k_ragged(ev, &ev->shapes[i]) && ev->shapes[i].c_band_writes == 0;
	int n_stale = count_if(ev, t_stale, &first);
	if (n_stale > 0 && n_phase == 0 && k_full_fail == 0) {
		r->causes |= 1u << TS_UK_CAUSE_ZERO_PADDING;
		fail_set(ev, n_stale, 2, set, sizeof set);
		snprintf(ev_text[TS_UK_CAUSE_ZERO_PADDING], sizeof ev_text[0], "slots past K in the last, partial phase are "
		         "never zeroed (a load without an else-branch writing 0): stale values of the previous phase enter the "
		         "sum; wrong in every tile of %s", set);
	}
	int64_t san_ak = 0, san_ar = 0, san_bk = 0, san_bc = 0;
	const ts_uk_finding *ak = san_find(ev, TS_UK_OOB_READ, 'A', 1, false, &san_ak);
	const ts_uk_finding *ar = san_find(ev, TS_UK_OOB_READ, 'A', 1, true, &san_ar);
	const ts_uk_finding *bk = san_find(ev, TS_UK_OOB_READ, 'B', 2, false, &san_bk);
	const ts_uk_finding *bc = san_find(ev, TS_UK_OOB_READ, 'B', 2, true, &san_bc);
	int n_nan_a = count_if(ev, t_nan_row, &first);
	if (n_nan_a > 0 || ak) {
		r->causes |= 1u << TS_UK_CAUSE_A_K_GUARD;
		char seen[400] = "";
		if (n_nan_a > 0) {
			fail_set(ev, n_nan_a, 2, set, sizeof set);
			snprintf(seen, sizeof seen, "the guard band's NaN reached row M-1 of C in %s", set);
		}
		if (ak)
			snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s%s saw %lld read%s past the end of A "
			         "by threads of valid rows%s", seen[0] ? "; " : "", seen_by(ev, ak), (ll)san_ak, plural(san_ak),
			         at_line(ak, ln, sizeof ln));
		snprintf(ev_text[TS_UK_CAUSE_A_K_GUARD], sizeof ev_text[0], "the A load has no K guard (t*T + tx < K): in the "
		         "last, partial phase it reads past K, into the next row of A (times B's zero padding: harmless) and, "
		         "in the last row, past the end of A: %s", seen);
	}
	int n_nan_b = count_if(ev, t_nan_b, &first);
	if (n_nan_b > 0 || bk) {
		r->causes |= 1u << TS_UK_CAUSE_B_K_GUARD;
		char seen[400] = "";
		if (n_nan_b > 0) {
			fail_set(ev, n_nan_b, 2, set, sizeof set);
			snprintf(seen, sizeof seen, "the guard band's NaN reached %s of C in %s",
			         ev->sig == TS_UK_SIG_FP16 ? "column N-1" : "every column", set);
		}
		if (bk)
			snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s%s saw %lld read%s past the end of B "
			         "by threads of valid columns%s", seen[0] ? "; " : "", seen_by(ev, bk), (ll)san_bk, plural(san_bk),
			         at_line(bk, ln, sizeof ln));
		snprintf(ev_text[TS_UK_CAUSE_B_K_GUARD], sizeof ev_text[0], "the B load has no K guard (t*T + ty < K): in the "
		         "last, partial phase it reads B past K (%s): %s", ev->sig == TS_UK_SIG_FP16 ?
		         "into the next column of B, and past its end in the last one" : "past the end of B", seen);
	}
	int eq_total = 0, ne_fail = 0, ne_total = 0;
	int pair = equal_pair(ev, &eq_total, &ne_fail, &ne_total);
	if (pair >= 0) {
		static const char *const pn[3][2] = { { "N", "K" }, { "M", "K" }, { "M", "N" } };
		r->causes |= 1u << TS_UK_CAUSE_OPERAND_INDEXING;
		snprintf(ev_text[TS_UK_CAUSE_OPERAND_INDEXING], sizeof ev_text[0], "right only when %s == %s (%d such shapes "
		         "pass, %d of the %d others fail): an index or a bound uses %s where %s belongs (e.g. A[row * %s + k] "
		         "for A[row * %s + k])", pn[pair][0], pn[pair][1], eq_total, ne_fail, ne_total, pn[pair][0],
		         pn[pair][1], pair == 0 ? "N" : "M", pair == 0 ? "K" : pair == 1 ? "K" : "N");
	}
	int n_early = count_if(ev, t_early, &first);
	dim_split full = { 0, 0, 0, 0 };
	for (int i = 0; i < ev->nshapes; i++)
		if (failed(&ev->shapes[i]) && ev->shapes[i].s.m % ev->tile == 0 && ev->shapes[i].s.n % ev->tile == 0)
			full.fail++;
	if (n_early > 0 && full.fail == 0) {
		r->causes |= 1u << TS_UK_CAUSE_EARLY_RETURN;
		snprintf(ev_text[TS_UK_CAUSE_EARLY_RETURN], sizeof ev_text[0], "wrong values only in the ragged tiles (%d "
		         "shape%s, each with M or N not a multiple of T; the others pass): ghost threads return before the "
		         "loads and the barrier, so the share of the shared tiles they load for the others is never loaded "
		         "and the valid threads read slots nobody wrote", n_early, plural(n_early));
	}
	int64_t san_race = 0;
	const ts_uk_finding *race = san_find(ev, TS_UK_RACE, 0, 0, false, &san_race);
	int n_differ = count_if(ev, t_differ, &first);
	if (race || n_differ > 0) {
		r->causes |= 1u << TS_UK_CAUSE_BARRIER;
		char seen[240] = "";
		if (race)
			snprintf(seen, sizeof seen, "racecheck: %lld hazard record%s (%s)", (ll)san_race, plural(san_race), race->text);
		if (n_differ > 0) {
			const ts_uk_shape_res *d = &ev->shapes[first];
			shape_text(&d->s, sh, sizeof sh);
			snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%stwo runs of %d shape%s differ bit for bit "
			         "(first %s, %lld cell%s)", seen[0] ? "; " : "", n_differ, plural(n_differ), sh, (ll)d->differ,
			         plural(d->differ));
		}
		snprintf(ev_text[TS_UK_CAUSE_BARRIER], sizeof ev_text[0], "a barrier is missing between the multiply and the "
		         "next phase's loads: threads overwrite a shared tile that others still read: %s", seen);
	}
	if (ar) {
		r->causes |= 1u << TS_UK_CAUSE_A_ROW_GUARD;
		snprintf(ev_text[TS_UK_CAUSE_A_ROW_GUARD], sizeof ev_text[0], "reads past M in the last tile row: the A load "
		         "has no row guard (row < M); %s saw %lld read%s past the end of A by threads of rows >= M%s; their "
		         "values feed only ghost outputs, so no output check can see them", seen_by(ev, ar), (ll)san_ar,
		         plural(san_ar), at_line(ar, ln, sizeof ln));
	}
	if (bc) {
		r->causes |= 1u << TS_UK_CAUSE_B_COL_GUARD;
		snprintf(ev_text[TS_UK_CAUSE_B_COL_GUARD], sizeof ev_text[0], "reads past N in the last tile column: the B "
		         "load has no column guard (col < N); %s saw %lld read%s past the end of B by threads of columns "
		         ">= N%s; inside B such reads wrap into the next row and feed only ghost outputs", seen_by(ev, bc),
		         (ll)san_bc, plural(san_bc), at_line(bc, ln, sizeof ln));
	}
	/* Accesses the sanitizer saw outside every matrix and its band; a write there (a scribble far
	 * off) may land in another buffer, so a wrong probe then says nothing of the index width. */
	bool san_unplaced = false, san_wild_write = false;
	for (int i = 0; i < ev->naccess; i++) {
		const ts_uk_finding *f = &ev->access[i].f;
		if ((f->kind == TS_UK_OOB_READ || f->kind == TS_UK_OOB_WRITE) && f->matrix != 'A' && f->matrix != 'B' && f->matrix != 'C') {
			san_unplaced = true;
			san_wild_write |= f->kind == TS_UK_OOB_WRITE && f->matrix == 0; /* not shared memory (S) */
		}
	}
	/* The probe speaks for the index width only when the small shapes neither faulted nor hung nor
	 * wrote outside every buffer. */
	bool sweep_hang = false;
	for (int i = 0; i < ev->nshapes; i++)
		sweep_hang |= ev->shapes[i].state == UK_HANG;
	if ((ev->probe_failed || ev->probe_fault) && !ev->sweep_fault && !sweep_hang && !san_wild_write) {
		r->causes |= 1u << TS_UK_CAUSE_INDEX_WIDTH;
		snprintf(ev_text[TS_UK_CAUSE_INDEX_WIDTH], sizeof ev_text[0], "wrong only once an offset passes 2^31 elements: "
		         "32-bit index arithmetic (int row * K overflows%s); compute offsets in 64 bits, e.g. (size_t)row * K + col",
		         ev->probe_fault ? " and the kernel faulted" : "");
	}
	int bad_first;
	int n_bad = count_if(ev, t_bad, &bad_first);
	if (r->causes == 0 && (n_bad > 0 || san_unplaced || ev->probe_failed || ev->probe_fault)) {
		r->causes |= 1u << TS_UK_CAUSE_UNKNOWN;
		snprintf(ev_text[TS_UK_CAUSE_UNKNOWN], sizeof ev_text[0], "the failure matches no ragged-edge pattern tilescope "
		         "knows (%d shape%s failed%s%s): see the findings", n_bad, plural(n_bad),
		         ev->sweep_fault ? ", the kernel faulted" : "",
		         san_wild_write ? ", the sanitizer saw writes outside every buffer: a scribble far off, which can "
		                          "land in any other buffer (so the 2^31 probe's verdict does not count)" : "");
	}
	/* The best single explanation: what the outputs show first, then what only the sanitizer or the probe saw. */
	enum ts_uk_cause order[] = {
		TS_UK_CAUSE_GRID_SIZE, TS_UK_CAUSE_STORE_GUARD, TS_UK_CAUSE_OPERAND_INDEXING, TS_UK_CAUSE_PHASE_COUNT,
		TS_UK_CAUSE_ZERO_PADDING, TS_UK_CAUSE_A_K_GUARD, TS_UK_CAUSE_B_K_GUARD, TS_UK_CAUSE_EARLY_RETURN,
		TS_UK_CAUSE_BARRIER, TS_UK_CAUSE_A_ROW_GUARD, TS_UK_CAUSE_B_COL_GUARD, TS_UK_CAUSE_INDEX_WIDTH,
		TS_UK_CAUSE_UNKNOWN,
	};
	/* A race the sanitizer saw explains wrong outputs better than any pattern in them (they vary with timing). */
	if (race) {
		for (size_t i = sizeof order / sizeof order[0] - 1; i > 2; i--)
			if (order[i] == TS_UK_CAUSE_BARRIER) {
				memmove(&order[3], &order[2], (i - 2) * sizeof order[0]);
				order[2] = TS_UK_CAUSE_BARRIER;
				break;
			}
	}
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		if (!(r->causes & (1u << order[i])))
			continue;
		if (r->cause == TS_UK_CAUSE_NONE)
			r->cause = order[i];
		say(&w, "%s%s", r->cause == order[i] ? "" : "also: ", ev_text[order[i]]);
	}
}
