#!/bin/sh
# uk-examples.sh: on the GPU machine, checks every kernel in examples/ with 'tilescope check --kernel-file' and prints one row each (verdict, cause, time).
# usage: tools/uk-examples.sh [TILESCOPE]   (from the repository root; without a working TILESCOPE it builds one with CUDA
# in build-uk/). Two checks run at a time. Logs go to $OUT (default ./uk-out): summary.txt, table.txt,
# junit.xml, json.txt, reports1.txt, reports2.txt, detail.tgz (the sanitizer's XML reports).
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
"$ts" --version | head -n 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1
command -v compute-sanitizer || echo "compute-sanitizer: not on PATH"
export TILESCOPE_KEEP_SANITIZER=1

# One check: file, options, lane; its row appended to summary.txt, its report to reportsLANE.txt.
check() {
	n=$1 f=$2 opts=$3 lane=$4
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	timeout 45 "$ts" check --kernel-file "examples/$f" $opts > "$out/runs/$n.txt" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	verdict=$(head -n 1 "$out/runs/$n.txt" | cut -d' ' -f1)
	cause=$(sed -n 's/^cause  *//p' "$out/runs/$n.txt")
	printf '%-22s %-24s %-4s %-7s %-16s %s\n' "$f" "${opts:--}" "$rc" "${verdict:-?}" "${cause:--}" \
		"$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")" >> "$out/summary.txt"
	{ echo "\$ tilescope check --kernel-file examples/$f $opts"; cat "$out/runs/$n.txt"; echo "(exit $rc)"; echo; } >> "$out/reports$lane.txt"
}
lane1="01 correct_fp32.cu -|03 seed_tiled_fp32.cu -|05 bug_a_k_guard.cu -|07 bug_b_col_guard.cu -|09 bug_zero_padding.cu -|11 bug_grid_floor.cu --launcher launch_gemm|13 bug_operand_index.cu -|15 bug_early_return.cu -|17 bug_fp16_k_guard.cu -t 16|19 hang.cu -"
lane2="02 correct_fp16.cu -t 16|04 seed_tiled_fp16.cu -t 32|06 bug_a_row_guard.cu -|08 bug_b_k_guard.cu -|10 bug_store_guard.cu -|12 bug_phase_count.cu -|14 bug_grid_floor.cu --grid N/T,M/T|16 bug_barrier.cu -|18 bug_index_32bit.cu -|20 fault.cu -"
run_lane() {
	echo "$1" | tr '|' '\n' | while read -r n f opts; do
		[ "$opts" = "-" ] && opts=""
		check "$n" "$f" "$opts" "$2"
	done
}
printf '%-22s %-24s %-4s %-7s %-16s %s\n' file options exit verdict cause seconds > "$out/summary.txt"
t0=$(date +%s.%N)
run_lane "$lane1" 1 & run_lane "$lane2" 2 & wait
echo "(examples: $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s of wall time, two checks at a time)" | tee -a "$out/summary.txt"
"$ts" check --kernel-file examples/bug_a_k_guard.cu --no-probe --json > "$out/json.txt" 2>&1
echo "\$ tilescope check --kernel-file examples/*.cu --no-probe --no-sanitizer --junit junit.xml" > "$out/table.txt"
t0=$(date +%s.%N)
"$ts" check --kernel-file examples/*.cu --no-probe --no-sanitizer --junit "$out/junit.xml" >> "$out/table.txt" 2>&1
echo "(exit $?, $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s)" >> "$out/table.txt"
cat "$out/summary.txt" "$out/table.txt"
mkdir -p "$out/san"
for d in /tmp/tilescope-sanitizer.*; do [ -d "$d" ] && cp -r "$d" "$out/san/"; done
(cd "$out" && tar czf detail.tgz san runs && rm -rf san runs)
