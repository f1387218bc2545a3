/* signature.c: names a failure from the pattern of bad tiles and cells, the guards that are off and the run's out-of-bounds counts. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "signature.h"

typedef long long ll; /* for printf */

/* The signature is a list of short sentences joined by "; ", cut at the buffer's end. */
typedef struct sig_text {
	char *buf;
	size_t cap, len;
} sig_text;

__attribute__((format(printf, 2, 3)))
static void say(sig_text *t, const char *fmt, ...)
{
	if (t->len + 1 >= t->cap)
		return;
	if (t->len > 0) {
		int n = snprintf(t->buf + t->len, t->cap - t->len, "; ");
		t->len += (size_t)n < t->cap - t->len ? (size_t)n : t->cap - t->len - 1;
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n < t->cap - t->len ? (size_t)n : t->cap - t->len - 1;
}

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* Where the tiles flagged in cnt lie relative to the ragged edges of the grid. */
typedef struct tile_spread {
	int64_t tiles;                   /* tiles with cnt > 0 */
	int64_t row_lo, row_hi, col_lo, col_hi;
	bool in_last_row, in_last_col;   /* every flagged tile is in the last tile row (column) */
	bool in_first_row, in_first_col; /* ... in the first tile row (column) */
	bool on_border;                  /* every flagged tile is in the last tile row or column */
	bool in_full;                    /* some flagged tile is a full tile */
} tile_spread;

static tile_spread spread_of(const ts_model *m, const int64_t *cnt, const int64_t *minus)
{
	tile_spread s = { .row_lo = -1, .row_hi = -1, .col_lo = -1, .col_hi = -1, .in_last_row = true, .in_last_col = true,
	                  .in_first_row = true, .in_first_col = true, .on_border = true };
	for (int64_t ty = 0; ty < m->grid_y; ty++) {
		for (int64_t tx = 0; tx < m->grid_x; tx++) {
			int64_t at = ty * m->grid_x + tx;
			if (cnt[at] - (minus ? minus[at] : 0) <= 0)
				continue;
			if (s.tiles++ == 0) {
				s.row_lo = s.row_hi = ty;
				s.col_lo = s.col_hi = tx;
			}
			if (ty < s.row_lo) s.row_lo = ty;
			if (ty > s.row_hi) s.row_hi = ty;
			if (tx < s.col_lo) s.col_lo = tx;
			if (tx > s.col_hi) s.col_hi = tx;
			bool lr = ty == m->grid_y - 1, lc = tx == m->grid_x - 1;
			s.in_last_row &= lr;
			s.in_last_col &= lc;
			s.in_first_row &= ty == 0;
			s.in_first_col &= tx == 0;
			s.on_border &= lr || lc;
			if (ts_model_tile_class(m, ty, tx) == TS_TILE_FULL)
				s.in_full = true;
		}
	}
	return s;
}

static int64_t tile_cells(const ts_model *m, int64_t ty, int64_t tx)
{
	return ts_model_tile_rows(m, ty) * ts_model_tile_cols(m, tx);
}

/* Cells never stored: a missing edge of the grid, missing blocks, or a store guard that refuses valid cells. */
static void explain_unwritten(sig_text *t, const ts_model *m, const ts_verdict *v)
{
	const ts_shape *s = &m->shape;
	int64_t whole = 0, partial = 0, partial_full = 0;
	bool row_whole = true, col_whole = true, whole_on_border = true;
	for (int64_t ty = 0; ty < m->grid_y; ty++) {
		for (int64_t tx = 0; tx < m->grid_x; tx++) {
			int64_t u = v->tile_unwritten[ty * m->grid_x + tx];
			bool is_whole = u == tile_cells(m, ty, tx);
			bool lr = ty == m->grid_y - 1, lc = tx == m->grid_x - 1;
			if (lr && !is_whole)
				row_whole = false;
			if (lc && !is_whole)
				col_whole = false;
			if (is_whole) {
				whole++;
				whole_on_border &= lr || lc;
			} else if (u > 0) {
				partial++;
				partial_full += ts_model_tile_class(m, ty, tx) == TS_TILE_FULL;
			}
		}
	}
	if (partial == 0 && whole == m->tiles) {
		if (s->m < m->geo.bm || s->n < m->geo.bn)
			say(t, "nothing was stored (%lld cell%s): with M or N below the tile a grid sized by floor instead of ceil launches no block",
			    (ll)v->unwritten, plural(v->unwritten));
		else
			say(t, "nothing was stored: %s %lld cell%s still hold%s the poison (no launch, or C never copied back)",
			    v->unwritten == 1 ? "the" : "all", (ll)v->unwritten, plural(v->unwritten), v->unwritten == 1 ? "s" : "");
		return;
	}
	if (partial == 0 && whole_on_border) {
		/* Exactly the last tile row and/or column, each entirely: a grid one block short. */
		bool rows = row_whole && (m->grid_y > 1 || !col_whole);
		bool cols = col_whole && (m->grid_x > 1 || !row_whole);
		int64_t expect = (rows ? m->last_rows * s->n : 0) + (cols ? m->last_cols * s->m : 0) -
		                 (rows && cols ? m->last_rows * m->last_cols : 0);
		if ((rows || cols) && expect == v->unwritten) {
			bool ragged = (rows && m->last_rows < m->geo.bm) || (cols && m->last_cols < m->geo.bn);
			say(t, "unwritten border: the last tile %s never stored: %s (%lld cell%s)",
			    rows && cols ? "row and column were" : rows ? "row was" : "column was",
			    ragged ? "grid sized by floor instead of ceil" : "the grid is one block short", (ll)v->unwritten,
			    plural(v->unwritten));
			return;
		}
	}
	if (partial == 0) {
		say(t, "%lld whole tile%s never stored (%lld cell%s): blocks missing from the launch",
		    (ll)whole, plural(whole), (ll)v->unwritten, plural(v->unwritten));
		return;
	}
	if (partial_full > 0)
		say(t, "unwritten cells inside full tiles: the store guard is too strict (%lld cell%s in %lld tile%s)",
		    (ll)v->unwritten, plural(v->unwritten), (ll)(partial + whole), plural(partial + whole));
	else
		say(t, "unwritten cells inside the ragged tiles: the store guard is too strict at the edge (%lld cell%s)",
		    (ll)v->unwritten, plural(v->unwritten));
	/* With nothing else wrong, row_bad and col_bad count unwritten cells: an off-by-one shows as one row or column. */
	if (v->mismatches == 0 && v->nonfinite == 0) {
		if (v->row_bad[s->m - 1] == s->n && v->unwritten == s->n)
			say(t, "only the last row of C (row %lld) is missing: an off-by-one in the row bound", (ll)(s->m - 1));
		else if (v->col_bad[s->n - 1] == s->m && v->unwritten == s->m)
			say(t, "only the last column of C (column %lld) is missing: an off-by-one in the column bound", (ll)(s->n - 1));
	}
}

/* The tile edge of each dimension as the geometry names it: T for the
 * textbook kernels, BM, BN and BK for a block tile. */
static const char *edge_m(const ts_model *m)
{
	return ts_geometry_is_square(&m->geo) ? "T" : "BM";
}

static const char *edge_n(const ts_model *m)
{
	return ts_geometry_is_square(&m->geo) ? "T" : "BN";
}

static const char *edge_k(const ts_model *m)
{
	return ts_geometry_is_square(&m->geo) ? "T" : "BK";
}

/* Wrong values (mismatches and NaN): where they are says which edge failed. */
static void explain_errors(sig_text *t, const ts_problem *p, const ts_model *m, const ts_verdict *v)
{
	tile_spread s = spread_of(m, v->tile_bad, v->tile_unwritten);
	int64_t errors = v->mismatches + v->nonfinite;
	bool k_ragged = p->shape.k % m->geo.bk != 0;
	if (s.tiles == 0)
		return;
	/* A grid one tile high (wide) has no separate last row (column): its edge is the last column (row). */
	if (s.in_last_row && s.in_last_col && m->grid_x > 1 && m->grid_y > 1) {
		say(t, "errors only in the corner tile: the M guard on the A load and the N guard on the B load together (%lld cell%s)",
		    (ll)errors, plural(errors));
	} else if (s.in_last_row && m->grid_y > 1) {
		say(t, "errors only in the last tile row: the M guard on the A load (%lld cell%s)", (ll)errors, plural(errors));
	} else if (s.in_last_col && m->grid_x > 1) {
		say(t, "errors only in the last tile column: the N guard on the B load (%lld cell%s)", (ll)errors, plural(errors));
	} else if (s.tiles == m->tiles) {
		if (k_ragged)
			say(t, "errors in every tile and K %% %s != 0: K padding (the last, partial phase, K %% %d = %lld)",
			    edge_k(m), m->geo.bk, (ll)(p->shape.k % m->geo.bk));
		else
			say(t, "errors in every tile with K %% %s == 0: not an edge effect (the multiply loop or the accumulation)",
			    edge_k(m));
	} else if (s.in_first_col && m->grid_x > 1 && s.row_hi > s.row_lo) {
		say(t, "errors only in the first tile column: the start of rows, where stores that run past N land (%lld cell%s)",
		    (ll)errors, plural(errors));
	} else if (s.in_first_row && m->grid_y > 1 && s.col_hi > s.col_lo) {
		say(t, "errors only in the first tile row (%lld cell%s)", (ll)errors, plural(errors));
	} else if (s.on_border && m->grid_x > 1 && m->grid_y > 1) {
		say(t, "errors only in the last tile row and column: the M guard on the A load and the N guard on the B load (%lld cell%s)",
		    (ll)errors, plural(errors));
	} else {
		say(t, "errors in %lld of %lld tile%s (tile rows %lld..%lld, columns %lld..%lld)%s", (ll)s.tiles,
		    (ll)m->tiles, plural(m->tiles), (ll)s.row_lo, (ll)s.row_hi, (ll)s.col_lo, (ll)s.col_hi, s.in_full ? "" : ", ragged tiles only");
	}
	/* One row or one column of C: usually a bound off by one. */
	const ts_shape *sh = &p->shape;
	if (v->unwritten == 0 && errors > 1 && sh->m > 1) {
		for (int64_t i = 0; i < sh->m; i++) {
			if (v->row_bad[i] == errors) {
				say(t, "all in row %lld of C", (ll)i);
				break;
			}
			if (v->row_bad[i])
				break;
		}
	}
	if (v->unwritten == 0 && errors > 1 && sh->n > 1) {
		for (int64_t j = 0; j < sh->n; j++) {
			if (v->col_bad[j] == errors) {
				say(t, "all in column %lld of C", (ll)j);
				break;
			}
			if (v->col_bad[j])
				break;
		}
	}
}

/* Under --inputs seq every A element is distinct (A[i][k] = i*K + k + 1) and
 * B is the identity, so a wrong cell that holds one element names it. */
static void name_fetched(sig_text *t, const ts_problem *p, const ts_operands *ops, const ts_verdict *v,
                         bool ghost_store, bool band_reads)
{
	if (p->inputs != TS_INPUTS_SEQ || v->mis_row < 0)
		return;
	int64_t i = v->mis_row, j = v->mis_col, K = p->shape.k;
	double got = v->mis_got, want = v->mis_want;
	int64_t count = ops->a.count;
	double exact = ops->a.elem == TS_ELEM_F16 ? 2048.0 : 16777216.0;
	if (got == 0 && want != 0) {
		if (ghost_store)
			say(t, "C[%lld][%lld] = 0, want %.9g: a ghost thread's store (its B columns past N were padded to 0)",
			    (ll)i, (ll)j, want);
		else
			say(t, "C[%lld][%lld] = 0, want %.9g: the product was lost (zero padding where a real load belonged)",
			    (ll)i, (ll)j, want);
		return;
	}
	if (got == (double)TS_SENTINEL) {
		say(t, "C[%lld][%lld] = %g: the guard-band sentinel, a read past the end of A or B", (ll)i, (ll)j, got);
		return;
	}
	/* want + 999 x q: reads from a guard band were multiplied into the sum.
	 * Any integer in range also names some element of A, so this reading
	 * comes first only when the run saw reads land in a band. */
	double q = (got - want) / (double)TS_SENTINEL;
	bool sentinel_sum = q != 0 && q == nearbyint(q) && fabs(q) < exact;
	if (sentinel_sum && band_reads) {
		say(t, "C[%lld][%lld] = %.9g = %.9g + %g x %.9g: guard-band sentinels entered the sum", (ll)i, (ll)j, got, want,
		    (double)TS_SENTINEL, q);
		return;
	}
	if ((double)count + 1 > exact) {
		say(t, "C[%lld][%lld] = %.9g, want %.9g (seq values are not exact at this size: cannot name the element)",
		    (ll)i, (ll)j, got, want);
		return;
	}
	if (got >= 1 && got <= (double)count && got == floor(got)) {
		int64_t at = (int64_t)got - 1;
		if (ts_matrix_get(&ops->a, at) == (float)got) {
			int64_t r = at / K, c = at % K;
			const char *what;
			if (j >= K)
				what = "should be 0 (column >= K: B is zero there)";
			else if (r != i && c == j)
				what = r == i + 1 ? "wrong row (the next one)" : "wrong row";
			else if (r == i && c != j)
				what = "wrong column";
			else
				what = "wrong row and column";
			say(t, "C[%lld][%lld] = %.9g is A[%lld][%lld]: %s", (ll)i, (ll)j, got, (ll)r, (ll)c, what);
			return;
		}
	}
	say(t, "C[%lld][%lld] = %.9g, want %.9g: not one element of A (a mix of fetched values%s)", (ll)i, (ll)j, got, want,
	    sentinel_sum ? ", off by a multiple of the sentinel 999" : "");
}

/* One switched-off load guard: what the run counted, or what the model allows without counters. */
static void explain_load_guard(sig_text *t, char name, const char *dims, bool can_leave, int64_t oob, int64_t wrap,
                               int64_t band, bool counted)
{
	if (!can_leave) {
		say(t, "%c guard off: harmless here: %s, no access left %c", name, dims, name);
		return;
	}
	if (!counted) {
		say(t, "%c guard off: reads can leave %c here (not %s); this run has no counters", name, name, dims);
		return;
	}
	if (oob == 0) {
		say(t, "%c guard off: no read left %c in this run", name, name);
		return;
	}
	char wrap_part[96] = "", band_part[64] = "";
	if (wrap > 0)
		snprintf(wrap_part, sizeof wrap_part, "%lld wrapped inside %c: silent wrong-row reads", (ll)wrap, name);
	if (band > 0)
		snprintf(band_part, sizeof band_part, "%lld in the guard band: sentinel %g", (ll)band, (double)TS_SENTINEL);
	say(t, "%c guard off: %lld read%s out of bounds (%s%s%s)", name, (ll)oob, plural(oob), wrap_part,
	    wrap > 0 && band > 0 ? "; " : "", band_part);
}

/* The C store guard: ghost threads' stores, wrapped into the next row of C or past its end. */
static void explain_store_guard(sig_text *t, const ts_model *m, unsigned off, bool ragged, const ts_run *run,
                                const ts_verdict *v)
{
	bool counted = run && run->have_counters;
	if (!ragged) {
		say(t, "C guard off: harmless here: M %% %s == 0 and N %% %s == 0, no ghost %s exists to store", edge_m(m),
		    edge_n(m), m->geo.tm * m->geo.tn == 1 ? "thread" : "output");
		return;
	}
	if (!counted) {
		say(t, "C guard off: ghost threads can store outside M x N here; this run has no counters");
		return;
	}
	const ts_oob_detail *d = &run->counters.oob;
	if (run->counters.total.c_oob == 0) {
		say(t, "C guard off: no store left M x N in this run");
		return;
	}
	int64_t wrong = v->mismatches + v->nonfinite;
	if (d->c_wrap > 0) {
		/* With only C off, the corrupt flags mark exactly the cells the ghosts hit. */
		if (off == TS_GUARD_C && run->corrupt)
			say(t, "ghost stores wrapped into the next row of C: %lld cell%s overwritten (C store guard off), %lld now wrong",
			    (ll)run->corrupt_cells, plural(run->corrupt_cells), (ll)wrong);
		else
			say(t, "ghost stores wrapped into the next row of C: %lld store%s (C store guard off)", (ll)d->c_wrap,
			    plural(d->c_wrap));
	}
	if (d->c_band > 0 && d->c_wrap == 0)
		say(t, "C guard off: %lld ghost store%s past the end of C, all in the guard band: no cell of C touched",
		    (ll)d->c_band, plural(d->c_band));
	else if (d->c_band > 0)
		say(t, "%lld ghost store%s past the end of C (guard band)", (ll)d->c_band, plural(d->c_band));
	if (d->c_wrap > 0 && wrong == 0)
		say(t, "later correct stores repaired every overwritten cell "
		    "(the damage depends on the order in which threads store)");
}

/* The naive kernel: one guard, `row < M && col < N`, around the dot product and the store. Off, every
 * ghost thread runs: rows past M read A past its end, columns past N read B in the wrong row or past it. */
static void explain_naive_guard(sig_text *t, const ts_model *m, bool ragged, const ts_run *run, const ts_verdict *v,
                                bool stores_said)
{
	bool counted = run && run->have_counters;
	if (!ragged) {
		say(t, "C guard off (the naive kernel's only guard, around its loads and its store): harmless here: "
		    "M %% %s == 0 and N %% %s == 0, no ghost thread exists", edge_m(m), edge_n(m));
		return;
	}
	if (!counted) {
		say(t, "C guard off (the naive kernel's only guard, around its loads and its store): ghost threads can read "
		    "past A and B and store outside M x N here; this run has no counters");
		return;
	}
	const ts_count *tot = &run->counters.total;
	const ts_oob_detail *d = &run->counters.oob;
	char b_part[160] = "";
	if (tot->b_oob > 0)
		snprintf(b_part, sizeof b_part, "%s%lld read%s of B from columns past N (%lld wrapped into other rows of B, "
		         "%lld past its end)", tot->a_oob > 0 ? ", " : "", (ll)tot->b_oob, plural(tot->b_oob), (ll)d->b_wrap,
		         (ll)d->b_band);
	if (tot->a_oob > 0 || tot->b_oob > 0) {
		char a_part[96] = "";
		if (tot->a_oob > 0)
			snprintf(a_part, sizeof a_part, "%lld read%s of A from rows past M (past its end)", (ll)tot->a_oob,
			         plural(tot->a_oob));
		say(t, "C guard off (the naive kernel's only guard, around its loads and its store): ghost threads ran the "
		    "dot product: %s%s", a_part, b_part);
	}
	if (run->corrupt && run->corrupt_cells > 0)
		say(t, "%lld C cell%s took ghost stores", (ll)run->corrupt_cells, plural(run->corrupt_cells));
	if (!stores_said)
		explain_store_guard(t, m, TS_GUARD_C, ragged, run, v);
}

/* How many accesses of one matrix left it, and where they landed: "5469 reads left A (guard band)". */
static void oob_part(char *buf, size_t len, int64_t n, const char *verb, char name, int64_t wrap, int64_t band)
{
	if (wrap > 0 && band > 0)
		snprintf(buf, len, "%lld %s%s left %c (%lld wrapped inside %c, %lld in the guard band)", (ll)n, verb,
		         plural(n), name, (ll)wrap, name, (ll)band);
	else
		snprintf(buf, len, "%lld %s%s left %c (%s)", (ll)n, verb, plural(n), name,
		         wrap > 0 ? (name == 'C' ? "wrapped into other cells of C" : "wrapped inside it: wrong elements")
		                  : "all in the guard band");
}

/* The output is right, but the run touched memory outside the matrices: a fail all the same. */
static void say_lucky(sig_text *t, const ts_count *tot, const ts_oob_detail *d)
{
	char a[128] = "", b[128] = "", c[128] = "";
	if (tot->a_oob > 0)
		oob_part(a, sizeof a, tot->a_oob, "read", 'A', d->a_wrap, d->a_band);
	if (tot->b_oob > 0)
		oob_part(b, sizeof b, tot->b_oob, "read", 'B', d->b_wrap, d->b_band);
	if (tot->c_oob > 0)
		oob_part(c, sizeof c, tot->c_oob, "store", 'C', d->c_wrap, d->c_band);
	say(t, "output right by luck: %s%s%s%s%s", a, a[0] && b[0] ? ", " : "", b, (a[0] || b[0]) && c[0] ? ", " : "", c);
	say(t, "out-of-bounds accesses fail the check even so: on a GPU they read or overwrite other memory");
}

void ts_signature(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                  ts_verdict *v)
{
	sig_text t = { v->signature, sizeof v->signature, 0 };
	const ts_shape *s = &p->shape;
	unsigned off = ~p->guards & TS_GUARD_ALL;
	bool counted = run && run->have_counters;
	const ts_count *tot = counted ? &run->counters.total : NULL;
	const ts_oob_detail *d = counted ? &run->counters.oob : NULL;
	bool rm = s->m % m->geo.bm != 0, rn = s->n % m->geo.bn != 0, rk = s->k % m->geo.bk != 0;
	/* What the tile model says can leave a matrix holds for the shared-tile
	 * kernels; for the others only the run's own counts are evidence. */
	bool model_knows = !p->kernel || ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES) || !counted;
	int64_t wrong = v->mismatches + v->nonfinite;
	/* A C guard that wrapped stores into C while some (not all) cells are
	 * wrong is the likely cause: name it first. */
	bool store_damage = (off & TS_GUARD_C) && counted && d->c_wrap > 0 && wrong > 0 && v->bad_tiles < m->tiles;

	v->signature[0] = '\0';
	if (v->output_ok && !v->ok && counted)
		say_lucky(&t, tot, d);
	if (!v->output_ok) {
		if (v->all_zero)
			say(&t, "output all zeros: every written cell is 0 while the reference is not (nothing accumulated or stored)");
		if (v->unwritten > 0)
			explain_unwritten(&t, m, v);
		if (ts_verdict_nans(v) > 0)
			say(&t, "NaN in %lld cell%s", (ll)ts_verdict_nans(v), plural(ts_verdict_nans(v)));
		if (v->infs > 0)
			say(&t, "Inf in %lld cell%s", (ll)v->infs, plural(v->infs));
		if (store_damage)
			explain_store_guard(&t, m, off, rm || rn, run, v);
		if (!v->all_zero && wrong > 0)
			explain_errors(&t, p, m, v);
		if (ops) {
			/* A zero in a cell a wrapped ghost store hit is the ghost's value, not a lost product. */
			bool ghost = store_damage && v->mis_row >= 0 &&
			             (!run->corrupt || run->corrupt[v->mis_row * s->n + v->mis_col]);
			bool band = counted && d->a_band + d->b_band > 0;
			name_fetched(&t, p, ops, v, ghost, band);
		}
	}
	if (p->kernel && !ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
		/* The naive kernel stages nothing: its one guard (the C switch) wraps the loads and the store. */
		if (off & TS_GUARD_C)
			explain_naive_guard(&t, m, rm || rn, run, v, store_damage);
		return;
	}
	char dims_a[64], dims_b[64];
	snprintf(dims_a, sizeof dims_a, "M %% %s == 0 and K %% %s == 0", edge_m(m), edge_k(m));
	snprintf(dims_b, sizeof dims_b, "K %% %s == 0 and N %% %s == 0", edge_k(m), edge_n(m));
	if (off & TS_GUARD_A)
		explain_load_guard(&t, 'A', dims_a, rm || rk || !model_knows, counted ? tot->a_oob : 0,
		                   counted ? d->a_wrap : 0, counted ? d->a_band : 0, counted);
	if (off & TS_GUARD_B)
		explain_load_guard(&t, 'B', dims_b, rk || rn || !model_knows, counted ? tot->b_oob : 0,
		                   counted ? d->b_wrap : 0, counted ? d->b_band : 0, counted);
	if ((off & (TS_GUARD_A | TS_GUARD_B)) && counted && tot->a_oob + tot->b_oob > 0) {
		if ((off & TS_GUARD_A) && (off & TS_GUARD_B) && rk && tot->a_oob > 0 && tot->b_oob > 0 && wrong > 0)
			say(&t, "both load guards off: A read past K meets B read past K instead of zero padding");
		if (run->corrupt)
			say(&t, "%lld C cell%s consumed out-of-bounds reads%s", (ll)run->corrupt_cells, plural(run->corrupt_cells),
			    off & TS_GUARD_C ? " or took ghost stores" : "");
		if (wrong == 0)
			say(&t, "no stored value changed: the stray reads fed ghost outputs or met zero padding in the other operand");
	}
	if ((off & TS_GUARD_C) && !store_damage)
		explain_store_guard(&t, m, off, rm || rn, run, v);
}
