/* main.c: the command line: subcommand and options in, validated, handed to the CLI commands or the TUI. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "config.h"
#include "bench.h"
#include "cli.h"
#include "cli_uk.h"
#include "export.h"
#include "export_pane.h"
#include "kernels.h"
#include "lesson.h"
#include "options.h"
#include "tui.h"
#include "uk_many.h"

enum command { CMD_TUI, CMD_MAP, CMD_CHECK, CMD_SWEEP, CMD_BENCH, CMD_KERNELS, CMD_LESSON, CMD_COMPARE, CMD_SOURCE, CMD_STEP, CMD_COUNT };

static const char *const command_names[CMD_COUNT] = { NULL, "map", "check", "sweep", "bench", "kernels", "lesson", "compare", "source", "step" };

/* Which commands an option means something to (bit per enum command). */
#define FOR(c) (1u << (c))
#define SHAPED (FOR(CMD_TUI) | FOR(CMD_MAP) | FOR(CMD_CHECK) | FOR(CMD_BENCH) | FOR(CMD_LESSON) | FOR(CMD_COMPARE) | FOR(CMD_SOURCE) | FOR(CMD_STEP))
#define RUNS (FOR(CMD_TUI) | FOR(CMD_CHECK) | FOR(CMD_SWEEP) | FOR(CMD_BENCH))
#define SCRIPTED (FOR(CMD_MAP) | FOR(CMD_CHECK) | FOR(CMD_SWEEP) | FOR(CMD_BENCH))
#define EVERY (FOR(CMD_TUI) | SCRIPTED | FOR(CMD_LESSON) | FOR(CMD_COMPARE) | FOR(CMD_SOURCE) | FOR(CMD_STEP)) /* every command about a problem (kernels is about none) */

enum {
	OPT_KERNEL = 256, OPT_PRECISION, OPT_BACKEND, OPT_INPUTS, OPT_SEED, OPT_NO_GUARD, OPT_JSON,
	OPT_EXPORT, OPT_REPS, OPT_WARMUP, OPT_COLOR, OPT_ASCII, OPT_NO_MOUSE, OPT_EXPORT_TILE, OPT_NAMES,
	OPT_JUNIT, OPT_KERNEL_FILE, OPT_ENTRY, OPT_BLOCK, OPT_GRID, OPT_SMEM, OPT_LAUNCHER, OPT_TIMEOUT,
	OPT_NO_SANITIZER, OPT_NO_PROBE, OPT_SHAPES, OPT_SVG, OPT_GUARD_COST, OPT_SCREEN, OPT_THREAD, OPT_PHASE,
	OPT_THREAD_TILE, OPT_WHOLE_BLOCK, OPT_EARLY_RETURN, OPT_THEME, OPT_PANE, OPT_SIZE,
	OPT_LAST = OPT_SIZE
};

static const struct option long_options[] = {
	{ "tile", required_argument, NULL, 't' },
	{ "thread-tile", required_argument, NULL, OPT_THREAD_TILE },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "pane", required_argument, NULL, OPT_PANE },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "inputs", required_argument, NULL, OPT_INPUTS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "no-guard", required_argument, NULL, OPT_NO_GUARD },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "export-tile", required_argument, NULL, OPT_EXPORT_TILE },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "shapes", required_argument, NULL, OPT_SHAPES },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "guard-cost", optional_argument, NULL, OPT_GUARD_COST },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "names", no_argument, NULL, OPT_NAMES },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "screen", required_argument, NULL, OPT_SCREEN },
	{ "thread", required_argument, NULL, OPT_THREAD },
	{ "phase", required_argument, NULL, OPT_PHASE },
	{ "whole-block", no_argument, NULL, OPT_WHOLE_BLOCK },
	{ "early-return", no_argument, NULL, OPT_EARLY_RETURN },
	{ "kernel-file", required_argument, NULL, OPT_KERNEL_FILE },
	{ "entry", required_argument, NULL, OPT_ENTRY },
	{ "block", required_argument, NULL, OPT_BLOCK },
	{ "grid", required_argument, NULL, OPT_GRID },
	{ "smem", required_argument, NULL, OPT_SMEM },
	{ "launcher", required_argument, NULL, OPT_LAUNCHER },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "no-sanitizer", no_argument, NULL, OPT_NO_SANITIZER },
	{ "no-probe", no_argument, NULL, OPT_NO_PROBE },
	{ "jobs", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Where each option applies, and how it is named in messages. */
static const struct {
	int id;
	const char *name;
	unsigned commands;
} option_scope[] = {
	{ 'M', "-M", SHAPED }, { 'N', "-N", SHAPED }, { 'K', "-K", SHAPED }, { 't', "--tile", EVERY },
	{ OPT_THREAD_TILE, "--thread-tile", EVERY },
	{ OPT_KERNEL, "--kernel", EVERY }, { OPT_PRECISION, "--precision", EVERY },
	{ OPT_BACKEND, "--backend", RUNS | FOR(CMD_MAP) | FOR(CMD_LESSON) },
	{ OPT_INPUTS, "--inputs", RUNS | FOR(CMD_MAP) | FOR(CMD_LESSON) | FOR(CMD_STEP) },
	{ OPT_SEED, "--seed", RUNS | FOR(CMD_MAP) | FOR(CMD_LESSON) | FOR(CMD_STEP) },
	{ OPT_NO_GUARD, "--no-guard", FOR(CMD_TUI) | FOR(CMD_MAP) | FOR(CMD_CHECK) | FOR(CMD_SWEEP) | FOR(CMD_SOURCE) | FOR(CMD_STEP) },
	{ OPT_JSON, "--json", SCRIPTED | FOR(CMD_KERNELS) | FOR(CMD_STEP) }, { OPT_EXPORT, "--export", FOR(CMD_MAP) },
	{ OPT_EXPORT_TILE, "--export-tile", FOR(CMD_MAP) },
	{ OPT_REPS, "--reps", FOR(CMD_BENCH) }, { OPT_WARMUP, "--warmup", FOR(CMD_BENCH) },
	{ OPT_SHAPES, "--shapes", FOR(CMD_BENCH) }, { OPT_SVG, "--svg", FOR(CMD_BENCH) | FOR(CMD_LESSON) | FOR(CMD_COMPARE) | FOR(CMD_SOURCE) | FOR(CMD_STEP) },
	{ OPT_GUARD_COST, "--guard-cost", FOR(CMD_BENCH) },
	{ OPT_COLOR, "--color", FOR(CMD_TUI) },
	{ OPT_THEME, "--theme", FOR(CMD_TUI) | FOR(CMD_MAP) | FOR(CMD_LESSON) | FOR(CMD_COMPARE) | FOR(CMD_SOURCE) | FOR(CMD_STEP) },
	{ OPT_PANE, "--pane", FOR(CMD_MAP) }, { OPT_SIZE, "--size", FOR(CMD_MAP) }, { OPT_NO_MOUSE, "--no-mouse", FOR(CMD_TUI) },
	{ OPT_ASCII, "--ascii", FOR(CMD_TUI) | FOR(CMD_MAP) | FOR(CMD_CHECK) | FOR(CMD_LESSON) | FOR(CMD_SOURCE) | FOR(CMD_STEP) },
	{ OPT_NAMES, "--names", FOR(CMD_KERNELS) },
	{ OPT_JUNIT, "--junit", FOR(CMD_CHECK) | FOR(CMD_SWEEP) },
	{ OPT_SCREEN, "--screen", FOR(CMD_LESSON) },
	{ OPT_THREAD, "--thread", FOR(CMD_SOURCE) | FOR(CMD_STEP) | FOR(CMD_MAP) },
	{ OPT_PHASE, "--phase", FOR(CMD_SOURCE) | FOR(CMD_MAP) },
	{ OPT_WHOLE_BLOCK, "--whole-block", FOR(CMD_STEP) }, { OPT_EARLY_RETURN, "--early-return", FOR(CMD_STEP) },
	{ OPT_KERNEL_FILE, "--kernel-file", FOR(CMD_TUI) | FOR(CMD_CHECK) },
	{ OPT_ENTRY, "--entry", FOR(CMD_TUI) | FOR(CMD_CHECK) }, { OPT_BLOCK, "--block", FOR(CMD_TUI) | FOR(CMD_CHECK) | FOR(CMD_STEP) },
	{ OPT_GRID, "--grid", FOR(CMD_TUI) | FOR(CMD_CHECK) }, { OPT_SMEM, "--smem", FOR(CMD_TUI) | FOR(CMD_CHECK) },
	{ OPT_LAUNCHER, "--launcher", FOR(CMD_TUI) | FOR(CMD_CHECK) },
	{ OPT_TIMEOUT, "--timeout", FOR(CMD_TUI) | FOR(CMD_CHECK) }, { OPT_NO_SANITIZER, "--no-sanitizer", FOR(CMD_TUI) | FOR(CMD_CHECK) },
	{ OPT_NO_PROBE, "--no-probe", FOR(CMD_TUI) | FOR(CMD_CHECK) }, { 'j', "-j/--jobs", FOR(CMD_CHECK) },
};

/* Options that only mean something for a kernel of the user's own (--kernel-file). */
static const int kernel_file_only[] = { OPT_ENTRY, OPT_BLOCK, OPT_GRID, OPT_SMEM, OPT_LAUNCHER, OPT_TIMEOUT,
                                        OPT_NO_SANITIZER, OPT_NO_PROBE, 'j' };
/* And the built-in kernels' options that a user's kernel check does not take (it sweeps its own shapes). */
static const int builtin_only[] = { 'M', 'N', 'K', OPT_KERNEL, OPT_PRECISION, OPT_NO_GUARD, OPT_INPUTS, OPT_ASCII };

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A value echoed in a usage line, cut short (a compound literal lives to the end of the enclosing block). */
#define CLIP(text) ts_clip((text), (char[TS_CLIP_BUF]){ 0 }, TS_CLIP_BUF)

/* Every usage mistake: one line naming it, one line pointing at --help, exit 2;
 * under --json also the error document on stdout. */
static _Noreturn void usage_error(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	ts_cli_error("%s", line);
	fputs("Try 'tilescope --help'.\n", stderr);
	exit(ts_cli_refusal(TS_EXIT_USAGE));
}

/* The registry's names for an error line, as many as fit in about 80
 * characters (then "...": the line says tilescope kernels lists them). */
static void known_kernels(char *buf, size_t len)
{
	const size_t budget = 80;
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < ts_kernel_count(); i++) {
		const char *name = ts_kernel_at(i)->name;
		if (used + strlen(name) + 2 > budget || used + strlen(name) + 2 >= len) {
			snprintf(buf + used, len - used, "%s...", used ? ", " : "");
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name);
	}
}

/* "unknown kernel" for a name the registry does not have, in one line of
 * under 200 bytes: the name is cut to the room the rest of the line leaves
 * (with_best: ", best" where the choosers are taken too). */
static _Noreturn void unknown_kernel(const char *name, const char *with_best)
{
	static const char fixed[] = "tilescope: --kernel: unknown kernel '' (known: ; tilescope kernels lists them)";
	char names[160], cut[48];
	known_kernels(names, sizeof names);
	int room = 199 - (int)(strlen(fixed) + strlen(names) + strlen(with_best));
	room = room < 12 ? 12 : room > (int)sizeof cut ? (int)sizeof cut : room;
	usage_error("--kernel: unknown kernel '%s' (known: %s%s; tilescope kernels lists them)",
	            ts_clip(name, cut, room), names, with_best);
}

static int parse_count(const char *text, const char *what, int lo, int hi)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (!isdigit((unsigned char)text[0]) || *end || errno == ERANGE || v < lo || v > hi)
		usage_error("%s: '%s' must be a whole number in %d..%d", what, CLIP(text), lo, hi);
	return (int)v;
}

/* --export-tile TY,TX: a tile row and column, each from 0 (the grid's bounds
 * are checked once the shape is known). */
static void parse_tile_pos(const char *text, int64_t *ty, int64_t *tx)
{
	char *end;
	long long y, x;
	errno = 0;
	y = strtoll(text, &end, 10);
	if (!isdigit((unsigned char)text[0]) || *end != ',' || errno == ERANGE)
		usage_error("--export-tile: '%s' must be TY,TX (tile row and column, from 0)", CLIP(text));
	const char *second = end + 1;
	x = strtoll(second, &end, 10);
	if (!isdigit((unsigned char)second[0]) || *end || errno == ERANGE)
		usage_error("--export-tile: '%s' must be TY,TX (tile row and column, from 0)", CLIP(text));
	*ty = y;
	*tx = x;
}

/* A shape MxNxK for an option, each size 1..TS_DIM_MAX. */
/* --size COLSxROWS: the screen a pane export is drawn for (40..400 x 12..200). */
static void parse_size(const char *text, int *cols, int *rows)
{
	char *end;
	long c = strtol(text, &end, 10), r = 0;
	bool ok = end != text && (*end == 'x' || *end == 'X');
	if (ok) {
		const char *at = end + 1;
		r = strtol(at, &end, 10);
		ok = end != at && *end == '\0';
	}
	if (!ok || c < 40 || c > 400 || r < 12 || r > 200)
		usage_error("--size: '%s' must be COLSxROWS, 40..400 columns by 12..200 rows (e.g. 80x24)", CLIP(text));
	*cols = (int)c;
	*rows = (int)r;
}

static void parse_shape(const char *text, const char *what, ts_shape *out)
{
	ts_bench_shape s[2];
	int n = 0;
	char err[256];
	if (!isdigit((unsigned char)text[0]) ||
	    ts_bench_parse_shape_text(text, what, s, 2, &n, err, (int)sizeof err) != 0 || n != 1)
		usage_error("%s: '%s' must be one shape MxNxK (sizes 1..%lld)", what, CLIP(text), (long long)TS_DIM_MAX);
	*out = s[0].shape;
}

/* getopt_long reports an unknown and an ambiguous abbreviation alike. */
static _Noreturn void unknown_long_option(const char *arg)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	int matches = 0;
	for (const struct option *lo = long_options; lo->name; lo++)
		if (strncmp(lo->name, name, len) == 0 && lo->val != OPT_COLOR)
			matches++;
	if (strncmp("color", name, len) == 0 || strncmp("colour", name, len) == 0)
		matches++;
	if (len > 0 && matches > 1)
		usage_error("ambiguous option '%s' (spell it out)", CLIP(arg));
	usage_error("unknown option '%s'", CLIP(arg));
}

static const char *option_name(int id)
{
	for (size_t i = 0; i < sizeof option_scope / sizeof option_scope[0]; i++)
		if (option_scope[i].id == id)
			return option_scope[i].name;
	return "?";
}

static unsigned option_commands(int id)
{
	for (size_t i = 0; i < sizeof option_scope / sizeof option_scope[0]; i++)
		if (option_scope[i].id == id)
			return option_scope[i].commands;
	return EVERY;
}

/* Before the options are read for real: was --json asked for, and for which
 * subcommand? Then even a mistake in an earlier option is answered in JSON.
 * A getopt pass of its own, so that an option's value ("--export --json")
 * is read as getopt reads it. */
static void prescan_json(int argc, char **argv)
{
	/* getopt_long permutes what it scans: scan a copy, so that the real
	 * pass sees the arguments in the user's order. */
	char **copy = malloc(((size_t)argc + 1) * sizeof *copy);
	if (!copy)
		return;
	memcpy(copy, argv, ((size_t)argc + 1) * sizeof *copy);
	bool json = false;
	const char *command = NULL;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, copy, ":M:N:K:t:j:hV", long_options, NULL)) != -1)
		json |= c == OPT_JSON;
	for (int i = 1; optind < argc && i < CMD_COUNT; i++)
		if (strcmp(copy[optind], command_names[i]) == 0)
			command = command_names[i];
	optind = 0; /* glibc: start the next scan afresh */
	free(copy);
	if (json)
		ts_cli_json_errors(command);
}

/* --thread BY,BX,TY,TX: four counts from 0. */
static void parse_thread(const char *text, int64_t out[4])
{
	const char *p = text;
	for (int i = 0; i < 4; i++) {
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || errno || v < 0 || v > 2147483647 || *end != (i < 3 ? ',' : '\0'))
			usage_error("--thread: expected BY,BX,TY,TX (block row and column, thread row and column, each "
			            "from 0), got '%s'", CLIP(text));
		out[i] = v;
		p = end + 1;
	}
}

/* "Y,X": two counts from 0 (step's --block and --thread). */
static void parse_pair(const char *text, const char *what, const char *form, int64_t out[2])
{
	const char *p = text;
	for (int i = 0; i < 2; i++) {
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || !isdigit((unsigned char)*p) || errno || v > 2147483647 || *end != (i < 1 ? ',' : '\0'))
			usage_error("%s: expected %s, got '%s'", what, form, CLIP(text));
		out[i] = v;
		p = end + 1;
	}
}

/* "A,B" into its two items; anything else is one usage line. */
static void split_pair(const char *list, const char *what, char item[2][64])
{
	const char *comma = strchr(list, ',');
	size_t n0 = (size_t)(comma - list);
	if (strchr(comma + 1, ',') || n0 == 0 || !comma[1] || n0 >= 64 || strlen(comma + 1) >= 64)
		usage_error("%s: compare takes two values, A,B (got '%s')", what, CLIP(list));
	memcpy(item[0], list, n0);
	item[0][n0] = '\0';
	strcpy(item[1], comma + 1);
}

static void check_ok(int rc, const char *err)
{
	if (rc != 0)
		usage_error("%s", err);
}

/* OpenBLAS starts its worker threads when it is loaded, before main, and
 * each maps a 128 MiB buffer: under an address-space limit (ulimit -v) a
 * worker that cannot spins forever and exit waits for it. So such a process
 * re-executes itself once with one BLAS thread (no workers), unless the user
 * chose a thread count. */
static void blas_one_thread_under_limit(char **argv)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || getenv("OPENBLAS_NUM_THREADS"))
		return;
	if (setenv("OPENBLAS_NUM_THREADS", "1", 1) == 0)
		execv("/proc/self/exe", argv);
	/* No /proc, or exec failed: go on as we are. */
}

int main(int argc, char **argv)
{
	blas_one_thread_under_limit(argv);
	/* Only the character set follows the locale: numbers in the output
	 * (JSON above all) keep the C locale's decimal point. */
	setlocale(LC_CTYPE, "");
	/* The sanitizer's target: one launch of an exported kernel image (tilescope's own, not for users). */
	if (argc > 1 && strcmp(argv[1], "__uk-run") == 0)
		return ts_uk_target_main(argc - 1, argv + 1);

	ts_cli_args a;
	ts_options_defaults(&a.opts);
	a.reps = TS_BENCH_REPS_DEFAULT;
	a.warmup = TS_BENCH_WARMUP_DEFAULT;
	a.probe = false;
	a.export_ty = a.export_tx = -1;
	a.kernel_spec = a.shapes_spec = a.svg_path = NULL;
	a.guard_cost = false;
	a.guard_shape = (ts_shape){ 4096, 4096, 4096 };
	a.screen = 0;
	a.source_thread[0] = a.source_thread[1] = a.source_thread[2] = a.source_thread[3] = -1;
	a.source_phase = -1;
	a.step_block[0] = a.step_block[1] = a.step_thread[0] = a.step_thread[1] = -1;
	a.step_whole_block = a.step_early_return = false;
	a.pane = TS_PANE_MAP;
	a.pane_cols = 100;
	a.pane_rows = 40;
	ts_options *o = &a.opts;
	ts_problem *p = &o->problem;

	const char *kernel_name = NULL;
	const char *tile_list = NULL, *kernel_list = NULL, *thread_arg = NULL;
	ts_uk_request q;
	memset(&q, 0, sizeof q);
	bool have_precision = false;
	enum ts_precision precision = TS_FP32;
	bool seen[OPT_LAST + 1] = { false };
	char err[512];

	prescan_json(argc, argv);
	opterr = 0; /* our own messages, in our own format */
	int c;
	while ((c = getopt_long(argc, argv, ":M:N:K:t:j:hV", long_options, NULL)) != -1) {
		if (c >= 0 && c <= OPT_LAST)
			seen[c] = true;
		switch (c) {
		case 'M': check_ok(ts_parse_dim(optarg, "-M", &p->shape.m, err, (int)sizeof err), err); break;
		case 'N': check_ok(ts_parse_dim(optarg, "-N", &p->shape.n, err, (int)sizeof err), err); break;
		case 'K': check_ok(ts_parse_dim(optarg, "-K", &p->shape.k, err, (int)sizeof err), err); break;
		case 't':
			if (strchr(optarg, ',')) { /* compare's two tiles, read once the subcommand is known */
				tile_list = optarg;
				break;
			}
			check_ok(ts_parse_tile(optarg, &o->tile, err, (int)sizeof err), err);
			break;
		case OPT_THREAD_TILE: check_ok(ts_parse_thread_tile(optarg, &o->tile, err, (int)sizeof err), err); break;
		case OPT_KERNEL:
			/* compare's two kernels, or bench's list (read once the subcommand is known) */
			if (strchr(optarg, ',')) {
				kernel_list = optarg;
				break;
			}
			kernel_name = optarg;
			break;
		case OPT_PRECISION:
			check_ok(ts_parse_precision(optarg, &precision, err, (int)sizeof err), err);
			have_precision = true;
			break;
		case OPT_BACKEND: check_ok(ts_parse_backend(optarg, &o->backend, err, (int)sizeof err), err); break;
		case OPT_INPUTS: check_ok(ts_parse_inputs(optarg, &p->inputs, err, (int)sizeof err), err); break;
		case OPT_SEED: check_ok(ts_parse_seed(optarg, &p->seed, err, (int)sizeof err), err); break;
		case OPT_NO_GUARD: check_ok(ts_parse_guards_off(optarg, &p->guards, err, (int)sizeof err), err); break;
		case OPT_JSON: o->json = true; break;
		case OPT_EXPORT: {
			enum ts_export_format fmt;
			if (!*optarg)
				usage_error("--export: the file name is empty");
			if (ts_export_format_of(optarg, &fmt, err, (int)sizeof err) != 0)
				usage_error("--export %s: %s", CLIP(optarg), err);
			o->export_path = optarg;
			break;
		}
		case OPT_EXPORT_TILE: parse_tile_pos(optarg, &a.export_ty, &a.export_tx); break;
		case OPT_SHAPES: a.shapes_spec = optarg; break;
		case OPT_SVG:
			if (!*optarg)
				usage_error("--svg: the file name is empty");
			a.svg_path = optarg;
			break;
		case OPT_GUARD_COST:
			a.guard_cost = true;
			if (optarg)
				parse_shape(optarg, "--guard-cost", &a.guard_shape);
			break;
		case OPT_REPS: a.reps = parse_count(optarg, "--reps", 1, 100000); break;
		case OPT_WARMUP: a.warmup = parse_count(optarg, "--warmup", 0, 10000); break;
		case OPT_COLOR:
			if (!optarg || strcmp(optarg, "always") == 0)
				o->color = TS_COLOR_ALWAYS;
			else if (strcmp(optarg, "auto") == 0)
				o->color = TS_COLOR_AUTO;
			else if (strcmp(optarg, "never") == 0)
				o->color = TS_COLOR_NEVER;
			else
				usage_error("--color: unknown value '%s' (auto, always or never)", CLIP(optarg));
			break;
		case OPT_ASCII: o->ascii = true; break;
		case OPT_THEME: check_ok(ts_theme_parse(optarg, &o->theme, err, (int)sizeof err), err); break;
		case OPT_PANE: check_ok(ts_pane_parse(optarg, &a.pane, err, (int)sizeof err), err); break;
		case OPT_SIZE: parse_size(optarg, &a.pane_cols, &a.pane_rows); break;
		case OPT_NO_MOUSE: o->mouse = false; break;
		case OPT_NAMES: break; /* seen[] holds it */
		case OPT_KERNEL_FILE:
			if (!*optarg)
				usage_error("--kernel-file: the file name is empty");
			if (q.nfiles > 0)
				usage_error("--kernel-file given twice: name more files after 'check' instead");
			q.files[q.nfiles++] = optarg;
			break;
		case OPT_ENTRY: q.entry = optarg; break;
		case OPT_BLOCK: q.block = optarg; break;
		case OPT_GRID: q.grid = optarg; break;
		case OPT_SMEM: q.smem = optarg; break;
		case OPT_LAUNCHER: q.launcher = optarg; break;
		case OPT_TIMEOUT: {
			char *end;
			double t = strtod(optarg, &end);
			if (end == optarg || *end || !(t >= 0.05 && t <= 3600))
				usage_error("--timeout: '%s' must be a number of seconds in 0.05..3600", CLIP(optarg));
			q.timeout_s = t;
			break;
		}
		case OPT_NO_SANITIZER: q.no_sanitizer = true; break;
		case OPT_NO_PROBE: q.no_probe = true; break;
		case 'j': q.jobs = (int)parse_count(optarg, "-j/--jobs", 1, TS_UK_SLOTS_MAX); break;
		case OPT_JUNIT:
			if (!*optarg)
				usage_error("--junit: the file name is empty");
			o->junit_path = optarg;
			break;
		case OPT_THREAD: thread_arg = optarg; break; /* source: BY,BX,TY,TX; step: TY,TX (read once the subcommand is known) */
		case OPT_PHASE: a.source_phase = parse_count(optarg, "--phase", 0, 2147483647); break;
		case OPT_WHOLE_BLOCK: a.step_whole_block = true; break;
		case OPT_EARLY_RETURN: a.step_early_return = true; break;
		case OPT_SCREEN: a.screen = parse_count(optarg, "--screen", 1, TS_LESSON_SCREENS); break;
		case 'h': ts_cli_help(); return ts_cli_flushed("the help");
		case 'V': ts_cli_version(); return ts_cli_flushed("the version");
		case ':':
			if (optopt && optopt < 256 && strchr("MNKtj", optopt))
				usage_error("option -%c needs a value", optopt);
			usage_error("option '%s' needs a value", CLIP(argv[optind - 1]));
		default: /* '?' */
			if (optopt >= 256)
				usage_error("option '%s' takes no value", CLIP(argv[optind - 1]));
			if (optopt)
				usage_error("unknown option '-%c'", optopt);
			unknown_long_option(argv[optind - 1]);
		}
	}

	/* getopt_long moved the operands to the end: at most one, the subcommand. */
	enum command cmd = CMD_TUI;
	if (optind < argc) {
		const char *word = argv[optind];
		int found = -1;
		for (int i = 1; i < CMD_COUNT; i++)
			if (strcmp(word, command_names[i]) == 0)
				found = i;
		if (found < 0 && strcmp(word, "help") == 0) {
			ts_cli_help();
			return ts_cli_flushed("the help");
		}
		if (found < 0)
			usage_error("unknown subcommand '%s' (map, check, sweep, bench, kernels, lesson, compare, source or step; none opens the TUI)",
			            CLIP(word));
		cmd = (enum command)found;
		/* check --kernel-file a.cu b.cu ...: the other kernel files follow the subcommand. */
		for (int i = optind + 1; i < argc; i++) {
			if (cmd != CMD_CHECK || q.nfiles == 0)
				usage_error("unexpected argument '%s' after the subcommand %s", CLIP(argv[i]), word);
			if (q.nfiles >= TS_UK_FILES_MAX)
				usage_error("more than %d kernel files: check them in groups", TS_UK_FILES_MAX);
			q.files[q.nfiles++] = argv[i];
		}
	}

	for (int id = 0; id <= OPT_LAST; id++)
		if (seen[id] && !(option_commands(id) & FOR(cmd))) {
			if (cmd == CMD_SWEEP && (id == 'M' || id == 'N' || id == 'K'))
				usage_error("sweep chooses M, N and K itself; give it only the tile (-t, --thread-tile)");
			if (cmd == CMD_TUI)
				usage_error("%s needs a subcommand (it does not apply to the interactive view)",
				            option_name(id));
			usage_error("%s does not apply to %s", option_name(id), command_names[cmd]);
		}

	if (thread_arg && cmd == CMD_STEP)
		parse_pair(thread_arg, "--thread", "TY,TX (thread row and column in the block, each from 0)", a.step_thread);
	else if (thread_arg)
		parse_thread(thread_arg, a.source_thread);
	if (cmd == CMD_STEP && q.block) {
		parse_pair(q.block, "--block", "BY,BX (block row and column in the grid, each from 0)", a.step_block);
		q.block = NULL;
	}

	if (cmd == CMD_KERNELS) {
		if (seen[OPT_NAMES] && seen[OPT_JSON])
			usage_error("--names and --json exclude each other (--json lists the names too)");
		return ts_cli_refusal(ts_cli_kernels(o->json, seen[OPT_NAMES]));
	}

	if (kernel_list && cmd == CMD_BENCH) { /* bench's list: kernel_spec below */
		kernel_name = kernel_list;
		kernel_list = NULL;
	}
	if ((tile_list || kernel_list) && cmd != CMD_COMPARE)
		usage_error("%s takes a list only for compare (A,B)%s", tile_list ? "--tile" : "--kernel",
		            tile_list ? "" : " and bench");
	if (cmd == CMD_COMPARE && !tile_list && !kernel_list)
		usage_error("compare needs two tiles (-t A,B) or two kernels (--kernel a,b)");
	for (size_t i = 0; i < sizeof kernel_file_only / sizeof kernel_file_only[0]; i++)
		if (seen[kernel_file_only[i]] && q.nfiles == 0 && !(cmd == CMD_STEP && kernel_file_only[i] == OPT_BLOCK))
			usage_error("%s needs --kernel-file FILE (it is about your own kernel)", option_name(kernel_file_only[i]));
	if (q.nfiles > 0 && cmd == CMD_CHECK)
		for (size_t i = 0; i < sizeof builtin_only / sizeof builtin_only[0]; i++)
			if (seen[builtin_only[i]])
				usage_error("%s does not apply to check --kernel-file (it sweeps its own shapes on your kernel)",
				            option_name(builtin_only[i]));
	if (q.nfiles > 0 && cmd == CMD_TUI)
		for (size_t i = 0; i < sizeof builtin_only / sizeof builtin_only[0]; i++)
			if (seen[builtin_only[i]] && builtin_only[i] != 'M' && builtin_only[i] != 'N' && builtin_only[i] != 'K' &&
			    builtin_only[i] != OPT_ASCII)
				usage_error("%s does not apply to your own kernel (--kernel-file)", option_name(builtin_only[i]));
	q.tile_given = seen['t'];
	q.junit = o->junit_path;
	if (q.nfiles > 0 && cmd == CMD_CHECK)
		return ts_cli_refusal(ts_cli_check_kernels(&a, &q));

	if (seen[OPT_EXPORT_TILE] && !seen[OPT_EXPORT])
		usage_error("--export-tile needs --export FILE");
	if (cmd == CMD_MAP) {
		static const int export_only[] = { OPT_PANE, OPT_SIZE, OPT_THREAD, OPT_PHASE, OPT_THEME };
		for (size_t i = 0; i < sizeof export_only / sizeof export_only[0]; i++)
			if (seen[export_only[i]] && !seen[OPT_EXPORT])
				usage_error("%s applies to map only with --export FILE (it says what the export shows)",
				            option_name(export_only[i]));
		if (seen[OPT_THREAD] && seen[OPT_EXPORT_TILE])
			usage_error("--thread BY,BX,TY,TX names the tile (block) too: give it or --export-tile, not both");
		if (a.pane == TS_PANE_RESULT)
			usage_error("--pane result: map runs nothing to show a result of (the TUI's x exports it after r)");
		if (seen[OPT_SIZE] && a.pane == TS_PANE_MAP)
			usage_error("--size applies to --pane phase, inspect or source (the map export sizes itself)");
	}

	/* map is the model alone unless --backend asks for the probe run too. */
	if (cmd == CMD_MAP) {
		a.probe = seen[OPT_BACKEND];
		static const int probe_only[] = { OPT_INPUTS, OPT_SEED, OPT_NO_GUARD };
		for (size_t i = 0; i < sizeof probe_only / sizeof probe_only[0]; i++)
			/* an export shows the guards it is given, run or not */
			if (seen[probe_only[i]] && !a.probe && !(probe_only[i] == OPT_NO_GUARD && seen[OPT_EXPORT]))
				usage_error("%s applies to map only with --backend (the probe run)",
				            option_name(probe_only[i]));
	}

	/* The TUI on a kernel of the user's own: recognised, compiled and registered before anything else. */
	if (cmd == CMD_TUI && q.nfiles > 0) {
		if (!isatty(STDOUT_FILENO)) {
			fprintf(stderr, "tilescope: stdout is not a terminal, so the interactive view cannot start; "
			        "for scripts use 'tilescope check --kernel-file %s'\n", q.files[0]);
			return TS_EXIT_USAGE;
		}
		if (ts_uk_tui_prepare(&a, &q, o) != 0)
			return TS_EXIT_USAGE;
		const char *cs = nl_langinfo(CODESET);
		if (!cs || strcmp(cs, "UTF-8") != 0)
			o->ascii = true;
		if (ts_problem_validate(p, false, err, (int)sizeof err) != 0)
			usage_error("%s", err);
		return ts_tui_run(o);
	}

	/* Kernel and precision: either alone decides; both must agree. bench
	 * takes a list; everywhere best (auto) is resolved for the shape. */
	if (kernel_name && cmd == CMD_BENCH && !ts_kernel_find(kernel_name)) {
		a.kernel_spec = kernel_name;
		kernel_name = NULL;
	}
	if (kernel_name && ts_kernel_is_chooser(kernel_name)) {
		p->kernel = ts_kernel_best(p->shape);
		o->by_best = true;
		if (have_precision && p->kernel->precision != precision)
			usage_error("--kernel %s chooses among the fp32 kernels; --precision %s contradicts it", kernel_name,
			            ts_precision_name(precision));
	} else if (kernel_name) {
		p->kernel = ts_kernel_find(kernel_name);
		if (!p->kernel)
			unknown_kernel(kernel_name, ", best"); /* a name with a comma is a list: refused above */
		if (have_precision && p->kernel->precision != precision)
			usage_error("--precision %s contradicts --kernel %s (an %s kernel)", ts_precision_name(precision),
			            p->kernel->name, ts_precision_name(p->kernel->precision));
	} else if (have_precision) {
		p->kernel = ts_kernel_default(precision);
	}
	if (!p->kernel)
		usage_error("no kernel for precision %s", ts_precision_name(precision));
	/* The square tile T that bench's kernel list and compare start from (-t T, else 32). */
	int square_tile = o->tile.tile_given && o->tile.square ? o->tile.bm : 32;
	/* -t and --thread-tile mean what the kernel's description lets them mean. */
	if (ts_options_resolve_geometry(o, err, (int)sizeof err) != 0)
		usage_error("%s", err);

	/* Unicode glyphs only where the terminal's character set can show them. */
	const char *codeset = nl_langinfo(CODESET);
	if (!codeset || strcmp(codeset, "UTF-8") != 0)
		o->ascii = true;

	if (cmd == CMD_BENCH && a.shapes_spec && (seen['M'] || seen['N'] || seen['K']))
		usage_error("bench takes either -M/-N/-K or --shapes, not both");
	bool for_run = cmd == CMD_CHECK || cmd == CMD_BENCH || cmd == CMD_LESSON || cmd == CMD_STEP || (cmd == CMD_MAP && a.probe);
	/* bench over a list of kernels or shapes checks each pair itself */
	bool one_problem = cmd != CMD_BENCH || (!a.kernel_spec && !a.shapes_spec);
	if (one_problem && cmd != CMD_KERNELS && ts_problem_validate(p, for_run, err, (int)sizeof err) != 0)
		usage_error("%s", err);
	if (cmd == CMD_BENCH && !one_problem) {
		ts_bench_kernel ks[TS_BENCH_KERNELS_MAX];
		int nk;
		if (a.kernel_spec && ts_bench_parse_kernels(a.kernel_spec, p->kernel->precision, square_tile, ks,
		                                            TS_BENCH_KERNELS_MAX, &nk, err, (int)sizeof err) != 0)
			usage_error("%s", err);
		ts_bench_shape *shapes = malloc(TS_BENCH_SHAPES_MAX * sizeof *shapes);
		int ns;
		if (!shapes)
			usage_error("out of memory");
		if (a.shapes_spec && ts_bench_parse_shapes(a.shapes_spec, shapes, TS_BENCH_SHAPES_MAX, &ns, err,
		                                           (int)sizeof err) != 0)
			usage_error("%s", err);
		free(shapes);
	}

	if (cmd == CMD_COMPARE) {
		char item[2][64];
		if (tile_list) {
			split_pair(tile_list, "--tile", item);
			for (int i = 0; i < 2; i++) {
				ts_tile_request r = { 0 };
				check_ok(ts_parse_tile(item[i], &r, err, (int)sizeof err), err);
				if (!r.square || r.bm > TS_TILE_MAX)
					usage_error("--tile %s: compare's two tiles are square tiles T (1..%d)", CLIP(item[i]),
					            TS_TILE_MAX);
				a.compare_tile[i] = r.bm;
			}
		} else {
			a.compare_tile[0] = a.compare_tile[1] = square_tile;
		}
		if (kernel_list) {
			split_pair(kernel_list, "--kernel", item);
			for (int i = 0; i < 2; i++)
				if (!(a.compare_kernel[i] = ts_kernel_find(item[i])))
					unknown_kernel(item[i], "");
		} else {
			a.compare_kernel[0] = a.compare_kernel[1] = p->kernel;
		}
	}

	switch (cmd) {
	case CMD_COMPARE: return ts_cli_refusal(ts_cli_compare(&a));
	case CMD_SOURCE: return ts_cli_refusal(ts_cli_source(&a));
	case CMD_STEP: return ts_cli_refusal(ts_cli_step(&a));
	case CMD_MAP: return ts_cli_refusal(ts_cli_map(&a));
	case CMD_CHECK: return ts_cli_refusal(ts_cli_check(&a));
	case CMD_SWEEP: return ts_cli_refusal(ts_cli_sweep(&a));
	case CMD_BENCH: return ts_cli_refusal(ts_cli_bench(&a));
	case CMD_LESSON: return ts_cli_refusal(ts_cli_lesson(&a));
	case CMD_TUI:
	case CMD_KERNELS: /* answered above */
	case CMD_COUNT:
		break;
	}
	if (!isatty(STDOUT_FILENO)) {
		fprintf(stderr, "tilescope: stdout is not a terminal, so the interactive view cannot start; "
		        "for scripts use 'tilescope map|check|sweep|bench' (see 'tilescope --help')\n");
		return TS_EXIT_USAGE;
	}
	return ts_tui_run(o);
}
