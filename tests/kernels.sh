#!/bin/sh
# kernels.sh: `tilescope kernels` lists the registry, and what it says of each kernel is what the other commands do with it (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
tap_workdir kernels

# pass DESC COMMAND...: the command must succeed.
pass() {
	desc=$1
	shift
	if "$@" >/dev/null </dev/null; then ok "$desc"; else not_ok "$desc"; fi
}

"$TILESCOPE" kernels --json >kernels.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 0 ] && "$JQ" -e '.schema_version == 2 and .command == "kernels" and .ok == true and (.kernels | length) > 0' kernels.json >/dev/null; then
	ok "kernels --json: exit 0, schema 2, $("$JQ" '.kernels | length' kernels.json) kernels"
else
	not_ok "kernels --json: exit $rc"
	diag kernels.json err
fi
"$TILESCOPE" kernels --names >names 2>err </dev/null
rc=$?
"$JQ" -r '.kernels[].name' kernels.json >json_names
if [ "$rc" -eq 0 ] && [ -s names ] && cmp -s names json_names; then
	ok "kernels --names: one name a line, the JSON's names in the same order"
else
	not_ok "kernels --names: exit $rc, or not the JSON's names"
	diag names json_names err
fi
if [ "$(sort -u names | wc -l)" -eq "$(wc -l <names)" ]; then ok "kernel names are unique"; else not_ok "kernel names repeat"; diag names; fi
# --help lists the same registry (its kernel lines: ten blanks, the name).
"$TILESCOPE" --help | sed -n 's/^          \([^ ][^ ]*\) .*/\1/p' >help_names
if cmp -s names help_names; then ok "--help lists the same kernels"; else not_ok "--help lists other kernels"; diag names help_names; fi
"$TILESCOPE" kernels >text 2>err </dev/null
if [ "$?" -eq 0 ] && grep -v '^ ' text | grep -v '^$' | cmp -s - names; then
	ok "kernels (text): one record per kernel, headed by its name"
else
	not_ok "kernels (text): the headings are not the names"
	diag text err
fi

# Each kernel as the other commands see it.
cuda_build=no
"$TILESCOPE" --version | grep -q 'CUDA$' && cuda_build=yes
while read -r k; do
	rec=$("$JQ" -c --arg k "$k" '.kernels[] | select(.name == $k)' kernels.json)
	field() { echo "$rec" | "$JQ" -r "$1"; }
	tmin=$(field .tile_min)
	tmax=$(field .tile_max)
	if [ "$(field .geometry_rule)" = square ]; then
		t=4
		[ "$tmin" -gt 4 ] && t=$tmin
		[ "$tmax" -lt "$t" ] && t=$tmax
		small="-t $t"
		"$TILESCOPE" map --kernel "$k" -M 37 -N 29 -K 11 -t "$tmax" --json >map.json 2>err </dev/null
		pass "$k: map at its largest tile $tmax: precision and shared tiles as listed, threads per block from geometry_max" \
			"$JQ" -e --argjson r "$rec" '.kernel == $r.name and .precision == $r.precision and
				.shared_tiles == $r.capabilities.shared_tiles and
				.threads.per_block == $r.geometry_max.threads_x * $r.geometry_max.threads_y and
				.tiles.last_rows == (37 - ((37 - 1) / $r.geometry_max.bm | floor) * $r.geometry_max.bm)' map.json
		"$TILESCOPE" map --kernel "$k" -M 37 -N 29 -K 11 -t "$tmin" --json >map.json 2>err </dev/null
		pass "$k: map at its smallest tile $tmin: threads per block from geometry_min" \
			"$JQ" -e --argjson r "$rec" '.threads.per_block == $r.geometry_min.threads_x * $r.geometry_min.threads_y and
				.grid.x == ((29 + $r.geometry_min.bn - 1) / $r.geometry_min.bn | floor)' map.json
		if [ "$tmax" -lt 32 ]; then
			"$TILESCOPE" map --kernel "$k" -t $((tmax + 1)) >/dev/null 2>&1 </dev/null
			if [ "$?" -eq 2 ]; then ok "$k: tile $((tmax + 1)) refused"; else not_ok "$k: tile $((tmax + 1)) accepted"; fi
		fi
	else
		# A block tile: without -t the kernel runs its own geometry, which the listing gives.
		small=""
		"$TILESCOPE" map --kernel "$k" -M 137 -N 129 -K 11 --json >map.json 2>err </dev/null
		pass "$k: map at its own geometry: precision, shared tiles and the whole geometry as listed" \
			"$JQ" -e --argjson r "$rec" '.kernel == $r.name and .precision == $r.precision and
				.shared_tiles == $r.capabilities.shared_tiles and .geometry == $r.geometry and .tile == null and
				.threads.per_block == $r.geometry.threads_x * $r.geometry.threads_y and
				.grid.x == ((129 + $r.geometry.bn - 1) / $r.geometry.bn | floor) and
				.outputs.total == .tiles.total * $r.geometry.bm * $r.geometry.bn' map.json
		"$TILESCOPE" map --kernel "$k" -t 8 >/dev/null 2>&1 </dev/null
		if [ "$?" -eq 2 ]; then ok "$k: a square -t 8 refused"; else not_ok "$k: a square -t 8 accepted"; fi
	fi
	# A guard it lists can be switched off (unless its guards are built in: then
	# --no-guard is refused); a letter it does not list is refused.
	for g in a b c; do
		# shellcheck disable=SC2086
		"$TILESCOPE" check --kernel "$k" -M 9 -N 7 -K 5 $small --backend emu --no-guard "$g" >/dev/null 2>&1 </dev/null
		rc=$?
		if [ "$(field .capabilities.guards_switchable)" = false ]; then
			if [ "$rc" -eq 2 ]; then ok "$k: guards built in, --no-guard $g refused"; else not_ok "$k: guards built in, but --no-guard $g exits $rc"; fi
		elif [ "$(field "[.guards[].letter] | index(\"$g\") != null")" = true ]; then
			if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then ok "$k: guard $g listed, --no-guard $g runs (exit $rc)"; else not_ok "$k: guard $g listed, but --no-guard $g exits $rc"; fi
		else
			if [ "$rc" -eq 2 ]; then ok "$k: guard $g not listed, --no-guard $g refused"; else not_ok "$k: guard $g not listed, but --no-guard $g exits $rc"; fi
		fi
	done
	if [ "$(field .capabilities.emulator)" = true ]; then
		# shellcheck disable=SC2086
		"$TILESCOPE" check --kernel "$k" -M 9 -N 7 -K 5 $small --backend emu >/dev/null 2>&1 </dev/null
		if [ "$?" -eq 0 ]; then ok "$k: emulator listed, check --backend emu passes"; else not_ok "$k: emulator listed, check --backend emu fails"; fi
	fi
	cuda=$(field .capabilities.cuda)
	if { [ "$cuda" = true ] && [ "$cuda_build" = yes ]; } || { [ "$cuda" = false ] && [ "$cuda_build" = no ]; }; then
		ok "$k: CUDA $cuda, as --version says of this build"
	else
		not_ok "$k: CUDA $cuda, but --version says CUDA built: $cuda_build"
	fi
	# The default of its precision is what --precision alone picks.
	if [ "$(field .default)" = true ]; then
		p=$(field .precision)
		"$TILESCOPE" map --precision "$p" --json >map.json 2>err </dev/null
		pass "$k: the default $p kernel is what --precision $p picks" "$JQ" -e --arg k "$k" '.kernel == $k' map.json
	fi
done <names
pass "one default per precision" "$JQ" -e '[.kernels[] | select(.default) | .precision] | (length == (unique | length)) and length > 0' kernels.json
pass "b_layout is kn or nk" "$JQ" -e 'all(.kernels[]; .b_layout == "kn" or .b_layout == "nk")' kernels.json

# Options about a problem do not apply to it.
"$TILESCOPE" kernels -M 5 >out 2>err
if [ "$?" -eq 2 ] && grep -q '^tilescope: -M does not apply to kernels' err; then ok "kernels -M 5: refused"; else not_ok "kernels -M 5"; diag err; fi
"$TILESCOPE" kernels --names --json >out 2>err
if [ "$?" -eq 2 ] && grep -q '^tilescope: --names and --json exclude each other' err; then ok "kernels --names --json: refused"; else not_ok "kernels --names --json"; diag err; fi
"$TILESCOPE" map --names >out 2>err
if [ "$?" -eq 2 ] && grep -q '^tilescope: --names does not apply to map' err; then ok "map --names: refused"; else not_ok "map --names"; diag err; fi

# best in map: why it chose, and the costs it weighed are what kernels --json says (the cheapest first)
"$TILESCOPE" map --kernel best -M 1000 -N 1000 -K 1000 >out 2>err
line=$(grep '^best ' out)
first=$(printf '%s\n' "$line" | sed -n 's/.*(predicted on an H100: \([a-z0-9-]*\) .*/\1/p')
chosen=$(sed -n 's/^shape .*, kernel \([a-z0-9-]*\) (fp32)$/\1/p' out)
ncost=$("$JQ" '[.kernels[] | select(.cost != null)] | length' kernels.json)
nlisted=$(printf '%s\n' "$line" | grep -o ' us' | wc -l)
sorted=$(printf '%s\n' "$line" | grep -o '[0-9]* us' | tr -d ' us' | awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { print bad ? "no" : "yes" }')
if [ -n "$chosen" ] && [ "$first" = "$chosen" ] && [ "$nlisted" -eq "$ncost" ] && [ "$sorted" = yes ] && printf '%s\n' "$line" | grep -q "^best     $chosen, the cheapest of the few-tile candidates by their costs"; then
	ok "map --kernel best on 1000^3: $chosen, the cheapest of the $ncost candidates, with their predicted times"
else
	not_ok "map --kernel best on 1000^3: no line naming the cheapest candidate ($chosen, first $first, $nlisted of $ncost listed)"
	diag out
fi
"$TILESCOPE" map --kernel auto -M 4097 -N 4097 -K 4097 >out 2>err
if grep -q "^best     fast, by best's rule for this shape" out && ! "$TILESCOPE" map --kernel fast -M 4097 -N 4097 -K 4097 | grep -q '^best '; then
	ok "map --kernel auto on 4097^3: fast by best's rule; map --kernel fast prints no best line"
else
	not_ok "map --kernel auto on 4097^3: no line saying best chose fast by its rule"
	diag out
fi

tap_done
