# likelytop --suggest: the tour ends where the kfree story ended, with a
# patch: the real boot profile of the patched 6.1 guest (tests/data) against
# Debian's kernel source, when linux-source-6.1 is installed (only
# kernel/sched/fair.c is unpacked: about 30 s to read through the archive).
LT="$B/src/likelytop/likelytop"
TOP="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KSRC=/usr/src/linux-source-6.1.tar.xz
sugg_tmp=$(mktemp -d)
xz -dc "$TOP/tests/data/linux-6.1/likely_prof.xz" >"$sugg_tmp/likely_prof"
if [ -f "$KSRC" ]; then
	mkdir "$sugg_tmp/linux"
	tar -xJf "$KSRC" -C "$sugg_tmp/linux" --strip-components=1 linux-source-6.1/kernel/sched/fair.c
	step "likelytop --suggest: the real 6.1 boot profile's wrong likely() in __update_inv_weight(), as a patch for Debian's kernel source" \
		"$LT" --suggest "$sugg_tmp/linux" -f "$sugg_tmp/likely_prof" --filter __update_inv_weight
else
	echo "(linux-source-6.1 is not installed: the last stop uses the fixture tree of tests/likelytop/suggest instead)"
	step "likelytop --suggest: kfree's wrong unlikely(), as a patch" \
		"$LT" --suggest "$TOP/tests/likelytop/suggest/tree" -f "$TOP/tests/likelytop/suggest/likely_prof.txt" --filter kfree
fi
rm -rf "$sugg_tmp"
