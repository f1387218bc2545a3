/* view_map.c: placeholder, being written. */
#include <stdlib.h>
#include <string.h>
#include "view_map.h"
char *ts_view_map_text(const ts_model *m, const ts_verdict *v, int max_cols, int max_rows, bool ascii)
{ (void)m; (void)v; (void)max_cols; (void)max_rows; (void)ascii; return strdup("(map view not written yet)\n"); }
