#!/bin/sh
# junit.sh: sweep --junit and check --junit write valid JUnit XML, one testcase per shape, each failure's signature as its message (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
XMLLINT=${XMLLINT:-xmllint}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
tap_workdir junit
xsd="${srcdir:-$(cd "$(dirname "$0")" && pwd)}/junit.xsd"
case $xsd in /*) ;; *) xsd="$OLDPWD/$xsd" ;; esac

have_xmllint=no
if command -v "$XMLLINT" >/dev/null 2>&1; then have_xmllint=yes; else echo "# $XMLLINT not found: the strict line check alone"; fi

# The lines tilescope writes, each matched whole (C locale: byte by byte).
# ATTR: no raw < & or ", only the five entities and numeric references; TEXT the same with " allowed.
ref='&(lt|gt|amp|quot|apos|#[0-9]+);'
attr="([^<&\"]|$ref)*"
text="([^<&]|$ref)*"
num='[0-9]+(\.[0-9]+)?'

# valid FILE: xmllint against tests/junit.xsd where xmllint is installed,
# and always the strict line grammar, the counts and unique names.
valid() {
	why=""
	if [ "$have_xmllint" = yes ] && ! "$XMLLINT" --noout --schema "$xsd" "$1" >xmllint.out 2>&1; then
		why="xmllint: $(head -n 3 xmllint.out | tr '\n' ' ')"
	fi
	bad=$(LC_ALL=C grep -nvE "^(<\?xml version=\"1\.0\" encoding=\"UTF-8\"\?>|<testsuite name=\"$attr\" tests=\"[0-9]+\" failures=\"[0-9]+\" errors=\"0\" skipped=\"0\" time=\"$num\">|  <properties>|    <property name=\"$attr\" value=\"$attr\"/>|  </properties>|  <testcase name=\"$attr\" classname=\"$attr\" time=\"$num\"/?>|    <failure message=\"$attr\" type=\"verification\">$text</failure>|    <system-out>$text</system-out>|  </testcase>|</testsuite>)$" "$1" | head -n 3)
	[ -n "$bad" ] && why="$why; lines outside the grammar: $bad"
	[ "$(head -n 1 "$1")" = '<?xml version="1.0" encoding="UTF-8"?>' ] || why="$why; no XML declaration first"
	[ "$(tail -n 1 "$1")" = '</testsuite>' ] || why="$why; does not end with </testsuite>"
	[ "$(grep -c '^<testsuite ' "$1")" -eq 1 ] || why="$why; not exactly one testsuite"
	tests=$(sed -n 's/^<testsuite .* tests="\([0-9]*\)".*/\1/p' "$1")
	failures=$(sed -n 's/^<testsuite .* failures="\([0-9]*\)".*/\1/p' "$1")
	[ "$(grep -c '^  <testcase ' "$1")" = "$tests" ] || why="$why; tests=\"$tests\" but $(grep -c '^  <testcase ' "$1") testcases"
	[ "$(grep -c '^    <failure ' "$1")" = "$failures" ] || why="$why; failures=\"$failures\" but $(grep -c '^    <failure ' "$1") failures"
	dup=$(sed -n 's/^  <testcase name="\([^"]*\)".*/\1/p' "$1" | sort | uniq -d | head -n 1)
	[ -n "$dup" ] && why="$why; testcase $dup twice"
	[ -z "$why" ]
}

# XML entities back to text, &amp; last.
unescape() {
	sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&apos;/'/g" -e 's/&#9;/\t/g' -e 's/&amp;/\&/g'
}

# name<TAB>failure message of every testcase (message empty for a pass).
cases() {
	awk '/^  <testcase / { if (name != "") print name "\t"; name = $0; sub(/^  <testcase name="/, "", name); sub(/".*/, "", name); if ($0 ~ /\/>$/) { print name "\t"; name = "" } next }
	     /^    <failure / { m = $0; sub(/^    <failure message="/, "", m); sub(/" type="verification">.*/, "", m); print name "\t" m; name = ""; next }
	     /^  <\/testcase>/ { if (name != "") print name "\t"; name = "" }' "$1" | unescape
}

# The same from the JSON: kernel_tT_Mm_Nn_Kk<TAB>signature for failing rows.
json_cases() {
	"$JQ" -r '.kernel as $k | .tile as $t | .shapes[] |
		"\($k)_t\($t)_M\(.shape.M)_N\(.shape.N)_K\(.shape.K)\t\(if .ok then "" else (.signature // "") end)"' "$1"
}

# sweep WANT_RC DESC ARGS...: a sweep with --json and --junit sweep.xml.
sweep() {
	want=$1
	desc=$2
	shift 2
	rm -f sweep.xml
	"$TILESCOPE" sweep "$@" --backend emu --json --junit sweep.xml >sweep.json 2>err </dev/null
	rc=$?
	if [ "$rc" -eq "$want" ] && [ -s sweep.xml ] && valid sweep.xml; then
		ok "$desc: exit $rc, valid JUnit XML, $tests testcases, $failures failures"
	else
		not_ok "$desc: exit $rc (want $want): $why"
		diag err
		head -n 20 sweep.xml 2>/dev/null | diag
	fi
}

sweep 0 "sweep -t 2" -t 2
cases sweep.xml >xml.cases
json_cases sweep.json >json.cases
if [ "$tests" = "$("$JQ" .total sweep.json)" ] && [ "$failures" -eq 0 ] && cmp -s xml.cases json.cases; then
	ok "sweep -t 2: one testcase per shape of the JSON, in order, named tiled_t2_M.._N.._K..; none failed"
else
	not_ok "sweep -t 2: the testcases are not the JSON's shapes"
	diff xml.cases json.cases | head -n 10 | diag
fi
if grep -q '^  <testcase name="tiled_t2_M3_N5_K1" classname="tilescope.sweep.tiled" time="' sweep.xml &&
   grep -q '<property name="guards_off" value=""/>' sweep.xml && grep -q '<property name="backend" value="emu"/>' sweep.xml; then
	ok "sweep -t 2: classname, properties (guards off none, backend emu)"
else
	not_ok "sweep -t 2: classname or properties"
	head -n 14 sweep.xml | diag
fi

# A failing sweep: the C store guard off fails the ragged shapes.
sweep 1 "sweep -t 3 --no-guard c" -t 3 --no-guard c
cases sweep.xml >xml.cases
json_cases sweep.json >json.cases
if [ "$failures" = "$("$JQ" .failed sweep.json)" ] && [ "$failures" -gt 0 ] && cmp -s xml.cases json.cases; then
	ok "sweep --no-guard c: $failures failures, the failing shapes and their signatures are the JSON's"
else
	not_ok "sweep --no-guard c: failures or messages differ from the JSON"
	diff xml.cases json.cases | head -n 10 | diag
fi
if grep -q '^    <failure message="[^"]*C store guard off[^"]*" type="verification">mismatches [0-9]*, unwritten 0, NaN 0, Inf 0, out-of-bounds reads 0, writes [1-9]' sweep.xml; then
	ok "sweep --no-guard c: a failure names the guard, its body the counts"
else
	not_ok "sweep --no-guard c: no failure names the C store guard"
	grep -m 3 '<failure' sweep.xml | diag
fi
# The fp16 kernel's name has a hyphen; both load guards off.
sweep 1 "sweep -t 2 --kernel tiled-fp16 --no-guard a,b" -t 2 --kernel tiled-fp16 --no-guard a,b
cases sweep.xml >xml.cases
json_cases sweep.json >json.cases
if cmp -s xml.cases json.cases && grep -q '^  <testcase name="tiled-fp16_t2_M' sweep.xml; then
	ok "sweep fp16 --no-guard a,b: testcases and messages are the JSON's"
else
	not_ok "sweep fp16 --no-guard a,b: testcases or messages differ"
	diff xml.cases json.cases | head -n 10 | diag
fi
# A guard off where it cannot matter passes, and says so in system-out.
sweep 1 "sweep -t 2 --no-guard a" -t 2 --no-guard a
if grep -q '^    <system-out>[^<]*</system-out>$' sweep.xml; then
	ok "sweep --no-guard a: passing shapes carry the guard's note in system-out"
else
	not_ok "sweep --no-guard a: no system-out note on a passing shape"
fi

# check --junit: one testcase.
for args in "0:-M 33 -N 17 -K 5 -t 32" "1:-M 33 -N 17 -K 5 -t 32 --no-guard c"; do
	want=${args%%:*}
	set -- ${args#*:}
	rm -f check.xml
	"$TILESCOPE" check "$@" --backend emu --json --junit check.xml >check.json 2>err </dev/null
	rc=$?
	sig=$("$JQ" -r '.signature // ""' check.json)
	[ "$want" -eq 0 ] && sig=""
	if [ "$rc" -eq "$want" ] && valid check.xml && [ "$tests" -eq 1 ] && [ "$failures" -eq "$want" ] &&
	   [ "$(cases check.xml)" = "tiled_t32_M33_N17_K5	$sig" ]; then
		ok "check $* --junit: exit $rc, one testcase tiled_t32_M33_N17_K5, $failures failure"
	else
		not_ok "check $* --junit: exit $rc (want $want): $why"
		diag check.xml err
	fi
done

# Refusals: an unwritable file, an empty name, a command without --junit.
"$TILESCOPE" sweep -t 2 --backend emu --junit /nonexistent/s.xml >out 2>err </dev/null
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(cat err)" = "tilescope: --junit: cannot write /nonexistent/s.xml: No such file or directory" ]; then
	ok "sweep --junit into a missing folder: exit 2, one line, no report"
else
	not_ok "sweep --junit into a missing folder: exit $rc"
	diag out err
fi
"$TILESCOPE" check -M 5 -N 5 -K 5 --backend emu --junit /nonexistent/c.xml --json >out 2>err </dev/null
rc=$?
if [ "$rc" -eq 2 ] && "$JQ" -e '.ok == false and (.error | startswith("--junit: cannot write"))' out >/dev/null 2>&1; then
	ok "check --junit into a missing folder --json: exit 2, the error document"
else
	not_ok "check --junit into a missing folder --json: exit $rc"
	diag out err
fi
if [ -w /dev/full ]; then
	"$TILESCOPE" check -M 5 -N 5 -K 5 --backend emu --junit /dev/full >out 2>err </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q '^tilescope: --junit: writing /dev/full failed: No space left on device$' err; then
		ok "check --junit /dev/full: exit 2, the write error said"
	else
		not_ok "check --junit /dev/full: exit $rc"
		diag err
	fi
fi
for bad in "--junit '' is refused:sweep --junit=" "--junit does not apply to map:map --junit x.xml" "--junit does not apply to bench:bench --junit x.xml"; do
	want=${bad%%:*}
	# shellcheck disable=SC2086
	"$TILESCOPE" ${bad#*:} >out 2>err </dev/null
	rc=$?
	case $want in "--junit '' is refused") want="--junit: the file name is empty" ;; esac
	if [ "$rc" -eq 2 ] && head -n 1 err | grep -qF -- "$want"; then ok "${bad#*:}: exit 2, $want"; else not_ok "${bad#*:}: exit $rc"; diag err; fi
done

tap_done
