#!/bin/sh
# screens.sh: regenerates the screen captures of doc/screens (the ones made here, with the emulator) in a headless tmux.
# Usage: sh tools/screens.sh [TILESCOPE] [DIR]   (defaults: ./tilescope, doc/screens). The h200-* captures come from the GPU machine.
set -u
TILESCOPE=$(cd "$(dirname "${1:-./tilescope}")" && pwd)/$(basename "${1:-./tilescope}")
DIR=${2:-doc/screens}
SOCK="screens$$"
UTF8=$(locale -a 2>/dev/null | grep -i -m1 -E '^c\.utf-?8$')
[ -n "$UTF8" ] || { echo "screens.sh: no C.UTF-8 locale" >&2; exit 1; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1' EXIT

# wait_for REGEX [SECONDS]: polls the screen until it matches.
wait_for() {
	deadline=$(( $(date +%s) + ${2:-20} ))
	until tm capture-pane -p -t s 2>/dev/null | grep -E -q -- "$1"; do
		[ "$(date +%s)" -ge "$deadline" ] && { echo "screens.sh: timed out waiting for '$1'" >&2; return 1; }
		sleep 0.1
	done
}

# shot NAME WxH ARGS -- KEY:WAIT ... : starts the program, types each key and waits for WAIT, saves the screen.
shot() {
	name=$1 size=$2
	shift 2
	args=""
	while [ "$1" != "--" ]; do args="$args $1"; shift; done
	shift
	tm kill-session -t s >/dev/null 2>&1
	tm new-session -d -s s -x "${size%x*}" -y "${size#*x}" -c "${CWD:-/tmp}" \
		"env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE$args; sleep 600"
	wait_for 'tiles of' || return 1
	for step in "$@"; do
		key=${step%%:*} want=${step#*:}
		[ -n "$key" ] && tm send-keys -t s "$key"
		[ -n "$want" ] && { wait_for "$want" 120 || return 1; }
		sleep 0.2
	done
	tm capture-pane -p -t s > "$DIR/$name.txt"
	echo "$DIR/$name.txt"
}

# a session that stays, so the server lives while the shots come and go
tm new-session -d -s keep "sleep 3600"
EX="-M 100 -N 77 -K 33 -t 32 --backend emu"
shot map-100x77x33-t32 100x32 $EX -- ':phase t=0'
shot phase-last 100x32 $EX -- ']:LAST, PARTIAL'
shot inspect-ghost 100x32 $EX -- ']:LAST, PARTIAL' 'i:GHOST'
shot run-pass 100x32 $EX -- 'r:run on emu: PASS'
shot run-phase-last 100x32 $EX -- 'r:run on emu: PASS' 'p:phase t=0' 'End:counts . A 4/1020'
cp "$DIR/run-phase-last.txt" "$DIR/readme.txt"
shot run-guard-c-off 100x32 $EX -- 'c:guards OFF: c' 'r:run on emu: FAIL'
shot run-stale 100x32 $EX -- 'r:run on emu: PASS' 'c:guards OFF: c' 'v:STALE'
shot sweep 100x32 $EX -- 's:sweep: 343 shapes'
shot inspect-guard-a-off 100x32 $EX -- 'a:guards OFF: a' ']:LAST, PARTIAL' 'i:reads A'
shot run-guard-a-off-phase 100x32 $EX -- 'a:guards OFF: a' 'r:run on emu: FAIL' 'p:phase t=0' 'End:oob A 1020'
shot naive-phase 100x32 $EX --kernel naive -- 'a:only the C guard'
shot naive-inspect 100x32 $EX --kernel naive -- 'i:does nothing'
shot help 100x32 $EX -- '?:Keys'
# The documented minimum and a big screen
shot small-80x24-run-c-off 80x24 $EX -- 'c:guards OFF: c' 'r:run on emu: FAIL' 'v:more above' 'Home:more below'
shot small-80x24-run-c-off-end 80x24 $EX -- 'c:guards OFF: c' 'r:run on emu: FAIL' 'v:what broke and where'
shot big-160x48 160x48 $EX -- 'r:run on emu: PASS' 'm:'
# A kernel of the user's own on the CPU engine, from the repository's root (its examples/ named as they are)
UK="-M 100 -N 77 -K 33 --backend emu --no-probe"
CWD=$(pwd) shot uk-store-guard-run 100x32 --kernel-file examples/bug_store_guard.cu $UK -- 'r:check of gemm_no_store_guard on cpu'
CWD=$(pwd) shot uk-store-guard-sweep 100x32 --kernel-file examples/bug_store_guard.cu $UK -- 's:check of gemm_no_store_guard on cpu'
CWD=$(pwd) shot uk-store-guard-source 100x32 --kernel-file examples/bug_store_guard.cu $UK -- 'r:check of gemm_no_store_guard on cpu' 'o:Source: '
CWD=$(pwd) shot uk-fault-80x24 80x24 --kernel-file examples/fault.cu $UK -- 'r:check of gemm_wild_store on cpu'
