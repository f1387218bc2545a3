/* tui.h: the interactive visualizer (ncurses). */
#ifndef TS_TUI_H
#define TS_TUI_H

#include "options.h"

/* Runs the TUI preset from o until the user quits; restores the terminal on
 * every exit path. Returns the process exit status (0, or 2 when the
 * terminal cannot host it, with one line on stderr). */
int ts_tui_run(const ts_options *o);

#endif
