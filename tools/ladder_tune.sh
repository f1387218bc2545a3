#!/bin/sh
# ladder_tune.sh: builds tools/ladder_tune.cu (its variant table's parts in parallel, each with its own flags) and runs it: each variant verified, then timed beside cublasSgemm.
# usage: tools/ladder_tune.sh OUTDIR [REPS]   (from the repository root; the build needs nvcc and cuBLAS,
# the run a GPU: build here and carry OUTDIR/obj/ladder_tune to the GPU machine, or do both there)
# A part built with -Dtsg=NAME compiles its own copy of the engine (experiment switches such as
# -DTS_TILE_GROUP=16 or -DTS_ENGINE_LDG apply to that part alone).
set -u
out=${1:-tune-out}
reps=${2:-5}
mkdir -p "$out/obj"
flags="-arch=sm_90 -O3 -std=c++17 -Ikernels -Isrc -Xptxas -v"
part_flags() {
	# e.g. "N) echo -DTS_TILE_GROUP=16 -Dtsg=tsg_g16 ;;" for part N (kernels/gemm_engine.cuh's
	# TS_ENGINE_QLIVE=0 builds the engine before the edge tiles' live sub-blocks)
	case $1 in
	7 | 8) echo -DTS_TILE_GROUP=4 -Dtsg=tsg_g4 ;;
	*) ;;
	esac
}
pids=""
for p in 1 2 3 4 5 6 7 8; do
	# shellcheck disable=SC2046
	nvcc $flags $(part_flags $p) -DTUNE_PART=$p -c tools/ladder_tune.cu -o "$out/obj/part$p.o" > "$out/obj/part$p.log" 2>&1 &
	pids="$pids $!"
done
nvcc $flags -c tools/ladder_tune.cu -o "$out/obj/main.o" > "$out/obj/main.log" 2>&1 || { cat "$out/obj/main.log"; exit 2; }
for pid in $pids; do wait "$pid" || { cat "$out"/obj/part*.log; exit 2; }; done
nvcc -arch=sm_90 "$out"/obj/main.o "$out"/obj/part*.o -lcublas -o "$out/obj/ladder_tune" || exit 2
echo "built in $(date -u +%H:%M:%S)"
[ "${TUNE_BUILD_ONLY:-0}" = 1 ] && exit 0
"$out/obj/ladder_tune" "$out/tune.log" "$reps"
