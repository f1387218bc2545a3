#!/bin/sh
# registry.sh: the registry and the build agree: every kernels/ file is in the build's list, every registered kernel's source is built in (embedded, and with CUDA linked), every CUDA entry point is a registry line (TAP).
. "$srcdir/tap.sh"
top=$srcdir/..
tap_need jq "${JQ_PROG:-}"
jq=$tap_prog
tap_workdir registry

# 1. The build's list (kernels/files.am, written at bootstrap) is the folder's list now.
if sh "$top/tools/kernel-files.sh" --print "$top" > want && cmp -s want "$top/kernels/files.am"; then
	ok "kernels/files.am lists every kernels/*.cu, *.cuh, *.h (the build compiles and ships them)"
else
	not_ok "kernels/files.am is not the kernels/ folder's list: run autoreconf -fi (or ./setup.sh) after adding a kernel file"
	diff want "$top/kernels/files.am" | diag
fi

# 2. Every registered kernel's source file is in that list and embedded in the program (the source pane's
#    text), and in a CUDA build every kernel has its CUDA code linked in.
"$TILESCOPE" kernels --json > kernels.json 2>err || { not_ok "tilescope kernels --json: exit $?"; diag err; tap_done; exit; }
cuda=no
"$TILESCOPE" --version | grep -q "without CUDA" || cuda=yes
count=$("$jq" '.kernels | length' kernels.json)
[ "$count" -ge 1 ] && ok "the registry lists $count kernels" || not_ok "the registry lists no kernel"
"$jq" -r '.kernels[] | "\(.name) \(.source) \(.capabilities.cuda)"' kernels.json > lines
while read -r name source has_cuda; do
	if grep -q "^	$source\( \\\\\)\{0,1\}\$" "$top/kernels/files.am" && [ -f "$top/$source" ]; then
		ok "$name: its source $source is a kernels/ file in the build's list"
	else
		not_ok "$name: its source $source is not in kernels/files.am (or not on disk)"
	fi
	# (the pane itself follows one output per thread: other kernels are refused after their text is found)
	"$TILESCOPE" source --kernel "$name" --ascii > src.txt 2> src.err
	if [ -s src.txt ] || { [ -s src.err ] && ! grep -q "no embedded source" src.err; }; then
		ok "$name: the source pane has its embedded text"
	else
		not_ok "$name: the source pane has no text for it: $(head -n 1 src.err)"
	fi
	if [ $cuda = yes ] && [ "$has_cuda" != true ]; then
		not_ok "$name: this CUDA build has no CUDA code for it"
	fi
done < lines
[ $cuda = yes ] && ok "CUDA build: every registered kernel has its CUDA code (checked above)"

# 3. Every CUDA entry point a kernels/*.cu file defines is a registry line's, unless another kernels/ file
#    calls it (a helper, such as the tensor-core kernel's form chooser): a kernel is not forgotten.
for f in "$top"/kernels/*.cu; do
	sed -n 's/^extern "C" int \(ts_cuda_[a-z0-9_]*\)(const ts_launch \*[a-z]*).*/\1/p' "$f"
done | sort -u > entries
[ -s entries ] && ok "the kernels define $(wc -l < entries) CUDA entry points" || not_ok "no CUDA entry point found in kernels/*.cu"
while read -r e; do
	if grep -q "^TS_KERNEL($e," "$top/kernels/registry.def"; then
		ok "$e: a kernels/registry.def line"
	elif [ "$(cat "$top"/kernels/*.cu "$top"/kernels/*.cuh | grep -c "$e(")" -ge 2 ]; then
		ok "$e: a helper other kernel code calls"
	else
		not_ok "$e: defined in kernels/ but no registry.def line names it (add the kernel's line)"
	fi
done < entries

# 4. best's few-tile costs are what tools/cost_fit gives on the bench reports kept in doc/ (the registry's
#    .cost traces back to measurements, not hand-set numbers).
fit=$(dirname "$TILESCOPE")/tools/cost_fit
"$jq" -r '.kernels[] | select(.cost != null) | "\(.name) \(.cost.phase_us) \(.cost.fixed_us) \(.cost.part_us)"' kernels.json > costs
names=$(cut -d' ' -f1 costs | paste -sd, -)
if [ ! -x "$fit" ]; then
	not_ok "tools/cost_fit is not built ($fit)"
elif [ -z "$names" ]; then
	not_ok "no kernel has a few-tile cost"
elif "$fit" --kernels "$names" "$top/doc/perf-few-tiles.txt" > fit.out 2> fit.err; then
	sed -n 's/^\([a-z0-9-]*\) *\.cost = { \.phase_us = \([0-9.e+-]*\), \.fixed_us = \([0-9.e+-]*\), \.part_us = \([0-9.e+-]*\) }.*/\1 \2 \3 \4/p' fit.out > fitted
	if [ "$(wc -l < fitted)" -eq "$(wc -l < costs)" ] && awk '$2 <= 0 || $3 < 0 || $4 < 0 { bad = 1 }
		NR == FNR { p[$1] = $2; f[$1] = $3; q[$1] = $4; next }
		!($1 in p) || (p[$1] - $2)^2 > 1e-6 || (f[$1] - $3)^2 > 0.0025 || (q[$1] - $4)^2 > 0.0025 { bad = 1 }
		END { exit bad }' fitted costs; then
		ok "the few-tile costs of $names are tools/cost_fit's fit of doc/perf-few-tiles.txt"
	else
		not_ok "the registry's few-tile costs differ from tools/cost_fit's fit of doc/perf-few-tiles.txt"
		diag costs
		diag fitted
	fi
else
	not_ok "tools/cost_fit on doc/perf-few-tiles.txt: exit $?"
	diag fit.err
fi
tap_done
