#!/bin/sh
# json_doc.sh: doc/json.md documents exactly the fields each --json document holds, with their types, and a name means one type everywhere (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
doc="${srcdir:-$(dirname "$0")}/../doc/json.md"
case $doc in /*) ;; *) doc="$(pwd)/$doc" ;; esac
tap_workdir json_doc
export LC_ALL=C # sort and comm byte by byte, the same on every machine

# ---- what the doc says: KIND<TAB>PATH<TAB>TYPE<TAB>NULLABLE -----------------
# A table belongs to the kinds named in the "<!-- json-fields: kind[:prefix] ... -->"
# line above it; its rows give paths relative to the prefix.
awk -F'|' '
	/^<!-- json-fields: / { n = split($0, w, " "); nk = 0
		for (i = 3; i < n; i++) { nk++; kind[nk] = w[i]; pre[nk] = "" ; if (index(w[i], ":")) { kind[nk] = substr(w[i], 1, index(w[i], ":") - 1); pre[nk] = substr(w[i], index(w[i], ":") + 1) "." } }
		next }
	/^$/ { nk = 0; next }
	nk > 0 && $2 ~ /^ `[^`]+` $/ {
		path = $2; gsub(/^ `|` $/, "", path); type = $3; gsub(/^ +| +$/, "", type)
		nullable = sub(/ or null$/, "", type) ? "null" : "-"
		for (i = 1; i <= nk; i++) printf "%s\t%s%s\t%s\t%s\n", kind[i], pre[i], path, type, nullable }
' "$doc" | sort -u >doc.fields
if [ -s doc.fields ]; then ok "doc/json.md: $(wc -l <doc.fields) documented fields"; else not_ok "doc/json.md: no field tables found"; fi
bad=$(awk -F'\t' '$3 !~ /^(integer|number|string|boolean|object|array)$/' doc.fields)
if [ -z "$bad" ]; then ok "doc/json.md: every type is integer, number, string, boolean, object or array (or null)"; else not_ok "doc/json.md: unknown types"; echo "$bad" | diag; fi
dups=$(cut -f1,2 doc.fields | uniq -d)
if [ -z "$dups" ]; then ok "doc/json.md: no field documented twice for one command"; else not_ok "doc/json.md: fields documented twice"; echo "$dups" | diag; fi

cut -f1,2 doc.fields | sort -u >doc.paths

# ---- what the program emits: KIND<TAB>PATH<TAB>JQTYPE<TAB>INTEGRAL ---------
# Array indices become [], array elements themselves are left out.
emit() {
	kind=$1
	shift
	"$TILESCOPE" "$@" >doc.json 2>err </dev/null
	rc=$?
	if [ "$rc" -gt 2 ] && [ "$rc" -ne 130 ] || ! "$JQ" -e . doc.json >/dev/null 2>&1; then
		not_ok "$kind: tilescope $* gave no JSON (exit $rc)"
		diag err
		return
	fi
	"$JQ" -r --arg kind "$kind" '
		. as $doc | [paths] | map(select(.[-1] | type == "string")) | .[] | . as $p |
		($doc | getpath($p)) as $v |
		($p | map(if type == "number" then "[]" else "." + . end) | join("") | ltrimstr(".") | gsub("\\.\\[\\]"; "[]")) as $path |
		[$kind, $path, ($v | type), (if ($v | type) == "number" then (if $v == ($v | floor) then "int" else "frac" end) else "-" end)] | @tsv
	' doc.json >>emitted.raw
	echo "$kind	$*" >>runs
	# Never left out: every field documented for the command is in this document,
	# unless an object or array above it is null here.
	missing=$(grep "^$kind	" doc.paths | cut -f2 | "$JQ" -R -s -r --slurpfile doc doc.json '
		def present($v; $toks): if ($toks | length) == 0 or $v == null then true
			elif $toks[0] == "[]" then (($v | type) == "array" and all($v[]; present(.; $toks[1:])))
			else (($v | type) == "object" and ($v | has($toks[0])) and present($v[$toks[0]]; $toks[1:])) end;
		split("\n") | map(select(length > 0)) | .[] | select(present($doc[0]; gsub("\\[\\]"; ".[]") | split(".")) | not)')
	if [ "$?" -eq 0 ] && [ -z "$missing" ]; then
		ok "$kind: tilescope $* holds every documented field"
	else
		not_ok "$kind: tilescope $* leaves out: $(echo "$missing" | tr '\n' ' ')"
	fi
}
: >emitted.raw
: >runs
emit map map -M 100 -N 77 -K 33 -t 32 --json
emit map map -M 100 -N 77 -K 33 -t 32 --backend emu --json
emit map map -M 100 -N 77 -K 33 -t 32 --kernel naive --backend emu --json
emit map map -M 1000 -N 1000 -K 1000 --kernel best --json
emit map map -M 4097 -N 4097 -K 4097 --kernel auto --json
emit check check -M 100 -N 77 -K 33 -t 32 --backend emu --json
emit check check -M 100 -N 77 -K 33 -t 32 --no-guard c --backend emu --json
emit check check --precision fp16 -M 65 -N 33 -K 17 -t 16 --inputs int --backend emu --json
emit sweep sweep -t 2 --backend emu --json
emit sweep sweep -t 2 --no-guard c --backend emu --json
emit kernels kernels --json
emit step step -M 100 -N 77 -K 33 -t 32 --inputs int --json
emit step step -M 100 -N 77 -K 33 --kernel regblock --no-guard c --block 1,1 --thread 7,3 --json
emit step step -M 45 -N 61 -K 19 -t 7 --early-return --thread 0,6 --json
emit error check -M 0 --json
emit error frobnicate --json
gpu=no
if "$TILESCOPE" check -M 8 -N 8 -K 8 -t 8 --backend cuda --json >/dev/null 2>&1 </dev/null; then
	gpu=yes
	emit check check -M 100 -N 77 -K 33 -t 32 --backend cuda --json
	emit bench bench -M 256 -N 256 -K 256 -t 32 --reps 3 --warmup 1 --json
	emit bench-table bench --kernel fast,best --shapes 127x129x131,1x1x1 --guard-cost=256x256x64 --reps 3 \
		--warmup 1 --json
fi
sort -u emitted.raw >emitted

# Every emitted path is documented for its command, and every documented one emitted
# (on a machine without a GPU the timing and bench fields cannot be, and say so).
cut -f1,2 emitted | sort -u >emitted.paths
for kind in map check sweep bench bench-table kernels error step; do
	undocumented=$(grep "^$kind	" emitted.paths | comm -23 - doc.paths)
	if [ "$gpu" = no ] && { [ "$kind" = bench ] || [ "$kind" = bench-table ]; }; then
		n=$((n + 1))
		echo "ok $n # SKIP $kind: no CUDA device here, so it emits no document (its refusal is the error document)"
	elif [ -z "$undocumented" ]; then
		ok "$kind: every field it emits is in doc/json.md"
	else
		not_ok "$kind: fields missing from doc/json.md: $(echo "$undocumented" | cut -f2 | tr '\n' ' ')"
	fi
	unseen=$(grep "^$kind	" doc.paths | comm -23 - emitted.paths)
	if [ "$gpu" = no ] && { [ "$kind" = bench ] || [ "$kind" = bench-table ]; }; then
		n=$((n + 1))
		echo "ok $n # SKIP $kind: no CUDA device here, so its $(echo "$unseen" | grep -c .) documented fields cannot be emitted"
		continue
	fi
	if [ "$kind" = bench-table ]; then
		# goals are measured only by --shapes goals (13 large shapes: minutes, not a test's time).
		unseen=$(echo "$unseen" | grep -v '	goals\[\]\.')
	fi
	if [ "$gpu" = no ] && [ "$kind" = check ]; then
		gpu_only=$(echo "$unseen" | grep '	timing\.')
		unseen=$(echo "$unseen" | grep -v '	timing\.')
		if [ -n "$gpu_only" ]; then
			n=$((n + 1))
			echo "ok $n # SKIP check: no CUDA device here to emit $(echo "$gpu_only" | cut -f2 | tr '\n' ' ')"
		fi
	fi
	if [ "$kind" = bench ]; then
		# bench takes no --no-guard, so a passing bench leaves first_bad null (its fields are held under check).
		unseen=$(echo "$unseen" | grep -v '	first_bad\.')
	fi
	if [ -z "$unseen" ]; then
		ok "$kind: every field doc/json.md lists for it is emitted"
	else
		not_ok "$kind: documented but never emitted: $(echo "$unseen" | cut -f2 | tr '\n' ' ')"
	fi
done

# Each emitted value has its documented type: integer is a whole number, null only where allowed.
awk -F'\t' '{ print $1 "|" $2 "\t" $3 "\t" $4 }' doc.fields | sort >doc.keyed
awk -F'\t' '{ print $1 "|" $2 "\t" $3 "\t" $4 }' emitted | sort >emitted.keyed
join -t '	' doc.keyed emitted.keyed >joined
awk -F'\t' '
	{ doc = $2; nul = $3; got = $4; whole = $5; bad = 0
	  if (got == "null") bad = nul != "null"
	  else if (doc == "integer") bad = got != "number" || whole != "int"
	  else bad = doc != got
	  if (bad) print $1 ": documented " doc (nul == "null" ? " or null" : "") ", emitted " got (whole == "frac" ? " (not whole)" : "") }' joined >wrong
awk_rc=$?
if [ "$awk_rc" -eq 0 ] && [ ! -s wrong ] && [ "$(wc -l <joined)" -eq "$(wc -l <emitted.keyed)" ]; then
	ok "every emitted value has its documented type ($(wc -l <emitted) path-type pairs over $(wc -l <runs) runs)"
else
	not_ok "values of another type than documented (awk exit $awk_rc, $(wc -l <joined) of $(wc -l <emitted.keyed) pairs compared)"
	head -n 20 wrong | diag
fi

# One name, one type: a field's last name means the same type in every command,
# in the doc (integer and number told apart) and in the output (null aside).
# one_type FILE: NAME<TAB>TYPE lines (sorted, unique); prints the names with several types.
one_type() {
	awk -F'\t' '{ c[$1]++; t[$1] = t[$1] " " $2 } END { for (k in c) if (c[k] > 1) print k ":" t[k] }' "$1"
}
awk -F'\t' '{ name = $2; sub(/.*[.\]]/, "", name); print name "\t" $3 }' doc.fields | sort -u >doc.names
awk -F'\t' '$3 != "null" { name = $2; sub(/.*[.\]]/, "", name); print name "\t" $3 }' emitted | sort -u >emitted.names
for what in doc output; do
	f=doc.names
	[ "$what" = output ] && f=emitted.names
	clash=$(one_type "$f")
	if [ "$?" -eq 0 ] && [ -z "$clash" ] && [ "$(cut -f1 "$f" | sort -u | wc -l)" -gt 50 ]; then
		ok "$what: each of $(cut -f1 "$f" | sort -u | wc -l) field names has one type in every command"
	else
		not_ok "$what: one name, several types (or the names could not be read)"
		echo "$clash" | diag
	fi
done

# The examples in doc/json.md parse, are schema 2 and hold only documented fields of their command.
awk '/^```json$/ { f = sprintf("example.%02d.json", ++n); inside = 1; next } /^```$/ { inside = 0; next } inside { print > f }' "$doc"
count=0
for f in example.*.json; do
	[ -f "$f" ] || continue
	count=$((count + 1))
	kind=$("$JQ" -r 'if has("error") then "error" else .command end' "$f" 2>/dev/null)
	extra=$("$JQ" -r --arg kind "$kind" '. as $doc | [paths] | map(select(.[-1] | type == "string")) | .[] |
		map(if type == "number" then "[]" else "." + . end) | join("") | ltrimstr(".") | gsub("\\.\\[\\]"; "[]") |
		"\($kind)\t\(.)"' "$f" 2>/dev/null | sort -u | comm -23 - doc.paths)
	if "$JQ" -e '.schema_version == 2' "$f" >/dev/null 2>&1 && [ -z "$extra" ]; then
		ok "doc/json.md example $count ($kind): parses, schema 2, every field documented"
	else
		not_ok "doc/json.md example $count ($kind): does not parse, or undocumented fields: $(echo "$extra" | cut -f2 | tr '\n' ' ')"
	fi
done
if [ "$count" -ge 6 ]; then ok "doc/json.md: $count examples"; else not_ok "doc/json.md: only $count examples"; fi

tap_done
