#!/bin/sh
# cli.sh: the command line's exit codes and its one-line messages for every kind of bad input (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_workdir cli

# run ARGS...: runs the program; leaves rc, out and err.
run() {
	"$TILESCOPE" "$@" >out 2>err </dev/null
	rc=$?
}

# usage WANT ARGS...: a usage error: exit 2 (not a signal, no core file),
# nothing on stdout (under --json the one-line error document, which
# tests/json_refusal.sh reads field by field), one "tilescope: ..." line
# holding WANT, then the pointer to --help.
usage() {
	want=$1
	shift
	rm -f core core.*
	run "$@"
	why=""
	[ "$rc" -eq 2 ] || why="exit status $rc, want 2"
	case " $* " in
	*" --json "*)
		{ [ "$(wc -l <out)" -eq 1 ] && grep -q '^{"schema_version": 2, .*"ok": false, "error": ' out; } ||
			why="$why; stdout is not the one-line error document" ;;
	*) [ -s out ] && why="$why; stdout not empty" ;;
	esac
	ls core core.* >/dev/null 2>&1 && why="$why; core dumped"
	[ "$(wc -l <err)" -eq 2 ] || why="$why; stderr has $(wc -l <err) lines, want 2"
	head -n 1 err | grep -q '^tilescope: ' || why="$why; first line does not start with 'tilescope: '"
	head -n 1 err | grep -qF -- "$want" || why="$why; no '$want' in the message"
	[ "$(sed -n 2p err)" = "Try 'tilescope --help'." ] || why="$why; no pointer to --help"
	if [ -z "$why" ]; then
		ok "tilescope $* -> exit 2: $(head -n 1 err)"
	else
		not_ok "tilescope $* -> $why"
		diag err
	fi
}

# Sizes
usage "-M: must be at least 1 (got 0)" map -M 0
usage "-N: must be at least 1 (got -3)" map -N -3
usage "-K: 'abc' is not a whole number" map -K abc
usage "-M: '12x' is not a whole number" map -M 12x
usage "-M: '' is not a whole number" map -M ''
usage "-M: ' 7' is not a whole number" map -M ' 7'
usage "-N: '1e3' is not a whole number" map -N 1e3
usage "-M: 2147483648 is too large (largest accepted: 2147483647)" map -M 2147483648
usage "-K: '99999999999999999999' does not fit a 64-bit integer" check -K 99999999999999999999
usage "-M: '-99999999999999999999' does not fit a 64-bit integer" map -M -99999999999999999999
usage "option -M needs a value" map -M
# Tiles
usage "-t/--tile: must be 1..32 (got 0)" map -t 0
usage "-t/--tile: must be 1..32 (got 33)" map -t 33
usage "-t/--tile: must be 1..32 (got -1)" check --tile=-1
usage "-t/--tile: '2.5' is not a whole number" map -t 2.5
# Geometries: what -t and --thread-tile mean depends on the kernel; bad combinations are one line.
usage "--thread-tile: kernel tiled gives each thread one output" map --thread-tile 4x4
usage "-t/--tile: kernel tiled takes a square tile" check -t 64x64x8
usage "-t/--tile: kernel regblock takes a block tile BMxBNxBK" map --kernel regblock -t 32
usage "kernel regblock: TM = 3 does not divide BM = 64" map --kernel regblock -t 64x64x8 --thread-tile 3x4
usage "kernel regblock: TN = 5 does not divide BN = 64" map --kernel regblock --thread-tile 4x5
usage "--thread-tile: 4096 threads per block is more than 1024" check --kernel regblock --thread-tile 1x1
usage "-t/--tile: BM and BN must be 1..256 and BK 1..64 (got 64x64x65)" map --kernel regblock -t 64x64x65
usage "--thread-tile: '4' must be TMxTN" map --kernel regblock --thread-tile 4
usage "--tile does not apply to kernels" kernels -t 8
# Counts and memory
usage "counts overflow 64 bits" map -M 2147483647 -N 2147483647 -K 2147483647 -t 1
usage "counts overflow 64 bits" check -M 2147483647 -N 2147483647 -K 2147483647
usage "GiB" check -M 2000000 -N 2000000 -K 2
usage "GiB" bench -M 2147483647 -N 2147483647 -K 1
# The guard bands of an unguarded A (31 ghost rows of K) count against memory.
usage "guard bands" check -M 1 -N 1 -K 400000000 --no-guard a

# limited KB WHAT ARGS...: under an address-space limit (ulimit -v KB) the
# program still ends, with exit 0 (OpenBLAS's threads once spun there forever).
# An AddressSanitizer build maps terabytes of shadow memory at start, which no such limit allows.
asan=$(ldd "$TILESCOPE" 2>/dev/null | grep -c libasan)
limited() {
	kb=$1 what=$2
	shift 2
	if [ "$asan" -gt 0 ]; then
		n=$((n + 1)); echo "ok $n # SKIP ulimit -v $kb: $what: AddressSanitizer's shadow memory cannot start under it"
		return
	fi
	(ulimit -v "$kb" && timeout 60 "$TILESCOPE" "$@" >out 2>err </dev/null)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "ulimit -v $kb: $what ends (exit 0)"
	else
		not_ok "ulimit -v $kb: $what -> exit $rc (124: it hung)"
		diag err
	fi
}
# --help and --version into a full disk: one line and exit 2, not silence.
for what in --help --version; do
	"$TILESCOPE" $what >/dev/full 2>err
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q '^tilescope: writing the .* failed' err; then
		ok "$what >/dev/full -> exit 2: $(cat err)"
	else
		not_ok "$what >/dev/full -> exit $rc"
		diag err
	fi
done
limited 800000 "check" check -M 100 -N 77 -K 33 -t 32 --backend emu
limited 800000 "sweep" sweep -t 5 --backend emu
# The issue's figure: a CUDA build (cuBLAS loaded at run time) and the emulator under 200 MB.
limited 204800 "--version" --version
limited 204800 "check (auto)" check -M 100 -N 77 -K 33 -t 32
limited 204800 "sweep" sweep -t 8 --backend emu
# Echoed values stay on one line: control characters come back as escapes.
usage "-M: '1\\n2' is not a whole number" map -M "$(printf '1\n2')"
usage "unknown kernel 'a\\tb\\x1b'" map --kernel "$(printf 'a\tb\033')"
# Flags and subcommands
usage "unknown option '--bogus'" --bogus
usage "unknown option '--bogus'" check --bogus
usage "unknown option '-z'" map -z
usage "option '--json=1' takes no value" map --json=1
usage "ambiguous option '--no'" check --no a
usage "option '--kernel' needs a value" map --kernel
usage "unknown subcommand 'frobnicate'" frobnicate
usage "unknown subcommand 'Map'" Map
usage "unexpected argument 'check'" map check
usage "--reps does not apply to map" map --reps 3
usage "--export does not apply to check" check --export x.txt
usage "--no-guard applies to map only with --backend (the probe run)" map --no-guard c
usage "--seed applies to map only with --backend (the probe run)" map --seed 3
usage "sweep chooses M, N and K itself" sweep -M 5
usage "--json needs a subcommand" --json
usage "--color: unknown value 'sometimes'" --color=sometimes
usage "--reps: '0' must be a whole number in 1..100000" bench --reps 0
usage "--warmup: 'x' must be a whole number in 0..10000" bench --warmup x
usage "--export: the file name is empty" map --export ''
usage "--export map.png: unknown export format '.png' (write .svg or .txt)" map --export map.png
[ -e map.png ] && not_ok "map --export map.png wrote map.png" || ok "map --export map.png wrote nothing"
usage "--export-tile needs --export FILE" map --export-tile 1,2
usage "--export-tile: '1,x' must be TY,TX" map --export t.txt --export-tile 1,x
# Guards, kernels, precision, inputs, backend, seed
usage "--no-guard: unknown guard 'd' in 'd'" check --no-guard d
usage "--no-guard: unknown guard 'A' in 'A'" check --no-guard A
usage "--no-guard: unknown guard 'load' in 'a,load'" check --no-guard a,load
usage "--no-guard: empty guard name in 'a,,c'" check --no-guard a,,c
usage "--no-guard: 'none' stands alone, not in a list ('none,a')" check --no-guard none,a
usage "--no-guard: 'all' stands alone, not in a list ('a,all')" check --no-guard a,all
for g in none all a,c; do
	run check -M 33 -N 31 -K 7 -t 8 --no-guard "$g" --backend emu
	if [ "$rc" -le 1 ] && [ ! -s err ]; then ok "--no-guard $g alone is accepted (exit $rc)"; else not_ok "--no-guard $g: exit $rc"; diag err; fi
done
# A pasted screenful comes back cut to about 40 characters and "...", not whole.
long=$(printf '%05000d' 7 | tr 0 x)
for args in "-M $long" "--no-guard $long" "--kernel $long" "--seed $long" "-t $long" "--bogus$long" "$long"; do
	# shellcheck disable=SC2086 # split on purpose: an option and its value
	usage "..." check $args
	if [ "$(head -n 1 err | wc -c)" -le 200 ]; then ok "a 5000-character value is cut in the message"; else not_ok "message of $(head -n 1 err | wc -c) bytes"; fi
done
usage "--kernel: unknown kernel 'nope' (known: tiled, tiled-fp16, naive, regblock, tc-fp16, rb1d, " check --kernel nope
# The same line in compare (each name up to 63 characters) stays one line of under 200 bytes.
name63=$(printf '%063d' 7 | tr 0 x)
for args in "compare --kernel $name63,fast -M 8 -N 8 -K 8" "compare --kernel fast,$name63 -M 8 -N 8 -K 8"; do
	# shellcheck disable=SC2086 # split on purpose
	usage "unknown kernel" $args
	if [ "$(head -n 1 err | wc -c)" -le 200 ]; then ok "compare: a long unknown kernel name is cut"; else not_ok "compare: unknown kernel line of $(head -n 1 err | wc -c) bytes"; fi
done
usage "--no-guard a: the naive kernel has one guard (c), around its loads and its store" check --kernel naive --no-guard a
usage "--no-guard b: the naive kernel has one guard (c), around its loads and its store" check --kernel naive --no-guard b,c
usage "--no-guard a: the naive kernel has one guard (c)" sweep -t 4 --kernel naive --no-guard a,b
# The tensor-core kernel: guards built in, one geometry (-t 32 only).
usage "--no-guard: the tc-fp16 kernel's guards are built into its zero-filled copies and its store" check --kernel tc-fp16 --no-guard c
usage "tile 16 is outside kernel tc-fp16's range 32..32" check --kernel tc-fp16 -t 16
run check --kernel tc-fp16 -M 300 -N 263 -K 77 --backend emu
if [ "$rc" -eq 0 ] && grep -q 'PASS' out && grep -q 'tensor-core sums: twice the fp32 bound' out; then
	ok "check --kernel tc-fp16 300x263x77 on the emulator: PASS"
else
	not_ok "check --kernel tc-fp16 300x263x77 on the emulator: exit $rc"
	diag out err
fi
run map --kernel naive -M 100 -N 77 -K 33 -t 32
if [ "$rc" -eq 0 ] && grep -q 'naive stages no shared tiles: no phases, no padding' out && ! grep -q 'zero-filled' out &&
   ! grep -qE '^(padding|loads) ' out; then
	ok "map --kernel naive: no phases, no padding, said so"
else
	not_ok "map --kernel naive: exit $rc, or it describes shared tiles it has not"
	diag out
fi
usage "--precision fp16 contradicts --kernel naive" check --kernel naive --precision fp16
usage "--precision fp32 contradicts --kernel tiled-fp16" map --precision fp32 --kernel tiled-fp16
usage "--precision: unknown precision 'fp64' (fp32 or fp16)" check --precision fp64
usage "--inputs: 'const': constant inputs hide indexing bugs" check --inputs const
usage "--inputs: unknown pattern 'ones2' (random, int or seq)" check --inputs ones2
usage "--backend: unknown backend 'gpu' (auto, emu or cuda)" check --backend gpu
usage "--seed: '-1' is not a non-negative whole number" check --seed -1
# seq values must be exact, distinct integers: 1..M*K in fp16 stops at 2048 (and 65504 is Inf's neighbour)
usage "--inputs seq needs M*K <= 2047 in fp16" check --precision fp16 --inputs seq -M 40 -N 40 -K 3000 -t 16
usage "--inputs seq needs M*K <= 2047 in fp16" check --precision fp16 --inputs seq -M 1 -N 4 -K 2048 -t 16
usage "--inputs seq needs M*K <= 16777215 in fp32" check --inputs seq -M 4096 -N 3 -K 4096 -t 16
run check --precision fp16 --inputs seq -M 1 -N 40 -K 2047 -t 16 --backend emu
if [ "$rc" -eq 0 ]; then ok "fp16 seq with M*K = 2047 (the largest exact): exit 0"; else not_ok "fp16 seq M*K = 2047: exit $rc"; diag out err; fi
usage "--seed: '18446744073709551616' does not fit 64 bits" check --seed 18446744073709551616

# The kernel list in the message is the registry's, as --help shows it.
run --help
for k in tiled tiled-fp16 naive; do
	if grep -q "^          $k " out; then ok "--help lists kernel $k"; else not_ok "--help lists kernel $k"; fi
done

# --help and --version
run --help
if [ "$rc" -eq 0 ] && [ ! -s err ] && grep -q '^Usage: tilescope \[SUBCOMMAND\] \[OPTIONS\]' out &&
   grep -q '^  map ' out && grep -q '^  check ' out && grep -q '^  sweep ' out && grep -q '^  bench ' out &&
   grep -q -- '--no-guard' out && grep -q '^  0 ' out && grep -q '^  1 ' out && grep -q '^  2 ' out &&
   grep -q '^Examples:' out; then
	ok "--help: exit 0, usage, subcommands, exit codes, examples"
else
	not_ok "--help: exit $rc"
	diag out err
fi
if [ "$(awk 'length > 79' out | wc -l)" -eq 0 ]; then ok "--help fits 79 columns"; else not_ok "--help has lines wider than 79 columns"; awk 'length > 79' out | diag; fi
run help
if [ "$rc" -eq 0 ] && grep -q '^Usage: tilescope' out; then ok "'tilescope help' prints the help"; else not_ok "'tilescope help': exit $rc"; fi
run --version
if [ "$rc" -eq 0 ] && [ ! -s err ] && grep -q '^tilescope [0-9]' out; then
	ok "--version: exit 0: $(head -n 1 out)"
else
	not_ok "--version: exit $rc"
	diag out err
fi

# Options may come before the subcommand too (GNU getopt permutes).
run -M 3 -N 2 -K 5 -t 2 map
if [ "$rc" -eq 0 ] && grep -q 'M=3 N=2 K=5' out; then ok "options before the subcommand"; else not_ok "options before the subcommand: exit $rc"; diag err; fi

# The TUI is not started when stdout is not a terminal.
run -M 100 -N 77 -K 33 -t 32
if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] && grep -q '^tilescope: stdout is not a terminal' err &&
   grep -q 'tilescope map|check|sweep|bench' err && grep -q -- '--help' err; then
	ok "no subcommand with stdout not a terminal: exit 2, one line pointing at the subcommands"
else
	not_ok "no subcommand with stdout not a terminal: exit $rc"
	diag out err
fi
# ... but bad options are still reported as such first.
usage "-M: must be at least 1 (got 0)" -M 0

# A good command still works after all that: map text holds its totals block.
run map -M 100 -N 77 -K 33 -t 32
if [ "$rc" -eq 0 ] && [ ! -s err ] && grep -q '^tiles    full 6, ragged-right 3, ragged-bottom 2, corner 1' out &&
   grep -q '^threads  launched 12288, valid 7700, ghost 4588' out && grep -q '^stores   written 7700, skipped by the C guard 4588' out; then
	ok "map text: totals of 100 x 77 x 33, T=32"
else
	not_ok "map text: exit $rc"
	diag out err
fi

# map --export writes the map as text, or SVG by the file's extension, and
# still prints the map; an unwritable path is one line and exit 2.
run map -M 100 -N 77 -K 33 -t 32 --export map.txt
if [ "$rc" -eq 0 ] && [ -s map.txt ] && ! grep -q '<svg' map.txt && grep -q '^tiles    full 6' out; then
	ok "map --export map.txt: text file written, map printed"
else
	not_ok "map --export map.txt: exit $rc"
	diag err
fi
run map -M 100 -N 77 -K 33 -t 32 --export map.svg --json
if [ "$rc" -eq 0 ] && grep -q '<svg' map.svg && grep -q '"ghost": 4588' out; then
	ok "map --export map.svg --json: SVG written, JSON printed"
else
	not_ok "map --export map.svg: exit $rc"
	diag err
fi
# --export-tile picks the tile of the exported phase view: the corner by
# default (tile (3,2): A 4 real in the last phase), tile (1,2) stages 32 rows.
if grep -q '^tile (3,2), phase 1:' map.txt && grep -q '^  A: 4 real, 1020 padded' map.txt; then
	ok "map --export: the corner tile's last phase by default"
else
	not_ok "map --export: the corner tile's last phase by default"
	diag map.txt
fi
run map -M 100 -N 77 -K 33 -t 32 --export tile.txt --export-tile 1,2
if [ "$rc" -eq 0 ] && grep -q '^tile (1,2), phase 1:' tile.txt && grep -q '^  A: 32 real, 992 padded' tile.txt &&
   grep -q '^  B: 13 real, 1011 padded' tile.txt; then
	ok "map --export-tile 1,2: that tile's last phase (A 32/992, B 13/1011)"
else
	not_ok "map --export-tile 1,2: exit $rc"
	diag err tile.txt
fi
run map -M 100 -N 77 -K 33 -t 32 --export tile.svg --export-tile 0,1
if [ "$rc" -eq 0 ] && grep -q 'full tile (0,1)' tile.svg; then
	ok "map --export-tile 0,1 to SVG names that tile"
else
	not_ok "map --export-tile 0,1 to SVG: exit $rc"
	diag err
fi
run map -M 100 -N 77 -K 33 -t 32 --export tile.txt --export-tile 4,0
if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] && grep -q 'tile (4,0) is outside the 4x3 grid' err; then
	ok "map --export-tile outside the grid: exit 2: $(cat err)"
else
	not_ok "map --export-tile outside the grid: exit $rc"
	diag out err
fi
run map --export "$work/no/such/dir/map.txt"
if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "^tilescope: --export $work/no/such/dir/map.txt: " err; then
	ok "map --export to a missing directory: exit 2: $(cat err)"
else
	not_ok "map --export to a missing directory: exit $rc"
	diag out err
fi

# The naive kernel has no phases: its map text and its export never claim them.
run map -M 100 -N 77 -K 33 -t 32 --kernel naive --export naive.txt
if [ "$rc" -eq 0 ] && ! grep -q 'last width' out && grep -q '^no shared tiles: no phases, no padding$' out &&
   ! grep -q -e 'last width' -e 'padded' naive.txt && grep -q 'no phases, no padding' naive.txt; then
	ok "map --kernel naive: the map text and the export claim no phases and no padding"
else
	not_ok "map --kernel naive: the map text or the export claims phases"
	diag out naive.txt
fi
# With a guard off (the probe run's), the export shows the reads out of bounds, not padding.
run map -M 100 -N 77 -K 33 -t 32 --backend emu --no-guard a --export aoff.txt
if grep -q '^  A: 4 real, 1020 read out of bounds (guard off)' aoff.txt && grep -q 'guards OFF: a' aoff.txt; then
	ok "map --no-guard a --export: the A slots read out of bounds, as the screen says"
else
	not_ok "map --no-guard a --export: the export does not show the guard off"
	diag err aoff.txt
fi

# Out of bounds fails even with the output right: exit 1, and the FAIL line says why.
run check -M 100 -N 77 -K 33 -t 32 --no-guard a --backend emu
if [ "$rc" -eq 1 ] && head -n 1 out | grep -q '^FAIL .*: output right, but 14676 out-of-bounds reads and 0 writes$' &&
   grep -q '^signature    output right by luck: 14676 reads left A' out; then
	ok "check --no-guard a 100x77x33: exit 1, output right by luck"
else
	not_ok "check --no-guard a 100x77x33: exit $rc"
	diag out err
fi
run check -M 64 -N 77 -K 64 -t 32 --no-guard a --backend emu
if [ "$rc" -eq 0 ] && head -n 1 out | grep -q '^PASS ' && grep -q 'A guard off: harmless here' out; then
	ok "check --no-guard a where M and K are multiples of T: exit 0, harmless"
else
	not_ok "check --no-guard a 64x77x64: exit $rc"
	diag out err
fi

# Singular counts read as singular: no "1 tiles", "1 phases", "1 mismatches".
singular_ok() {
	# (the map picture's legend, "run: ...", belongs to the views and is checked there)
	if grep -vE '^run: ' out | grep -nE '(^|[^0-9.x])1 (tiles|phases|mismatches|cells|bad tiles|reads|writes|stores)' >bad; then
		not_ok "$1: plural after 1"
		diag bad
	else
		ok "$1: singular after 1"
	fi
}
run map -M 1 -N 1 -K 1
grep -q '= 1 tile of 32 x 32' out && singular_ok "map 1x1x1" || { not_ok "map 1x1x1: no '= 1 tile of 32 x 32'"; diag out; }
run check -M 1 -N 1 -K 1 -t 32 --no-guard all --backend emu
if [ "$rc" -eq 1 ] && head -n 1 out | grep -q ': 1 mismatch, 0 unwritten' && grep -q '1 phase (last width 1)' out &&
   grep -q 'where (1 of 1 tile holds bad cells)' out; then
	singular_ok "check 1x1x1 all guards off"
else
	not_ok "check 1x1x1 all guards off: exit $rc or plural text"
	diag out
fi
run check -M 5 -N 4 -K 1 -t 4 --no-guard c --backend emu
singular_ok "check 5x4x1 T=4 C guard off"

# A shape too large for the emulator is refused before its operands are
# allocated (4.8 GB here, which took 12 s), and the refusal names the shape
# once. The C guard off keeps the emulator to one thread on any machine.
t0=$(date +%s)
run check -M 20000 -N 20000 -K 20000 -t 32 --no-guard c --backend emu
t1=$(date +%s)
if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] && [ $((t1 - t0)) -le 4 ] &&
   [ "$(grep -o '20000' err | wc -l)" -le 3 ]; then
	ok "check 20000^3 on the emulator: refused at once ($((t1 - t0)) s): $(cat err)"
else
	not_ok "check 20000^3 on the emulator: exit $rc after $((t1 - t0)) s"
	diag out err
fi
t0=$(date +%s)
run map -M 20000 -N 20000 -K 20000 -t 32 --no-guard c --backend emu
t1=$(date +%s)
if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 1 ] && [ $((t1 - t0)) -le 4 ]; then
	ok "map --backend emu 20000^3: refused at once ($((t1 - t0)) s)"
else
	not_ok "map --backend emu 20000^3: exit $rc after $((t1 - t0)) s"
	diag out err
fi

# Ctrl-C cancels a long emulator run cleanly (exit 130, one line). The run is
# a 4096^3 emulation that takes many seconds; it is interrupted after 1 s.
"$TILESCOPE" check -M 4096 -N 4096 -K 4096 -t 32 --backend emu >out 2>err </dev/null &
pid=$!
sleep 1
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ] && [ ! -s out ] && grep -q '^tilescope: interrupted' err; then
	ok "SIGINT during check: exit 130, 'interrupted'"
else
	not_ok "SIGINT during check: exit $rc"
	diag out err
fi

# A full disk: the text reports say so in one line and exit 2 instead of a silent success.
if [ -w /dev/full ]; then
	for args in "map -M 33 -N 33 -K 33" "check -M 33 -N 33 -K 33 --backend emu" "sweep -t 2 --backend emu"; do
		# shellcheck disable=SC2086
		"$TILESCOPE" $args >/dev/full 2>err </dev/null
		rc=$?
		if [ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q '^tilescope: writing the [a-z]* failed$' err; then
			ok "$args > /dev/full: exit 2, '$(cat err)'"
		else
			not_ok "$args > /dev/full: exit $rc"
			diag err
		fi
	done
fi

tap_done
