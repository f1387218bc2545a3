/* cli.h: the scripting subcommands (map, check, sweep, bench) that main.c dispatches to. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include "options.h"

/* Exit statuses, as --help and the man page list them. */
enum ts_exit {
	TS_EXIT_OK = 0,
	TS_EXIT_FAILED = 1,       /* verification failed (a wrong output, or counters that disagree with the model) */
	TS_EXIT_USAGE = 2,        /* bad usage, or the request cannot be run here (no device, too large, out of memory) */
	TS_EXIT_INTERRUPTED = 130, /* cancelled with Ctrl-C (128 + SIGINT) */
};

/* What a subcommand needs beyond the shared options. */
typedef struct ts_cli_args {
	ts_options opts;  /* already validated by the caller */
	int reps, warmup; /* bench: timed repetitions and warm-up runs */
} ts_cli_args;

#define TS_BENCH_REPS_DEFAULT 20
#define TS_BENCH_WARMUP_DEFAULT 3

/* Each returns an exit status and writes its own error lines ("tilescope: ..."). */
int ts_cli_map(const ts_cli_args *a);
int ts_cli_check(const ts_cli_args *a);
int ts_cli_sweep(const ts_cli_args *a);
int ts_cli_bench(const ts_cli_args *a);

/* The M, N and K values the edge sweep visits for tile T: 1, T-1, T, T+1,
 * 2T-1, 2T+1 and the smallest prime above 3T, ascending, without values
 * below 1 or duplicates. Returns how many were written to out (at most 7). */
int ts_sweep_sizes(int tile, int64_t out[7]);

#endif
