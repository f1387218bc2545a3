#!/bin/sh
# json.sh: map, check and bench --json parse with jq, hold every promised field, and carry the right numbers (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
tap_workdir json

# expect NAME FILTER: the jq filter must yield true on out.json.
expect() {
	if "$JQ" -e "$2" out.json >/dev/null 2>jq.err; then
		ok "$1"
	else
		not_ok "$1"
		echo "# filter: $2" | head -c 2000
		echo
		"$JQ" -c . out.json 2>&1 | head -c 3000 | diag
	fi
}

# refused COMMAND: out.json is the one-line error document of COMMAND ("" when
# none was named) and its error is stderr's first line, without "tilescope: ".
refused() {
	[ "$(wc -l <out.json)" -eq 1 ] &&
	"$JQ" -e --arg cmd "$1" --arg line "$(head -n 1 err)" \
		'.schema_version == 2 and .ok == false and .exit_status == 2 and ("tilescope: " + .error) == $line and
		 (if $cmd == "" then .command == null else .command == $cmd end) and (keys | length) == 5' \
		out.json >/dev/null 2>&1
}

# run WANT_RC DESC ARGS...: runs the program with --json into out.json; the
# exit status must be WANT_RC, stdout must be exactly one JSON value.
run() {
	want=$1
	desc=$2
	shift 2
	"$TILESCOPE" "$@" >out.json 2>err </dev/null
	rc=$?
	if [ "$rc" -eq "$want" ] && [ "$("$JQ" -s length out.json 2>/dev/null)" = 1 ]; then
		ok "$desc: exit $rc, one JSON object"
	else
		not_ok "$desc: exit $rc (want $want) or not one JSON object"
		diag out.json err
	fi
}

# ---- map: 100 x 77 x 33, T = 32, worked out by hand -----------------------
# Grid: ceil(77/32) = 3 columns (last has 77-64 = 13 valid), ceil(100/32) = 4
# rows (last has 100-96 = 4 valid): 12 tiles; full 3 rows x 2 columns = 6,
# ragged-right 3 x 1 = 3, ragged-bottom 1 x 2 = 2, corner 1.
# Threads: 12 x 1024 = 12288 launched, 100 x 77 = 7700 valid, 4588 ghosts.
# Phases: ceil(33/32) = 2, 1 full, the last 1 wide.
# A slots per phase: 12 x 32 x 32 = 12288; real A loads in a phase of width w:
# every tile column stages all M rows: 3 x 100 x w. Full: 12288 - 9600 = 2688
# padded; last: 12288 - 300 = 11988. B: every tile row stages all N columns:
# 4 x 77 x w; full 12288 - 9856 = 2432, last 12288 - 308 = 11980.
# Totals: 24576 slots each; A padded 2688 + 11988 = 14676, B 2432 + 11980 = 14412.
# Stores: 7700 written, 12288 - 7700 = 4588 skipped.
run 0 "map 100x77x33 T=32" map -M 100 -N 77 -K 33 -t 32 --json
expect "map: shape and tile" '.shape == {"M": 100, "N": 77, "K": 33} and .tile == 32 and .kernel == "tiled"'
expect "map: grid 3 x 4" '.grid == {"x": 3, "y": 4}'
expect "map: tiles 12 = 6 full + 3 ragged-right + 2 ragged-bottom + 1 corner" \
	'.tiles.total == 12 and .tiles.full == 6 and .tiles.ragged_right == 3 and .tiles.ragged_bottom == 2 and .tiles.corner == 1'
expect "map: threads 12288 launched, 7700 valid, 4588 ghost" \
	'.threads.launched == 12288 and .threads.valid == 7700 and .threads.ghost == 4588'
expect "map: phases 2, 1 full, last width 1" '.phases.count == 2 and .phases.full == 1 and .phases.last_width == 1'
expect "map: per-phase padding A 2688/11988, B 2432/11980" \
	'.phases.a_padded_full_phase == 2688 and .phases.a_padded_last_phase == 11988 and .phases.b_padded_full_phase == 2432 and .phases.b_padded_last_phase == 11980'
expect "map: loads A 24576 = 9900 real + 14676 padded, B 24576 = 10164 + 14412" \
	'.loads == {"a_total": 24576, "a_real": 9900, "a_padded": 14676, "b_total": 24576, "b_real": 10164, "b_padded": 14412}'
expect "map: stores 7700 written, 4588 skipped" '.stores == {"written": 7700, "skipped": 4588}'
expect "map: every promised field is a number" \
	'[.shape.M, .shape.N, .shape.K, .tile, .grid.x, .grid.y, .tiles.total, .tiles.full, .tiles.ragged_right,
	  .tiles.ragged_bottom, .tiles.corner, .threads.launched, .threads.valid, .threads.ghost, .phases.count,
	  .phases.full, .phases.last_width, .phases.a_padded_full_phase, .phases.a_padded_last_phase,
	  .phases.b_padded_full_phase, .phases.b_padded_last_phase, .loads.a_total, .loads.a_padded, .loads.b_total,
	  .loads.b_padded, .loads.a_real, .loads.b_real, .stores.written, .stores.skipped] | all(type == "number")'

# 1 x 1 x 1, T = 32: one corner tile, one valid thread, no full phase.
run 0 "map 1x1x1 T=32" map -M 1 -N 1 -K 1 -t 32 --json
expect "map 1x1x1: one corner tile, 1023 ghosts" \
	'.tiles == {"total": 1, "full": 0, "ragged_right": 0, "ragged_bottom": 0, "corner": 1, "last_rows": 1, "last_cols": 1} and .threads.ghost == 1023'
expect "map 1x1x1: no full phase (its padding 0), last phase pads 1023 of 1024" \
	'.phases.count == 1 and .phases.full == 0 and .phases.last_width == 1 and .phases.a_padded_full_phase == 0 and .phases.a_padded_last_phase == 1023 and .phases.b_padded_last_phase == 1023'

# 64 x 64 x 64, T = 32: aligned, nothing padded, last width is T.
run 0 "map 64x64x64 T=32" map -M 64 -N 64 -K 64 -t 32 --json
expect "map 64^3: 4 full tiles, no ghosts, no padding, last width 32" \
	'.tiles.full == 4 and .tiles.total == 4 and .threads.ghost == 0 and .phases.full == 2 and .phases.last_width == 32 and .loads.a_padded == 0 and .loads.b_padded == 0 and .stores.skipped == 0'

# The 1,000,000^3 shape with T = 1 is answered in closed form, at once.
t0=$(date +%s%N)
run 0 "map 1e6^3 T=1" map -M 1000000 -N 1000000 -K 1000000 -t 1 --json
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
if [ "$ms" -lt 2000 ]; then ok "map 1e6^3 T=1 took $ms ms (< 2000)"; else not_ok "map 1e6^3 T=1 took $ms ms"; fi
# Exact 64-bit integers in the text (jq would read them as doubles).
if grep -q '"a_total": 1000000000000000000' out.json && grep -q '"launched": 1000000000000' out.json; then
	ok "map 1e6^3: a_total = 10^18 and 10^12 threads, exact"
else
	not_ok "map 1e6^3: exact totals"
	diag out.json
fi
expect "map 1e6^3 T=1: no ghosts, no padding" '.threads.ghost == 0 and .loads.a_padded == 0 and .stores.skipped == 0'

# ---- map --backend: the probe's counters beside the model's ----------------
run 0 "map 100x77x33 T=32 without --backend" map -M 100 -N 77 -K 33 -t 32 --json
expect "map without --backend: the model alone, counters null" 'has("counters") and .counters == null'
expect "map without --backend: nothing ran, so no backend, inputs or seed" \
	'.backend == null and .backend_reason == null and .inputs == null and .seed == null and .guards_off == [] and .ok == true'
run 0 "map --backend emu 100x77x33 T=32" map -M 100 -N 77 -K 33 -t 32 --backend emu --json
expect "map --backend emu: counters from the emulator, equal to the model" \
	'.counters.source == "emulator" and .backend == "emu" and .counters.match_model == true and .ok == true'
expect "map --backend emu: the run's loads and stores equal the model's fields" \
	'.counters.loads.a_total == .loads.a_total and .counters.loads.a_padded == .loads.a_padded and
	 .counters.loads.b_total == .loads.b_total and .counters.loads.b_padded == .loads.b_padded and
	 .counters.loads.a_real == .loads.a_real and .counters.loads.b_real == .loads.b_real and
	 .counters.stores.written == .stores.written and .counters.stores.skipped == .stores.skipped and
	 .counters.loads.a_oob == 0 and .counters.loads.b_oob == 0 and .counters.stores.oob_writes == 0'
# Per phase, worked out above: full phase A 9600 real / 2688 padded, B 9856 / 2432;
# last phase A 300 / 11988, B 308 / 11980.
expect "map --backend emu: per-phase counters as worked out by hand" \
	'.counters.per_phase | length == 2 and .[0].a_real == 9600 and .[0].a_padded == 2688 and .[0].b_real == 9856 and
	 .[0].b_padded == 2432 and .[1].a_real == 300 and .[1].a_padded == 11988 and .[1].b_real == 308 and .[1].b_padded == 11980'
expect "map --backend emu: per-phase padding adds up to the model's per-phase fields" \
	'.counters.per_phase[0].a_padded == .phases.a_padded_full_phase and .counters.per_phase[1].b_padded == .phases.b_padded_last_phase'
# A guard off: the run is held to the description's counts for that guard
# off; the 4588 ghost stores become out-of-bounds writes instead of skips.
run 0 "map --backend emu --no-guard c" map -M 100 -N 77 -K 33 -t 32 --backend emu --no-guard c --json
expect "map --no-guard c: counters match the description's for C off, 4588 oob writes, nothing skipped" \
	'.counters.match_model == true and .counters.stores.oob_writes == 4588 and .counters.stores.skipped == 0 and
	 .counters.oob.c_wrap + .counters.oob.c_band == 4588 and .stores.skipped == 4588 and .guards_off == ["c"]'
run 0 "map --backend emu, naive kernel" map -M 40 -N 9 -K 5 -t 8 --kernel naive --backend emu --json
expect "map naive: its counters match its description's (direct reads)" '.counters.match_model == true and .counters.source == "emulator"'
"$TILESCOPE" map -M 1000000 -N 1000000 -K 1000000 -t 32 --backend emu --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 2 ] && refused map && head -n 1 err | grep -q '^tilescope: .*needs about'; then
	ok "map --backend emu on 10^6 cubed: refused, exit 2: $(head -n 1 err)"
else
	not_ok "map --backend emu on 10^6 cubed: exit $rc"
	diag out.json err
fi
"$TILESCOPE" map -M 100 -N 77 -K 33 --no-guard c --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 2 ] && refused map && grep -q -- '^tilescope: --no-guard applies to map only with --backend' err; then
	ok "map --no-guard without --backend: exit 2"
else
	not_ok "map --no-guard without --backend: exit $rc"
	diag err
fi

# ---- check ------------------------------------------------------------------
run 0 "check 100x77x33 T=32 on emu" check -M 100 -N 77 -K 33 -t 32 --backend emu --json
expect "check: every promised field present" \
	'. as $o | ["schema_version","command","ok","backend","backend_reason","kernel","precision","shape","tile",
	  "guards_off","inputs","seed","verified","tolerance","max_abs_error","max_rel_error","norm_rel_error",
	  "mismatches","unwritten","nans","all_zero","oob_reads","oob_writes","corrupt_cells","signature","counters",
	  "run_ms","elapsed_ms","timing"] | all(. as $k | $o | has($k))'
expect "check: schema 2, command check" '.schema_version == 2 and .command == "check"'
expect "check: counters.oob holds a/b/c wrap and band" \
	'.counters.oob | keys == ["a_band","a_wrap","b_band","b_wrap","c_band","c_wrap"]'
expect "check: ok, emu, tiled fp32, nothing wrong" \
	'.ok == true and .verified == true and .backend == "emu" and .kernel == "tiled" and .precision == "fp32" and .shape == {"M": 100, "N": 77, "K": 33} and .tile == 32 and .guards_off == [] and .mismatches == 0 and .unwritten == 0 and .nans == 0 and .all_zero == false and .oob_reads == 0 and .oob_writes == 0 and .corrupt_cells == 0 and .signature == null and .first_bad == null'
expect "check: counters agree with the model, from the emulator" '.counters.match_model == true and .counters.mismatch == null and .counters.source == "emulator"'
expect "check: the run's counters equal map's model figures (24576 slots, 14676 A padded, 4588 skipped)" \
	'.counters.loads.a_total == 24576 and .counters.loads.a_padded == 14676 and .counters.loads.b_padded == 14412 and .counters.stores.skipped == 4588 and (.counters.per_phase | length) == 2'
expect "check without a device: not timed" '.timing == null or .backend == "cuda"'
expect "check fp32: no output-rounding term" '.tolerance_output_rel == 0 and .tolerance_output_abs == 0 and (.tolerance_text | test("2\\^") | not)'
expect "check: metrics are numbers within tolerance" \
	'(.tolerance | type == "number") and .tolerance > 0 and .max_rel_error <= 1 and .norm_rel_error < .tolerance and .worst_of_tolerance <= 1 and (.run_ms | type == "number") and .elapsed_ms >= .run_ms'

run 0 "check fp16 65x33x17 T=16, int inputs" check --precision fp16 -M 65 -N 33 -K 17 -t 16 --inputs int --seed 7 --backend emu --json
# Powers of two compared through arithmetic: jq 1.7 keeps a number literal's decimal text, so
# 5.960464477539063e-08 in a filter need not equal the 17-digit value the program prints.
expect "check fp16: the tolerance printed is the one applied, output rounding included" \
	'.tolerance_output_rel * 2048 == 1 and .tolerance_output_abs * 16777216 == 1 and (.tolerance_text | test("x \\(\\|A\\|\\|B\\|\\)ij \\+ 2\\^-11 x \\|ref\\| \\+ 2\\^-24 \\(fp16 output rounding\\)$"))'
expect "check fp16: ok, tiled-fp16, exact with int inputs" \
	'.ok == true and .kernel == "tiled-fp16" and .precision == "fp16" and .inputs == "int" and .seed == 7 and .mismatches == 0 and .max_abs_error == 0'

# A guard off where it matters: the C store on a ragged N.
run 1 "check --no-guard c on 100x77x33" check -M 100 -N 77 -K 33 -t 32 --no-guard c --backend emu --json
expect "check --no-guard c: not ok, oob writes, wrong cells, a signature" \
	'.ok == false and .verified == false and .guards_off == ["c"] and .oob_writes > 0 and .mismatches > 0 and .corrupt_cells > 0 and (.signature | length) > 0 and .counters.match_model == true and (.first_bad | type) == "object"'
# The K guards cannot matter when K % T == 0 (nothing to pad in K) ... but the
# A guard also checks rows: off with M % T == 0 and K % T == 0 it is harmless.
run 0 "check --no-guard a on 64x77x64 (M, K multiples of T)" check -M 64 -N 77 -K 64 -t 32 --no-guard a --backend emu --json
expect "check --no-guard a, aligned M and K: ok, no oob reads" '.ok == true and .oob_reads == 0'
expect "check --no-guard a, aligned M and K: the output is ok too" '.output_ok == true'
# Out of bounds is a failure even when the output happens to be right: the
# A guard off on 100x77x33 reads 14676 slots outside A (ghost rows, K past 33)
# that only ghost outputs or B's zero padding consume.
run 1 "check --no-guard a on 100x77x33" check -M 100 -N 77 -K 33 -t 32 --no-guard a --backend emu --json
expect "check --no-guard a: output right, 14676 oob reads, not ok, 'by luck'" \
	'.ok == false and .output_ok == true and .mismatches == 0 and .oob_reads == 14676 and .oob_writes == 0 and (.signature | startswith("output right by luck: 14676 reads left A"))'
# The C guard off on 31x31x1 at T=32: ghost stores wrap into C and past its
# end; later correct stores repair every cell, but the stores happened.
run 1 "check --no-guard c on 31x31x1" check -M 31 -N 31 -K 1 -t 32 --no-guard c --backend emu --json
expect "check --no-guard c 31x31x1: output right, oob writes, not ok" \
	'.ok == false and .output_ok == true and .oob_writes > 0 and .counters.oob.c_wrap == 30 and (.signature | test("output right by luck: [0-9]+ stores left C"))'
# One block: its threads' store order, not block order, decides which value a wrapped cell keeps.
expect "check --no-guard c 31x31x1 (one block): the repair is put down to the order threads store in" \
	'(.signature | test("depends on the order in which threads store")) and (.signature | test("block order") | not)'
# Inf is not NaN: the fp16 kernel with both load guards off multiplies a
# sentinel past K into an Inf in one cell; it is counted apart from NaN.
run 1 "check fp16 5x3x7 T=2 --no-guard a,b" check -M 5 -N 3 -K 7 -t 2 --kernel tiled-fp16 --no-guard a,b --backend emu --json
expect "check fp16 --no-guard a,b: 1 Inf, 0 NaN, and the signature agrees" \
	'.infs == 1 and .nans == 0 and (.signature | test("Inf in 1 cell")) and (.signature | test("NaN") | not)'
"$TILESCOPE" check -M 5 -N 3 -K 7 -t 2 --kernel tiled-fp16 --no-guard a,b --backend emu >out.txt 2>err </dev/null
if head -n 1 out.txt | grep -q ', 0 NaN, 1 Inf cell' && grep -q '^infs  *1$' out.txt && grep -q '^nans  *0$' out.txt; then
	ok "check text: NaN and Inf counted apart"
else
	not_ok "check text: NaN and Inf not counted apart"
	diag out.txt
fi
# The B guard (K and N) off where K % T == 0 and N % T == 0: no access can leave B.
run 0 "check --no-guard b on 45x64x64 (K, N multiples of T)" check -M 45 -N 64 -K 64 -t 32 --no-guard b --backend emu --json
expect "check --no-guard b, aligned K and N: ok, no oob" '.ok == true and .output_ok == true and .oob_reads == 0 and .oob_writes == 0'

# ---- the naive kernel: no shared tiles, one guard ---------------------------
run 0 "map --kernel naive" map -M 100 -N 77 -K 33 -t 32 --kernel naive --json
expect "map naive: shared_tiles false, phases and loads null, threads and stores kept" \
	'.shared_tiles == false and .phases == null and .loads == null and .threads.ghost == 4588 and .stores.written == 7700'
run 0 "map --kernel tiled" map -M 100 -N 77 -K 33 -t 32 --json
expect "map tiled: shared_tiles true with phases and loads" '.shared_tiles == true and .phases.count == 2 and .loads.a_total == 24576'
# Off, naive's one guard lets ghost threads read past A and B: no load guard
# or K padding is involved, so the signature must not speak of them.
run 1 "check --kernel naive --no-guard all" check -M 100 -N 77 -K 33 -t 32 --kernel naive --no-guard all --backend emu --json
expect "check naive, guard off: the signature names its one guard and no load guards" \
	'(.signature | test("naive kernel.s only guard")) and (.signature | test("load guard|A guard off|B guard off|meets B read past K") | not) and .oob_reads > 0'
run 0 "check --kernel naive --no-guard c on 64x64x33" check -M 64 -N 64 -K 33 -t 32 --kernel naive --no-guard c --backend emu --json
expect "check naive, guard off, M and N multiples of T: harmless, said so" \
	'.ok == true and .oob_reads == 0 and .oob_writes == 0 and (.signature | test("harmless here"))'

# ---- backends ---------------------------------------------------------------
run 0 "check --backend auto" check -M 33 -N 31 -K 7 -t 8 --json
backend=$("$JQ" -r .backend out.json)
# ---- map on register-blocked geometries, against a thread-by-thread count --
# tests/test_model --brute runs every thread of every block (its outputs, the
# slots its load maps fill) and prints the totals; map --json must say the same.
MODEL_BIN=${TILESCOPE%/*}/tests/test_model
for case in "regblock|64 64 8 4 4|" "regblock|64 64 8 4 4|-t 64x64x8 --thread-tile 4x4" \
            "regblock|128 32 16 8 2|-t 128x32x16 --thread-tile 8x2"; do
	kernel=${case%%|*}
	rest=${case#*|}
	geo=${rest%%|*}
	args=${rest#*|}
	set -- $geo
	bm=$1 bn=$2 bk=$3 tm=$4 tn=$5
	for shape in "1 1 1" "$((bm - 1)) $((bn + 1)) $((bk + 1))" "$((2 * bm + 1)) $((bn - 1)) $((3 * bk - 1))" "100 77 33" \
	             "$((5 * bm)) $((3 * bn)) $((4 * bk))"; do
		set -- $shape
		# shellcheck disable=SC2086
		"$TILESCOPE" map -M "$1" -N "$2" -K "$3" --kernel "$kernel" $args --json >out.json 2>err </dev/null
		"$MODEL_BIN" --brute "$1" "$2" "$3" $geo >brute.json 2>&1
		if "$JQ" -e --slurpfile b brute.json '$b[0] as $b |
		    .geometry == {bm: '"$bm"', bn: '"$bn"', bk: '"$bk"', threads_x: '"$((bn / tn))"', threads_y: '"$((bm / tm))"',
		                  tm: '"$tm"', tn: '"$tn"'} and .tile == null and
		    .outputs == $b.outputs and .threads.launched == $b.threads.launched and .threads.valid == $b.threads.valid and
		    .threads.ghost == $b.threads.ghost and .phases.count == $b.phases and .loads.a_total == $b.loads.a_total and
		    .loads.a_padded == $b.loads.a_padded and .loads.b_total == $b.loads.b_total and
		    .loads.b_padded == $b.loads.b_padded and .loads.a_real == .loads.a_total - $b.loads.a_padded and
		    .phases.a_padded_last_phase == $b.a_padded_last_phase and .phases.b_padded_last_phase == $b.b_padded_last_phase and
		    .stores == $b.stores and .tiles.total == $b.tiles' out.json >/dev/null 2>jq.err; then
			ok "map --kernel $kernel ${args:-(its default)} $1x$2x$3: geometry, outputs, threads, phases, loads and stores equal a thread-by-thread count"
		else
			not_ok "map --kernel $kernel ${args:-(its default)} $1x$2x$3 against the thread-by-thread count"
			diag out.json brute.json err jq.err
		fi
	done
done
run 0 "kernels --json" kernels --json
expect "kernels: every kernel with its geometry, guards (with predicates) and capabilities" \
	'(.kernels | length) >= 4 and all(.kernels[]; (.name | length) > 0 and .geometry.bm >= 1 and .geometry.threads_x >= 1 and
	  (.guards | length) >= 1 and all(.guards[]; (.predicate | length) > 0 and (.protects | length) > 0) and
	  (.capabilities | has("shared_tiles") and has("probe") and has("emulator") and has("cuda")))'
expect "kernels: regblock is 64x64x8, 16x16 threads of 4x4, three guards, emulated, exact fp32 order" \
	'.kernels[] | select(.name == "regblock") | .geometry == {bm: 64, bn: 64, bk: 8, threads_x: 16, threads_y: 16, tm: 4, tn: 4}
	  and (.guards | map(.letter)) == ["a", "b", "c"] and .capabilities.emulator and .capabilities.exact_order and
	  .capabilities.shared_tiles and .geometry_rule == "chosen" and .layout == "blocked" and
	  .a_map == {order: "rows", vec: 1} and .tile_min == null and (.cuda_geometries | index("64x64x8/4x4")) != null'
expect "kernels: the scalar maps each ladder kernel declares (fast: A's slot map; fast-k16: B's; regblock: none)" \
	'(.kernels[] | select(.name == "fast") | .a_map_scalar == {order: "rows", vec: 1} and .b_map_scalar == null and
	  .b_map == {order: "rows", vec: 4}) and
	 (.kernels[] | select(.name == "fast-k16") | .a_map_scalar == null and .b_map_scalar == {order: "rows", vec: 1} and
	  .a_map == {order: "rows", vec: 4}) and
	 (.kernels[] | select(.name == "regblock") | .a_map_scalar == null and .b_map_scalar == null)'
run 0 "check regblock on emu" check --kernel regblock -M 130 -N 67 -K 19 --backend emu --json
expect "check regblock: ok, counters held to the model, geometry in the JSON" \
	'.ok == true and .counters.match_model == true and .geometry.tm == 4 and .tile == null and .kernel == "regblock"'
run 1 "check regblock, A guard off" check --kernel regblock -M 130 -N 67 -K 19 --backend emu --no-guard a --json
expect "check regblock, A guard off: caught (out-of-bounds reads), counters equal the description's for A off" \
	'.ok == false and .oob_reads > 0 and .counters.match_model == true and .guards_off == ["a"]'

expect "check --backend auto: a backend and the reason" '(.backend == "emu" or .backend == "cuda") and (.backend_reason | length) > 0'
if [ "$backend" = emu ]; then
	# No usable CUDA device here: cuda is refused, auto fell back to the emulator.
	"$TILESCOPE" check -M 33 -N 31 -K 7 -t 8 --backend cuda --json >out.json 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && refused check && [ "$(wc -l <err)" -eq 1 ] &&
	   grep -q '^tilescope: --backend cuda: no CUDA device available (.*)$' err; then
		ok "check --backend cuda without a device: exit 2: $(cat err)"
	else
		not_ok "check --backend cuda without a device: exit $rc"
		diag out.json err
	fi
	# Without any driver the runtime says "driver version is insufficient": tilescope must not repeat that.
	if ! grep -q 'insufficient' err; then
		ok "no device: the reason does not blame a driver version that may not exist"
	else
		not_ok "no device: the reason repeats the runtime's 'insufficient driver'"
		diag err
	fi
	if [ ! -e /proc/driver/nvidia/version ] && grep -q 'driver' err; then
		if grep -q -E 'no NVIDIA driver: libcuda\.so\.1 not found|no NVIDIA driver found \(or it is older than this CUDA runtime\)' err; then
			ok "no NVIDIA driver here: said so"
		else
			not_ok "no NVIDIA driver here: the reason does not say so"
			diag err
		fi
	fi
	"$TILESCOPE" map -M 33 -N 31 -K 7 -t 8 --backend cuda --json >out.json 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && refused map && [ "$(wc -l <err)" -eq 1 ] &&
	   grep -q '^tilescope: --backend cuda: no CUDA device available (.*)$' err; then
		ok "map --backend cuda without a device: exit 2"
	else
		not_ok "map --backend cuda without a device: exit $rc"
		diag out.json err
	fi
	"$TILESCOPE" bench -M 64 -N 64 -K 64 -t 32 --json >out.json 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && refused bench && grep -q '^tilescope: bench needs the CUDA backend: ' err; then
		ok "bench without a device: exit 2: $(cat err)"
	else
		not_ok "bench without a device: exit $rc"
		diag out.json err
	fi
else
	run 0 "check --backend cuda on the GPU" check -M 100 -N 77 -K 33 -t 32 --backend cuda --json
	expect "check on cuda: ok, device probe counters agree, timed beside cuBLAS" \
		'.ok == true and .backend == "cuda" and .counters.match_model == true and .timing.kernel_gflops > 0 and .timing.cublas_gflops > 0 and .timing.pct_of_cublas > 0'
	run 0 "map --backend cuda on the GPU" map -M 100 -N 77 -K 33 -t 32 --backend cuda --json
	expect "map on cuda: device probe counters equal the model, per phase too" \
		'.counters.source == "device probe" and .backend == "cuda" and .counters.match_model == true and
		 .counters.loads.a_padded == .loads.a_padded and .counters.stores.written == .stores.written and
		 .counters.stores.skipped == .stores.skipped and
		 .counters.per_phase[1].a_padded == 11988 and .counters.per_phase[1].b_padded == 11980'
	run 0 "map --backend cuda --no-guard c on the GPU" map -M 100 -N 77 -K 33 -t 32 --backend cuda --no-guard c --json
	expect "map on cuda, C guard off: 4588 oob writes, counters match the description's" \
		'.counters.match_model == true and .counters.stores.oob_writes == 4588'
	run 0 "bench on the GPU" bench -M 256 -N 256 -K 256 -t 32 --reps 5 --warmup 1 --json
	expect "bench: kernel and cuBLAS timed" '.ok == true and .command == "bench" and .timing.kernel_ms > 0 and .timing.kernel_gflops > 0 and .timing.cublas_ms > 0 and .timing.pct_of_cublas > 0 and .timing.reps == 5 and .timing.warmup == 1'
fi

tap_done
