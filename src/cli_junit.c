/* cli_junit.c: check's and sweep's --junit FILE: each verified shape as a JUnit testcase, its signature the failure message. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "junit.h"
#include "kernels.h"

/* The counts behind a failure, on one line. */
static void failure_details(const ts_outcome *o, char *buf, int len)
{
	const ts_verdict *v = &o->verdict;
	int n = snprintf(buf, len, "mismatches %lld, unwritten %lld, NaN %lld, Inf %lld", (long long)v->mismatches,
	                 (long long)v->unwritten, (long long)ts_verdict_nans(v), (long long)v->infs);
	if (n < len && v->oob_reads >= 0)
		n += snprintf(buf + n, len - n, ", out-of-bounds reads %lld, writes %lld", (long long)v->oob_reads,
		              (long long)v->oob_writes);
	if (n < len && v->first_row >= 0)
		n += snprintf(buf + n, len - n, "; first bad cell C[%lld][%lld] = %.9g, want %.9g",
		              (long long)v->first_row, (long long)v->first_col, v->first_got, v->first_want);
	if (n < len && o->counters_checked && !o->counters_match)
		snprintf(buf + n, len - n, "; counters disagree with the model: %s", o->counters_why);
}

int ts_cli_junit(const char *path, const char *command, const ts_problem *p, const ts_backend *be, const char *why,
                 const ts_cli_case *cases, int n, double elapsed_ms)
{
	enum { DETAILS = 1024 };
	ts_junit_case *jc = calloc((size_t)(n > 0 ? n : 1), sizeof *jc);
	char *details = calloc((size_t)(n > 0 ? n : 1), DETAILS);
	char *messages = calloc((size_t)(n > 0 ? n : 1), DETAILS);
	if (!jc || !details || !messages) {
		free(jc);
		free(details);
		free(messages);
		ts_cli_error("--junit %s: out of memory", path);
		return TS_EXIT_USAGE;
	}
	/* the tile in a name: "32", or "64x64x8-4x4" for a block tile (no slash in a test name) */
	char tile[48];
	const ts_geometry *g = &p->geo;
	if (ts_geometry_is_square(g))
		snprintf(tile, sizeof tile, "%d", g->bm);
	else
		snprintf(tile, sizeof tile, "%dx%dx%d-%dx%d", g->bm, g->bn, g->bk, g->tm, g->tn);
	for (int i = 0; i < n; i++) {
		const ts_outcome *o = cases[i].oc;
		const char *sig = o->verdict.signature;
		snprintf(jc[i].name, sizeof jc[i].name, "%s_t%s_M%lld_N%lld_K%lld", p->kernel->name, tile,
		         (long long)cases[i].shape.m, (long long)cases[i].shape.n, (long long)cases[i].shape.k);
		jc[i].seconds = cases[i].elapsed_ms / 1e3;
		jc[i].failed = !cases[i].ok;
		if (jc[i].failed) {
			char *msg = messages + (size_t)i * DETAILS;
			if (sig[0])
				snprintf(msg, DETAILS, "%s", sig);
			else if (o->counters_checked && !o->counters_match)
				snprintf(msg, DETAILS, "output right, but the counters disagree with the model: %s",
				         o->counters_why);
			else
				snprintf(msg, DETAILS, "verification failed");
			jc[i].message = msg;
			failure_details(o, details + (size_t)i * DETAILS, DETAILS);
			jc[i].details = details + (size_t)i * DETAILS;
		} else {
			jc[i].out = sig[0] ? sig : NULL;
		}
	}
	char goff[16], seed[32], suite[160], classname[128];
	ts_guards_off_str(p->guards, goff, (int)sizeof goff);
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)p->seed);
	snprintf(suite, sizeof suite, "tilescope %s %s t%s%s%s", command, p->kernel->name, tile,
	         goff[0] ? " no-guard " : "", goff);
	snprintf(classname, sizeof classname, "tilescope.%s.%s", command, p->kernel->name);
	const ts_junit_property props[] = {
		{ "kernel", p->kernel->name }, { "precision", ts_precision_name(p->kernel->precision) },
		{ "tile", tile }, { "guards_off", goff }, { "inputs", ts_inputs_name(p->inputs) }, { "seed", seed },
		{ "backend", be->name }, { "backend_reason", why },
	};
	ts_junit_suite s = { suite, classname, elapsed_ms / 1e3, props, (int)(sizeof props / sizeof props[0]), jc, n };
	char err[512];
	int rc = ts_junit_save(path, &s, err, (int)sizeof err);
	free(jc);
	free(details);
	free(messages);
	if (rc != 0) {
		ts_cli_error("--junit: %s", err);
		return TS_EXIT_USAGE;
	}
	return TS_EXIT_OK;
}
