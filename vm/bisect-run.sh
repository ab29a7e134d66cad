#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For "git bisect run" in a kernel git tree: build the checked-out kernel,
# boot it, run the suite (or some of its tests), say good or bad.
#
#   cd LINUX && git bisect run /path/to/vm/bisect-run.sh [-t TEST]...
#
# TEST is a suite test name (egress_mirred.ipv4), or set VM_BISECT_TESTS
# to a list of them. The answer comes from the suite's TAP, read row by
# row with vm/tap2cells.awk (pass, skip, fail:DIAGNOSIS), not from its
# exit code:
#   0    good: every test passed
#   1    bad: a test failed with a diagnosis other than setup, or the
#        kernel died or hung under the tests
#   125  skip this commit: the kernel does not build or boot, a test
#        skipped (the kernel lacks a feature the test needs) or could not
#        build its topology (fail:setup), or the TAP holds no verdict.
#        Such a commit says nothing about the behaviour under test.
#   128  stop the bisection: the suite rejected its arguments (a bad -t)
#
#   vm/bisect-run.sh --judge TAP   prints the answer for a saved TAP and
#                                  exits with it (no build, no VM)
#
# Objects go to $VM_BISECT_OBJ; the default is build/vm/obj for
# build/vm/src (the tree build-kernel.sh uses, so bisecting it stays
# incremental) and build/vm/obj-bisect for any other tree.

set -o pipefail
. "$(dirname "$0")/lib.sh"

readonly GOOD=0 BAD=1 SKIP=125

suite_cmd=(scripts/run-suite.sh)
suite_args=()
judge_only=

verdict()
{
	vm_log "$(git rev-parse --short HEAD 2>/dev/null || echo "${judge_only:-?}") $1: $2"
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
		--judge)	judge_only=$2; shift ;;
		*)		echo "usage: ${0##*/} [-t TEST]... | --judge TAP" >&2
				exit 2 ;;
		esac
		shift
	done
}

# "good", "bad ROW CELL..." or "skip ROW CELL..." for a TAP file; "none"
# when it holds no test result. A failure with a real diagnosis outweighs
# skips and setup errors in other rows: it is a verdict on this commit.
judge_tap()
{
	awk -f "$VM_DIR/rows.awk" -f "$VM_DIR/tap2cells.awk" "$1" | awk '
		{ n++ }
		$2 ~ /^fail:/ {
			k = split(substr($2, 6), word, "+")
			for (i = 1; i <= k; i++)
				if (word[i] != "setup") {
					bad = bad " " $1 " " $2
					next
				}
			skip = skip " " $1 " " $2
			next
		}
		$2 == "skip" { skip = skip " " $1 " skip" }
		END {
			if (!n)
				print "none"
			else if (bad != "")
				print "bad" bad
			else if (skip != "")
				print "skip" skip
			else
				print "good"
		}'
}

# Exit with the answer for TAP, given run-vm.sh's exit code RC.
answer()
{
	local tap=$1 rc=$2 judged

	case $rc in
	255)		verdict skip "did not boot" ;;
	254|253)	verdict bad "kernel died or hung (run-vm.sh exit $rc)" ;;
	2)		vm_log "the suite rejected its arguments; stopping"
			exit 128 ;;
	esac
	judged=$(judge_tap "$tap")
	case $judged in
	good)	verdict good "passed" ;;
	bad*)	verdict bad "${judged#bad }" ;;
	skip*)	verdict skip "no verdict on the behaviour:${judged#skip}" ;;
	*)	verdict skip "no test result in the TAP (exit $rc)" ;;
	esac
}

main()
{
	local tree obj image rc

	parse_args "$@"
	if [ -n "$judge_only" ]; then
		[ -r "$judge_only" ] || { echo "${0##*/}: cannot read $judge_only" >&2; exit 2; }
		answer "$judge_only" 0
	fi
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
	answer "$VM_BUILD/logs/bisect.tap" $rc
}

main "$@"; exit
