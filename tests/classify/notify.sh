#!/bin/bash
# rgctl classify under a service manager (rgctl-classify.service is
# Type=notify): with $NOTIFY_SOCKET set it sends READY=1 once it listens
# and has classified what runs, RELOADING=1 then READY=1 around a SIGHUP
# reload, and STOPPING=1 on SIGTERM (sd_notify(3)'s datagram protocol,
# spoken by rgctl itself).  The manager's socket is a Python datagram
# listener.
. "$SRC_DIR/tests/classify/rgd_lib.sh"
command -v python3 >/dev/null || skip_test "python3 (the test's notify socket) is not installed"
rgd_setup notify
needs_libconfig
needs_libmnl
cd "$WORK" || exit 1
mkdir "$ROOT/n"
printf 'groups = ({ name = "n"; });\nrules = ({ group = "n"; comm = "rgdn%s"; });\n' $$ >n.conf
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[2], "w").close()
while True:
    m = s.recv(4096).decode()
    with open(sys.argv[2], "a") as f:
        f.write(m.replace("\n", "|") + "\n")
' "$WORK/notify.sock" "$WORK/notify.log" & PIDS+=($!)
for ((i = 0; i < 50; i++)); do [ -S notify.sock ] && [ -e notify.log ] && break; sleep 0.1; done
[ -S notify.sock ] || { echo "FAIL: the notify listener did not start"; exit 1; }
wait_for() {	# wait_for REGEX: a line of notify.log matches within 10 s
	for ((i = 0; i < 100; i++)); do grep -Eq "$1" notify.log && return 0; sleep 0.1; done
	return 1
}
NOTIFY_SOCKET=$WORK/notify.sock "$RGCTL" --root "$ROOT" classify n.conf 2>daemon.log & DAEMON=$!; PIDS+=($DAEMON)
wait_for '^READY=1' && ok || fail "no READY=1 (daemon: $(cat daemon.log); got: $(cat notify.log))"
kill -HUP "$DAEMON"
wait_for '^RELOADING=1' && ok || fail "no RELOADING=1 on SIGHUP: $(cat notify.log)"
[ "$(grep -c '^READY=1' notify.log)" -ge 1 ] && wait_for 'STATUS=rules reloaded' && ok || fail "no READY=1 after the reload: $(cat notify.log)"
kill -TERM "$DAEMON"
wait_for '^STOPPING=1' && ok || fail "no STOPPING=1 on SIGTERM: $(cat notify.log)"
wait "$DAEMON"
expect_rc_of=$?
[ "$expect_rc_of" = 0 ] && ok || fail "the daemon exited $expect_rc_of"
# without NOTIFY_SOCKET nothing is sent and nothing is said
"$RGCTL" --root "$ROOT" classify n.conf 2>daemon2.log & D2=$!; PIDS+=($D2)
sleep 1
kill -TERM "$D2"; wait "$D2"
grep -q sd_notify daemon2.log && fail "sd_notify complained without a manager: $(cat daemon2.log)" || ok
finish
