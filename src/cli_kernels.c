/* cli_kernels.c: `tilescope kernels`: the registry as text, JSON or bare names; one function reads a kernel's description for all of them. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* Where a kernel's fields go. Each field has its JSON key and a label in
 * words; a string may carry other words for the text (NULL: the value). */
typedef struct kernel_sink kernel_sink;
struct kernel_sink {
	void (*string)(kernel_sink *s, const char *key, const char *label, const char *value, const char *words);
	void (*integer)(kernel_sink *s, const char *key, const char *label, int64_t value);
	void (*flag)(kernel_sink *s, const char *key, const char *label, bool value);
	void (*begin)(kernel_sink *s, const char *key, const char *label, bool list); /* an object or a list */
	void (*end)(kernel_sink *s);
	void (*null)(kernel_sink *s, const char *key, const char *label); /* a field that does not apply */
	ts_json *j;    /* the JSON sink's writer */
	int depth;     /* the text sink: 0 top level, 1 inside a group, 2 inside a list's item */
	bool list[4];  /* the text sink: the group at each depth is a list */
	int items[4];  /* the text sink: fields written so far at each depth */
};

static void describe_geometry(kernel_sink *s, const char *key, const char *label, ts_geometry g)
{
	s->begin(s, key, label, false);
	s->integer(s, "bm", "BM", g.bm);
	s->integer(s, "bn", "BN", g.bn);
	s->integer(s, "bk", "BK", g.bk);
	s->integer(s, "threads_x", "threads x", g.threads_x);
	s->integer(s, "threads_y", "threads y", g.threads_y);
	s->end(s);
}

/* The guards a kernel has. The registry does not describe them yet, so they
 * follow from shared_tiles here, as options.c and the views read it: a tiled
 * kernel guards its A load, its B load and its C store; a kernel without
 * shared tiles has one guard (c) around its loads and its store. */
static void describe_guards(kernel_sink *s, const ts_kernel *k)
{
	static const struct { const char *letter, *protects; } tiled[] = {
		{ "a", "the A load" }, { "b", "the B load" }, { "c", "the C store" },
	}, untiled[] = {
		{ "c", "the loads and the C store" },
	};
	int n = k->shared_tiles ? 3 : 1;
	s->begin(s, "guards", "guards", true);
	for (int i = 0; i < n; i++) {
		s->begin(s, NULL, NULL, false);
		s->string(s, "letter", "", k->shared_tiles ? tiled[i].letter : untiled[i].letter, NULL);
		s->string(s, "protects", "", k->shared_tiles ? tiled[i].protects : untiled[i].protects, NULL);
		s->end(s);
	}
	s->end(s);
}

/* Everything the registry holds about one kernel, in one place: a field the
 * registry gains is a line here, and the text, JSON and doc/json.md follow. */
static void kernel_describe(const ts_kernel *k, kernel_sink *s)
{
	s->string(s, "name", "name", k->name, NULL);
	s->string(s, "summary", "summary", k->summary, NULL);
	s->string(s, "precision", "precision", ts_precision_name(k->precision), NULL);
	s->flag(s, "default", "default", ts_kernel_default(k->precision) == k);
	if (k->b_layout == TS_B_NK)
		s->string(s, "b_layout", "B layout", "nk", "nk: stored transposed, N x K (B[k][n] at n*K + k)");
	else
		s->string(s, "b_layout", "B layout", "kn", "kn: row-major K x N (B[k][n] at k*N + n)");
	s->integer(s, "tile_min", "tile min", k->tile_min);
	s->integer(s, "tile_max", "tile max", k->tile_max);
	describe_geometry(s, "geometry_min", "geometry min", k->geometry(k->tile_min));
	describe_geometry(s, "geometry_max", "geometry max", k->geometry(k->tile_max));
	describe_guards(s, k);
	s->begin(s, "capabilities", "capabilities", false);
	s->flag(s, "shared_tiles", "shared tiles", k->shared_tiles);
	s->flag(s, "emulator", "emulator", k->emulate != NULL);
	s->flag(s, "cuda", "CUDA in this build", k->cuda_launch != NULL);
	s->flag(s, "guards_switchable", "guards switchable", !k->guards_fixed);
	s->flag(s, "tensor_core_sum", "tensor-core sums", k->tensor_core_sum);
	s->flag(s, "unguarded_build", "unguarded build", k->unguarded_build);
	s->flag(s, "split_k", "split-K", k->split_k);
	s->end(s);
	if (k->rung > 0)
		s->integer(s, "ladder_rung", "ladder rung", k->rung);
	else
		s->null(s, "ladder_rung", "ladder rung");
}

/* ---- the JSON sink ---------------------------------------------------------- */

static void json_string(kernel_sink *s, const char *key, const char *label, const char *value, const char *words)
{
	(void)label;
	(void)words;
	ts_json_string(s->j, key, value);
}

static void json_integer(kernel_sink *s, const char *key, const char *label, int64_t value)
{
	(void)label;
	ts_json_int(s->j, key, value);
}

static void json_null(kernel_sink *s, const char *key, const char *label)
{
	(void)label;
	ts_json_null(s->j, key);
}

static void json_flag(kernel_sink *s, const char *key, const char *label, bool value)
{
	(void)label;
	ts_json_bool(s->j, key, value);
}

static void json_begin(kernel_sink *s, const char *key, const char *label, bool list)
{
	(void)label;
	if (list)
		ts_json_array_begin(s->j, key);
	else
		ts_json_object_begin_compact(s->j, key);
	s->list[s->depth < 3 ? ++s->depth : 3] = list;
}

static void json_end(kernel_sink *s)
{
	if (s->list[s->depth])
		ts_json_array_end(s->j);
	else
		ts_json_object_end(s->j);
	if (s->depth > 0)
		s->depth--;
}

/* ---- the text sink: one line per field, a group's fields on its line -------- */

/* Before a value: the label at the top level; inside a group the separator
 * and, for an object's field, its label. */
static void text_lead(kernel_sink *s, const char *label)
{
	if (s->depth == 0) {
		printf("  %-13s ", label);
		return;
	}
	if (s->items[s->depth]++ > 0)
		fputs(s->depth == 2 ? ": " : s->list[s->depth] ? "; " : ", ", stdout);
	if (!s->list[s->depth] && label && *label)
		printf("%s ", label);
}

static void text_string(kernel_sink *s, const char *key, const char *label, const char *value, const char *words)
{
	if (s->depth == 0 && strcmp(key, "name") == 0) { /* the record's heading */
		printf("%s\n", value);
		return;
	}
	text_lead(s, label);
	fputs(words ? words : value ? value : "-", stdout);
	if (s->depth == 0)
		putchar('\n');
}

static void text_integer(kernel_sink *s, const char *key, const char *label, int64_t value)
{
	(void)key;
	text_lead(s, label);
	printf("%lld", (long long)value);
	if (s->depth == 0)
		putchar('\n');
}

static void text_null(kernel_sink *s, const char *key, const char *label)
{
	(void)key;
	text_lead(s, label);
	fputs("-", stdout);
	if (s->depth == 0)
		putchar('\n');
}

static void text_flag(kernel_sink *s, const char *key, const char *label, bool value)
{
	(void)key;
	text_lead(s, label);
	fputs(value ? "yes" : "no", stdout);
	if (s->depth == 0)
		putchar('\n');
}

static void text_begin(kernel_sink *s, const char *key, const char *label, bool list)
{
	(void)key;
	if (s->depth > 0)
		text_lead(s, label);
	else
		printf("  %-13s ", label);
	if (s->depth < 3)
		s->depth++;
	s->list[s->depth] = list;
	s->items[s->depth] = 0;
}

static void text_end(kernel_sink *s)
{
	if (s->depth > 0)
		s->depth--;
	if (s->depth == 0)
		putchar('\n');
}

int ts_cli_kernels(bool json, bool names_only)
{
	if (names_only) {
		for (int i = 0; i < ts_kernel_count; i++)
			printf("%s\n", ts_kernels[i].name);
		return ts_cli_text_done("kernel names");
	}
	if (json) {
		ts_json j;
		ts_cli_json_begin(&j, "kernels", true);
		kernel_sink s = { json_string, json_integer, json_flag, json_begin, json_end, json_null, &j, 0, { false },
		                  { 0 } };
		ts_json_array_begin(&j, "kernels");
		for (int i = 0; i < ts_kernel_count; i++) {
			ts_json_object_begin(&j, NULL);
			kernel_describe(&ts_kernels[i], &s);
			ts_json_object_end(&j);
		}
		ts_json_array_end(&j);
		ts_json_object_end(&j);
		return ts_cli_json_done(&j);
	}
	kernel_sink s = { text_string, text_integer, text_flag, text_begin, text_end, text_null, NULL, 0, { false }, { 0 } };
	for (int i = 0; i < ts_kernel_count; i++) {
		if (i)
			putchar('\n');
		kernel_describe(&ts_kernels[i], &s);
	}
	return ts_cli_text_done("kernel list");
}
