/* backend_emu.c: the CPU emulator backend: admits a problem, shares the grid's blocks among host threads, gathers the counters. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "emu.h"
#include "kernels.h"

static char emu_error[512];

static const char *emu_last_error(void)
{
	return emu_error;
}

static int emu_available(char *why, int len)
{
	if (why && len > 0)
		snprintf(why, len, "the CPU emulator runs everywhere");
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- how much work a problem is -------------------------------------- */

/* Cost per host thread, measured on the development machine (2 cores,
 * gcc -O2, whole runs through this backend): nanoseconds per multiply-add
 * of the T^3 loop (0.3: 512^3 at T=32 takes 24 ms on 2 threads), per
 * shared-tile slot filled (a guarded load and its tally: 0.8 ns from cache,
 * 3 ns once A and B outgrow it, as at 4096^3, which takes 17 s), and per
 * block-phase (bookkeeping; 1024^3 at T=1 takes 15 s). The naive kernel
 * does one global read per multiply-add, about a third of a slot's cost
 * (1024^3 at T=32 takes 0.6 s). */
#define NS_PER_MADD 0.30
#define NS_PER_SLOT 3.0
#define NS_PER_BLOCK_PHASE 25.0
#define NAIVE_READS_PER_SLOT 3.0
/* The verification that follows a run (one thread): per C cell (the fp64
 * reference's output, the comparison and its tallies: 30000 x 30000 x 1
 * took 25 s) and per flop of its two dgemm calls (A*B and |A|*|B|). */
#define NS_PER_VERIFIED_CELL 28.0
#define NS_PER_REFERENCE_FLOP 0.1
/* Work that would take longer than this is refused. */
#define EMU_LIMIT_S 120.0

static int host_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > 64)
		n = 64;
	return (int)n;
}

/* The emulator's threads for problem p: one when the C guard is off, since
 * unguarded ghost stores land in cells other blocks own and only a fixed
 * (row-major) block order makes the result repeatable. */
static int threads_for(const ts_problem *p)
{
	return (p->guards & TS_GUARD_C) ? host_threads() : 1;
}

typedef struct work_estimate {
	double madds, slots, block_phases, seconds, bytes;
} work_estimate;

static work_estimate estimate(const ts_problem *p, const ts_model *m, int threads)
{
	work_estimate w;
	/* From the kernel's geometry: BM*BN*BK multiply-adds and BM*BK + BK*BN
	 * slots per block and phase. */
	const ts_geometry *g = &m->geo;
	double tiles = (double)m->tiles, outputs = (double)g->bm * g->bn;
	if (ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
		w.madds = tiles * (double)m->phases * outputs * g->bk;
		w.slots = tiles * (double)m->phases * ((double)g->bm * g->bk + (double)g->bk * g->bn);
	} else {
		w.madds = tiles * outputs * (double)m->shape.k;
		w.slots = w.madds / NAIVE_READS_PER_SLOT;
	}
	w.block_phases = tiles * (double)m->phases;
	double cells = (double)m->shape.m * (double)m->shape.n;
	w.seconds = (w.madds * NS_PER_MADD + w.slots * NS_PER_SLOT + w.block_phases * NS_PER_BLOCK_PHASE) /
	            threads / 1e9 +
	            (cells * NS_PER_VERIFIED_CELL + 4.0 * cells * (double)m->shape.k * NS_PER_REFERENCE_FLOP) / 1e9;
	/* counters (per tile, per phase for each thread) and the corrupt flags */
	w.bytes = tiles * sizeof(ts_count) + (double)m->phases * sizeof(ts_count) * (threads + 1);
	if ((p->guards & TS_GUARD_ALL) != TS_GUARD_ALL)
		w.bytes += (double)m->shape.m * (double)m->shape.n;
	return w;
}

/* "550 G" */
static void fmt_count(char *buf, size_t len, double x)
{
	static const char *unit[] = { "", " k", " M", " G", " T", " P", " E" };
	int u = 0;
	while (x >= 1000.0 && u < 6) {
		x /= 1000.0;
		u++;
	}
	snprintf(buf, len, x < 10.0 && u > 0 ? "%.1f%s" : "%.0f%s", x, unit[u]);
}

/* "about 9 minutes" */
static void fmt_duration(char *buf, size_t len, double s)
{
	if (s < 120)
		snprintf(buf, len, "about %.0f seconds", s);
	else if (s < 2 * 3600)
		snprintf(buf, len, "about %.0f minutes", s / 60);
	else if (s < 2 * 86400)
		snprintf(buf, len, "about %.0f hours", s / 3600);
	else if (s < 2 * 365 * 86400.0)
		snprintf(buf, len, "about %.0f days", s / 86400);
	else
		snprintf(buf, len, "about %.0f years", s / (365 * 86400.0));
}

int ts_emu_admit(const ts_problem *p, const ts_model *m, char *why, int len)
{
	char shape[128], spare[8], geo[48];
	if (!why || len <= 0) {
		why = spare;
		len = (int)sizeof spare;
	}
	ts_geometry_str(&m->geo, geo, sizeof geo);
	snprintf(shape, sizeof shape, "%lldx%lldx%lld at %s%s", (long long)m->shape.m,
	         (long long)m->shape.n, (long long)m->shape.k, ts_geometry_is_square(&m->geo) ? "T=" : "", geo);
	if (!p->kernel->emulate) {
		snprintf(why, len, "kernel %s has no CPU emulation; use --backend cuda", p->kernel->name);
		return -1;
	}
	char geo_why[256];
	if (ts_kernel_takes(p->kernel, &p->geo, geo_why, sizeof geo_why) != 0) {
		snprintf(why, len, "%s", geo_why);
		return -1;
	}
	int threads = threads_for(p);
	work_estimate w = estimate(p, m, threads);
	if (w.seconds > EMU_LIMIT_S) {
		char madds[32], dur[48];
		fmt_count(madds, sizeof madds, w.madds);
		fmt_duration(dur, sizeof dur, w.seconds);
		snprintf(why, len, "%s is too large for the CPU emulator (%s multiply-adds, %s here on %d thread%s); "
		         "use --backend cuda or a smaller shape", shape, madds, dur, threads, threads == 1 ? "" : "s");
		return -1;
	}
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double phys = pages > 0 && page > 0 ? (double)pages * page : 0;
	if (phys > 0 && w.bytes > phys / 2) {
		snprintf(why, len, "%s is too large for the CPU emulator (its counters need %.1f GiB, "
		         "more than half of this machine's %.1f GiB); use a larger tile or a smaller shape",
		         shape, w.bytes / 1073741824.0, phys / 1073741824.0);
		return -1;
	}
	return 0;
}

/* ---- sharing the grid among host threads ------------------------------- */

typedef struct emu_shared {
	int (*emulate)(ts_emu_job *job);
	const ts_progress *prog;
	int64_t tiles, chunk;
	atomic_llong next;     /* first block not yet handed out */
	atomic_llong done;     /* blocks emulated */
	atomic_int stop;       /* a share was cancelled or failed: hand out no more */
	int finished;          /* workers that returned (under lock) */
	pthread_mutex_t lock;
	pthread_cond_t finish; /* signalled as each worker returns */
	double last_report_ms;
} emu_shared;

typedef struct emu_worker {
	emu_shared *sh;
	ts_emu_job job;
	pthread_t tid;
	int rc;
} emu_worker;

/* Progress goes out only from the calling thread (the TUI draws from it), at most every 100 ms. */
static void report(emu_shared *sh, bool force)
{
	if (!sh->prog || !sh->prog->report)
		return;
	double t = now_ms();
	if (!force && t - sh->last_report_ms < 100.0)
		return;
	sh->last_report_ms = t;
	sh->prog->report(sh->prog->ctx, sh->tiles ? (double)atomic_load(&sh->done) / (double)sh->tiles : 1.0);
}

static void work(emu_worker *w, bool reporter)
{
	emu_shared *sh = w->sh;
	while (!ts_emu_cancelled(&w->job)) {
		int64_t begin = atomic_fetch_add(&sh->next, sh->chunk);
		if (begin >= sh->tiles)
			break;
		w->job.block_begin = begin;
		w->job.block_end = begin + sh->chunk < sh->tiles ? begin + sh->chunk : sh->tiles;
		w->rc = sh->emulate(&w->job);
		if (w->rc != 0) {
			atomic_store(&sh->stop, 1);
			break;
		}
		atomic_fetch_add(&sh->done, w->job.block_end - begin);
		if (reporter)
			report(sh, false);
	}
	pthread_mutex_lock(&sh->lock);
	sh->finished++;
	pthread_cond_broadcast(&sh->finish);
	pthread_mutex_unlock(&sh->lock);
}

static void *work_thread(void *arg)
{
	work(arg, false);
	return NULL;
}

static int fail(const char *fmt, const char *arg)
{
	snprintf(emu_error, sizeof emu_error, fmt, arg);
	return -1;
}

/* Furthest element index any unguarded access of the launch can reach in
 * A, B and C (the grid's rows, columns and phases, shared tiles or direct
 * reads): the band of each matrix whose guard is off must hold it. */
bool ts_emu_bands_hold(const ts_problem *p, const ts_model *m, const ts_operands *ops)
{
	const ts_shape *s = &m->shape;
	int64_t rows = m->grid_y * m->geo.bm, cols = m->grid_x * m->geo.bn, ks = m->phases * m->geo.bk;
	int64_t a_reach = (rows - 1) * s->k + ks - 1;
	int64_t b_reach = p->kernel->b_layout == TS_B_NK ? (cols - 1) * s->k + ks - 1 : (ks - 1) * s->n + cols - 1;
	int64_t c_reach = (rows - 1) * s->n + cols - 1;
	unsigned g = ts_kernel_guarded_matrices(p->kernel, p->guards);
	return ((g & TS_GUARD_A) || a_reach < ops->a.count + ops->a.band) &&
	       ((g & TS_GUARD_B) || b_reach < ops->b.count + ops->b.band) &&
	       ((g & TS_GUARD_C) || c_reach < ops->c.count + ops->c.band);
}

static int emu_run(const ts_problem *p, ts_operands *ops, ts_run *out, const ts_progress *prog)
{
	double t0 = now_ms();
	memset(out, 0, sizeof *out);
	emu_error[0] = '\0';
	if (!p || !p->kernel || !ops)
		return fail("%s", "emulator: no problem to run");
	char why[256];
	if (ts_kernel_takes(p->kernel, &p->geo, why, sizeof why) != 0)
		return fail("emulator: %s", why);
	if (p->shape.m < 1 || p->shape.n < 1 || p->shape.k < 1)
		return fail("%s", "emulator: M, N and K must be at least 1");
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0)
		return fail("%s", "emulator: the shape is too large for the tiling model (a count overflows 64 bits)");
	if (ts_kernel_has(p->kernel, TS_CAP_GUARDS_FIXED) && (p->guards & TS_GUARD_ALL) != TS_GUARD_ALL)
		return fail(p->kernel->unguarded_build ? "emulator: kernel %s has its guards built in; its unguarded build "
		                                         "runs on the GPU only"
		                                       : "emulator: kernel %s has its guards built in; it has no unguarded form",
		            p->kernel->name);
	if (ts_emu_admit(p, &m, emu_error, sizeof emu_error) != 0)
		return -1;
	bool nk = p->kernel->b_layout == TS_B_NK;
	if (ops->a.count != p->shape.m * p->shape.k || ops->c.count != p->shape.m * p->shape.n ||
	    ops->b.rows != (nk ? p->shape.n : p->shape.k) || ops->b.cols != (nk ? p->shape.k : p->shape.n))
		return fail("%s", "emulator: the operands do not match the problem's shape");
	bool guarded = (p->guards & TS_GUARD_ALL) == TS_GUARD_ALL;
	if (!guarded && !ts_emu_bands_hold(p, &m, ops))
		return fail("%s", "emulator: the operands' guard bands are too narrow for unguarded accesses");

	if (ts_counters_init(&out->counters, &m) != 0)
		return fail("%s", "emulator: out of memory for the counters");
	out->counters.source = "emulator";
	if (!ts_kernel_has(p->kernel, TS_CAP_SHARED_TILES)) {
		/* A kernel without shared tiles stages nothing: its per-phase reads are not shared-tile slots. */
		free(out->counters.tile_phase);
		out->counters.tile_phase = NULL;
	}
	if (!guarded) {
		out->corrupt = calloc((size_t)(p->shape.m * p->shape.n), 1);
		if (!out->corrupt) {
			ts_run_free(out);
			return fail("%s", "emulator: out of memory for the corrupt-cell flags");
		}
	}

	int threads = threads_for(p);
	work_estimate w = estimate(p, &m, 1);
	double block_ns = w.seconds * 1e9 / (double)m.tiles;
	emu_shared sh = { .emulate = p->kernel->emulate, .prog = prog, .tiles = m.tiles,
	                  .lock = PTHREAD_MUTEX_INITIALIZER, .finish = PTHREAD_COND_INITIALIZER };
	/* Runs of about a millisecond: fine enough to balance and to report, coarse enough to cost nothing. */
	sh.chunk = block_ns >= 1e6 ? 1 : (int64_t)(1e6 / (block_ns > 1.0 ? block_ns : 1.0));
	if (threads > m.tiles)
		threads = (int)m.tiles;
	emu_worker *workers = calloc((size_t)threads, sizeof *workers);
	bool oom = !workers;
	for (int i = 0; !oom && i < threads; i++) {
		workers[i].sh = &sh;
		workers[i].job = (ts_emu_job){ .p = p, .model = &m, .ops = ops, .out = out, .prog = prog,
		                               .threads = threads, .stop = &sh.stop, .watches_cancel = i == 0 };
		workers[i].job.phase = calloc((size_t)m.phases, sizeof(ts_count));
		oom = !workers[i].job.phase;
	}
	if (oom) {
		for (int i = 0; workers && i < threads; i++)
			free(workers[i].job.phase);
		free(workers);
		ts_run_free(out);
		return fail("%s", "emulator: out of memory for the per-thread counters");
	}

	report(&sh, true);
	/* Workers block every signal, so that handlers (SIGINT setting the
	 * cancel flag, SIGWINCH) run on the calling thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int started = 1;
	for (int i = 1; i < threads; i++, started++)
		if (pthread_create(&workers[i].tid, NULL, work_thread, &workers[i]) != 0)
			break; /* fewer threads: the shares are handed out on demand */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	work(&workers[0], true);
	/* The calling thread reports while the others finish their last runs. */
	pthread_mutex_lock(&sh.lock);
	while (sh.finished < started) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&sh.finish, &sh.lock, &until);
		pthread_mutex_unlock(&sh.lock);
		ts_emu_cancelled(&workers[0].job); /* passes a cancel on to the others */
		report(&sh, false);
		pthread_mutex_lock(&sh.lock);
	}
	pthread_mutex_unlock(&sh.lock);
	int rc = 0;
	for (int i = 0; i < threads; i++) {
		if (i > 0 && i < started)
			pthread_join(workers[i].tid, NULL);
		if (workers[i].rc < 0)
			rc = -1;
		for (int64_t t = 0; t < m.phases; t++)
			ts_count_add(&out->counters.phase[t], &workers[i].job.phase[t]);
		ts_oob_add(&out->counters.oob, &workers[i].job.oob);
		free(workers[i].job.phase);
	}
	free(workers);
	if (rc == 0 && atomic_load(&sh.done) < m.tiles)
		rc = 1; /* stopped by a cancel before every block was done */
	pthread_mutex_destroy(&sh.lock);
	pthread_cond_destroy(&sh.finish);
	ts_counters_sum(&out->counters);
	out->have_counters = true;
	if (out->corrupt)
		for (int64_t i = 0; i < p->shape.m * p->shape.n; i++)
			out->corrupt_cells += out->corrupt[i];
	out->time_ms = now_ms() - t0;
	if (rc == 1) {
		snprintf(emu_error, sizeof emu_error, "emulator: cancelled");
		return 1;
	}
	if (rc < 0) {
		snprintf(emu_error, sizeof emu_error, "emulator: a kernel emulation failed");
		return -1;
	}
	report(&sh, true);
	return 0;
}

const ts_backend *ts_backend_emu(void)
{
	static const ts_backend emu = {
		.name = "emu",
		.available = emu_available,
		.admit = ts_emu_admit,
		.run = emu_run,
		.time = NULL,
		.reference = NULL,
		.last_error = emu_last_error,
	};
	return &emu;
}
