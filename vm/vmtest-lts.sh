#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite on the stable lines (make vmtest-lts, docs/kernels.md): on
# each, stock and the fix backported to it (vm/kernels/fix-LINE/), built
# from Debian's linux-source-LINE, both front ends, each checked against
# vm/expected-matrix-LINE.txt. The suite is built against KDIR, the first
# line's tree.
#
#   vm/vmtest-lts.sh [-t TEST]... [--front kselftest|test_progs]...
#                    [--line LINE]...
#   vm/vmtest-lts.sh --build [--line LINE]...
#
# -t TEST    runs only TEST (egress_mirred.ipv4); repeatable.
# --front    one front end (default both, side by side: 4 VMs at once).
# --line     one stable line of scripts/lines (default every one, in turn).
# --build    only the trees and the kernels' images (vmtest.sh --build).
#
# KDIR_LTS (one stable line's tree, which it runs alone; default
# build/linux-source-LINE for each line, made by scripts/trees.sh) and
# VM_BUILD_LTS (default build/vm-LINE): a line's tree and build folder.
# Its builds hold that folder's lock.

# No -e: each front end's vmtest.sh status is taken (rc=1 below).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The tree of line $1: KDIR_LTS if given, else the default one, made from
# Debian's package when missing.
lts_tree()
{
	local line=$1 kdir

	if [ -n "${KDIR_LTS:-}" ]; then
		[ -f "$KDIR_LTS/Makefile" ] || die "KDIR_LTS=$KDIR_LTS is not a kernel tree"
		echo "$KDIR_LTS"
		return
	fi
	kdir=$VM_ROOT/build/linux-source-$line
	BUILD=$VM_ROOT/build "$VM_ROOT/scripts/trees.sh" "$line" "$kdir" ||
		die "no $line tree"
}

# vmtest.sh on a stable line: its tree ($1), its build folder and that
# folder's lock, the one make vmtest-mutants takes there too.
vmtest_lts()
{
	local kdir=$1 line=$2

	shift 2
	local build=${VM_BUILD_LTS:-$VM_ROOT/build/vm-$line}

	KDIR=$kdir VM_BUILD=$build VM_LOCK=$build/src.lock "$VM_DIR/vmtest.sh" "$@"
}

# Both front ends of one line side by side (2 VMs each), each one's
# lines printed when both are done, in order.
run_line()
{
	local line=$1 kdir=$2 out front version i rc=0
	local -a pids=()

	version=$(tree_release "$kdir")
	out=${VM_BUILD_LTS:-$VM_ROOT/build/vm-$line}
	mkdir -p "$out"
	for front in "${ARG_FRONTS[@]}"; do
		vmtest_lts "$kdir" "$line" --front "$front" "${ARG_TESTS[@]}" stock fix \
			> "$out/vmtest-$front.out" 2>&1 &
		pids+=($!)
	done
	for i in "${!ARG_FRONTS[@]}"; do
		wait "${pids[$i]}" || rc=1
		echo "$line line ($version), front end ${ARG_FRONTS[$i]}:"
		cat "$out/vmtest-${ARG_FRONTS[$i]}.out"
	done
	return $rc
}

main()
{
	local line kdir got build=0 rc=0

	[ "${1:-}" = --build ] && { build=1; shift; }
	vm_parse_args "-t --front --line" "$@"
	# KDIR_LTS is one tree: its line is the one to run.
	if [ -n "${KDIR_LTS:-}" ]; then
		line=$(vm_kernel_line "$KDIR_LTS" KDIR_LTS) || exit 2
		[ "$line" != "$(line_first)" ] ||
			die "KDIR_LTS=$KDIR_LTS is the first line, $line: make vmtest runs it"
		ARG_LINES=("$line")
	fi
	for line in "${ARG_LINES[@]}"; do
		kdir=$(lts_tree "$line") || exit 1
		got=$(vm_kernel_line "$kdir" "${KDIR_LTS:+KDIR_LTS}") || exit 2
		[ "$got" = "$line" ] ||
			die "${KDIR_LTS:+KDIR_LTS=}$kdir is Linux $got, not $line"
		if [ $build = 1 ]; then
			vmtest_lts "$kdir" "$line" --build stock fix || rc=1
			continue
		fi
		run_line "$line" "$kdir" || rc=1
	done
	return $rc
}

main "$@"; exit
