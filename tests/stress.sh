#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make stress: cleanup after kills, parallel and repeated runs, kernel
# warnings, bad input and (in VMs; STRESS_VM=0 leaves it out) bounded time
# on looping kernels; docs/stress.md says what each part checks.
# No -e: every part takes its commands' statuses and judges them.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=${RUNS:-50}
KILLS=${KILLS:-20}
OUT=$(mktemp -d)
BUSY=
WRITER=
# Whatever ends this script (the end, an error, Ctrl-C, a kill) ends what
# it started in the background: the busy loop and the /dev/kmsg writer.
# Asynchronous commands of a script ignore SIGINT, so Ctrl-C alone would
# leave them running.
cleanup()
{
	[ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null
	[ -n "$WRITER" ] && kill "$WRITER" 2>/dev/null
	BUSY=''
	WRITER=''
	rm -rf "$OUT"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

verdicts_of()
{
	"$SUITE" "$@" 2>&1 | tap_verdicts
}

# Kill a run at a random point with SIGINT (the whole process group, as
# Ctrl-C does), SIGTERM (the runner only) or SIGKILL (as a timeout does).
# The run is a session of its own (RUN_SID), with SIGINT at its default
# (docs/checkers.md: else it never died of the INT). RUN_RC is how it
# ended: 128 + the signal when the signal killed it.
RUN_SID=
RUN_RC=

# Is run PID in its own session (setsid() done: the group -PID exists),
# with SIGINT no longer ignored (env has reset it: a background job
# starts with SIGINT ignored)?
run_ready()
{
	local ign

	ign=$(awk '/^SigIgn:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$ign" ] && (((16#$ign & 2) == 0)) && kill -0 -- "-$1" 2>/dev/null
}

kill_at_random()
{
	local sig=$1 max=$2 pid delay

	setsid env --default-signal=INT "$SUITE" >/dev/null 2>&1 &
	pid=$!
	RUN_SID=$pid
	# A kill at 0.00 s once went nowhere, and the run ended by itself:
	# wait (at most 1 s) until the run is signalable as meant.
	for _ in $(seq 200); do
		run_ready "$pid" || ! kill -0 "$pid" 2>/dev/null && break
		sleep 0.005
	done
	delay=$(awk -v r="$RANDOM" -v max="$max" 'BEGIN { printf "%.2f", r % 1000 / 1000 * max }')
	sleep "$delay"
	case $sig in
	INT|KILL) kill -s "$sig" -- "-$pid" 2>/dev/null ;;
	TERM) kill -s TERM "$pid" 2>/dev/null ;;
	esac
	wait "$pid" 2>/dev/null
	RUN_RC=$?
	echo "$sig after ${delay}s"
}

# The kill points fall in the first 60 % of a whole run, timed first. A
# fixed bound (2 s) passed the end of a fast run: 46 tests take under
# 2 s on an idle host, and such a run ended by itself, testing nothing.
kill_span()
{
	local t0 t1

	t0=$(date +%s.%N)
	"$SUITE" >/dev/null 2>&1
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) * 0.6 }'
}

# A run that the signal did not kill tested no cleanup: it counts as a
# failure of the check, not as a run that left nothing. What counts as
# left behind is the leftover check's (wait_no_leftovers): ours, the
# killed run's session included, and there at every look.
s_kills()
{
	local i sig left bad=0 missed=0 want span

	span=$(kill_span)
	for i in $(seq 1 "$KILLS"); do
		sig=$(echo INT TERM KILL | cut -d' ' -f$((i % 3 + 1)))
		kill_at_random "$sig" "$span" >>"$OUT/kills"
		want=$((128 + $(kill -l "$sig")))
		if [ "$RUN_RC" != "$want" ]; then
			missed=$((missed + 1))
			echo "# not killed by $(tail -1 "$OUT/kills"): the run ended with exit $RUN_RC, not $want"
		fi
		if ! left=$(wait_no_leftovers "$OUT/before" "$RUN_SID"); then
			bad=$((bad + 1))
			echo "# left behind after $(tail -1 "$OUT/kills"): $left"
		fi
	done
	if [ "$missed" -ne 0 ]; then
		fail "cleanup: $missed of $KILLS runs were not killed by their signal: nothing tested there"
	elif [ "$bad" -ne 0 ]; then
		fail "cleanup: $bad of $KILLS killed runs left something behind"
	else
		pass "cleanup: $KILLS runs killed at random points (INT, TERM, KILL), each by its signal, 0 leftovers"
	fi
}

# Is the run whose output is in FILE whole (vm/tap-plan.awk: its plan,
# every result, no "Bail out!")? Nothing when it is, else why not, and
# fail. Two runs cut off at the same place agree on their verdicts: runs
# are compared only when whole.
not_whole()
{
	awk -f "$TOP/vm/tap-plan.awk" "$1"
}

s_parallel()
{
	local pid n w why=

	"$SUITE" >"$OUT/par1.tap" 2>&1 &
	pid=$!
	"$SUITE" >"$OUT/par2.tap" 2>&1
	wait "$pid"
	for n in 1 2; do
		tap_verdicts <"$OUT/par$n.tap" >"$OUT/par$n"
		w=$(not_whole "$OUT/par$n.tap") || why+="run $n: $w; "
	done
	if [ -n "$why" ]; then
		fail "parallel: not whole, so not compared: ${why%; }"
	elif same_verdicts "$OUT/par1" "$OUT/par2"; then
		pass "parallel: two runs at once, same $(wc -l <"$OUT/par1") verdicts"
	else
		fail "parallel: verdicts differ"
		diff "$OUT/par1" "$OUT/par2" | sed 's/^/# /'
	fi
	wait_no_leftovers "$OUT/before" >"$OUT/left" ||
		fail "parallel: left something behind: $(cat "$OUT/left")"
}

# A run that gives no verdicts differs from every run, an empty first run
# included; a run that is not whole fails the check, the first included;
# every test must report its time, within the harness's 30 s.
s_repeat()
{
	local i diffs=0 start end slowest why

	sh -c 'while :; do :; done' &
	BUSY=$!
	: >"$OUT/times"
	"$SUITE" >"$OUT/run" 2>&1
	tap_verdicts <"$OUT/run" >"$OUT/first"
	if why=$(not_whole "$OUT/run"); then
		: >"$OUT/cut"
	else
		echo "run 1: $why" >"$OUT/cut"
	fi
	start=$(date +%s)
	for i in $(seq 2 "$RUNS"); do
		"$SUITE" >"$OUT/run" 2>&1
		tap_verdicts <"$OUT/run" >"$OUT/v"
		grep -o 'took [0-9.]* s' "$OUT/run" >>"$OUT/times"
		why=$(not_whole "$OUT/run") || echo "run $i: $why" >>"$OUT/cut"
		same_verdicts "$OUT/first" "$OUT/v" || {
			diffs=$((diffs + 1))
			diff "$OUT/first" "$OUT/v" | sed "s/^/# run $i: /"
		}
	done
	end=$(date +%s)
	kill "$BUSY"
	BUSY=
	slowest=$(sort -k2 -n "$OUT/times" | tail -1 | cut -d' ' -f2)
	if [ -s "$OUT/cut" ]; then
		fail "repeat: $(wc -l <"$OUT/cut") of $RUNS runs are not whole, and cut runs agree on nothing: $(head -1 "$OUT/cut")"
	elif [ "$diffs" -ne 0 ]; then
		fail "repeat: $diffs of $((RUNS - 1)) runs gave verdicts other than the first's ($(wc -l <"$OUT/first") verdicts)"
	elif ! within_limit "$slowest" 30; then
		fail "repeat: slowest test took '${slowest}' s (no time, or over 30 s)"
	else
		pass "repeat: $RUNS runs with the other core busy, 0 verdict differences in $(wc -l <"$OUT/first") verdicts ($((end - start))s, slowest test ${slowest}s)"
	fi
}

# Lines written to /dev/kmsg during a test must surface in its result:
# the control STRESS_WARN_ROW, which must pass first without them, fails
# as kernel-warning. STRESS_KMSG says where the warnings go: "real" (make
# stress) the kernel's log, which every run of the suite on the machine
# reads (tse_kernel_log_check); "private" (make check's light stress) a
# file bound over /dev/kmsg in a mount namespace of the two runs' own.
# docs/stress.md and docs/checkers.md say why.
STRESS_WARN_ROW=${STRESS_WARN_ROW:-ingress_mirred.ipv4}
STRESS_KMSG=${STRESS_KMSG:-real}

# The verdicts of SUITE ARG..., with /dev/kmsg as STRESS_KMSG says
# ($OUT/kmsg in a mount namespace of its own when private).
kmsg_verdicts_of()
{
	if [ "$STRESS_KMSG" = private ]; then
		unshare -m bash -c 'mount --bind "$1" /dev/kmsg || exit 2
			shift
			exec "$@"' _ "$OUT/kmsg" "$SUITE" "$@" 2>&1 | tap_verdicts
	else
		verdicts_of "$@"
	fi
}

s_kernel_warnings()
{
	local row=$STRESS_WARN_ROW name v kmsg=/dev/kmsg where="the kernel log"

	case $STRESS_KMSG in
	real)	;;
	private)
		kmsg=$OUT/kmsg
		where="a private /dev/kmsg"
		: >"$kmsg"
		if ! unshare -m bash -c 'mount --bind "$1" /dev/kmsg' _ "$kmsg" 2>"$OUT/unshare"; then
			fail "kernel warnings: STRESS_KMSG=private, but no mount namespace with a file over /dev/kmsg: $(head -1 "$OUT/unshare")"
			return
		fi ;;
	*)	fail "kernel warnings: STRESS_KMSG=$STRESS_KMSG: real or private"
		return ;;
	esac
	name=$(harness_name "$row")
	if [ -z "$name" ]; then
		fail "kernel warnings: the suite lists no $row"
		return
	fi
	v=$(kmsg_verdicts_of -r "$name")
	if [ "$v" != "$row pass" ]; then
		fail "kernel warnings: $row must pass without a warning first, gave '$v'"
		return
	fi
	(while kill -0 $$ 2>/dev/null; do
		echo "tse-stress: WARNING: injected to test the suite" >>"$kmsg"
		sleep 0.005
	done) &
	WRITER=$!
	v=$(kmsg_verdicts_of -r "$name")
	kill "$WRITER"
	wait "$WRITER" 2>/dev/null
	WRITER=
	[ "$v" = "$row fail:kernel-warning" ] &&
		pass "kernel warnings: a WARNING injected into $where fails $row (a pass without it) as kernel-warning" ||
		fail "kernel warnings: a WARNING injected into $where gave '$v'"
}

# Each bad input: non-zero exit and one line of error, no wall of make
# errors. The command must have run and refused: a command that is not
# there (127), cannot run (126) or died of a signal did not say "bad
# input", however short its message.
expect_one_line_error()
{
	local what=$1 rc lines

	shift
	if ! command -v "$1" >/dev/null; then
		fail "bad input: $what: no command '$1' to run (is it installed?)"
		return
	fi
	"$@" >"$OUT/bad" 2>&1
	rc=$?
	lines=$(grep -vc '^$' "$OUT/bad")
	if [ "$rc" -ge 126 ]; then
		fail "bad input: $what: exit $rc: the command did not run or was killed, it did not refuse: '$(head -1 "$OUT/bad")'"
	elif [ "$rc" -ne 0 ] && [ "$lines" -le 2 ]; then
		pass "bad input: $what: exit $rc, '$(head -1 "$OUT/bad")'"
	else
		fail "bad input: $what: exit $rc, $lines lines"
		sed 's/^/# /' "$OUT/bad" | head -5
	fi
}

s_bad_input()
{
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
# Its results go to a folder of its own: VM_BUILD may be shared (the
# kernel images are), a results folder must not be.
s_bounded_on_looping_kernels()
{
	local res=$OUT/vm-results slowest

	# The 2021 series' kernels are the 6.12 line's (vm/lib.sh).
	"$TOP/scripts/trees.sh" 6.12 "$TOP/build/linux-source-6.12" >/dev/null ||
		{ fail "bounded: no 6.12 tree for the looping kernels"; return; }
	if ! KDIR=$TOP/build/linux-source-6.12 VM_BUILD=$TOP/build/vm-6.12 \
		VM_RESULTS=$res "$TOP/vm/vmtest.sh" iif seed -t egress_bpf_redirect.ipv4 \
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

main()
{
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
