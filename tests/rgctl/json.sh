# rgctl --json on a hierarchy holding groups rgctl would never create (made
# with mkdir: invalid UTF-8, quotes, a newline in the name): list, stats,
# members and whereis print valid UTF-8 JSON (checked with iconv, parsed
# with jq), the bad bytes as U+FFFD.  Needs root and a writable v1 cpu mount.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 cpu hierarchy"
command -v jq >/dev/null || skip_test "jq is not installed"
command -v iconv >/dev/null || skip_test "iconv is not installed"
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
use_hierarchy "$CPU"
r() { run "$RG" --backend cgroup1 --root "$CPU" --json "$@"; }

# valid_json WHAT: $out is valid UTF-8 and one JSON document
valid_json() {
	if printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then ok
	else fail "$1: not valid UTF-8: $(printf '%s' "$out" | od -c | head -3)"; fi
	if printf '%s' "$out" | jq -e . >/dev/null 2>&1; then ok
	else fail "$1: jq cannot parse '${out:0:300}'"; fi
}

bad=$'x\xffy'		# invalid UTF-8
odd=$'q"u\\o'		# quote and backslash
mkdir -p "$CPU/$G/$bad" "$CPU/$G/$odd" || skip_test "cannot create groups in $CPU"
spawn 1
echo "${PIDS[0]}" >"$CPU/$G/$bad/tasks"

r list "$G"
expect_rc 0 "--json list"
valid_json "--json list"
expect_eq "$(json_get "$out" '[.groups[].name] | sort | join(" ")')" \
	"$G $G/q\"u\\o $G/x"$'\xef\xbf\xbd'"y" "--json list names"
r whereis "${PIDS[0]}"
expect_rc 0 "--json whereis"
valid_json "--json whereis"
expect_eq "$(json_get "$out" .group)" "$G/x"$'\xef\xbf\xbd'"y" "--json whereis group"
finish
