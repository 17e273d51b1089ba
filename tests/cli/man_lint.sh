# Every page under man/ passes mandoc -Tlint (warnings included).
. "$(dirname "$0")/lib.sh"
command -v mandoc >/dev/null || skip_test "mandoc is not installed (apt-get install mandoc)"
for page in "$SRC_DIR"/man/*.[1-8]; do
	lint=$(mandoc -Tlint -W warning "$page" 2>&1)
	[ -z "$lint" ] && ok || fail "mandoc -Tlint $(basename "$page"): $lint"
done
finish
