# Shared start of the in-guest tests (tests/vm/*.sh, run by tests/vm/run.sh
# inside the guest scripts/vm.sh boots).  The rgctl helpers of
# tests/rgctl/common.sh (unique group prefix $G, cleanup trap, spawn,
# json_get, expect_eq, in_file) plus: the guest check, the cgroup v2 root,
# and VM_OUT, where captures go.
. "$SRC_DIR/tests/rgctl/common.sh"
: "${VM_OUT:=${TMPDIR:-/tmp}}"
HELPER="$BUILD_DIR/tests/rgctl/task_helper"
[ "${KATTR_IN_VM:-}" = 1 ] || skip_test "runs only inside the guest of scripts/vm.sh"
require_root "changes the guest kernel's cgroups and sysctls"
U=$(mount_of cgroup2)
[ -n "$U" ] || { echo "FAIL: no cgroup v2 mounted in the guest"; exit 1; }
CLEANUPS+=("cg_remove '$U' '$U/$G'")

# enable_cpu_along GROUP: the test setup's own "+cpu" in cgroup.subtree_control
# from the root down to GROUP's parent (for an rgctl that does not do it).
enable_cpu_along() {
	local d=$U p
	IFS=/ read -ra parts <<<"$1"
	for p in "${parts[@]}"; do
		mkdir -p "$d/$p"
		echo +cpu >"$d/cgroup.subtree_control" || return 1
		d=$d/$p
	done
}

# cpu_usec DIR: usage_usec of a cgroup's cpu.stat
cpu_usec() { awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"; }

# sweep LABEL SCRIPT ARGS...: one of the host's tests/rgctl/apply scripts, run
# as on the host; its exit status is one check here (77: a part skipped)
sweep() {	# sweep LABEL SCRIPT ARGS...: one host script, one check
	local label=$1 rc t0
	shift
	echo "=== $label"
	t0=$(date +%s)
	bash "$SRC_DIR/tests/rgctl/apply/$1" "${@:2}"
	rc=$?
	echo "=== $label: exit $rc, $(( $(date +%s) - t0 )) s"
	case $rc in
	0) ok ;;
	77) echo "SKIP (part): $label" ;;
	*) fail "$label: exit $rc (its FAIL lines above)" ;;
	esac
}
