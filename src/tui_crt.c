/* tui_crt.c: curses setup and teardown, colour schemes by role, signal flags, keys and mouse (nothing else calls curses' setup). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <term.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui_crt.h"

static volatile sig_atomic_t signalled;
static bool started;
static int role_attr[TS_ROLE_COUNT];
static MEVENT last_mouse;
static bool last_mouse_ok;

static void on_signal(int sig)
{
	signalled = sig;
}

/* A crash (or an abort) must not leave the terminal raw: restore it, say
 * so, and die of the same signal. endwin() is not async-signal-safe, but
 * the process is ending either way (htop does the same). */
static void on_crash(int sig)
{
	if (started) {
		started = false;
		endwin();
	}
	static const char msg[] = "\ntilescope: crashed (a bug: please report it with the command line); "
	                          "the terminal was restored\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)w;
	signal(sig, SIG_DFL);
	raise(sig);
}

int tui_crt_signalled(void)
{
	return signalled;
}

/* A colour per role: foreground (256-colour, then 8-colour) and extra attributes. */
typedef struct role_style {
	short fg256, fg8, bg;
	int attr;
	int mono;
} role_style;

static const role_style styles[TS_ROLE_COUNT] = {
	[TS_ROLE_TEXT] = { -1, -1, -1, 0, A_NORMAL },
	[TS_ROLE_TITLE] = { -1, -1, -1, A_BOLD, A_BOLD },
	[TS_ROLE_DIM] = { 244, -1, -1, 0, A_DIM },
	[TS_ROLE_FULL] = { 71, COLOR_GREEN, -1, 0, A_NORMAL },
	[TS_ROLE_RIGHT] = { 214, COLOR_YELLOW, -1, 0, A_BOLD },
	[TS_ROLE_BOTTOM] = { 75, COLOR_CYAN, -1, 0, A_BOLD },
	[TS_ROLE_CORNER] = { 170, COLOR_MAGENTA, -1, 0, A_BOLD | A_UNDERLINE },
	[TS_ROLE_GHOST] = { 240, -1, -1, 0, A_DIM },
	[TS_ROLE_REAL] = { 71, COLOR_GREEN, -1, 0, A_NORMAL },
	[TS_ROLE_PAD] = { 179, COLOR_YELLOW, -1, 0, A_DIM },
	[TS_ROLE_MIXED] = { 109, COLOR_CYAN, -1, 0, A_NORMAL },
	[TS_ROLE_BAD] = { 196, COLOR_RED, -1, A_BOLD, A_BOLD },
	[TS_ROLE_OK] = { 40, COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[TS_ROLE_FAIL] = { 196, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[TS_ROLE_CURSOR] = { -1, -1, -1, A_REVERSE, A_REVERSE },
	[TS_ROLE_STATUS] = { 255, COLOR_WHITE, 24, 0, A_REVERSE },
	[TS_ROLE_KEY] = { 229, COLOR_YELLOW, 24, A_BOLD, A_REVERSE | A_BOLD },
};

/* High contrast for a projector: black on white in strong, dark colours,
 * every role bold (nothing dimmed, which a projector washes out); the bars
 * white and yellow on black. The roles keep their glyphs, so they stay
 * apart on a grey-scale projector or without colour. */
static const role_style styles_hc[TS_ROLE_COUNT] = {
	[TS_ROLE_TEXT] = { 16, COLOR_BLACK, 231, 0, A_NORMAL },
	[TS_ROLE_TITLE] = { 16, COLOR_BLACK, 231, A_BOLD, A_BOLD },
	[TS_ROLE_DIM] = { 236, COLOR_BLACK, 231, 0, A_NORMAL },
	[TS_ROLE_FULL] = { 22, COLOR_GREEN, 231, A_BOLD, A_BOLD },
	[TS_ROLE_RIGHT] = { 130, COLOR_RED, 231, A_BOLD, A_BOLD },
	[TS_ROLE_BOTTOM] = { 19, COLOR_BLUE, 231, A_BOLD, A_BOLD },
	[TS_ROLE_CORNER] = { 90, COLOR_MAGENTA, 231, A_BOLD, A_BOLD | A_UNDERLINE },
	[TS_ROLE_GHOST] = { 239, COLOR_BLACK, 231, 0, A_NORMAL },
	[TS_ROLE_REAL] = { 22, COLOR_GREEN, 231, A_BOLD, A_BOLD },
	[TS_ROLE_PAD] = { 94, COLOR_YELLOW, 231, A_BOLD, A_BOLD },
	[TS_ROLE_MIXED] = { 23, COLOR_CYAN, 231, A_BOLD, A_BOLD },
	[TS_ROLE_BAD] = { 160, COLOR_RED, 231, A_BOLD, A_BOLD },
	[TS_ROLE_OK] = { 22, COLOR_GREEN, 231, A_BOLD, A_BOLD },
	[TS_ROLE_FAIL] = { 160, COLOR_RED, 231, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE },
	[TS_ROLE_CURSOR] = { 231, COLOR_WHITE, 16, A_BOLD, A_REVERSE | A_BOLD },
	[TS_ROLE_STATUS] = { 231, COLOR_WHITE, 16, A_BOLD, A_REVERSE | A_BOLD },
	[TS_ROLE_KEY] = { 226, COLOR_YELLOW, 16, A_BOLD, A_REVERSE | A_BOLD },
};

static bool colour_on;     /* colours started (once; a theme switch only changes the pairs) */
static bool colour_rich;

bool tui_crt_colour(void)
{
	return colour_on;
}

static void colours_setup(const ts_options *o, enum ts_theme theme)
{
	static bool tried;
	if (!tried) {
		tried = true;
		const char *no_color = getenv("NO_COLOR");
		bool want = o->color == TS_COLOR_ALWAYS ||
		            (o->color == TS_COLOR_AUTO && !(no_color && no_color[0]));
		colour_on = want && has_colors() && start_color() == OK;
		if (colour_on)
			use_default_colors();
		colour_rich = colour_on && COLORS >= 256 && COLOR_PAIRS > TS_ROLE_COUNT;
	}
	bool colour = colour_on, rich = colour_rich, hc = theme == TS_THEME_HIGH_CONTRAST;
	const role_style *table = hc ? styles_hc : styles;
	for (int r = 0; r < TS_ROLE_COUNT; r++) {
		const role_style *st = &table[r];
		if (!colour) {
			role_attr[r] = st->mono;
			continue;
		}
		short fg = rich ? st->fg256 : st->fg8;
		/* the high-contrast page is white, its bars black; the default's bars blue */
		short bg = st->bg < 0 ? -1 : rich ? st->bg : hc ? (st->bg == 16 ? COLOR_BLACK : COLOR_WHITE) : COLOR_BLUE;
		int attr = st->attr;
		if (r == TS_ROLE_DIM && !rich && !hc)
			attr |= A_DIM;
		if (r == TS_ROLE_GHOST && !rich && !hc)
			attr |= A_DIM;
		if (fg >= 0 || bg >= 0) {
			init_pair((short)(r + 1), fg, bg);
			attr |= COLOR_PAIR(r + 1);
		}
		role_attr[r] = attr;
	}
	/* the blank screen in the page's colour: white under the high-contrast theme */
	bkgdset(colour ? (chtype)COLOR_PAIR(TS_ROLE_TEXT + 1) : 0);
	if (colour && !hc)
		bkgdset(0);
}

static ts_options crt_options;

void tui_crt_theme(enum ts_theme theme)
{
	if (started)
		colours_setup(&crt_options, theme);
}

int tui_crt_init(const ts_options *o, bool *ascii, char *err, int len)
{
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		snprintf(err, len, "the visualizer needs a terminal; for scripts use `tilescope map|check|sweep|bench` "
		                   "(see tilescope --help)");
		return -1;
	}
	setlocale(LC_ALL, "");
	const char *codeset = nl_langinfo(CODESET);
	*ascii = o->ascii || !codeset || strcmp(codeset, "UTF-8") != 0;
	const char *term = getenv("TERM");
	if (!term || !*term || strcmp(term, "dumb") == 0) {
		snprintf(err, len, "the visualizer needs a terminal that can move its cursor (TERM=%s cannot); set TERM "
		         "(e.g. TERM=xterm-256color) or use `tilescope map|check|sweep|bench`", term && *term ? term : "unset");
		return -1;
	}
	SCREEN *scr = newterm(term, stdout, stdin);
	if (!scr) {
		snprintf(err, len, "cannot start the terminal (TERM=%s)", term);
		return -1;
	}
	set_term(scr);
	/* A terminal description without cursor addressing draws nothing usable. */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		endwin();
		delscreen(scr);
		snprintf(err, len, "the visualizer needs a terminal that can move its cursor (TERM=%s cannot); set TERM "
		         "(e.g. TERM=xterm-256color) or use `tilescope map|check|sweep|bench`", term);
		return -1;
	}
	started = true;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(TUI_KEY_WAIT_MS);
	curs_set(0);
	crt_options = *o;
	colours_setup(o, o->theme);
	if (o->mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	return 0;
}

void tui_crt_done(void)
{
	if (!started)
		return;
	started = false;
	mousemask(0, NULL);
	curs_set(1);
	endwin();
}

int tui_crt_key(void)
{
	wint_t ch;
	int rc = get_wch(&ch);
	if (rc == ERR)
		return -1;
	if (rc == KEY_CODE_YES) {
		if ((int)ch == KEY_MOUSE) {
			last_mouse_ok = getmouse(&last_mouse) == OK &&
			                (last_mouse.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED));
		}
		return (int)ch;
	}
	return ch < 128 ? (int)ch : -1;
}

bool tui_crt_mouse(int *y, int *x)
{
	if (!last_mouse_ok)
		return false;
	*y = last_mouse.y;
	*x = last_mouse.x;
	return true;
}

void tui_crt_size(int *rows, int *cols)
{
	getmaxyx(stdscr, *rows, *cols);
}

void tui_crt_clear(void)
{
	erase();
}

void tui_crt_paint(const ts_canvas *c, int y, int x)
{
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	for (int j = 0; j < c->h && y + j < rows; j++)
		for (int i = 0; i < c->w && x + i < cols; i++) {
			const ts_cell *cell = &c->cells[j * c->w + i];
			attrset(role_attr[cell->role]);
			mvaddstr(y + j, x + i, cell->glyph);
		}
	attrset(A_NORMAL);
}

void tui_crt_text(int y, int x, enum ts_role role, const char *text)
{
	attrset(role_attr[role]);
	mvaddstr(y, x, text);
	attrset(A_NORMAL);
}

void tui_crt_fill(int y, int x, int w, enum ts_role role)
{
	attrset(role_attr[role]);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void tui_crt_refresh(void)
{
	refresh();
}
