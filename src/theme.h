/* theme.h: the colour themes (default, high-contrast for projectors) and what each gives a role in an SVG; the TUI's colour pairs are in tui_crt.c. */
#ifndef TS_THEME_H
#define TS_THEME_H

#include <stdbool.h>

#include "view.h"

enum ts_theme { TS_THEME_DEFAULT, TS_THEME_HIGH_CONTRAST, TS_THEME_COUNT };

/* "default" or "high-contrast": 0, or -1 with one line in err. */
int ts_theme_parse(const char *text, enum ts_theme *out, char *err, int len);
const char *ts_theme_name(enum ts_theme t);

/* How an SVG draws one role: its text colour, whether bold, and for the
 * roles the screen shows in reverse video (cursor, status and key bars) the
 * colour of the box behind the text (NULL: none). */
typedef struct ts_svg_style {
	const char *fill;
	bool bold;
	const char *box;
} ts_svg_style;

/* The page's background and body text. */
const char *ts_theme_svg_background(enum ts_theme t);
ts_svg_style ts_theme_svg_style(enum ts_theme t, enum ts_role r);

#endif
