#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For "git bisect run" in a kernel git tree: build the checked-out kernel,
# boot it, run the suite (or some of its tests), say good or bad.
#
#   cd LINUX && git bisect run /path/to/vm/bisect-run.sh [-t TEST]...
#
# TEST is a suite test name (egress_mirred.ipv4), or set VM_BISECT_TESTS
# to a list of them. Exits 0 when every test passes, 1 when one fails or
# the kernel dies under the test, 125 (skip this commit) when the kernel
# does not build or boot, or the tests skip; 128 (stop) on a bad -t.
#
# Objects go to $VM_BISECT_OBJ; the default is build/vm/obj for
# build/vm/src (the tree build-kernel.sh uses, so bisecting it stays
# incremental) and build/vm/obj-bisect for any other tree.

set -o pipefail
. "$(dirname "$0")/lib.sh"

readonly GOOD=0 BAD=1 SKIP=125

suite_cmd=(scripts/run-suite.sh)
suite_args=()

verdict()
{
	vm_log "$(git rev-parse --short HEAD) $1: $2"
	case $1 in
	good)	exit $GOOD ;;
	bad)	exit $BAD ;;
	*)	exit $SKIP ;;
	esac
}

parse_args()
{
	local t

	for t in ${VM_BISECT_TESTS:-}; do
		suite_args+=(-t "$t")
	done
	while [ $# -gt 0 ]; do
		case $1 in
		-t)		suite_args+=(-t "$2"); shift ;;
		*)		echo "usage: ${0##*/} [-t TEST]..." >&2
				exit 2 ;;
		esac
		shift
	done
}

main()
{
	local tree obj image rc

	parse_args "$@"
	tree=$(git rev-parse --show-toplevel) || verdict skip "not in a git tree"
	if [ "$tree" -ef "$VM_BUILD/src" ]; then
		# build-kernel.sh's tree: do not build under its feet.
		vm_lock
		obj=${VM_BISECT_OBJ:-$VM_BUILD/obj}
	else
		obj=${VM_BISECT_OBJ:-$VM_BUILD/obj-bisect}
	fi
	image=$VM_BUILD/bzImage-bisect
	vm_make "$tree" "$obj" "$VM_BUILD/logs/build-bisect.log" ||
		verdict skip "build failed: $(vm_make_error "$VM_BUILD/logs/build-bisect.log")"
	cp "$obj/arch/x86/boot/bzImage" "$image" || verdict skip "no bzImage"

	"$VM_DIR/run-vm.sh" -C "$VM_ROOT" -t "${VM_TIMEOUT:-600}" \
		-l "$VM_BUILD/logs/console-bisect.log" "$image" \
		-- "${suite_cmd[@]}" "${suite_args[@]}" >"$VM_BUILD/logs/bisect.tap"
	rc=$?
	case $rc in
	0)		verdict good "passed" ;;
	1|254|253)	verdict bad "$(grep -m1 '^not ok' "$VM_BUILD/logs/bisect.tap" ||
				echo "kernel died or hung (run-vm.sh exit $rc)")" ;;
	4)		verdict skip "tests skipped" ;;
	2)		vm_log "the suite rejected its arguments; stopping"
			exit 128 ;;
	*)		verdict skip "no verdict (exit $rc)" ;;
	esac
}

main "$@"; exit
