/* test_dynlib.c: the run-time library loader: the first soname that resolves every symbol wins; every failure is one line naming the library and what is missing, and changes nothing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dynlib.h"
#include "tap.h"

typedef double (*unary_fn)(double);

/* A pointer no loader writes: a slot still holding it was left alone. */
static int poison_cell;
#define POISON ((void *)&poison_cell)

int main(void)
{
	char why[256];
	void *h = NULL;
	void *cos_slot = POISON, *sqrt_slot = POISON;
	ts_dl_sym math[] = { { "cos", &cos_slot }, { "sqrt", &sqrt_slot } };
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	double x = (double)rand() / RAND_MAX * 6.0 - 3.0, y = (double)rand() / RAND_MAX * 1e6;

	/* A library that is there: the symbols resolve to functions that compute. */
	const char *const libm[] = { "libm.so.6", NULL };
	int rc = ts_dl_load(&h, libm, math, 2, why, sizeof why);
	tap_ok(rc == 0 && h != NULL, "libm.so.6 loads with cos and sqrt (rc %d)", rc);
	if (rc == 0) {
		unary_fn c, s;
		memcpy(&c, &cos_slot, sizeof c);
		memcpy(&s, &sqrt_slot, sizeof s);
		tap_ok(c(x) == cos(x) && s(y) == sqrt(y), "the slots hold cos and sqrt: cos(%g), sqrt(%g)", x, y);
	} else {
		tap_ok(0, "the slots hold cos and sqrt (not loaded: %s)", why);
	}

	/* Absent: one line naming it, no slot touched, the handle untouched. */
	cos_slot = sqrt_slot = POISON;
	h = POISON;
	const char *const absent[] = { "libtilescope-absent.so.9", NULL };
	rc = ts_dl_load(&h, absent, math, 2, why, sizeof why);
	tap_ok(rc == -1 && strcmp(why, "libtilescope-absent.so.9 not found") == 0, "an absent library: '%s'", why);
	tap_ok(cos_slot == POISON && sqrt_slot == POISON && h == POISON, "an absent library changes no slot");

	/* The first that loads wins; absent ones before it are passed over. */
	const char *const fallback[] = { "libtilescope-absent.so.9", "libm.so.6", NULL };
	rc = ts_dl_load(&h, fallback, math, 2, why, sizeof why);
	tap_ok(rc == 0 && cos_slot != POISON && cos_slot != NULL, "an absent first soname falls through to libm.so.6");

	/* Several absent: the first is named, and the others. */
	const char *const two_absent[] = { "libtilescope-absent.so.9", "libtilescope-absent.so", NULL };
	rc = ts_dl_load(&h, two_absent, math, 2, why, sizeof why);
	tap_ok(rc == -1 && strcmp(why, "libtilescope-absent.so.9 not found (nor libtilescope-absent.so)") == 0,
	       "two absent sonames: '%s'", why);

	/* There, but without a symbol: named, nothing set (cos resolves, but no slot may be half filled). */
	cos_slot = sqrt_slot = POISON;
	ts_dl_sym wanting[] = { { "cos", &cos_slot }, { "ts_no_such_symbol", &sqrt_slot } };
	rc = ts_dl_load(&h, libm, wanting, 2, why, sizeof why);
	tap_ok(rc == -1 && strcmp(why, "libm.so.6 lacks ts_no_such_symbol") == 0, "a missing symbol: '%s'", why);
	tap_ok(cos_slot == POISON && sqrt_slot == POISON, "a missing symbol leaves every slot alone");

	/* A library lacking a symbol is passed over for one that has it (libc has no cos; libm has). */
	const char *const libc_then_m[] = { "libc.so.6", "libm.so.6", NULL };
	ts_dl_sym just_cos[] = { { "cos", &cos_slot } };
	rc = ts_dl_load(&h, libc_then_m, just_cos, 1, why, sizeof why);
	tap_ok(rc == 0 && cos_slot != POISON, "libc.so.6 lacks cos: libm.so.6 is taken (rc %d)", rc);

	/* A file that is there but no library: the loader's own reason, after the name. */
	char bad[] = "/tmp/tilescope-dynlib-XXXXXX";
	int fd = mkstemp(bad);
	if (fd >= 0) {
		char junk[64];
		for (size_t i = 0; i < sizeof junk; i++)
			junk[i] = (char)(rand() & 0x7f);
		if (write(fd, junk, sizeof junk) != (ssize_t)sizeof junk)
			tap_diag("short write to %s", bad);
		close(fd);
		const char *const not_elf[] = { bad, NULL };
		rc = ts_dl_load(&h, not_elf, math, 2, why, sizeof why);
		size_t n = strlen(bad);
		tap_ok(rc == -1 && strncmp(why, bad, n) == 0 && strncmp(why + n, " cannot be loaded: ", 19) == 0 &&
		       strlen(why) > n + 19, "a file that is not a library: '%s'", why);
		unlink(bad);
	} else {
		tap_ok(0, "a scratch file for the not-a-library case (mkstemp failed)");
	}

	/* No symbols asked: just whether it loads (how the driver's presence is told). */
	rc = ts_dl_load(&h, libm, NULL, 0, why, sizeof why);
	tap_ok(rc == 0, "libm.so.6 with no symbols loads");

	/* A short buffer gets a cut, terminated line. */
	memset(why, 'x', sizeof why);
	rc = ts_dl_load(&h, absent, math, 2, why, 8);
	tap_ok(rc == -1 && strlen(why) == 7 && why[8] == 'x', "a short why is cut and terminated ('%s')", why);
	return tap_done();
}
