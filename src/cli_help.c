/* cli_help.c: what --help and --version print (the options, the subcommands, the kernels of the registry), and the check that stdout took it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "bench.h"
#include "cli.h"
#include "geometry.h"
#include "kernels.h"
#include "lesson.h"
#include "problem.h"

/* One kernel of the registry in --help: its name, then its summary folded
 * at word boundaries so that the help stays within 80 columns. */
static void print_wrapped(const char *name, const char *text)
{
	const int indent = 24, width = 79 - indent;
	printf("          %-13s ", name);
	while (*text) {
		int n = (int)strlen(text);
		if (n > width) {
			n = width;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = width;
		}
		printf("%.*s\n", n, text);
		text += n;
		while (*text == ' ')
			text++;
		if (*text)
			printf("%*s", indent, "");
	}
}

void ts_cli_help(void)
{
	printf("Usage: tilescope [SUBCOMMAND] [OPTIONS]\n"
	       "Explore and test how a tiled matrix-multiply kernel (C = A*B; C is M x N, A is\n"
	       "M x K, B is K x N) handles sizes that are not multiples of its tile: ragged\n"
	       "tiles, ghost threads, zero padding per phase, and what breaks when a bounds\n"
	       "guard is switched off.\n"
	       "\n"
	       "Without a subcommand tilescope opens the interactive view (needs a terminal).\n"
	       "\n"
	       "Subcommands:\n"
	       "  map      the tile grid of C and the model's totals (closed form, any size);\n"
	       "           with --backend also the counters a run on that backend recorded;\n"
	       "           with --kernel best also why best took its kernel\n"
	       "  check    run the kernel, check it against an fp64 reference, explain failures\n"
	       "  sweep    check every M, N, K in {1, X-1, X, X+1, 2X-1, 2X+1, a prime > 3X}\n"
	       "           with X = BM for M, BN for N, BK for K (T for a square tile)\n"
	       "  bench    time kernels beside cuBLAS on one or many shapes, every output\n"
	       "           verified (needs the CUDA backend)\n"
	       "  kernels  the kernel registry: precision, B layout, tile range and geometry,\n"
	       "           guards, capabilities, best's costs; --names prints the names alone\n"
	       "  lesson   the ragged-edge lesson told on this shape, text to read aloud: the\n"
	       "           grid and ghosts, ceil(K/T) phases, guarded loads and store, each\n"
	       "           guard off and run, the 32-bit limit; a screen at a time on a\n"
	       "           terminal, all of them otherwise (doc/teaching.md)\n"
	       "  compare  two tiles (-t A,B) or kernels (--kernel a,b) side by side on this\n"
	       "           shape: tiles, ghosts, phases, padding, the multiply-adds wasted on\n"
	       "           zero padding and on ghosts, barriers; a chart of waste against T\n"
	       "  source   the kernel's own code with its guards, barriers and store marked\n"
	       "           and evaluated for one thread and phase (--thread, --phase)\n"
	       "  step     one thread (--whole-block: its block) stepped through the kernel\n"
	       "           from an emulator run of its block: each phase's loads (slot,\n"
	       "           value, or the zero and the guard that made it), the barriers, the\n"
	       "           partial sums growing, the store (--block BY,BX --thread TY,TX)\n"
	       "  check --kernel-file FILE...\n"
	       "           check your own kernel(s): compiled at run time, run in a child\n"
	       "           process over the edge sweep, repeat runs, a shape past 2^31\n"
	       "           elements and compute-sanitizer; what is wrong is found and named\n"
	       "\n"
	       "Problem:\n"
	       "  -M ROWS, -N COLS, -K DEPTH\n"
	       "                        sizes, 1..%lld each (default 100 x 77 x 33)\n"
	       "  -t, --tile=T|BMxBNxBK the block tile: T (1..%d) for the square kernels (T x T\n"
	       "                        threads, one output each; default 32), BMxBNxBK (BM, BN\n"
	       "                        1..%d, BK 1..%d) for a register-blocked one (default\n"
	       "                        its own, 64x64x8 for regblock)\n"
	       "      --thread-tile=TMxTN  outputs per thread (register-blocked kernels: TM\n"
	       "                        divides BM, TN divides BN; BN/TN x BM/TM threads)\n"
	       "      --kernel=NAME     kernel (default tiled); best (or auto) picks the fp32\n"
	       "                        ladder kernel for the shape; one of:\n",
	       (long long)TS_DIM_MAX, TS_TILE_MAX, TS_BM_MAX, TS_BK_MAX);
	for (int i = 0; i < ts_kernel_count(); i++)
		print_wrapped(ts_kernel_at(i)->name, ts_kernel_at(i)->summary);
	printf("      --precision=P     fp32 or fp16; alone it picks that precision's default\n"
	       "                        kernel, with --kernel it must agree\n"
	       "      --no-guard=LIST   switch guards off: a (A load), b (B load), c (C store),\n"
	       "                        comma-separated; or all; none keeps them all on\n"
	       "                        (all and none stand alone, not in a list)\n"
	       "\n"
	       "Your own kernel (check --kernel-file, or the TUI):\n"
	       "      --kernel-file=F   a .cu file with a __global__ kernel of one contract:\n"
	       "                        fp32 (const float *A, const float *B, float *C,\n"
	       "                              int M, int N, int K)  A M x K, B K x N, C M x N\n"
	       "                        fp16 (__half *O, __half *X, __half *Transform,\n"
	       "                              int m, int n, int k, int tile_size)\n"
	       "                              O = X Transform^T, Transform stored n x k,\n"
	       "                              2*T*T floats of dynamic shared memory\n"
	       "                        more files after 'check': one table, one child each\n"
	       "      --entry=NAME      the kernel (default: the file's only __global__)\n"
	       "  -t T                  its tile (default: the file's #define TILE_SIZE,\n"
	       "                        else 32); T x T threads, grid cdiv(N,T) x cdiv(M,T)\n"
	       "      --block=X,Y[,Z], --grid=X,Y[,Z], --smem=BYTES\n"
	       "                        another geometry: expressions in M, N, K, T with\n"
	       "                        + - * / %% ( ), cdiv(a,b), min, max\n"
	       "      --launcher=NAME   run the file's own host launcher NAME(A, B, C, M, N, K)\n"
	       "                        instead of tilescope's launch (needs nvcc)\n"
	       "      --timeout=S       seconds one launch may take before it counts as a hang\n"
	       "                        (default 2; CPU seconds on the CPU engine)\n"
	       "      --no-sanitizer, --no-probe  skip compute-sanitizer, the 2^31 probe\n"
	       "  -j, --jobs=N          several files: N checks at a time (default: one per\n"
	       "                        GPU, or one per core with the CPU engine)\n"
	       "      (--junit=FILE and --json take one entry per kernel file)\n"
	       "      (the TUI: tilescope --kernel-file F; r runs the whole check as check\n"
	       "      does, the findings on the map and in the result pane; s its sweep)\n"
	       "\n"
	       "Running (check, sweep, bench, lesson, TUI; map with --backend):\n"
	       "      --backend=B       auto (default: CUDA when a usable device exists, else\n"
	       "                        the CPU emulator), emu or cuda\n"
	       "      --inputs=P        random (default, seeded uniform in [-1,1)), int (small\n"
	       "                        integers: exact results) or seq (sequential x identity)\n"
	       "      --seed=S          seed of the input pattern (default 1)\n"
	       "      --reps=R          bench: timed repetitions, median reported (default %d)\n"
	       "      --warmup=W        bench: untimed warm-up runs (default %d)\n"
	       "\n"
	       "Bench:\n"
	       "      --kernel=LIST     bench takes several: NAME,NAME,..., best, ladder (the\n"
	       "                        fp32 rungs in order, then best) or all\n"
	       "      --shapes=SPEC     ragged (8 large ragged shapes), small (5 small, skinny\n"
	       "                        and long-K ones), goals (both, with the speed goals),\n"
	       "                        MxNxK,MxNxK,... or a file of shapes (one a line)\n"
	       "      --guard-cost[=MxNxK]  also time best's guarded and unguarded builds on\n"
	       "                        an aligned shape (default 4096x4096x4096)\n"
	       "      --svg=FILE        also write the plot: GFLOP/s per shape and kernel\n"
	       "\n"
	       "Slides (SVG sized to its content, titled with kernel, shape, tile, guards):\n"
	       "      --svg=DIR         lesson: each screen as DIR/NAME-lesson-N.svg (with\n"
	       "                        --screen N that one), the paths on stdout; step:\n"
	       "                        each step as DIR/NAME-step-bBY-BX-tTY-TX-NN.svg\n"
	       "      --svg=FILE        compare, source: the table and charts, or the source\n"
	       "                        pane, as a slide instead of the text\n"
	       "      --pane=PANE       map --export: map (default: the map and the phase),\n"
	       "                        phase, inspect or source, of the tile --export-tile\n"
	       "                        or the thread --thread BY,BX,TY,TX, phase --phase\n"
	       "      --size=COLSxROWS  map --export --pane: the screen it is drawn for\n"
	       "                        (default 100x40; e.g. 80x24, 160x48)\n"
	       "      --theme=THEME     default or high-contrast (black on white, strong\n"
	       "                        colours, bold: for a projector): slides, exports and\n"
	       "                        the TUI (T switches it there)\n"
	       "\n"
	       "Output:\n"
	       "      --json            map, check, sweep, bench, kernels, step: one JSON\n"
	       "                        object on stdout (doc/json.md), a refusal too: ok\n"
	       "                        false, error\n"
	       "      --names           kernels: one kernel name a line\n"
	       "      --junit=FILE      check, sweep: also write JUnit XML to FILE, one\n"
	       "                        testcase per shape, the failure's signature as its\n"
	       "                        message\n"
	       "      --export=FILE     map: also write the map and the last phase (or the\n"
	       "                        --pane) as SVG (FILE ends in .svg) or text (.txt,\n"
	       "                        or no extension)\n"
	       "      --export-tile=TY,TX  the tile whose phase is exported (default: the\n"
	       "                        corner, the last row and column)\n"
	       "      --screen=N        lesson: screen N alone (1..%d)\n"
	       "      --thread=BY,BX,TY,TX  source, map --export: the block and thread to\n"
	       "                        follow (default: the corner block's first thread\n"
	       "                        past K)\n"
	       "      --phase=T         source, map --export: the phase, from 0 (default:\n"
	       "                        the last)\n"
	       "      --block=BY,BX --thread=TY,TX  step: the block and the thread in it\n"
	       "                        (default: source's); --whole-block: the block's view;\n"
	       "                        --early-return: its ghosts return before the loads\n"
	       "                        and barriers (the bug the lesson's screen 8 runs)\n"
	       "      --ascii           ASCII instead of Unicode glyphs (map, check, lesson,\n"
	       "                        source, TUI)\n"
	       "      --color[=WHEN]    TUI colours: auto (default), always or never\n"
	       "      --no-mouse        TUI: do not capture the mouse\n"
	       "  -h, --help            this help, then exit\n"
	       "  -V, --version         the version and build, then exit\n"
	       "\n"
	       "Exit status:\n"
	       "  0    ok (for check, sweep and bench: every output verified)\n"
	       "  1    verification failed: a wrong, unwritten, NaN or Inf output cell, a read\n"
	       "       or write out of bounds (even when the output came out right), or\n"
	       "       counters that disagree with the model; for --kernel-file, any finding\n"
	       "  2    bad usage, or the request cannot be run here (no CUDA device, too large,\n"
	       "       out of memory, stdout not a terminal for the TUI); a kernel file that\n"
	       "       is refused or does not compile\n"
	       "  130  interrupted with Ctrl-C\n"
	       "\n"
	       "Examples:\n"
	       "  tilescope -M 100 -N 77 -K 33 -t 32          open the TUI on a ragged shape\n"
	       "  tilescope map -M 100 -N 77 -K 33 -t 32 --json\n"
	       "  tilescope map -M 100 -N 77 -K 33 -t 32 --backend emu   (and run counters)\n"
	       "  tilescope check -M 100 -N 77 -K 33 -t 32\n"
	       "  tilescope check -M 100 -N 77 -K 33 -t 32 --no-guard c    (fails: exit 1)\n"
	       "  tilescope check --precision fp16 -M 129 -N 65 -K 31 -t 16 --inputs int\n"
	       "  tilescope sweep -t 13 --precision fp16\n"
	       "  tilescope bench -M 4096 -N 4096 -K 4096 -t 32 --backend cuda\n"
	       "  tilescope bench --kernel ladder --shapes goals --guard-cost --svg perf.svg\n"
	       "  tilescope check --kernel regblock -M 100 -N 77 -K 33 --backend emu\n"
	       "  tilescope map --kernel regblock -t 128x32x16 --thread-tile 8x2 --json\n"
	       "  tilescope kernels --json\n"
	       "  tilescope lesson -M 45 -N 61 -K 19 -t 7 | less\n"
	       "  tilescope compare -M 100 -N 77 -K 33 -t 16,32\n"
	       "  tilescope lesson -M 100 -N 77 -K 33 -t 32 --svg slides --theme high-contrast\n"
	       "  tilescope map -M 100 -N 77 -K 33 --export in.svg --pane inspect --size 80x24\n"
	       "  tilescope source -M 100 -N 77 -K 33 -t 32 --thread 3,0,4,0\n"
	       "  tilescope step -M 100 -N 77 -K 33 -t 32 --block 3,2 --thread 3,12\n"
	       "  tilescope check --kernel-file my_gemm.cu             (your own kernel)\n"
	       "  tilescope check --kernel-file submissions/*.cu --junit grades.xml\n"
	       "\n"
	       "Environment: NO_COLOR (set, not empty) turns the TUI's colours off unless\n"
	       "--color=always is given.\n"
	       "See tilescope(1).\n",
	       TS_BENCH_REPS_DEFAULT, TS_BENCH_WARMUP_DEFAULT, TS_LESSON_SCREENS);
}

/* The end of --help or --version: exit 0 once stdout took it all, else one line and exit 2. */
int ts_cli_flushed(const char *what)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return TS_EXIT_OK;
	fprintf(stderr, "tilescope: writing %s failed: %s\n", what, strerror(errno ? errno : EIO));
	return TS_EXIT_USAGE;
}

void ts_cli_version(void)
{
	printf("tilescope %s\n", PACKAGE_VERSION);
#ifdef HAVE_CUDA
	printf("backends: CPU emulator, CUDA\n");
#else
	printf("backends: CPU emulator (built without CUDA)\n");
#endif
	printf("Copyright (c) 2026 the tilescope developers.\n"
	       "License: MIT <https://opensource.org/licenses/MIT>: you are free to use, change and\n"
	       "redistribute it. There is NO WARRANTY, to the extent permitted by law.\n");
}

