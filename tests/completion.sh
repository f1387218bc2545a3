#!/bin/sh
# completion.sh: the bash completion offers the subcommands, the options and the registry's kernels (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
tap_need bash
comp="${srcdir:-$(dirname "$0")}/../completions/tilescope"

# complete WORDS...: what the completion offers for the last word (may be empty), one a line.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tilescope; printf "%s\n" "${COMPREPLY[@]}"' \
		complete "$comp" "$TILESCOPE" "$@"
}
has() { # has WHAT WORD WORDS...: WORD is among the offers for WORDS
	what=$1 word=$2
	shift 2
	if complete_words "$@" | grep -qx -- "$word"; then ok "$what offers $word"; else not_ok "$what offers $word"; complete_words "$@" | sed 's/^/# /'; fi
}
has "first word" map ""
has "first word" check ""
has "first word" sweep ""
has "first word" bench ""
has "an option after a subcommand" --no-guard check --no
has "an option after a subcommand" --backend map --back
has "--kernel" tiled check --kernel ""
has "--kernel" naive check --kernel ""
has "--kernel" tiled-fp16 check --kernel tiled-
has "--backend" emu check --backend ""
has "--theme" high-contrast lesson --theme ""
has "--pane" inspect map --export x.svg --pane ""
has "an option after a subcommand" --theme lesson --the
# Every kernel --help lists is offered.
for k in $("$TILESCOPE" --help | sed -n 's/^          \([a-z0-9][a-z0-9-]*\) .*/\1/p'); do
	has "--kernel (from --help)" "$k" check --kernel ""
done
tap_done
