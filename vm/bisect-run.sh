#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For "git bisect run" in a kernel git tree: build the checked-out kernel,
# boot it, run the suite (or some of its tests), say good or bad.
#
#   cd LINUX && git bisect run /path/to/vm/bisect-run.sh [-t TEST]...
#   vm/bisect-run.sh --judge TAP [--rc N]
#   vm/bisect-run.sh --observe ROW:OBSERVER=VALUE [--judge FILE [--rc N]]
#
# -t TEST (egress_mirred.ipv4), or VM_BISECT_TESTS, a list of them: the
# tests to run. --judge answers for a saved TAP (no build, no VM), N the
# exit code its run gave (default 0). --observe answers from one
# observation of the records, not the verdicts (vm/bisect-observe.sh).
# Objects go to $VM_BISECT_OBJ (default build/vm/obj for build/vm/src,
# build/vm/obj-bisect for any other tree).
#
# The answers, 0 good, 1 bad, 125 skip and 128 stop, and when each is
# given: docs/vm.md, "Bisecting".

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

# The answers run-vm.sh's exit code gives by itself (here and in
# vm/bisect-observe.sh): no boot, a kernel that died or hung, a suite that
# rejected its arguments.
answer_rc()
{
	case $1 in
	255)		verdict skip "did not boot" ;;
	252)		verdict skip "the VM booted another build's kernel (run-vm.sh exit 252)" ;;
	254|253)	verdict bad "kernel died or hung (run-vm.sh exit $1)" ;;
	2)		log "the suite rejected its arguments; stopping"
			exit $STOP ;;
	esac
}

# Exit with the answer for TAP, given run-vm.sh's exit code RC. A real
# failure is an answer whatever else went wrong; a pass is one only when
# the TAP is whole and the exit code says what the TAP says.
answer()
{
	local tap=$1 rc=$2 judged whole

	answer_rc "$rc"
	judged=$(judge_tap "$tap") || verdict skip "cannot read the TAP $tap"
	case $judged in
	bad*)	verdict bad "${judged#bad }" ;;
	esac
	whole=$(awk -f "$VM_DIR/tap-plan.awk" "$tap") ||
		verdict skip "no whole run (exit $rc$(vm_signal_of "$rc")): $whole"
	case $rc,$judged in
	0,*|1,skip*)	;;
	1,*)	verdict skip "the suite exited 1 (a failure) and its TAP shows none" ;;
	*)	verdict skip "the suite exited $rc$(vm_signal_of "$rc"), not 0 or 1: its TAP is not all it had to say" ;;
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
