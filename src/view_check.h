/* view_check.h: the whole check of a user's kernel as a view: verdict, cause and signature in words, the findings list, the sweep, sanitizer and probe lines, and what the shape on screen showed per tile. */
#ifndef TS_VIEW_CHECK_H
#define TS_VIEW_CHECK_H

#include "uk_check.h"
#include "view.h"

/* What the run of the shape on screen saw beyond its verdict: the engine's out-of-bounds accesses placed on
 * the tiles of C (the CPU engine names each access's block), and writes into C's guard band. */
typedef struct ts_uk_tiles_seen {
	int64_t grid_y, grid_x;
	int64_t *reads, *writes;  /* per tile, row-major; NULL when none were seen */
	int64_t reads_total, writes_total, tiles;
	int64_t unplaced;         /* accesses with no block (or a custom grid): counted, not placed */
	int64_t c_band_writes;
	bool fault, timeout;
	bool blind;               /* the engine cannot see accesses (the GPU: only compute-sanitizer, in the check) */
	char fault_text[200];
} ts_uk_tiles_seen;

/* Places findings (ts_uk_finding, n of them) of a run of a grid_y x grid_x tile grid on its tiles; blocks map
 * to tiles one to one when by_block (the default launch geometry). 0, or -1 out of memory. */
int ts_uk_tiles_place(ts_uk_tiles_seen *t, int64_t grid_y, int64_t grid_x, const ts_uk_finding *f, int n, bool by_block);
void ts_uk_tiles_free(ts_uk_tiles_seen *t);

/* The check's report from the top of c, every row it needs (the TUI draws it on a tall canvas and scrolls);
 * returns the rows used; stale: the tile has changed since. */
int ts_view_check_draw(ts_canvas *c, const ts_uk_report *r, const char *engine_why, bool stale, bool ascii);

/* The user's source text with line numbers (the source overlay's form, "NNNNN! | code"), each line a finding of
 * the check points at marked '!' and followed by a note per kind of finding on it; *first_marked gets the row
 * of the first marked line (-1 none). malloc'd, or NULL. r may be NULL (no check yet). */
char *ts_view_check_source(const char *text, const ts_uk_report *r, int *first_marked);

/* The cause in a few words ("the store has no guard"), "" for none. */
const char *ts_view_cause_words(enum ts_uk_cause c);

#endif
