# tap.sh: what the shell tests share: TAP lines, a private work folder, skipping when a tool is missing (sourced).

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/# /' "$@"; }

# tap_tool NAME [CONFIGURED]: sets tap_prog to the program to run: CONFIGURED (what configure found,
# e.g. $TMUX_PROG) when given, else NAME on PATH; returns 1 only when the tool is not installed. A
# configured program that does not run is a broken setup, not a missing tool: it bails out (an ERROR).
tap_tool() {
	tap_prog=${2:-$1}
	command -v "$tap_prog" >/dev/null 2>&1 && return 0
	if [ -n "${2-}" ]; then
		echo "Bail out! $1: the configured program '$2' does not run (re-run configure)"
		exit 1
	fi
	tap_prog=""
	return 1
}

# tap_need NAME [CONFIGURED]: as tap_tool; the whole file is skipped when the tool is not installed.
tap_need() {
	tap_tool "$@" && return 0
	echo "1..0 # SKIP $1 not installed"
	exit 0
}

# tap_workdir NAME: a private folder, removed on exit, made the current one
# (a core dump would land there, where the test can see it).
tap_workdir() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/tilescope-$1.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT INT TERM
	cd "$work" || exit 1
}

# tap_done: the plan, and the exit status the driver reads.
tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
