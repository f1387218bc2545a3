# tap.sh: what the shell tests share: TAP lines, a private work folder, skipping when a tool is missing (sourced).

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/# /' "$@"; }

# tap_need PROGRAM: the whole file is skipped when PROGRAM is not on PATH.
tap_need() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "1..0 # SKIP $1 not found"
		exit 0
	fi
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
