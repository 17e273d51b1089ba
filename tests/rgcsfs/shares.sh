#!/bin/bash
# rgcsfs against rgcs-abi.md: the shares file (read format, key list,
# every EINVAL case, -1 / -2 / -3, the parent/child divisor rules).
. "$SRC_DIR/tests/rgcsfs/common.sh"

# cpu_line / nt_line GROUP: that controller's line of GROUP's shares
cpu_line() { grep '^res=cpu,' "$R/$1/shares"; }
nt_line() { grep '^res=numtasks,' "$R/$1/shares"; }

same "$(cat "$R/shares")" "res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100
res=cpu,min_shares=-3,max_shares=-2,child_shares_divisor=100" "root shares"
io OK "mkdir a" mkdir "$R/a"
io OK "mkdir a/b" mkdir "$R/a/b"
same "$(cat "$R/a/shares")" "res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100
res=cpu,min_shares=0,max_shares=-2,child_shares_divisor=100" "a new group's shares"

# Valid writes; omitted keys stay; empty tokens are skipped.
io OK "cpu min" write "$R/a/shares" "res=cpu,min_shares=30"
same "$(cpu_line a)" "res=cpu,min_shares=30,max_shares=-2,child_shares_divisor=100" "cpu min set"
same "$(nt_line a)" "res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100" "numtasks untouched"
io OK "numtasks min and max, keys in any order" write "$R/a/shares" "max_shares=50,res=numtasks,min_shares=10"
same "$(nt_line a)" "res=numtasks,min_shares=10,max_shares=50,child_shares_divisor=100" "numtasks set"
io OK "empty tokens" write "$R/a/shares" ",,res=cpu,,min_shares=20,"
same "$(cpu_line a)" "res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=100" "empty tokens skipped"
io OK "-1 is unchanged" write "$R/a/shares" "res=numtasks,min_shares=-1,max_shares=-1,child_shares_divisor=-1"
same "$(nt_line a)" "res=numtasks,min_shares=10,max_shares=50,child_shares_divisor=100" "-1 leaves fields alone"
io OK "hex value (match_int is base 0)" write "$R/a/shares" "res=cpu,min_shares=0x19"
same "$(cpu_line a)" "res=cpu,min_shares=25,max_shares=-2,child_shares_divisor=100" "0x19 is 25"
io OK "octal value" write "$R/a/shares" "res=cpu,min_shares=030"
same "$(cpu_line a)" "res=cpu,min_shares=24,max_shares=-2,child_shares_divisor=100" "030 is 24"
io OK "trailing newline" write "$R/a/shares" "res=cpu,min_shares=20\n"
same "$(cpu_line a)" "res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=100" "newline harmless"
io OK "text after a newline is ignored" write "$R/a/shares" "res=cpu\nmin_shares=99"
same "$(cpu_line a)" "res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=100" "cut at the newline"
# configfs looks at one page minus one byte of a write: the rest is ignored
pad=$(printf '%*s' 4200 '' | tr ' ' ',')
io OK "a write longer than a page" write "$R/a/shares" "res=cpu$pad,min_shares=99"
same "$(cpu_line a)" "res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=100" "bytes past 4095 ignored"
io OK "a key ending at byte 4095" write "$R/a/shares" "res=cpu${pad:0:4095-7-14},min_shares=21"
same "$(cpu_line a)" "res=cpu,min_shares=21,max_shares=-2,child_shares_divisor=100" "byte 4095 still read"
io OK "back to 20" write "$R/a/shares" "res=cpu,min_shares=20"
# -2 (unsupported) fields stay: cpu's max_shares
io OK "cpu max_shares is accepted" write "$R/a/shares" "res=cpu,max_shares=40"
same "$(cpu_line a)" "res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=100" "cpu max stays -2"
io OK "-3 (don't care)" write "$R/a/shares" "res=numtasks,max_shares=-3"
same "$(nt_line a)" "res=numtasks,min_shares=10,max_shares=-3,child_shares_divisor=100" "-3 stored"
io OK "numtasks min set to -2" write "$R/a/shares" "res=numtasks,min_shares=-2"
io OK "a -2 field accepts writes" write "$R/a/shares" "res=numtasks,min_shares=5"
same "$(nt_line a)" "res=numtasks,min_shares=-2,max_shares=-3,child_shares_divisor=100" "a -2 field silently stays"

# Every EINVAL case; none changes anything.
before=$(cat "$R/a/shares")
for v in "res=cpu,foo=1" "res=cpu,MIN_SHARES=1" "res=cpu, min_shares=1" \
	"res=cpu,min_shares" "res=cpu,min_shares=" "res=cpu,min_shares=abc" \
	"res=cpu,min_shares=10abc" "res=cpu,min_shares=1.5" "res=cpu,min_shares=+5" \
	"res=cpu,res=cpu" "res=cpu,min_shares=1,res=numtasks" \
	"res=memory,min_shares=1" "res=CPU,min_shares=1" "res=,min_shares=1" \
	"min_shares=10" "" "res=cpu,min_shares=-4" "res=cpu,min_shares=-100" \
	"res=cpu,child_shares_divisor=-5" "res=numtasks,max_shares=-7" \
	"\x01res=cpu,min_shares=10"; do
	io EINVAL "shares write '$v'" write "$R/a/shares" "${v:-\n}"
done
same "$(cat "$R/a/shares")" "$before" "failed shares writes changed nothing"
io OK "cut at a control byte" write "$R/a/shares" "res=cpu,min_shares=10\x01,res=numtasks"
same "$(cpu_line a)" "res=cpu,min_shares=10,max_shares=-2,child_shares_divisor=100" "value before the control byte"
io OK "numtasks max 40" write "$R/a/shares" "res=numtasks,min_shares=-1,max_shares=40"
io OK "numtasks min from -2? stays" write "$R/a/shares" "res=numtasks,max_shares=40"
io OK "b numtasks 10..30" write "$R/a/b/shares" "res=numtasks,min_shares=10,max_shares=30"
io EINVAL "min > max" write "$R/a/b/shares" "res=numtasks,min_shares=31"
io EINVAL "max < min" write "$R/a/b/shares" "res=numtasks,max_shares=9"
io OK "min > max is fine when max is -3" write "$R/a/b/shares" "res=numtasks,max_shares=-3,min_shares=60"
before=$(cat "$R/a/shares")
# a child's min/max above the parent's divisor (100)
io EINVAL "child min above the parent's divisor" write "$R/a/b/shares" "res=cpu,min_shares=101"
io EINVAL "child max above the parent's divisor" write "$R/a/b/shares" "res=numtasks,max_shares=101"
io OK "child min equal to the parent's divisor" write "$R/a/b/shares" "res=cpu,min_shares=100"
# a divisor smaller than what children already hold
io EINVAL "parent divisor below a child's min" write "$R/a/shares" "res=cpu,child_shares_divisor=99"
io EINVAL "parent divisor below a child's min (numtasks)" write "$R/a/shares" "res=numtasks,child_shares_divisor=59"
io OK "child min down to 10" write "$R/a/b/shares" "res=cpu,min_shares=10"
io OK "parent divisor 10" write "$R/a/shares" "res=cpu,child_shares_divisor=10"
same "$(cpu_line a)" "res=cpu,min_shares=10,max_shares=-2,child_shares_divisor=10" "divisor set"
io EINVAL "child min 11 above the new divisor" write "$R/a/b/shares" "res=cpu,min_shares=11"
same "$(cpu_line a/b)" "res=cpu,min_shares=10,max_shares=-2,child_shares_divisor=100" "b unchanged"
io OK "root divisor to 10 (a holds 10)" write "$R/shares" "res=cpu,child_shares_divisor=10"
io EINVAL "root divisor to 9" write "$R/shares" "res=cpu,child_shares_divisor=9"
io OK "parent divisor -3 lifts the limit" write "$R/a/shares" "res=cpu,child_shares_divisor=-3"
io OK "child min 500 under a -3 divisor" write "$R/a/b/shares" "res=cpu,min_shares=500"

# Depth 4 has no controller attached.
io OK "mkdir a/b/c/d" mkdir "$R/a/b/c"
io OK "mkdir a/b/c/d" mkdir "$R/a/b/c/d"
io EINVAL "controller not attached at depth 4" write "$R/a/b/c/d/shares" "res=cpu,min_shares=1"
same "$(cat "$R/a/b/c/d/shares")" "" "no shares at depth 4"

stop_emulator
finish
