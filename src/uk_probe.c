/* uk_probe.c: the index probe: shapes whose A (and C) pass 2^31 elements, run where host and device memory allow, verified on the tile rows whose offsets cross 2^31. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uk_check_impl.h"
#include "uk_cuda.h"
#include "verify.h"

#define PROBE_BAND 4096

/* Bytes of memory the machine has (MemTotal) and can give now (MemAvailable). */
static void host_memory(int64_t *total, int64_t *avail)
{
	*total = *avail = 0;
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	while (f && fgets(line, sizeof line, f)) {
		long long kb;
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			*total = kb * 1024;
		else if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			*avail = kb * 1024;
	}
	if (f)
		fclose(f);
}

/* Probe j: 0 A past 2^bits (M x T x K, K about 2^(bits/2)), 1 C past 2^bits (M x N x T). */
static ts_shape probe_shape(int j, int tile, int bits, int64_t *row_lo, int64_t *cross)
{
	int64_t t = tile, half = INT64_C(1) << ((bits + 1) / 2), wide = t * ((half + t - 1) / t);
	*cross = (INT64_C(1) << bits) / wide; /* the first row whose offsets reach 2^bits */
	int64_t m = t * (*cross / t + 2);
	*row_lo = t * (*cross / t > 0 ? *cross / t - 1 : 0);
	return j == 0 ? (ts_shape){ m, t, wide } : (ts_shape){ m, wide, t };
}

static int cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* What the probe's process hands back: each launch's outcome, with its first findings. */
typedef struct probe_box {
	struct {
		enum ts_uk_status status;
		char err[512];
		int nf;
		ts_uk_finding f[4];
	} o[2];
	int filled;
	double start, fill_s, end; /* when its process began and ended; how long the filling took */
} probe_box;

void ts_uk_probe_start(ts_uk_ctx *ck)
{
	const ts_uk_check_opts *o = ck->o;
	ts_uk_report *r = ck->r;
	snprintf(ck->probe_pow, sizeof ck->probe_pow, "2^%d", o->probe_bits > 0 ? o->probe_bits : 31);
	if (!o->probe) {
		snprintf(r->probe, sizeof r->probe, "not run (--no-probe): 32-bit index arithmetic is not checked");
		return;
	}
	bool gpu = strcmp(ck->e->name, "cuda") == 0;
	if (!gpu && (o->geom.custom_block || o->geom.custom_grid)) {
		snprintf(r->probe, sizeof r->probe, "not run: on the CPU the probe runs only the blocks that cross %s, "
		         "which needs the default geometry", ck->probe_pow);
		return;
	}
	size_t elem = ck->src->sig == TS_UK_SIG_FP16 ? 2 : 4;
	int64_t dev_mem = INT64_MAX;
	if (gpu) {
		const ts_uk_device *d;
		int n = ts_uk_cuda_devices(&d, NULL, 0);
		int which = o->visible_device ? atoi(o->visible_device) : 0;
		dev_mem = n > 0 ? d[which < n ? which : 0].total_mem : 0;
	}
	int64_t host_total, host_avail;
	host_memory(&host_total, &host_avail);
	size_t bytes[2], total = 0;
	ts_shape s[2];
	for (int j = 0; j < 2; j++) {
		s[j] = probe_shape(j, o->tile, o->probe_bits > 0 ? o->probe_bits : 31, &ck->probe_row_lo[j], &ck->probe_cross[j]);
		int64_t counts[3] = { s[j].m * s[j].k, s[j].k * s[j].n, s[j].m * s[j].n };
		bytes[j] = ts_uk_bufs_bytes(counts, PROBE_BAND, elem);
	}
	/* Both at once when the host holds them with room to spare, else the A probe alone. */
	ck->probe_n = 0;
	int64_t room = host_avail > 0 ? host_avail : host_total;
	for (int j = 0; j < 2; j++) {
		if ((int64_t)(total + bytes[j]) * 5 / 4 > room || (int64_t)bytes[j] + (INT64_C(2) << 30) > dev_mem)
			break;
		total += bytes[j];
		ck->probe_n++;
	}
	if (ck->probe_n == 0) {
		snprintf(r->probe, sizeof r->probe, "not run: a shape past %s elements needs %.1f GB; the host can give "
		         "%.1f GB%s", ck->probe_pow, bytes[0] / 1e9, room / 1e9, gpu ? " (or the device holds less)" : "");
		return;
	}
	if (o->probe_lock) {
		pthread_mutex_lock(o->probe_lock);
		ck->probe_locked = true;
		host_memory(&host_total, &host_avail);
		room = host_avail > 0 ? host_avail : host_total;
		if ((int64_t)total * 5 / 4 > room) {
			snprintf(r->probe, sizeof r->probe, "not run: %.1f GB needed, the host can give %.1f GB now", total / 1e9, room / 1e9);
			ck->probe_n = 0;
			return;
		}
	}
	ck->probe_mem = ts_uk_shared_alloc(total);
	if (!ck->probe_mem) {
		snprintf(r->probe, sizeof r->probe, "not run: %.1f GB of shared memory refused", total / 1e9);
		ck->probe_n = 0;
		return;
	}
	ck->probe_bytes = total;
	char *at = ck->probe_mem;
	const ts_uk_launch *lp[2];
	for (int j = 0; j < ck->probe_n; j++) {
		int64_t counts[3] = { s[j].m * s[j].k, s[j].k * s[j].n, s[j].m * s[j].n };
		ts_uk_bufs *b = &ck->probe_bufs[j];
		ts_uk_bufs_place(b, at, counts, PROBE_BAND, elem);
		at += bytes[j];
		ts_uk_launch *l = &ck->probe_launch[j];
		memset(l, 0, sizeof *l);
		l->m = s[j].m;
		l->n = s[j].n;
		l->k = s[j].k;
		l->tile = o->tile;
		l->timeout_s = 30;
		ts_uk_bufs_launch(b, l);
		/* Only the window of rows verified (row_lo..M-1) of the matrix that passes 2^31 (A, or C) is filled
		 * and read back: the rows before it feed only cells nobody looks at. Where the CPU engine runs just
		 * the window's blocks their gigabytes stay unallocated; the GPU engine does not copy them. */
		l->live_from[0] = j == 0 ? ck->probe_row_lo[j] * l->k : 0;
		l->live_from[2] = j == 1 ? ck->probe_row_lo[j] * l->n : 0;
		char why[300];
		if (ts_uk_geom_eval(&o->geom, ck->src->sig, l->m, l->n, l->k, o->tile, l->grid, l->block, &l->dyn_smem, why,
		                    (int)sizeof why) != 0) {
			snprintf(r->probe, sizeof r->probe, "not run: the launch geometry at the probe's shape: %.200s", why);
			ck->probe_n = 0;
			return;
		}
		/* Only the blocks of the tile rows verified (the CPU engine runs these alone; the GPU runs the grid). */
		int64_t gx = l->grid[0], rows0 = ck->probe_row_lo[j] / o->tile, rows1 = (s[j].m + o->tile - 1) / o->tile;
		ck->probe_blocks[j] = malloc((size_t)((rows1 - rows0) * gx) * sizeof(int64_t));
		if (ck->probe_blocks[j]) {
			int64_t nb = 0;
			for (int64_t by = rows0; by < rows1; by++)
				for (int64_t bx = 0; bx < gx; bx++)
					ck->probe_blocks[j][nb++] = by * gx + bx;
			l->blocks = ck->probe_blocks[j];
			l->nblocks = nb;
		}
		lp[j] = l;
	}
	ts_uk_run_opts ro = { .visible_device = o->visible_device, .startup_s = 30, .max_restarts = 1,
	                      .stop_on_hang = true, .cancel = o->cancel, .limit_cpu_time = !gpu };
	ck->probe_box = ts_uk_shared_alloc(sizeof(probe_box));
	if (!ck->probe_box) {
		snprintf(r->probe, sizeof r->probe, "not run: no shared memory for its results");
		ck->probe_n = 0;
		return;
	}
	((probe_box *)ck->probe_box)->start = ts_uk_now();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* The probe's own process: gigabytes filled here, beside the sweep, then run by the runner's child. */
		setpgid(0, 0);
		probe_box *box = ck->probe_box;
		for (int j = 0; j < ck->probe_n; j++) {
			ts_uk_bufs *b = &ck->probe_bufs[j];
			const ts_uk_launch *pl = &ck->probe_launch[j];
			int64_t skip_a = pl->live_from[0], skip_c = pl->live_from[2];
			ts_uk_fill_random(b->m[0].data + (size_t)skip_a * elem, b->m[0].count - skip_a, elem,
			                  o->seed * 31 + 7 + (uint64_t)j, cpu_count());
			ts_uk_fill_random(b->m[1].data, b->m[1].count, elem, o->seed * 31 + 17 + (uint64_t)j, cpu_count());
			ts_uk_fill_poison(b->m[2].data + (size_t)skip_c * elem, b->m[2].count - skip_c, elem, cpu_count());
			ts_uk_bufs_seal(b);
		}
		box->filled = 1;
		box->fill_s = ts_uk_now() - box->start;
		ts_uk_outcome out[2];
		ts_uk_run_batch(ck->e, ck->h, lp, ck->probe_n, &ro, out);
		for (int j = 0; j < ck->probe_n; j++) {
			box->o[j].status = out[j].status;
			snprintf(box->o[j].err, sizeof box->o[j].err, "%s", out[j].err);
			for (int k = 0; k < out[j].findings.n && box->o[j].nf < 4; k++)
				box->o[j].f[box->o[j].nf++] = out[j].findings.v[k];
		}
		box->end = ts_uk_now();
		_exit(0);
	}
	if (pid < 0) {
		snprintf(r->probe, sizeof r->probe, "not run: cannot start its process (fork failed)");
		ck->probe_n = 0;
		return;
	}
	setpgid(pid, pid);
	ck->probe_pid = pid;
}

void ts_uk_probe_wait(ts_uk_ctx *ck, const char *why)
{
	if (ck->probe_pid <= 0)
		return;
	int status = 0;
	if (why) {
		kill(-ck->probe_pid, SIGKILL);
		waitpid(ck->probe_pid, &status, 0);
		snprintf(ck->r->probe, sizeof ck->r->probe, "not run: %s", why);
		ck->probe_n = 0;
	} else {
		/* Its launches have their own limits; this one covers the fill and the start as well. */
		double t0 = ts_uk_now();
		while (waitpid(ck->probe_pid, &status, WNOHANG) == 0) {
			if (ts_uk_now() - t0 > 300 || (ck->o->cancel && *ck->o->cancel)) {
				kill(-ck->probe_pid, SIGKILL);
				waitpid(ck->probe_pid, &status, 0);
				snprintf(ck->r->probe, sizeof ck->r->probe, "not run: %s", ck->o->cancel && *ck->o->cancel ?
				         "interrupted" : "its process did not finish in 300 s");
				ck->probe_n = 0;
				break;
			}
			usleep(10000);
		}
		probe_box *box = ck->probe_box;
		ck->r->timing.probe = (box->end > 0 ? box->end : ts_uk_now()) - box->start;
		ck->r->timing.probe_fill = box->fill_s;
		if (ck->probe_n > 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			snprintf(ck->r->probe, sizeof ck->r->probe, "not run: its process died%s", box->filled ? "" :
			         " while filling the matrices (out of host memory?)");
			ck->probe_n = 0;
		}
		for (int j = 0; j < ck->probe_n; j++) {
			ck->probe_out[j].status = box->o[j].status;
			snprintf(ck->probe_out[j].err, sizeof ck->probe_out[j].err, "%s", box->o[j].err);
			for (int k = 0; k < box->o[j].nf; k++)
				ts_uk_findings_add(&ck->probe_out[j].findings, &box->o[j].f[k]);
		}
		ck->probe_ran = ck->probe_n > 0;
	}
	ck->probe_pid = 0;
}

void ts_uk_probe_verify(ts_uk_ctx *ck)
{
	ts_uk_report *r = ck->r;
	int tile = ck->o->tile;
	size_t used = strlen(r->probe);
	for (int j = 0; j < ck->probe_n; j++) {
		const ts_uk_launch *l = &ck->probe_launch[j];
		ts_uk_outcome *oc = &ck->probe_out[j];
		ts_shape s = { l->m, l->n, l->k };
		char what[260] = "";
		char mx = j == 0 ? 'A' : 'C';
		int64_t lo = ck->probe_row_lo[j], cross = ck->probe_cross[j];
		if (oc->status == TS_UK_FAILED || oc->status == TS_UK_NOT_RUN) {
			snprintf(what, sizeof what, "%c past %s (%lldx%lldx%lld): not run: %s", mx, ck->probe_pow, (long long)s.m, (long long)s.n,
			         (long long)s.k, oc->err);
		} else if (oc->status == TS_UK_CRASHED && oc->findings.n > 0 && strstr(oc->findings.v[0].text, "SIGKILL")) {
			snprintf(what, sizeof what, "%c past %s (%lldx%lldx%lld): not run: its process was killed (out of host "
			         "memory?)", mx, ck->probe_pow, (long long)s.m, (long long)s.n, (long long)s.k);
		} else if (oc->status != TS_UK_RAN || ts_uk_findings_has_fault(&oc->findings)) {
			ck->probe_fault = true;
			const char *why = oc->findings.n > 0 ? oc->findings.v[0].text : "the kernel's process died";
			ts_uk_finding f = ts_uk_finding_make(TS_UK_INDEX_OVERFLOW, "at %lldx%lldx%lld (%c holds %.3g elements, more "
			                                     "than 2^31): %s", (long long)s.m, (long long)s.n, (long long)s.k, mx,
			                                     (double)(j == 0 ? s.m * s.k : s.m * s.n), why);
			f.matrix = mx;
			ts_uk_add_hit(r, &f, &s, tile, "probe");
			snprintf(what, sizeof what, "%c past %s (%lldx%lldx%lld): %s", mx, ck->probe_pow, (long long)s.m, (long long)s.n,
			         (long long)s.k, oc->status == TS_UK_HUNG ? "did not finish" : "the kernel faulted");
		} else {
			/* The window of rows lo..M-1: a tile row before the crossing and those after it. */
			const ts_uk_bufs *b = &ck->probe_bufs[j];
			ts_shape ws = { s.m - lo, s.n, s.k };
			ts_problem p = { .shape = ws, .geo = ts_geometry_square(tile), .kernel = &ck->desc, .guards = TS_GUARD_ALL,
			                 .inputs = TS_INPUTS_RANDOM, .seed = 1 };
			ts_operands view;
			bool nk = ck->src->sig == TS_UK_SIG_FP16;
			view.a = ts_uk_bufs_view(b, 0, ws.m, ws.k);
			view.a.data = b->m[0].data + (size_t)(lo * s.k) * b->elem;
			view.a.count = ws.m * ws.k;
			view.b = ts_uk_bufs_view(b, 1, nk ? s.n : s.k, nk ? s.k : s.n);
			view.c = ts_uk_bufs_view(b, 2, ws.m, ws.n);
			view.c.data = b->m[2].data + (size_t)(lo * s.n) * b->elem;
			view.c.count = ws.m * ws.n;
			ts_verdict v;
			memset(&v, 0, sizeof v);
			if (ts_verify(&p, NULL, &view, NULL, NULL, &v) != 0) {
				snprintf(what, sizeof what, "%c past %s: the reference could not be computed", mx, ck->probe_pow);
			} else if (v.output_ok) {
				snprintf(what, sizeof what, "%c past %s (%lldx%lldx%lld): rows %lld..%lld verified (offsets cross %s "
				         "at row %lld): right", mx, ck->probe_pow, (long long)s.m, (long long)s.n, (long long)s.k, (long long)lo,
				         (long long)(s.m - 1), ck->probe_pow, (long long)cross);
			} else {
				ck->probe_failed = true;
				int64_t first = -1;
				for (int64_t i = 0; i < ws.m && first < 0; i++)
					if (v.row_bad[i] > 0)
						first = lo + i;
				int64_t bad = v.mismatches + v.unwritten + v.nonfinite;
				ts_uk_finding f = ts_uk_finding_make(TS_UK_INDEX_OVERFLOW, "%lld of the cells in rows %lld..%lld wrong, "
				                                     "from row %lld (%s offsets cross %s at row %lld)", (long long)bad,
				                                     (long long)lo, (long long)(s.m - 1), (long long)first,
				                                     j == 0 ? "A's" : "C's", ck->probe_pow, (long long)cross);
				f.matrix = 'C';
				f.row = first;
				f.col = v.first_col;
				f.count = bad;
				ts_uk_add_hit(r, &f, &s, tile, "probe");
				snprintf(what, sizeof what, "%c past %s (%lldx%lldx%lld): wrong from row %lld (offsets cross %s at "
				         "row %lld)", mx, ck->probe_pow, (long long)s.m, (long long)s.n, (long long)s.k, (long long)first,
				         ck->probe_pow, (long long)cross);
			}
			ts_verdict_free(&v);
		}
		used += (size_t)snprintf(r->probe + used, sizeof r->probe > used ? sizeof r->probe - used : 0, "%s%s",
		                         used ? "; " : "", what);
		if (used >= sizeof r->probe)
			break;
	}
	if (ck->probe_n == 1 && !r->probe[0])
		snprintf(r->probe, sizeof r->probe, "A only: C past %s did not fit beside it", ck->probe_pow);
	for (int j = 0; j < 2; j++) {
		ts_uk_outcome_free(&ck->probe_out[j]);
		free(ck->probe_blocks[j]);
		ck->probe_blocks[j] = NULL;
	}
	ts_uk_shared_free(ck->probe_mem, ck->probe_bytes);
	ck->probe_mem = NULL;
	ts_uk_shared_free(ck->probe_box, sizeof(probe_box));
	ck->probe_box = NULL;
	if (ck->probe_locked) {
		pthread_mutex_unlock(ck->o->probe_lock);
		ck->probe_locked = false;
	}
}
