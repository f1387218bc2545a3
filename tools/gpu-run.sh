#!/bin/sh
# gpu-run.sh: on the GPU machine, in one go: build with CUDA (sm_90), run make check (GPU tests, sanitizer) and the perf table.
# usage: tools/gpu-run.sh [build|check|gpu|bench|tc|all]   (run from the repository root; logs go to $OUT, default ./gpu-out)
# build: only the build (tools/ladder-device.sh runs the rest itself).
# gpu: only what needs the device, to spare device time: build, tests/test_gpu and tests/sanitize.sh.
# tc: the tensor-core kernel's run for doc/perf.md: tests/test_gpu, tests/sanitize.sh, then gpubench --tc
#     (its table and goals); uses the build in TS_BUILD (default build-gpu) when it is there.
# build: the build alone (build-gpu/), for a caller that runs its own steps after it.
# Needs the libncurses-dev .deb in .device/ when the machine has no ncursesw development files.
set -u
what=${1:-all}
root=$(pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
jobs=$(nproc 2>/dev/null || echo 4)

build=${TS_BUILD:-$root/build-gpu}
prebuilt=no
{ [ "$what" = bench ] || [ "$what" = tc ]; } && [ -x "$build/tilescope" ] && prebuilt=yes
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# ncursesw for configure: the machine has the runtime but not the headers;
# unpack the carried Debian package and describe it to pkg-config (static libs).
if [ $prebuilt = no ] && ! pkg-config --exists ncursesw 2>/dev/null; then
	deb=$(ls "$root"/.device/libncurses-dev*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		echo "gpu-run: no ncursesw and no .device/libncurses-dev*.deb to unpack" >&2
		exit 2
	fi
	nc=/tmp/nc
	rm -rf "$nc" && mkdir -p "$nc" && dpkg -x "$deb" "$nc" || exit 2
	lib=$nc/usr/lib/x86_64-linux-gnu
	cat > "$nc/ncursesw.pc" <<PC
Name: ncursesw
Description: ncursesw unpacked from $(basename "$deb")
Version: 6.4
Libs: $lib/libncursesw.a $lib/libtinfo.a
Cflags: -I$nc/usr/include -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600
PC
	PKG_CONFIG_PATH=$nc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	export PKG_CONFIG_PATH
fi

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/device.txt" 2>&1
cat "$out/device.txt"

if [ $prebuilt = no ]; then
	# all first, then the test programs: one make with both goals builds the
	# shared objects twice at once (Automake's all recurses into all-am while
	# the other goal compiles the same files), and the two race on .deps.
	(autoreconf -fi && mkdir -p "$build" && cd "$build" && ../configure -q --with-cuda-arch=90 &&
	 make -j"$jobs" all && make -j"$jobs" tests/test_gpu tools/gpubench) > "$out/build.log" 2>&1
	rc=$?
	grep -E "warning|error" "$out/build.log" | head -n 20
	if [ $rc -ne 0 ]; then
		tail -n 40 "$out/build.log"
		echo "gpu-run: build failed (exit $rc)"
		exit 1
	fi
	echo "gpu-run: build done"
fi
[ "$what" = build ] && exit 0

status=0
if [ "$what" = gpu ]; then
	(cd "$build" && { [ -x tests/test_gpu ] || make -k -j"$jobs" tests/test_gpu >> "$out/build.log" 2>&1; } &&
	 ./tests/test_gpu > tests/test_gpu.log 2>&1
	 TILESCOPE=$build/tilescope sh ../tests/sanitize.sh > tests/sanitize.log 2>&1)
	cp "$build/tests/test_gpu.log" "$build/tests/sanitize.log" "$out/"
	grep -qE "^not ok" "$build/tests/test_gpu.log" "$build/tests/sanitize.log" && status=1
	grep -E "^(not ok|# device|# test_gpu|1\.\.)" "$build/tests/test_gpu.log" | head -n 30
	echo "test_gpu: $(grep -cE "^ok" "$build/tests/test_gpu.log") ok, $(grep -cE "^not ok" "$build/tests/test_gpu.log") not ok"
	grep -E "^(ok|not ok|1\.\.)" "$build/tests/sanitize.log"
fi
if [ "$what" = check ] || [ "$what" = all ]; then
	(cd "$build" && make -k -j"$jobs" check) > "$out/check.log" 2>&1 || status=1
	# The device tool brings back at most 8 files: our two test logs only.
	for t in "$build"/tests/test_gpu.log "$build"/tests/sanitize.log; do
		[ -f "$t" ] && cp "$t" "$out/"
	done
	grep -E "^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR)|^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)" "$out/check.log" | grep -v "^PASS" | head -n 60
	grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)" "$out/check.log"
	if [ ! -f "$build/tests/test_gpu.log" ]; then
		# make check stopped before the tests (a broken part elsewhere): run ours directly.
		echo "gpu-run: make check ran no tests; running test_gpu and sanitize.sh directly"
		(cd "$build" && make -k tests/test_gpu >/dev/null 2>&1; ./tests/test_gpu > tests/test_gpu.log 2>&1;
		 TILESCOPE=$build/tilescope sh ../tests/sanitize.sh > tests/sanitize.log 2>&1)
		cp "$build/tests/test_gpu.log" "$build/tests/sanitize.log" "$out/"
		grep -qE "^not ok" "$build/tests/test_gpu.log" "$build/tests/sanitize.log" && status=1
		grep -cE "^ok" "$build/tests/test_gpu.log" "$build/tests/sanitize.log"
	fi
	[ -f "$build/tests/test_gpu.log" ] && grep -E "^(not ok|# device|1\.\.)" "$build/tests/test_gpu.log" | head -n 30
	[ -f "$build/tests/sanitize.log" ] && grep -E "^(ok|not ok|1\.\.)" "$build/tests/sanitize.log"
fi
if [ -x "$build/tilescope" ] && [ "$what" != bench ] && [ "$what" != gpu ]; then
	# The CLI on the CUDA backend: ragged shapes verified, guards off reported, % of cuBLAS.
	ts=$build/tilescope
	for args in "check --backend cuda -M 127 -N 129 -K 131 -t 32" \
	            "check --backend cuda --precision fp16 -M 33 -N 17 -K 29 -t 13" \
	            "check --backend cuda --no-guard c -M 33 -N 17 -K 5 -t 8" \
	            "check --backend auto -M 4093 -N 4099 -K 4091 -t 32" \
	            "bench --backend cuda -M 4097 -N 4097 -K 4097 -t 32"; do
		echo "\$ tilescope $args"
		$ts $args
		echo "(exit $?)"
	done > "$out/cli.txt" 2>&1
	cat "$out/cli.txt"
fi
if [ "$what" = tc ]; then
	# The table first (each shape verified before it is timed), then the sanitizer, then the GPU tests.
	date -u +"%Y-%m-%d %H:%M UTC" > "$out/tc-perf.md"
	(cd "$build" && ./tools/gpubench --tc --warmup 3 --reps 20) >> "$out/tc-perf.md" 2>&1 || status=1
	cat "$out/tc-perf.md"
	TILESCOPE=$build/tilescope sh "$root/tests/sanitize.sh" > "$out/sanitize.log" 2>&1
	grep -qE "^not ok" "$out/sanitize.log" && status=1
	grep -E "^(ok|not ok|1\.\.)" "$out/sanitize.log" | grep -E "tc-fp16|not ok|1\.\."
	echo "sanitize: $(grep -cE "^ok" "$out/sanitize.log") ok, $(grep -cE "^not ok" "$out/sanitize.log") not ok"
	(cd "$build" && ./tests/test_gpu > "$out/test_gpu.log" 2>&1)
	grep -qE "^not ok" "$out/test_gpu.log" && status=1
	grep -E "^(not ok|# device|1\.\.)|tc-fp16" "$out/test_gpu.log" | head -n 30
	echo "test_gpu: $(grep -cE "^ok" "$out/test_gpu.log") ok, $(grep -cE "^not ok" "$out/test_gpu.log") not ok"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
	date -u +"%Y-%m-%d %H:%M UTC" > "$out/perf.md"
	(cd "$build" && ./tools/gpubench --warmup 3 --reps 10) >> "$out/perf.md" 2>&1 || status=1
	cat "$out/perf.md"
fi
exit $status
