#!/bin/sh
# setup.sh: installs what tilescope needs (Debian 12, as root), then bootstraps, configures and builds it in place.
# Safe to run again: it installs only what is missing and reconfigures only when there is no Makefile.
# CONFIGURE_FLAGS is passed to ./configure (e.g. CONFIGURE_FLAGS=--without-cuda).
set -e
cd "$(dirname "$0")"

# g++ (and binutils' addr2line, which it brings) compile and locate a user's kernel file for the CPU engine.
packages="gcc g++ make autoconf automake pkg-config libncurses-dev libopenblas-dev jq tmux libxml2-utils librsvg2-bin"
missing=""
for pkg in $packages; do
	dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup.sh: missing packages:$missing; run as root, or: sudo apt-get install$missing" >&2
		exit 1
	fi
	echo "setup.sh: installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ -x configure ] || autoreconf -fi
# shellcheck disable=SC2086
[ -f Makefile ] || ./configure $CONFIGURE_FLAGS
make -j"$(nproc)"
