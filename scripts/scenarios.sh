#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite's tests, one name a line, in the order of the scenario table
# both front ends run (tse_table in tse_scenarios.c). For what lists them
# without building the suite: the series' commit message, the docs check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(dirname "$0")/../tools/testing/selftests/net/tc_skip_egress/tse_scenarios.c
names=$(awk '/^static const struct tse_scenario tse_table\[\] = \{$/ { on = 1; next }
	     on && /^\};$/ { exit }
	     on && match($0, /^\t\{ "[a-z0-9_]+"/) {
		print substr($0, RSTART + 4, RLENGTH - 5)
	     }' "$src")
[ -n "$names" ] || die "no scenario table (tse_table) in $src"
echo "$names"
