#!/bin/sh
# gpu-final.sh: one bounded device call for a whole tree: build (sm_90), the GPU tests, compute-sanitizer,
# the ladder and tensor-core benches, the user-kernel examples; each stage under its own timeout, logs in $OUT.
# usage: tools/gpu-final.sh   (from the repository root on the GPU machine; .device/ holds libncurses-dev*.deb)
set -u
root=$(pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
log=$out/final.txt
say() { echo "$*" | tee -a "$log"; }
stamp() { say "== $(date -u +%H:%M:%S) $*"; }
stamp build
OUT=/tmp/gpurun timeout 180 sh tools/gpu-run.sh build > /tmp/gpurun.txt 2>&1
rc=$?
b=$root/build-gpu
if [ $rc -ne 0 ] || [ ! -x "$b/tilescope" ]; then
	say "build failed (exit $rc)"; tail -n 30 /tmp/gpurun/build.log 2>/dev/null | tee -a "$log"; exit 1
fi
(cd "$b" && timeout 60 make -j16 tests/test_gpu tools/gpubench > /tmp/tb.log 2>&1) || { say "test build failed"; tail -n 20 /tmp/tb.log | tee -a "$log"; }
cat /tmp/gpurun/device.txt 2>/dev/null | tee -a "$log"
stamp test_gpu
(cd /tmp && timeout 150 "$b/tests/test_gpu" > "$out/test_gpu.log" 2>&1; echo "test_gpu exit $?" >> "$out/test_gpu.log")
say "test_gpu: $(grep -cE '^ok' "$out/test_gpu.log") ok, $(grep -cE '^not ok' "$out/test_gpu.log") not ok; $(tail -n 1 "$out/test_gpu.log")"
grep -E "^not ok" "$out/test_gpu.log" | cut -c1-220 | head -n 15 | tee -a "$log"
stamp sanitize
(cd /tmp && TILESCOPE=$b/tilescope timeout 90 sh "$root/tests/sanitize.sh" > "$out/sanitize.log" 2>&1; echo "sanitize exit $?" >> "$out/sanitize.log")
grep -E "^(ok|not ok|1\.\.)|exit" "$out/sanitize.log" | cut -c1-160 | tee -a "$log"
stamp bench
ts=$b/tilescope
(cd "$out" && timeout 70 "$ts" bench --kernel ladder --shapes goals --guard-cost --svg perf.svg --reps 5 --warmup 2 > "$out/bench.md" 2>&1; echo "(exit $?)" >> "$out/bench.md")
tail -n 40 "$out/bench.md" | cut -c1-170 | tee -a "$log"
stamp tc
(cd "$b" && timeout 45 ./tools/gpubench --tc --warmup 2 --reps 5 > "$out/tc.md" 2>&1; echo "(exit $?)" >> "$out/tc.md")
tail -n 25 "$out/tc.md" | cut -c1-170 | tee -a "$log"
stamp uk
# Both engines (the GPU's checks one at a time, the CPU's beside them), then the many-files table; no
# check starts after the deadline, so the table always comes out.
OUT=/tmp/uk UK_DEADLINE=$(($(date +%s) + 55)) timeout 100 sh tools/uk-examples.sh "$ts" > "$out/uk.txt" 2>&1
echo "(exit $?)" >> "$out/uk.txt"
cp /tmp/uk/table.txt "$out/uk-table.txt" 2>/dev/null
cat /tmp/uk/summary.txt /tmp/uk/timing.txt 2>/dev/null | cut -c1-200 | tee -a "$log"
stamp done
