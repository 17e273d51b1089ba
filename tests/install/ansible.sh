# examples/ansible/site.yml against localhost: the playbook applies its
# rgctl.conf on a private cgroup v1 hierarchy of this test's own (the
# rgctl of this build, not a package, through the kattr.rgctl collection
# of the source tree), and reports "changed" on the first run, nothing
# changed on the second; a
# group changed behind its back makes the third run report "changed" again.
. "$SRC_DIR/tests/cli/lib.sh"
require_root "it mounts a cgroup hierarchy"
[ "${WITH_LIBCONFIG:-ON}" = ON ] || skip_test "built without libconfig: rgctl apply needs it"
command -v ansible-playbook >/dev/null ||
	skip_test "ansible-playbook is not installed (Debian package ansible-core; scripts/deps.sh installs it)"
RGCTL=$(tool_path rgctl)
work=$(mktemp -d)
mnt=$work/mnt
cleanup() {
	named_hier_umount "kattr-ans$$" "$mnt"
	rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$mnt" "$work/run"
named_hier_mount "kattr-ans$$" "$mnt" || skip_test "cannot mount a named cgroup v1 hierarchy"
cat >"$work/site.conf" <<'CONF'
groups = (
  { name = "web";        },
  { name = "web/static"; },
  { name = "batch";      }
);
CONF
play() {
	run env ANSIBLE_COLLECTIONS_PATH="$SRC_DIR/contrib/ansible" ANSIBLE_LOCAL_TEMP="$work/ans" ANSIBLE_HOME="$work/ans" ANSIBLE_NOCOLOR=1 \
		ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_RETRY_FILES_ENABLED=0 \
		ansible-playbook -i "$SRC_DIR/examples/ansible/inventory.ini" \
		"$SRC_DIR/examples/ansible/site.yml" \
		-e rgctl_install=false -e "rgctl_bin=$RGCTL" -e "rgctl_root=$mnt" \
		-e "rgctl_conf=$work/site.conf" -e "rgctl_conf_dest=$work/dest.conf" \
		-e "rgctl_rundir=$work/run"
}
play
expect_rc 0 "first ansible-playbook run"
expect_match "$out" 'changed=2 ' "the first run changes the configuration file and the groups"
for g in web web/static batch; do
	[ -d "$mnt/$g" ] && ok || fail "the playbook did not create $g"
done
play
expect_rc 0 "second ansible-playbook run"
expect_match "$out" 'changed=0 ' "a second run over unchanged groups reports nothing changed"
rmdir "$mnt/batch"
play
expect_rc 0 "third ansible-playbook run"
expect_match "$out" 'changed=1 ' "a group removed behind its back: the apply task reports changed"
[ -d "$mnt/batch" ] && ok || fail "the third run did not create batch again"
finish
