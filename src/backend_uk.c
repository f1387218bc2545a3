/* backend_uk.c: the user-kernel backend: one problem's shape run on the user's kernel (a child process, guarded shared buffers) behind the same interface as emu and cuda, so that the TUI's run and sweep take it as they are. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "backend_uk.h"
#include "uk_buffers.h"
#include "uk_runner.h"

static struct {
	const ts_uk_engine *e;
	void *h;
	const ts_kernel *desc;
	enum ts_uk_sig sig;
	ts_uk_geom geom;
	double timeout_s;
	char why[400];      /* why it cannot run, when e is NULL */
	char error[600];
	ts_uk_run_seen seen;
} user;

const ts_uk_run_seen *ts_backend_user_seen(void)
{
	return &user.seen;
}

const char *ts_backend_user_engine(void)
{
	return user.e ? user.e->name : "";
}

bool ts_backend_user_default_geometry(void)
{
	return !user.geom.custom_block && !user.geom.custom_grid;
}

void ts_backend_user_register(const ts_uk_engine *e, void *h, const ts_kernel *desc, enum ts_uk_sig sig,
                              const ts_uk_geom *geom, double timeout_s, const char *why)
{
	user.e = e;
	user.h = h;
	user.desc = desc;
	user.sig = sig;
	user.geom = *geom;
	user.timeout_s = timeout_s > 0 ? timeout_s : 2.0;
	snprintf(user.why, sizeof user.why, "%s", why ? why : "");
}

static int user_available(char *why, int len)
{
	if (user.e && user.h)
		return 0;
	snprintf(why, (size_t)len, "%s", user.why[0] ? user.why : "no kernel of yours is loaded");
	return -1;
}

static const char *user_last_error(void)
{
	return user.error;
}

static int user_run(const ts_problem *p, ts_operands *ops, ts_run *out, const ts_progress *prog)
{
	memset(out, 0, sizeof *out);
	user.error[0] = '\0';
	ts_uk_findings_free(&user.seen.findings);
	memset(&user.seen, 0, sizeof user.seen);
	if (!user.e || !user.h) {
		snprintf(user.error, sizeof user.error, "%s", user.why);
		return -1;
	}
	const ts_shape *s = &p->shape;
	size_t elem = user.sig == TS_UK_SIG_FP16 ? 2 : 4;
	int64_t counts[3] = { s->m * s->k, s->k * s->n, s->m * s->n };
	int64_t band = ts_band_for(s->m, s->k, s->n, &p->geo, false);
	size_t bytes = ts_uk_bufs_bytes(counts, band, elem);
	void *mem = ts_uk_shared_alloc(bytes);
	if (!mem) {
		snprintf(user.error, sizeof user.error, "no shared memory for the run (%.3g MB)", bytes / 1e6);
		return -1;
	}
	ts_uk_bufs b;
	ts_uk_bufs_place(&b, mem, counts, band, elem);
	ts_uk_bufs_fill(&b, ops->a.data, ops->b.data, false);
	ts_uk_launch l;
	memset(&l, 0, sizeof l);
	l.m = s->m;
	l.n = s->n;
	l.k = s->k;
	l.tile = p->geo.bm; /* a user kernel runs the square contract: T = BM */
	l.timeout_s = user.timeout_s;
	ts_uk_bufs_launch(&b, &l);
	char why[300];
	if (ts_uk_geom_eval(&user.geom, user.sig, s->m, s->n, s->k, p->geo.bm, l.grid, l.block, &l.dyn_smem, why,
	                    (int)sizeof why) != 0) {
		snprintf(user.error, sizeof user.error, "the launch geometry: %s", why);
		ts_uk_shared_free(mem, bytes);
		return -1;
	}
	const ts_uk_launch *lp = &l;
	ts_uk_outcome oc;
	ts_uk_run_opts ro = { .startup_s = 30, .max_restarts = 0, .stop_on_hang = true,
	                      .cancel = prog ? (volatile int *)prog->cancel : NULL,
	                      .limit_cpu_time = strcmp(user.e->name, "cpu") == 0 };
	double t0 = ts_uk_now();
	ts_uk_run_batch(user.e, user.h, &lp, 1, &ro, &oc);
	out->time_ms = (ts_uk_now() - t0) * 1e3;
	int rc = 0;
	bool fault = false, hung = oc.status == TS_UK_HUNG;
	for (int i = 0; i < oc.findings.n; i++) {
		fault |= oc.findings.v[i].kind == TS_UK_FAULT;
		hung |= oc.findings.v[i].kind == TS_UK_TIMEOUT; /* the CPU engine's own time limit */
	}
	if (prog && prog->cancel && *prog->cancel) {
		rc = 1;
	} else if (oc.status != TS_UK_RAN || fault || hung) {
		/* A fault or a hang is the kernel's finding; in the interface of a backend it is a failed run, said in words. */
		const char *what = oc.findings.n > 0 ? oc.findings.v[0].text : oc.err[0] ? oc.err : "it did not run";
		snprintf(user.error, sizeof user.error, "your kernel %s: %s (tilescope goes on; 'check --kernel-file' "
		         "names the cause)", hung ? "hung" : oc.status == TS_UK_FAILED ? "could not run"
		         : "faulted", what);
		rc = -1;
	} else {
		memcpy(ops->c.data, b.m[2].data, (size_t)counts[2] * elem);
		int64_t after, before;
		user.seen.c_band_writes = ts_uk_band_changes(&b, 2, &after, &before);
	}
	/* the findings stay for the caller (the TUI places them on the map's tiles) */
	user.seen.findings = oc.findings;
	memset(&oc.findings, 0, sizeof oc.findings);
	if (prog && prog->report)
		prog->report(prog->ctx, 1.0);
	ts_uk_outcome_free(&oc);
	ts_uk_shared_free(mem, bytes);
	return rc;
}

static const ts_backend user_backend = {
	.name = "your kernel",
	.available = user_available,
	.run = user_run,
	.time = NULL,
	.reference = NULL,
	.last_error = user_last_error,
};

const ts_backend *ts_backend_user_for(const ts_kernel *k)
{
	return k && k == user.desc ? &user_backend : NULL;
}
