# What every tool does: --help, --version, unknown options, a full stdout,
# a bad --sysroot.  Usage: basics.sh TOOL
. "$(dirname "$0")/lib.sh"
tool=$1
bin=$(tool_path "$tool")
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

run "$bin" --help
expect_rc 0 "$tool --help"
[ -z "$err" ] && ok || fail "$tool --help wrote to stderr: $err"
expect_match "$out" "^Usage: $tool" "$tool --help first line"

run "$bin" -h
expect_rc 0 "$tool -h"

run "$bin" --version
expect_rc 0 "$tool --version"
expect_match "$out" "^$tool \(kattr suite\) [0-9]+\.[0-9]+" "$tool --version"
[ -z "$err" ] && ok || fail "$tool --version wrote to stderr: $err"

run "$bin" --no-such-option
expect_rc 2 "$tool --no-such-option"
expect_match "$err" "Try '$tool --help'" "$tool unknown option hint"
[ -z "$out" ] && ok || fail "$tool --no-such-option wrote to stdout"

run "$bin" -Q
expect_rc 2 "$tool -Q"

# A full disk must not pass silently.
run sh -c "'$bin' --help >/dev/full"
expect_rc 1 "$tool --help >/dev/full"
expect_match "$err" "write error" "$tool --help >/dev/full message"
run sh -c "'$bin' --version >/dev/full"
expect_rc 1 "$tool --version >/dev/full"

run "$bin" --sysroot /nonexistent/kattr-sysroot --version
expect_rc 2 "$tool --sysroot /nonexistent"
run env KATTR_SYSROOT=/nonexistent/kattr-sysroot "$bin" --help
expect_rc 2 "$tool with a bad \$KATTR_SYSROOT"
expect_match "$err" "KATTR_SYSROOT" "$tool bad \$KATTR_SYSROOT message"
finish
