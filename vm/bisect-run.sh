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
#   0    good: every test passed, the TAP is whole (its plan 1..N and N
#        results, no "Bail out!": vm/tap-plan.awk) and the suite's exit
#        code agrees with it (0: nothing failed)
#   1    bad: a test failed with a diagnosis other than setup, or the
#        kernel died or hung under the tests
#   125  skip this commit: the kernel does not build or boot, a test
#        skipped (the kernel lacks a feature the test needs) or could not
#        build its topology (fail:setup), or the run gave no whole answer:
#        no verdict, a TAP cut off or bailed out, the suite killed by a
#        signal (139) or exiting in a way its TAP does not show. Such a
#        commit says nothing about the behaviour under test; the reason is
#        logged.
#   128  stop the bisection: the suite rejected its arguments (a bad -t),
#        or this script did (a usage error, a TAP it cannot read). git
#        bisect run reads any code from 1 to 127 but 125 as "bad": a
#        mistyped option exiting 2 would mark every commit bad.
#
#   vm/bisect-run.sh --judge TAP [--rc N]
#        prints the answer for a saved TAP and exits with it (no build, no
#        VM); N is the exit code the run gave (run-vm.sh's), default 0
#
#   vm/bisect-run.sh --observe ROW:OBSERVER=VALUE [--judge FILE [--rc N]]
#        answers from one observation of the suite's records instead of
#        its verdicts: good while ROW's OBSERVER shows VALUE, bad once it
#        shows another (vm/bisect-observe.sh; make compare names them)
#
# Objects go to $VM_BISECT_OBJ; the default is build/vm/obj for
# build/vm/src (the tree build-kernel.sh uses, so bisecting it stays
# incremental) and build/vm/obj-bisect for any other tree.

# No -e: every status that matters is taken and judged (rc=$? below).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

readonly GOOD=0 BAD=1 SKIP=125 STOP=128

suite_cmd=(scripts/run-suite.sh)
suite_args=()
judge_only=
judge_rc=0
observe=

verdict()
{
	local who=$judge_only

	[ -n "$who" ] || who=$(git rev-parse --short HEAD 2>/dev/null) || who="?"
	log "$who $1: $2"
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
		-t|--judge|--rc|--observe)
				[ $# -ge 2 ] && [ -n "$2" ] || usage $STOP "$1 needs an argument"
				case $1 in
				-t)	suite_args+=(-t "$2") ;;
				--judge) judge_only=$2 ;;
				--observe) observe=$2 ;;
				--rc)	[[ $2 =~ ^[0-9]+$ ]] || usage $STOP "--rc needs a number"
					judge_rc=$2 ;;
				esac
				shift ;;
		*)		usage $STOP "unknown argument '$1'" ;;
		esac
		shift
	done
	[ "$judge_rc" = 0 ] || [ -n "$judge_only" ] || usage $STOP "--rc goes with --judge"
}

# "good", "bad ROW CELL..." or "skip ROW CELL..." for a TAP file; "none"
# when it holds no test result. A failure with a real diagnosis outweighs
# skips and setup errors in other rows: it is a verdict on this commit.
judge_tap()
{
	vm_cells "$1" | awk '
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

# " (SIGNAME)" for an exit code above 128, the way a shell reports a
# process a signal killed.
signal_of()
{
	local sig

	[ "$1" -gt 128 ] && sig=$(kill -l "$(($1 - 128))" 2>/dev/null) &&
		echo " (killed by SIG$sig)"
}

# Exit with the answer for TAP, given run-vm.sh's exit code RC. A real
# failure is an answer whatever else went wrong; a pass is one only when
# the TAP is whole and the exit code says what the TAP says.
answer()
{
	local tap=$1 rc=$2 judged whole

	case $rc in
	255)		verdict skip "did not boot" ;;
	254|253)	verdict bad "kernel died or hung (run-vm.sh exit $rc)" ;;
	2)		log "the suite rejected its arguments; stopping"
			exit $STOP ;;
	esac
	judged=$(judge_tap "$tap") || verdict skip "cannot read the TAP $tap"
	case $judged in
	bad*)	verdict bad "${judged#bad }" ;;
	esac
	whole=$(awk -f "$VM_DIR/tap-plan.awk" "$tap") ||
		verdict skip "no whole run (exit $rc$(signal_of "$rc")): $whole"
	case $rc,$judged in
	0,*|1,skip*)	;;
	1,*)	verdict skip "the suite exited 1 (a failure) and its TAP shows none" ;;
	*)	verdict skip "the suite exited $rc$(signal_of "$rc"), not 0 or 1: its TAP is not all it had to say" ;;
	esac
	case $judged in
	good)	verdict good "passed" ;;
	skip*)	verdict skip "no verdict on the behaviour:${judged#skip}" ;;
	*)	verdict skip "no test result in the TAP (exit $rc)" ;;
	esac
}

main()
{
	local tree obj image rc

	parse_args "$@"
	# One observation, not the verdicts: its own suite command and answer.
	[ -z "$observe" ] || . "$VM_DIR/bisect-observe.sh"
	if [ -n "$judge_only" ]; then
		[ -f "$judge_only" ] && [ -r "$judge_only" ] ||
			{ echo "${0##*/}: cannot read $judge_only" >&2; exit $STOP; }
		answer "$judge_only" "$judge_rc"
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

	vm_boot -t "${VM_TIMEOUT:-600}" -l "$VM_BUILD/logs/console-bisect.log" "$image" \
		-- "${suite_cmd[@]}" "${suite_args[@]}" >"$VM_BUILD/logs/bisect.tap"
	rc=$?
	answer "$VM_BUILD/logs/bisect.tap" $rc
}

# Sourced (tests/selftest.sh), only the functions are wanted.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
main "$@"; exit
