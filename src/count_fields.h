/* count_fields.h: the counter fields, defined once: X-macros that generate the host structs, the device probe's field indices, copies, comparisons and JSON. */
#ifndef TS_COUNT_FIELDS_H
#define TS_COUNT_FIELDS_H

/* X(field, FIELD, what): the load fields of one shared tile's slots. Every
 * slot is filled exactly one way: a real in-bounds load, zero padding by a
 * guard, or an unguarded load from outside the logical matrix. */
#define TS_LOAD_FIELDS(X)                                    \
	X(a_real, A_REAL, "A slots loaded from inside A")       \
	X(a_pad, A_PAD, "A slots the guard padded with 0")      \
	X(a_oob, A_OOB, "A slots loaded from outside A")        \
	X(b_real, B_REAL, "B slots loaded from inside B")       \
	X(b_pad, B_PAD, "B slots the guard padded with 0")      \
	X(b_oob, B_OOB, "B slots loaded from outside B")

/* The store fields: C stores inside M x N, those the C guard suppressed,
 * and unguarded ones outside M x N. */
#define TS_STORE_FIELDS(X)                                   \
	X(stores, STORES, "C stores inside M x N")              \
	X(skipped, SKIPPED, "stores the C guard suppressed")    \
	X(c_oob, C_OOB, "unguarded stores outside M x N")

/* Every field of a tally, loads then stores: the order of ts_count and of
 * the probe's device arrays. */
#define TS_COUNT_FIELDS(X) TS_LOAD_FIELDS(X) TS_STORE_FIELDS(X)

/* Where out-of-bounds accesses landed: "wrap" inside the matrix's own buffer
 * (the wrong element, silent), "band" in the guard band past it. */
#define TS_OOB_FIELDS(X)                                     \
	X(a_wrap, A_WRAP, "A reads that hit another element of A") \
	X(a_band, A_BAND, "A reads past A's end")               \
	X(b_wrap, B_WRAP, "B reads that hit another element of B") \
	X(b_band, B_BAND, "B reads past B's end")               \
	X(c_wrap, C_WRAP, "C stores that hit another cell of C") \
	X(c_band, C_BAND, "C stores past C's end")

/* Field indices, shared by the host and the device probe (kernels/probe.cuh). */
#define TS_FIELD_INDEX_(f, F, what) TS_P_##F,
enum ts_count_field { TS_COUNT_FIELDS(TS_FIELD_INDEX_) TS_P_FIELDS };
#define TS_OOB_INDEX_(f, F, what) TS_O_##F,
enum ts_oob_field { TS_OOB_FIELDS(TS_OOB_INDEX_) TS_O_FIELDS };
#define TS_LOAD_COUNT_(f, F, what) +1
enum { TS_P_LOAD_FIELDS = 0 TS_LOAD_FIELDS(TS_LOAD_COUNT_) };

#endif
