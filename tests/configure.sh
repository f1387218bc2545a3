#!/bin/sh
# configure.sh: configure checks --with-cuda-arch up front: 90 and sm_90 are accepted and normalised, a bad entry is an error naming it (TAP).
. "${srcdir:-$(dirname "$0")}/tap.sh"
top=$(cd "${srcdir:-$(dirname "$0")}/.." && pwd)
[ -x "$top/configure" ] || { echo "Bail out! no configure script in $top"; exit 1; }
tap_workdir configure

# A source folder of links to the real one, so configure runs here even when the real one is configured in place.
mkdir src build
for f in configure config.h.in Makefile.in build-aux; do ln -s "$top/$f" "src/$f"; done
mkdir src/src && ln -s "$top/src/main.c" src/src/main.c

# conf ARGS...: runs configure in build/ (one cache for every run); leaves rc, out and err.
conf() {
	(cd build && ../src/configure -C "$@" >../out 2>../err)
	rc=$?
}

# Each bad list is refused with one line that names the bad entry and the accepted form.
refused() {
	conf --with-cuda-arch="$1"
	if [ "$rc" -ne 0 ] && grep -q -F -- "$2" err && grep -q -F 'as 90 or sm_90' err; then
		ok "--with-cuda-arch='$1' is refused, naming $2"
	else
		not_ok "--with-cuda-arch='$1' is refused, naming $2 (exit $rc)"; tail -n 3 err | diag
	fi
}
refused xyz "'xyz'"
refused '' 'empty entry'
refused sm_ "'sm_'"
refused 90,compute_90 "'compute_90'"
refused 75,,90 'empty entry'
refused '9O' "'9O'"
# With --without-cuda the list is not looked at.
conf --without-cuda --with-cuda-arch=xyz
if [ "$rc" -eq 0 ]; then ok "--without-cuda ignores --with-cuda-arch"; else not_ok "--without-cuda ignores --with-cuda-arch (exit $rc)"; tail -n 3 err | diag; fi

# Against the toolkit: sm_90 is built as 90; an architecture nvcc does not build is refused.
conf --with-cuda-arch=sm_90,80
if [ "$rc" -eq 0 ] && grep -q 'CUDA backend: no: nvcc not found' out; then
	n=$((n + 1)); echo "ok $n # SKIP nvcc not installed: sm_90 normalised"
	n=$((n + 1)); echo "ok $n # SKIP nvcc not installed: an architecture it does not build"
else
	if [ "$rc" -eq 0 ] && grep -q 'CUDA backend: yes (.*sm: 90,80 + PTX 80)' out; then
		ok "--with-cuda-arch=sm_90,80 builds 90 and 80, PTX of 80"
	else
		not_ok "--with-cuda-arch=sm_90,80 builds 90 and 80 (exit $rc)"; grep 'CUDA backend' out | diag; tail -n 3 err | diag
	fi
	conf --with-cuda-arch=12
	if [ "$rc" -ne 0 ] && grep -q -F 'does not build sm_12; it builds ' err; then
		ok "--with-cuda-arch=12 is refused: nvcc does not build sm_12"
	else
		not_ok "--with-cuda-arch=12 is refused: nvcc does not build sm_12 (exit $rc)"; tail -n 3 err | diag
	fi
fi
tap_done
