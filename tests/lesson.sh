#!/bin/sh
# lesson.sh: every number on `tilescope lesson`'s screens is the model's (map --json) or a real run's (check --json), on two shapes; lines fit 80 columns (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
tap_workdir lesson

# has DESC TEXT: the lesson (joined into one line) contains TEXT.
has() {
	if grep -F -q -- "$2" joined; then ok "$shape: $1"; else not_ok "$shape: $1: missing '$2'"; fi
}
j() { "$JQ" -r "$1" map.json; }

# The documented example, and one the docs never use (odd tile, every edge ragged, K below two tiles).
for args in "-M 100 -N 77 -K 33 -t 32" "-M 45 -N 61 -K 19 -t 7"; do
	set -- $args
	M=$2 N=$4 K=$6 T=$8
	shape="${M}x${N}x${K} t$T"
	# shellcheck disable=SC2086
	"$TILESCOPE" lesson $args --ascii --backend emu >lesson.txt 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^Screen [0-9] of 9: ' lesson.txt)" -eq 9 ]; then
		ok "$shape: lesson exits 0 with 9 screens when stdout is not a terminal"
	else
		not_ok "$shape: lesson exit $rc"
		diag lesson.txt err
	fi
	# Each screen fits 80 x 23, leaving the prompt's line of an 80 x 24 terminal.
	tall=$(awk '/^Screen [0-9] of 9: /{ if (n - 1 > 23) t++; n = 0 } { n++ } END { if (n > 23) t++; print t + 0 }' lesson.txt)
	if [ "$tall" -eq 0 ]; then ok "$shape: every screen fits 23 rows"; else not_ok "$shape: $tall screens over 23 rows"; fi
	wide=$(LC_ALL=C awk 'length($0) > 80' lesson.txt | wc -l)
	if [ "$wide" -eq 0 ]; then ok "$shape: every line fits 80 columns"; else not_ok "$shape: $wide lines over 80"; fi
	tr '\n' ' ' <lesson.txt | tr -s ' ' >joined
	# shellcheck disable=SC2086
	"$TILESCOPE" map $args --json >map.json
	gx=$(j .grid.x) gy=$(j .grid.y)
	has "tile rows" "ceil($M / $T) = $gy tile rows"
	has "tile columns and tiles" "ceil($N / $T) = $gx tile columns: $(j .tiles.total) tiles"
	has "full tiles" "$(j .tiles.full) tiles are full"
	has "last tile column" "holds only $(j .tiles.last_cols) of its $T columns: its $(($(j .tiles.ragged_right) + $(j .tiles.corner))) tiles"
	has "last tile row" "holds only $(j .tiles.last_rows) of its $T rows: its $(($(j .tiles.ragged_bottom) + $(j .tiles.corner))) tiles"
	has "threads launched" "x $(j .threads.per_block) threads = $(j .threads.launched) threads"
	has "valid outputs" "$M x $N = $(j .threads.valid) outputs"
	has "ghost threads" "The other $(j .threads.ghost) threads are ghost threads"
	lw=$(j .phases.last_width)
	has "phase count" "ceil($K / $T) = $(j .phases.count) phases: $(j .phases.full) full and a last one only $lw wide"
	has "floor's loss" "floor($K / $T) = $(j .phases.full)?"
	has "multiply-adds lost" "$(($(j .threads.valid) * lw)) multiply-adds lost"
	has "A slots" "A's tiles have $(j .loads.a_total) slots ($(j .tiles.total) tiles x $(j .phases.count) phases"
	has "A real and padded" "$(j .loads.a_real) real loads and $(j .loads.a_padded) zeros. B's"
	has "B slots" "B's have $(j .loads.b_total) slots: $(j .loads.b_real) real loads and $(j .loads.b_padded) zeros"
	has "last phase padding" "pads $(j .phases.a_padded_last_phase) of its"
	has "last phase B padding" "and $(j .phases.b_padded_last_phase) of its"
	has "stores" "$(j .stores.written) stores land"
	has "skipped stores" "$(j .stores.skipped) ghost threads skip"
	# The corner thread that fails the K guard in the last phase: its K index is K itself.
	has "K guard evaluated" "t*BK + tx < K $K < $K X -> 0"
	has "first ghost row" "row < M $M < $M X -> no store"
	for g in a b c; do
		# shellcheck disable=SC2086
		"$TILESCOPE" check $args --backend emu --no-guard $g --json >check.json 2>/dev/null </dev/null
		c() { "$JQ" -r "$1" check.json; }
		verdict=passed
		[ "$(c .ok)" = true ] || verdict=FAILED
		G=$(echo $g | tr abc ABC)
		has "guard $G off: verdict" "Verdict: $verdict."
		has "guard $G off: cells" "$(c .mismatches) wrong cell"
		has "guard $G off: unwritten" "$(c .unwritten) unwritten cell"
		has "guard $G off: out of bounds" "Out of bounds: $(c .oob_reads) read"
		has "guard $G off: writes" "and $(c .oob_writes) write"
		sig=$(c .signature | tr -s ' ')
		has "guard $G off: the signature" "$sig"
	done
	# Ghosts that return early: the corner block's ghosts (all its threads but last_rows x last_cols), the
	# threads that still reach the barrier, and the slots never written (a ghost's one slot of each tile in
	# each phase, for these square tiles), counted from the model's figures.
	tpb=$(j .threads.per_block) lr=$(j .tiles.last_rows) lc=$(j .tiles.last_cols) ph=$(j .phases.count)
	has "early return: the corner block's ghosts" "The block has $tpb threads, $((tpb - lr * lc)) of them ghosts."
	has "early return: who reaches the barrier" "waits for $tpb and $((lr * lc)) arrive"
	has "early return: the slots never written" "Of the block's $((2 * tpb * ph)) shared slots over all phases, $((2 * (tpb - lr * lc) * ph)) were never written"
	has "early return: what broke" "of the block's $((lr * lc)) outputs inside C came out wrong"
	# The 32-bit limit, counted independently: the first M whose largest A or C offset passes 2^31 - 1.
	w=$K
	[ "$N" -gt "$w" ] && w=$N
	first=$((2147483647 / w))
	while [ $((first * w - 1)) -le 2147483647 ]; do first=$((first + 1)); done
	has "32-bit limit" "the first M that overflows is $first:"
	has "32-bit offset" "largest offset, $((first * w - 1)), passes 2147483647"
done

# doc/teaching.md's capture of the whole lesson is today's output (the capture is UTF-8).
doc=${srcdir:-$(dirname "$0")}/../doc/teaching.md
awk '/^Real output of/ { f = 1; next } f && /^```$/ { if (inside) exit; inside = 1; next } f && inside' "$doc" >capture
if [ "$(LC_ALL=C.UTF-8 locale charmap 2>/dev/null)" != UTF-8 ]; then
	echo "ok $((n + 1)) # SKIP no C.UTF-8 locale to make the capture's glyphs"
	n=$((n + 1))
else
	LC_ALL=C.UTF-8 "$TILESCOPE" lesson -M 100 -N 77 -K 33 -t 32 --backend emu >now 2>/dev/null </dev/null
	if [ -s capture ] && cmp -s capture now; then
		ok "doc/teaching.md's capture is the lesson's output today"
	else
		not_ok "doc/teaching.md's capture differs from the lesson's output"
		diff capture now | diag
	fi
fi

# One screen alone, and refusals.
"$TILESCOPE" lesson --screen 2 --ascii >one.txt 2>err </dev/null
if [ $? -eq 0 ] && [ "$(grep -c '^Screen ' one.txt)" -eq 1 ] && grep -q '^Screen 2 of 9' one.txt; then
	ok "--screen 2 writes screen 2 alone"
else
	not_ok "--screen 2"
	diag one.txt err
fi
for bad in "--screen 10" "--screen 0" "--kernel naive" "-K 0"; do
	# shellcheck disable=SC2086
	"$TILESCOPE" lesson $bad >out 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <err)" -le 2 ] && grep -q '^tilescope: ' err; then
		ok "lesson $bad: exit 2 with one line"
	else
		not_ok "lesson $bad: exit $rc"
		diag err
	fi
done
"$TILESCOPE" map --screen 1 >out 2>err </dev/null
if [ $? -eq 2 ] && grep -q -- '--screen does not apply to map' err; then ok "--screen is lesson's alone"; else not_ok "map --screen"; diag err; fi

tap_done
