# The systemd units cmake --install ships: every one is installed, and
# `systemd-analyze verify` passes on each without a word on stderr (it
# exits 0 on unknown keys and bad values, printing them).  verify runs
# without systemd as PID 1; the rgctl it names is the one built here (the
# installed path does not exist before a real install).  The example
# configuration is installed once and never over an existing file, and
# applies as it is (dry run).  rgctl-classify.service is Type=notify.
. "$SRC_DIR/tests/cli/lib.sh"
RGCTL=$(tool_path rgctl)
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
run cmake --install "$BUILD_DIR" --prefix "$dest"
expect_rc 0 "cmake --install"
U=$dest/lib/systemd/system
for f in "$U/rgctl.slice" "$U/rgctl.service" "$U/rgctl-apply.service" \
	 "$U/rgctl-classify.service" "$dest/etc/rgctl/rgctl.conf" \
	 "$dest/share/doc/kattr-suite/examples/rgctl.conf"; do
	[ -f "$f" ] && ok || fail "${f#"$dest"/} not installed"
done
grep -qx 'Delegate=yes' "$U/rgctl.service" && ok || fail "rgctl.service does not delegate"
grep -qx 'Slice=rgctl.slice' "$U/rgctl.service" && ok || fail "rgctl.service is not in rgctl.slice"
# the prefix given at install time, not the configure-time one, is named
grep -qx "ExecStart=$dest/sbin/rgctl apply --wait 60 $dest/etc/rgctl/rgctl.conf" "$U/rgctl-apply.service" &&
	ok || fail "rgctl-apply.service does not name the install prefix: $(grep ExecStart "$U/rgctl-apply.service")"
grep -qx "ConditionPathExists=$dest/etc/rgctl/rgctl.conf" "$U/rgctl-classify.service" &&
	ok || fail "rgctl-classify.service does not name the install prefix's configuration"
grep -qx 'ExecReload=/bin/kill -HUP $MAINPID' "$U/rgctl-classify.service" && ok || fail "no SIGHUP reload"
grep -qx "Type=notify" "$U/rgctl-classify.service" && ok || fail "rgctl-classify.service is not Type=notify"

# not over an existing file
echo '# mine' >"$dest/etc/rgctl/rgctl.conf"
run cmake --install "$BUILD_DIR" --prefix "$dest"
expect_rc 0 "second install"
[ "$(cat "$dest/etc/rgctl/rgctl.conf")" = "# mine" ] && ok || fail "the install overwrote an existing rgctl.conf"

# with DESTDIR (as packagers and scripts/vm.sh --systemd install)
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
[ "$prefix" = /usr ] && etc=/etc || etc=$prefix/etc
run env DESTDIR="$dest/dd" cmake --install "$BUILD_DIR"
expect_rc 0 "cmake --install with DESTDIR"
[ -f "$dest/dd$etc/rgctl/rgctl.conf" ] && ok || fail "with DESTDIR, rgctl.conf is not at $etc/rgctl/rgctl.conf below it: $(cd "$dest/dd" && find . -name rgctl.conf)"

if [ "${WITH_LIBCONFIG:-ON}" = ON ]; then
	# parse errors are "FILE:LINE: ..." whatever the hierarchy here
	run "$RGCTL" apply --dry-run "$dest/share/doc/kattr-suite/examples/rgctl.conf"
	printf '%s' "$err" | grep -Eq 'rgctl\.conf:[0-9]+:' && fail "the example does not parse: $err" || ok
fi

command -v systemd-analyze >/dev/null || { echo "SKIP: systemd-analyze (Debian package systemd) is not installed: units not verified"; finish; }
V=$(mktemp -d)
trap 'rm -rf "$dest" "$V"' EXIT
cp "$U"/* "$V/"
# the rgctl the units name, as built (the install prefix's does not exist)
sed -i "s#^\\(Exec[A-Za-z]*=\\)\\(.*\\)/sbin/rgctl #\\1$RGCTL #" "$V"/*.service
for u in rgctl.slice rgctl.service rgctl-apply.service rgctl-classify.service; do
	run sh -c "cd '$V' && SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no ./$u"
	expect_rc 0 "systemd-analyze verify $u"
	[ -z "$err$out" ] && ok || fail "systemd-analyze verify $u says: $err$out"
done
# and the check can fail: a misspelt key is reported
echo 'Typo=1' >>"$V/rgctl.slice"
run sh -c "cd '$V' && systemd-analyze verify --man=no ./rgctl.slice"
expect_match "$err" "Unknown key 'Typo'" "verify reports a bad key"
finish
