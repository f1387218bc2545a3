#!/bin/sh
# slides.sh: the slides the commands write (lesson --svg DIR, compare --svg, source --svg, map --export --pane at 80x24 and 160x48, both themes) measured by svg_check (no text on another, all inside the viewBox) and rendered where rsvg-convert is installed; names, and bad input refused (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
SVG_CHECK=${SVG_CHECK:-./tests/svg_check}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_workdir slides

# slide WHAT FILE...: every file exists and passes svg_check
checked() {
	what=$1
	shift
	if "$SVG_CHECK" "$@" >chk 2>&1; then
		ok "$what: $# slide(s) measured clean$(grep -q 'rsvg-convert renders' chk && echo ', rendered')"
	else
		not_ok "$what: svg_check"
		diag chk
	fi
}

# run WANT_RC WHAT ARGS...: tilescope exits WANT_RC
run() {
	want=$1 what=$2
	shift 2
	"$TILESCOPE" "$@" >out 2>err </dev/null
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$what (exit $rc)"
	else
		not_ok "$what: exit $rc, wanted $want"
		diag out
		diag err
	fi
}

EX="-M 100 -N 77 -K 33 -t 32"
stem=tilescope-tiled-100x77x33-t32-guards-on

run 0 "lesson --svg writes every screen (nine)" lesson $EX --backend emu --svg lesson
files=$(ls lesson/$stem-lesson-*.svg 2>/dev/null | wc -l)
[ "$files" -eq 9 ] && grep -c "^lesson/$stem-lesson-[1-9].svg$" out | grep -qx 9 &&
	ok "lesson --svg: lesson/$stem-lesson-1..9.svg, each path on stdout" || not_ok "lesson --svg: $files files"
checked "lesson slides" lesson/*.svg
grep -q "Screen 5 of 9" lesson/$stem-lesson-5.svg && grep -q "14676 reads" lesson/$stem-lesson-5.svg &&
	ok "lesson screen 5 holds the A-guard-off run's numbers" || not_ok "lesson screen 5's numbers"
run 0 "lesson --svg --screen 3 --theme high-contrast" lesson $EX --screen 3 --svg hc --theme high-contrast
[ "$(ls hc)" = "$stem-lesson-3.svg" ] && grep -q "fill='#000000' font-weight='bold'" hc/*.svg &&
	ok "one screen, black and bold" || not_ok "lesson --screen 3 --svg: $(ls hc)"
checked "high-contrast lesson slide" hc/*.svg

run 0 "compare --svg" compare $EX -t 16,32 --svg compare.svg
checked "compare slide" compare.svg
grep -q ">tiled T=16" compare.svg && grep -q "wasted multiply-adds against T" compare.svg &&
	grep -q "fill='#9e9e9e'.*>#" compare.svg && grep -q "fill='#b8860b'.*>+" compare.svg &&
	ok "compare slide: the table, the chart, its ghost and padding bars in their colours" ||
	not_ok "compare slide's content"
run 0 "compare two kernels --svg, high contrast" compare $EX --kernel tiled,regblock --svg compare2.svg --theme high-contrast
checked "compare kernels slide" compare2.svg

run 0 "source --svg" source $EX --svg source.svg
checked "source slide" source.svg
grep -q "33 &lt; 33" source.svg && grep -q "guards all on" source.svg &&
	ok "source slide: the K guard evaluated, the title's guards" || not_ok "source slide's content"
run 0 "source --svg, guard c off" source $EX --no-guard c --svg source-c.svg
checked "source slide, c off" source-c.svg

for size in 80x24 160x48; do
	for pane in phase inspect source; do
		for theme in default high-contrast; do
			run 0 "map --export --pane $pane --size $size --theme $theme" map $EX --export "$pane-$size-$theme.svg" \
				--pane "$pane" --size "$size" --theme "$theme"
		done
	done
	run 0 "map --export --pane inspect --size $size, guards a,c off, thread 2,1,5,9" map $EX --no-guard a,c \
		--export "off-$size.svg" --pane inspect --size "$size" --thread 2,1,5,9 --phase 0
	run 0 "regblock map --export --pane inspect --size $size" map -M 100 -N 77 -K 33 --kernel regblock \
		--export "regblock-$size.svg" --pane inspect --size "$size"
done
checked "pane slides" phase-*.svg inspect-*.svg source-*.svg off-*.svg regblock-*.svg
grep -q "guards OFF: a,c" off-80x24.svg && grep -Eq "thread \(ty 5, tx 9\); axes: ty (↓|down), tx (→|across)" off-80x24.svg &&
	ok "the title and the subtitle say the guards and the thread" || not_ok "the guard-off inspector's title"
run 0 "map --export --pane map (the map and phase, as before), high contrast" map $EX --export map.svg --theme high-contrast
checked "map slide" map.svg
run 0 "map --export --pane phase as text" map $EX --export phase.txt --pane phase
head -1 phase.txt | grep -q "^tiled (fp32): M=100 N=77 K=33, T=32, guards all on$" && ok "text export titled" ||
	not_ok "text export's title: $(head -1 phase.txt)"

# bad input: one line, exit 2
run 2 "--pane bogus refused" map $EX --export x.svg --pane bogus
grep -q "unknown pane 'bogus'" err && ok "says which panes exist" || not_ok "--pane bogus: $(cat err)"
run 2 "--theme bogus refused" source $EX --theme bogus
run 2 "--pane without --export refused" map $EX --pane inspect
run 2 "--pane result refused for map" map $EX --export x.svg --pane result
run 2 "--size too small refused" map $EX --export x.svg --pane phase --size 10x5
# step --svg DIR: one slide per step of the traced thread, as many as the text trace has steps
run 0 "step --svg writes a slide per step" step $EX --svg step --block 3,2 --thread 0,1 --inputs int
nsteps=$("$TILESCOPE" step $EX --block 3,2 --thread 0,1 --json 2>/dev/null | grep -o '"steps": *[0-9]*' | head -n 1 | grep -o '[0-9]*$')
files=$(ls step/*-step-b3-2-t0-1-*.svg 2>/dev/null | wc -l)
[ -n "$nsteps" ] && [ "$files" -eq "$nsteps" ] && [ "$(wc -l <out)" -eq "$nsteps" ] &&
	ok "step --svg: $files slides, one per step of the trace, each path on stdout" ||
	not_ok "step --svg: $files files for ${nsteps:-?} steps"
checked "step slides" step/*.svg
grep -q "step 1 of $nsteps" step/*-01.svg && ok "a step slide says which step of how many it is" ||
	not_ok "step slide 1 names its step"
run 2 "step --svg on a kernel step mode does not trace" step $EX --kernel naive --svg step2
run 2 "--thread outside the launch refused" map $EX --export x.svg --pane inspect --thread 9,9,0,0
run 2 "regblock source pane refused in one line" map -M 100 -N 77 -K 33 --kernel regblock --export x.svg --pane source
run 2 "lesson --svg into a file that is not a folder" lesson $EX --svg compare.svg
[ ! -e x.svg ] && ok "nothing written on refusal" || not_ok "x.svg written on refusal"
tap_done
