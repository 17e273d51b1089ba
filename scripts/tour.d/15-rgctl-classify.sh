# rgctl apply / dump / classify / stats --delay on a private cgroup v1 cpu
# subtree: a configuration file made real, a process classified by its
# rule, delay statistics.  Cleans up after itself; skips without root, a
# cgroup v1 cpu hierarchy, libconfig or libmnl.
rgctl_classify_tour() {
	local rg="$B/src/rgctl/rgctl" cpu root work sleeper=""
	if [ "$(id -u)" != 0 ]; then
		printf '\n== rgctl classify: skipped (it moves processes, which needs root)\n'
		return 0
	fi
	cpu=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ /,cpu,/) { print $5; exit } }' /proc/self/mountinfo)
	if [ -z "$cpu" ]; then
		printf '\n== rgctl classify: skipped (no cgroup v1 cpu hierarchy)\n'
		return 0
	fi
	if ! grep -q '^#define WITH_LIBCONFIG 1' "$B/config.h" || ! grep -q '^#define WITH_LIBMNL 1' "$B/config.h"; then
		printf '\n== rgctl classify: skipped (built without libconfig or libmnl)\n'
		return 0
	fi
	root="$cpu/tour-classify-$$"
	work=$(mktemp -d)
	(
		set -e
		trap 'set +e; [ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; for d in $(find "$root" -depth -type d 2>/dev/null); do while read -r p; do echo "$p" >"$cpu/cgroup.procs"; done <"$d/cgroup.procs"; rmdir "$d"; done; rm -rf "$work"; true' EXIT
		mkdir "$root"
		cp "$(command -v sleep)" "$work/tour-db"
		cat >"$work/site.conf" <<CONF
groups = (
  { name = "db";       shares = 2048; },
  { name = "db/batch"; shares = 256; }
);
rules = (
  { group = "db"; comm = "tour-db"; }
);
CONF
		printf '\n== rgctl apply / classify (a private subtree: %s)\n' "$root"
		cat "$work/site.conf"
		step "What would change?" "$rg" --root "$root" apply --dry-run "$work/site.conf"
		step "Make it so" "$rg" --root "$root" apply "$work/site.conf"
		step "Again: nothing to do" "$rg" --root "$root" apply "$work/site.conf"
		step "The current state, in the same format" "$rg" --root "$root" dump
		"$work/tour-db" 60 &
		sleeper=$!
		step "Classify what runs (the daemon without --once keeps following exec/fork)" \
			"$rg" --root "$root" classify --once "$work/site.conf"
		step "It is in its group" "$rg" --root "$root" whereis "$sleeper"
		step "Delay accounting of the group's members" "$rg" --root "$root" stats db --delay || true
	)
}
rgctl_classify_tour
