# The kattr.rgctl collection (contrib/ansible) with ansible-playbook,
# connection local, on a private subtree of this host's cgroup v1 cpu
# hierarchy: apply -> changed, again -> ok; --check on a change reports it
# and writes nothing (read back); --diff shows before and after; a bad value
# fails with rgctl's message and writes nothing; rgctl_facts reads the groups.
. "$SRC_DIR/tests/cli/lib.sh"
require_root "it makes groups in the cgroup v1 cpu hierarchy"
[ "${WITH_LIBCONFIG:-ON}" = ON ] || skip_test "built without libconfig: rgctl apply needs it"
command -v ansible-playbook >/dev/null ||
	skip_test "ansible-playbook is not installed (Debian package ansible-core)"
cpu=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$cpu" ] && [ -w "$cpu" ] || skip_test "no writable cgroup v1 cpu hierarchy"
RGCTL=$(tool_path rgctl)
work=$(mktemp -d)
root=$cpu/kattr-ansible-$$
cleanup() {
	[ -d "$root" ] && find "$root" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
	rmdir "$root" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
mkdir "$root" "$work/run" || { echo "FAIL: cannot make $root"; exit 1; }
play() {	# play SHARES QUOTA [ansible-playbook options]
	local shares=$1 quota=$2
	shift 2
	cat >"$work/play.yml" <<YML
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - kattr.rgctl.rgctl_groups:
        rgctl: $RGCTL
        root: $root
        rundir: $work/run
        config:
          groups:
            - { name: web, shares: $shares, CPUQuota: "$quota" }
            - { name: web/static }
          rules:
            - { group: web, comm: nginx }
      register: r
    - ansible.builtin.debug: { msg: "steps={{ r.steps | map(attribute='text') | join(';') }}" }
YML
	run env ANSIBLE_COLLECTIONS_PATH="$SRC_DIR/contrib/ansible" ANSIBLE_LOCAL_TEMP="$work/ans" \
		ANSIBLE_HOME="$work/ans" ANSIBLE_NOCOLOR=1 ANSIBLE_STDOUT_CALLBACK=default \
		ANSIBLE_RETRY_FILES_ENABLED=0 ansible-playbook -i localhost, "$work/play.yml" "$@"
}
snap() { for f in "$root"/web/cpu.shares "$root"/web/cpu.cfs_quota_us; do [ -e "$f" ] && cat "$f"; done | tr '\n' ' '; }

play 512 50%
expect_rc 0 "first run"
expect_match "$out" 'changed=1 ' "the first run reports changed"
expect_match "$out" 'steps=create web shares=512;create web/static;set web cpu.max=50%' "the steps are returned"
expect_eq "$(cat "$root/web/cpu.shares" 2>/dev/null)" 512 "web's shares after the first run"
[ -d "$root/web/static" ] && ok || fail "web/static was not created"

play 512 50%
expect_rc 0 "second run"
expect_match "$out" 'changed=0 ' "a second run over unchanged groups reports ok"

before=$(snap)
play 256 50% --check --diff
expect_rc 0 "--check on a change"
expect_match "$out" 'changed=1 ' "--check reports the change"
expect_match "$out" 'set web shares=256 \(was 512\)' "--check says what would change"
expect_match "$out" '^-\{ name = "web"; cpu_max = "50%"; shares = 512; \}' "--check --diff: before"
expect_match "$out" '^\+\{ name = "web"; cpu_max = "50%"; shares = 256; \}' "--check --diff: after"
expect_eq "$(snap)" "$before" "--check wrote nothing (read back)"

play 256 25% --diff
expect_rc 0 "--diff on a change"
expect_match "$out" 'changed=1 ' "the change is made"
expect_match "$out" '^-\{ name = "web"; cpu_max = "50%"; shares = 512; \}' "--diff: before"
expect_match "$out" '^\+\{ name = "web"; cpu_max = "25%"; shares = 256; \}' "--diff: after, read back"
expect_eq "$(cat "$root/web/cpu.shares")" 256 "web's shares after --diff"

before=$(snap)
play 1 10%
expect_rc 2 "a bad value"
expect_match "$out" 'FAILED!' "a bad value fails the task"
expect_match "$out" "rgctl: [^ ]*rgctl.conf:2: shares: '1' is not valid for cgroup1: out of range" \
	"the failure is rgctl's own message"
expect_eq "$(snap)" "$before" "a bad value writes nothing"

cat >"$work/facts.yml" <<YML
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - kattr.rgctl.rgctl_facts: { rgctl: $RGCTL, root: $root, rundir: $work/run, stats: true }
    - ansible.builtin.debug:
        msg: "web={{ ansible_facts.rgctl.settings.web.shares }} quota={{ ansible_facts.rgctl.settings.web.cpu_max }} stats={{ ansible_facts.rgctl.stats.web.group }} dump={{ 'made by rgctl' in ansible_facts.rgctl.dump }}"
YML
run env ANSIBLE_COLLECTIONS_PATH="$SRC_DIR/contrib/ansible" ANSIBLE_LOCAL_TEMP="$work/ans" \
	ANSIBLE_HOME="$work/ans" ANSIBLE_NOCOLOR=1 ANSIBLE_STDOUT_CALLBACK=default \
	ansible-playbook -i localhost, "$work/facts.yml"
expect_rc 0 "rgctl_facts"
expect_match "$out" 'web=256 quota=25% stats=web dump=True' "rgctl_facts reads the groups, stats and dump"
finish
