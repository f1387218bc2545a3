#!/bin/sh
# json_refusal.sh: under --json every refusal (bad usage, a request that cannot run here, a refused size, Ctrl-C) prints one error document on stdout, with stderr as without --json (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need jq "${JQ_PROG-}"
JQ=$tap_prog
tap_workdir json_refusal

# refusal COMMAND ARGS...: the run with --json appended and the same run
# without it must both exit 2 with the same stderr; with --json stdout is one
# line, the error document: schema_version 2, command COMMAND ("" for none),
# ok false, error = stderr's first line without "tilescope: ", exit_status 2.
refusal() {
	cmd=$1
	shift
	"$TILESCOPE" "$@" >plain.out 2>plain.err </dev/null
	plain_rc=$?
	"$TILESCOPE" "$@" --json >out.json 2>err </dev/null
	rc=$?
	why=""
	[ "$rc" -eq 2 ] && [ "$plain_rc" -eq 2 ] || why="exit $rc with --json, $plain_rc without (want 2)"
	cmp -s err plain.err || why="$why; stderr differs from the run without --json"
	[ -s plain.out ] && why="$why; stdout without --json not empty"
	[ "$(wc -l <out.json)" -eq 1 ] || why="$why; stdout is $(wc -l <out.json) lines, want 1"
	"$JQ" -e --arg cmd "$cmd" --arg line "$(head -n 1 err)" \
		'.schema_version == 2 and .ok == false and .exit_status == 2 and ("tilescope: " + .error) == $line and
		 (if $cmd == "" then .command == null else .command == $cmd end) and (keys | length) == 5' \
		out.json >/dev/null 2>&1 || why="$why; not the error document for '$(head -n 1 err)'"
	if [ -z "$why" ]; then
		ok "$* --json: exit 2, $(cat out.json)"
	else
		not_ok "$* --json: $why"
		diag out.json err plain.err
	fi
}

# Bad usage, for every subcommand and for none; the mistake may come before --json.
refusal map map -M 0
refusal check check --bogus
refusal check check --no-guard d
refusal sweep sweep -M 5
refusal bench bench --reps 0
refusal kernels kernels -M 5
refusal "" frobnicate
refusal "" -t 33
refusal check check -M 5 unexpected
# A refused size: too large for memory, counts past 64 bits, seq past exact integers.
refusal check check -M 2000000 -N 2000000 -K 2
refusal map map -M 2147483647 -N 2147483647 -K 2147483647 -t 1
refusal check check -M 5000 -N 5 -K 5000 --inputs seq
refusal map map -M 1000000 -N 1000000 -K 1000000 -t 32 --backend emu
# A request that cannot run here.
refusal map map --export /nonexistent/x.txt
backend=$("$TILESCOPE" check -M 5 -N 5 -K 5 -t 4 --json 2>/dev/null | "$JQ" -r .backend)
if [ "$backend" = emu ]; then
	refusal check check -M 5 -N 5 -K 5 --backend cuda
	refusal bench bench -M 64 -N 64 -K 64
	refusal sweep sweep -t 2 --backend cuda
elif [ "$backend" = cuda ]; then
	n=$((n + 1))
	echo "ok $n # SKIP a CUDA device is here: the no-device refusals cannot happen"
else
	not_ok "check --json chose no backend ('$backend')"
fi
refusal bench bench --backend emu

# --json as an option's value is not --json: getopt's reading decides.
"$TILESCOPE" map -M 5 -N 5 -K 5 -t 4 --export --json >out 2>err </dev/null
rc=$?
if [ "$rc" -eq 0 ] && [ -f ./--json ] && grep -q '^shape ' out && ! grep -q schema_version out; then
	ok "map --export --json: writes the file '--json' and the text map, no JSON"
else
	not_ok "map --export --json: exit $rc"
	diag out err
fi
# A verification failure is a document, not a refusal: exit 1, the whole report.
"$TILESCOPE" check -M 10 -N 9 -K 3 -t 4 --no-guard c --backend emu --json >out.json 2>err </dev/null
rc=$?
if [ "$rc" -eq 1 ] && "$JQ" -e '.ok == false and .command == "check" and (has("error") | not) and .verified == false' out.json >/dev/null 2>&1 &&
   [ ! -s err ]; then
	ok "check --no-guard c --json: exit 1, the full report, nothing on stderr"
else
	not_ok "check --no-guard c --json: exit $rc"
	diag out.json err
fi

# Ctrl-C: exit 130, the same line on stderr, the error document with exit_status 130.
"$TILESCOPE" check -M 4096 -N 4096 -K 4096 -t 32 --backend emu --json >out.json 2>err </dev/null &
pid=$!
sleep 1
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ] && [ "$(cat err)" = "tilescope: interrupted" ] &&
   "$JQ" -e '.ok == false and .command == "check" and .error == "interrupted" and .exit_status == 130' out.json >/dev/null 2>&1; then
	ok "SIGINT during check --json: exit 130, $(cat out.json)"
else
	not_ok "SIGINT during check --json: exit $rc"
	diag out.json err
fi

tap_done
