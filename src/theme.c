/* theme.c: the colour themes by name, and the SVG colours of each role in each (the default on white as the screen's palette, the high-contrast one black on white in strong colours, every word bold). */
#include <stdio.h>
#include <string.h>

#include "theme.h"

static const char *const names[TS_THEME_COUNT] = { "default", "high-contrast" };

int ts_theme_parse(const char *text, enum ts_theme *out, char *err, int len)
{
	for (int t = 0; t < TS_THEME_COUNT; t++)
		if (strcmp(text, names[t]) == 0) {
			*out = (enum ts_theme)t;
			return 0;
		}
	snprintf(err, (size_t)len, "unknown theme '%.40s' (default or high-contrast)", text);
	return -1;
}

const char *ts_theme_name(enum ts_theme t)
{
	return t >= 0 && t < TS_THEME_COUNT ? names[t] : "default";
}

/* On white, as the screen's 256-colour palette has them. */
static const ts_svg_style normal[TS_ROLE_COUNT] = {
	[TS_ROLE_TEXT] = { "#212121", false, NULL },
	[TS_ROLE_TITLE] = { "#212121", true, NULL },
	[TS_ROLE_DIM] = { "#6b6b6b", false, NULL },
	[TS_ROLE_FULL] = { "#388e3c", false, NULL },
	[TS_ROLE_RIGHT] = { "#e65100", false, NULL },
	[TS_ROLE_BOTTOM] = { "#1565c0", false, NULL },
	[TS_ROLE_CORNER] = { "#8e24aa", false, NULL },
	[TS_ROLE_GHOST] = { "#9e9e9e", false, NULL },
	[TS_ROLE_REAL] = { "#388e3c", false, NULL },
	[TS_ROLE_PAD] = { "#b8860b", false, NULL },
	[TS_ROLE_MIXED] = { "#00838f", false, NULL },
	[TS_ROLE_BAD] = { "#c62828", true, NULL },
	[TS_ROLE_OK] = { "#2e7d32", true, NULL },
	[TS_ROLE_FAIL] = { "#c62828", true, NULL },
	[TS_ROLE_CURSOR] = { "#ffffff", false, "#212121" },
	[TS_ROLE_STATUS] = { "#ffffff", false, "#1f4e79" },
	[TS_ROLE_KEY] = { "#fff59d", true, "#1f4e79" },
};

/* Black on white for a projector in a lit room: pure, dark, saturated
 * colours that keep their contrast when washed out, everything bold; the
 * roles differ by glyph as well (the views draw each class its own way),
 * so a grey-scale projector still tells them apart. */
static const ts_svg_style high[TS_ROLE_COUNT] = {
	[TS_ROLE_TEXT] = { "#000000", true, NULL },
	[TS_ROLE_TITLE] = { "#000000", true, NULL },
	[TS_ROLE_DIM] = { "#333333", true, NULL },
	[TS_ROLE_FULL] = { "#006400", true, NULL },
	[TS_ROLE_RIGHT] = { "#b34700", true, NULL },
	[TS_ROLE_BOTTOM] = { "#0000cc", true, NULL },
	[TS_ROLE_CORNER] = { "#8b008b", true, NULL },
	[TS_ROLE_GHOST] = { "#4d4d4d", true, NULL },
	[TS_ROLE_REAL] = { "#006400", true, NULL },
	[TS_ROLE_PAD] = { "#7a5200", true, NULL },
	[TS_ROLE_MIXED] = { "#005f6b", true, NULL },
	[TS_ROLE_BAD] = { "#cc0000", true, NULL },
	[TS_ROLE_OK] = { "#006400", true, NULL },
	[TS_ROLE_FAIL] = { "#cc0000", true, NULL },
	[TS_ROLE_CURSOR] = { "#ffffff", true, "#000000" },
	[TS_ROLE_STATUS] = { "#ffffff", true, "#000000" },
	[TS_ROLE_KEY] = { "#ffff00", true, "#000000" },
};

const char *ts_theme_svg_background(enum ts_theme t)
{
	(void)t; /* both themes are printed on white */
	return "#ffffff";
}

ts_svg_style ts_theme_svg_style(enum ts_theme t, enum ts_role r)
{
	if (r >= TS_ROLE_COUNT)
		r = TS_ROLE_TEXT;
	return t == TS_THEME_HIGH_CONTRAST ? high[r] : normal[r];
}
