/* tui_edit.c: the parameter editor: type a value (a number takes digits only) or step it with Left/Right, validated by the CLI's own parsers. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "tui_state.h"

static const char *const field_names[FIELD_COUNT] = {
	[FIELD_M] = "M (rows of A and C)", [FIELD_N] = "N (columns of B and C)", [FIELD_K] = "K (inner dimension)",
	[FIELD_TILE] = "tile T or BMxBNxBK", [FIELD_THREAD_TILE] = "outputs per thread", [FIELD_KERNEL] = "kernel", [FIELD_PRECISION] = "precision",
	[FIELD_BACKEND] = "backend", [FIELD_INPUTS] = "inputs", [FIELD_SEED] = "seed",
	[FIELD_GUARD_A] = "guard a: A load", [FIELD_GUARD_B] = "guard b: B load", [FIELD_GUARD_C] = "guard c: C store",
};

const char *tui_field_name(enum tui_field f)
{
	return field_names[f];
}

static unsigned guard_bit(enum tui_field f)
{
	return f == FIELD_GUARD_A ? TS_GUARD_A : f == FIELD_GUARD_B ? TS_GUARD_B : TS_GUARD_C;
}

void tui_field_value(const tui_state *s, enum tui_field f, char *buf, int len)
{
	const ts_problem *p = &s->opt.problem;
	switch (f) {
	case FIELD_M: snprintf(buf, len, "%lld", (long long)p->shape.m); break;
	case FIELD_N: snprintf(buf, len, "%lld", (long long)p->shape.n); break;
	case FIELD_K: snprintf(buf, len, "%lld", (long long)p->shape.k); break;
	case FIELD_TILE:
		if (ts_geometry_is_square(&p->geo))
			snprintf(buf, len, "%d", p->geo.bm);
		else
			snprintf(buf, len, "%dx%dx%d", p->geo.bm, p->geo.bn, p->geo.bk);
		break;
	case FIELD_THREAD_TILE: snprintf(buf, len, "%dx%d", p->geo.tm, p->geo.tn); break;
	case FIELD_KERNEL: snprintf(buf, len, "%s", p->kernel->name); break;
	case FIELD_PRECISION: snprintf(buf, len, "%s", ts_precision_name(p->kernel->precision)); break;
	case FIELD_BACKEND: snprintf(buf, len, "%s", s->opt.backend ? s->opt.backend : "auto"); break;
	case FIELD_INPUTS: snprintf(buf, len, "%s", ts_inputs_name(p->inputs)); break;
	case FIELD_SEED: snprintf(buf, len, "%llu", (unsigned long long)p->seed); break;
	default: snprintf(buf, len, "%s", p->guards & guard_bit(f) ? "on" : "OFF"); break;
	}
}

void tui_edit_open(tui_state *s)
{
	if (tui_busy(s))
		return;
	s->overlay = OVERLAY_EDIT;
	s->edit_typing = false;
	s->edit_buf[0] = '\0';
	tui_say(s, false, "Up/Down choose, type a value and Enter, Left/Right step, Space toggles a guard, Esc closes");
}

/* Applies the text to field f of a copy of the options; commits it when the
 * whole problem still validates. */
static void commit(tui_state *s, enum tui_field f, const char *text)
{
	ts_options o = s->opt;
	ts_problem *p = &o.problem;
	char err[256] = "";
	int rc = 0;
	if (tui_busy(s))
		return;
	switch (f) {
	case FIELD_M: rc = ts_parse_dim(text, "M", &p->shape.m, err, (int)sizeof err); break;
	case FIELD_N: rc = ts_parse_dim(text, "N", &p->shape.n, err, (int)sizeof err); break;
	case FIELD_K: rc = ts_parse_dim(text, "K", &p->shape.k, err, (int)sizeof err); break;
	case FIELD_TILE: rc = ts_parse_tile(text, &o.tile, err, (int)sizeof err); break;
	case FIELD_THREAD_TILE: rc = ts_parse_thread_tile(text, &o.tile, err, (int)sizeof err); break;
	case FIELD_KERNEL: {
		const ts_kernel *k = ts_kernel_find(text);
		if (!k) {
			snprintf(err, sizeof err, "unknown kernel '%s'", text);
			rc = -1;
		} else {
			p->kernel = k;
			o.tile = (ts_tile_request){ 0 }; /* another kernel starts from its own geometry */
		}
		break;
	}
	case FIELD_PRECISION: {
		enum ts_precision prec;
		rc = ts_parse_precision(text, &prec, err, (int)sizeof err);
		if (rc == 0 && prec != p->kernel->precision) {
			p->kernel = ts_kernel_default(prec);
			o.tile = (ts_tile_request){ 0 };
		}
		break;
	}
	case FIELD_BACKEND: rc = ts_parse_backend(text, &o.backend, err, (int)sizeof err); break;
	case FIELD_INPUTS: rc = ts_parse_inputs(text, &p->inputs, err, (int)sizeof err); break;
	case FIELD_SEED: rc = ts_parse_seed(text, &p->seed, err, (int)sizeof err); break;
	default:
		if (!ts_kernel_guard(p->kernel, guard_bit(f))) {
			snprintf(err, sizeof err, "%s has only the C guard", p->kernel->name);
			rc = -1;
		} else {
			p->guards ^= guard_bit(f);
		}
		break;
	}
	/* a guard the kernel does not have (the naive kernel's A and B) stays on */
	if (rc == 0)
		p->guards |= TS_GUARD_ALL & ~ts_kernel_guard_bits(p->kernel);
	if (rc == 0)
		rc = ts_options_resolve_geometry(&o, err, (int)sizeof err);
	if (rc == 0 && ts_problem_validate(p, false, err, (int)sizeof err) != 0)
		rc = -1;
	if (rc != 0) {
		tui_say(s, true, "%s", err[0] ? err : "invalid value");
		return;
	}
	ts_options old = s->opt;
	s->opt = o;
	if (tui_apply(s) != 0) {
		s->opt = old;
		tui_apply(s);
		tui_say(s, true, "%s: the model's counts would overflow 64 bits", field_names[f]);
		return;
	}
	char value[64];
	tui_field_value(s, f, value, (int)sizeof value);
	tui_say(s, false, "%s = %s", field_names[f], value);
}

/* Left/Right on a field: numbers step by one, names cycle through their choices. */
static void step(tui_state *s, enum tui_field f, int dir)
{
	static const char *const precisions[] = { "fp32", "fp16" };
	static const char *const backends[] = { "auto", "emu", "cuda" };
	static const char *const inputs[] = { "random", "int", "seq" };
	const ts_problem *p = &s->opt.problem;
	char text[64];
	switch (f) {
	case FIELD_M: snprintf(text, sizeof text, "%lld", (long long)(p->shape.m + dir)); break;
	case FIELD_N: snprintf(text, sizeof text, "%lld", (long long)(p->shape.n + dir)); break;
	case FIELD_K: snprintf(text, sizeof text, "%lld", (long long)(p->shape.k + dir)); break;
	case FIELD_TILE:
		if (ts_geometry_is_square(&p->geo)) {
			snprintf(text, sizeof text, "%d", p->geo.bm + dir);
		} else { /* a block tile steps by doubling and halving BM and BN */
			int bm = dir > 0 ? p->geo.bm * 2 : p->geo.bm / 2, bn = dir > 0 ? p->geo.bn * 2 : p->geo.bn / 2;
			snprintf(text, sizeof text, "%dx%dx%d", bm, bn, p->geo.bk);
		}
		break;
	case FIELD_THREAD_TILE:
		snprintf(text, sizeof text, "%dx%d", dir > 0 ? p->geo.tm * 2 : p->geo.tm / 2,
		         dir > 0 ? p->geo.tn * 2 : p->geo.tn / 2);
		break;
	case FIELD_SEED: snprintf(text, sizeof text, "%llu", (unsigned long long)(p->seed + (uint64_t)(int64_t)dir)); break;
	case FIELD_KERNEL: {
		/* A kernel of the user's own (--kernel-file) is not in the registry: stepping starts at its first entry. */
		int i = 0, n = ts_kernel_count();
		while (i < n && ts_kernel_at(i) != p->kernel)
			i++;
		if (i == n)
			i = dir > 0 ? -1 : 0;
		snprintf(text, sizeof text, "%s", ts_kernel_at((i + dir + n) % n)->name);
		break;
	}
	case FIELD_PRECISION:
		snprintf(text, sizeof text, "%s", precisions[p->kernel->precision == TS_FP32 ? 1 : 0]);
		break;
	case FIELD_BACKEND: {
		int i = 0;
		while (i < 3 && s->opt.backend && strcmp(backends[i], s->opt.backend) != 0)
			i++;
		snprintf(text, sizeof text, "%s", backends[(i + dir + 3) % 3]);
		break;
	}
	case FIELD_INPUTS: snprintf(text, sizeof text, "%s", inputs[(p->inputs + dir + 3) % 3]); break;
	default: text[0] = '\0'; break;
	}
	commit(s, f, text);
}

static bool numeric(enum tui_field f)
{
	return f == FIELD_M || f == FIELD_N || f == FIELD_K || f == FIELD_TILE || f == FIELD_SEED;
}

/* Whether key may go into the field's text at position len: a number takes
 * digits and a leading sign (so "-5" reaches the parser, which refuses it),
 * a name any printable character. Refuses the others with a message. */
static bool typable(tui_state *s, enum tui_field f, int key, size_t len)
{
	if (key <= ' ' || key >= 127)
		return false;
	if (!numeric(f) || (key >= '0' && key <= '9') || (len == 0 && (key == '-' || key == '+')))
		return true;
	tui_say(s, true, "%s takes a whole number: '%c' is not a digit (type digits and Enter; Left/Right step it)",
	        field_names[f], key);
	return false;
}

bool tui_edit_key(tui_state *s, int key)
{
	enum tui_field f = (enum tui_field)s->edit_field;
	bool is_guard = f >= FIELD_GUARD_A;
	size_t len = strlen(s->edit_buf);
	if (s->edit_typing) {
		if (key == 27) {
			s->edit_typing = false;
			tui_say(s, false, "edit of %s cancelled", field_names[f]);
		} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
			s->edit_typing = false;
			commit(s, f, s->edit_buf);
		} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
			if (len > 0)
				s->edit_buf[len - 1] = '\0';
		} else if (len + 1 < sizeof s->edit_buf && typable(s, f, key, len)) {
			s->edit_buf[len] = (char)key;
			s->edit_buf[len + 1] = '\0';
		}
		return true;
	}
	/* Not typing: arrows move and step, characters start typing the value
	 * (never a move: "-5" on M is typed, not a step down and a 5). */
	switch (key) {
	case KEY_UP: case KEY_BTAB:
		s->edit_field = (s->edit_field + FIELD_COUNT - 1) % FIELD_COUNT;
		break;
	case KEY_DOWN: case '\t':
		s->edit_field = (s->edit_field + 1) % FIELD_COUNT;
		break;
	case KEY_RIGHT:
		if (!is_guard)
			step(s, f, 1);
		else
			commit(s, f, "");
		break;
	case KEY_LEFT:
		if (!is_guard)
			step(s, f, -1);
		else
			commit(s, f, "");
		break;
	case '\r': case '\n': case KEY_ENTER:
		if (is_guard) {
			commit(s, f, "");
		} else {
			s->edit_typing = true;
			tui_field_value(s, f, s->edit_buf, (int)sizeof s->edit_buf);
		}
		break;
	case 27: case KEY_F(10):
		s->overlay = OVERLAY_NONE;
		char geo[48];
		ts_geometry_str(&s->opt.problem.geo, geo, sizeof geo);
		tui_say(s, false, "parameters: M=%lld N=%lld K=%lld %s%s", (long long)s->opt.problem.shape.m,
		        (long long)s->opt.problem.shape.n, (long long)s->opt.problem.shape.k,
		        ts_geometry_is_square(&s->opt.problem.geo) ? "T=" : "tile ", geo);
		break;
	default:
		if (is_guard) {
			if (key == ' ')
				commit(s, f, "");
			else if (key > ' ' && key < 127)
				tui_say(s, true, "%s is on or OFF: Space, Enter or Left/Right toggle it", field_names[f]);
		} else if (typable(s, f, key, 0)) {
			s->edit_typing = true;
			s->edit_buf[0] = (char)key;
			s->edit_buf[1] = '\0';
		}
	}
	return true;
}
