#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the kselftest front end against the running kernel: every test, or
# the ones named with -t (e.g. -t egress_mirred.ipv4). TAP on stdout,
# kselftest exit codes (0 pass, 1 fail, 4 skip).
# No -e: die() names every error.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# 1 is a failed test; errors of this script's are 2, a missing root 4 (skip).
# shellcheck disable=SC2034 # read by die (scripts/lib.sh)
DIE_STATUS=2
SUITE=${SUITE:-$(dirname "$0")/../build/net/tc_skip_egress/tc_skip_egress}
VM=$(dirname "$0")/../vm

usage()
{
	echo "usage: $0 [-l] [-t scenario.ipv4|scenario.ipv6]... (make run_tests T='...')"
}

# Test names as scenario.family (egress_mirred.ipv4), from the harness's
# own listing. The harness's -l exits 4 (KSFT_SKIP) when it has listed.
known_tests()
{
	{ "$SUITE" -l 2>&1 || [ $? = 4 ]; } |
		awk -f "$VM/rows.awk" -f "$VM/list2rows.awk" | cut -d' ' -f1
}

# All of the list is read (no grep -q): with pipefail, a writer cut off
# when grep stopped early would fail the pipeline.
check_name()
{
	known_tests | grep -xF -- "$1" >/dev/null ||
		die "no test named '$1' (names look like egress_mirred.ipv4; $0 -l lists them)"
}

args=()
names=()
while [ $# -gt 0 ]; do
	case $1 in
	-t)
		[ $# -ge 2 ] || die "-t needs a test name"
		names+=("$2")
		args+=(-r "tc_skip_egress.${2##*.}.${2%.*}")
		shift 2
		;;
	-l)
		known_tests
		exit 0
		;;
	-h|--help)
		usage
		exit 0
		;;
	*)
		die "unknown option '$1' ($(usage))"
		;;
	esac
done
[ "$(id -u)" -eq 0 ] ||
	DIE_STATUS=4 die "needs root (network namespaces, tc and BPF)"
[ -x "$SUITE" ] || die "$SUITE is not built (make suite)"
for n in "${names[@]}"; do
	check_name "$n"
done
exec "$SUITE" "${args[@]}"
