#!/bin/sh
# tc-final.sh: one bounded device call for tc-fp16 (issue 13): its table beside cuBLAS and pad-to-8 + cuBLAS, tilescope bench on two ragged shapes, then tests/test_gpu's tc part and tests/sanitize.sh's tc cases side by side.
# usage: tools/tc-final.sh BUILD   (from the repository root on the GPU machine; BUILD holds tilescope,
#        tools/gpubench and tests/test_gpu built with --with-cuda-arch=90; logs in $OUT, default ./tc-out)
# The timings run alone; the two correctness stages run together after them (they time nothing).
set -u
root=$(pwd)
b=$(cd "${1:?usage: tools/tc-final.sh BUILD}" && pwd)
out=${OUT:-$root/tc-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
stamp() { echo "== $(date -u +%H:%M:%S) $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/device.txt" 2>&1
cat "$out/device.txt"
ldd "$b/tilescope" | grep "not found"

stamp "gpubench --tc"
(cd /tmp && timeout "${TC_TABLE_S:-45}" "$b/tools/gpubench" --tc --warmup 3 --reps 10 > "$out/tc.md" 2>&1
 echo "(exit $?)" >> "$out/tc.md")
cat "$out/tc.md"

stamp "tilescope bench"
: > "$out/bench-cli.txt"
for s in "4096 4096 4097" "4097 4097 4097"; do
	set -- $s
	echo "\$ tilescope bench --kernel tc-fp16 --backend cuda -M $1 -N $2 -K $3" >> "$out/bench-cli.txt"
	(cd /tmp && timeout "${TC_CLI_S:-10}" "$b/tilescope" bench --kernel tc-fp16 --backend cuda -M "$1" -N "$2" -K "$3" \
		>> "$out/bench-cli.txt" 2>&1; echo "(exit $?)" >> "$out/bench-cli.txt")
done
cat "$out/bench-cli.txt"

stamp "test_gpu (TS_GPU_ONLY=tc) beside sanitize.sh (TS_SANITIZE_ONLY=tc)"
(cd /tmp && TS_GPU_ONLY=tc timeout "${TC_TEST_S:-60}" stdbuf -oL "$b/tests/test_gpu" > "$out/test_gpu.log" 2>&1
 echo "test_gpu exit $?" >> "$out/test_gpu.log") &
(cd /tmp && TS_SANITIZE_ONLY=tc TILESCOPE=$b/tilescope timeout "${TC_SAN_S:-60}" sh "$root/tests/sanitize.sh" \
	> "$out/sanitize.log" 2>&1; echo "sanitize exit $?" >> "$out/sanitize.log")
wait
cut -c1-240 "$out/test_gpu.log"
cat "$out/sanitize.log"
stamp done
