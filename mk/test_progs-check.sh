#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run both front ends of tc_skip_egress on the running kernel and compare
# their verdicts, diagnosis words included: each test_progs subtest
# tc_redirect_ifb/<scenario>_<ipv> must say what the kselftest test
# <scenario>.<ipv>.verdict says. Both are read by vm/tap2cells.awk (the
# matrix's own reader); exits non-zero on any difference, naming it.
#
# Needs root. Binaries: $BUILD/test_progs/test_progs (make test_progs)
# and $BUILD/net/tc_skip_egress/tc_skip_egress (make suite).

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KS=$BUILD/net/tc_skip_egress/tc_skip_egress
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ ! -x "$KS" ]; then
	echo "missing $KS (make suite)" >&2
	exit 2
fi
(cd "${KS%/*}" && ./tc_skip_egress) 2>&1 |
	awk -f "$TOP/vm/tap2cells.awk" > "$TMP/ks"
BUILD=$BUILD "$TOP/mk/test_progs-tap.sh" |
	awk -f "$TOP/vm/tap2cells.awk" > "$TMP/tp"

if [ ! -s "$TMP/ks" ]; then
	echo "no kselftest verdicts parsed" >&2
	exit 2
fi
if cmp -s "$TMP/ks" "$TMP/tp"; then
	echo "test_progs and kselftest agree on $(wc -l < "$TMP/ks") tests"
	exit 0
fi
echo "test_progs and kselftest verdicts differ (- kselftest, + test_progs)" >&2
diff -u "$TMP/ks" "$TMP/tp" | tail -n +3 >&2
exit 1
