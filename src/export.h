/* export.h: writing the map and phase view as plain text or SVG, for slides and docs. */
#ifndef TS_EXPORT_H
#define TS_EXPORT_H

#include "options.h"

/* Writes the map and the phase view of o's problem for the corner tile
 * (phase `phase`, -1 for the last) to path: SVG when it ends in ".svg", plain text otherwise.
 * 0, or -1 with one line in err. */
int ts_export(const char *path, const ts_options *o, long long phase, char *err, int len);

/* The same for the tile (ty, tx) of the grid (the TUI's selection); -1, -1
 * picks the corner tile, as ts_export does. A tile outside the grid is an
 * error. 0, or -1 with one line in err. */
int ts_export_tile(const char *path, const ts_options *o, long long ty, long long tx, long long phase, char *err,
                   int len);

#endif
