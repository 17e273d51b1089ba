# rgctl list's table (issue 14): golden outputs of the default tree, -o,
# --output-all, -n, -r, --json's "tree" (and its old keys), in the C and a
# UTF-8 locale, widths fitted to a 40-column terminal; global options
# anywhere on the line; negative numbers as operands; rgctl help COMMAND
# and each command's --help.  Captured trees (--sysroot): no root needed.
. "$(dirname "$0")/common.sh"
command -v jq >/dev/null || skip_test "jq is not installed (apt-get install jq)"
T=$(mktemp -d /tmp/rgctl-table.XXXXXX)
CLEANUPS+=("rm -rf '$T'")
C=$T/sys/fs/cgroup/cpu R=$T/sys/kernel/config/res_groups
mkdir -p "$T/proc/self" "$C/db/batch" "$C/db/web" "$C/log" "$R/db/batch"
cat >"$T/proc/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw
32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
50 23 0:40 / /sys/kernel/config rw - configfs configfs rw
MI
for d in "" /db /db/batch /db/web /log; do echo 1024 >"$C$d/cpu.shares"; : >"$C$d/tasks"; done
echo 512 >"$C/db/batch/cpu.shares"; printf '11\n12\n' >"$C/db/tasks"; echo 13 >"$C/log/tasks"
for d in "" /db /db/batch; do
	printf 'res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100\nres=cpu,min_shares=30,max_shares=-2,child_shares_divisor=100\n' >"$R$d/shares"
	: >"$R$d/members"
done
printf '11\n12\n' >"$R/db/members"
r() { run env LC_ALL=C "$RG" --sysroot "$T" -b cgroup1 "$@"; }
rr() { run env LC_ALL=C "$RG" --sysroot "$T" -b rgcs "$@"; }
golden() {	# golden WHAT: $out is exactly stdin, exit 0, stderr empty
	local want
	want=$(cat)
	expect_rc 0 "$1"
	expect_eq "$out" "$want" "$1: output"
	expect_eq "$err" "" "$1: stderr"
}

r list
golden "list" <<'X'
GROUP        TASKS SHARES
/                0 1024
|-db             2 1024
| |-db/batch     0 512
| `-db/web       0 1024
`-log            1 1024
X
r list db -o +DEPTH
golden "list -o +DEPTH" <<'X'
GROUP      TASKS SHARES DEPTH
db             2 1024       1
|-db/batch     0 512        2
`-db/web       0 1024       2
X
r list -n -o name,depth
golden "list -n -o name,depth" <<'X'
/             0
|-db          1
| |-batch     2
| `-web       2
`-log         1
X
r list -r --output-all
golden "list -r --output-all" <<'X'
NAME GROUP DEPTH TASKS SHARES MISSING
/ / 0 0 1024 -
db db 1 2 1024 -
batch db/batch 2 0 512 -
web db/web 2 0 1024 -
log log 1 1 1024 -
X
r list -rn -o TASKS,group db
golden "list -rn -o TASKS,group" <<'X'
2 db
0 db/batch
0 db/web
X
rr list
golden "rgcs list" <<'X'
GROUP        TASKS SHARES
/                0 numtasks:-3/-3/100 cpu:30/-2/100
`-db             2 numtasks:-3/-3/100 cpu:30/-2/100
  `-db/batch     0 numtasks:-3/-3/100 cpu:30/-2/100
X
if locale -a 2>/dev/null | grep -qix 'C.utf-\?8'; then
	run env LC_ALL=C.UTF-8 "$RG" --sysroot "$T" -b cgroup1 list db
	golden "list in a UTF-8 locale" <<'X'
GROUP      TASKS SHARES
db             2 1024
├─db/batch     0 512
└─db/web       0 1024
X
else
	echo "note: no C.UTF-8 locale here: the UTF-8 tree is not checked"
fi

# --json: the old keys as they were; with --tree, the nested "tree" too
r list db -J
expect_rc 0 "list -J"
expect_eq "$(jq -c . <<<"$out")" '{"backend":"cgroup1","root":"/sys/fs/cgroup/cpu","groups":[{"name":"db","depth":1,"tasks":2,"shares":[{"res":"cpu","file":"cpu.shares","value":1024}]},{"name":"db/batch","depth":2,"tasks":0,"shares":[{"res":"cpu","file":"cpu.shares","value":512}]},{"name":"db/web","depth":2,"tasks":0,"shares":[{"res":"cpu","file":"cpu.shares","value":1024}]}],"systemd":{"pid1":false,"init_scope":false,"manages":false}}' "list --json: the old keys, and systemd (not here)"
old=$(jq -c . <<<"$out")
r list db -J -T
expect_eq "$(jq -c 'del(.tree)' <<<"$out")" "$old" "list --json --tree: the old keys"
r list db -JT
expect_eq "$(jq -c .tree <<<"$out")" '[{"group":"db","tasks":2,"shares":1024,"children":[{"group":"db/batch","tasks":0,"shares":512},{"group":"db/web","tasks":0,"shares":1024}]}]' "list --json: tree"
r list -o name,depth,tasks --json -n -r --tree
expect_eq "$(jq -c .tree <<<"$out")" '[{"name":"/","depth":0,"tasks":0,"children":[{"name":"db","depth":1,"tasks":2,"children":[{"name":"batch","depth":2,"tasks":0},{"name":"web","depth":2,"tasks":0}]},{"name":"log","depth":1,"tasks":1}]}]' "list --json -o: tree of the chosen columns"
rr list db --json --tree
expect_eq "$(jq -c .tree <<<"$out")" '[{"group":"db","tasks":2,"shares":"numtasks:-3/-3/100 cpu:30/-2/100","children":[{"group":"db/batch","tasks":0,"shares":"numtasks:-3/-3/100 cpu:30/-2/100"}]}]' "rgcs list --json: tree"

# widths fitted to the terminal: 40 columns, the shares cut
if command -v script >/dev/null; then
	run env LC_ALL=C COLUMNS=40 script -qec "'$RG' --sysroot '$T' -b rgcs list" /dev/null
	expect_rc 0 "list on a 40-column terminal"
	out=$(printf '%s\n' "$out" | tr -d '\r')
	expect_eq "$(printf '%s\n' "$out" | awk 'length > 40' | wc -l)" 0 "list fits 40 columns"
	expect_match "$out" '`-db/batch +0 numtasks:-3/-3/100 cp' "the shares column is cut first"
else
	echo "note: no script(1): widths on a terminal not checked"
fi

# column errors are usage errors
r list -o NAME,BOGUS
expect_rc 2 "-o with an unknown column"
expect_match "$err" "^rgctl list: unknown column 'BOGUS'" "unknown column message"
r list -o name,
expect_rc 2 "-o ending in ','"
r list -o name --output-all
expect_rc 2 "-o and --output-all"
r list -o
expect_rc 2 "-o without columns"
expect_match "$err" "^rgctl list: option '-o' needs an argument" "-o without columns message"

# global options anywhere on the line
want=$(jq -c . <<<"$("$RG" --sysroot "$T" -b cgroup1 --json list db)")
expect_match "$want" '^\{"backend":"cgroup1"' "the JSON to compare with"
for line in "list --json db" "list db -j" "-j list db" "list db -J" \
	"list -b cgroup1 db --json" "list db --json --backend=cgroup1"; do
	# shellcheck disable=SC2086
	run "$RG" --sysroot "$T" $line -b cgroup1
	expect_rc 0 "rgctl $line"
	expect_eq "$(jq -c . <<<"$out")" "$want" "rgctl $line: the same JSON"
done
run env LC_ALL=C "$RG" list db --sysroot "$T" -b cgroup1 --root /sys/fs/cgroup/cpu -o group
expect_eq "$out" "$(printf 'GROUP\ndb\n|-db/batch\n`-db/web')" "--sysroot and --root after the command"
run "$RG" --sysroot "$T" -r /sys/fs/cgroup/cpu list
expect_rc 2 "-r before the command"
expect_match "$err" "^rgctl: -r is --raw \(of list\) now; the hierarchy is --root DIR" "-r before the command message"
r shares db --threads
expect_rc 2 "another command's option"
expect_match "$err" "^rgctl shares: unknown or ambiguous option '--threads'" "another command's option message"

# a word with '-' and a digit is an operand: refused by name, not as an option
r shares db -5
expect_rc 2 "shares db -5"
expect_eq "$err" "rgctl: invalid shares '-5' for cgroup1: out of range (2..262144)" "shares db -5 message"
r shares -j db -10x
expect_rc 2 "shares db -10x"
expect_match "$err" "^rgctl: invalid shares '-10x' for cgroup1" "shares db -10x message"
r whereis -- -1
expect_rc 2 "whereis -- -1"
expect_eq "$err" "rgctl: invalid pid '-1': not a plain decimal number > 0" "whereis -1 message"
r attach db 11 -1
expect_rc 2 "attach db 11 -1"
r list -b5
expect_rc 2 "list -b5"
expect_match "$err" "unknown backend '5'" "list -b5: an option's value"
r shares db -5 -x
expect_rc 2 "shares db -5 -x"
expect_match "$err" "^rgctl shares: unknown option '-x'" "shares -x after a negative number"

# help: rgctl help COMMAND is COMMAND --help; each option explained
for c in list create delete shares set get attach members stats exec whereis apply dump classify help; do
	run "$RG" help "$c"
	h1=$out
	expect_rc 0 "help $c"
	run "$RG" "$c" --help
	expect_rc 0 "$c --help"
	expect_eq "$out" "$h1" "help $c is $c --help"
	expect_match "$out" "^Usage: rgctl $c \[options\]" "$c --help usage line"
	# every option line: the option, then a sentence with a capital
	bad=$(printf '%s\n' "$out" | grep -E '^  -' | grep -vE '^  -.{20,}  +[A-Z]' || true)
	expect_eq "$bad" "" "$c --help: each option explained in a sentence"
done
opts_of() {	# opts_of CMD: the long options its --help explains
	"$RG" "$1" --help | sed -n '/^Options:/,/^$/p' | cut -c1-26 | grep -oE -- '--[a-z0-9-]+' |
		sort -u | tr '\n' ' '
}
expect_eq "$(opts_of list)" "--help --names0 --noheadings --output --output-all --raw --tree " "list --help options"
expect_eq "$(opts_of create)" "--help --no-enable --parents --res --set --shares " "create --help options"
expect_eq "$(opts_of set)" "--dry-run --help --no-enable " "set --help options"
expect_eq "$(opts_of get)" "--help --noheadings --output --output-all --raw " "get --help options"
expect_eq "$(opts_of delete)" "--help --recursive " "delete --help options"
expect_eq "$(opts_of shares)" "--help --no-enable --res " "shares --help options"
expect_eq "$(opts_of attach)" "--help --thread --threads " "attach --help options"
expect_eq "$(opts_of members)" "--help --output --threads " "members --help options"
expect_eq "$(opts_of stats)" "--count --delay --format --help --interval --noheadings --output --output-all --raw --recursive --textfile " "stats --help options"
expect_eq "$(opts_of apply)" "--dry-run --help --no-enable --no-undo --prune --wait " "apply --help options"
expect_eq "$(opts_of classify)" "--at-exec --help --once --rcvbuf --verbose " "classify --help options"
run "$RG" list --help
for col in NAME GROUP DEPTH TASKS SHARES; do
	expect_match "$out" "
  $col +[A-Z]" "list --help lists column $col"
done
run "$RG" help nosuch
expect_rc 2 "help nosuch"
expect_match "$err" "^rgctl help: unknown command 'nosuch'" "help nosuch message"
run "$RG" help
expect_rc 0 "help"
top=$out
run "$RG" --help
expect_eq "$out" "$top" "help is --help"
# the top-level help: descriptions in one column, each a capitalised sentence
cols=$(printf '%s\n' "$top" | sed -n '/^Commands:/,/^$/p' | grep '^  [a-z]' |
	perl -ne 'print length($1), "\n" if /^(  \S.*?\S?\s{2,})[A-Z]/' | sort -u)
expect_eq "$(printf '%s\n' "$cols" | wc -l)" 1 "top-level help: command descriptions line up"
n=$(printf '%s\n' "$top" | sed -n '/^Commands:/,/^$/p' | grep -c '^  [a-z]')
expect_eq "$n" 16 "top-level help: 16 commands, each with a capitalised description"
finish
