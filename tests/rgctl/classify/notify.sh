#!/bin/bash
# rgctl classify under a service manager (rgctl-classify.service is
# Type=notify): with $NOTIFY_SOCKET set it sends READY=1 once it listens
# and has classified what runs, RELOADING=1 then READY=1 around a SIGHUP
# reload, and STOPPING=1 on SIGTERM (sd_notify(3)'s datagram protocol,
# spoken by rgctl itself), to a path or an abstract socket; with
# WATCHDOG_USEC it pings WATCHDOG=1.  The manager's socket is a Python
# datagram listener.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
command -v python3 >/dev/null || skip_test "python3 (the test's notify socket) is not installed"
rgd_setup notify
needs_libconfig
needs_libmnl
cd "$WORK" || exit 1
mkdir "$ROOT/n"
printf 'groups = ({ name = "n"; });\nrules = ({ group = "n"; comm = "rgdn%s"; });\n' $$ >n.conf
rgd_notify_listen "$WORK/notify.sock" "$WORK/notify.log"
wait_for() {	# wait_for REGEX [LOG]: a line of LOG (notify.log) matches within 10 s
	for ((i = 0; i < 100; i++)); do grep -Eq "$1" "${2:-notify.log}" && return 0; sleep 0.1; done
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
grep -q "service manager" daemon2.log && fail "complained without a manager: $(cat daemon2.log)" || ok

# an abstract socket (NOTIFY_SOCKET=@NAME), and the watchdog: with
# WATCHDOG_USEC (and WATCHDOG_PID its own pid, or unset) the daemon pings
# WATCHDOG=1 every half interval; for another pid it does not
ABS=@rgdnotify.$$.$RANDOM
rgd_notify_listen "$ABS" "$WORK/abs.log"
( export WATCHDOG_PID=$BASHPID WATCHDOG_USEC=200000 NOTIFY_SOCKET=$ABS
  exec "$RGCTL" --root "$ROOT" classify n.conf 2>daemon3.log ) & D3=$!; PIDS+=($D3)
wait_for '^READY=1' abs.log && ok || fail "abstract socket: no READY=1 (daemon: $(cat daemon3.log); got: $(cat abs.log))"
wait_for_count() {	# wait_for_count N REGEX LOG: N lines match within 10 s
	for ((i = 0; i < 100; i++)); do [ "$(grep -Ec "$2" "$3")" -ge "$1" ] && return 0; sleep 0.1; done
	return 1
}
wait_for_count 5 '^WATCHDOG=1$' abs.log && ok || fail "WATCHDOG_USEC=200000: fewer than 5 WATCHDOG=1 in 10 s: $(grep -c WATCHDOG abs.log)"
kill -TERM "$D3"; wait "$D3"
wait_for '^STOPPING=1' abs.log && ok || fail "abstract socket: no STOPPING=1: $(cat abs.log)"
rgd_notify_listen "$WORK/notify4.sock" "$WORK/n4.log"
WATCHDOG_PID=1 WATCHDOG_USEC=200000 NOTIFY_SOCKET=$WORK/notify4.sock \
	"$RGCTL" --root "$ROOT" classify n.conf 2>daemon4.log & D4=$!; PIDS+=($D4)
wait_for '^READY=1' n4.log && ok || fail "no READY=1 (daemon: $(cat daemon4.log))"
sleep 0.5	# two intervals: a ping would have come
kill -TERM "$D4"; wait "$D4"
grep -q '^WATCHDOG=1' n4.log && fail "WATCHDOG_PID names another process, yet the daemon pinged" || ok
finish
