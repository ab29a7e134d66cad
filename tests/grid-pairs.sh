#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that every two axes of the grid meet in every pair of values that
# can be (tests/grid-pairs.c, docs/grid.md).
#
#   tests/grid-pairs.sh [TABLE]
#
# TABLE (default: the suite's tse_table.h) is the table to check. Prints
# each pair no point has, and exits 1 if there is one.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

main()
{
	local top src

	top=$(cd "$(dirname "$0")/.." && pwd)
	src=$top/tools/testing/selftests/net/tc_skip_egress
	TMP=$(mktemp -d) || die "no temporary folder"
	if [ $# -gt 0 ]; then
		cp "$1" "$TMP/tse_table.h" || die "no table $1"
	fi
	${CC:-cc} -Wall -Werror -I "$TMP" -I "$src" -o "$TMP/grid-pairs" \
		"$top/tests/grid-pairs.c" || die "tests/grid-pairs.c does not build"
	"$TMP/grid-pairs"
}

TMP=
trap '[ -z "$TMP" ] || rm -rf "$TMP"' EXIT

main "$@"
