# debian/rgctl.postrm and rgctl.prerm on this host, on a directory of the
# test's own (the scripts' /run/rgctl replaced): a purge removes what is
# stale in rgctl's run state but not a file a running process holds (an
# rgctl's lock or journal), nor the directory then; once nothing holds it,
# a purge removes it all.  The prerm stops every unit the package ships.
. "$SRC_DIR/tests/cli/lib.sh"
work=$(mktemp -d)
holder=
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null && wait "$holder" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
run_dir=$work/run/rgctl
sed "s|^dir=/run/rgctl\$|dir=$run_dir|" "$SRC_DIR/debian/rgctl.postrm" >"$work/postrm"
grep -q "^dir=$run_dir\$" "$work/postrm" || { echo "FAIL: postrm names no dir=/run/rgctl"; exit 1; }
mkdir -p "$run_dir/journal" "$run_dir/owned"
echo stale >"$run_dir/journal/old.journal"
echo owned >"$run_dir/owned/x"
: >"$run_dir/apply.lock"
# a running rgctl: holds its lock open (flock) and its journal
echo live >"$run_dir/journal/live.journal"
sh -c 'exec 9<"$1" 8<"$2" && flock 9 && echo ready >"$3" && exec sleep 600' sh \
	"$run_dir/apply.lock" "$run_dir/journal/live.journal" "$work/ready" >/dev/null 2>&1 &
holder=$!
wait_until 10 '[ -s "$work/ready" ]' || { echo "FAIL: the holder did not start"; exit 1; }
run sh "$work/postrm" remove
expect_rc 0 "postrm remove"
[ -e "$run_dir/journal/old.journal" ] && ok || fail "postrm remove removed run state"
run sh "$work/postrm" purge
expect_rc 0 "postrm purge while a process holds files"
[ -e "$run_dir/apply.lock" ] && ok || fail "purge removed a lock a running process holds"
[ -e "$run_dir/journal/live.journal" ] && ok || fail "purge removed a journal a running process holds"
[ ! -e "$run_dir/journal/old.journal" ] && ok || fail "purge left a stale journal"
[ ! -e "$run_dir/owned" ] && ok || fail "purge left the stale registry"
kill "$holder"; wait "$holder" 2>/dev/null; holder=
run sh "$work/postrm" purge
expect_rc 0 "postrm purge once nothing holds it"
[ ! -e "$run_dir" ] && ok || fail "purge left $run_dir: $(find "$run_dir" | head -5)"
# prerm: every unit of debian/rgctl.install is stopped on remove
for u in $(grep -o '[^/]*\.service$' "$SRC_DIR/debian/rgctl.install"); do
	expect_match "$(grep 'deb-systemd-invoke stop' "$SRC_DIR/debian/rgctl.prerm")" "$u" "prerm stops $u on remove"
done
finish
