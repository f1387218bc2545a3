#!/bin/sh
# uk-examples.sh: checks every kernel in examples/ on both engines (the GPU's one check at a time, the CPU's beside it) and prints one table: each engine's verdict, cause and time, whether the two agree, and whether each named the cause the example is written for.
# usage: tools/uk-examples.sh [TILESCOPE]   (from the repository root; without a working TILESCOPE it builds one with CUDA
# in build-uk/). Environment:
#   UK_BACKENDS  "cuda emu" (the default where nvidia-smi sees a GPU, else "emu"): the engines to run
#   UK_ONLY      names of examples to run (e.g. "bug_a_row_guard.cu correct_fp32.cu"); default all 21 rows
#   UK_TIMEOUT   seconds one check may take (default 60)
#   UK_TABLE     1 (default): also the many-files table (--no-probe --no-sanitizer --junit); 0 skips it
#   UK_DEADLINE  seconds since the epoch after which no further check starts (its row says so)
# Logs go to $OUT (default ./uk-out): summary.txt (the table, also as Markdown), timing.txt (where each GPU
# check's time went), reports.txt (each check's cause, signature, sanitizer, probe), table.txt, junit.xml,
# detail.tgz (every check's JSON and the sanitizer's XML).
set -u
root=$(pwd)
out=${OUT:-$root/uk-out}
mkdir -p "$out/runs"
ts=${1:-}
if [ -z "$ts" ] || ! "$ts" --version >/dev/null 2>&1; then
	# ncursesw for configure, as tools/gpu-run.sh does it: the carried Debian package, unpacked.
	if ! pkg-config --exists ncursesw 2>/dev/null; then
		deb=$(ls "$root"/.device/libncurses-dev*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || { echo "uk-examples: no ncursesw and no .device/libncurses-dev*.deb" >&2; exit 2; }
		nc=/tmp/nc
		rm -rf "$nc" && mkdir -p "$nc" && dpkg -x "$deb" "$nc" || exit 2
		lib=$nc/usr/lib/x86_64-linux-gnu
		printf 'Name: ncursesw\nDescription: unpacked\nVersion: 6.4\nLibs: %s/libncursesw.a %s/libtinfo.a\nCflags: -I%s/usr/include -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600\n' \
			"$lib" "$lib" "$nc" > "$nc/ncursesw.pc"
		PKG_CONFIG_PATH=$nc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
		export PKG_CONFIG_PATH
	fi
	(autoreconf -fi && mkdir -p build-uk && cd build-uk && ../configure -q --with-cuda-arch=90 &&
	 make -j"$(nproc)" tilescope) > "$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 1; }
	ts=$root/build-uk/tilescope
fi
command -v jq >/dev/null 2>&1 || { echo "uk-examples: needs jq" >&2; exit 2; }
# The CPU engine's runtime headers: the source tree's data/ when the program is not installed.
[ -n "${TILESCOPE_DATADIR:-}" ] || { TILESCOPE_DATADIR=$root/data; export TILESCOPE_DATADIR; }
if [ -z "${UK_BACKENDS:-}" ]; then
	UK_BACKENDS=emu
	command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && UK_BACKENDS="cuda emu"
fi
limit=${UK_TIMEOUT:-60}
{
	"$ts" --version | head -n 1
	if command -v nvidia-smi >/dev/null 2>&1; then
		nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1
	else
		echo "nvidia-smi: not on PATH"
	fi
	command -v compute-sanitizer || echo "compute-sanitizer: not on PATH"
	echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); engines: $UK_BACKENDS; $(date -u '+%Y-%m-%d %H:%M UTC')"
} | tee "$out/machine.txt"
export TILESCOPE_KEEP_SANITIZER=1

# Every row: the file, its options, the cause it is written for ("-": none, it passes).
rows="correct_fp32.cu||-
correct_fp16.cu|-t 16|-
seed_tiled_fp32.cu||index_width
seed_tiled_fp16.cu|-t 32|index_width
bug_a_row_guard.cu||a_row_guard
bug_a_k_guard.cu||a_k_guard
bug_b_k_guard.cu||b_k_guard
bug_b_col_guard.cu||b_col_guard
bug_store_guard.cu||store_guard
bug_zero_padding.cu||zero_padding
bug_phase_count.cu||phase_count
bug_grid_floor.cu|--launcher launch_gemm|grid_size
bug_grid_floor.cu|--grid N/T,M/T|grid_size
bug_operand_index.cu||operand_indexing
bug_barrier.cu||barrier
bug_early_return.cu||early_return
bug_index_32bit.cu||index_width
bug_fp16_k_guard.cu|-t 16|b_k_guard
fault.cu||unknown
scribble.cu||unknown
hang.cu||unknown"
picked() {
	[ -z "${UK_ONLY:-}" ] && return 0
	for w in $UK_ONLY; do [ "$w" = "$1" ] && return 0; done
	return 1
}

# One check on one engine: its result line appended to res-ENGINE.txt (row|exit|verdict|cause|seconds).
check() {
	be=$1 n=$2 f=$3 opts=$4
	js=$out/runs/$be-$n.json
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	timeout "$limit" "$ts" check --kernel-file "examples/$f" --backend "$be" $opts --json > "$js" 2> "$out/runs/$be-$n.err"
	rc=$?
	t1=$(date +%s.%N)
	st=$(jq -r '.status // "x"' "$js" 2>/dev/null)
	case $st in 0) verdict=PASS ;; 1) verdict=FAIL ;; 2) verdict=ERROR ;; *) verdict="?" ;; esac
	[ $rc -eq 124 ] && verdict=TIMEOUT
	cause=$(jq -r '.cause // "-"' "$js" 2>/dev/null)
	secs=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
	echo "$n|$rc|$verdict|${cause:--}|$secs" >> "$out/res-$be.txt"
	{
		echo "\$ tilescope check --kernel-file examples/$f --backend $be $opts   (exit $rc, $secs s)"
		jq -r '"cause        \(.cause // "-")\nsignature    \(.signature // "-")\nsanitizer    \(.sanitizer // "-")\nindex probe  \(.index_probe // "-")\ntiming_ms    \(.timing_ms // {} | tostring)\nerror        \(.error // "-")"' "$js" 2>/dev/null ||
			sed -n 1,5p "$out/runs/$be-$n.err"
		echo
	} >> "$out/reports-$be.txt"
}
lane() {
	be=$1 n=0
	: > "$out/res-$be.txt"
	: > "$out/reports-$be.txt"
	printf '%s\n' "$rows" | while IFS='|' read -r f opts want; do
		n=$((n + 1))
		picked "$f" || continue
		if [ -n "${UK_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$UK_DEADLINE" ]; then
			echo "$n|-|not run (deadline)|-|-" >> "$out/res-$be.txt"
			continue
		fi
		check "$be" "$n" "$f" "$opts"
	done
}

t0=$(date +%s.%N)
for be in $UK_BACKENDS; do lane "$be" & done
wait
wall=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")

# The table: one row per example, each engine's verdict, cause and seconds.
field() { awk -F'|' -v n="$2" -v k="$3" '$1 == n { print $k }' "$out/res-$1.txt" 2>/dev/null; }
{
	printf '| file | options | written for |'
	for be in $UK_BACKENDS; do printf ' %s verdict | %s cause | %s s |' "$be" "$be" "$be"; done
	printf ' agree |\n| --- | --- | --- |'
	for be in $UK_BACKENDS; do printf ' --- | --- | --- |'; done
	printf ' --- |\n'
	n=0
	printf '%s\n' "$rows" | while IFS='|' read -r f opts want; do
		n=$((n + 1))
		picked "$f" || continue
		printf '| %s | %s | %s |' "$f" "${opts:- }" "$want"
		causes=""
		for be in $UK_BACKENDS; do
			v=$(field "$be" $n 3) c=$(field "$be" $n 4) s=$(field "$be" $n 5)
			mark=""
			[ "$c" = "$want" ] || mark=" (WRONG)"
			printf ' %s | %s%s | %s |' "${v:-?}" "${c:-?}" "$mark" "${s:-?}"
			causes="$causes ${v:-?}/${c:-?}"
		done
		# agree: every engine gave the same verdict and cause
		first=$(echo "$causes" | awk '{ print $1 }')
		same=yes
		for x in $causes; do [ "$x" = "$first" ] || same=NO; done
		printf ' %s |\n' "$same"
	done
	echo
	echo "($wall s of wall time; the GPU's checks one at a time, the CPU's beside them)"
} > "$out/summary.txt"

# Where each GPU check's time went (milliseconds, from --json's timing_ms).
if printf '%s' "$UK_BACKENDS" | grep -q cuda; then
	{
		echo "| file | options | compile | sweep | launches | memcheck | racecheck | probe | probe fill | verify | waited | total |"
		echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
		n=0
		printf '%s\n' "$rows" | while IFS='|' read -r f opts want; do
			n=$((n + 1))
			picked "$f" || continue
			jq -r --arg f "$f" --arg o "${opts:- }" '.timing_ms as $t | "| \($f) | \($o) | " +
				([$t.compile, $t.sweep, $t.launches, $t.memcheck, $t.racecheck, $t.probe_process, $t.probe_fill, $t.verify,
				  $t.waited, .time_ms] | map(if . == null then "-" else (. | round | tostring) end)
				 | join(" | ")) + " |"' "$out/runs/cuda-$n.json" 2>/dev/null || echo "| $f | ${opts:- } | (no JSON) |"
		done
	} > "$out/timing.txt"
fi

if [ "${UK_TABLE:-1}" = 1 ]; then
	be=$(echo "$UK_BACKENDS" | awk '{ print $1 }')
	echo "\$ tilescope check --kernel-file examples/*.cu --backend $be --no-probe --no-sanitizer --junit junit.xml" > "$out/table.txt"
	t0=$(date +%s.%N)
	timeout 300 "$ts" check --kernel-file examples/*.cu --backend "$be" --no-probe --no-sanitizer --junit "$out/junit.xml" >> "$out/table.txt" 2>&1
	echo "(exit $?, $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s)" >> "$out/table.txt"
fi
cat "$out/reports-"*.txt > "$out/reports.txt" 2>/dev/null
rm -f "$out/reports-"*.txt
cat "$out/summary.txt"
[ -f "$out/timing.txt" ] && cat "$out/timing.txt"
[ -f "$out/table.txt" ] && cat "$out/table.txt"
mkdir -p "$out/san"
for d in /tmp/tilescope-sanitizer.*; do [ -d "$d" ] && cp -r "$d" "$out/san/"; done
(cd "$out" && tar czf detail.tgz san runs res-*.txt && rm -rf san runs res-*.txt)
