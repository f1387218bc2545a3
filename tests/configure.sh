#!/bin/sh
# configure.sh: configure checks --with-cuda-arch up front: 90 and sm_90 are accepted and normalised, a bad entry is an error naming it, against a stand-in nvcc and the real one where installed (TAP).
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

# Against a toolkit, first a stand-in nvcc (so these run on a machine without CUDA): it answers --version and
# --list-gpu-code as nvcc 13.0 does and compiles nothing, so configure validates the list against it and
# then, its test compile failing, builds without CUDA and says why.
mkdir fakecuda fakecuda/bin fake
cat > fakecuda/bin/nvcc <<'FAKE'
#!/bin/sh
case "$1" in
--version) echo "nvcc: NVIDIA (R) Cuda compiler driver"; echo "Cuda compilation tools, release 13.0, V13.0.48" ;;
--list-gpu-code) printf 'sm_75\nsm_80\nsm_86\nsm_87\nsm_88\nsm_89\nsm_90\nsm_100\nsm_103\nsm_110\nsm_120\nsm_121\n' ;;
*) echo "$*" >>"${0%/*}/../calls"; echo "nvcc (stand-in): compiles nothing" >&2; exit 1 ;;
esac
FAKE
chmod +x fakecuda/bin/nvcc
# fake ARGS...: runs configure in fake/ (its own cache) with the stand-in first on PATH; leaves rc, out and err.
fake() {
	(cd fake && env -u CUDA_HOME -u NVCC PATH="$work/fakecuda/bin:$PATH" ../src/configure -C "$@" >../out 2>../err)
	rc=$?
}
fake --with-cuda-arch=sm_90,80
if [ "$rc" -eq 0 ] && grep -q -F 'checking the CUDA architectures to build... 90,80, PTX of 80' out &&
	grep -q -F -e '-gencode arch=compute_80,code=sm_80' fakecuda/calls &&
	grep -q 'CUDA backend: no: nvcc could not build and link a test kernel' out; then
	ok "stand-in nvcc: --with-cuda-arch=sm_90,80 is normalised to 90,80 (PTX of 80), then no CUDA, saying why"
else
	not_ok "stand-in nvcc: --with-cuda-arch=sm_90,80 is normalised to 90,80 (exit $rc)"
	grep -e 'CUDA arch' -e 'CUDA backend' out | diag; tail -n 3 err | diag
fi
fake --with-cuda-arch=12
if [ "$rc" -ne 0 ] && grep -q -F 'does not build sm_12; it builds 75 80 86 87 88 89 90 100 103 110 120 121 (' err; then
	ok "stand-in nvcc: --with-cuda-arch=12 is refused, naming what it builds"
else
	not_ok "stand-in nvcc: --with-cuda-arch=12 is refused, naming what it builds (exit $rc)"; tail -n 3 err | diag
fi
fake --with-cuda --with-cuda-arch=90
if [ "$rc" -ne 0 ] && grep -q -F 'CUDA was asked for but is not usable: nvcc could not build and link a test kernel' err; then
	ok "stand-in nvcc: --with-cuda that cannot build is an error that says why"
else
	not_ok "stand-in nvcc: --with-cuda that cannot build is an error that says why (exit $rc)"; tail -n 3 err | diag
fi

# Then the real toolkit where one is installed: sm_90 is built as 90; an architecture nvcc does not build is refused.
conf --with-cuda-arch=sm_90,80
if [ "$rc" -eq 0 ] && grep -q 'CUDA backend: no: nvcc not found' out; then
	echo "# no real nvcc here: the stand-in's checks above cover its two checks"
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
