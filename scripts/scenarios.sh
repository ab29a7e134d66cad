#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite's tests, one name a line, in tse_table.h's order (its TSE_GRID
# and TSE_ROW lines), without building the suite: for the series' commit
# message, the docs check and the expected matrices' rows.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(dirname "$0")/../tools/testing/selftests/net/tc_skip_egress/tse_table.h
names=$(sed -n 's/^TSE_\(GRID\|ROW\)(\([a-z0-9_]*\),.*/\2/p' "$src")
[ -n "$names" ] || die "no scenario lines (TSE_GRID, TSE_ROW) in $src"
echo "$names"
