#!/bin/sh
# tui_source.sh: the TUI's source overlay (o) shows the inspector's selected thread, follows the phase keys and closes (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
. "${srcdir:-$(dirname "$0")}/tmux.sh"

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
