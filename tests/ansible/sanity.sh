# The kattr.rgctl collection's offline checks: every Python file compiles,
# ansible-doc reads each module's documentation, and the tests of
# ansible-test sanity that need no network (those needing a virtualenv
# with pip from the network, such as pep8, pylint, validate-modules,
# yamllint and import, are left out: they cannot run on an offline host).
. "$SRC_DIR/tests/cli/lib.sh"
command -v ansible-doc >/dev/null || skip_test "ansible-doc is not installed (Debian package ansible-core)"
coll=$SRC_DIR/contrib/ansible/ansible_collections/kattr/rgctl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$coll"/plugins/modules/*.py "$coll"/plugins/module_utils/*.py; do
	run python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' "$f" "$work/c.pyc"
	expect_rc 0 "python3 py_compile ${f#"$coll"/}"
done
for m in rgctl_groups rgctl_facts; do
	run env ANSIBLE_COLLECTIONS_PATH="$SRC_DIR/contrib/ansible" ANSIBLE_HOME="$work/ans" \
		ANSIBLE_LOCAL_TEMP="$work/ans" ansible-doc --json "kattr.rgctl.$m"
	expect_rc 0 "ansible-doc kattr.rgctl.$m"
	expect_match "$out" '"short_description"' "ansible-doc kattr.rgctl.$m: its documentation"
	[ -z "$err" ] && ok || fail "ansible-doc kattr.rgctl.$m warned: ${err:0:300}"
done
command -v ansible-test >/dev/null || { echo "ansible-test is not installed: its sanity tests not run"; finish; }
# ansible-test writes tests/output beside the collection: a copy of it
mkdir -p "$work/ansible_collections/kattr"
cp -r "$coll" "$work/ansible_collections/kattr/rgctl"
offline="action-plugin-docs compile empty-init future-import-boilerplate line-endings
metaclass-boilerplate no-assert no-basestring no-dict-iteritems no-dict-iterkeys
no-dict-itervalues no-get-exception no-illegal-filenames no-main-display no-smart-quotes
no-unicode-literals replace-urlopen shebang shellcheck symlinks use-argspec-type-path use-compat-six"
args=()
for t in $offline; do args+=(--test "$t"); done
run env -C "$work/ansible_collections/kattr/rgctl" HOME="$work" \
	ansible-test sanity --python "$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" "${args[@]}"
expect_rc 0 "ansible-test sanity (offline tests: $(echo $offline))"
[ "$rc" = 0 ] || echo "$out"
finish
