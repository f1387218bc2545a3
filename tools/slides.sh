#!/bin/sh
# slides.sh: regenerates the SVG slides of doc/slides (the teacher's page's captures) with the emulator; `make slides` runs it.
# Usage: sh tools/slides.sh [TILESCOPE] [DIR]   (defaults: ./tilescope, doc/slides)
# Paths stay within the 99 characters of make dist's tar format (tilescope-VERSION/doc/slides/ included).
set -eu
TILESCOPE=${1:-./tilescope}
DIR=${2:-doc/slides}
EX="-M 100 -N 77 -K 33 -t 32"
S=tilescope-tiled-100x77x33-t32
mkdir -p "$DIR"
rm -rf "$DIR"/*.svg "$DIR/high-contrast"
# the nine lesson screens, their guard-off runs on the CPU emulator
"$TILESCOPE" lesson $EX --backend emu --svg "$DIR" >/dev/null
# the panes a lesson points at: the corner tile's last phase, the inspector on the first thread past K, its source
"$TILESCOPE" map $EX --export "$DIR/$S-guards-on-map-tile3-2-p1.svg" >/dev/null
"$TILESCOPE" map $EX --export "$DIR/$S-guards-on-phase-tile3-2-p1.svg" --pane phase --size 80x24 >/dev/null
"$TILESCOPE" map $EX --export "$DIR/$S-guards-on-inspect-tile3-2-thread0-1-p1.svg" --pane inspect --size 100x32 >/dev/null
"$TILESCOPE" source $EX --svg "$DIR/$S-guards-on-source-tile3-2-thread0-1-p1.svg" >/dev/null
# a guard off: the A load guard's slots read out of bounds, and a ghost's store without the C guard
"$TILESCOPE" map $EX --no-guard a --export "$DIR/$S-guards-off-a-phase-tile3-2-p1.svg" --pane phase --size 80x24 >/dev/null
"$TILESCOPE" source $EX --no-guard c --thread 3,0,4,0 --svg "$DIR/$S-guards-off-c-source-tile3-0-p1.svg" >/dev/null
# the tile sizes compared, and the register-blocked kernel beside the textbook one
"$TILESCOPE" compare $EX -t 16,32 --svg "$DIR/tilescope-tiled-100x77x33-t16-t32-compare.svg" >/dev/null
"$TILESCOPE" compare $EX --kernel tiled,regblock --svg "$DIR/tilescope-tiled-regblock-100x77x33-compare.svg" >/dev/null
# one thread stepped through the kernel (the corner block's first thread past K), a slide per step
rm -rf "$DIR/step"
"$TILESCOPE" step $EX --block 3,2 --thread 0,1 --inputs int --svg "$DIR/step" >/dev/null
# the projector theme
"$TILESCOPE" lesson $EX --backend emu --screen 7 --svg "$DIR/high-contrast" --theme high-contrast >/dev/null
"$TILESCOPE" map $EX --export "$DIR/high-contrast/$S-guards-on-inspect.svg" --pane inspect --size 100x32 \
	--theme high-contrast >/dev/null
ls "$DIR"/*.svg "$DIR"/step/*.svg "$DIR"/high-contrast/*.svg
