# rgctl: create a group, set its shares, move a process in, read its stats,
# find it again, delete the group.  Cleans up after itself (a subshell with
# its own EXIT trap); skips politely without root.
rgctl_tour() {
	local rg="$B/src/rgctl/rgctl" g="tour-$$" backend sleeper=""
	if [ "$(id -u)" != 0 ]; then
		printf '\n== rgctl: skipped (it creates groups, which needs root)\n'
		return 0
	fi
	if ! backend=$("$rg" --json list / 2>/dev/null | jq -r .backend 2>/dev/null); then
		printf '\n== rgctl: skipped (no RGCS or cgroup hierarchy is mounted)\n'
		return 0
	fi
	(
		set -e
		trap 'set +e; [ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; "$rg" -b "$backend" delete "$g" --recursive 2>/dev/null; true' EXIT
		printf '\n== rgctl on this machine: backend %s\n' "$backend"
		step "Create a resource group" "$rg" -b "$backend" create "$g/batch" -p
		case $backend in
		cgroup1) step "Give it half the default CPU share" "$rg" -b "$backend" shares "$g/batch" 512 ;;
		rgcs) step "Guarantee it 30% of its parent's CPU" "$rg" -b "$backend" shares "$g/batch" min_shares=30 ;;
		cgroup2) "$rg" -b "$backend" shares "$g/batch" 50 2>/dev/null ||
			printf '(cgroup v2 here has no cpu controller enabled: no cpu.weight to set)\n' ;;
		esac
		sleep 60 &
		sleeper=$!
		step "Move a running process into it" "$rg" -b "$backend" attach "$g/batch" "$sleeper"
		step "Which group is it in?" "$rg" -b "$backend" whereis "$sleeper"
		step "The tree, with shares and task counts" "$rg" -b "$backend" list "$g"
		step "Its statistics" "$rg" -b "$backend" stats "$g/batch"
		step "The same as JSON, for scripts" "$rg" -b "$backend" --json members "$g/batch"
		step "Delete it: its tasks move to the parent first" "$rg" -b "$backend" delete "$g" --recursive
		step "The process is back in the root group" "$rg" -b "$backend" whereis "$sleeper"
	)
}
rgctl_tour
