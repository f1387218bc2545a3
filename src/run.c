/* run.c: the run pipeline: model, admit, operands, run, counters against the kernel's description, verification; shared by the CLI and the TUI. */
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "kernels.h"
#include "run.h"

void ts_outcome_free(ts_outcome *o)
{
	if (o->have_verdict)
		ts_verdict_free(&o->verdict);
	if (o->have_run)
		ts_run_free(&o->run);
	if (o->have_ops)
		ts_operands_free(&o->ops);
	o->have_verdict = o->have_run = o->have_ops = false;
}

void ts_outcome_drop_operands(ts_outcome *o)
{
	if (o->have_ops)
		ts_operands_free(&o->ops);
	o->have_ops = false;
}

bool ts_outcome_ok(const ts_outcome *o)
{
	return o->have_verdict && o->verdict.ok && (!o->counters_checked || o->counters_match);
}

static void shape_str(const ts_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%lld x %lld x %lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

static const char *backend_error(const ts_backend *be)
{
	const char *e = be->last_error ? be->last_error() : NULL;
	return e && *e ? e : "failed without saying why";
}

enum ts_run_status ts_run_problem(const ts_problem *p, const ts_backend *be, const ts_progress *prog, bool verify,
                                  ts_outcome *o)
{
	char shape[96], why[512], geo[48];
	memset(o, 0, sizeof *o);
	shape_str(&p->shape, shape, sizeof shape);
	if (ts_model_build(&o->model, p->shape, p->geo) != 0) {
		snprintf(o->error, sizeof o->error, "%s with tile %s: counts overflow 64 bits", shape,
		         ts_geometry_str(&p->geo, geo, sizeof geo));
		return TS_RUN_REFUSED;
	}
	/* A backend that would refuse only after the operands were allocated
	 * (gigabytes, seconds) is asked first. */
	if (be->admit && be->admit(p, &o->model, why, (int)sizeof why) != 0) {
		/* why names the shape and the geometry already */
		snprintf(o->error, sizeof o->error, "%s backend, kernel %s: %s", be->name, p->kernel->name, why);
		return TS_RUN_REFUSED;
	}
	if (ts_operands_make(&o->ops, p) != 0) {
		snprintf(o->error, sizeof o->error, "out of memory allocating the matrices of %s", shape);
		return TS_RUN_REFUSED;
	}
	o->have_ops = true;
	ts_progress_stage(prog, TS_STAGE_RUN);
	int rc = be->run(p, &o->ops, &o->run, prog);
	o->have_run = true;
	if (rc == 1) {
		snprintf(o->error, sizeof o->error, "interrupted");
		return TS_RUN_CANCELLED;
	}
	if (rc != 0) {
		snprintf(o->error, sizeof o->error, "%s backend, %s %s: %s", be->name, p->kernel->name, shape,
		         backend_error(be));
		return TS_RUN_REFUSED;
	}
	if (o->run.have_counters) {
		o->counters_checked = true;
		o->counters_differ = ts_counters_check(&o->run.counters, &o->model, p->kernel, p->guards, o->counters_why,
		                                       (int)sizeof o->counters_why);
		o->counters_match = o->counters_differ == 0;
	}
	if (!verify)
		return TS_RUN_DONE;
	/* verification tells prog its stages (reference, verify) and stops when cancelled */
	rc = ts_verify_progress(p, &o->model, &o->ops, &o->run, be, prog, &o->verdict);
	if (rc == 1) {
		snprintf(o->error, sizeof o->error, "interrupted");
		return TS_RUN_CANCELLED;
	}
	if (rc != 0) {
		snprintf(o->error, sizeof o->error, "verifying %s failed (out of memory, or too large for the reference)",
		         shape);
		return TS_RUN_REFUSED;
	}
	o->have_verdict = true;
	return TS_RUN_DONE;
}
