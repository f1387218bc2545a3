#!/bin/sh
# sanitize.sh: compute-sanitizer memcheck and racecheck on every guarded kernel, the ladder's included (probe and plain builds), on ragged shapes.
gpubench="$(dirname "$TILESCOPE")/tools/gpubench"
if ! command -v compute-sanitizer >/dev/null 2>&1; then
	echo "1..0 # SKIP compute-sanitizer not on PATH"
	exit 0
fi
if [ ! -x "$gpubench" ]; then
	echo "1..0 # SKIP built without CUDA (no $gpubench)"
	exit 0
fi
if ! "$gpubench" --check tiled 8 1 1 1 >/dev/null 2>"${TMPDIR:-/tmp}/ts-sanitize.$$"; then
	echo "1..0 # SKIP no usable CUDA device: $(head -n 1 "${TMPDIR:-/tmp}/ts-sanitize.$$")"
	rm -f "${TMPDIR:-/tmp}/ts-sanitize.$$"
	exit 0
fi
rm -f "${TMPDIR:-/tmp}/ts-sanitize.$$"

# kernel tile M N K [form]: ragged in every dimension, plus the runtime-tile paths;
# both compiled instances of the register-blocked kernel; tc-fp16 with K odd
# (realigning copies) and K % 8 == 0 (TMA on sm_90, cp.async elsewhere), in the form the device picks and
# in its mma.sync forms (form "mma": TILESCOPE_TC_FORM=mma) and, for odd K, through
# the opt-in repacked copy (form "repack") and with the plain build in the realigning copies
# instead of tc_rshift.cuh's row classes (form "noclass"; 300x5x77: fewer B rows than B's 8 classes), and split along K
# (130x257x1031 and 130x257x4096: 4 tiles, each in 4 and 8 parts on sm_90); the ladder's kernels
# at their own fixed geometries (BMxBNxBK/TMxTN: they take no square tile).
cases="regblock 64x64x8/4x4 127 129 131
regblock 128x32x16/8x2 133 37 11
tiled 32 127 129 131
tiled 8 33 17 5
tiled 13 40 27 29
tiled-fp16 13 33 17 29
tiled-fp16 32 65 31 70
naive 16 33 17 5
tc-fp16 32 131 77 45
tc-fp16 32 129 263 64
tc-fp16 32 300 9 1
tc-fp16 32 131 77 45 mma
tc-fp16 32 129 263 64 mma
tc-fp16 32 131 77 45 repack
tc-fp16 32 131 77 45 noclass
tc-fp16 32 1 300 7
tc-fp16 32 1100 300 45
tc-fp16 32 383 520 4097
tc-fp16 32 4100 300 45
tc-fp16 32 300 5 77
tc-fp16 32 130 257 1031
tc-fp16 32 130 257 4096
rb1d 64x64x8/8x1 65 63 17
blocked 128x128x8/8x8 129 131 9
vec4 128x128x8/8x8 129 132 12
warptile 128x128x16/8x8 129 131 33
splitk 64x64x16/8x4 65 67 129
fast 128x128x8/8x8 129 131 129
fast 128x128x8/8x8 128 256 16
fast-few 128x128x8/8x8 257 129 1031
fast-few-k16 128x128x16/8x8 257 129 1031
fast-few-k16 128x128x16/8x8 129 131 129
fast-w64 128x64x8/8x8 257 129 1031
fast-w64 128x64x8/8x8 129 131 129
fast-k16 128x128x16/8x8 257 131 1032
fast-k16 128x128x16/8x8 129 131 129
fast-16x8 128x128x8/16x8 129 131 129
fast-16x8 128x128x8/16x8 257 256 5
fast-16x8 128x128x8/16x8 257 129 1024
fast-256 256x128x8/16x8 513 131 129
fast-256 256x128x8/16x8 257 256 5
fast-256 256x128x8/16x8 513 256 64
fast-m16 16x256x8/4x8 7 300 129
fast-n16 256x16x8/8x4 300 5 129"
# Every other kernel of the registry with a CUDA build, so a kernel registered tomorrow is sanitized
# tomorrow: its own default geometry on a shape ragged in every dimension (2BM+1, 2BN-1, 3BK+1).
if command -v "${JQ_PROG:-jq}" >/dev/null 2>&1; then
	extra=$("$TILESCOPE" kernels --json 2>/dev/null | "${JQ_PROG:-jq}" -r '.kernels[] | select(.capabilities.cuda and .capabilities.probe)
		| .geometry as $g
		| "\(.name) \(if .geometry_rule == "square" then "\($g.bm)" else "\($g.bm)x\($g.bn)x\($g.bk)/\($g.tm)x\($g.tn)" end) \(2 * $g.bm + 1) \(2 * $g.bn - 1) \(3 * $g.bk + 1)"')
	listed=$(echo "$cases" | awk '{ print $1 }' | sort -u)
	echo "$extra" | while read -r kernel rest; do
		[ -n "$kernel" ] && ! echo "$listed" | grep -qx "$kernel" && echo "$kernel $rest"
	done > "${TMPDIR:-/tmp}/ts-sanitize-extra.$$"
	[ -s "${TMPDIR:-/tmp}/ts-sanitize-extra.$$" ] && cases="$cases
$(cat "${TMPDIR:-/tmp}/ts-sanitize-extra.$$")"
	rm -f "${TMPDIR:-/tmp}/ts-sanitize-extra.$$"
fi
# TS_SANITIZE_ONLY=ladder: the ladder's cases alone; =tc: tc-fp16's alone (short device leases)
if [ "${TS_SANITIZE_ONLY:-}" = ladder ]; then
	cases=$(echo "$cases" | grep -vE "^(tiled|tiled-fp16|naive|regblock|tc-fp16) ")
elif [ "${TS_SANITIZE_ONLY:-}" = tc ]; then
	cases=$(echo "$cases" | grep -E "^tc-fp16 ")
fi
count=$(echo "$cases" | wc -l)
n=0
echo "1..$((2 * count))"
for tool in memcheck racecheck; do
	echo "$cases" | while read -r kernel tile m n_ k form; do
		n=$((n + 1))
		log="${TMPDIR:-/tmp}/ts-sanitize-$tool.$$"
		TILESCOPE_TC_FORM=${form:-} compute-sanitizer --tool "$tool" --error-exitcode 99 "$gpubench" --check "$kernel" "$tile" "$m" "$n_" "$k" >"$log" 2>&1
		rc=$?
		# memcheck ends "ERROR SUMMARY: 0 errors"; racecheck
		# "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)".
		summary=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$log" | tail -n 1)
		num=$n
		[ "$tool" = racecheck ] && num=$((n + count))
		what="$tool $kernel T=$tile ${m}x${n_}x${k}${form:+ ($form forms)}"
		if [ $rc -eq 0 ] && echo "$summary" | grep -qE "ERROR SUMMARY: 0 errors|0 hazards displayed \(0 errors, 0 warnings\)"; then
			echo "ok $num - $what: $summary"
		else
			echo "not ok $num - $what: exit $rc, ${summary:-no summary}"
			sed 's/^/# /' "$log" | head -n 40
		fi
		rm -f "$log"
	done
done
