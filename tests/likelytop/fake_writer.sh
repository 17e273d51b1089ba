#!/bin/bash
# A stand-in for a program built with likely_prof.h: writes snapshots in
# the /proc/likely_prof format to $LIKELY_PROF_DIR/<its pid>, atomically
# (a '.'-named temporary, then rename), every $FAKE_PERIOD seconds,
# $FAKE_COUNT times (0: until killed), then exits.
# Usage: fake_writer.sh [COUNT [PERIOD]]
set -eu
dir=${LIKELY_PROF_DIR:?}
count=${1:-5} period=${2:-0.2}
mkdir -p "$dir"
i=0
while :; do
	i=$((i + 1))
	tmp="$dir/.$$.tmp"
	{
		printf 'Likely Profiling Results\n'
		printf ' --------------------------------------------------------------------\n'
		printf '[+- ] Type | # True | # False | Function:Filename@Line\n'
		printf '+unlikely |%9u|%9u\t%s()@:%s@%d\n' $((i * 84)) $((i * 67)) kfree mm/slab.c 3380
		printf ' likely   |%9u|%9u\t%s()@:%s@%d\n' $((i * 100)) $((i * 2)) fake_main /src/fake.c 42
		printf ' unlikely |%9u|%9u\t%s()@:%s@%d\n' 0 $((i * 5)) fake_error /src/fake.c 57
	} >"$tmp"
	mv -f "$tmp" "$dir/$$"
	[ "$count" != 0 ] && [ "$i" -ge "$count" ] && break
	sleep "$period"
done
exit 0
