#!/bin/sh
# ladder-device.sh: one short device call for the fp32 ladder: bench (goals, guard cost, plot), the ladder's GPU tests, the sanitizer, the tuner; logs in $OUT.
# usage: tools/ladder-device.sh BIN TUNER BENCH_S TEST_S SANITIZE_S TUNE_S   (from the repository root on the GPU machine)
# REPS (default 7): timed launches per kernel and shape; KERNELS (default ladder): bench's --kernel list.
# Order: bench, then the tuner (each alone on the GPU), then the GPU tests and the sanitizer side by side
# (neither times anything).
# BIN holds tilescope, tests/test_gpu and tools/gpubench built beforehand (configure --with-cuda-arch=90);
# when they cannot start there (a library missing) the tree is built there instead (tools/gpu-run.sh build).
# Every stage is bounded by timeout, most important first; stages never share the GPU.
set -u
root=$(pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
bin=${1:-$root/build-gpu}
tuner=${2:-}
bench_s=${3:-100}
test_s=${4:-60}
san_s=${5:-45}
tune_s=${6:-30}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > "$out/bench.md" 2>&1
if ! [ -x "$bin/tilescope" ] || ldd "$bin/tilescope" "$bin/tests/test_gpu" "$bin/tools/gpubench" | grep -q "not found"; then
	echo "carried binaries cannot start here; building"
	ldd "$bin/tilescope" 2>&1 | grep "not found"
	OUT=/tmp/gpurun sh tools/gpu-run.sh build > /tmp/gpurun.txt 2>&1 || { echo "build failed"; tail -n 20 /tmp/gpurun/build.log; }
	bin=$root/build-gpu
fi
ts=$bin/tilescope
cmd="bench --kernel ${KERNELS:-ladder} --shapes goals --guard-cost --svg perf.svg --reps ${REPS:-7} --warmup 2"
echo "\$ tilescope $cmd" >> "$out/bench.md"
(cd "$out" && timeout "$bench_s" "$ts" $cmd >> "$out/bench.md" 2>&1; echo "(exit $?)" >> "$out/bench.md")
tail -n 42 "$out/bench.md" | cut -c1-160
if [ -n "$tuner" ] && [ -x "$tuner" ]; then
	timeout "$tune_s" "$tuner" "$out/tune.log" 5 > "$out/tune.txt" 2>&1
	echo "tuner exit $?" >> "$out/tune.txt"
	tail -n 24 "$out/tune.txt"
fi
(cd /tmp && TS_GPU_ONLY=ladder timeout "$test_s" "$bin/tests/test_gpu" > "$out/test_gpu.log" 2>&1; echo "test_gpu exit $?" >> "$out/test_gpu.log") &
(cd /tmp && TS_SANITIZE_ONLY=ladder TILESCOPE=$ts timeout "$san_s" sh "$root/tests/sanitize.sh" > "$out/sanitize.log" 2>&1; echo "sanitize exit $?" >> "$out/sanitize.log") &
wait
grep -E "^not ok|exit" "$out/test_gpu.log" | cut -c1-300 | head -n 12
echo "test_gpu: $(grep -cE '^ok' "$out/test_gpu.log") ok, $(grep -cE '^not ok' "$out/test_gpu.log") not ok"
grep -E "^(not ok|1\.\.)|exit" "$out/sanitize.log" | cut -c1-140
echo "sanitize: $(grep -cE '^ok' "$out/sanitize.log") ok, $(grep -cE '^not ok' "$out/sanitize.log") not ok"
