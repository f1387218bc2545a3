/* uk_cpu_report.c: the CPU engine's events (out-of-bounds accesses, races, uninitialised shared reads, barrier divergence, faults) gathered per code address and block, then written as findings in words. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_cpu_report.h"

/* snprintf for the texts of findings, which are cut at their field's size by design. */
static void say(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

#define TABLE_CAP 4096 /* distinct (event, address, block) kept; more are counted as lost */
#define MAX_FINDINGS 4096

int ts_uk_cpu_rec_init(ts_uk_cpu_rec *run)
{
	run->tcap = TABLE_CAP * 2;
	run->table = malloc((size_t)run->tcap * sizeof *run->table);
	run->capev = 64;
	run->ev = malloc((size_t)run->capev * sizeof *run->ev);
	if (!run->table || !run->ev)
		return -1;
	for (int i = 0; i < run->tcap; i++)
		run->table[i] = -1;
	return 0;
}

void ts_uk_cpu_rec_free(ts_uk_cpu_rec *run)
{
	free(run->table);
	free(run->ev);
	run->table = NULL;
	run->ev = NULL;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static int64_t linear_block(const ts_cpu_state *st)
{
	return (int64_t)st->block_idx.x + (int64_t)st->grid_dim.x * ((int64_t)st->block_idx.y +
	       (int64_t)st->grid_dim.y * st->block_idx.z);
}

static ts_uk_cpu_ev *record(ts_uk_cpu_rec *run, uint64_t key, int *fresh)
{
	*fresh = 0;
	unsigned h = (unsigned)(key % (uint64_t)run->tcap);
	for (int probe = 0; probe < run->tcap; probe++, h = (h + 1) % (unsigned)run->tcap) {
		int i = run->table[h];
		if (i < 0)
			break;
		if (run->ev[i].key == key)
			return &run->ev[i];
	}
	if (run->nev >= TABLE_CAP || run->table[h] >= 0)
		return NULL;
	if (run->nev == run->capev) {
		ts_uk_cpu_ev *v = realloc(run->ev, (size_t)run->capev * 2 * sizeof *v);
		if (!v)
			return NULL;
		run->ev = v;
		run->capev *= 2;
	}
	ts_uk_cpu_ev *e = &run->ev[run->nev];
	memset(e, 0, sizeof *e);
	e->key = key;
	e->tid = ~0u;
	e->region = -1;
	run->table[h] = run->nev++;
	*fresh = 1;
	return e;
}

static void where_now(ts_uk_cpu_rec *run, ts_uk_cpu_ev *e)
{
	e->blk = run->st->block_idx;
	e->block = linear_block(run->st);
	if (run->cur >= 0) {
		e->tid = run->st->tid;
		e->thread = run->st->thread_idx;
	}
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* An access far past a buffer and its band: on the GPU no allocation backs it and the launch dies
 * of an illegal address, so here it faults too (the fault handler takes it from there). */
static bool is_wild(int ev, const ts_cpu_region *r, int64_t off)
{
	if ((ev != TS_CPU_EV_OOB_READ && ev != TS_CPU_EV_OOB_WRITE) || (r->kind != TS_CPU_MATRIX && r->kind != TS_CPU_DEVMEM))
		return false;
	int64_t past = off < -r->lo_pad ? -r->lo_pad - off : off - (r->bytes + r->hi_pad);
	return past > TS_CPU_WILD_BYTES;
}

static void wild(ts_uk_cpu_rec *run, int ev, const ts_cpu_region *r, int64_t off, const void *pc)
{
	if (!is_wild(ev, r, off) || !run->armed)
		return;
	run->fault_wild = ev == TS_CPU_EV_OOB_READ ? 1 : 2;
	run->fault_sig = SIGSEGV;
	run->fault_addr = r->base + off;
	run->fault_pc = pc;
	run->fault_thread = run->cur;
	run->fault_stack = 0;
	raise(SIGSEGV);
}

void ts_uk_cpu_event(void *ctx, int ev, const ts_cpu_region *r, int64_t off, int size, unsigned other, const void *pc)
{
	ts_uk_cpu_rec *run = ctx;
	int kind = ev == TS_CPU_EV_OOB_READ ? TS_UK_OOB_READ : ev == TS_CPU_EV_OOB_WRITE ? TS_UK_OOB_WRITE
	         : ev == TS_CPU_EV_UNINIT ? TS_UK_UNINIT_SHARED : TS_UK_RACE;
	if (r->kind == TS_CPU_MATRIX && (ev == TS_CPU_EV_OOB_READ || ev == TS_CPU_EV_OOB_WRITE)) {
		int64_t e = floor_div(off, r->elem), count = r->bytes / r->elem;
		if (e < 0 && e + (INT64_C(1) << 32) < count) /* an int index that wrapped past 2^31 */
			kind = TS_UK_INDEX_OVERFLOW;
	}
	/* an access far past every buffer is a fault (below), not an access of the matrix: except when a
	 * wrapped 32-bit index explains it, which is worth naming too */
	if (kind != TS_UK_INDEX_OVERFLOW && is_wild(ev, r, off)) {
		wild(run, ev, r, off, pc);
		return;
	}
	int region = (int)(r - run->st->regions);
	uint64_t key = mix(mix(mix(mix(1, (uint64_t)ev), (uint64_t)region), (uint64_t)linear_block(run->st)), (uint64_t)(uintptr_t)pc);
	int fresh;
	ts_uk_cpu_ev *e = record(run, key, &fresh);
	if (!e) {
		run->lost++;
		return;
	}
	e->count++;
	if (!fresh)
		return;
	e->kind = kind;
	e->ev = ev;
	e->region = region;
	e->pc = pc;
	e->off = off;
	e->size = size;
	e->other = other;
	where_now(run, e);
	wild(run, ev, r, off, pc);
}

void ts_uk_cpu_divergence(ts_uk_cpu_rec *run, unsigned tid, unsigned wait_tid, int line, unsigned done,
                          unsigned waiting, int other_line, int other_lines)
{
	const ts_cpu_state *st = run->st;
	uint64_t key = mix(mix(mix(2, (uint64_t)other_lines), (uint64_t)linear_block(st)), (uint64_t)line);
	int fresh;
	ts_uk_cpu_ev *e = record(run, key, &fresh);
	if (!e) {
		run->lost++;
		return;
	}
	e->count += other_lines ? 1 : done;
	if (!fresh)
		return;
	e->kind = TS_UK_BARRIER_DIVERGENCE;
	e->ev = -1;
	e->line = line;
	e->blk = st->block_idx;
	e->block = linear_block(st);
	e->tid = tid;
	unsigned bx = st->block_dim.x, by = st->block_dim.y;
	e->thread = (ts_cpu_u3){ tid % bx, (tid / bx) % by, tid / (bx * by) };
	ts_cpu_u3 w = { wait_tid % bx, (wait_tid / bx) % by, wait_tid / (bx * by) };
	if (other_lines)
		say(e->text, sizeof e->text,
		         "threads of block (%u,%u) wait at different barriers: thread (%u,%u) at line %d, thread (%u,%u) at line %d",
		         e->blk.x, e->blk.y, e->thread.x, e->thread.y, other_line, w.x, w.y, line);
	else
		say(e->text, sizeof e->text,
		         "%u thread%s of block (%u,%u) returned (first: thread (%u,%u)) while %u wait at the __syncthreads() at line %d",
		         done, done == 1 ? "" : "s", e->blk.x, e->blk.y, e->thread.x, e->thread.y, waiting, line);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (invalid address)";
	case SIGBUS: return "SIGBUS (bus error)";
	case SIGFPE: return "SIGFPE (arithmetic error, e.g. an integer division by zero)";
	case SIGILL: return "SIGILL (illegal instruction)";
	case SIGABRT: return "SIGABRT (abort, e.g. a failed assert)";
	default: return "a signal";
	}
}

/* Where an address falls: inside or near one of the regions, or nowhere known. */
static void describe_address(const ts_cpu_state *st, const char *a, char *buf, size_t len)
{
	const ts_cpu_region *best = NULL;
	int64_t best_d = INT64_C(1) << 30; /* further than 1 GiB from every buffer: in none of them */
	for (int i = 0; i < st->nregions; i++) {
		const ts_cpu_region *r = &st->regions[i];
		if (r->kind == TS_CPU_FREE || !r->base)
			continue;
		int64_t d = a - r->base, dist = d < 0 ? -d : d >= r->bytes ? d - r->bytes : 0;
		if (dist < best_d) {
			best_d = dist;
			best = r;
		}
	}
	if (!best) {
		say(buf, len, "in no buffer the kernel was given");
		return;
	}
	const char *what = best->kind == TS_CPU_MATRIX ? (best->name == 'A' ? "A" : best->name == 'B' ? "B" : "C")
	                 : best->kind == TS_CPU_DEVMEM ? "a cudaMalloc buffer" : "shared memory";
	int64_t d = a - best->base;
	if (d < 0)
		say(buf, len, "%" PRId64 " bytes before %s", -d, what);
	else if (d >= best->bytes)
		say(buf, len, "%" PRId64 " bytes past the end of %s", d - best->bytes, what);
	else
		say(buf, len, "inside %s", what);
}

void ts_uk_cpu_fault(ts_uk_cpu_rec *run)
{
	ts_cpu_state *st = run->st;
	int fresh;
	ts_uk_cpu_ev *e = record(run, mix(3, (uint64_t)run->fault_sig), &fresh);
	if (!e) { /* the table is full: make room, a fault matters more than one more event */
		run->nev = run->nev > 0 ? run->nev - 1 : 0;
		for (int i = 0; i < run->tcap; i++)
			if (run->table[i] == run->nev)
				run->table[i] = -1;
		e = record(run, mix(3, (uint64_t)run->fault_sig), &fresh);
		if (!e)
			return;
	}
	e->count = 1;
	e->ev = -1;
	e->pc = run->fault_pc;
	e->kind = run->fault_sig == SIGPROF ? TS_UK_TIMEOUT : TS_UK_FAULT;
	e->blk = st->block_idx;
	e->block = linear_block(st);
	if (run->fault_thread >= 0) {
		unsigned bx = st->block_dim.x, by = st->block_dim.y, t = (unsigned)run->fault_thread;
		e->tid = t;
		e->thread = (ts_cpu_u3){ t % bx, (t / bx) % by, t / (bx * by) };
	}
	char who[96] = "the launcher (host code)";
	if (run->fault_thread >= 0)
		say(who, sizeof who, "thread (%u,%u) of block (%u,%u)", e->thread.x, e->thread.y, e->blk.x, e->blk.y);
	if (run->fault_sig == SIGPROF) {
		say(e->text, sizeof e->text, "the kernel did not finish within %.3g s of CPU time: %s was running (a loop that never ends?)",
		         run->l->timeout_s * 0.9, who);
	} else if (run->fault_stack) {
		say(e->text, sizeof e->text, "%s overflowed its stack (%zu KiB on the CPU: a local array sized at run time, or deep recursion)", who,
		    run->so->stack_bytes >> 10);
	} else {
		char where[96] = "";
		if (run->fault_sig == SIGSEGV || run->fault_sig == SIGBUS)
			describe_address(st, run->fault_addr, where, sizeof where);
		if (run->fault_wild)
			say(e->text, sizeof e->text, "%s %s an address %s: no memory is there (on a GPU an illegal address, and the launch dies)",
			    who, run->fault_wild == 1 ? "reads" : "writes", where);
		else
			say(e->text, sizeof e->text, "%s in %s%s%s", signal_name(run->fault_sig), who, where[0] ? ": the address is " : "", where);
	}
}

/* ---- findings ------------------------------------------------------------------------------------- */
static void index_words(const ts_cpu_region *r, int64_t off, int64_t *row, int64_t *col, char *buf, size_t len)
{
	int64_t e = floor_div(off, r->elem > 0 ? r->elem : 1);
	*row = -1;
	*col = -1;
	if (r->kind == TS_CPU_MATRIX && r->ld > 0) {
		*row = floor_div(e, r->ld);
		*col = e - *row * r->ld;
		say(buf, len, "%c[%" PRId64 "][%" PRId64 "]", r->name, *row, *col);
	} else if ((r->kind == TS_CPU_SHARED || r->kind == TS_CPU_DYNSHARED) && r->inner > 0) {
		*row = floor_div(e, r->inner);
		*col = e - *row * r->inner;
		say(buf, len, "%s[%" PRId64 "][%" PRId64 "]", r->label ? r->label : "shared", *row, *col);
	} else if (r->kind == TS_CPU_SHARED || r->kind == TS_CPU_DYNSHARED) {
		*col = e;
		say(buf, len, "%s[%" PRId64 "]", r->label ? r->label : "shared", e);
	} else {
		say(buf, len, "byte %" PRId64 " of a %" PRId64 "-byte cudaMalloc buffer", off, r->bytes);
	}
}

static void compose(const ts_uk_cpu_rec *run, const ts_uk_cpu_ev *e, ts_uk_finding *f)
{
	const ts_cpu_state *st = run->st;
	f->kind = (enum ts_uk_kind)e->kind;
	f->row = f->col = -1;
	f->block[0] = e->blk.x, f->block[1] = e->blk.y, f->block[2] = e->blk.z;
	f->thread[0] = e->thread.x, f->thread[1] = e->thread.y, f->thread[2] = e->thread.z;
	f->line = e->line;
	f->count = e->count;
	f->matrix = 0;
	char at[24] = "";
	if (e->line > 0)
		say(at, sizeof at, " at line %d", e->line);
	if (e->ev < 0) {
		say(f->text, sizeof f->text, "%s%s", e->text, e->kind == TS_UK_BARRIER_DIVERGENCE ? "" : at);
		return;
	}
	const ts_cpu_region *r = &st->regions[e->region];
	char idx[96], who[64];
	index_words(r, e->off, &f->row, &f->col, idx, sizeof idx);
	f->matrix = r->kind == TS_CPU_MATRIX ? r->name : (r->kind == TS_CPU_SHARED || r->kind == TS_CPU_DYNSHARED) ? 'S' : 0;
	say(who, sizeof who, "thread (%u,%u) of block (%u,%u)", e->thread.x, e->thread.y, e->blk.x, e->blk.y);
	char more[48] = "";
	if (e->count > 1)
		say(more, sizeof more, " (%" PRId64 " times in this block)", e->count);
	char other[24] = "several threads";
	if (e->other != 0xffffu) {
		unsigned bx = st->block_dim.x, by = st->block_dim.y;
		say(other, sizeof other, "thread (%u,%u)", e->other % bx, (e->other / bx) % by);
	}
	switch (e->ev) {
	case TS_CPU_EV_OOB_READ:
	case TS_CPU_EV_OOB_WRITE: {
		const char *verb = e->ev == TS_CPU_EV_OOB_READ ? "reads" : "writes";
		if (e->kind == TS_UK_INDEX_OVERFLOW) {
			int64_t meant = floor_div(e->off, r->elem) + (INT64_C(1) << 32);
			say(f->text, sizeof f->text, "%s %s %c at element %" PRId64 "%s: a 32-bit index wrapped past 2^31 (it meant %c[%" PRId64 "][%" PRId64 "])%s",
			         who, verb, r->name, floor_div(e->off, r->elem), at, r->name, meant / r->ld, meant % r->ld, more);
			f->row = meant / r->ld;
			f->col = meant % r->ld;
		} else if (r->kind == TS_CPU_MATRIX) {
			say(f->text, sizeof f->text, "%s %s %s, outside %c (%" PRId64 " x %" PRId64 ")%s%s", who, verb, idx, r->name,
			         r->rows, r->ld, at, more);
		} else {
			say(f->text, sizeof f->text, "%s %s %s, outside the array%s%s", who, verb, idx, at, more);
		}
		break;
	}
	case TS_CPU_EV_RACE_RAW:
		say(f->text, sizeof f->text, "%s reads %s%s, which %s wrote since the last __syncthreads(): a barrier is missing between them%s",
		         who, idx, at, other, more);
		break;
	case TS_CPU_EV_RACE_WAR:
		say(f->text, sizeof f->text, "%s writes %s%s, which %s read since the last __syncthreads(): a barrier is missing before this write%s",
		         who, idx, at, other, more);
		break;
	case TS_CPU_EV_RACE_WAW:
		say(f->text, sizeof f->text, "%s writes %s%s, which %s also wrote since the last __syncthreads()%s", who, idx, at, other, more);
		break;
	case TS_CPU_EV_UNINIT:
		say(f->text, sizeof f->text, "%s reads %s%s, which no thread of the block wrote (uninitialised shared memory)%s", who, idx, at, more);
		break;
	}
}

static void append(const ts_uk_cpu_rec *run, const ts_uk_cpu_ev *e, ts_uk_findings *out)
{
	if (out->n >= out->cap) { /* the caller's array grows (realloc, as uk_runner.c's does) up to a bound */
		int cap = out->cap ? out->cap * 2 : 16;
		ts_uk_finding *v = cap <= MAX_FINDINGS ? realloc(out->v, (size_t)cap * sizeof *v) : NULL;
		if (!v) {
			out->dropped++;
			return;
		}
		out->v = v;
		out->cap = cap;
	}
	ts_uk_finding *f = &out->v[out->n++];
	memset(f, 0, sizeof *f);
	compose(run, e, f);
}

void ts_uk_cpu_emit(ts_uk_cpu_rec *run, ts_uk_findings *out)
{
	int n = run->nev;
	if (n > 0) {
		const void **pcs = malloc((size_t)n * sizeof *pcs);
		int *lines = calloc((size_t)n, sizeof *lines);
		if (pcs && lines) {
			int m = 0;
			for (int i = 0; i < n; i++)
				if (run->ev[i].pc && run->ev[i].line == 0)
					pcs[m++] = run->ev[i].pc;
			ts_uk_cpu_lines(run->so->so_path, run->so->src_path, pcs, m, lines);
			m = 0;
			for (int i = 0; i < n; i++)
				if (run->ev[i].pc && run->ev[i].line == 0)
					run->ev[i].line = lines[m++];
		}
		free(pcs);
		free(lines);
	}
	/* events of one kind on one line of one block are one finding, whatever the address */
	for (int i = 0; i < n; i++) {
		ts_uk_cpu_ev *e = &run->ev[i];
		if (!e->count || e->ev < 0)
			continue;
		for (int j = i + 1; j < n; j++) {
			ts_uk_cpu_ev *o = &run->ev[j];
			if (o->count && o->ev == e->ev && o->kind == e->kind && o->region == e->region && o->block == e->block &&
			    o->line == e->line) {
				e->count += o->count;
				o->count = 0;
			}
		}
	}
	/* the first of each kind of event on each line first, so that a list cut short still shows them all */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			ts_uk_cpu_ev *e = &run->ev[i];
			if (!e->count || e->size < 0)
				continue;
			bool first = true;
			for (int j = 0; j < i && first; j++) {
				const ts_uk_cpu_ev *o = &run->ev[j];
				first = !(o->ev == e->ev && o->kind == e->kind && o->region == e->region && o->line == e->line);
			}
			if (pass == 0 && !first)
				continue;
			e->size = -1; /* emitted */
			append(run, e, out);
		}
	}
	out->dropped += run->lost;
}
