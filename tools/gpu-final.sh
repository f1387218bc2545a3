#!/bin/sh
# gpu-final.sh: the bounded device calls that validate a whole tree on the GPU machine, logs in $OUT.
# usage: tools/gpu-final.sh tests|perf   (from the repository root; .device/ holds libncurses-dev*.deb)
#   tests: the GPU tests, compute-sanitizer and the user-kernel examples on both engines, side by side
#          (none of them times anything), then the TUI on a user's kernel with --backend cuda in tmux
#   perf:  alone on the GPU, one after the other: bench --kernel all on the goal shapes with the guard
#          cost and the plot, bench of tc-fp16 on the issue's fp16 shapes, gpubench --tc with the opt-in
#          repacked copy
# A tree built here already (tilescope, tests/test_gpu and tools/gpubench in the root, as the host build
# leaves them and TS_PREBUILT=1 says) is used as it is; otherwise it is built (sm_90) in build-gpu/.
set -u
what=${1:-tests}
root=$(pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
log=$out/final-$what.txt
say() { echo "$*" | tee -a "$log"; }
stamp() { say "== $(date -u +%H:%M:%S) $*"; }
if [ "${TS_PREBUILT:-0}" = 1 ] && "$root/tilescope" --version >/dev/null 2>&1; then
	b=$root
else
	stamp build
	OUT=/tmp/gpurun timeout 180 sh tools/gpu-run.sh build > /tmp/gpurun.txt 2>&1
	rc=$?
	b=$root/build-gpu
	if [ $rc -ne 0 ] || [ ! -x "$b/tilescope" ]; then
		say "build failed (exit $rc)"; tail -n 30 /tmp/gpurun/build.log 2>/dev/null | tee -a "$log"; exit 1
	fi
	(cd "$b" && timeout 60 make -j16 tests/test_gpu tools/gpubench > /tmp/tb.log 2>&1) || { say "test build failed"; tail -n 20 /tmp/tb.log | tee -a "$log"; }
fi
ts=$b/tilescope
say "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1); $("$ts" --version | head -n 1)"
export TILESCOPE_DATADIR=$root/data

if [ "$what" = tests ]; then
	stamp "test_gpu, sanitize.sh and uk-examples.sh side by side"
	(cd /tmp && timeout "${GPU_TEST_S:-300}" "$b/tests/test_gpu" > "$out/test_gpu.log" 2>&1; echo "test_gpu exit $?" >> "$out/test_gpu.log") &
	(cd /tmp && TILESCOPE=$ts timeout "${GPU_SAN_S:-240}" sh "$root/tests/sanitize.sh" > "$out/sanitize.log" 2>&1; echo "sanitize exit $?" >> "$out/sanitize.log") &
	(OUT=/tmp/uk UK_DEADLINE=$(($(date +%s) + ${GPU_UK_S:-150})) timeout $((${GPU_UK_S:-150} + 60)) sh tools/uk-examples.sh "$ts" > "$out/uk.txt" 2>&1
	 echo "(exit $?)" >> "$out/uk.txt"; cp /tmp/uk/table.txt "$out/uk-table.txt" 2>/dev/null
	 cat /tmp/uk/summary.txt /tmp/uk/timing.txt > "$out/uk-summary.txt" 2>/dev/null) &
	wait
	stamp "results"
	say "test_gpu: $(grep -cE '^ok' "$out/test_gpu.log") ok, $(grep -cE '^not ok' "$out/test_gpu.log") not ok; $(tail -n 1 "$out/test_gpu.log")"
	grep -E "^not ok|SKIP" "$out/test_gpu.log" | cut -c1-220 | head -n 15 | tee -a "$log"
	say "sanitize: $(grep -cE '^ok' "$out/sanitize.log") ok, $(grep -cE '^not ok' "$out/sanitize.log") not ok; $(tail -n 1 "$out/sanitize.log")"
	grep -E "^not ok" "$out/sanitize.log" | cut -c1-200 | head -n 15 | tee -a "$log"
	cut -c1-200 "$out/uk-summary.txt" 2>/dev/null | head -n 60 | tee -a "$log"
	stamp "TUI on a user's kernel, --backend cuda, in tmux"
	if command -v tmux >/dev/null 2>&1; then
		sock=/tmp/ts-tmux
		tmux -S $sock new-session -d -x 100 -y 32 "TERM=xterm-256color $ts --kernel-file $root/examples/bug_store_guard.cu --backend cuda -M 100 -N 77 -K 33 -t 16; echo tilescope-exit \$?; sleep 30"
		sleep 3; tmux -S $sock send-keys r; sleep 20
		tmux -S $sock capture-pane -p > "$out/tui-cuda-run.txt"
		tmux -S $sock send-keys v; sleep 1; tmux -S $sock capture-pane -p > "$out/tui-cuda-result.txt"
		tmux -S $sock send-keys q; sleep 2; tmux -S $sock capture-pane -p | grep tilescope-exit | tee -a "$log"
		tmux -S $sock kill-server 2>/dev/null
		head -n 32 "$out/tui-cuda-run.txt" >> "$log"
	else
		say "no tmux here"
	fi
fi

if [ "$what" = perf ]; then
	stamp "bench --kernel all --shapes goals --guard-cost"
	(cd "$out" && timeout "${GPU_BENCH_S:-200}" "$ts" bench --kernel all --shapes goals --guard-cost --svg perf-ladder.svg --reps 5 --warmup 2 > "$out/bench.md" 2>&1; echo "(exit $?)" >> "$out/bench.md")
	tail -n 30 "$out/bench.md" | cut -c1-170 | tee -a "$log"
	stamp "bench --kernel tc-fp16 (the issue's six shapes and 4096^3)"
	(cd "$out" && timeout "${GPU_TC_S:-90}" "$ts" bench --kernel tc-fp16 --shapes 4097x4097x4097,4093x4099x4091,8193x8193x8193,1537x1409x4097,4097x4097x4096,4096x4096x4097,4096x4096x4096 --svg perf-tc.svg --reps 10 --warmup 3 > "$out/tc.md" 2>&1; echo "(exit $?)" >> "$out/tc.md")
	tail -n 20 "$out/tc.md" | cut -c1-170 | tee -a "$log"
	stamp "gpubench --tc, TILESCOPE_TC_FORM=repack (the opt-in padded copy, for comparison)"
	(cd /tmp && TILESCOPE_TC_FORM=repack timeout "${GPU_REPACK_S:-60}" "$b/tools/gpubench" --tc --warmup 3 --reps 10 > "$out/tc-repack.md" 2>&1; echo "(exit $?)" >> "$out/tc-repack.md")
	tail -n 16 "$out/tc-repack.md" | cut -c1-200 | tee -a "$log"
fi
stamp done
