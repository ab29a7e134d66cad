#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-test_progs: both front ends on the running kernel, their
# verdicts compared, diagnosis words included (docs/test_progs.md). Needs
# root, make suite and make test_progs.

# No -e: each front end's status and output are taken and judged.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KS=$BUILD/net/tc_skip_egress/tc_skip_egress
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$TOP/scripts/lib.sh"
# shellcheck disable=SC2034 # read by die (scripts/lib.sh)
DIE_STATUS=2

verdicts()
{
	awk -f "$TOP/vm/rows.awk" -f "$TOP/vm/tap2cells.awk"
}

[ -x "$KS" ] || die "missing $KS (make suite)"
(cd "${KS%/*}" && ./tc_skip_egress) > "$TMP/ks.tap" 2>&1
verdicts < "$TMP/ks.tap" > "$TMP/ks"
BUILD=$BUILD "$TOP/mk/test_progs-tap.sh" > "$TMP/tap" 2> "$TMP/err"
rc=$?
verdicts < "$TMP/tap" > "$TMP/tp"
for front in kselftest:ks.tap test_progs:tap; do
	whole=$(awk -f "$TOP/vm/tap-plan.awk" "$TMP/${front#*:}") ||
		die "the ${front%%:*} TAP is not whole: $whole"
done

# 1 is "a subtest failed", a verdict like any other; 2 is no verdict.
if [ $rc -gt 1 ]; then
	echo "test_progs gave no verdict for every test (exit $rc): $(cat "$TMP/err")" >&2
	grep '^# .*no verdict' "$TMP/tap" >&2
	exit 2
fi
if [ ! -s "$TMP/ks" ] || [ ! -s "$TMP/tp" ]; then
	echo "no verdicts parsed: kselftest $(wc -l < "$TMP/ks"), test_progs $(wc -l < "$TMP/tp")" >&2
	exit 2
fi
if cmp -s "$TMP/ks" "$TMP/tp"; then
	echo "test_progs and kselftest agree on $(wc -l < "$TMP/ks") tests"
	exit 0
fi
echo "test_progs and kselftest verdicts differ (- kselftest, + test_progs)" >&2
diff -u "$TMP/ks" "$TMP/tp" | tail -n +3 >&2
exit 1
