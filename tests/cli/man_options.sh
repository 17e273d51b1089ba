# Every long option a tool accepts (its struct option tables) appears in its
# man page, and the page passes mandoc -Tlint.  Usage: man_options.sh TOOL PAGE
. "$(dirname "$0")/lib.sh"
tool=$1 page="$SRC_DIR/man/$2"
[ -f "$page" ] || { echo "FAIL: $page missing"; exit 1; }
command -v mandoc >/dev/null || skip_test "mandoc is not installed (apt-get install mandoc)"

opts=$(cat "$SRC_DIR"/src/"$tool"/*.c |
	grep -oE '\{ *"[a-z0-9][a-z0-9-]*" *, *(no|required|optional)_argument' |
	sed -E 's/\{ *"([^"]+)".*/\1/' | sort -u)
[ -n "$opts" ] || { echo "FAIL: no long options found for $tool"; exit 1; }
text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page")
for o in $opts; do
	if printf '%s' "$text" | grep -q -- "--$o\b"; then ok; else
		fail "$tool accepts --$o but $2 does not mention it"
	fi
done
lint=$(mandoc -Tlint -W warning "$page" 2>&1)
[ -z "$lint" ] && ok || fail "mandoc -Tlint $2: $lint"
finish
