#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that the model has a rule for every observer at every point that
# can be (tests/model-rules.c, docs/grid.md "The observers").
#
#   tests/model-rules.sh [TSE_GRID_C]
#
# TSE_GRID_C (default: the suite's tse_grid.c) is the model to check. It
# builds against the suite's build (make suite: its skeleton and objects,
# BUILD) and KDIR's headers. Prints each rule missing, and exits 1 if one is.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

main()
{
	local top src build kdir o
	local -a objs=()

	top=$(cd "$(dirname "$0")/.." && pwd)
	src=$top/tools/testing/selftests/net/tc_skip_egress
	build=${BUILD:-$top/build}
	kdir=${KDIR:-$build/linux-source-$(cd "$top" && line_first)}
	TMP=$(mktemp -d) || die "no temporary folder"
	if [ $# -gt 0 ]; then
		cp "$1" "$TMP/tse_grid.c" || die "no model $1"
	fi
	# The library's objects but the model's, which the check includes.
	for o in "$build"/net/tc_skip_egress/tse_*.o; do
		[ -e "$o" ] && [ "${o##*/}" != tse_grid.o ] && objs+=("$o")
	done
	[ ${#objs[@]} -gt 0 ] ||
		die "no suite objects in $build/net/tc_skip_egress: make suite first"
	${CC:-cc} -Wall -Werror -I "$TMP" -I "$src" -I "$build/net/tc_skip_egress" \
		-I "$top/tests" -I "$build/libbpf/include" -I "$kdir/tools/include" \
		-I "$kdir/tools/include/uapi" -o "$TMP/model-rules" \
		"$top/tests/model-rules.c" "${objs[@]}" "$build/libbpf/libbpf.a" -lelf -lz ||
		die "tests/model-rules.c does not build"
	"$TMP/model-rules"
}

TMP=
trap '[ -z "$TMP" ] || rm -rf "$TMP"' EXIT

main "$@"
