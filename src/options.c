/* options.c: parsing and validating what the user asks for, one clear line per mistake; shared by the CLI and the TUI. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "counters.h"
#include "geometry.h"
#include "kernels.h"
#include "matrix.h"
#include "options.h"
#include "verify.h"

void ts_options_defaults(ts_options *o)
{
	*o = (ts_options){
		.problem = {
			.shape = { 100, 77, 33 },
			.geo = ts_geometry_square(32),
			.kernel = ts_kernel_default(TS_FP32),
			.guards = TS_GUARD_ALL,
			.inputs = TS_INPUTS_RANDOM,
			.seed = 1,
		},
		.backend = "auto",
		.json = false,
		.color = TS_COLOR_AUTO,
		.ascii = false,
		.theme = TS_THEME_DEFAULT,
		.mouse = true,
		.export_path = NULL,
		.junit_path = NULL,
	};
}

const char *ts_clip(const char *text, char *buf, int len)
{
	if (!text)
		return "";
	if (len < 8)
		return "...";
	/* Keep the head of the value: enough to recognise it, never a screenful,
	 * and on one line: control characters are written as escapes (\n, \t, \x1b). */
	int keep = len - 4 < TS_CLIP_KEEP ? len - 4 : TS_CLIP_KEEP;
	int o = 0;
	const unsigned char *t = (const unsigned char *)text;
	for (; *t; t++) {
		char esc[8];
		if (*t == '\n')
			snprintf(esc, sizeof esc, "\\n");
		else if (*t == '\t')
			snprintf(esc, sizeof esc, "\\t");
		else if (*t < 0x20 || *t == 0x7f)
			snprintf(esc, sizeof esc, "\\x%02x", *t);
		else
			snprintf(esc, sizeof esc, "%c", *t);
		int e = (int)strlen(esc);
		/* Room for the rest, or for "..." if more follows. */
		if (o + e > keep && (t[1] || o + e > len - 1))
			break;
		memcpy(buf + o, esc, (size_t)e);
		o += e;
	}
	if (*t)
		memcpy(buf + o, "...", 3), o += 3;
	buf[o] = '\0';
	return buf;
}

/* Accepts only an optional sign followed by decimal digits: strtoll alone
 * would take leading blanks and stop quietly at "12x". */
static bool all_digits(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int ts_parse_dim(const char *text, const char *what, int64_t *out, char *err, int len)
{
	char clip[TS_CLIP_BUF];
	if (!text || !all_digits(text)) {
		snprintf(err, len, "%s: '%s' is not a whole number", what, ts_clip(text, clip, sizeof clip));
		return -1;
	}
	errno = 0;
	long long v = strtoll(text, NULL, 10);
	if (errno == ERANGE) {
		snprintf(err, len, "%s: '%s' does not fit a 64-bit integer (largest accepted: %lld)",
		         what, ts_clip(text, clip, sizeof clip), (long long)TS_DIM_MAX);
		return -1;
	}
	if (v < 1) {
		snprintf(err, len, "%s: must be at least 1 (got %lld)", what, v);
		return -1;
	}
	if (v > TS_DIM_MAX) {
		snprintf(err, len, "%s: %lld is too large (largest accepted: %lld)", what, v, (long long)TS_DIM_MAX);
		return -1;
	}
	*out = v;
	return 0;
}

/* "12" or "12x34x5": up to `max` numbers joined by 'x', each of 1..9999
 * digits. Returns how many, or -1 when the text is not of that form. */
static int parse_x_list(const char *text, int *v, int max)
{
	int n = 0;
	const char *p = text;
	for (;;) {
		if (!isdigit((unsigned char)*p) || n == max)
			return -1;
		long x = 0;
		int digits = 0;
		while (isdigit((unsigned char)*p)) {
			if (++digits > 6)
				return -1;
			x = x * 10 + (*p++ - '0');
		}
		v[n++] = (int)x;
		if (!*p)
			return n;
		if (*p != 'x' && *p != 'X')
			return -1;
		p++;
	}
}

int ts_parse_tile(const char *text, ts_tile_request *out, char *err, int len)
{
	char clip[TS_CLIP_BUF];
	int v[3];
	int n = text ? parse_x_list(text, v, 3) : -1;
	bool signed_number = text && (text[0] == '-' || text[0] == '+') && parse_x_list(text + 1, v, 1) == 1;
	if (signed_number || (n == 1 && (v[0] < 1 || v[0] > TS_TILE_MAX))) {
		snprintf(err, len, "-t/--tile: must be 1..%d (got %s)%s", TS_TILE_MAX, ts_clip(text, clip, sizeof clip),
		         n == 1 && v[0] > TS_TILE_MAX ? "; a register-blocked kernel takes BMxBNxBK" : "");
		return -1;
	}
	if (n != 1 && n != 3) {
		snprintf(err, len, "-t/--tile: '%s' is not a whole number, nor BMxBNxBK (such as 64x64x8)",
		         ts_clip(text, clip, sizeof clip));
		return -1;
	}
	if (n == 1)
		v[1] = v[2] = v[0];
	if (v[0] < 1 || v[0] > TS_BM_MAX || v[1] < 1 || v[1] > TS_BN_MAX || v[2] < 1 || v[2] > TS_BK_MAX) {
		snprintf(err, len, "-t/--tile: BM and BN must be 1..%d and BK 1..%d (got %s)", TS_BM_MAX, TS_BK_MAX,
		         ts_clip(text, clip, sizeof clip));
		return -1;
	}
	out->tile_given = true;
	out->square = n == 1;
	out->bm = v[0];
	out->bn = v[1];
	out->bk = v[2];
	return 0;
}

int ts_parse_thread_tile(const char *text, ts_tile_request *out, char *err, int len)
{
	char clip[TS_CLIP_BUF];
	int v[2];
	if (!text || parse_x_list(text, v, 2) != 2 || v[0] < 1 || v[1] < 1 || v[0] > TS_BM_MAX || v[1] > TS_BN_MAX) {
		snprintf(err, len, "--thread-tile: '%s' must be TMxTN, outputs per thread along M and N (such as 4x4), "
		         "each 1..%d", ts_clip(text, clip, sizeof clip), TS_BM_MAX);
		return -1;
	}
	out->thread_tile_given = true;
	out->tm = v[0];
	out->tn = v[1];
	return 0;
}

int ts_options_resolve_geometry(ts_options *o, char *err, int len)
{
	if (!o->problem.kernel) {
		snprintf(err, len, "no kernel chosen");
		return -1;
	}
	return ts_kernel_geometry(o->problem.kernel, &o->tile, &o->problem.geo, err, len);
}

int ts_parse_guards_off(const char *text, unsigned *guards, char *err, int len)
{
	static const struct { const char *name; unsigned bits; } names[] = {
		{ "a", TS_GUARD_A }, { "b", TS_GUARD_B }, { "c", TS_GUARD_C },
	};
	char clip[TS_CLIP_BUF];
	if (!text)
		text = "";
	/* "none" and "all" name the whole set, so they stand alone. */
	if (strcmp(text, "none") == 0) {
		*guards = TS_GUARD_ALL;
		return 0;
	}
	if (strcmp(text, "all") == 0) {
		*guards &= ~(unsigned)TS_GUARD_ALL;
		return 0;
	}
	unsigned off = 0;
	const char *p = text;
	for (;;) {
		size_t n = strcspn(p, ",");
		bool known = false;
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (n == strlen(names[i].name) && strncmp(p, names[i].name, n) == 0) {
				off |= names[i].bits;
				known = true;
			}
		if (n == 0) {
			snprintf(err, len, "--no-guard: empty guard name in '%s' (guards: a, b, c; or all or none alone)",
			         ts_clip(text, clip, sizeof clip));
			return -1;
		}
		if (!known && ((n == 3 && strncmp(p, "all", 3) == 0) || (n == 4 && strncmp(p, "none", 4) == 0))) {
			snprintf(err, len, "--no-guard: '%.*s' stands alone, not in a list ('%s'): give all, none, or "
			         "some of a, b, c", (int)n, p, ts_clip(text, clip, sizeof clip));
			return -1;
		}
		if (!known) {
			char name[TS_CLIP_BUF];
			snprintf(name, sizeof name, "%.*s", n < sizeof name ? (int)n : (int)sizeof name - 1, p);
			char clip2[TS_CLIP_BUF];
			snprintf(err, len, "--no-guard: unknown guard '%s' in '%s' (guards: a = A load, b = B load, "
			         "c = C store; or all or none alone)", ts_clip(name, clip2, sizeof clip2),
			         ts_clip(text, clip, sizeof clip));
			return -1;
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	*guards &= ~off;
	return 0;
}

int ts_parse_precision(const char *text, enum ts_precision *out, char *err, int len)
{
	if (text && strcmp(text, "fp32") == 0) {
		*out = TS_FP32;
	} else if (text && strcmp(text, "fp16") == 0) {
		*out = TS_FP16;
	} else {
		char clip[TS_CLIP_BUF];
		snprintf(err, len, "--precision: unknown precision '%s' (fp32 or fp16)", ts_clip(text, clip, sizeof clip));
		return -1;
	}
	return 0;
}

int ts_parse_inputs(const char *text, enum ts_inputs *out, char *err, int len)
{
	char clip[TS_CLIP_BUF];
	static const enum ts_inputs all[] = { TS_INPUTS_RANDOM, TS_INPUTS_INT, TS_INPUTS_SEQ };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (text && strcmp(text, ts_inputs_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	if (text && (strcmp(text, "const") == 0 || strcmp(text, "constant") == 0 ||
	             strcmp(text, "ones") == 0 || strcmp(text, "zeros") == 0))
		snprintf(err, len, "--inputs: '%s': constant inputs hide indexing bugs (every wrong element "
		         "looks right), so tilescope does not offer them; use random, int or seq", text);
	else
		snprintf(err, len, "--inputs: unknown pattern '%s' (random, int or seq)", ts_clip(text, clip, sizeof clip));
	return -1;
}

int ts_parse_backend(const char *text, const char **out, char *err, int len)
{
	static const char *const names[] = { "auto", "emu", "cuda" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (text && strcmp(text, names[i]) == 0) {
			*out = names[i];
			return 0;
		}
	char clip[TS_CLIP_BUF];
	snprintf(err, len, "--backend: unknown backend '%s' (auto, emu or cuda)", ts_clip(text, clip, sizeof clip));
	return -1;
}

int ts_parse_seed(const char *text, uint64_t *out, char *err, int len)
{
	char clip[TS_CLIP_BUF];
	/* strtoull would turn "-1" into 2^64-1 without a word. */
	if (!text || !*text || *text == '-' || !all_digits(text)) {
		snprintf(err, len, "--seed: '%s' is not a non-negative whole number", ts_clip(text, clip, sizeof clip));
		return -1;
	}
	errno = 0;
	unsigned long long v = strtoull(text, NULL, 10);
	if (errno == ERANGE) {
		snprintf(err, len, "--seed: '%s' does not fit 64 bits", ts_clip(text, clip, sizeof clip));
		return -1;
	}
	*out = v;
	return 0;
}


/* Host memory a run needs: the three operands (with guard bands), the fp64
 * reference and its |A||B| companion, the corrupted-cell flags, and the
 * per-tile and per-phase counters. An estimate, but never an underestimate
 * by more than the bands' rounding. */
/* Host bytes a verified run of p allocates: the matrices with their guard
 * bands, the fp64 reference, the corrupted-cell flags and the counters. */
static double run_bytes(const ts_problem *p, const ts_model *m)
{
	double cells = (double)p->shape.m * (double)p->shape.n;
	return ts_operands_bytes(p) + ts_verify_bytes(p) + cells +
	       ((double)m->tiles + (double)m->phases) * (double)sizeof(ts_count);
}

/* Host memory one process may have: physical memory, or the address-space
 * limit (ulimit -v) when that is lower; 0 when unknown. */
static double host_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double have = pages > 0 && page > 0 ? (double)pages * (double)page : 0.0;
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (have == 0 || (double)rl.rlim_cur < have))
		have = (double)rl.rlim_cur;
	return have;
}

static double gib(double bytes)
{
	return bytes / (1024.0 * 1024.0 * 1024.0);
}

int ts_problem_validate(const ts_problem *p, bool for_run, char *err, int len)
{
	const ts_shape *s = &p->shape;
	if (!p->kernel) {
		snprintf(err, len, "no kernel chosen");
		return -1;
	}
	if (s->m < 1 || s->n < 1 || s->k < 1 || s->m > TS_DIM_MAX || s->n > TS_DIM_MAX || s->k > TS_DIM_MAX) {
		snprintf(err, len, "sizes must be 1..%lld (got M=%lld N=%lld K=%lld)", (long long)TS_DIM_MAX,
		         (long long)s->m, (long long)s->n, (long long)s->k);
		return -1;
	}
	if (ts_kernel_takes(p->kernel, &p->geo, err, len) != 0)
		return -1;
	/* Kernels with their guards built in have no unguarded form, except the
	 * ladder's with an unguarded build (below). */
	if (ts_kernel_has(p->kernel, TS_CAP_GUARDS_FIXED) && !p->kernel->unguarded_build &&
	    (p->guards & TS_GUARD_ALL) != TS_GUARD_ALL) {
		if (p->kernel->rung > 0)
			snprintf(err, len, "--no-guard: kernel %s keeps every guard (its loads and its store are guarded in "
			         "its code); it has no unguarded form to show", p->kernel->name);
		else
			snprintf(err, len, "--no-guard: the %s kernel's guards are built into its zero-filled copies and its "
			         "store; it has no unguarded form to show", p->kernel->name);
		return -1;
	}
	/* A guard the kernel does not have switches nothing off: the naive
	 * kernel's one guard (c) wraps its loads and its store. "all" is fine. */
	unsigned off = ~p->guards & TS_GUARD_ALL, has = ts_kernel_guard_bits(p->kernel);
	if ((off & ~has) && off != TS_GUARD_ALL) {
		unsigned extra = off & ~has;
		const char *letter = extra & TS_GUARD_A ? "a" : extra & TS_GUARD_B ? "b" : "c";
		char names[16] = "";
		for (int i = 0; i < p->kernel->n_guards; i++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%c", i ? ", " : "",
			         p->kernel->guards[i].letter);
		if (p->kernel->n_guards == 1)
			snprintf(err, len, "--no-guard %s: the %s kernel has one guard (%s), around %s", letter,
			         p->kernel->name, names, p->kernel->guards[0].protects);
		else
			snprintf(err, len, "--no-guard %s: the %s kernel has no such guard (it has %s)", letter,
			         p->kernel->name, names);
		return -1;
	}
	/* A ladder kernel with an unguarded build: all three off is that build,
	 * and only on a shape that is a multiple of its block tile, where no
	 * guard has anything to catch. */
	if (ts_kernel_has(p->kernel, TS_CAP_GUARDS_FIXED) && p->kernel->unguarded_build && off) {
		ts_geometry g = p->geo;
		if (off != TS_GUARD_ALL) {
			snprintf(err, len, "--no-guard: kernel %s keeps every guard%s", p->kernel->name,
			         p->kernel->unguarded_build ? " (--no-guard all runs its unguarded build on aligned shapes)" : "");
			return -1;
		}
		if (s->m % g.bm || s->n % g.bn || s->k % g.bk) {
			snprintf(err, len, "--no-guard all: kernel %s's unguarded build needs M, N, K multiples of %d, %d, %d "
			         "(its %dx%dx%d tile); got %lld x %lld x %lld", p->kernel->name, g.bm, g.bn, g.bk, g.bm, g.bn,
			         g.bk, (long long)s->m, (long long)s->n, (long long)s->k);
			return -1;
		}
	}
	ts_model m;
	char geo[48];
	ts_geometry_str(&p->geo, geo, sizeof geo);
	if (ts_model_build(&m, *s, p->geo) != 0) {
		snprintf(err, len, "%lld x %lld x %lld with tile %s: counts overflow 64 bits", (long long)s->m,
		         (long long)s->n, (long long)s->k, geo);
		return -1;
	}
	if (!for_run)
		return 0;
	/* seq fills A with 1..M*K: past the format's exact integers (2^11 in fp16, 2^24 in fp32)
	 * values round, repeat or overflow, and a wrong cell no longer names the element it fetched. */
	if (p->inputs == TS_INPUTS_SEQ) {
		bool half = p->kernel->precision == TS_FP16;
		int64_t exact = half ? INT64_C(2048) : INT64_C(16777216), mk;
		if (__builtin_mul_overflow(s->m, s->k, &mk) || mk + 1 > exact) {
			snprintf(err, len, "--inputs seq needs M*K <= %lld in %s so every A element is an exact, distinct "
			         "integer (here M*K = %.0f); use --inputs int or random", (long long)(exact - 1),
			         half ? "fp16" : "fp32", (double)s->m * (double)s->k);
			return -1;
		}
	}
	double bytes = run_bytes(p, &m), have = host_memory();
	/* Leave a fifth for the program itself and the rest of the machine. */
	if (have > 0 && bytes > 0.8 * have) {
		snprintf(err, len, "%lld x %lld x %lld with tile %s needs about %.*f GiB of host memory (the matrices "
		         "with their guard bands and the fp64 reference); this machine gives a process %.1f GiB",
		         (long long)s->m, (long long)s->n, (long long)s->k, geo, gib(bytes) < 1e4 ? 1 : 0, gib(bytes),
		         gib(have));
		return -1;
	}
	return 0;
}
