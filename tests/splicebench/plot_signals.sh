# splicebench --plot ended by a signal while gnuplot draws (issue 46):
# SIGTERM, SIGHUP, SIGKILL and a second SIGINT each leave no gnuplot
# behind (it dies with splicebench) and no file in the plot's directory
# (the plot is drawn into a file with no name, O_TMPFILE, named only
# when it is complete); while gnuplot draws, no temporary name is there.
# A plot drawn to the end is still renamed into place.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path splicebench)
tmp=$(mktemp -d)
gp_pids=()
cleanup() {
	local p
	for p in "${gp_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$tmp/bin"
small=(--mode copy --size 64K --total 1M --runs 2)
# a gnuplot that reads its script, writes part of a plot, says its pid
# and then draws for ever (sleep takes its pid: no child of its own)
cat >"$tmp/bin/gnuplot" <<EOF
#!/bin/sh
cat >/dev/null
echo '<svg>partial'
echo \$\$ >"$tmp/gp.pid"
exec sleep 600
EOF
chmod +x "$tmp/bin/gnuplot"

for sig in TERM HUP KILL INT2; do
	d=$tmp/plot-$sig
	mkdir "$d"
	rm -f "$tmp/gp.pid"
	PATH="$tmp/bin:$PATH" "$bin" "${small[@]}" --plot "$d/p.svg" >"$tmp/out" 2>"$tmp/err" &
	sb=$!
	if ! wait_until 120 '[ -s "$tmp/gp.pid" ]'; then
		fail "$sig: gnuplot never started: $(cat "$tmp/err")"
		kill -9 $sb; wait $sb 2>/dev/null
		continue
	fi
	gp=$(cat "$tmp/gp.pid")
	gp_pids+=("$gp")
	left=$(ls -A "$d")
	[ -z "$left" ] && ok || fail "$sig: while gnuplot draws, the plot's directory has: $left"
	case $sig in
	INT2) kill -INT $sb; wait_until 5 '! kill -0 $sb 2>/dev/null'; kill -INT $sb 2>/dev/null ;;
	*) kill -$sig $sb ;;
	esac
	wait $sb 2>/dev/null
	wait_until 10 '! kill -0 $gp 2>/dev/null' && ok ||
		fail "$sig: gnuplot (pid $gp) outlived splicebench: $(tr '\0' ' ' </proc/$gp/cmdline 2>/dev/null)"
	left=$(ls -A "$d")
	[ -z "$left" ] && ok || fail "$sig: files left in the plot's directory: $left"
done

# drawn to the end: renamed into place, nothing else left
cat >"$tmp/bin/gnuplot" <<'EOF'
#!/bin/sh
cat >/dev/null
echo '<svg>whole</svg>'
EOF
d=$tmp/plot-whole; mkdir "$d"
run env PATH="$tmp/bin:$PATH" "$bin" "${small[@]}" --plot "$d/p.svg"
expect_rc 0 "--plot drawn whole"
[ "$(cat "$d/p.svg" 2>/dev/null)" = '<svg>whole</svg>' ] && ok || fail "--plot drawn whole: p.svg has: $(cat "$d/p.svg" 2>&1)"
[ "$(ls -A "$d")" = p.svg ] && ok || fail "--plot drawn whole: the directory has: $(ls -A "$d")"
finish
