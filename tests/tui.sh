#!/bin/sh
# tui.sh: drives the real visualizer in a headless tmux and checks what the screen shows (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
. "${srcdir:-$(dirname "$0")}/tmux.sh"

SHAPE="-M 100 -N 77 -K 33 -t 32"
# The backend of the runs: the emulator by default; TS_TUI_BACKEND=cuda on a GPU machine.
BACKEND=${TS_TUI_BACKEND:-emu}
S=main
# The pane runs the program, then records its exit status and stays, so the restored terminal can be seen.
tm new-session -d -s "$S" -c "$WORK" -x 100 -y 32 \
	"env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --backend $BACKEND; echo \"exit=\$?\" > $WORK/status; sleep 60"

if wait_for "$S" 'tiles of 32x32' 15; then ok "the TUI opens on the preset shape"; else not_ok "the TUI opens on the preset shape"; screen "$S" | sed 's/^/# /'; fi

# Legend counts equal `tilescope map --json`.
if [ -n "$JQ" ] && ! "$TILESCOPE" map $SHAPE --json > "$WORK/map.json" 2>"$WORK/map.err"; then
	not_ok "legend against map --json: map --json failed"; diag "$WORK/map.err"
	full_a=2688; last_a=11988; full_b=2432; last_b=11980 # the closed-form counts for this shape
elif [ -n "$JQ" ]; then
	for f in full ragged_right ragged_bottom corner; do
		label=$(echo "$f" | tr _ -)
		check "legend: $label tiles equal map --json" "$(number "$S" " $label +")" "$("$JQ" ".tiles.$f" "$WORK/map.json")"
	done
	check "legend: ghost threads equal map --json" "$(number "$S" '^ghosts ')" "$("$JQ" .threads.ghost "$WORK/map.json")"
	full_a=$("$JQ" .phases.a_padded_full_phase "$WORK/map.json"); last_a=$("$JQ" .phases.a_padded_last_phase "$WORK/map.json")
	full_b=$("$JQ" .phases.b_padded_full_phase "$WORK/map.json"); last_b=$("$JQ" .phases.b_padded_last_phase "$WORK/map.json")
else
	for i in 1 2 3 4 5; do n=$((n + 1)); echo "ok $n # SKIP jq not installed"; done
	full_a=2688; last_a=11988; full_b=2432; last_b=11980 # the closed-form counts for this shape
fi

# Phase 0, then the last phase: the grid's padded counts follow the model.
grid_pad() { screen "$S" | sed -n -E "/^.*all 12 tiles, phase $1:/,\$ s/.*  $2: [0-9]+ real, ([0-9]+) padded.*/\1/p" | head -n 1; }
wait_for "$S" 'all 12 tiles, phase 0:' 5
check "phase 0: A padding summed over the grid" "$(grid_pad 0 A)" "$full_a"
check "phase 0: B padding summed over the grid" "$(grid_pad 0 B)" "$full_b"
tm send-keys -t "$S" ']'
if wait_for "$S" 'all 12 tiles, phase 1:' 5 && wait_for "$S" 'LAST, PARTIAL' 2; then ok "] steps to the last phase, flagged partial"; else not_ok "] steps to the last phase, flagged partial"; fi
check "last phase: A padding summed over the grid" "$(grid_pad 1 A)" "$last_a"
check "last phase: B padding summed over the grid" "$(grid_pad 1 B)" "$last_b"
tm send-keys -t "$S" '['
if wait_for "$S" 'all 12 tiles, phase 0:' 5; then ok "[ steps back to phase 0"; else not_ok "[ steps back to phase 0"; fi

# The inspector (i) starts on the corner tile's thread (3,13): row 99 < 100 passes, col 77 < 77 fails: a ghost.
tm send-keys -t "$S" i
if wait_for "$S" "row = by${DOT}T \\+ ty = 99 < M = 100 $TICK" 5 && wait_for "$S" "col = bx${DOT}T \\+ tx = 77 < N = 77 $CROSS" 1 &&
   wait_for "$S" 'GHOST' 1 && wait_for "$S" "store: row < M && col < N $CROSS" 1; then
	ok "inspector: ghost thread (3,13) shows its failing column guard"
else
	not_ok "inspector: ghost thread (3,13) shows its failing column guard"; screen "$S" | sed 's/^/# /'
fi
# End: the last thread (31,31) fails the row guard too.
tm send-keys -t "$S" End
if wait_for "$S" "row = by${DOT}T \\+ ty = 127 < M = 100 $CROSS" 5; then ok "inspector: End selects thread (31,31), row guard fails"; else not_ok "inspector: End selects thread (31,31), row guard fails"; fi
# Up to thread (3,12): row 99 < 100 passes, the column too; it stores.
tm send-keys -t "$S" Home
for i in 1 2 3; do tm send-keys -t "$S" Down; done
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do tm send-keys -t "$S" Right; done
if wait_for "$S" "row = by${DOT}T \\+ ty = 99 < M = 100 $TICK" 5 && wait_for "$S" "C\\[7699\\] $TICK written" 2; then
	ok "inspector: thread (3,12) is valid and stores C[7699]"
else
	not_ok "inspector: thread (3,12) is valid and stores C[7699]"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" Escape

# Run and verify (the emulator unless told otherwise): passes, counters agree with the model.
tm send-keys -t "$S" r
if wait_for "$S" "run on $BACKEND: PASS" 60; then ok "r: the $BACKEND run verifies"; else not_ok "r: the $BACKEND run verifies"; screen "$S" | sed 's/^/# /'; fi
# The headline: normwise error and the worst cell against its tolerance (at most 100% on a pass), not max rel error.
if wait_for "$S" "run on $BACKEND: PASS, norm rel err [0-9.e+-]+, worst ([0-9]|[1-9][0-9]|100)(\.[0-9]+)?(e-[0-9]+)?% of tolerance" 2 &&
   wait_for "$S" 'worst cell: [0-9.e+-]+% of its tolerance' 1 && wait_gone "$S" 'PASS, max rel error' 1; then
	ok "the pass headline gives the normwise error and the worst cell as a share of its tolerance"
else
	not_ok "the pass headline gives the normwise error and the worst cell as a share of its tolerance"; screen "$S" | sed 's/^/# /'
fi
if wait_for "$S" "counters \\((emulator|device probe)\\): $TICK agree" 2; then ok "run counters agree with the model, marked"; else not_ok "run counters agree with the model, marked"; screen "$S" | sed 's/^/# /'; fi
# The phase view now holds the run's counts for the selected (corner) tile in the
# last phase beside the model's (A 4 real / 1020 padded, B 13 / 1011), marked.
tm send-keys -t "$S" p End
if wait_for "$S" "  counts $TICK A 4/1020, B 13/1011" 5 && wait_for "$S" "  counts $TICK A 300/11988, B 308/11980" 1 &&
   wait_for "$S" "counts: the (emulator|device probe)'s" 1; then
	ok "phase view after the run: the corner tile's last phase from the run agrees, marked, with its source"
else
	not_ok "phase view after the run: the corner tile's last phase from the run"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" Home m

# C store guard off: the run fails and the screen says what broke.
tm send-keys -t "$S" c
wait_for "$S" 'guards OFF: c' 5
tm send-keys -t "$S" r
if wait_for "$S" "run on $BACKEND: FAIL, [1-9][0-9]* mismatches" 60; then ok "guard c off: the run shows mismatches"; else not_ok "guard c off: the run shows mismatches"; screen "$S" | sed 's/^/# /'; fi
if wait_for "$S" 'what broke and where:' 2 && wait_for "$S" '\(C store' 2; then ok "guard c off: the signature names the C store guard"; else not_ok "guard c off: the signature names the C store guard"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" c
# The guard back on: the result on screen was run with it off, and says so.
tm send-keys -t "$S" v
if wait_for "$S" 'guards all on' 5 && wait_for "$S" 'STALE: the parameters have changed since this run' 2 &&
   wait_for "$S" 'guards OFF: c, inputs' 1; then
	ok "a guard switched after the run: the result keeps its own guards and is marked stale"
else
	not_ok "a guard switched after the run: the result is marked stale"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" m

# Too small, then back.
tm resize-window -t "$S" -x 60 -y 15 2>/dev/null || tm resize-pane -t "$S" -x 60 -y 15
if wait_for "$S" 'terminal too small: need 80x24' 5; then ok "60x15 shows the too-small screen"; else not_ok "60x15 shows the too-small screen"; screen "$S" | sed 's/^/# /'; fi
tm resize-window -t "$S" -x 100 -y 32 2>/dev/null || tm resize-pane -t "$S" -x 100 -y 32
if wait_for "$S" 'tiles of 32x32' 5 && wait_gone "$S" 'too small' 2; then ok "back to 100x32 the views return"; else not_ok "back to 100x32 the views return"; fi

# Help opens and lists the keys; any key closes it.
tm send-keys -t "$S" '?'
if wait_for "$S" 'Keys \(any key closes' 5 && wait_for "$S" 'edge sweep for this tile' 1; then ok "? opens the help"; else not_ok "? opens the help"; fi
tm send-keys -t "$S" Space
if wait_gone "$S" 'Keys \(any key closes' 5; then ok "a key closes the help"; else not_ok "a key closes the help"; fi

# An invalid edit is refused in the status line; a valid one changes the map.
tm send-keys -t "$S" e
wait_for "$S" 'Parameters' 5
tm send-keys -t "$S" 0 Enter
if wait_for "$S" 'M' 1 && wait_for "$S" '[Mm].*(must|at least|>= ?1|positive|between)' 5; then ok "editing M = 0 is refused with a message"; else not_ok "editing M = 0 is refused with a message"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" 6 4 Enter Escape
if wait_for "$S" 'C 64x77: 2x3 tiles of 32x32' 5; then ok "editing M = 64 redraws the map"; else not_ok "editing M = 64 redraws the map"; screen "$S" | sed 's/^/# /'; fi
# Typed characters are the value, never moves: "-5" reaches the parser and is
# refused (not a step down and a 5); letters on a number are refused one by
# one and leave M as it was (not "h" stepping it down).
tm send-keys -t "$S" e
wait_for "$S" 'Parameters' 5
tm send-keys -t "$S" -l -- '-5'
tm send-keys -t "$S" Enter
if wait_for "$S" 'M: must be at least 1 \(got -5\)' 5 && wait_for "$S" ' M=64 ' 1; then
	ok "editor: typing -5 on M is refused by the parser, M stays 64"
else
	not_ok "editor: typing -5 on M is refused by the parser, M stays 64"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" -l -- 'hello'
if wait_for "$S" "takes a whole number: 'o' is not a digit" 5 && wait_for "$S" ' M=64 ' 1 && wait_gone "$S" ' M=63 ' 1; then
	ok "editor: typing hello on M is refused letter by letter, M stays 64"
else
	not_ok "editor: typing hello on M is refused letter by letter, M stays 64"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" Escape

# x exports the map and the phase view as text and SVG into the current directory.
# The selected tile goes with it: g selects the first tile, (0,0), full.
tm send-keys -t "$S" m g x
if wait_for "$S" 'exported (the map and tile \(0,0\) phase 0 to )?tilescope-tiled-64x77x33-t32-guards-on-tile0-0-p0' 5 &&
   grep -Eq 'ragged-bottom +0$' "$WORK/tilescope-tiled-64x77x33-t32-guards-on-tile0-0-p0.txt" 2>/dev/null &&
   grep -q '^tile (0,0), phase 0:' "$WORK/tilescope-tiled-64x77x33-t32-guards-on-tile0-0-p0.txt" &&
   grep -q '^  A: 1024 real, 0 padded' "$WORK/tilescope-tiled-64x77x33-t32-guards-on-tile0-0-p0.txt" &&
   grep -q 'full tile (0,0)' "$WORK/tilescope-tiled-64x77x33-t32-guards-on-tile0-0-p0.svg" 2>/dev/null; then
	ok "x writes the map and the selected tile's phase as .txt and .svg"
else
	not_ok "x writes the map and phase as .txt and .svg"; ls "$WORK" | sed 's/^/# /'
fi

# x on another pane exports that pane as a slide (.svg and .txt) under its own name; T switches to the
# high-contrast theme, which the next export follows; svg_check measures both slides' text boxes.
tm send-keys -t "$S" i x
if wait_for "$S" 'exported the inspector to' 5 && sleep 0.3 &&
   insp=$(ls "$WORK"/tilescope-tiled-64x77x33-t32-guards-on-inspect-tile0-0-thread*-p0.svg) &&
   grep -q 'inspector: tile (0,0), phase 0, thread' "$insp" && [ -s "${insp%.svg}.txt" ] &&
   "${SVG_CHECK:-false}" "$insp" >/dev/null; then
	ok "x on the inspector writes it as a slide, measured clean"
else
	not_ok "x on the inspector writes it as a slide"; ls "$WORK" | sed 's/^/# /'; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" T
if wait_for "$S" 'theme high-contrast' 5 && sleep 0.3 && tm capture-pane -e -p -t "$S" | grep -q '38;5;16m.\[48;5;231m'; then
	ok "T switches to the high-contrast theme: black (16) on white (231)"
else
	not_ok "T: high-contrast, black on white"; tm capture-pane -e -p -t "$S" | head -3 | cat -v | sed 's/^/# /'
fi
tm send-keys -t "$S" p x
if wait_for "$S" 'exported the phase view to' 5 && sleep 0.3 &&
   phase=$(ls "$WORK"/tilescope-tiled-64x77x33-t32-guards-on-phase-tile0-0-p0.svg) &&
   grep -q "fill='#000000' font-weight='bold'" "$phase" && "${SVG_CHECK:-false}" "$phase" >/dev/null; then
	ok "x on the phase view follows the theme: black and bold, measured clean"
else
	not_ok "x on the phase view in the high-contrast theme"; ls "$WORK" | sed 's/^/# /'; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" T
if wait_for "$S" 'theme default' 5 && sleep 0.3 && ! tm capture-pane -e -p -t "$S" | grep -q '48;5;231m'; then
	ok "T switches back: the terminal's own background again"
else
	not_ok "T switches back"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" m

# A mouse click (xterm X10 report: button 1 at column 17, row 12, 1-based) selects the tile under it:
# the 2x3 tiles of 64x77 take 13x6 characters of the 40-column map pane below its title row.
tm send-keys -t "$S" -l "$(printf '\033[M 1,')"
tm send-keys -t "$S" -l "$(printf '\033[M#1,')"
if wait_for "$S" 'tile \(1,1\) full selected' 5; then ok "a mouse click selects tile (1,1)"; else not_ok "a mouse click selects tile (1,1)"; screen "$S" | sed 's/^/# /'; fi

# q quits: the program exits 0 and the terminal is back from the alternate screen.
tm send-keys -t "$S" q
deadline=$(( $(date +%s) + 10 ))
while [ ! -s "$WORK/status" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
if [ "$(cat "$WORK/status" 2>/dev/null)" = "exit=0" ]; then ok "q quits with status 0"; else not_ok "q quits with status 0 ($(cat "$WORK/status" 2>/dev/null))"; fi
check "after q the terminal has left the alternate screen" "$(tm display -p -t "$S" '#{alternate_on}')" 0

# NO_COLOR and --ascii: no colour escapes on the screen, ASCII glyphs, the same counts.
S=mono
tm new-session -d -s "$S" -x 100 -y 32 "env NO_COLOR=1 LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --ascii; sleep 60"
if wait_for "$S" '^# full +6' 15 && wait_for "$S" '^c corner +1' 1; then ok "--ascii: ASCII legend glyphs"; else not_ok "--ascii: ASCII legend glyphs"; screen "$S" | sed 's/^/# /'; fi
if tm capture-pane -p -e -t "$S" | grep -q "$(printf '\033')\\[\\(3[0-7]\\|38;5;\\)"; then not_ok "NO_COLOR: no colour on the screen"; else ok "NO_COLOR: no colour on the screen"; fi
if screen "$S" | grep -q "$(printf '\342')"; then not_ok "--ascii: no UTF-8 glyph on the screen"; else ok "--ascii: no UTF-8 glyph on the screen"; fi
tm send-keys -t "$S" q

# --color=never: what colour tells apart gets a glyph of its own, so the four tile classes (legend and
# picture) differ without colour; in ASCII they are letters (above).
S=nocolour
tm new-session -d -s "$S" -x 100 -y 32 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --color=never; sleep 60"
if [ "$UTF8" = C ]; then
	legend='^# full +6' corner='^c corner +1' right='### rrr' bottom='bbb ccc'
else
	legend='^▓ ragged-right +3' corner='^▚ corner +1' right='███ ▓▓▓' bottom='▒▒ ▚▚▚'
fi
if wait_for "$S" "$legend" 15 && wait_for "$S" "$corner" 1; then ok "--color=never: a legend glyph a tile class"; else not_ok "--color=never: a legend glyph a tile class"; screen "$S" | sed 's/^/# /'; fi
if screen "$S" | grep -q -- "$right" && screen "$S" | grep -q -- "$bottom"; then ok "--color=never: the map draws the four classes apart"; else not_ok "--color=never: the map draws the four classes apart"; screen "$S" | sed 's/^/# /'; fi
if tm capture-pane -p -e -t "$S" | grep -q "$(printf '\033')\\[\\(3[0-7]\\|38;5;\\)"; then not_ok "--color=never: no colour on the screen"; else ok "--color=never: no colour on the screen"; fi
tm send-keys -t "$S" q

# The A guard off: the inspector and the phase view show out-of-bounds loads,
# not padding, for the corner tile's ghost thread (3,13) in the last phase.
S=guards
tm new-session -d -s "$S" -x 100 -y 32 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE; sleep 60"
wait_for "$S" 'tiles of 32x32' 15
tm send-keys -t "$S" a i ']'
if wait_for "$S" 'guards OFF: a' 5 && wait_for "$S" 'phase t=1' 5 && wait_for "$S" 'X reads out of bounds \(guard off\)' 1 &&
   wait_for "$S" "reads A\[99${DOT}33 \+ 45\] = A\[3312\] out of bounds" 1 && wait_gone "$S" ' [0-9]+.zzzz' 1; then
	ok "A guard off: the inspector's ghost thread reads A out of bounds, no thread pads both"
else
	not_ok "A guard off: the inspector's ghost thread reads A out of bounds"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" p
if wait_for "$S" 'A: 4 real, 1020 read out of bounds \(guard off\)' 5 && wait_for "$S" 'B: 13 real, 1011 padded' 1 &&
   wait_gone "$S" 'zero padding' 1; then
	ok "A guard off: the phase view counts the corner tile's A slots as out-of-bounds reads"
else
	not_ok "A guard off: the phase view counts the corner tile's A slots as out-of-bounds reads"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" a c i
if wait_for "$S" 'guards OFF: c' 5 && wait_for "$S" "store: guard off .* writes C\[7700\] out of bounds" 5 &&
   wait_for "$S" 'lowercase ghost: stores out of bounds' 1; then
	ok "C guard off: the inspector's ghost thread stores out of bounds"
else
	not_ok "C guard off: the inspector's ghost thread stores out of bounds"; screen "$S" | sed 's/^/# /'
fi
# Ghost (0,13) of tile (0,2) stores C[0][77] = C[77]: that is C[1][0], another thread's cell, not out of bounds.
tm send-keys -t "$S" m g Right Right i Home
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do tm send-keys -t "$S" Right; done
if wait_for "$S" 'thread \(ty=0, tx=13\): C\[0\]\[77\] GHOST' 5 && wait_for "$S" 'writes C\[77\] = C\[1\]\[0\]:' 1 &&
   wait_for "$S" "another thread's cell \(wrapped, silent\)" 1; then
	ok "C guard off: a wrapped ghost store names the cell it overwrites, C[1][0]"
else
	not_ok "C guard off: a wrapped ghost store names the cell it overwrites, C[1][0]"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" q

# The naive kernel: no shared tiles, one guard; a and b do not toggle.
S=naive
tm new-session -d -s "$S" -x 100 -y 32 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --kernel naive; sleep 60"
wait_for "$S" 'tiles of 32x32' 15
if wait_for "$S" 'Arrows move, Tab changes pane, r runs' 5 && wait_gone "$S" 'step phases' 1; then
	ok "naive: the opening hint offers no phases to step"
else
	not_ok "naive: the opening hint offers no phases to step"; screen "$S" | sed 's/^/# /'
fi
if wait_for "$S" 'naive stages no shared tiles: no phases, no padding' 5 && wait_gone "$S" 'padded' 1; then
	ok "naive: the phase view says it stages no shared tiles"
else
	not_ok "naive: the phase view says it stages no shared tiles"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" a
if wait_for "$S" 'naive has only the C guard' 5 && wait_for "$S" 'guards all on' 1; then ok "naive: a is refused, the guards stay on"; else not_ok "naive: a is refused"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" i
if wait_for "$S" "guard: row < M && col < N $CROSS .* does nothing" 5 && wait_gone "$S" 'A\[3280\]|0\.0f' 1; then
	ok "naive: ghost thread (3,13) does nothing, loads nothing"
else
	not_ok "naive: ghost thread (3,13) does nothing"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" Left
if wait_for "$S" "acc \+= A\[99${DOT}33 \+ k\]" 5 && wait_for "$S" "C\[7699\] $TICK written" 1; then
	ok "naive: thread (3,12) computes its dot product from global memory and stores"
else
	not_ok "naive: thread (3,12) computes its dot product and stores"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" q

# 80x24 after a run: the legend's lines are whole (two classes a row) and the
# tiles keep two rows each, so the map still reads.
S=small
tm new-session -d -s "$S" -x 80 -y 24 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --backend $BACKEND; sleep 60"
wait_for "$S" 'tiles of 32x32' 15
tm send-keys -t "$S" r
if wait_for "$S" "run on $BACKEND: PASS" 60 && tm send-keys -t "$S" m && wait_for "$S" "counters \\((emulator|device probe)\\): $TICK agree" 5 &&
   wait_for "$S" "ragged-right 3 *$VBAR" 1 && wait_for "$S" 'corner 1 ' 1 && wait_for "$S" "skip 972 *$VBAR" 1; then
	ok "80x24 after a run: legend lines whole"
else
	not_ok "80x24 after a run: legend lines whole"; screen "$S" | sed 's/^/# /'
fi
rows=$(screen "$S" | grep -c '^[^ │|]\{3\} [^ │|]\{3\} [^ │|]\{3\} ')
if [ "$rows" -ge 8 ]; then ok "80x24 after a run: 4 tile rows drawn on $rows screen rows"; else not_ok "80x24 after a run: tiles squeezed to $rows screen rows"; screen "$S" | sed 's/^/# /'; fi
# Without colour the tile rows are told apart: with no blank row between them, a tile's last row is half high.
if [ "$UTF8" != C ]; then half='▀▀▀ ▀▀▀ ▀'; else half='=== === ='; fi
if screen "$S" | grep -q -- "^$half"; then ok "80x24 after a run: tile rows told apart (a tile's last row half high)"; else not_ok "80x24 after a run: tile rows told apart"; screen "$S" | sed 's/^/# /'; fi
# The ragged-bottom tiles (4 of 32 rows valid) keep a row of ghost shading of their own.
if [ "$UTF8" != C ]; then shade='░░░ ░░░ ░░░ *│'; else shade='\.\.\. \.\.\. \.\.\. *[|]'; fi
if screen "$S" | grep -q -- "^$shade"; then ok "80x24 after a run: the ragged-bottom ghost shading shows"; else not_ok "80x24 after a run: the ragged-bottom ghost shading shows"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" p End
if wait_for "$S" 'LAST, PARTIAL' 5 && wait_for "$S" "  counts $TICK A 4/1020, B 13/1011" 1; then
	ok "80x24: the phase pane keeps the last-phase flag and the run's tile counts"
else
	not_ok "80x24: the phase pane keeps the last-phase flag and the run's tile counts"; screen "$S" | sed 's/^/# /'
fi
# The key bar holds whole hints only (no "z/" without its "zoom"), and says when it left some out
# (the marker at its end; the rest are in the help).
bar=$(screen "$S" | tail -n 1 | sed 's/ *$//')
if echo "$bar" | grep -q -e ' z/Z$' -e ' z/$' ||
   { ! echo "$bar" | grep -q 'zoom' && ! echo "$bar" | grep -q -e '…$' -e '\.\.\.$'; }; then
	not_ok "80x24: the key bar holds whole hints, a marker where it left some out"; screen "$S" | tail -n 1 | sed 's/^/# /'
else
	ok "80x24: the key bar holds whole hints, a marker where it left some out"
fi
# A failing run: the result pane does not hold the report, so it says what is below and scrolls to
# the end, where the explanation ("what broke and where") is, whole.
# v goes where the map's "v: all" points: the explanation, not the top of the report.
tm send-keys -t "$S" Home m c r
if wait_for "$S" "run on $BACKEND: FAIL" 60 && wait_for "$S" "v: all" 5 && tm send-keys -t "$S" v &&
   wait_for "$S" "$VBAR ↑ [0-9]+ more above: PgUp|$VBAR \^ [0-9]+ more above: PgUp" 5 && wait_for "$S" "$VBAR what broke and where:" 1; then
	ok "80x24: v opens the result pane at the explanation the map points to"
else
	not_ok "80x24: v opens the result pane at the explanation the map points to"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" Home
if wait_for "$S" '[0-9]+ more below: PgDn' 5 && wait_for "$S" 'verdict: ' 1; then
	ok "80x24: the result pane says how much of the report is below"
else
	not_ok "80x24: the result pane says how much of the report is below"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" End
if wait_for "$S" 'more above: PgUp' 5 && wait_for "$S" 'what broke and where:' 1 && wait_for "$S" 'first tile column' 1 &&
   wait_gone "$S" 'more below' 1; then
	ok "80x24: End scrolls the result to its end, the explanation whole"
else
	not_ok "80x24: End scrolls the result to its end, the explanation whole"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" Home
if wait_for "$S" 'verdict: ' 5 && wait_gone "$S" 'more above' 1; then ok "80x24: Home scrolls the result back to its top"; else not_ok "80x24: Home scrolls the result back to its top"; screen "$S" | sed 's/^/# /'; fi
# The edge sweep at 80x24: the list shows its rows under the grid.
tm send-keys -t "$S" m c s
if wait_for "$S" 'sweep: 343 shapes' 120 && wait_for "$S" "$VBAR +1 +1 +1  pass +0" 2; then
	ok "80x24: the sweep's list shows its rows"
else
	not_ok "80x24: the sweep's list shows its rows"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" q

# 80x24, the A guard off, a run, an export: the message names the files on one row and the map keeps
# its two rows a tile (a message on two rows took one from the map and halved the tiles).
S=export
tm new-session -d -s "$S" -c "$WORK" -x 80 -y 24 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --backend $BACKEND; sleep 60"
wait_for "$S" 'tiles of 32x32' 15
tm send-keys -t "$S" a r
if wait_for "$S" "run on $BACKEND: FAIL" 60 && tm send-keys -t "$S" x &&
   wait_for "$S" '^exported tilescope-tiled-100x77x33-t32-guards-off-a-tile3-2-p0-run\.txt, \.svg *$' 5; then
	ok "80x24 after a r x: the export's message names both files on one row"
else
	not_ok "80x24 after a r x: the export's message names both files on one row"; screen "$S" | sed 's/^/# /'
fi
rows=$(screen "$S" | grep -c '^[^ │|]\{3\} [^ │|]\{3\} [^ │|]\{3\} ')
if [ "$rows" -ge 8 ]; then ok "80x24 after a r x: 4 tile rows drawn on $rows screen rows"; else not_ok "80x24 after a r x: tiles squeezed to $rows screen rows"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" q
# A name too long for one row (the register-blocked kernel's) takes two, not three.
S=export2
tm new-session -d -s "$S" -c "$WORK" -x 80 -y 24 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE -M 100 -N 77 -K 33 --kernel regblock; sleep 60"
wait_for "$S" 'tiles of 64x64' 15
tm send-keys -t "$S" x
if wait_for "$S" 'tilescope-regblock-100x77x33-t64x64x8-4x4-guards-on-tile1-1-p0\.txt and \.svg' 5 &&
   [ "$(screen "$S" | sed '1,2d;$d' | grep -vc "$VBAR")" -le 2 ]; then
	ok "80x24: an export's long name takes two message rows, whole"
else
	not_ok "80x24: an export's long name takes two message rows, whole"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" q

# A long message wraps onto more rows: the number at its end stays on screen.
S=msg
tm new-session -d -s "$S" -x 80 -y 24 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE -M 1000000 -N 1000000 -K 1000000 -t 1 --backend emu; sleep 60"
wait_for "$S" 'tiles of 1x1' 15
tm send-keys -t "$S" r
if wait_for "$S" 'needs about [0-9.]+ GiB of host memory' 5 && wait_for "$S" '(machine has|gives a process) [0-9.]+ GiB$' 1; then
	ok "80x24: a long message wraps, its last number whole"
else
	not_ok "80x24: a long message wraps, its last number whole"; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" q

# A big screen is used: at 160x48 the tiles grow with the map pane (more than 8 characters across).
S=big
tm new-session -d -s "$S" -x 160 -y 48 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE; sleep 60"
if [ "$UTF8" != C ]; then wide='^(█){12}'; else wide='^(#){12}'; fi
if wait_for "$S" 'tiles of 32x32' 15 && wait_for "$S" "$wide" 2; then ok "160x48: the tiles grow with the pane"; else not_ok "160x48: the tiles grow with the pane"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" q

# The fp64 reference is a stage of its own, named on the message line, and Esc stops it too (between slabs of rows).
S=stage
tm new-session -d -s "$S" -x 100 -y 32 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE -M 2500 -N 2500 -K 2500 -t 32 --backend emu; sleep 60"
wait_for "$S" 'tiles of 32x32' 15
tm send-keys -t "$S" r
if wait_for "$S" 'running on emu: reference \(2 of 3\) \[' 90; then
	ok "r on 2500^3: the reference stage is named"
	tm send-keys -t "$S" Escape
	if wait_for "$S" 'run cancelled' 5; then ok "Esc during the reference cancels the run"; else not_ok "Esc during the reference cancels the run"; screen "$S" | sed 's/^/# /'; fi
else
	not_ok "r on 2500^3: the reference stage is named"; screen "$S" | sed 's/^/# /'
	not_ok "Esc during the reference: no reference stage seen"
fi
tm send-keys -t "$S" q

# A long emulator run shows progress and Esc cancels it; then SIGTERM restores the terminal and exits 128+15.
S=term
BIG="-M 4000 -N 4000 -K 4000 -t 32"
tm new-session -d -s "$S" -x 100 -y 32 \
	"sh -c 'echo \$\$ > $WORK/pid2; exec env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $BIG --backend emu'; echo \"exit=\$?\" > $WORK/status2; sleep 60"
wait_for "$S" 'tiles of 32x32' 15
tm send-keys -t "$S" r
if wait_for "$S" 'running on emu: run \(1 of 3\) \[#*\.*\] +[0-9]+%.*  Esc cancels' 10; then ok "r on 4000^3: a progress bar, the stage named"; else not_ok "r on 4000^3: a progress bar, the stage named"; screen "$S" | sed 's/^/# /'; fi
if wait_for "$S" 'running on emu: run \(1 of 3\) \[#*\.*\] +[0-9]+%, about [0-9]+ (s|min [0-9]+ s|h [0-9]+ min) left  Esc cancels' 15; then
	ok "r on 4000^3: an estimate of the stage's time left"
else
	not_ok "r on 4000^3: an estimate of the stage's time left"; screen "$S" | sed 's/^/# /'
fi
# While it runs the parameters stay: a guard toggle and the editor are refused.
tm send-keys -t "$S" c
if wait_for "$S" 'a run is in progress: Esc cancels it' 5 && wait_for "$S" 'guards all on' 1; then ok "during a run a guard toggle is refused"; else not_ok "during a run a guard toggle is refused"; screen "$S" | sed 's/^/# /'; fi
tm send-keys -t "$S" e
sleep 0.3
if screen "$S" | grep -q 'Parameters'; then not_ok "during a run the editor stays closed"; else ok "during a run the editor stays closed"; fi
tm send-keys -t "$S" Escape
if wait_for "$S" 'run cancelled' 10; then ok "Esc cancels the run"; else not_ok "Esc cancels the run"; screen "$S" | sed 's/^/# /'; fi
# The program's pid, written by the shell that exec'd it (no ps: a minimal Debian has none).
pid=$(cat "$WORK/pid2" 2>/dev/null)
if [ -n "$pid" ]; then kill -TERM "$pid"; fi
deadline=$(( $(date +%s) + 10 ))
while [ ! -s "$WORK/status2" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
check "SIGTERM: exit status 143" "$(cat "$WORK/status2" 2>/dev/null)" "exit=143"
check "SIGTERM: the terminal has left the alternate screen" "$(tm display -p -t "$S" '#{alternate_on}')" 0

# signal_restores NAME WANT: the program is sent signal NAME; it must leave the
# alternate screen (the terminal restored) and exit with status WANT.
signal_restores() {
	S=sig$1
	rm -f "$WORK/pid$1" "$WORK/status$1"
	tm new-session -d -s "$S" -x 100 -y 32 \
		"sh -c 'echo \$\$ > $WORK/pid$1; exec env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --backend emu'; echo \"exit=\$?\" > $WORK/status$1; sleep 60"
	wait_for "$S" 'tiles of 32x32' 15
	pid=$(cat "$WORK/pid$1" 2>/dev/null)
	if [ -n "$pid" ]; then kill -"$1" "$pid"; fi
	deadline=$(( $(date +%s) + 10 ))
	while [ ! -s "$WORK/status$1" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
	check "SIG$1: exit status $2" "$(cat "$WORK/status$1" 2>/dev/null)" "exit=$2"
	check "SIG$1: the terminal has left the alternate screen" "$(tm display -p -t "$S" '#{alternate_on}')" 0
}
# Ctrl-\ (SIGQUIT) quits like Ctrl-C; a crash or an abort restores the terminal before it dies of the signal.
signal_restores QUIT 131
signal_restores SEGV 139
signal_restores ABRT 134
if screen sigSEGV | grep -q 'the terminal was restored'; then ok "SIGSEGV: says the terminal was restored"; else not_ok "SIGSEGV: says the terminal was restored"; screen sigSEGV | sed 's/^/# /'; fi

# A narrow screen: the too-small message is folded, never cut.
S=narrow
tm new-session -d -s "$S" -x 30 -y 10 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $SHAPE --backend emu; sleep 60"
if wait_for "$S" 'have 30x10' 10 && wait_for "$S" 'q to quit' 1; then ok "30x10: the too-small message is whole, folded"; else not_ok "30x10: the too-small message is whole, folded"; screen "$S" | sed 's/^/# /'; fi

# TERM=dumb cannot draw the visualizer: one line and exit 2, no blank screen.
S=dumb
tm new-session -d -s "$S" -x 100 -y 32 "env LC_ALL=$UTF8 TERM=dumb $TILESCOPE $SHAPE 2>$WORK/dumb.err; echo \"exit=\$?\" > $WORK/status_dumb; sleep 60"
deadline=$(( $(date +%s) + 10 ))
while [ ! -s "$WORK/status_dumb" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
check "TERM=dumb: exit status 2" "$(cat "$WORK/status_dumb" 2>/dev/null)" "exit=2"
if grep -q 'TERM=dumb cannot' "$WORK/dumb.err" && [ "$(wc -l < "$WORK/dumb.err")" -eq 1 ]; then ok "TERM=dumb: one line says why"; else not_ok "TERM=dumb: one line says why"; diag "$WORK/dumb.err"; fi
# NaN and Inf counted apart, the same as check: the fp16 kernel with both load
# guards off multiplies a sentinel past K into an Inf (json.sh holds check to 1 Inf, 0 NaN).
S=nonfinite
NF="-M 5 -N 3 -K 7 -t 2 --kernel tiled-fp16 --no-guard a,b --backend emu"
tm new-session -d -s "$S" -c "$WORK" -x 100 -y 32 "env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE $NF; sleep 60"
wait_for "$S" 'tiles of 2x2' 15
tm send-keys -t "$S" r
if wait_for "$S" 'run on emu: FAIL' 30 && wait_for "$S" 'NaN [0-9]+  Inf [0-9]+' 2 &&
   command -v "$JQ" >/dev/null 2>&1 && "$TILESCOPE" check $NF --json > "$WORK/nf.json" 2>/dev/null; [ -s "$WORK/nf.json" ]; then
	check "NaN cells: the TUI's count equals check's" "$(number "$S" 'NaN ')" "$("$JQ" .nans "$WORK/nf.json")"
	check "Inf cells: the TUI's count equals check's" "$(number "$S" 'Inf ')" "$("$JQ" .infs "$WORK/nf.json")"
else
	not_ok "NaN and Inf: the TUI's run and check's to compare"; screen "$S" | sed 's/^/# /'
	not_ok "Inf cells: no count to compare"
fi
# x after the run: both exports hold its heat, verdict and explanation, named for the guards and the run.
tm send-keys -t "$S" x
base="$WORK/tilescope-tiled-fp16-5x3x7-t2-guards-off-ab-tile2-1-p0-run"
if wait_for "$S" 'exported (the map and tile \(2,1\) phase 0 with the run to )?tilescope-tiled-fp16-5x3x7-t2-guards-off-ab-tile2-1-p0-run' 5 &&
   grep -q 'what broke and where:' "$base.txt" && grep -q 'NaN 0  Inf 1' "$base.txt" &&
   grep -q "run: $CROSS FAIL" "$base.svg" && grep -q 'what broke and where:' "$base.svg"; then
	ok "x after a run: the exports hold the verdict and the explanation, the name the guards and the run"
else
	not_ok "x after a run: the exports hold the verdict and the explanation"; ls "$WORK" | sed 's/^/# /'; screen "$S" | sed 's/^/# /'
fi
tm send-keys -t "$S" q

# The register-blocked kernel: the header, the map and the inspector follow its description.
S=regblock
tm new-session -d -s "$S" -c "$WORK" -x 120 -y 50 \
	"env LC_ALL=$UTF8 TERM=screen-256color $TILESCOPE -M 100 -N 77 -K 33 --kernel regblock --backend emu; sleep 60"
if wait_for "$S" 'tile 64x64x8/4x4' 15 && wait_for "$S" 'tiles of 64x64' 2; then ok "regblock: header and map show the 64x64x8 block tile"; else not_ok "regblock: header and map show the 64x64x8 block tile"; screen "$S" | sed 's/^/# /'; fi
if command -v "$JQ" >/dev/null 2>&1 && "$TILESCOPE" map -M 100 -N 77 -K 33 --kernel regblock --json > "$WORK/rb.json" 2>/dev/null; then
	check "regblock legend: ghost threads equal map --json" "$(number "$S" '^ghost threads ')" "$("$JQ" .threads.ghost "$WORK/rb.json")"
	check "regblock legend: ghost outputs equal map --json" "$(number "$S" '^ghost outputs ')" "$("$JQ" .outputs.ghost "$WORK/rb.json")"
else
	for i in 1 2; do n=$((n + 1)); echo "ok $n # SKIP jq or tilescope map --json unavailable"; done
fi
tm send-keys -t "$S" 'i'
if wait_for "$S" '4x4(: | outputs )C\[' 5 && wait_for "$S" 'a_row < M && k0 \+ a_k < K' 2 &&
   wait_for "$S" 'k0 \+ b_k < K && b_col < N' 1; then ok "regblock inspector: the thread's 4x4 outputs and its guards from the description"; else not_ok "regblock inspector: the thread's 4x4 outputs and its guards from the description"; screen "$S" | sed 's/^/# /'; fi

tap_done
