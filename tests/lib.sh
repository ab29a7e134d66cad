#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the project's own tests: run the suite, read its TAP, and
# look for anything it left behind.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUITE=${SUITE:-$TOP/build/net/tc_skip_egress/tc_skip_egress}
BPFTOOL=${BPFTOOL:-$TOP/build/bpftool/bpftool}
PASSED=0
FAILED=0

pass() { PASSED=$((PASSED + 1)); echo "ok - $*"; }
fail() { FAILED=$((FAILED + 1)); echo "not ok - $*"; }

# Every test name the suite must list, from the scenario table itself.
expected_tests() {
	sed -n 's/^[[:space:]]*{ "\([a-z0-9_]*\)", TSE_V4\( | TSE_V6\)\?,.*/\1 \2/p' \
		"$TOP/tools/testing/selftests/net/tc_skip_egress/scenarios.c" |
	while read -r name v6; do
		echo "$name.ipv4"
		[ -n "$v6" ] && echo "$name.ipv6"
	done
}

# "name verdict" per test (pass, skip, fail:WORD) from the harness's TAP on
# stdin, read as the VM matrix reads it.
tap_verdicts() {
	awk -f "$TOP/vm/tap2cells.awk"
}

# What the suite could leave behind on this host.
leftovers() {
	ip netns list 2>/dev/null
	ip -o link show 2>/dev/null | awk -F': ' '{print $2}' |
		grep -E '^(va|vb|ifb_tse)(@|$)'
	if [ -x "$BPFTOOL" ]; then
		"$BPFTOOL" prog show 2>/dev/null | grep -E ' name tse_'
		"$BPFTOOL" link show 2>/dev/null | grep -E 'tse_'
	fi
}

# Namespaces die asynchronously after the last fd closes: wait, bounded.
wait_no_leftovers() {
	local i

	for i in $(seq 1 100); do
		[ -z "$(leftovers)" ] && return 0
		sleep 0.1
	done
	leftovers
	return 1
}

summary() {
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}
