#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the kselftest front end against the running kernel: every test, or
# the ones named with -t (e.g. -t egress_mirred.ipv4). TAP on stdout,
# kselftest exit codes (0 pass, 1 fail, 4 skip).
set -u
SUITE=${SUITE:-$(dirname "$0")/../build/net/tc_skip_egress/tc_skip_egress}
VM=$(dirname "$0")/../vm

usage() {
	echo "usage: $0 [-l] [-t scenario.ipv4|scenario.ipv6]... (make run_tests T='...')"
}

# Test names as scenario.family (egress_mirred.ipv4), from the harness's
# own listing.
known_tests() {
	"$SUITE" -l 2>&1 | awk -f "$VM/rows.awk" -f "$VM/list2rows.awk" | cut -d' ' -f1
}

check_name() {
	known_tests | grep -qxF -- "$1" && return 0
	echo "run_tests: no test named '$1' (names look like egress_mirred.ipv4; $0 -l lists them)" >&2
	exit 2
}

args=()
names=()
while [ $# -gt 0 ]; do
	case $1 in
	-t)
		[ $# -ge 2 ] || { echo "run_tests: -t needs a test name" >&2; exit 2; }
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
		echo "run_tests: unknown option '$1' ($(usage))" >&2
		exit 2
		;;
	esac
done
if [ "$(id -u)" -ne 0 ]; then
	echo "run_tests: needs root (network namespaces, tc and BPF)" >&2
	exit 4
fi
if [ ! -x "$SUITE" ]; then
	echo "run_tests: $SUITE is not built (make suite)" >&2
	exit 2
fi
for n in "${names[@]}"; do
	check_name "$n"
done
exec "$SUITE" "${args[@]}"
