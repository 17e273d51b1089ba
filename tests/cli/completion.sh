# Bash completion (completion/kattr.bash): sourced in bash with the built
# tools first in PATH, driven as bash does (COMP_WORDS, COMP_CWORD, the
# function `complete -p` names), and the candidates checked: commands,
# options from each tool's --help, option values, group names read from
# the hierarchy through rgctl, column names, likelytop's sources.
. "$(dirname "$0")/lib.sh"
comp="$SRC_DIR/completion/kattr.bash"
[ -r /usr/share/bash-completion/bash_completion ] ||
	skip_test "bash-completion is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
cg=/sys/fs/cgroup/cpu
grp="kattr_comp_$$"
cleanup() {
	rmdir "$cg/$grp/sub" "$cg/$grp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
export PATH="$BUILD_DIR/src/rgctl:$BUILD_DIR/src/likelytop:$BUILD_DIR/src/splicebench:$PATH"

# cands LINE...: the candidates bash would offer for the last word of LINE
# (a trailing space: an empty word), sorted, one line.
cands() {
	bash --norc --noprofile -c '
		. "$1"; shift
		line=$1
		read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line COMP_POINT=${#line}
		f=$(complete -p "${COMP_WORDS[0]}" | sed -E "s/.*-F ([^ ]+) .*/\1/")
		# the text readline replaces: after the last = or : (COMP_WORDBREAKS)
		text=${COMP_WORDS[COMP_CWORD]}
		text=${text##*[=:]}
		"$f" "${COMP_WORDS[0]}" "$text" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$comp" "$1"
}
# expect LINE WORD...: each WORD is among the candidates for LINE
expect() {
	local line=$1 got w
	shift
	got=" $(cands "$line")"
	for w in "$@"; do
		case "$got" in *" $w "*) ok ;; *) fail "'$line<TAB>': no '$w' in:$got" ;; esac
	done
}
# expect_only LINE WORD...: the candidates are exactly WORD...
expect_only() {
	local line=$1 got want
	shift
	got=$(cands "$line")
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] && ok || fail "'$line<TAB>': '$got', expected '$want'"
}
# expect_none LINE WORD...: no WORD among the candidates
expect_none() {
	local line=$1 got w
	shift
	got=" $(cands "$line")"
	for w in "$@"; do
		case "$got" in *" $w "*) fail "'$line<TAB>': '$w' should not be offered" ;; *) ok ;; esac
	done
}

# Registered for all three.
for t in rgctl likelytop splicebench; do
	got=$(bash --norc -c ". '$comp'; complete -p $t")
	[ "$got" = "complete -F _$t $t" ] && ok || fail "complete -p $t: '$got'"
done

# rgctl: commands, global and per-command options, values.
expect "rgctl " list create delete shares attach members stats exec whereis apply dump classify
expect_only "rgctl sh" shares
expect "rgctl --" --backend --root --json --sysroot --help --version
expect_none "rgctl --" --dry-run --recursive --threads
expect_only "rgctl -b " rgcs cgroup1 cgroup2
expect_only "rgctl --backend=cg" cgroup1 cgroup2
expect "rgctl create --" --shares --no-enable --res
expect "rgctl -b cgroup1 delete --" --recursive
expect "rgctl apply --" --dry-run --prune --wait
expect "rgctl stats --" --format --textfile --recursive --interval
expect_only "rgctl stats --format " text openmetrics
mkdir -p "$tmp/conf.d" && touch "$tmp/conf.d/groups.conf"
expect_only "rgctl apply $tmp/conf.d/gr" "$tmp/conf.d/groups.conf"
expect "rgctl whereis " "$$"
expect "rgctl exec g -- bas" bash

# Group names, from the hierarchy through rgctl.
if mkdir "$cg/$grp" 2>/dev/null && mkdir "$cg/$grp/sub"; then
	expect_only "rgctl -b cgroup1 --root $cg shares $grp" "$grp" "$grp/sub"
	expect_only "rgctl --root=$cg -b cgroup1 list $grp/s" "$grp/sub"
	expect "rgctl -b cgroup1 --root $cg attach $grp/sub " "$$"
	expect_none "rgctl -b cgroup1 --root $cg attach $grp/sub " "$grp"
	# KEY=: the group's value now, from rgctl get
	echo 512 >"$cg/$grp/sub/cpu.shares"
	now=$(rgctl -b cgroup1 --root "$cg" get "$grp/sub" cpu.weight -n -o VALUE | tr -d ' ')
	[ -n "$now" ] && [ "$now" != 100 ] && ok || fail "rgctl get cpu.weight of 512 shares: '$now'"
	expect_only "rgctl -b cgroup1 --root $cg set $grp/sub cpu.weight=" 100 "$now"
else
	echo "note: $cg is not writable here: group names are not checked"
fi

# -o: the command's own columns (rgctl list --help), not those already
# in the list; rgctl set/get/create --set: the keys of `rgctl set --help`,
# and after KEY= its values.
expect_only "rgctl list -o " DEPTH GROUP MISSING NAME SHARES TASKS
expect_only "rgctl -b cgroup1 list -o GROUP,SHARES," GROUP,SHARES,DEPTH GROUP,SHARES,MISSING GROUP,SHARES,NAME GROUP,SHARES,TASKS
expect_only "rgctl get g -o K" KEY
expect_only "rgctl set g memory.m" memory.max= memory.min=
expect "rgctl set g " cpu.weight= cpu.max= cpuset.cpus= memory.max= io.weight= pids.max=
expect_only "rgctl set g memory.max=" max
expect_only "rgctl set g io.max=" 
expect_only "rgctl set g cpu.weight=" 100
expect_only "rgctl create g --set pids" pids.max=
expect_only "rgctl create g --set pids.max=" max
expect_only "rgctl get g memory.s" memory.swap.max
expect_only "rgctl get g " cpu.weight cpu.max cpuset.cpus cpuset.mems memory.min memory.low memory.high memory.max memory.swap.max io.weight io.max pids.max

# likelytop: options, values, columns, sources.
expect "likelytop --" --batch --file --pid --exec --format --sort --output --output-all --noheadings --raw --filter --wrong-only
expect_only "likelytop --format " text csv json openmetrics
expect "likelytop --sugg" --suggest --suggest-out
expect "likelytop -" -J
expect_only "likelytop -s r" rate
expect_only "likelytop -o FU" FUNCTION
expect_only "likelytop -o HINT,MI" HINT,MISS%
expect_only "likelytop --output +CO" +CONSTANT +CORRECT
expect_only "likelytop -b -o LOCATION,F" LOCATION,FILE LOCATION,FUNCTION
mkdir -p "$tmp/prof" && touch "$tmp/prof/4242" "$tmp/prof/4343" "$tmp/prof/notapid"
LIKELY_PROF_DIR="$tmp/prof" expect_only "likelytop -p " 4242 4343
touch "$tmp/saved_likely_prof"
expect_only "likelytop -f $tmp/saved_l" "$tmp/saved_likely_prof"
[ -e /proc/likely_prof ] && expect "likelytop -f /proc/li" /proc/likely_prof
expect "likelytop -f " -
expect "likelytop --exec -- bas" bash
expect_none "likelytop --exec -- make --" --batch

# splicebench: options, the lists of --mode, columns, the plot's files.
expect "splicebench --" --mode --consumer --size --runs --format --plot --quick --quiet --output --output-all --noheadings --raw
expect_only "splicebench --mode copy,v" copy,vmsplice
expect_only "splicebench --mode copy," copy,gift copy,vmsplice
expect_only "splicebench --mode gift,copy," gift,copy,vmsplice
expect_only "likelytop -o HINT,hint,MISS%,F" HINT,hint,MISS%,FILE HINT,hint,MISS%,FUNCTION
expect "likelytop --format " openmetrics
expect "likelytop --" --textfile
expect_only "splicebench --consumer v" verify
expect_only "splicebench --format " table csv json
expect_only "splicebench -o mode,GB" mode,GBPS
touch "$tmp/plot.svg" "$tmp/plot.txt"
expect "splicebench --plot $tmp/pl" "$tmp/plot.svg"
expect_none "splicebench --plot $tmp/pl" "$tmp/plot.txt"
finish
