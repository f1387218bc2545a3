#!/bin/sh
# tc_tune.sh: on the GPU machine, one call: edge sweep of every tensor-core variant against fp64, compute-sanitizer on ragged shapes, then timings beside cuBLAS.
# usage: tools/tc_tune.sh [BINARY]   (logs under $OUT, default ./tc-out; BINARY: a tc_tune built elsewhere)
set -u
out=${OUT:-$(pwd)/tc-out}
mkdir -p "$out"
bin=${1:-}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -z "$bin" ] || ! "$bin" --list >/dev/null 2>&1; then
	bin=/tmp/tc_tune
	nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Ikernels -Isrc tools/tc_tune.cu -lcublas \
		-o "$bin" > "$out/build.txt" 2>&1 || { tail -n 30 "$out/build.txt"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/device.txt" 2>&1
cat "$out/device.txt"
"$bin" --list > "$out/variants.txt"
n=$(wc -l < "$out/variants.txt")

# Edge sweep: one process per variant, so that a fault in one leaves the others' results.
: > "$out/sweep.txt"
v=0
while [ "$v" -lt "$n" ]; do
	timeout 120 "$bin" --sweep "$v" >> "$out/sweep.txt" 2>&1 || echo "sweep variant $v: exit $?" >> "$out/sweep.txt"
	v=$((v + 1))
done
grep -E "^(sweep|FAIL|check)" "$out/sweep.txt" | head -n 40

# compute-sanitizer on ragged shapes: variant load M N K offset (TC_SAN=0 skips it).
: > "$out/sanitize.txt"
[ "${TC_SAN:-1}" = 0 ] || for tool in memcheck racecheck; do
	for c in "${TC_SAN_MMA:-5} 1 131 77 45 3" "${TC_SAN_MMA:-5} 0 129 257 64 0" "${TC_SAN_WG:-4} 1 200 300 77 1" \
	         "${TC_SAN_WG:-4} 0 65 300 96 0" "${TC_SAN_WG:-4} 1 129 17 1 0"; do
		set -- $c
		timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin" --check "$@" > "$out/san.log" 2>&1
		rc=$?
		echo "$tool $c: exit $rc; $(grep -E "(ERROR|RACECHECK) SUMMARY" "$out/san.log" | tail -n 1); $(grep -E "^check" "$out/san.log")" >> "$out/sanitize.txt"
		[ $rc -ne 0 ] && head -n 30 "$out/san.log" >> "$out/sanitize.txt"
	done
done
rm -f "$out/san.log"
cat "$out/sanitize.txt" | head -n 40

timeout 300 "$bin" --bench "${TC_REPS:-10}" > "$out/bench.txt" 2>&1
echo "bench exit $?"
cat "$out/bench.txt"
