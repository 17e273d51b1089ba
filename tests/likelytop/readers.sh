# awk readings of the three profile formats, independent of likelytop's
# parser, and the check that two views of one kernel's data agree.  Used by
# tests/likelytop/real.sh (the real captures in tests/data/) and by the
# in-guest tests/vm/likelytop.sh (the live kernel).  Source it; $LT is the
# likelytop binary.

# awk_lp FILE: /proc/likely_prof ("F TYPE |TRUE|FALSE<TAB>func()@:file@line")
# as "hint correct incorrect function file line", sorted
awk_lp() {
	awk 'NR <= 3 { next }
	{
		tab = index($0, "\t"); head = substr($0, 1, tab - 1); site = substr($0, tab + 1)
		split(head, h, "|"); type = h[1]; gsub(/[-+ ]/, "", type)
		t = h[2] + 0; f = h[3] + 0
		at = index(site, "()@:"); fn = substr(site, 1, at - 1); rest = substr(site, at + 4)
		l = match(rest, /@[0-9]+$/); file = substr(rest, 1, l - 1); line = substr(rest, l + 1)
		if (type == "likely") print type, t, f, fn, file, line
		else print type, f, t, fn, file, line
	}' "$1" | LC_ALL=C sort
}

# awk_trace FILE HINT: branch_annotated or branch_all ("C[/K] I PCT func
# file line"), the same fields with HINT (annotated or none)
awk_trace() {
	awk -v hint="$2" 'NR <= 2 { next }
	{ c = $1; sub(/\/.*/, "", c); print hint, c + 0, $2 + 0, $4, $5, $6 }' "$1" | LC_ALL=C sort
}

# lt_rows FILE: likelytop's reading (batch CSV), the same fields
lt_rows() {
	"$LT" -b -f "$1" --format csv | awk -F, 'NR > 1 { print $2, $3, $4, $7, $8, $9 }' | LC_ALL=C sort
}

# lt_view FILE: per key (function cut to 30, file basename cut to 20, line:
# branch_annotated's columns) the summed correct and incorrect counts, as
# likelytop reads them; several sites can share a key (macros)
lt_view() {
	"$LT" -b -f "$1" --format csv | awk -F, 'NR > 1 {
		n = split($8, p, "/"); k = substr($7, 1, 30) " " substr(p[n], 1, 20) " " $9
		c[k] += $3; i[k] += $4 }
		END { for (k in c) print k, c[k], i[k] }' | LC_ALL=C sort
}

# views_agree EARLY LATER: two lt_view outputs of one kernel's data, the
# first read before the second: every site evaluated in EARLY is in LATER
# with counts at least as high.  Counters are not atomic, so a racing
# increment can be lost: up to 2 + 0.1% out-of-order sites are tolerated.
# Prints a summary line; fails when they disagree.
views_agree() {
	awk 'FILENAME == ARGV[1] { a[$1" "$2" "$3] = $4 " " $5; next }
	     { b[$1" "$2" "$3] = $4 " " $5 }
	     END {
		for (k in a) {
			split(a[k], x)
			if (x[1] + x[2] == 0) continue
			n++
			if (!(k in b)) { miss++; if (bad++ < 5) print "  not in the later view: " k; continue }
			split(b[k], y)
			if (y[1] + 0 < x[1] + 0 || y[2] + 0 < x[2] + 0) {
				lo++; if (bad++ < 5) print "  later below earlier: " k ": " a[k] " > " b[k]
			} else agree++
		}
		printf "%d sites evaluated, %d agree, %d missing, %d out of order\n", n, agree, miss, lo
		exit !(n > 100 && miss == 0 && lo <= 2 + n / 1000)
	     }' "$1" "$2"
}
