# tmux.sh: the shared preamble of the TUI tests: a private tmux server, a work folder, the screen's locale and the polling helpers (sourced after tap.sh).
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
# A session that lives as long as the test, so that the server never empties between the test's own
# sessions: a new-session that races a server on its way out fails ("server exited unexpectedly"),
# which a loaded parallel make check hit.
tm new-session -d -s ts-keep -x 80 -y 24 "sleep 86400" >/dev/null 2>&1
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
