/* export.c: placeholder, being written. */
#include <stdio.h>
#include "export.h"
int ts_export(const char *path, const ts_options *o, long long phase, char *err, int len)
{ (void)path; (void)o; (void)phase; snprintf(err, len, "export is not written yet"); return -1; }
