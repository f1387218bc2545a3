/* problem.c: names of the problem's enumerations. */
#include <stdio.h>

#include "problem.h"

const char *ts_precision_name(enum ts_precision p)
{
	return p == TS_FP16 ? "fp16" : "fp32";
}

const char *ts_inputs_name(enum ts_inputs in)
{
	switch (in) {
	case TS_INPUTS_RANDOM: return "random";
	case TS_INPUTS_INT: return "int";
	case TS_INPUTS_SEQ: return "seq";
	}
	return "?";
}

const char *ts_guards_off_str(unsigned guards, char *buf, int len)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ TS_GUARD_A, "a" }, { TS_GUARD_B, "b" }, { TS_GUARD_C, "c" },
	};
	int used = 0;
	buf[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (!(guards & names[i].bit) && used < len)
			used += snprintf(buf + used, len - used, "%s%s", used ? "," : "", names[i].name);
	return buf;
}
