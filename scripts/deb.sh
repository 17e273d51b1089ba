#!/bin/bash
# deb.sh [OUTDIR]: build the Debian packages from a clean copy of the
# tracked tree (dpkg-buildpackage -us -uc -b), check them with lintian
# (no error, no warning), then install them with apt, try what they ship
# (rgctl --version, the man pages, the completions, the units) and purge
# them, checking that nothing but what policy keeps is left.  The install
# step is skipped (saying why) when one of the packages is already
# installed: it never replaces an administrator's own.  OUTDIR defaults to
# out/deb.  Exit 0 when all passed, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m -- "${1:-$top/out/deb}")
fail=0
say() { echo "deb: $*"; }
bad() { echo "deb: FAIL: $*"; fail=1; }
rm -rf "$out" && mkdir -p "$out/src" || { bad "cannot create $out"; exit 1; }
# the tracked files only (what a clean clone has)
(cd "$top" && git ls-files -z | xargs -0 cp --parents -t "$out/src") ||
	{ bad "cannot copy the tree"; exit 1; }
say "dpkg-buildpackage -us -uc -b (log: $out/build.log)"
(cd "$out/src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
	{ tail -20 "$out/build.log"; bad "dpkg-buildpackage failed"; exit 1; }
debs=$(cd "$out" && ls ./*.deb | grep -v dbgsym)
say "built: $(echo $debs)"
lintian --fail-on error,warning --pedantic "$out"/kattr_*.changes >"$out/lintian.log" 2>&1 ||
	bad "lintian: $(grep -E '^[EW]:' "$out/lintian.log" | head -10)"
say "lintian: $(grep -c '^E:' "$out/lintian.log") errors, $(grep -c '^W:' "$out/lintian.log") warnings, $(grep -c '^[IP]:' "$out/lintian.log") notes"

pkgs="rgctl likelytop splicebench libkattr1 libkattr-dev liblikelyprof0 liblikelyprof-dev"
for p in $pkgs; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		say "skipped the install test: $p is already installed here"
		exit $fail
	fi
done
[ "$(id -u)" = 0 ] || { say "skipped the install test: not root"; exit $fail; }
# the purge removes /run/rgctl (rgctl's run state): never the host's own
[ ! -e /run/rgctl ] || { say "skipped the install test: /run/rgctl exists here (the purge would remove it)"; exit $fail; }
before=$(mktemp) after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT
snap() { find /etc /usr /lib /run/rgctl -xdev 2>/dev/null | sort; }
snap >"$before"
(cd "$out" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs) \
	>"$out/install.log" 2>&1 || { tail "$out/install.log"; bad "apt-get install failed"; }
/usr/sbin/rgctl --version >/dev/null && say "rgctl --version: $(/usr/sbin/rgctl --version | head -1)" || bad "rgctl --version"
/usr/sbin/likelytop --version >/dev/null || bad "likelytop --version"
/usr/bin/splicebench --version >/dev/null || bad "splicebench --version"
for m in rgctl.8 rgctl.conf.5 likelytop.8 splicebench.1 libkattr.3 likely_prof.3; do
	s=${m##*.}
	[ -e "/usr/share/man/man$s/$m.gz" ] || bad "man page $m not installed"
done
for t in rgctl likelytop splicebench; do
	[ -f /usr/share/bash-completion/completions/$t ] || bad "bash completion for $t not installed"
	[ -f /usr/share/zsh/vendor-completions/_$t ] || bad "zsh completion for $t not installed"
	[ -f /usr/share/fish/vendor_completions.d/$t.fish ] || bad "fish completion for $t not installed"
done
# fish and zsh find the installed engine (the bash completion) themselves
if command -v fish >/dev/null; then
	got=$(env -u KATTR_COMPLETION_ENGINE fish --no-config -c \
		'set fish_complete_path /usr/share/fish/vendor_completions.d; complete -C"splicebench --mode copy,"' | sort | tr '\n' ' ')
	[ "$got" = "copy,gift copy,vmsplice " ] || bad "fish completion from the package: '$got'"
fi
for u in rgctl.slice rgctl.service rgctl-apply.service rgctl-classify.service; do
	[ -f /lib/systemd/system/$u ] || bad "unit $u not installed"
done
grep -q '^ExecStart=/usr/sbin/rgctl apply --wait 60 /etc/rgctl/rgctl.conf$' /lib/systemd/system/rgctl-apply.service ||
	bad "rgctl-apply.service names $(grep ExecStart /lib/systemd/system/rgctl-apply.service)"
dpkg-query -W -f='${Conffiles}\n' rgctl | grep -q /etc/rgctl/rgctl.conf || bad "/etc/rgctl/rgctl.conf is not a conffile"
pkg-config --exists libkattr || bad "pkg-config does not find libkattr"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $pkgs >"$out/purge.log" 2>&1 || bad "apt-get purge failed"
snap >"$after"
left=$(comm -13 "$before" "$after")
[ -z "$left" ] || bad "left after purge: $(echo $left | head -c 400)"
[ $fail = 0 ] && say "packages built, lintian clean, installed, tried and purged"
exit $fail
