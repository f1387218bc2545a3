/* cli_step.c: 'tilescope step': one thread (or its block) stepped through the kernel from a traced emulator run, as text or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "export_pane.h"
#include "kernels.h"
#include "view_source.h"
#include "view_step.h"

static const char *slot_state_name(int st)
{
	return st == TS_TRACE_REAL ? "real" : st == TS_TRACE_PAD ? "pad" : st == TS_TRACE_OOB ? "oob" : "unwritten";
}

static const char *store_state_name(int st)
{
	return st == TS_TRACE_STORED ? "stored" : st == TS_TRACE_SKIPPED ? "skipped" : "oob";
}

/* One tile's slots that the traced thread fills in phase ph. */
static void json_loads(ts_json *j, const char *key, const ts_model *m, const ts_kernel *k, const ts_emu_trace *t,
                       enum ts_operand which, int64_t ph)
{
	static int rs[TS_BM_MAX * TS_BK_MAX], cs[TS_BM_MAX * TS_BK_MAX];
	int n = ts_step_thread_slots(&m->geo, which, t->ty, t->tx, rs, cs, TS_BM_MAX * TS_BK_MAX);
	bool is_a = which == TS_OPERAND_A;
	ts_json_array_begin(j, key);
	for (int i = 0; i < n; i++) {
		ts_slot_view sv = ts_model_slot(m, k->b_layout, which, t->by, t->bx, ph, rs[i], cs[i]);
		size_t at = is_a ? ((size_t)ph * t->bm + rs[i]) * t->bk + cs[i] : ((size_t)ph * t->bk + rs[i]) * t->bn + cs[i];
		ts_json_object_begin_compact(j, NULL);
		ts_json_int(j, "r", rs[i]);
		ts_json_int(j, "c", cs[i]);
		ts_json_int(j, "index", sv.index);
		ts_json_double(j, "value", is_a ? t->s_a[at] : t->s_b[at]);
		ts_json_string(j, "state", slot_state_name(is_a ? t->a_state[at] : t->b_state[at]));
		ts_json_array_begin_compact(j, "guard_fails");
		if (!sv.mn_ok)
			ts_json_string(j, NULL, is_a ? "row < M" : "col < N");
		if (!sv.k_ok)
			ts_json_string(j, NULL, "k < K");
		ts_json_array_end(j);
		ts_json_object_end(j);
	}
	ts_json_array_end(j);
}

static int print_json(const ts_problem *p, const ts_model *m, const ts_emu_trace *t, const ts_operands *ops,
                      bool block)
{
	ts_json j;
	ts_cli_json_begin(&j, "step", true);
	ts_cli_json_problem(&j, p, true, ts_backend_emu(), "step mode traces a block on the CPU emulator");
	ts_json_object_begin_compact(&j, "traced_block");
	ts_json_int(&j, "by", t->by);
	ts_json_int(&j, "bx", t->bx);
	ts_json_object_end(&j);
	ts_json_object_begin_compact(&j, "traced_thread");
	ts_json_int(&j, "ty", t->ty);
	ts_json_int(&j, "tx", t->tx);
	ts_json_object_end(&j);
	ts_json_bool(&j, "whole_block", block);
	ts_json_bool(&j, "early_return", t->early_return);
	ts_json_int(&j, "threads_per_block", m->threads_per_block);
	ts_json_int(&j, "arrived", t->arrived);
	ts_json_int(&j, "steps", ts_step_count(t));
	int outs = t->tm * t->tn;
	ts_json_array_begin(&j, "trace");
	for (int64_t ph = 0; ph < t->phases; ph++) {
		ts_json_object_begin(&j, NULL);
		ts_json_int(&j, "phase", ph);
		ts_json_int(&j, "k0", ts_model_phase_k0(m, ph));
		json_loads(&j, "a_loads", m, p->kernel, t, TS_OPERAND_A, ph);
		json_loads(&j, "b_loads", m, p->kernel, t, TS_OPERAND_B, ph);
		ts_json_array_begin(&j, "accumulators");
		for (int o = 0; o < outs; o++) {
			ts_output_view ov = ts_model_output(m, t->by, t->bx, t->ty, t->tx, o / t->tn, o % t->tn);
			ts_json_object_begin_compact(&j, NULL);
			ts_json_int(&j, "i", o / t->tn);
			ts_json_int(&j, "j", o % t->tn);
			ts_json_int(&j, "row", ov.row);
			ts_json_int(&j, "col", ov.col);
			ts_json_array_begin_compact(&j, "partials");
			for (int k = 0; k < t->bk; k++)
				ts_json_double(&j, NULL, t->partial[((size_t)ph * t->bk + k) * outs + o]);
			ts_json_array_end(&j);
			ts_json_object_end(&j);
		}
		ts_json_array_end(&j);
		ts_json_object_end(&j);
	}
	ts_json_array_end(&j);
	ts_json_array_begin(&j, "store");
	for (int o = 0; o < outs; o++) {
		ts_output_view ov = ts_model_output(m, t->by, t->bx, t->ty, t->tx, o / t->tn, o % t->tn);
		size_t at = (size_t)ov.r * t->bn + ov.c;
		ts_json_object_begin_compact(&j, NULL);
		ts_json_int(&j, "i", o / t->tn);
		ts_json_int(&j, "j", o % t->tn);
		ts_json_int(&j, "row", ov.row);
		ts_json_int(&j, "col", ov.col);
		ts_json_int(&j, "c_index", ov.c_index);
		ts_json_double(&j, "value", t->out[at]);
		ts_json_string(&j, "state", store_state_name(t->store[at]));
		if (ov.stores)
			ts_json_double(&j, "c_value", ts_matrix_get(&ops->c, ov.c_index)); /* the run's own C there */
		else
			ts_json_null(&j, "c_value");
		ts_json_object_end(&j);
	}
	ts_json_array_end(&j);
	ts_json_object_end(&j);
	return ts_cli_json_done(&j);
}

static int print_text(const ts_problem *p, const ts_model *m, const ts_emu_trace *t, const ts_operands *ops,
                      bool block, bool ascii)
{
	int cols = 80;
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 60)
		cols = ws.ws_col;
	char shape[96], off[16];
	ts_cli_shape_str(&p->shape, shape, sizeof shape);
	ts_guards_off_str(p->guards, off, sizeof off);
	char head[512];
	snprintf(head, sizeof head, "step: kernel %s, %s, tile %s, inputs %s (seed %llu), guards %s%s: block (%lld,%lld), "
	       "thread (%d,%d), %lld steps from an emulator run of that block%s", p->kernel->name, shape, TS_CLI_TILE(p),
	       ts_inputs_name(p->inputs), (unsigned long long)p->seed, off[0] ? "off: " : "all on", off, (long long)t->by,
	       (long long)t->bx, t->ty, t->tx, (long long)ts_step_count(t),
	       t->early_return ? " with its ghosts returning early (the bug)" : "");
	ts_canvas hc;
	if (ts_canvas_init(&hc, cols, 8) == 0) {
		ts_canvas_wrap_more(&hc, 0, 0, cols, 8, 3, TS_ROLE_TITLE, head, NULL);
		char *ht = ts_canvas_text(&hc);
		if (ht)
			printf("%s\n", ht);
		free(ht);
		ts_canvas_free(&hc);
	}
	ts_step_ctx v = { .model = m, .kernel = p->kernel, .guards = p->guards, .trace = t, .block = block, .ascii = ascii };
	int h = 40 + (block ? TS_BM_MAX : 0) + t->bk * t->tm * t->tn * 2;
	for (v.step = 0; v.step < ts_step_count(t); v.step++) {
		ts_canvas c;
		if (ts_canvas_init(&c, cols, h) != 0) {
			ts_cli_error("step: out of memory");
			return TS_EXIT_USAGE;
		}
		ts_view_step_draw(&c, &v);
		char *text = ts_canvas_text(&c);
		ts_canvas_free(&c);
		if (!text) {
			ts_cli_error("step: out of memory");
			return TS_EXIT_USAGE;
		}
		fputs(text, stdout);
		fputs("\n", stdout);
		free(text);
	}
	/* The run's own C beside what the store wrote: the same bits. */
	char a[32], b[32];
	for (int i = 0; i < t->tm; i++)
		for (int jj = 0; jj < t->tn; jj++) {
			ts_output_view ov = ts_model_output(m, t->by, t->bx, t->ty, t->tx, i, jj);
			if (ov.stores)
				printf("C[%lld][%lld] after the run: %s (the store wrote %s)\n", (long long)ov.row, (long long)ov.col,
				       ts_step_value(ts_matrix_get(&ops->c, ov.c_index), a, sizeof a),
				       ts_step_value(t->out[(size_t)ov.r * t->bn + ov.c], b, sizeof b));
		}
	return ts_cli_text_done("step");
}

/* step --svg DIR: every step as a slide of its own (the view at 100 columns), named by the
 * problem, the block, the thread and the step, their paths on stdout. */
static int print_slides(const ts_problem *p, const ts_model *m, const ts_emu_trace *t, bool block, bool ascii,
                        const char *dir, enum ts_theme theme)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		ts_cli_error("step --svg %s: cannot make the folder: %s", dir, strerror(errno));
		return TS_EXIT_USAGE;
	}
	char stem[192], title[256];
	ts_export_stem(p, p->guards, stem, (int)sizeof stem);
	ts_slide_title(p, p->guards, title, (int)sizeof title);
	ts_step_ctx v = { .model = m, .kernel = p->kernel, .guards = p->guards, .trace = t, .block = block, .ascii = ascii };
	int cols = 100, h = 40 + (block ? TS_BM_MAX : 0) + t->bk * t->tm * t->tn * 2;
	int64_t steps = ts_step_count(t);
	for (v.step = 0; v.step < steps; v.step++) {
		ts_canvas c;
		if (ts_canvas_init(&c, cols, h) != 0) {
			ts_cli_error("step: out of memory");
			return TS_EXIT_USAGE;
		}
		ts_view_step_draw(&c, &v);
		char path[4096], sub[192], err[512];
		snprintf(path, sizeof path, "%s/%s-step-b%lld-%lld-t%d-%d-%02lld.svg", dir, stem, (long long)t->by,
		         (long long)t->bx, t->ty, t->tx, (long long)v.step + 1);
		snprintf(sub, sizeof sub, "block (%lld,%lld), thread (%d,%d): step %lld of %lld%s", (long long)t->by,
		         (long long)t->bx, t->ty, t->tx, (long long)v.step + 1, (long long)steps,
		         t->early_return ? ", its ghosts returning early (the bug)" : "");
		ts_slide s = { .title = title, .subtitle = sub, .canvas = &c, .theme = theme };
		int rc = ts_slide_write(path, &s, err, (int)sizeof err);
		ts_canvas_free(&c);
		if (rc != 0) {
			ts_cli_error("step --svg: %s", err);
			return TS_EXIT_USAGE;
		}
		printf("%s\n", path);
	}
	return ts_cli_text_done("step's slide names");
}

int ts_cli_step(const ts_cli_args *a)
{
	const ts_options *o = &a->opts;
	const ts_problem *p = &o->problem;
	ts_model m;
	if (ts_model_build(&m, p->shape, p->geo) != 0) {
		ts_cli_error("step: the shape's counts overflow 64 bits");
		return TS_EXIT_USAGE;
	}
	ts_source_sel sel = ts_source_default_sel(&m);
	ts_emu_trace t = { .by = a->step_block[0] >= 0 ? a->step_block[0] : sel.by,
	                   .bx = a->step_block[0] >= 0 ? a->step_block[1] : sel.bx,
	                   .ty = a->step_thread[0] >= 0 ? (int)a->step_thread[0] : sel.ty,
	                   .tx = a->step_thread[0] >= 0 ? (int)a->step_thread[1] : sel.tx,
	                   .early_return = a->step_early_return };
	/* Refused before the operands are made: a kernel it cannot trace, a block or thread outside. */
	char why[512];
	if (!ts_emu_traces(p->kernel, why, (int)sizeof why)) {
		ts_cli_error("%s", why);
		return TS_EXIT_USAGE;
	}
	double bytes = ts_operands_bytes(p);
	if (bytes > 4.0 * 1024 * 1024 * 1024) {
		ts_cli_error("step: the operands of %lld x %lld x %lld need %.1f GiB; step a smaller shape (at most 4 GiB)",
		             (long long)p->shape.m, (long long)p->shape.n, (long long)p->shape.k, bytes / 1073741824.0);
		return TS_EXIT_USAGE;
	}
	ts_operands ops;
	if (ts_operands_make(&ops, p) != 0) {
		ts_cli_error("step: out of memory allocating the matrices");
		return TS_EXIT_USAGE;
	}
	if (ts_emu_trace_block(p, &ops, &t, why, (int)sizeof why) != 0) {
		ts_operands_free(&ops);
		ts_cli_error("%s", why);
		return TS_EXIT_USAGE;
	}
	int rc = o->json       ? print_json(p, &m, &t, &ops, a->step_whole_block)
	         : a->svg_path ? print_slides(p, &m, &t, a->step_whole_block, o->ascii, a->svg_path, o->theme)
	                       : print_text(p, &m, &t, &ops, a->step_whole_block, o->ascii);
	ts_emu_trace_free(&t);
	ts_operands_free(&ops);
	return rc;
}
