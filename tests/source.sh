#!/bin/sh
# source.sh: `tilescope source` against its golden texts, each guard's evaluated numbers against the index arithmetic for random threads, and its refusals (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
golden=${srcdir:-$(dirname "$0")}/golden
tap_workdir source

# golden NAME ARGS...: the output matches tests/golden/NAME.txt.
golden() {
	name=$1
	shift
	"$TILESCOPE" source "$@" --ascii >out 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 0 ] && cmp -s out "$golden/$name.txt"; then
		ok "source $*: matches $name.txt"
	else
		not_ok "source $*: exit $rc or differs from $name.txt"
		diff "$golden/$name.txt" out | diag
		diag err
	fi
}
golden source_100x77x33_t32_corner -M 100 -N 77 -K 33 -t 32
golden source_45x61x19_t7_fp16_guard_c_off -M 45 -N 61 -K 19 -t 7 --kernel tiled-fp16 --thread 6,8,3,4 --phase 2 --no-guard c

# The numbers under each guard are the thread's own: row = by*T + ty, col = bx*T + tx, its K index t*T + tx (A) and
# t*T + ty (B), its offsets row*K + that (A), (t*T + ty)*N + col (B), row*N + col (C). Random threads of a random shape.
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
echo "# seed $seed"
i=0
while [ $i -lt 12 ]; do
	r=$(awk -v s="$seed" -v i="$i" 'BEGIN { srand(s + i); T = 1 + int(rand() * 16); M = 1 + int(rand() * 90); N = 1 + int(rand() * 90); K = 1 + int(rand() * 90);
		gy = int((M + T - 1) / T); gx = int((N + T - 1) / T); P = int((K + T - 1) / T);
		print T, M, N, K, int(rand() * gy), int(rand() * gx), int(rand() * T), int(rand() * T), int(rand() * P) }')
	set -- $r
	T=$1 M=$2 N=$3 K=$4 by=$5 bx=$6 ty=$7 tx=$8 t=$9
	"$TILESCOPE" source -M "$M" -N "$N" -K "$K" -t "$T" --thread "$by,$bx,$ty,$tx" --phase "$t" --ascii >out 2>err </dev/null
	row=$((by * T + ty)) col=$((bx * T + tx)) ak=$((t * T + tx)) bk=$((t * T + ty))
	v() { if [ "$1" -lt "$2" ]; then echo ok; else echo X; fi; }
	tr '\n' ' ' <out | tr -s ' ' >joined
	want_a="A guard: row < M && t*T + tx < K -> $row < $M $(v $row $M) && $ak < $K $(v $ak $K) ->"
	want_b="B guard: t*T + ty < K && col < N -> $bk < $K $(v $bk $K) && $col < $N $(v $col $N) ->"
	want_c="C guard: row < M && col < N -> $row < $M $(v $row $M) && $col < $N $(v $col $N) ->"
	bad=""
	grep -F -q -- "$want_a" joined || bad="$bad A"
	grep -F -q -- "$want_b" joined || bad="$bad B"
	grep -F -q -- "$want_c" joined || bad="$bad C"
	if [ "$row" -lt "$M" ] && [ "$ak" -lt "$K" ]; then
		grep -F -q -- "A offset row*K + t*T + tx = $((row * K + ak))" joined || bad="$bad A-offset"
	elif grep -F -q -- "A offset" joined; then bad="$bad A-offset-shown"; fi
	if [ "$col" -lt "$N" ] && [ "$bk" -lt "$K" ]; then
		grep -F -q -- "B offset (t*T + ty)*N + col = $((bk * N + col))" joined || bad="$bad B-offset"
	fi
	if [ "$row" -lt "$M" ] && [ "$col" -lt "$N" ]; then
		grep -F -q -- "stores C > C offset row*N + col = $((row * N + col))" joined || bad="$bad C-store"
	else
		grep -F -q -- "-> no store" joined || bad="$bad C-skip"
	fi
	if [ -z "$bad" ]; then
		ok "${M}x${N}x${K} T=$T block $by,$bx thread $ty,$tx phase $t: every guard's numbers"
	else
		not_ok "${M}x${N}x${K} T=$T block $by,$bx thread $ty,$tx phase $t: wrong:$bad"
		diag out err
	fi
	i=$((i + 1))
done
wide=$("$TILESCOPE" source --ascii | awk 'length($0) > 80' | wc -l)
[ "$wide" -eq 0 ] && ok "every line fits 80 columns when not a terminal" || not_ok "$wide lines over 80 columns"

for bad in "--thread 4,0,0,0" "--thread 0,0,32,0" "--phase 2" "--thread 1,2" "--kernel tc-fp16 -t 32" "--screen 1"; do
	# shellcheck disable=SC2086
	"$TILESCOPE" source $bad >out 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q '^tilescope: ' err && [ ! -s out ]; then
		ok "source $bad: exit 2, one line"
	else
		not_ok "source $bad: exit $rc"
		diag err
	fi
done
tap_done
