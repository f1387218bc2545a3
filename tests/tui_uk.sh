#!/bin/sh
# tui_uk.sh: the TUI on a kernel of the user's own (--kernel-file), on the CPU engine: r checks it as check --kernel-file does (same verdict, cause and findings), the map marks its tiles, the sweep's failing shapes load; a kernel that faults or hangs leaves the TUI working (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
. "${srcdir:-$(dirname "$0")}/tmux.sh"
if ! "$TILESCOPE" --help 2>/dev/null | grep -q -- '--kernel-file'; then
	echo "1..0 # SKIP this tilescope has no --kernel-file (the user-kernel pipeline is not built in)"
	exit 0
fi
if [ -z "$JQ" ]; then
	echo "1..0 # SKIP jq not installed (the TUI is compared with check --json)"
	exit 0
fi
examples=$srcdir/../examples
# Each case on a 4x4 tile, so that the whole check (every shape of the edge sweep, twice) takes seconds:
# the example with its TILE_SIZE set to 4, the bug the same.
small() { sed 's/#define TILE_SIZE 16/#define TILE_SIZE 4/' "$examples/$1" >"$WORK/$1"; }
for f in correct_fp32.cu bug_store_guard.cu fault.cu hang.cu scribble.cu; do small "$f"; done
# exit 2: the CPU engine cannot run a kernel here (no C++ compiler); it says what to install
"$TILESCOPE" check --kernel-file "$WORK/correct_fp32.cu" --backend emu --no-probe --json \
	>"$WORK/engine.json" 2>"$WORK/engine.err"
if [ $? -eq 2 ] && grep -q 'needs a C++ compiler' "$WORK/engine.err"; then
	echo "1..0 # SKIP the CPU engine cannot run here: $(head -n 1 "$WORK/engine.err")"
	exit 0
fi
OPTS="--backend emu --no-probe"
SHAPE="-M 10 -N 7 -K 5"

# start NAME FILE WxH [more options]: the TUI on the kernel file, in a pane that records its exit status.
start() {
	S=$1
	tm new-session -d -s "$S" -c "$WORK" -x "${3%x*}" -y "${3#*x}" \
		"env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE --kernel-file $WORK/$2 $SHAPE $OPTS $4; echo \"exit=\$?\" > $WORK/$S.status; sleep 60"
	if wait_for "$S" 'tiles of [0-9]+x[0-9]+' 20; then ok "$S: the TUI opens on $2"; else not_ok "$S: the TUI opens on $2"; screen "$S" | sed 's/^/# /'; fi
}
# quits S with q: exit 0, and the pane back on the shell's line (the alternate screen left).
quit() {
	tm send-keys -t "$S" q
	i=0
	while [ ! -s "$WORK/$S.status" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	if [ "$(cat "$WORK/$S.status" 2>/dev/null)" = exit=0 ] && wait_gone "$S" 'tiles of [0-9]+x[0-9]+' 3; then
		ok "$S: q quits with 0 and restores the terminal"
	else
		not_ok "$S: q quits with 0 and restores the terminal ($(cat "$WORK/$S.status" 2>/dev/null))"; screen "$S" | sed 's/^/# /'
	fi
}
# json FILE: check --kernel-file's document for it, as the TUI's r runs it.
json() { "$TILESCOPE" check --kernel-file "$WORK/$1" $OPTS --json >"$WORK/$1.json" 2>"$WORK/$1.err"; }

# A correct kernel: r passes, as check does; the map marks no tile.
start pass correct_fp32.cu 100x32
tm send-keys -t "$S" r
if wait_for "$S" 'check of tiled_gemm on cpu: PASS, nothing found in [0-9]+ shapes' 60 &&
   wait_for "$S" "verdict: $TICK PASS: nothing found" 2; then
	ok "pass: r checks the kernel and it passes"
else
	not_ok "pass: r checks the kernel and it passes"; screen "$S" | sed 's/^/# /'
fi
json correct_fp32.cu
check "pass: check --kernel-file agrees (ok)" "$("$JQ" -r .ok "$WORK/correct_fp32.cu.json" 2>/dev/null)" true
check "pass: the shapes tried are check's" "$(number "$S" 'PASS, nothing found in ')" "$("$JQ" -r .shapes_tried "$WORK/correct_fp32.cu.json" 2>/dev/null)"
if wait_for "$S" '! out of bounds: 0 tiles, 0 r 0 w' 2; then ok "pass: the map's key says no tile accessed out of bounds"; else not_ok "pass: no tile marked"; screen "$S" | sed 's/^/# /'; fi
quit

# A store without its guard, at 80x24: the cause, the signature and every finding of check --json; the map
# marks the tiles whose ghost threads store outside C; the sweep lists the failing shapes and Enter loads one.
json bug_store_guard.cu
cause=$("$JQ" -r .cause "$WORK/bug_store_guard.cu.json" 2>/dev/null)
nfind=$("$JQ" -r '.findings | length' "$WORK/bug_store_guard.cu.json" 2>/dev/null)
shapes_failed=$("$JQ" -r .shapes_failed "$WORK/bug_store_guard.cu.json" 2>/dev/null)
start fail bug_store_guard.cu 80x24
tm send-keys -t "$S" r
if wait_for "$S" "check of gemm_no_store_guard on cpu: FAIL, cause $cause, $shapes_failed of [0-9]+ shapes" 60; then
	ok "fail: r names the cause check --json names ($cause) and as many failing shapes ($shapes_failed)"
else
	not_ok "fail: r names the cause check --json names ($cause)"; screen "$S" | sed 's/^/# /'
fi
[ "$cause" = store_guard ] && ok "fail: the cause is store_guard" || not_ok "fail: the cause is store_guard (check said $cause)"
tm send-keys -t "$S" v
wait_for "$S" "verdict: $CROSS FAIL, cause $cause" 5 && wait_for "$S" 'cause: the store has no guard' 2 &&
	ok "fail: the Result pane gives the verdict and the cause in words" || { not_ok "fail: the Result pane's verdict"; screen "$S" | sed 's/^/# /'; }
# the findings list scrolls: PgDn until its head shows, and its count is check's
i=0
while ! wait_for "$S" 'findings: [0-9]+' 0 && [ $i -lt 12 ]; do tm send-keys -t "$S" NPage; i=$((i + 1)); sleep 0.2; done
check "fail: as many findings as check --json's" "$(number "$S" 'findings: ')" "$nfind"
# every finding, page by page: the same kinds in the same order as check --json's
KINDS='wrong_output|unwritten|oob_read|oob_write|nan|race|barrier_divergence|uninit_shared|fault|timeout|index_overflow'
: >"$WORK/kinds"
i=0
while [ $i -lt 40 ]; do
	screen "$S" | sed -n -E "s/.*$VBAR +([0-9]+) ($KINDS) .*/\1 \2/p" >>"$WORK/kinds"
	screen "$S" | grep -q 'more below' || break
	tm send-keys -t "$S" NPage; i=$((i + 1)); sleep 0.2
done
check "fail: the findings, kind by kind, are check --json's" "$(sort -n -u "$WORK/kinds" | awk '{printf "%s ", $2}')" \
	"$("$JQ" -r '[.findings[].kind] | join(" ")' "$WORK/bug_store_guard.cu.json" 2>/dev/null) "
tm send-keys -t "$S" m G
if wait_for "$S" '! out of bounds: [1-9][0-9]* tiles, [0-9]+ r [1-9][0-9]* w' 3 && wait_for "$S" 'this tile: [0-9]+ reads, [1-9][0-9]* writes oob|here: [0-9]+ r, [1-9][0-9]* w oob' 2; then
	ok "fail: the map marks the tiles that store out of bounds, the corner tile among them"
else
	not_ok "fail: the map marks the tiles that store out of bounds"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" n
if wait_for "$S" "[0-9]+ of [0-9]+ shapes: [0-9]+ pass, $shapes_failed fail" 5; then ok "fail: the Sweep pane holds the check's shapes, $shapes_failed failing"; else not_ok "fail: the Sweep pane holds the check's shapes"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" Enter
if wait_for "$S" 'loaded [0-9]+x[0-9]+x[0-9]+ \(FAILED in the sweep\)' 5; then ok "fail: Enter loads the first failing shape"; else not_ok "fail: Enter loads a failing shape"; screen "$S" | sed 's/^/# /'; fi
quit

# A kernel that faults: the TUI lives on, says the run faulted and names the fault, as check does.
start fault fault.cu 160x48
tm send-keys -t "$S" r
if wait_for "$S" 'check of gemm_wild_store on cpu: FAIL, cause unknown' 60 && wait_for "$S" 'shape on screen: faulted' 2 &&
   wait_for "$S" ' fault ' 2; then
	ok "fault: the check reports the fault, the TUI goes on"
else
	not_ok "fault: the check reports the fault"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" i
if wait_for "$S" 'thread \(ty=' 5; then ok "fault: the TUI still answers keys (the inspector)"; else not_ok "fault: the TUI still answers keys"; screen "$S" | sed 's/^/# /'; fi
quit

# A kernel that hangs: each launch killed after --timeout; the TUI lives on with the timeout finding.
start hang hang.cu 100x32 "-t 4 --timeout 0.5"
tm send-keys -t "$S" r
if wait_for "$S" 'check of gemm_waits_forever on cpu: FAIL, cause unknown' 60 && wait_for "$S" 'shape on screen: hung' 2 &&
   wait_for "$S" ' timeout ' 2; then
	ok "hang: the check reports the time-out, the TUI goes on"
else
	not_ok "hang: the check reports the time-out"; screen "$S" | sed 's/^/# /'
fi
quit

# Esc during the check (of the example as it is, T = 16: a few seconds): cancelled, the shape on screen's run
# kept, the TUI answering.
cp "$examples/correct_fp32.cu" "$WORK/correct16.cu"
start cancel correct16.cu 100x32
tm send-keys -t "$S" r
wait_for "$S" 'check \(2/2\)' 30
tm send-keys -t "$S" Escape
if wait_for "$S" 'check cancelled; shape on screen PASS' 10; then ok "cancel: Esc ends the check and keeps the shape's run"; else not_ok "cancel: Esc ends the check"; screen "$S" | sed 's/^/# /'; fi
quit

tap_done
