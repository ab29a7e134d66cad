#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside a VM (or on the running kernel): run the kselftest binary with
# TSE_RECORD set, then print its records after its TAP, between markers
# the host splits on (vm/compare-kernels.sh, vm/bisect-observe.sh; the
# format: docs/compare.md, "What it does").
#
#   vm/records-guest.sh SUITE ROW...
#
# SUITE is the tc_skip_egress binary; each ROW (egress_mirred.ipv4) becomes
# its -r tc_skip_egress.ipv4.egress_mirred. Exits with the suite's code.
# The record file is in $TMPDIR (the guest's /tmp is a tmpfs; the root is
# read-only): nothing of an earlier run is in it. Sources nothing: the
# guest needs this file alone.

set -uo pipefail

readonly BEGIN_MARK=TSE-RECORDS-BEGIN END_MARK=TSE-RECORDS-END

# The harness's -r for each ROW (scenario.ipvN).
row_filters()
{
	local row

	for row; do
		printf '%s\n' -r "tc_skip_egress.${row##*.}.${row%.*}"
	done
}

main()
{
	local suite=${1:-} rec rc
	local -a filters

	[ -x "$suite" ] && [ $# -ge 2 ] || {
		echo "usage: ${0##*/} SUITE ROW..." >&2
		exit 2
	}
	shift
	mapfile -t filters < <(row_filters "$@")
	rec=$(mktemp "${TMPDIR:-/tmp}/tse-records.XXXXXX") || exit 2
	TSE_RECORD=$rec "$suite" "${filters[@]}" 2>&1
	rc=$?
	echo "$BEGIN_MARK $rc"
	cat "$rec"
	echo "$END_MARK"
	rm -f "$rec"
	return $rc
}

main "$@"; exit
