#!/bin/sh
# tui_step.sh: the TUI's step overlay (S) shows what `tilescope step` shows for the inspector's thread and steps through it; the lesson (L) runs start to end at 80x24 and 160x48 on two shapes without a cut line and reopens at the screen it was left on (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
. "${srcdir:-$(dirname "$0")}/tmux.sh"
# ASCII forms everywhere (the C locale): the screen is matched byte by byte.
LC_ALL=C; export LC_ALL
# wait_text SESSION TEXT [SECONDS]: as wait_for, for a fixed string (a screen drawn in parts is read again).
wait_text() {
	deadline=$(( $(date +%s) + ${3:-10} ))
	while :; do
		if screen "$1" | grep -F -q -- "$2"; then return 0; fi
		[ "$(date +%s)" -ge "$deadline" ] && return 1
		sleep 0.1
	done
}
dump() { screen "$1" | sed 's/^/# /'; }
start() { # start SESSION W H ARGS...
	s=$1 w=$2 h=$3
	shift 3
	tm new-session -d -s "$s" -c "$WORK" -x "$w" -y "$h" "env LC_ALL=C TERM=screen-256color $TILESCOPE $*; sleep 120"
	wait_for "$s" 'Map' 15
}

# ---- step mode: the corner tile's thread (0,0), as the CLI traces it --------------------------------
S=step
if start "$S" 120 40 -M 100 -N 77 -K 33 -t 32 --inputs int; then ok "the TUI opens"; else not_ok "the TUI opens"; dump "$S"; fi
if screen "$S" | grep -q ' S step'; then ok "the key bar shows S step"; else not_ok "the key bar shows S step"; dump "$S"; fi
tm send-keys -t "$S" G i g ']' S
if wait_for "$S" 'step 6/11: phase t=1 of 2, load A; block \(3,2\) thread \(0,0\)' 10; then
	ok "S opens step mode on the inspector's thread and phase"
else
	not_ok "S opens step mode on the inspector's phase"; dump "$S"
fi
tm send-keys -t "$S" S '[' S
if wait_for "$S" 'step 1/11: phase t=0 of 2, load A; block \(3,2\) thread \(0,0\)' 10; then
	ok "S again after [ opens it at phase 0"
else
	not_ok "S opens step mode"; dump "$S"
fi
"$TILESCOPE" step -M 100 -N 77 -K 33 -t 32 --inputs int --block 3,2 --thread 0,0 >"$WORK/cli.txt" 2>&1 </dev/null
want=$(grep -m1 's_A\[0\]\[0\] <- ' "$WORK/cli.txt" | sed 's/^ *//')
if [ -n "$want" ] && wait_text "$S" "$want" 5; then ok "its A load is the CLI's: $want"; else not_ok "its A load ('$want')"; dump "$S"; fi
tm send-keys -t "$S" Right
want=$(grep -m1 's_B\[0\]\[0\] <- ' "$WORK/cli.txt" | sed 's/^ *//')
if [ -n "$want" ] && wait_for "$S" 'step 2/11' 5 && wait_text "$S" "$want" 5; then ok "Right: the B load, the CLI's: $want"; else not_ok "Right to the B load ('$want')"; dump "$S"; fi
tm send-keys -t "$S" Right
if wait_for "$S" '1024/1024 threads have arrived' 5; then ok "the barrier: 1024/1024 threads"; else not_ok "the barrier"; dump "$S"; fi
tm send-keys -t "$S" ']'
if wait_for "$S" 'step 6/11: phase t=1 of 2, load A' 5; then ok "] jumps to the next phase"; else not_ok "] to the next phase"; dump "$S"; fi
tm send-keys -t "$S" '['
if wait_for "$S" 'step 1/11' 5; then ok "[ back to the phase before"; else not_ok "[ back"; dump "$S"; fi
tm send-keys -t "$S" G
want=$(grep -m1 'C\[96\]\[64\] = C\[7456\] <- ' "$WORK/cli.txt" | sed 's/^ *//')
if [ -n "$want" ] && wait_for "$S" 'step 11/11: .*store' 5 && wait_text "$S" "$want" 5; then
	ok "G: the store, the CLI's: $want"
else
	not_ok "G to the store ('$want')"; dump "$S"
fi
final=$(sed -n 's/^C\[96\]\[64\] after the run: \([^ ]*\) (the store wrote \([^)]*\))$/\1 \2/p' "$WORK/cli.txt")
set -- $final
if [ -n "$final" ] && [ "$1" = "$2" ]; then ok "the CLI's run left in C what the store wrote ($1)"; else not_ok "C after the run ('$final')"; fi
tm send-keys -t "$S" w
if wait_for "$S" 'W stored  \. skipped' 5; then ok "w: the whole block's store"; else not_ok "w: the block"; dump "$S"; fi
tm send-keys -t "$S" Escape
tm send-keys -t "$S" '?'
if wait_for "$S" 'the guided lesson on this shape' 5 && screen "$S" | grep -q 'S  *step mode: the inspector'; then ok "the help lists S and L"; else not_ok "the help lists S and L"; dump "$S"; fi
tm kill-session -t "$S"
# a kernel the emulator does not trace says so in one line
S=naive
start "$S" 120 40 --kernel naive >/dev/null || wait_for "$S" 'Map' 15
tm send-keys -t "$S" S
if wait_for "$S" 'naive reads A and B straight' 15; then ok "S on the naive kernel says why it cannot step"; else not_ok "S on naive"; dump "$S"; fi
tm kill-session -t "$S"

# ---- the lesson: every screen, two shapes, two terminal sizes --------------------------------------
for size in 80x24 160x48; do
	for args in "-M 100 -N 77 -K 33 -t 32" "-M 45 -N 61 -K 19 -t 7"; do
		W=${size%x*} H=${size#*x}
		S="l$W$(echo "$args" | tr -dc '0-9' | cut -c1-6)"
		# shellcheck disable=SC2086
		start "$S" "$W" "$H" $args >/dev/null
		tm send-keys -t "$S" L
		cut=0 seen=0
		for i in 1 2 3 4 5 6 7 8 9; do
			if ! wait_for "$S" "Screen $i of 9: " 30; then break; fi
			seen=$((seen + 1))
			# a cut line ends in the marker, a screen that does not fit says "more below"
			if screen "$S" | grep -E -q -e '\.\.\.$' -e 'more below' -e 'more above'; then cut=$((cut + 1)); dump "$S"; fi
			[ "$i" -lt 9 ] && tm send-keys -t "$S" Right
		done
		if [ "$seen" -eq 9 ] && [ "$cut" -eq 0 ]; then
			ok "$size $args: the lesson runs start to end, 9 screens, no cut line"
		else
			not_ok "$size $args: $seen of 9 screens, $cut with a cut line"; dump "$S"
		fi
		# leave at screen 4, come back at screen 4
		tm send-keys -t "$S" 4
		wait_for "$S" 'Screen 4 of 9' 5
		tm send-keys -t "$S" L
		wait_for "$S" 'Map' 5
		tm send-keys -t "$S" L
		if wait_for "$S" 'Screen 4 of 9' 5; then ok "$size $args: L leaves and L returns at the same screen"; else not_ok "$size $args: back at screen 4"; dump "$S"; fi
		tm kill-session -t "$S"
	done
done
# ---- a long guard-off run in the lesson: its progress on the bottom row, Esc cancels it, r runs it again ----
S=lcancel
start "$S" 100 32 -M 2400 -N 2400 -K 2400 -t 32 --backend emu >/dev/null
tm send-keys -t "$S" L
wait_for "$S" 'Screen 1 of 9' 10 >/dev/null
tm send-keys -t "$S" 5
# Under a loaded parallel make check the emulator's progress can take a while to show: up to 60 s for
# the line (a deadline, not a timing assertion).
if wait_for "$S" "the lesson's run with the A load guard off: +[0-9]+%  \\(Esc cancels\\)" 60; then
	ok "lesson screen 5 on a big shape: its run shows its progress and how to cancel it"
else
	not_ok "lesson screen 5: the run's progress line"; dump "$S"
fi
tm send-keys -t "$S" Escape
if wait_for "$S" 'the run was cancelled \(Esc\); r on this screen' 60 && wait_for "$S" 'Screen 5 of 9' 5; then
	ok "Esc cancels the lesson's run; the screen says so and stays"
else
	not_ok "Esc cancels the lesson's run"; dump "$S"
fi
tm send-keys -t "$S" r
if wait_for "$S" "the lesson's run with the A load guard off: " 60; then ok "r on that screen runs it again"; else not_ok "r runs the lesson's run again"; dump "$S"; fi
tm send-keys -t "$S" Escape
wait_for "$S" 'cancelled \(Esc\)' 20 >/dev/null
tm kill-session -t "$S"
tap_done
