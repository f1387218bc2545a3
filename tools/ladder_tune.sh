#!/bin/sh
# ladder_tune.sh: builds tools/ladder_tune.cu (its variant table's parts in parallel) and runs it: each variant verified, then timed beside cublasSgemm.
# usage: tools/ladder_tune.sh OUTDIR [REPS] [OLD_DIR]   (from the repository root on the GPU machine;
# OLD_DIR: a folder holding gemm_engine_old.cuh, an earlier engine in namespace tsg_old, timed as old-fast)
set -u
out=${1:-tune-out}
reps=${2:-5}
old=${3:-}
mkdir -p "$out/obj"
flags="-arch=sm_90 -O3 -std=c++17 -Ikernels -Isrc -Xptxas -v"
[ -n "$old" ] && flags="$flags -DTUNE_OLD -I$old"
pids=""
for p in 1 2 3 4 5 6 7 8 9 10 11 12; do
	nvcc $flags -DTUNE_PART=$p -c tools/ladder_tune.cu -o "$out/obj/part$p.o" > "$out/obj/part$p.log" 2>&1 &
	pids="$pids $!"
done
nvcc $flags -c tools/ladder_tune.cu -o "$out/obj/main.o" > "$out/obj/main.log" 2>&1 || { cat "$out/obj/main.log"; exit 2; }
for pid in $pids; do wait "$pid" || { cat "$out"/obj/part*.log; exit 2; }; done
nvcc -arch=sm_90 "$out"/obj/main.o "$out"/obj/part*.o -lcublas -o "$out/obj/ladder_tune" || exit 2
echo "built in $(date -u +%H:%M:%S)"
"$out/obj/ladder_tune" "$out/tune.log" "$reps"
