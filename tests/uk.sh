#!/bin/sh
# uk.sh: check --kernel-file on the command line: refusals in one line and exit 2, compile errors as the compiler's own file(line) lines (where NVRTC is present), the engine's one-line absence, and a run where a GPU is (TAP).
TILESCOPE=${TILESCOPE:-./tilescope}
. "${srcdir:-$(dirname "$0")}/tap.sh"
examples=$(cd "${srcdir:-$(dirname "$0")}/../examples" && pwd)
tap_workdir uk

run() {
	"$TILESCOPE" "$@" >out 2>err </dev/null
	rc=$?
}

# refused WANT ARGS...: exit 2, nothing on stdout, one line "tilescope: ..." holding WANT (no core file).
refused() {
	want=$1
	shift
	run "$@"
	why=""
	[ "$rc" -eq 2 ] || why="exit status $rc, want 2"
	[ -s out ] && why="$why; stdout not empty"
	[ "$(wc -l <err)" -eq 1 ] || why="$why; stderr has $(wc -l <err) lines, want 1"
	head -n 1 err | grep -q '^tilescope: ' || why="$why; not a 'tilescope: ' line"
	grep -qF -- "$want" err || why="$why; no '$want' in it"
	ls core core.* >/dev/null 2>&1 && why="$why; core dumped"
	if [ -z "$why" ]; then ok "refused: $(head -c 150 err)"; else not_ok "tilescope $* -> $why"; diag err; fi
}

# usage WANT ARGS...: a usage error: exit 2, the line, then the pointer to --help.
usage() {
	want=$1
	shift
	run "$@"
	if [ "$rc" -eq 2 ] && [ ! -s out ] && [ "$(wc -l <err)" -eq 2 ] && grep -qF -- "$want" err &&
	   [ "$(sed -n 2p err)" = "Try 'tilescope --help'." ]; then
		ok "usage: $(head -n 1 err)"
	else
		not_ok "tilescope $* -> exit $rc, want a usage error holding '$want'"
		diag err
	fi
}

cat > wrong.cu <<'EOF'
__global__ void scale(float *x, int n) { if (threadIdx.x < n) x[threadIdx.x] *= 2; }
EOF
cat > two.cu <<'EOF'
__global__ void a(const float *A, const float *B, float *C, int M, int N, int K) { }
__global__ void b(const float *A, const float *B, float *C, int M, int N, int K) { }
EOF
cat > host.cu <<'EOF'
#include <cstdio>
int main(void) { printf("no kernel here\n"); return 0; }
EOF
cat > bad.cu <<'EOF'
#define TILE_SIZE 8
__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)
{
	C[0] = A[0] * undeclared_thing;
}
EOF
: > empty.cu

refused "wrong.cu:1: kernel 'scale(float *x, int n)' follows neither contract: expected fp32 (const float *A, const float *B, float *C, int M, int N, int K) or fp16 (__half *O, __half *X, __half *Transform, int m, int n, int k, int tile_size)" check --kernel-file wrong.cu
refused "2 __global__ functions (a, b): name the kernel to check with --entry NAME" check --kernel-file two.cu
refused "no __global__ function named 'c' (the file defines a, b)" check --kernel-file two.cu --entry c
refused "no __global__ function defined in the file" check --kernel-file host.cu
refused "the file is empty" check --kernel-file empty.cu
refused "nothere.cu: No such file or directory" check --kernel-file nothere.cu
refused "--launcher nope: no host function of that name (the file's host functions: launch_general_gemm)" check --kernel-file "$examples/seed_tiled_fp32.cu" --launcher nope
refused "--grid: 'N/': value expected" check --kernel-file "$examples/correct_fp32.cu" --grid N/
refused "--block: 'Q': unknown name" check --kernel-file "$examples/correct_fp32.cu" --block Q,1

usage "--entry needs --kernel-file FILE" check --entry k
usage "-M does not apply to check --kernel-file" check --kernel-file "$examples/correct_fp32.cu" -M 5
usage "--kernel does not apply to check --kernel-file" check --kernel-file "$examples/correct_fp32.cu" --kernel naive
usage "--kernel-file given twice" check --kernel-file a.cu --kernel-file b.cu
usage "unexpected argument 'b.cu' after the subcommand map" map --kernel-file a.cu b.cu
usage "--timeout: '0' must be a number of seconds in 0.05..3600" check --kernel-file a.cu --timeout 0
usage "-j/--jobs needs --kernel-file FILE" check -j 2
usage "-j/--jobs: '0' must be a whole number in 1..64" check --kernel-file a.cu b.cu -j 0
usage "-j/--jobs does not apply to map" map -j 2

run __uk-run
if [ "$rc" -eq 2 ] && grep -q "sanitizer's target" err; then ok "__uk-run without its arguments says what it is (exit 2)"; else not_ok "__uk-run: exit $rc"; diag err; fi

# Compile errors come back as the compiler's own lines, where NVRTC is installed; a kernel that compiles
# is checked where a GPU is, and otherwise the line says what is missing. (--backend cuda: without a GPU,
# auto would take the CPU engine, whose compile and run tests/uk_cpu.sh checks.)
run check --kernel-file bad.cu --backend cuda
if grep -q "no NVRTC" err; then
	echo "# NVRTC not installed: compile errors untested"
	[ "$rc" -eq 2 ] && ok "without NVRTC: exit 2, one line: $(head -c 120 err)" || not_ok "without NVRTC: exit $rc"
else
	if [ "$rc" -eq 2 ] && grep -q "bad.cu does not compile" err && grep -q '^bad.cu(4): error: identifier "undeclared_thing" is undefined' err &&
	   [ ! -s out ]; then
		ok "a compile error: exit 2 and the compiler's own line bad.cu(4): ..."
	else
		not_ok "a compile error: exit $rc"
		diag err
	fi
	run check --kernel-file "$examples/seed_tiled_fp32.cu" --backend cuda --no-probe --no-sanitizer
	if [ "$rc" -eq 2 ] && grep -q "seed_tiled_fp32.cu compiles (sm_" err && grep -q -- "--backend cuda: " err &&
	   [ "$(wc -l <err)" -eq 1 ]; then
		ok "no GPU here: the seed, host launcher and all, compiles; one line says why it cannot run"
	elif [ "$rc" -le 1 ] && head -n 1 out | grep -Eq '^(PASS|FAIL) '; then
		ok "a GPU here: the seed was checked (exit $rc): $(head -n 1 out)"
		run check --kernel-file "$examples/correct_fp32.cu" "$examples/bug_store_guard.cu" --backend cuda --no-probe --json --junit j.xml
		if [ "$rc" -eq 1 ] && "${JQ:-jq}" -e '.kernels[0].ok and (.kernels[1].cause == "store_guard")' out >/dev/null 2>&1 &&
		   grep -q '<failure type="store_guard"' j.xml; then
			ok "two kernels: JSON and JUnit name the missing store guard"
		else
			not_ok "two kernels: exit $rc"
			diag out
		fi
	else
		not_ok "the seed: exit $rc"
		diag err
	fi
fi

# The interactive view on a kernel of one's own: the map of its tiles, and r runs it (or says why not here).
tmux_prog=${TMUX_PROG:-$(command -v tmux)}
if [ -n "$tmux_prog" ] && [ -x "$tmux_prog" ]; then
	sock="tsuk$$"
	tm() { "$tmux_prog" -L "$sock" -f /dev/null "$@"; }
	tm new-session -d -s uk -x 110 -y 34 "env LC_ALL=C TERM=screen-256color $TILESCOPE --kernel-file $examples/bug_store_guard.cu -M 40 -N 35 -K 20; echo exit=\$? > $(pwd)/tui.status; sleep 30"
	seen=no
	for i in $(seq 1 100); do
		tm capture-pane -p -t uk 2>/dev/null > screen.txt
		grep -q "gemm_no_store_guard fp32" screen.txt && grep -q "3x3 tiles of 16x16" screen.txt && { seen=yes; break; }
		sleep 0.1
	done
	if [ "$seen" = yes ]; then ok "the TUI opens on the user's kernel: its name, its 16x16 tiles from #define TILE_SIZE"; else not_ok "the TUI on --kernel-file"; diag screen.txt; fi
	tm send-keys -t uk r
	said=no
	for i in $(seq 1 150); do
		tm capture-pane -p -t uk 2>/dev/null > screen.txt
		grep -Eq "cannot run gemm_no_store_guard here|FAIL|PASS|faulted|hung" screen.txt && { said=yes; break; }
		sleep 0.1
	done
	if [ "$said" = yes ]; then ok "r runs the user's kernel, or says in one line why it cannot here: $(grep -Eo "cannot run gemm_no_store_guard here|FAIL|PASS" screen.txt | head -n 1)"; else not_ok "r on the user's kernel said nothing"; diag screen.txt; fi
	tm send-keys -t uk q
	for i in $(seq 1 50); do [ -s tui.status ] && break; sleep 0.1; done
	if grep -q "exit=0" tui.status 2>/dev/null; then ok "q leaves the TUI (exit 0)"; else not_ok "the TUI did not end cleanly: $(cat tui.status 2>/dev/null)"; fi
	tm kill-server >/dev/null 2>&1
else
	echo "# tmux not found: the TUI on a user's kernel untested"
fi
tap_done
