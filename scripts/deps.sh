#!/bin/bash
# Install what the suite needs from Debian's packages (Debian 12, as root).
# Only missing packages are installed; apt-get update runs only then.
# `scripts/deps.sh vm` installs what scripts/vm.sh needs instead: QEMU and
# the kernel source with its build tools.
set -eu
pkgs=(
	build-essential cmake pkg-config git
	libjson-c-dev libconfig-dev libmnl-dev libncurses-dev libcmocka-dev
	libsmartcols-dev                  # util-linux: tables
	nettle-dev                        # rgctl: HMAC of its registry of groups made
	libelf-dev                        # likelytop --callers -p: program symbols
	libfuse3-dev fuse3
	bash-completion                   # completions are installed where it says
	zsh fish                          # their completions are tested in them
	python3-prometheus-client         # an OpenMetrics parser checks the metrics
	clang libclang-rt-14-dev          # libFuzzer targets
	mandoc                            # man page lint
	cgroup-tools                      # the peer rgctl is tested and measured against
	jq tmux gnuplot-nox libxml2-utils hyperfine
	attr                              # setfattr: systemd's delegation mark in tests
	systemd                           # systemd-analyze verify of the units
	debhelper dpkg-dev lintian fakeroot  # the Debian packages (scripts/deb.sh)
	ansible-core                      # examples/ansible, tested against localhost
)
if [ "${1:-}" = vm ]; then
	pkgs=(qemu-system-x86 linux-source-6.1 flex bison bc libelf-dev libssl-dev
		build-essential xz-utils)
elif [ $# -gt 0 ]; then
	echo "usage: scripts/deps.sh [vm]" >&2
	exit 2
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages: ${missing[*]}; run as root to install them" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# promtool checks likelytop --textfile's metrics: Debian ships it only in
# the prometheus package, whose daemon would start on a machine with
# systemd; take the one program out of the package instead (not installed).
promtool=/var/cache/kattr-deps/promtool
if [ $# = 0 ] && ! command -v promtool >/dev/null && [ ! -x "$promtool" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: promtool is missing; run as root to fetch it" >&2
		exit 1
	fi
	echo "deps: fetching promtool (from Debian's prometheus package, not installed)"
	mkdir -p "${promtool%/*}"
	t=$(mktemp -d)
	(cd "$t" && apt-get download -qq prometheus >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download -qq prometheus >/dev/null; }) &&
		dpkg-deb --fsys-tarfile "$t"/prometheus_*.deb | tar -xO ./usr/bin/promtool >"$promtool.new" &&
		chmod 755 "$promtool.new" && mv "$promtool.new" "$promtool"
	rm -rf "$t" "$promtool.new"
	[ -x "$promtool" ] || { echo "deps: could not fetch promtool" >&2; exit 1; }
fi
