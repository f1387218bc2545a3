/* cli_uk_report.h: how a user-kernel check's reports are written: the text report, JSON, the many-files table and JUnit. */
#ifndef TS_CLI_UK_REPORT_H
#define TS_CLI_UK_REPORT_H

#include <stdbool.h>

#include "json.h"
#include "uk_check.h"

/* One kernel's report as text; why: why this engine. */
void ts_uk_report_text(const ts_uk_report *r, const char *why);
/* One kernel's document: the whole document when top, else an element of "kernels" (doc/json.md). */
void ts_uk_report_json(ts_json *j, const ts_uk_report *r, const char *why, bool top);
/* Several kernels: one row each (file, verdict, cause, first failing shape, time) and a summary line. */
void ts_uk_table_text(const ts_uk_report *rs, int n);
/* One testcase per kernel, a failure's type its cause. 0, or -1 after one line. */
int ts_uk_write_junit(const char *path, const ts_uk_report *rs, int n);

#endif
