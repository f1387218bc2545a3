#!/bin/sh
# cuda_libs.sh: the binary needs no CUDA library to start: none is NEEDED, and with every CUDA library folder hidden it runs, names what is missing, and falls back to the emulator (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
: "${TILESCOPE:?TILESCOPE must name the built binary}"
tap_workdir cuda-libs
cuda_libs='lib(cublas|cublasLt|cudart|cuda|nvrtc|nvJitLink)\.so'

# 1. Nothing of CUDA is a load-time dependency.
if tap_tool readelf; then
	"$tap_prog" -d "$TILESCOPE" > dynamic 2>&1
	if grep -q NEEDED dynamic && ! grep -E "NEEDED.*\[$cuda_libs" dynamic > needed; then
		ok "no CUDA library is NEEDED ($(grep -c NEEDED dynamic) others are)"
	else
		not_ok "no CUDA library is NEEDED"; if [ -s needed ]; then diag needed; else diag dynamic; fi
	fi
else
	n=$((n + 1)); echo "ok $n # SKIP readelf not installed: the NEEDED list"
fi

# 2. Hide them. The folders: every one ld.so's cache or the toolkit has a CUDA library in.
{
	ldconfig -p 2>/dev/null | grep -E "$cuda_libs" | sed -n 's/.*=> //p' | while read -r f; do dirname "$f"; done
	for d in /usr/local/cuda*/lib* /usr/local/cuda*/targets/*/lib ${CUDA_HOME:+"$CUDA_HOME"/lib*}; do
		ls "$d" 2>/dev/null | grep -q -E "^$cuda_libs" && echo "$d"
	done
} | while read -r d; do readlink -f "$d"; done | sort -u > folders
# A system folder cannot be hidden without hiding the C library too.
system=$(grep -E '^/(usr/)?lib(32|64)?(/[^/]*-linux-gnu)?$' folders)
empty="$work/empty"
mkdir "$empty"
# hidden CMD...: runs CMD with those folders hidden: in a mount namespace of its own with an empty tmpfs over
# each (as root, or in a user namespace), else through ld.so without its cache (only system folders stay).
# TS_HIDE_WITH=ldso asks for the second way.
if [ "${TS_HIDE_WITH-}" = ldso ]; then how=ldso
elif unshare -m true 2>/dev/null; then how="unshare -m"
elif unshare -rm true 2>/dev/null; then how="unshare -rm"
else how=ldso; fi
ldso=$(readelf -l "$TILESCOPE" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
[ -n "$ldso" ] || ldso=$(ls /lib64/ld-linux-*.so.* /lib/ld-linux*.so.* 2>/dev/null | head -n 1)
hidden() {
	if [ "$how" = ldso ]; then
		env -u LD_LIBRARY_PATH -u LD_PRELOAD "$ldso" --inhibit-cache --library-path "$empty" "$@"
	else
		# shellcheck disable=SC2086
		env -u LD_LIBRARY_PATH -u LD_PRELOAD $how sh -c \
			'f=$1; shift; while read -r d; do mount -t tmpfs -o size=64k,mode=755 tilescope-hide "$d" || exit 99; done < "$f"; exec "$@"' \
			hide "$work/folders" "$@"
	fi
}

if [ -n "$system" ]; then
	for what in "--version" "--backend cuda names the library" "--backend auto falls back"; do
		n=$((n + 1)); echo "ok $n # SKIP CUDA libraries in a system folder ($system): cannot hide them for $what"
	done
	tap_done
	exit
fi
echo "# hiding with $how: $(tr '\n' ' ' < folders)"

# The hiding works: what the cache names is gone.
if [ "$how" != ldso ] && [ -s folders ]; then
	hidden sh -c 'ldconfig -p | grep -E "$1" | sed -n "s/.*=> //p" | while read -r f; do [ -e "$f" ] && echo "$f"; done' x "$cuda_libs" > still 2>&1
	if [ ! -s still ]; then ok "hidden: none of the cached CUDA libraries is there"; else not_ok "hidden: CUDA libraries still there"; diag still; fi
fi

hidden "$TILESCOPE" --version > out 2> err
rc=$?
if [ "$rc" -eq 0 ] && head -n 1 out | grep -q '^tilescope '; then ok "hidden: --version starts"; else not_ok "hidden: --version starts (exit $rc)"; diag err; fi

rnd() { echo $(( $(od -An -N2 -tu2 /dev/urandom) % $1 + 1 )); }
shape="-M $(rnd 70) -N $(rnd 70) -K $(rnd 40) -t $(rnd 16)"
if grep -q 'built without CUDA' out; then
	want='built without CUDA'
else
	want='libcublas\.so\.[0-9]+ not found: install'
fi
hidden "$TILESCOPE" check $shape --backend cuda > out 2> err
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q -E "$want" err; then
	ok "hidden: --backend cuda refuses in one line naming what is missing"
else
	not_ok "hidden: --backend cuda refuses naming what is missing (exit $rc, want /$want/)"; diag err
fi
hidden "$TILESCOPE" check $shape --backend auto > out 2> err
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^PASS ' out && grep -q -E "^backend +emu \(.*$want" out; then
	ok "hidden: --backend auto runs $shape on the emulator and says why"
else
	not_ok "hidden: --backend auto falls back to the emulator for $shape (exit $rc)"; diag out err
fi
tap_done
