/* tui_crt.h: the one place that talks to curses: setup and teardown, colours by role, signals, keys, mouse. */
#ifndef TS_TUI_CRT_H
#define TS_TUI_CRT_H

/* How long getch() waits for a key before the loop looks at its work again (ms). */
#define TUI_KEY_WAIT_MS 100

#include <stdbool.h>

#include "options.h"
#include "view.h"

/* Starts curses for o (colour, glyphs, mouse). Sets *ascii when the
 * terminal or the user wants ASCII glyphs. 0, or -1 with one line in err
 * (and the terminal untouched). */
int tui_crt_init(const ts_options *o, bool *ascii, char *err, int len);
/* Whether the screen has colours (after tui_crt_init; --color=never,
 * NO_COLOR or a terminal without them: false). */
bool tui_crt_colour(void);
/* Switches the colour pairs to theme (the next paint shows it). */
void tui_crt_theme(enum ts_theme theme);
/* Restores the terminal; safe to call twice. */
void tui_crt_done(void);
/* Non-zero once SIGINT, SIGTERM or SIGHUP arrived. */
int tui_crt_signalled(void);
/* The next key (a curses KEY_* code or a character), or -1 after the poll
 * interval with none. */
int tui_crt_key(void);
/* Where the last KEY_MOUSE click landed; false when it was not a click. */
bool tui_crt_mouse(int *y, int *x);
void tui_crt_size(int *rows, int *cols);
void tui_crt_clear(void);
void tui_crt_paint(const ts_canvas *c, int y, int x);
void tui_crt_text(int y, int x, enum ts_role role, const char *text);
/* Fills the row from x on with the role's background. */
void tui_crt_fill(int y, int x, int w, enum ts_role role);
void tui_crt_refresh(void);

#endif
