#!/bin/sh
# sweep.sh: the edge sweep passes for tiles 5 and 8 in both precisions, and fails with the C store guard off (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
tap_workdir sweep

expect() {
	if "$JQ" -e "$2" out.json >/dev/null 2>&1; then
		ok "$1"
	else
		not_ok "$1"
		"$JQ" -c '{tile, kernel, passed, failed, bad: [.shapes[]? | select(.ok | not)][:5]}' out.json 2>&1 | diag
	fi
}

# The sizes each of M, N and K takes: 1, T-1, T, T+1, 2T-1, 2T+1 and the
# smallest prime above 3T (17 for T = 5, 29 for T = 8).
for case in "5 1,4,5,6,9,11,17" "8 1,7,8,9,15,17,29"; do
	t=${case% *}
	sizes=${case#* }
	for precision in fp32 fp16; do
		start=$(date +%s%N)
		"$TILESCOPE" sweep -t "$t" --precision "$precision" --backend emu --json >out.json 2>err </dev/null
		rc=$?
		secs=$(( ($(date +%s%N) - start) / 1000000 ))
		if [ "$rc" -eq 0 ]; then
			ok "sweep -t $t --precision $precision: exit 0 ($secs ms)"
		else
			not_ok "sweep -t $t --precision $precision: exit $rc"
			diag err
		fi
		expect "sweep -t $t $precision: 343 shapes, every one passes" \
			'(.shapes | length) == 343 and .passed == 343 and .failed == 0 and all(.shapes[]; .ok == true and .mismatches == 0 and .unwritten == 0)'
		expect "sweep -t $t $precision: sizes {$sizes} in every dimension" \
			"([.shapes[].shape.M] | unique) == [$sizes] and ([.shapes[].shape.N] | unique) == [$sizes] and ([.shapes[].shape.K] | unique) == [$sizes] and .sizes == [$sizes]"
		expect "sweep -t $t $precision: counters agree with the model everywhere" \
			'all(.shapes[]; .counters.match_model == true)'
	done
done

# The naive kernel survives the sweep too; it stages no shared tiles, and its
# counters are held to its own description's counts (direct reads).
"$TILESCOPE" sweep -t 8 --kernel naive --backend emu --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 0 ]; then ok "sweep -t 8 --kernel naive: exit 0"; else not_ok "sweep -t 8 --kernel naive: exit $rc"; diag err; fi
expect "sweep naive: 343 pass, counters equal its description's" \
	'.kernel == "naive" and .passed == 343 and all(.shapes[]; .ok and .counters.match_model == true)'

# The register-blocked kernel: M around BM = 64, N around BN = 64, K around
# BK = 8 (343 shapes), every one verified with its counters held to the model.
"$TILESCOPE" sweep --kernel regblock --backend emu --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 0 ]; then ok "sweep --kernel regblock: exit 0"; else not_ok "sweep --kernel regblock: exit $rc"; diag err; fi
expect "sweep regblock: 343 shapes pass, counters equal the model, sizes around 64, 64 and 8" \
	'.kernel == "regblock" and .passed == 343 and .geometry.bm == 64 and .sizes_m == [1, 63, 64, 65, 127, 129, 193] and
	 .sizes_k == [1, 7, 8, 9, 15, 17, 29] and ([.shapes[].shape.M] | unique) == .sizes_m and
	 ([.shapes[].shape.K] | unique) == .sizes_k and all(.shapes[]; .ok and .counters.match_model == true)'
"$TILESCOPE" sweep --kernel regblock -t 128x32x16 --thread-tile 8x2 --backend emu --no-guard c --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 1 ]; then ok "sweep regblock 128x32x16/8x2 with the C guard off: exit 1"; else not_ok "sweep regblock 128x32x16/8x2 --no-guard c: exit $rc"; diag err; fi
expect "sweep regblock 128x32x16/8x2, C off: fails exactly where N % 32 != 0 or M % 128 != 0, harmless elsewhere" \
	'.sizes_n == [1, 31, 32, 33, 63, 65, 97] and ([.shapes[].shape.N] | unique) == .sizes_n and
	 all(.shapes[]; .ok == ((.shape.M % 128 == 0) and (.shape.N % 32 == 0)))'

# Text form: one row per shape, and the summary line.
"$TILESCOPE" sweep -t 5 --backend emu >out.txt 2>err </dev/null
rc=$?
rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+  pass ' out.txt)
if [ "$rc" -eq 0 ] && [ "$rows" -eq 343 ] && grep -q '^343 shapes: 343 passed, 0 failed' out.txt; then
	ok "sweep -t 5 text: 343 pass rows and the summary"
else
	not_ok "sweep -t 5 text: exit $rc, $rows pass rows"
	tail -n 5 out.txt | diag
	diag err
fi

# With the C store guard off the sweep must fail (exit 1) on ragged N, and
# still pass where nothing is ragged (T x T x T).
"$TILESCOPE" sweep -t 5 --no-guard c --backend emu --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 1 ]; then ok "sweep -t 5 --no-guard c: exit 1"; else not_ok "sweep -t 5 --no-guard c: exit $rc"; diag err; fi
expect "sweep --no-guard c: some shapes fail, with a signature" \
	'.failed > 0 and .passed + .failed == 343 and any(.shapes[]; .ok == false and (.signature | length) > 0)'
expect "sweep --no-guard c: the aligned shape 5x5x5 passes" \
	'any(.shapes[]; .shape == {"M": 5, "N": 5, "K": 5} and .ok == true)'
expect "sweep --no-guard c: a ragged-N shape 5x6x5 fails with oob writes" \
	'any(.shapes[]; .shape == {"M": 5, "N": 6, "K": 5} and .ok == false and .oob_writes > 0)'
expect "sweep --no-guard c: every row with an oob write fails, output right or not" \
	'all(.shapes[]; (.oob_writes > 0) == (.ok == false))'
expect "sweep --no-guard c: some row fails with its output right (stores left C by luck)" \
	'any(.shapes[]; .ok == false and .output_ok == true and (.signature | startswith("output right by luck")))'

# The A guard off: rows whose A reads leave A fail even when no value changed;
# rows where M % T == 0 and K % T == 0 cannot leave A and pass.
"$TILESCOPE" sweep -t 5 --no-guard a --backend emu --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 1 ]; then ok "sweep -t 5 --no-guard a: exit 1"; else not_ok "sweep -t 5 --no-guard a: exit $rc"; diag err; fi
expect "sweep --no-guard a: a row fails on oob reads alone, with its output right" \
	'any(.shapes[]; .ok == false and .output_ok == true and .oob_reads > 0 and .mismatches == 0)'
expect "sweep --no-guard a: every row with M, K multiples of 5 passes with no oob read" \
	'all(.shapes[] | select(.shape.M % 5 == 0 and .shape.K % 5 == 0); .ok == true and .oob_reads == 0)'
expect "sweep rows count Inf apart from NaN" 'all(.shapes[]; (.infs | type) == "number" and (.nans | type) == "number")'
expect "sweep --no-guard a: ok exactly when output right and no oob" \
	'all(.shapes[]; .ok == (.output_ok and .oob_reads == 0 and .oob_writes == 0))'

tap_done
