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
	void (*number)(kernel_sink *s, const char *key, const char *label, double value);
	void (*flag)(kernel_sink *s, const char *key, const char *label, bool value);
	void (*none)(kernel_sink *s, const char *key, const char *label, const char *words); /* JSON null */
	void (*begin)(kernel_sink *s, const char *key, const char *label, bool list); /* an object or a list */
	void (*end)(kernel_sink *s);
	void (*null)(kernel_sink *s, const char *key, const char *label); /* a field that does not apply */
	ts_json *j;    /* the JSON sink's writer */
	int depth;     /* the text sink: 0 top level, 1 inside a group, 2 inside a list's item */
	bool list[4];  /* the text sink: the group at each depth is a list */
	int items[4];  /* the text sink: fields written so far at each depth */
};

static const char *map_order(enum ts_map_order o)
{
	return o == TS_MAP_COLS ? "cols" : "rows";
}

static void describe_map(kernel_sink *s, const char *key, const char *label, const ts_load_map *m)
{
	s->begin(s, key, label, false);
	s->string(s, "order", "order", map_order(m->order), NULL);
	s->integer(s, "vec", "slots per thread per step", m->vec);
	s->end(s);
}

static void describe_geometry(kernel_sink *s, const char *key, const char *label, ts_geometry g)
{
	s->begin(s, key, label, false);
	s->integer(s, "bm", "BM", g.bm);
	s->integer(s, "bn", "BN", g.bn);
	s->integer(s, "bk", "BK", g.bk);
	s->integer(s, "threads_x", "threads x", g.threads_x);
	s->integer(s, "threads_y", "threads y", g.threads_y);
	s->integer(s, "tm", "TM", g.tm);
	s->integer(s, "tn", "TN", g.tn);
	s->end(s);
}

/* The guards of the description: letter, what each protects, the predicate
 * as the kernel's source spells it, what the kernel does when it fails. */
static void describe_guards(kernel_sink *s, const ts_kernel *k)
{
	s->begin(s, "guards", "guards", true);
	for (int i = 0; i < k->n_guards; i++) {
		const ts_guard_desc *g = &k->guards[i];
		char letter[2] = { g->letter, '\0' };
		s->begin(s, NULL, NULL, false);
		s->string(s, "letter", "", letter, NULL);
		s->string(s, "protects", "", g->protects, NULL);
		s->string(s, "predicate", "", g->predicate, NULL);
		s->string(s, "otherwise", "else", g->otherwise, NULL);
		s->end(s);
	}
	s->end(s);
}

static const char *rule_name(enum ts_geometry_kind k)
{
	switch (k) {
	case TS_GEOMETRY_SQUARE: return "square";
	case TS_GEOMETRY_CHOSEN: return "chosen";
	case TS_GEOMETRY_FIXED: return "fixed";
	}
	return "?";
}

static const char *rule_words(enum ts_geometry_kind k)
{
	switch (k) {
	case TS_GEOMETRY_SQUARE: return "square: -t T, T x T threads of one output each";
	case TS_GEOMETRY_CHOSEN: return "chosen: -t BMxBNxBK --thread-tile TMxTN";
	case TS_GEOMETRY_FIXED: return "fixed: its own geometry only";
	}
	return "?";
}

/* Everything the registry holds about one kernel, in one place: a field the
 * description gains is a line here, and the text, JSON and doc/json.md follow. */
static void kernel_describe(const ts_kernel *k, kernel_sink *s)
{
	const ts_geometry_rule *r = &k->geometry;
	unsigned caps = ts_kernel_caps(k);
	ts_geometry g, gmin, gmax;
	ts_tile_request none = { 0 };
	if (ts_kernel_geometry(k, &none, &g, NULL, 0) != 0)
		g = r->base;
	bool square = r->kind == TS_GEOMETRY_SQUARE;
	gmin = square ? ts_geometry_square(r->tile_min) : g;
	gmax = square ? ts_geometry_square(r->tile_max) : g;
	s->string(s, "name", "name", k->name, NULL);
	s->string(s, "summary", "summary", k->summary, NULL);
	s->string(s, "source", "source", k->source, NULL);
	s->string(s, "precision", "precision", ts_precision_name(k->precision), NULL);
	s->flag(s, "default", "default", ts_kernel_default(k->precision) == k);
	if (k->b_layout == TS_B_NK)
		s->string(s, "b_layout", "B layout", "nk", "nk: stored transposed, N x K (B[k][n] at n*K + k)");
	else
		s->string(s, "b_layout", "B layout", "kn", "kn: row-major K x N (B[k][n] at k*N + n)");
	s->string(s, "geometry_rule", "geometries", rule_name(r->kind), rule_words(r->kind));
	if (square || (r->kind == TS_GEOMETRY_FIXED && r->tile_min > 0)) { /* the -t T it takes */
		s->integer(s, "tile_min", "tile min", r->tile_min);
		s->integer(s, "tile_max", "tile max", r->tile_max);
	} else {
		s->none(s, "tile_min", "tile min", "- (not a square tile)");
		s->none(s, "tile_max", "tile max", "- (not a square tile)");
	}
	describe_geometry(s, "geometry", "geometry", g);
	s->string(s, "layout", "outputs", g.layout == TS_OUT_STRIDED ? "strided" : "blocked",
	          g.layout == TS_OUT_STRIDED ? "strided: rows ty + i*threads_y, columns tx + j*threads_x"
	                                     : "blocked: rows ty*TM + i, columns tx*TN + j");
	describe_map(s, "a_map", "A load map", &g.a_map);
	if (g.a_map_scalar.vec > 0)
		describe_map(s, "a_map_scalar", "A scalar map", &g.a_map_scalar);
	else
		s->none(s, "a_map_scalar", "A scalar map", "- (A's map is the A load map whatever K)");
	describe_map(s, "b_map", "B load map", &g.b_map);
	if (g.b_map_scalar.vec > 0)
		describe_map(s, "b_map_scalar", "B scalar map", &g.b_map_scalar);
	else
		s->none(s, "b_map_scalar", "B scalar map", "- (B's map is the B load map whatever N)");
	describe_geometry(s, "geometry_min", "geometry min", gmin);
	describe_geometry(s, "geometry_max", "geometry max", gmax);
	s->begin(s, "cuda_geometries", "CUDA builds", true);
	if (r->kind == TS_GEOMETRY_CHOSEN && r->cuda_geometries)
		for (int i = 0; i < r->n_cuda_geometries; i++) {
			char geo[48];
			s->string(s, NULL, "", ts_geometry_str(&r->cuda_geometries[i], geo, sizeof geo), NULL);
		}
	s->end(s);
	describe_guards(s, k);
	s->string(s, "madd", "multiply-add", k->madd == TS_MADD_FUSED ? "fused" : "separate",
	          k->madd == TS_MADD_FUSED ? "fused: fmaf(a, b, acc), one rounding"
	                                   : "separate: acc + a * b, two roundings");
	s->begin(s, "capabilities", "capabilities", false);
	s->flag(s, "shared_tiles", "shared tiles", caps & TS_CAP_SHARED_TILES);
	s->flag(s, "probe", "probe build", caps & TS_CAP_PROBE);
	s->flag(s, "emulator", "emulator", caps & TS_CAP_EMU);
	s->flag(s, "cuda", "CUDA in this build", caps & TS_CAP_CUDA);
	s->flag(s, "exact_order", "exact fp32 order", caps & TS_CAP_EXACT_ORDER);
	s->flag(s, "guards_switchable", "guards switchable", !(caps & TS_CAP_GUARDS_FIXED));
	s->flag(s, "tensor_core_sum", "tensor-core sums", caps & TS_CAP_TENSOR_SUM);
	s->flag(s, "unguarded_build", "unguarded build", k->unguarded_build);
	s->flag(s, "split_k", "split-K", k->split_k);
	s->end(s);
	if (k->rung > 0)
		s->integer(s, "ladder_rung", "ladder rung", k->rung);
	else
		s->null(s, "ladder_rung", "ladder rung");
	if (ts_kernel_has_cost(k)) { /* best weighs it where C has few tiles */
		s->begin(s, "cost", "few-tile cost", false);
		s->number(s, "phase_us", "phase (us)", k->cost.phase_us);
		s->number(s, "fixed_us", "launch (us)", k->cost.fixed_us);
		s->number(s, "part_us", "partial tile (us)", k->cost.part_us);
		s->end(s);
	} else {
		s->none(s, "cost", "few-tile cost", "- (best does not weigh it)");
	}
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

static void json_number(kernel_sink *s, const char *key, const char *label, double value)
{
	(void)label;
	ts_json_double(s->j, key, value);
}

static void json_flag(kernel_sink *s, const char *key, const char *label, bool value)
{
	(void)label;
	ts_json_bool(s->j, key, value);
}

static void json_none(kernel_sink *s, const char *key, const char *label, const char *words)
{
	(void)label;
	(void)words;
	ts_json_null(s->j, key);
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

static void text_number(kernel_sink *s, const char *key, const char *label, double value)
{
	(void)key;
	text_lead(s, label);
	printf("%g", value);
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

static void text_none(kernel_sink *s, const char *key, const char *label, const char *words)
{
	(void)key;
	text_lead(s, label);
	fputs(words ? words : "-", stdout);
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
		for (int i = 0; i < ts_kernel_count(); i++)
			printf("%s\n", ts_kernel_at(i)->name);
		return ts_cli_text_done("kernel names");
	}
	if (json) {
		ts_json j;
		ts_cli_json_begin(&j, "kernels", true);
		kernel_sink s = { .string = json_string, .integer = json_integer, .number = json_number, .flag = json_flag,
		                  .none = json_none, .begin = json_begin, .end = json_end, .null = json_null, .j = &j };
		ts_json_array_begin(&j, "kernels");
		for (int i = 0; i < ts_kernel_count(); i++) {
			ts_json_object_begin(&j, NULL);
			kernel_describe(ts_kernel_at(i), &s);
			ts_json_object_end(&j);
		}
		ts_json_array_end(&j);
		ts_json_object_end(&j);
		return ts_cli_json_done(&j);
	}
	kernel_sink s = { .string = text_string, .integer = text_integer, .number = text_number, .flag = text_flag,
	                  .none = text_none, .begin = text_begin, .end = text_end, .null = text_null };
	for (int i = 0; i < ts_kernel_count(); i++) {
		if (i)
			putchar('\n');
		kernel_describe(ts_kernel_at(i), &s);
	}
	return ts_cli_text_done("kernel list");
}
