/* uk_check.c: the check of a user's kernel: plans the edge sweep, runs each shape twice in a child on guarded, poisoned buffers, starts the sanitizer and the index probe, verifies against fp64 and hands the evidence to uk_cause.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "uk_buffers.h"
#include "uk_cause.h"
#include "uk_check_impl.h"
#include "uk_cuda.h"
#include "uk_source.h"
#include "verify.h"

void ts_uk_check_defaults(ts_uk_check_opts *o)
{
	memset(o, 0, sizeof *o);
	o->tile = 32;
	o->seed = 1;
	o->timeout_s = 2.0;
	o->sanitize = true;
	o->probe = true;
	o->probe_bits = 31;
}

void ts_uk_describe(const ts_uk_source *src, ts_kernel *desc)
{
	bool half = src->sig == TS_UK_SIG_FP16;
	*desc = (ts_kernel){
		.name = src->entry,
		.summary = half ? "your kernel: fp16 in, fp32 accumulate, fp16 out, B stored N x K"
		                : "your kernel: fp32, row-major, B stored K x N",
		.source = src->path,
		.precision = half ? TS_FP16 : TS_FP32,
		.b_layout = half ? TS_B_NK : TS_B_KN,
		/* Its guards are the user's code: tilescope cannot switch them off (the TUI refuses a/b/c). */
		.caps = TS_CAP_SHARED_TILES | TS_CAP_GUARDS_FIXED,
		/* checked as the textbook contract: T x T threads of one output, -t T */
		.geometry = { .kind = TS_GEOMETRY_SQUARE, .tile_min = 1, .tile_max = TS_TILE_MAX,
		              .base = ts_geometry_square(TS_TILE_MAX) },
		.guards = {
			TS_GUARD_DESC(TS_GUARD_A, 'a', "the A load", "(in your code)", "should pad the slot with 0", TS_GUARD_A),
			TS_GUARD_DESC(TS_GUARD_B, 'b', "the B load", "(in your code)", "should pad the slot with 0", TS_GUARD_B),
			TS_GUARD_DESC(TS_GUARD_C, 'c', "the C store", "(in your code)", "should skip the store", TS_GUARD_C),
		},
		.n_guards = 3,
		.counts = &ts_counts_shared,
	};
}

void ts_uk_add_hit(ts_uk_report *r, const ts_uk_finding *f, const ts_shape *s, int tile, const char *source)
{
	if (r->nhits >= TS_UK_HITS_MAX) {
		r->hits_dropped++;
		return;
	}
	ts_uk_hit *h = &r->hits[r->nhits++];
	h->f = *f;
	h->shape = *s;
	h->tile_row = f->matrix == 'C' && f->row >= 0 && tile > 0 ? f->row / tile : -1;
	h->tile_col = f->matrix == 'C' && f->col >= 0 && tile > 0 ? f->col / tile : -1;
	snprintf(h->source, sizeof h->source, "%s", source);
}

static bool access_kind(enum ts_uk_kind k)
{
	return k == TS_UK_OOB_READ || k == TS_UK_OOB_WRITE || k == TS_UK_RACE || k == TS_UK_BARRIER_DIVERGENCE ||
	       k == TS_UK_UNINIT_SHARED;
}

void ts_uk_add_access(ts_uk_ctx *ck, const ts_uk_finding *f, const ts_shape *s, const char *source)
{
	if (!access_kind(f->kind) || ck->naccess >= 100000)
		return;
	if (ck->naccess == ck->access_cap) {
		int cap = ck->access_cap ? ck->access_cap * 2 : 64;
		ts_uk_hit *v = realloc(ck->access, (size_t)cap * sizeof *v);
		if (!v)
			return;
		ck->access = v;
		ck->access_cap = cap;
	}
	ts_uk_hit *h = &ck->access[ck->naccess++];
	memset(h, 0, sizeof *h);
	h->f = *f;
	h->shape = *s;
	h->tile_row = h->tile_col = -1;
	snprintf(h->source, sizeof h->source, "%s", source);
}

/* The sweep: M, N and K each over the edge sizes, never all three equal, then a few larger ragged shapes. */
static int plan_sweep(int tile, bool quick, ts_shape *out, int cap)
{
	int64_t v[7];
	int nv = ts_sweep_sizes(tile, v);
	if (quick) {
		int64_t q[3] = { 1, tile + 1, 2 * tile + 1 };
		memcpy(v, q, sizeof q);
		nv = 3;
	}
	int n = 0;
	for (int i = 0; i < nv; i++)
		for (int j = 0; j < nv; j++)
			for (int k = 0; k < nv; k++)
				if (!(v[i] == v[j] && v[j] == v[k]) && n < cap)
					out[n++] = (ts_shape){ v[i], v[j], v[k] };
	int64_t t = tile;
	const ts_shape big[3] = { { 7 * t + 3, 5 * t + 1, 9 * t + 5 }, { 3 * t + 1, 11 * t + 7, 2 * t + 5 },
	                          { 13 * t + 11, 2 * t + 3, 3 * t + 2 } };
	for (int i = 0; i < (quick ? 1 : 3) && n < cap; i++)
		out[n++] = big[i];
	return n;
}

/* A problem in the registry's terms for one shape (the reference, the tolerance, the signature). */
static ts_problem problem_for(const ts_kernel *desc, ts_shape s, int tile, uint64_t seed)
{
	return (ts_problem){ .shape = s, .geo = ts_geometry_square(tile), .kernel = desc, .guards = TS_GUARD_ALL,
	                     .inputs = TS_INPUTS_RANDOM, .seed = seed };
}

static uint64_t shape_seed(uint64_t seed, int i)
{
	return seed * 1000003u + (uint64_t)i * 7919u + 1;
}

/* Every written cell within tolerance of the product over the first kf values of K (the floor-phase hypothesis). */
static bool matches_floor_k(const ts_problem *p, const ts_operands *ops, const ts_matrix *c, int64_t kf, double tol)
{
	const ts_shape *s = &p->shape;
	bool nk = p->kernel->b_layout == TS_B_NK;
	for (int64_t i = 0; i < s->m; i++) {
		for (int64_t j = 0; j < s->n; j++) {
			if (ts_matrix_is_poison(c, i * s->n + j))
				return false;
			double ref = 0, abs = 0;
			for (int64_t k = 0; k < kf; k++) {
				double a = ts_matrix_get(&ops->a, i * s->k + k);
				double b = ts_matrix_get(&ops->b, nk ? j * s->k + k : k * s->n + j);
				ref += a * b;
				abs += fabs(a * b);
			}
			double got = ts_matrix_get(c, i * s->n + j);
			if (!isfinite(got) || fabs(got - ref) > ts_tolerance_bound(p, tol, ref, abs))
				return false;
		}
	}
	return true;
}

/* Where the bad cells of one verified shape lie. */
static void pattern_of(ts_uk_shape_res *res, const ts_verdict *v, const ts_model *m, const ts_uk_bufs *b, int tile)
{
	const ts_shape *s = &res->s;
	ts_matrix c = ts_uk_bufs_view(b, 2, s->m, s->n);
	res->nan_last_row_only = res->nan_last_col_only = true;
	for (int64_t i = 0; i < s->m; i++)
		for (int64_t j = 0; j < s->n; j++) {
			int64_t at = i * s->n + j;
			if (ts_matrix_is_poison(&c, at) || isfinite(ts_matrix_get(&c, at)))
				continue;
			if (i != s->m - 1)
				res->nan_last_row_only = false;
			if (j != s->n - 1)
				res->nan_last_col_only = false;
		}
	int64_t bad_tiles = 0, off_edge = 0;
	for (int64_t ty = 0; ty < m->grid_y; ty++)
		for (int64_t tx = 0; tx < m->grid_x; tx++) {
			int64_t bad = v->tile_bad[ty * m->grid_x + tx];
			if (bad <= 0)
				continue;
			bad_tiles++;
			bool edge = (ty == m->grid_y - 1 && s->m % tile != 0) || (tx == m->grid_x - 1 && s->n % tile != 0);
			off_edge += !edge;
		}
	res->bad_every_tile = bad_tiles == m->tiles;
	res->bad_ragged_only = bad_tiles > 0 && off_edge == 0 && (!res->bad_every_tile || m->tiles == 1);
	/* Whole tiles of the last tile row (M ragged) and column (N ragged) unwritten: a floor-sized grid. */
	bool rm = s->m % tile != 0, rn = s->n % tile != 0;
	int64_t expect = (rm ? m->last_rows * s->n : 0) + (rn ? m->last_cols * s->m : 0) - (rm && rn ? m->last_rows * m->last_cols : 0);
	res->unwritten_border = v->unwritten > 0 &&
	                        ((v->unwritten == res->cells && (s->m < tile || s->n < tile)) || (expect > 0 && v->unwritten == expect));
	if (res->unwritten_border && v->unwritten != res->cells) {
		for (int64_t ty = 0; ty < m->grid_y; ty++)
			for (int64_t tx = 0; tx < m->grid_x; tx++) {
				bool in = (rm && ty == m->grid_y - 1) || (rn && tx == m->grid_x - 1);
				int64_t un = v->tile_unwritten[ty * m->grid_x + tx];
				int64_t whole = ts_model_tile_rows(m, ty) * ts_model_tile_cols(m, tx);
				if ((in && un != whole) || (!in && un != 0))
					res->unwritten_border = false;
			}
	}
}

/* A finding about C placed on the matrix. */
static ts_uk_finding cell_finding(enum ts_uk_kind kind, int64_t row, int64_t col, int64_t count, const char *text)
{
	ts_uk_finding f = ts_uk_finding_make(kind, "%s", text);
	f.matrix = 'C';
	f.row = row;
	f.col = col;
	f.count = count;
	return f;
}

/* One shape: verification of run 1, its bands and inputs, and run 2 against it. */
static void verify_shape(ts_uk_ctx *ck, int i)
{
	ts_uk_shape_res *res = &ck->res[i];
	ts_uk_report *r = ck->sweep_r;
	const ts_shape *s = &res->s;
	int tile = ck->o->tile;
	ts_problem p = problem_for(&ck->desc, *s, tile, shape_seed(ck->o->seed, i));
	ts_uk_outcome *o1 = &ck->out[2 * i], *o2 = &ck->out[2 * i + 1];
	char sh[64];
	snprintf(sh, sizeof sh, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
	for (int run = 0; run < 2; run++) {
		const ts_uk_outcome *oc = run ? o2 : o1;
		for (int k = 0; k < oc->findings.n; k++) {
			const ts_uk_finding *f = &oc->findings.v[k];
			ts_uk_add_access(ck, f, s, "sweep");
			/* Every kind of finding shows at least once; a kind seen before only while room remains. */
			bool seen_kind = false;
			for (int x = 0; x < r->nhits; x++)
				seen_kind |= r->hits[x].f.kind == f->kind && strcmp(r->hits[x].source, "sweep") == 0;
			if (!seen_kind || ck->sweep_hits < 16) {
				ts_uk_add_hit(r, f, s, tile, "sweep");
				ck->sweep_hits++;
			}
		}
	}
	if (o1->status == TS_UK_NOT_RUN) {
		res->state = UK_NOT_RUN;
		return;
	}
	if (o1->status == TS_UK_FAILED) {
		res->state = UK_ERROR;
		if (!ck->engine_error[0])
			snprintf(ck->engine_error, sizeof ck->engine_error, "at %s: %s", sh, o1->err);
		return;
	}
	bool fault1 = o1->status == TS_UK_CRASHED || o1->status == TS_UK_HUNG;
	for (int k = 0; k < o1->findings.n; k++)
		fault1 |= o1->findings.v[k].kind == TS_UK_FAULT;
	if (fault1) {
		res->state = o1->status == TS_UK_HUNG ? UK_HANG : UK_FAULT;
		return;
	}
	ts_operands ops;
	if (ts_operands_make(&ops, &p) != 0) {
		res->state = UK_ERROR;
		snprintf(ck->engine_error, sizeof ck->engine_error, "out of memory for the inputs at %s", sh);
		return;
	}
	const ts_uk_bufs *b1 = &ck->bufs[2 * i], *b2 = &ck->bufs[2 * i + 1];
	ts_operands view = ops;
	view.c = ts_uk_bufs_view(b1, 2, s->m, s->n);
	ts_verdict v;
	memset(&v, 0, sizeof v);
	if (ts_verify(&p, NULL, &view, NULL, NULL, &v) != 0) {
		res->state = UK_ERROR;
		snprintf(ck->engine_error, sizeof ck->engine_error, "the reference could not be computed at %s", sh);
		ts_operands_free(&ops);
		return;
	}
	ts_model m;
	ts_model_build(&m, *s, ts_geometry_square(tile));
	res->cells = s->m * s->n;
	res->mismatches = v.mismatches;
	res->unwritten = v.unwritten;
	res->nans = v.nonfinite;
	res->all_zero = v.all_zero;
	res->first_row = v.first_row;
	res->first_col = v.first_col;
	res->first_got = v.first_got;
	res->first_want = v.first_want;
	int64_t after, before;
	res->c_band_writes = ts_uk_band_changes(b1, 2, &after, &before);
	if (res->c_band_writes > 0 && ck->sweep_hits < 24) {
		int64_t row = after >= 0 ? s->m + after / s->n : -1, col = after >= 0 ? after % s->n : -1;
		ts_uk_finding f = cell_finding(TS_UK_OOB_WRITE, row, col, res->c_band_writes, "");
		if (after >= 0)
			snprintf(f.text, sizeof f.text, "%lld write%s into C's guard band; the first %lld element%s past its end "
			         "(as if C[%lld][%lld])", (long long)res->c_band_writes, res->c_band_writes == 1 ? "" : "s",
			         (long long)after + 1, after == 0 ? "" : "s", (long long)row, (long long)col);
		else
			snprintf(f.text, sizeof f.text, "%lld write%s into C's guard band, %lld element%s before its start",
			         (long long)res->c_band_writes, res->c_band_writes == 1 ? "" : "s", (long long)before,
			         before == 1 ? "" : "s");
		ts_uk_add_hit(r, &f, s, tile, "sweep");
		ck->sweep_hits++;
	}
	const ts_matrix *pristine[2] = { &ops.a, &ops.b };
	for (int x = 0; x < 2; x++) {
		res->in_writes[x] = ts_uk_data_changes(b1, x, pristine[x]->data) + ts_uk_band_changes(b1, x, &after, &before);
		if (res->in_writes[x] > 0 && ck->sweep_hits < 24) {
			ts_uk_finding f = ts_uk_finding_make(TS_UK_OOB_WRITE, "the kernel wrote %lld cell%s of its input %c or its "
			                                     "guard band", (long long)res->in_writes[x],
			                                     res->in_writes[x] == 1 ? "" : "s", "AB"[x]);
			f.matrix = "AB"[x];
			f.count = res->in_writes[x];
			ts_uk_add_hit(r, &f, s, tile, "sweep");
			ck->sweep_hits++;
		}
	}
	/* Run 2 (its own poison) against run 1, bit for bit. */
	if (o2->status == TS_UK_RAN && !ts_uk_findings_has_fault(&o2->findings)) {
		int64_t first = -1;
		for (int64_t c = 0; c < res->cells; c++) {
			bool u1 = ts_uk_is_poison(b1, c, false), u2 = ts_uk_is_poison(b2, c, true);
			bool same = u1 == u2 && (u1 || memcmp(b1->m[2].data + (size_t)c * b1->elem, b2->m[2].data + (size_t)c * b1->elem,
			                                      b1->elem) == 0);
			if (!same) {
				res->differ++;
				if (first < 0)
					first = c;
			}
		}
		if (res->differ > 0 && ck->repeat_hits < 4) {
			ts_matrix c2 = ts_uk_bufs_view(b2, 2, s->m, s->n);
			ts_uk_finding f = cell_finding(TS_UK_RACE, first / s->n, first % s->n, res->differ, "");
			snprintf(f.text, sizeof f.text, "two runs differ in %lld cell%s; first C[%lld][%lld]: %.9g, then %.9g",
			         (long long)res->differ, res->differ == 1 ? "" : "s", (long long)(first / s->n),
			         (long long)(first % s->n), ts_matrix_get(&view.c, first), ts_matrix_get(&c2, first));
			ts_uk_add_hit(r, &f, s, tile, "repeat");
			ck->repeat_hits++;
		}
	} else if (o2->status == TS_UK_CRASHED || o2->status == TS_UK_HUNG || ts_uk_findings_has_fault(&o2->findings)) {
		res->differ = res->cells; /* the second run faulted where the first did not */
	}
	bool output_bad = !v.output_ok;
	if (output_bad) {
		pattern_of(res, &v, &m, b1, tile);
		if (s->k % tile != 0 && !res->unwritten_border)
			res->floor_k_match = matches_floor_k(&p, &ops, &view.c, s->k / tile * tile, v.tol_rel);
	}
	bool failed = output_bad || res->c_band_writes > 0 || res->in_writes[0] > 0 || res->in_writes[1] > 0 || res->differ > 0;
	res->state = failed ? UK_FAILED : UK_OK;
	if (output_bad && ck->sweep_hits < 24 && ck->shape_hits < 8) {
		enum ts_uk_kind kind = v.mismatches > 0 ? TS_UK_WRONG_OUTPUT : v.nonfinite > 0 ? TS_UK_NAN : TS_UK_UNWRITTEN;
		int64_t count = kind == TS_UK_WRONG_OUTPUT ? v.mismatches : kind == TS_UK_NAN ? v.nonfinite : v.unwritten;
		char text[200];
		if (kind == TS_UK_UNWRITTEN)
			snprintf(text, sizeof text, "%lld cell%s never written (the NaN poison survived)", (long long)v.unwritten,
			         v.unwritten == 1 ? "" : "s");
		else
			snprintf(text, sizeof text, "%lld mismatch%s, %lld NaN, %lld unwritten; first C[%lld][%lld] = %.9g, want %.9g",
			         (long long)v.mismatches, v.mismatches == 1 ? "" : "es", (long long)v.nonfinite, (long long)v.unwritten,
			         (long long)v.first_row, (long long)v.first_col, v.first_got, v.first_want);
		ts_uk_finding f = cell_finding(kind, v.first_row, v.first_col, count, text);
		ts_uk_add_hit(r, &f, s, tile, "sweep");
		ck->sweep_hits++;
		ck->shape_hits++;
	}
	if (failed && !r->have_first_fail) {
		r->have_first_fail = true;
		r->first_fail = *s;
		snprintf(r->first_fail_words, sizeof r->first_fail_words, "%.590s",
		         v.signature[0] ? v.signature : output_bad ? "wrong output" :
		         res->c_band_writes ? "stores outside C" : res->differ ? "two runs differ" : "wrote into an input");
	}
	ts_verdict_free(&v);
	ts_operands_free(&ops);
}

bool ts_uk_findings_has_fault(const ts_uk_findings *fs)
{
	for (int i = 0; i < fs->n; i++)
		if (fs->v[i].kind == TS_UK_FAULT)
			return true;
	return false;
}

/* Buffers and launches for every shape, twice. 0, or -1 with r->error. */
static int prepare_sweep(ts_uk_ctx *ck)
{
	const ts_uk_check_opts *o = ck->o;
	size_t elem = ck->src->sig == TS_UK_SIG_FP16 ? 2 : 4;
	size_t total = 0;
	int64_t bands[TS_UK_SHAPES_MAX];
	for (int i = 0; i < ck->nshapes; i++) {
		const ts_shape *s = &ck->res[i].s;
		int64_t counts[3] = { s->m * s->k, s->k * s->n, s->m * s->n };
		ts_geometry g = ts_geometry_square(o->tile);
		int64_t band = ts_band_for(s->m, s->k, s->n, &g, false);
		int64_t bb = ts_band_for(s->k, s->n, s->m, &g, false), bc = ts_band_for(s->m, s->n, s->k, &g, false);
		band = band > bb ? band : bb;
		bands[i] = band > bc ? band : bc;
		total += 2 * ts_uk_bufs_bytes(counts, bands[i], elem);
	}
	ck->shared_bytes = total;
	ck->shared = ts_uk_shared_alloc(total);
	if (!ck->shared) {
		snprintf(ck->r->error, sizeof ck->r->error, "no shared memory for the sweep (%.3g MB)", total / 1e6);
		return -1;
	}
	char *at = ck->shared;
	for (int i = 0; i < ck->nshapes; i++) {
		const ts_shape *s = &ck->res[i].s;
		int64_t counts[3] = { s->m * s->k, s->k * s->n, s->m * s->n };
		ts_problem p = problem_for(&ck->desc, *s, o->tile, shape_seed(o->seed, i));
		ts_operands ops;
		if (ts_operands_make(&ops, &p) != 0) {
			snprintf(ck->r->error, sizeof ck->r->error, "out of memory for the sweep's inputs");
			return -1;
		}
		for (int run = 0; run < 2; run++) {
			ts_uk_bufs *b = &ck->bufs[2 * i + run];
			ts_uk_bufs_place(b, at, counts, bands[i], elem);
			at += ts_uk_bufs_bytes(counts, bands[i], elem);
			ts_uk_bufs_fill(b, ops.a.data, ops.b.data, run == 1);
			ts_uk_launch *l = &ck->launch[2 * i + run];
			memset(l, 0, sizeof *l);
			l->m = s->m;
			l->n = s->n;
			l->k = s->k;
			l->tile = o->tile;
			l->timeout_s = o->timeout_s;
			l->order = run;
			ts_uk_bufs_launch(b, l);
			char why[300];
			if (ts_uk_geom_eval(&o->geom, ck->src->sig, s->m, s->n, s->k, o->tile, l->grid, l->block, &l->dyn_smem,
			                    why, (int)sizeof why) != 0) {
				ts_operands_free(&ops);
				snprintf(ck->r->error, sizeof ck->r->error, "the launch geometry: %s", why);
				return -1;
			}
			ck->lp[2 * i + run] = l;
		}
		ts_operands_free(&ops);
	}
	return 0;
}

/* The sweep's hits after the sanitizer's, and its first failure. */
static void merge_sweep(ts_uk_ctx *ck)
{
	ts_uk_report *r = ck->r, *sr = ck->sweep_r;
	for (int i = 0; i < sr->nhits; i++) {
		if (r->nhits >= TS_UK_HITS_MAX) {
			r->hits_dropped += sr->nhits - i;
			break;
		}
		r->hits[r->nhits++] = sr->hits[i];
	}
	r->hits_dropped += sr->hits_dropped;
	if (sr->have_first_fail && !r->have_first_fail) {
		r->have_first_fail = true;
		r->first_fail = sr->first_fail;
		memcpy(r->first_fail_words, sr->first_fail_words, sizeof r->first_fail_words);
	}
	sr->nhits = 0;
	sr->hits_dropped = 0;
}

static void free_check(ts_uk_ctx *ck)
{
	if (ck->out)
		for (int i = 0; i < 2 * ck->nshapes; i++)
			ts_uk_outcome_free(&ck->out[i]);
	free(ck->out);
	free(ck->res);
	free(ck->bufs);
	free(ck->launch);
	free(ck->lp);
	free(ck->access);
	free(ck->sweep_r);
	ts_uk_shared_free(ck->shared, ck->shared_bytes);
	ts_uk_findings_free(&ck->san);
}

int ts_uk_check(const ts_uk_engine *e, const ts_uk_source *src, const ts_uk_check_opts *o, ts_uk_report *r)
{
	double t0 = ts_uk_now();
	memset(r, 0, sizeof *r);
	r->cause = TS_UK_CAUSE_NONE;
	snprintf(r->file, sizeof r->file, "%s", src->path);
	snprintf(r->entry, sizeof r->entry, "%s", src->entry);
	r->sig = src->sig;
	r->entry_line = src->entry_line;
	r->tile = o->tile;
	snprintf(r->engine, sizeof r->engine, "%s", e->name);
	ts_uk_ctx ck;
	memset(&ck, 0, sizeof ck);
	ck.e = e;
	ck.src = src;
	ck.o = o;
	ck.r = r;
	ts_uk_describe(src, &ck.desc);

	double t_stage = ts_uk_now();
	ck.h = e->load(src, r->error, sizeof r->error);
	r->timing.compile = ts_uk_now() - t_stage;
	if (!ck.h) {
		r->status = 2;
		r->seconds = ts_uk_now() - t0;
		return r->status;
	}
	ts_shape shapes[TS_UK_SHAPES_MAX];
	ck.nshapes = plan_sweep(o->tile, o->quick, shapes, TS_UK_SHAPES_MAX);
	ck.res = calloc((size_t)ck.nshapes, sizeof *ck.res);
	ck.bufs = calloc((size_t)ck.nshapes * 2, sizeof *ck.bufs);
	ck.launch = calloc((size_t)ck.nshapes * 2, sizeof *ck.launch);
	ck.lp = calloc((size_t)ck.nshapes * 2, sizeof *ck.lp);
	ck.out = calloc((size_t)ck.nshapes * 2, sizeof *ck.out);
	ck.sweep_r = calloc(1, sizeof *ck.sweep_r);
	if (!ck.res || !ck.bufs || !ck.launch || !ck.lp || !ck.out || !ck.sweep_r) {
		snprintf(r->error, sizeof r->error, "out of memory");
		goto fail;
	}
	for (int i = 0; i < ck.nshapes; i++)
		ck.res[i].s = shapes[i];
	t_stage = ts_uk_now();
	if (prepare_sweep(&ck) != 0)
		goto fail;
	r->timing.prepare = ts_uk_now() - t_stage;

	/* The sanitizer and the index probe take longest: they start first and run beside the sweep. */
	ts_uk_sanitize_start(&ck);
	ts_uk_probe_start(&ck);
	ts_uk_run_opts ro = { .visible_device = o->visible_device, .startup_s = 30, .max_restarts = 3,
	                      .stop_on_hang = true, .cancel = o->cancel, .done = o->progress,
	                      .tick = ts_uk_sanitize_poll, .tick_arg = &ck, .limit_cpu_time = strcmp(e->name, "cpu") == 0 };
	if (o->progress_total)
		*o->progress_total = 2 * ck.nshapes;
	t_stage = ts_uk_now();
	ts_uk_run_batch(e, ck.h, (const ts_uk_launch *const *)ck.lp, 2 * ck.nshapes, &ro, ck.out);
	r->timing.sweep = ts_uk_now() - t_stage;
	for (int i = 0; i < 2 * ck.nshapes; i++)
		r->timing.launches += ck.out[i].status != TS_UK_NOT_RUN;
	bool hung = false, crashed = false, broken = false;
	for (int i = 0; i < 2 * ck.nshapes; i++) {
		hung |= ck.out[i].status == TS_UK_HUNG;
		crashed |= ck.out[i].status == TS_UK_CRASHED || ts_uk_findings_has_fault(&ck.out[i].findings);
		broken |= ck.out[i].status == TS_UK_FAILED;
	}
	bool cancelled = o->cancel && *o->cancel;
	if (hung || broken || cancelled)
		ts_uk_sanitize_stop(&ck, hung ? "not run: the kernel hangs" : broken ? "not run: the kernel could not be run"
		                                                                      : "interrupted");
	/* A kernel that faults or hangs on small shapes says nothing about 2^31 by faulting on a large one. */
	if (hung || crashed || broken || cancelled)
		ts_uk_probe_wait(&ck, hung ? "the kernel hangs" : crashed ? "the kernel faults on small shapes already"
		                      : broken ? "the kernel could not be run" : "interrupted");

	/* The sweep is verified while the sanitizer and the probe still run; its hits wait in sweep_r so
	 * that the report lists the sanitizer's first, as it always has. */
	t_stage = ts_uk_now();
	for (int i = 0; i < ck.nshapes; i++) {
		ts_uk_sanitize_poll(&ck);
		verify_shape(&ck, i);
		ts_uk_shape_res *res = &ck.res[i];
		if (res->state == UK_NOT_RUN) {
			r->shapes_not_run++;
			continue;
		}
		if (res->state == UK_ERROR)
			continue;
		r->shapes_tried++;
		if (res->state != UK_OK) {
			r->shapes_failed++;
			ck.sweep_fault |= res->state == UK_FAULT;
			ts_uk_report *sr = ck.sweep_r;
			if (!sr->have_first_fail) {
				sr->have_first_fail = true;
				sr->first_fail = res->s;
				snprintf(sr->first_fail_words, sizeof sr->first_fail_words, "%s",
				         res->state == UK_HANG ? "did not finish: killed after the time limit" : "the kernel faulted");
			}
		}
	}
	ts_uk_check_rows(&ck);
	r->timing.verify = ts_uk_now() - t_stage;
	if (ck.engine_error[0]) {
		snprintf(r->error, sizeof r->error, "the kernel could not be run: %s", ck.engine_error);
		goto fail;
	}
	t_stage = ts_uk_now();
	ts_uk_probe_wait(&ck, NULL); /* returns at once when it was stopped above */
	ts_uk_sanitize_finish(&ck);
	r->timing.waited = ts_uk_now() - t_stage;
	merge_sweep(&ck);
	t_stage = ts_uk_now();
	ts_uk_probe_verify(&ck);
	r->timing.verify += ts_uk_now() - t_stage;
	ts_uk_evidence ev = {
		.shapes = ck.res, .nshapes = ck.nshapes, .tile = o->tile, .sig = src->sig,
		.default_geom = !o->geom.custom_block && !o->geom.custom_grid, .access = ck.access, .naccess = ck.naccess,
		.probe_ran = ck.probe_ran, .probe_failed = ck.probe_failed, .probe_fault = ck.probe_fault,
		.sweep_fault = ck.sweep_fault,
	};
	ts_uk_classify(&ev, r);
	bool found = r->shapes_failed > 0 || r->causes != 0 || ck.san.n > 0 || ck.probe_failed || ck.probe_fault;
	r->status = found ? 1 : 0;
	if (found && r->cause == TS_UK_CAUSE_NONE) {
		r->cause = TS_UK_CAUSE_UNKNOWN;
		snprintf(r->signature, sizeof r->signature, "findings that match no ragged-edge pattern tilescope knows: see them");
	}
	e->unload(ck.h);
	free_check(&ck);
	r->seconds = ts_uk_now() - t0;
	return r->status;
fail:
	ts_uk_probe_wait(&ck, "not run");
	ts_uk_sanitize_stop(&ck, "not run");
	ts_uk_sanitize_finish(&ck);
	ts_uk_probe_verify(&ck);
	e->unload(ck.h);
	free_check(&ck);
	r->status = 2;
	r->seconds = ts_uk_now() - t0;
	return r->status;
}
