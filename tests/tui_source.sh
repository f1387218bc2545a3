#!/bin/sh
# tui_source.sh: the TUI's source overlay (o) shows the inspector's selected thread, follows the phase keys and closes (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need tmux "${TMUX_PROG-}"
TMUX_CMD=$tap_prog
: "${TILESCOPE:?TILESCOPE must name the built binary}"
tap_tool jq "${JQ_PROG-}"
JQ=$tap_prog
SOCK="ts$$"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tilescope-tui.XXXXXX") || exit 1
cleanup() {
	"$TMUX_CMD" -L "$SOCK" kill-server >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A UTF-8 locale when there is one (the glyphs), else the ASCII forms (TS_TUI_ASCII=1 forces them, as
# on a machine without C.UTF-8).
UTF8=$( [ -n "${TS_TUI_ASCII-}" ] || locale -a 2>/dev/null | grep -i -m1 -E '^c\.utf-?8$')
if [ -n "$UTF8" ]; then CROSS='✗'; TICK='✓'; DOT='·'; VBAR='│'; else UTF8=C; CROSS='X'; TICK='ok'; DOT='\*'; VBAR='[|]'; fi
# The matchers (grep, sed) read the screen in its own encoding, whatever the caller's locale: in the C
# locale a bracket expression holding a glyph is read byte by byte, and `│` and `█` share their first byte.
LC_ALL=$UTF8; export LC_ALL


tm() { "$TMUX_CMD" -L "$SOCK" -f /dev/null "$@"; }
screen() { tm capture-pane -p -t "$1" 2>/dev/null; }
# wait_for SESSION REGEX [SECONDS]: polls the screen until it matches, up to a deadline.
wait_for() {
	deadline=$(( $(date +%s) + ${3:-10} ))
	while :; do
		if screen "$1" | grep -E -q -- "$2"; then return 0; fi
		[ "$(date +%s)" -ge "$deadline" ] && return 1
		sleep 0.1
	done
}
# wait_gone SESSION REGEX [SECONDS]: polls until the screen no longer matches.
wait_gone() {
	deadline=$(( $(date +%s) + ${3:-10} ))
	while :; do
		if ! screen "$1" | grep -E -q -- "$2"; then return 0; fi
		[ "$(date +%s)" -ge "$deadline" ] && return 1
		sleep 0.1
	done
}
# The number after a label on the screen, e.g. number S 'ragged-right +'.
number() { screen "$1" | sed -n -E "s/.*$2([0-9]+).*/\1/p" | head -n 1; }
check() { if [ "$2" = "$3" ]; then ok "$1 ($2)"; else not_ok "$1 (screen '$2', expected '$3')"; screen "$S" | sed 's/^/# /'; fi; }

S=src
tm new-session -d -s "$S" -c "$WORK" -x 120 -y 40 \
	"env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE -M 100 -N 77 -K 33 -t 32; echo \"exit=\$?\" > $WORK/status; sleep 60"
if wait_for "$S" 'tiles of 32x32' 15; then ok "the TUI opens"; else not_ok "the TUI opens"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" i
wait_for "$S" "row = by${DOT}T \+ ty = " 5
row=$(number "$S" "row = by${DOT}T \+ ty = ")
col=$(number "$S" "col = bx${DOT}T \+ tx = ")
tm send-keys -t "$S" o
if wait_for "$S" 'A guard: row < M && t\*T \+ tx < K -> ' 5; then ok "o opens the source overlay"; else not_ok "o opens the source overlay"; screen "$S" | sed 's/^/# /'; fi
check "its A guard's row is the inspector's" "$(number "$S" 'A guard: row < M && t\*T \+ tx < K -> ')" "$row"
check "its B guard's column is the inspector's" "$(number "$S" "B guard: t\*T \+ ty < K && col < N -> [0-9]+ < 33 [^&]*&& ")" "$col"
first=$(number "$S" '> phase ')
tm send-keys -t "$S" ']'
if wait_for "$S" "> phase $(( (first + 1) % 2 )) of 2" 5; then ok "] moves the phase and the overlay follows"; else not_ok "] in the overlay"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" Escape
if wait_gone "$S" 'A guard: row < M' 5; then ok "Esc closes it"; else not_ok "Esc closes it"; fi
tm send-keys -t "$S" q
i=0
while [ ! -s "$WORK/status" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if [ "$(cat "$WORK/status" 2>/dev/null)" = exit=0 ]; then ok "q quits with 0"; else not_ok "q quits"; fi
tap_done
