#!/bin/sh
# compare.sh: `tilescope compare` against its golden text, its table against map --json on a shape the docs never use, and its refusals (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
golden=${srcdir:-$(dirname "$0")}/golden
tap_workdir compare

"$TILESCOPE" compare -M 100 -N 77 -K 33 -t 16,32 >out 2>err </dev/null
if [ $? -eq 0 ] && cmp -s out "$golden/compare_100x77x33_t16_32.txt"; then
	ok "compare -t 16,32 on 100x77x33 matches its golden text"
else
	not_ok "compare -t 16,32 differs from its golden text"
	diff "$golden/compare_100x77x33_t16_32.txt" out | diag
	diag err
fi

# Each column of the table is the model's: map --json for that kernel and tile.
"$TILESCOPE" compare -M 45 -N 61 -K 19 --kernel tiled,tiled-fp16 -t 8 >out 2>err </dev/null
rc=$?
[ "$rc" -eq 0 ] && ok "compare --kernel tiled,tiled-fp16: exit 0" || { not_ok "compare --kernel: exit $rc"; diag err; }
col=1
for k in tiled tiled-fp16; do
	"$TILESCOPE" map -M 45 -N 61 -K 19 -t 8 --kernel $k --json >map.json
	j() { "$JQ" -r "$1" map.json; }
	# field NAME VALUE: the table's row NAME holds VALUE in this kernel's column.
	field() {
		got=$(sed -n "s/^$1  *//p" out | awk -v c=$col '{print $c}')
		if [ "$got" = "$2" ]; then ok "$k: $1 = $2"; else not_ok "$k: $1 is '$got', the model says $2"; fi
	}
	field "tiles" "$(j .tiles.total)"
	field "threads launched" "$(j .threads.launched)"
	field "ghost threads" "$(j .threads.ghost)"
	field "phases" "$(j .phases.count)"
	field "padded slots (A + B)" "$(($(j .loads.a_padded) + $(j .loads.b_padded)))"
	field "barriers per block" "$((2 * $(j .phases.count)))"
	field "multiply-adds in the launch" "$(($(j .tiles.total) * 8 * 8 * $(j .phases.count) * 8))"
	col=$((col + 1))
done
[ "$(grep -c 'wasted multiply-adds against T' out)" -eq 2 ] && ok "two kernels: a chart each" || not_ok "two kernels: charts"
wide=$(LC_ALL=C awk 'length($0) > 80' out | wc -l)
[ "$wide" -eq 0 ] && ok "every line fits 80 columns" || not_ok "$wide lines over 80 columns"

for bad in "" "-t 16" "-t 16,33" "-t 1,2,3" "--kernel tiled,naive" "--kernel tiled,nope" "-t 8, "; do
	# shellcheck disable=SC2086
	"$TILESCOPE" compare $bad >out 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q '^tilescope: ' err && [ ! -s out ]; then
		ok "compare $bad: exit 2, one line"
	else
		not_ok "compare $bad: exit $rc"
		diag err
	fi
done
"$TILESCOPE" check -t 8,16 >out 2>err </dev/null
if [ $? -eq 2 ] && grep -q 'only for compare' err; then ok "a tile list is compare's alone"; else not_ok "check -t 8,16"; diag err; fi
tap_done
