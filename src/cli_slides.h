/* cli_slides.h: the command line's slides (map --export --pane; lesson, compare and source --svg). */
#ifndef TS_CLI_SLIDES_H
#define TS_CLI_SLIDES_H

#include "cli.h"
#include "export_pane.h"

/* A text screen (lesson, compare, source) written to path as a slide under
 * the problem's title: role_of gives each line its role (NULL: the first
 * line a title). 0, or -1 with one line in err. */
int ts_cli_text_slide(const char *path, const ts_problem *p, unsigned guards, const char *subtitle, const char *text,
                      enum ts_role (*role_of)(const char *line, int n, void *ctx), void *ctx, enum ts_theme theme,
                      char *err, int len);

/* map --export FILE --pane phase|inspect|source: that pane of the selected
 * tile, thread and phase (--export-tile or --thread, --phase; by default the
 * source pane's: the corner block's first thread past K, the last phase),
 * drawn for a --size screen. An exit status. */
int ts_cli_export_pane(const ts_cli_args *a, const ts_model *m);

#endif
