#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the test_progs front end and print its verdicts the way the kselftest
# harness does (TAP with "# diagnosis:" lines), so that vm/vmtest.sh can
# put test_progs in the same matrix, checked against the same expected
# verdicts:  mk/test_progs-tap.sh [-t egress_mirred.ipv4]...

set -u
BUILD=${BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}
TP=$BUILD/test_progs/test_progs
filter=tc_redirect_ifb

while [ $# -gt 0 ]; do
	case $1 in
	-t)	[ $# -ge 2 ] || { echo "test_progs-tap: -t needs a name" >&2; exit 2; }
		filter="$filter,tc_redirect_ifb/$(echo "$2" | tr . _)"
		shift 2 ;;
	*)	echo "test_progs-tap: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ "${filter#*,}" != "$filter" ] && filter=${filter#tc_redirect_ifb,}
if [ ! -x "$TP" ]; then
	echo "test_progs-tap: $TP is not built (make test_progs)" >&2
	exit 2
fi

# "#1/2  tc_redirect_ifb/egress_mirred_ipv6:FAIL", after its log; the
# logs of failed subtests are repeated under "All error logs", not read.
(cd "${TP%/*}" && ./test_progs -t "$filter") 2>&1 | awk '
	/^All error logs:/ { exit }
	/^diagnosis: / { diag = $2 }
	/^#[0-9]+\/[0-9]+ +tc_redirect_ifb\// {
		split($2, part, "[/:]")
		name = part[2]; verdict = part[3]
		sub(/_ipv/, ".ipv", name)
		n++
		if (verdict == "FAIL") {
			print "# diagnosis: " (diag == "" ? "?" : diag)
			print "not ok " n " " name ".verdict"
		} else if (verdict == "SKIP") {
			print "ok " n " " name ".verdict # SKIP"
		} else {
			print "ok " n " " name ".verdict"
		}
		diag = ""
	}
	END { print "1.." n }'
