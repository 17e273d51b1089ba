# Driving a live view in tmux panes, shared by the *_live.sh tests;
# sourced after lib.sh (ok, fail).  Before use, the test sets
#   tmp        a directory of its own (the panes' scripts and status files)
#   TMUX_SOCK  its own tmux server (tmux -L), killed by tmux_stop
# and optionally KEYS_PAUSE (seconds slept after keys, default 0) and
# WAIT_TENTHS (wait_for's and wait_gone's bound, default 100: 10 s).
#
# T ARGS...                 tmux on the test's server
# tmux_start NAME W H PRELUDE CMD...
#                           CMD in a new W x H session NAME: the PRELUDE
#                           shell lines first, then the terminal settings
#                           to $tmp/NAME.before, CMD, its exit status to
#                           $tmp/NAME.rc, the settings to $tmp/NAME.after;
#                           the pane stays open 30 s after
# screen NAME               the pane's text
# wait_for NAME REGEX WHAT  poll the pane until REGEX is on it (ok), or fail
#                           showing the pane; status 1 then
# wait_gone NAME REGEX WHAT the same until REGEX is not on it
# keys NAME KEYS...         tmux send-keys
# wait_exit NAME [STATUS]   the command ended with STATUS (default 0) and
#                           the terminal settings were restored
# tmux_stop                 kill the server (for the test's EXIT trap)
T() { tmux -L "$TMUX_SOCK" "$@"; }
tmux_stop() { T kill-server 2>/dev/null; }

tmux_start() {
	local name=$1 w=$2 h=$3 prelude=$4
	shift 4
	cat >"$tmp/$name.sh" <<EOS
$prelude
stty -g >'$tmp/$name.before'
$(printf '%q ' "$@")
echo \$? >'$tmp/$name.rc'
stty -g >'$tmp/$name.after'
sleep 30
EOS
	T new-session -d -s "$name" -x "$w" -y "$h" "bash '$tmp/$name.sh'"
}

screen() { T capture-pane -p -t "$1"; }

wait_for() {
	local i
	for i in $(seq "${WAIT_TENTHS:-100}"); do
		screen "$1" | grep -Eq -- "$2" && { ok; return 0; }
		sleep 0.1
	done
	fail "$3: /$2/ not on screen:"
	screen "$1" | sed 's/^/    | /'
	return 1
}

wait_gone() {
	local i
	for i in $(seq "${WAIT_TENTHS:-100}"); do
		screen "$1" | grep -Eq -- "$2" || { ok; return 0; }
		sleep 0.1
	done
	fail "$3: /$2/ still on screen"
	return 1
}

keys() {
	T send-keys -t "$1" "${@:2}"
	[ "${KEYS_PAUSE:-0}" = 0 ] || sleep "$KEYS_PAUSE"
}

wait_exit() {
	local i
	for i in $(seq 100); do [ -s "$tmp/$1.after" ] && break; sleep 0.1; done
	[ -s "$tmp/$1.rc" ] && [ "$(cat "$tmp/$1.rc")" = "${2:-0}" ] && ok ||
		fail "$1: exit status $(cat "$tmp/$1.rc" 2>/dev/null), expected ${2:-0}"
	cmp -s "$tmp/$1.before" "$tmp/$1.after" && ok || fail "$1: terminal settings not restored"
}
