#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run both front ends of tc_skip_egress on the running kernel and compare
# their verdicts: each test_progs subtest tc_redirect_ifb/<scenario>_<ipv>
# must have the verdict of the kselftest test <scenario>.<ipv>.verdict.
# Exits non-zero on any mismatch, naming it.
#
# Needs root. Binaries: $BUILD/test_progs/test_progs (make test_progs)
# and $BUILD/net/tc_skip_egress/tc_skip_egress (make suite).

set -u
BUILD=${BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}
TP=$BUILD/test_progs/test_progs
KS_DIR=$BUILD/net/tc_skip_egress
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for bin in "$TP" "$KS_DIR/tc_skip_egress"; do
	if [ ! -x "$bin" ]; then
		echo "missing $bin" >&2
		exit 2
	fi
done

# kselftest TAP: "ok 3 egress_mirred.ipv4.verdict [# SKIP ...]",
# "not ok 4 egress_mirred.ipv6.verdict"
(cd "$KS_DIR" && ./tc_skip_egress) > "$TMP/ks.out" 2>&1
sed -nE 's/^(not )?ok [0-9]+ ([a-z0-9_]+)\.(ipv[46])\.verdict( # (SKIP))?.*$/\2_\3 \1\5/p' \
	"$TMP/ks.out" |
	awk '{ v = $2 == "not" ? "FAIL" : $2 == "SKIP" ? "SKIP" : "PASS";
	       print $1, v }' | sort -u > "$TMP/ks"

# test_progs: "#1/3     tc_redirect_ifb/egress_bpf_redirect_ipv4:FAIL";
# failing subtests are listed again under "All error logs".
(cd "$BUILD/test_progs" && ./test_progs -t tc_redirect_ifb) > "$TMP/tp.out" 2>&1
sed -nE 's|^#[0-9]+/[0-9]+ +tc_redirect_ifb/([a-z0-9_]+):(OK\|FAIL\|SKIP)$|\1 \2|p' \
	"$TMP/tp.out" | sed 's/ OK$/ PASS/' | sort -u > "$TMP/tp"

if [ ! -s "$TMP/ks" ] || [ ! -s "$TMP/tp" ]; then
	echo "no verdicts parsed; outputs follow" >&2
	cat "$TMP/ks.out" "$TMP/tp.out" >&2
	exit 2
fi

join -a1 -a2 -e - -o 0,1.2,2.2 "$TMP/ks" "$TMP/tp" > "$TMP/joined"
status=0
while read -r name ks tp; do
	if [ "$ks" = "$tp" ]; then
		printf '%-40s %s\n' "$name" "$ks"
	else
		printf '%-40s MISMATCH kselftest=%s test_progs=%s\n' \
			"$name" "${ks:--}" "${tp:--}"
		status=1
	fi
done < "$TMP/joined"

if [ $status -ne 0 ]; then
	echo "test_progs and kselftest verdicts differ" >&2
else
	echo "test_progs and kselftest agree on $(wc -l < "$TMP/ks") tests"
fi
exit $status
