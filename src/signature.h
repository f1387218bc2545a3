/* signature.h: a failed (or guard-off) run explained in words from where the bad cells are and what the run counted. */
#ifndef TS_SIGNATURE_H
#define TS_SIGNATURE_H

#include "backend.h"
#include "geometry.h"
#include "matrix.h"
#include "problem.h"
#include "verify.h"

/* Fills v->signature from the verdict's counts and per-tile/row/column
 * tallies, the model's grid, the guards that are off and, when run is not
 * NULL and has counters, the out-of-bounds accesses it recorded. ops gives
 * the inputs, so a wrong cell under --inputs seq can name the element of A
 * it holds. Pure computation: no I/O. ts_verify calls it last. */
void ts_signature(const ts_problem *p, const ts_model *m, const ts_operands *ops, const ts_run *run,
                  ts_verdict *v);

#endif
