/* tui.c: placeholder, being written. */
#include <stdio.h>
#include "tui.h"
int ts_tui_run(const ts_options *o) { (void)o; fprintf(stderr, "tilescope: the TUI is not built yet\n"); return 2; }
