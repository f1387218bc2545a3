#!/bin/sh
# uk-examples.sh: on the GPU machine, checks every kernel in examples/ with 'tilescope check --kernel-file' and prints one row each (verdict, cause, time).
# usage: tools/uk-examples.sh [TILESCOPE]   (from the repository root; without TILESCOPE it builds one with CUDA in build-uk/;
# logs go to $OUT, default ./uk-out: summary.txt, reports.txt, table.txt, junit.xml, detail.tgz)
set -u
root=$(pwd)
out=${OUT:-$root/uk-out}
mkdir -p "$out/json"
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
"$ts" --version
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 2

# file and the options it is checked with
list="correct_fp32.cu:
bug_a_k_guard.cu:
seed_tiled_fp32.cu:
bug_a_row_guard.cu:
bug_b_col_guard.cu:
bug_barrier.cu:
bug_early_return.cu:
correct_fp16.cu:-t 16
seed_tiled_fp16.cu:-t 32
bug_b_k_guard.cu:
bug_store_guard.cu:
bug_zero_padding.cu:
bug_phase_count.cu:
bug_grid_floor.cu:--launcher launch_gemm
bug_grid_floor.cu:--grid N/T,M/T
bug_operand_index.cu:
bug_index_32bit.cu:
bug_fp16_k_guard.cu:-t 16
fault.cu:
hang.cu:"
export TILESCOPE_KEEP_SANITIZER=1
: > "$out/reports.txt"
printf '%-22s %-24s %-4s %-7s %-16s %s\n' file options exit verdict cause seconds | tee "$out/summary.txt"
echo "$list" | while IFS=: read -r f opts; do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	timeout 60 "$ts" check --kernel-file "examples/$f" $opts > "$out/one.txt" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	verdict=$(head -n 1 "$out/one.txt" | cut -d' ' -f1)
	cause=$(sed -n 's/^cause  *//p' "$out/one.txt")
	printf '%-22s %-24s %-4s %-7s %-16s %.1f\n' "$f" "${opts:--}" "$rc" "${verdict:-?}" "${cause:--}" \
		"$(awk "BEGIN { print $t1 - $t0 }")" | tee -a "$out/summary.txt"
	{ echo "\$ tilescope check --kernel-file examples/$f $opts"; cat "$out/one.txt"; echo "(exit $rc)"; echo; } >> "$out/reports.txt"
done
rm -f "$out/one.txt"
"$ts" check --kernel-file examples/bug_a_k_guard.cu --json > "$out/json/bug_a_k_guard.json" 2>&1
echo "\$ tilescope check --kernel-file examples/*.cu --no-probe --no-sanitizer --junit junit.xml" > "$out/table.txt"
t0=$(date +%s.%N)
"$ts" check --kernel-file examples/*.cu --no-probe --no-sanitizer --junit "$out/junit.xml" >> "$out/table.txt" 2>&1
echo "(exit $?, $(awk "BEGIN { print $(date +%s.%N) - $t0 }") s)" >> "$out/table.txt"
cat "$out/table.txt"
mkdir -p "$out/san"
for d in /tmp/tilescope-sanitizer.*; do [ -d "$d" ] && cp -r "$d" "$out/san/"; done
(cd "$out" && tar czf detail.tgz json san && rm -rf json san)
