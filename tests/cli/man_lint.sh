# Every page under man/ passes mandoc -Tlint (warnings included) and has a
# FILES section (issue 14); libkattr(3) and every tool's page have EXAMPLES.
. "$(dirname "$0")/lib.sh"
command -v mandoc >/dev/null || skip_test "mandoc is not installed (apt-get install mandoc)"
for page in "$SRC_DIR"/man/*.[1-8]; do
	lint=$(mandoc -Tlint -W warning "$page" 2>&1)
	[ -z "$lint" ] && ok || fail "mandoc -Tlint $(basename "$page"): $lint"
	grep -q '^\.SH FILES$' "$page" && ok || fail "$(basename "$page") has no FILES section"
	case "$(basename "$page")" in
	*.[18] | libkattr.3 | likely_prof.3)
		grep -q '^\.SH EXAMPLES$' "$page" && ok || fail "$(basename "$page") has no EXAMPLES section" ;;
	esac
done
finish
