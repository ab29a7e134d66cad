#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make stress: is the suite trustworthy over thousands of runs? Measures
# cleanup after kills at random points, parallel runs, repeatability with
# the other core busy, kernel-warning detection, bad input handling, and
# (in VMs; STRESS_VM=0 leaves it out) bounded time on kernels that loop,
# then prints a summary with the numbers.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=${RUNS:-50}
KILLS=${KILLS:-20}
OUT=$(mktemp -d)
BUSY=
cleanup() {
	[ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT

verdicts_of() {
	"$SUITE" "$@" 2>&1 | tap_verdicts
}

# Kill a run at a random point with SIGINT (the whole process group, as
# Ctrl-C does), SIGTERM (the runner only) or SIGKILL (as a timeout does).
kill_at_random() {
	local sig=$1 pid delay

	setsid "$SUITE" >/dev/null 2>&1 &
	pid=$!
	delay=$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", r % 200 / 100 }')
	sleep "$delay"
	case $sig in
	INT|KILL) kill -s "$sig" -- "-$pid" 2>/dev/null ;;
	TERM) kill -s TERM "$pid" 2>/dev/null ;;
	esac
	wait "$pid" 2>/dev/null
	echo "$sig after ${delay}s"
}

s_kills() {
	local i sig left bad=0

	for i in $(seq 1 "$KILLS"); do
		sig=$(echo INT TERM KILL | cut -d' ' -f$((i % 3 + 1)))
		kill_at_random "$sig" >>"$OUT/kills"
		if ! left=$(wait_no_leftovers "$OUT/before"); then
			bad=$((bad + 1))
			echo "# left behind after $(tail -1 "$OUT/kills"): $left"
		fi
	done
	[ "$bad" -eq 0 ] && pass "cleanup: $KILLS runs killed at random points (INT, TERM, KILL), 0 leftovers" ||
		fail "cleanup: $bad of $KILLS killed runs left something behind"
}

s_parallel() {
	verdicts_of >"$OUT/par1" &
	verdicts_of >"$OUT/par2"
	wait
	if same_verdicts "$OUT/par1" "$OUT/par2"; then
		pass "parallel: two runs at once, same $(wc -l <"$OUT/par1") verdicts"
	else
		fail "parallel: verdicts differ"
		diff "$OUT/par1" "$OUT/par2" | sed 's/^/# /'
	fi
	wait_no_leftovers "$OUT/before" >"$OUT/left" ||
		fail "parallel: left something behind: $(cat "$OUT/left")"
}

# A run that gives no verdicts differs from every run, an empty first run
# included; every test must report its time, within the harness's 30 s.
s_repeat() {
	local i diffs=0 start end slowest

	sh -c 'while :; do :; done' &
	BUSY=$!
	: >"$OUT/times"
	"$SUITE" >"$OUT/run" 2>&1
	tap_verdicts <"$OUT/run" >"$OUT/first"
	start=$(date +%s)
	for i in $(seq 2 "$RUNS"); do
		"$SUITE" >"$OUT/run" 2>&1
		tap_verdicts <"$OUT/run" >"$OUT/v"
		grep -o 'took [0-9.]* s' "$OUT/run" >>"$OUT/times"
		same_verdicts "$OUT/first" "$OUT/v" || {
			diffs=$((diffs + 1))
			diff "$OUT/first" "$OUT/v" | sed "s/^/# run $i: /"
		}
	done
	end=$(date +%s)
	kill "$BUSY"
	BUSY=
	slowest=$(sort -k2 -n "$OUT/times" | tail -1 | cut -d' ' -f2)
	if [ "$diffs" -ne 0 ]; then
		fail "repeat: $diffs of $((RUNS - 1)) runs gave verdicts other than the first's ($(wc -l <"$OUT/first") verdicts)"
	elif ! within_limit "$slowest" 30; then
		fail "repeat: slowest test took '${slowest}' s (no time, or over 30 s)"
	else
		pass "repeat: $RUNS runs with the other core busy, 0 verdict differences in $(wc -l <"$OUT/first") verdicts ($((end - start))s, slowest test ${slowest}s)"
	fi
}

# Lines written to /dev/kmsg during a test must surface in its result.
s_kernel_warnings() {
	local writer v

	(while :; do
		echo "tse-stress: WARNING: injected to test the suite" >/dev/kmsg
		sleep 0.005
	done) &
	writer=$!
	v=$(verdicts_of -r "$(harness_name egress_unrelated.ipv4)")
	kill "$writer"
	wait "$writer" 2>/dev/null
	[ "$v" = "egress_unrelated.ipv4 fail:kernel-warning" ] &&
		pass "kernel warnings: an injected WARNING fails the test as kernel-warning" ||
		fail "kernel warnings: injected WARNING gave '$v'"
}

# Each bad input: non-zero exit and one line of error, no wall of make errors.
expect_one_line_error() {
	local what=$1 rc lines

	shift
	"$@" >"$OUT/bad" 2>&1
	rc=$?
	lines=$(grep -vc '^$' "$OUT/bad")
	if [ "$rc" -ne 0 ] && [ "$lines" -le 2 ]; then
		pass "bad input: $what: exit $rc, '$(head -1 "$OUT/bad")'"
	else
		fail "bad input: $what: exit $rc, $lines lines"
		sed 's/^/# /' "$OUT/bad" | head -5
	fi
}

s_bad_input() {
	expect_one_line_error "unknown option" make -s -C "$TOP" run_tests T=--bogus
	expect_one_line_error "unknown option to the runner" "$TOP/scripts/run-suite.sh" --bogus
	expect_one_line_error "KDIR not a kernel tree" make -s -C "$TOP" suite KDIR=/tmp
	expect_one_line_error "missing root" setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$TOP/scripts/run-suite.sh"
	if [ -f "$TOP/vm/vm.mk" ]; then
		expect_one_line_error "KERNEL not a bootable image" \
			make -s -C "$TOP" vmtest KERNEL=/etc/hostname
	fi
}

# On kernels that loop packets (iif: bpf_redirect, seed: the root qdisc),
# each looping test must still end well inside the harness's 30 s limit.
s_bounded_on_looping_kernels() {
	local res=$TOP/build/vm/results slowest

	if ! "$TOP/vm/vmtest.sh" iif seed -t egress_bpf_redirect.ipv4 \
		-t root_qdisc_mirred_with_clsact.ipv4 >"$OUT/loopvm" 2>&1; then
		fail "bounded: looping kernels did not give the expected verdicts"
		sed 's/^/# /' "$OUT/loopvm" | tail -10
		return
	fi
	slowest=$(cat "$res/iif.tap" "$res/seed.tap" |
		  grep -o 'took [0-9.]* s' | sort -k2 -n | tail -1 | cut -d' ' -f2)
	within_limit "$slowest" 15 &&
		pass "bounded: looping tests on iif and seed kernels end in at most ${slowest}s each (harness limit 30s)" ||
		fail "bounded: a looping test took '${slowest}' s (no time, or over 15 s)"
}

main() {
	[ -x "$SUITE" ] || { echo "stress: build the suite first (make suite)"; exit 2; }
	snapshot "$OUT/before" || { echo "stress: cannot see namespaces and BPF objects"; exit 2; }
	s_bad_input
	s_kernel_warnings
	s_parallel
	s_kills
	s_repeat
	[ "${STRESS_VM:-1}" != 0 ] && s_bounded_on_looping_kernels
	summary
}

# Sourced, only the functions are wanted (to try one part alone).
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
main "$@"
