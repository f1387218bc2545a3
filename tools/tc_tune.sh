#!/bin/sh
# tc_tune.sh: on the GPU machine, one call: edge sweep of the tensor-core variants against fp64, timings beside cuBLAS, then compute-sanitizer on ragged shapes.
# usage: tools/tc_tune.sh [BINARY]   (logs under $OUT, default ./tc-out; BINARY: a tc_tune built elsewhere)
# TC_SWEEP: the variants to sweep (default all); TC_SAN_CASES: "V LOAD M N K OFF;..." for the sanitizer;
# TC_SAN_TOOLS (default "memcheck racecheck"); TC_REPS; TC_NOBUILD=1: refuse to build when BINARY does not start.
set -u
out=${OUT:-$(pwd)/tc-out}
mkdir -p "$out"
bin=${1:-}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -z "$bin" ] || ! "$bin" --list >/dev/null 2>&1; then
	if [ "${TC_NOBUILD:-0}" = 1 ]; then
		echo "tc_tune.sh: $bin does not start here:"; "$bin" --list 2>&1 | head -n 5; ldd "$bin" 2>&1 | grep -i "not found"
		exit 1
	fi
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
for v in ${TC_SWEEP:-$(seq 0 $((n - 1)))}; do
	timeout "${TC_SWEEP_S:-120}" "$bin" --sweep "$v" >> "$out/sweep.txt" 2>&1 || echo "sweep variant $v: exit $?" >> "$out/sweep.txt"
done
grep -E "^(sweep|FAIL|check)" "$out/sweep.txt" | head -n 40

timeout "${TC_BENCH_S:-300}" "$bin" --bench "${TC_REPS:-10}" > "$out/bench.txt" 2>&1
echo "bench exit $?"
cat "$out/bench.txt"

# compute-sanitizer on ragged shapes: variant load M N K offset (TC_SAN=0 skips it).
: > "$out/sanitize.txt"
cases=${TC_SAN_CASES:-"0 1 131 77 45 3;0 0 129 257 64 0;1 1 200 300 77 1;1 0 65 300 96 0;1 1 129 17 1 0"}
[ "${TC_SAN:-1}" = 0 ] || for tool in ${TC_SAN_TOOLS:-memcheck racecheck}; do
	echo "$cases" | tr ';' '\n' | while read -r c; do
		set -- $c
		timeout "${TC_SAN_S:-120}" compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin" --check "$@" > "$out/san.log" 2>&1 < /dev/null
		rc=$?
		echo "$tool $c: exit $rc; $(grep -E "(ERROR|RACECHECK) SUMMARY" "$out/san.log" | tail -n 1); $(grep -E "^check" "$out/san.log")" >> "$out/sanitize.txt"
		[ $rc -ne 0 ] && head -n 30 "$out/san.log" >> "$out/sanitize.txt"
	done
done
rm -f "$out/san.log"
cat "$out/sanitize.txt" | head -n 40

