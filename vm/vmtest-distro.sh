#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Both front ends on Debian's own kernels, 6.12 and 6.1, with the modules
# from their packages, in the VM runner (make vmtest-distro,
# docs/distro.md): their verdicts must equal the stock column of the
# line's expected matrix.
#
#   vm/vmtest-distro.sh [-t TEST]... [--front kselftest|test_progs]...
#                       [--line 6.12|6.1]...
#
# -t TEST    runs only TEST (egress_mirred.ipv4); repeatable.
# --front    one front end (default both).
# --line     one kernel line (default both).
#
# Prints a matrix per line, a column per front end; exits 1 on any
# difference from the stock column, a run that is not whole, or a row
# asked for with -t that a front end did not report. TAP and logs:
# build/vm/results-distro/ (6.12), build/vm/results-distro-6.1/.

# No -e: the runs' statuses are taken and judged (rc=$? below).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXPECTED=
RESULTS=
jobs=${VM_JOBS:-2}

# Boot the distro kernel and run one front end: FRONT.tap, .cells, .fill
# and .whole (empty, or why the run is not all it had to say).
run_front()
{
	local front=$1 image=$2 initrd=$3 cmd

	cmd=$(vm_front_cmd "$front") || exit 2
	vm_run_cells "$RESULTS" "$front" -i "$initrd" \
		-l "$VM_BUILD/logs/console-distro-$DISTRO_LINE-$front.log" "$image" \
		-- "$cmd" "${ARG_TESTS[@]}"
	log "$DISTRO_LINE $front: $(vm_run_times "$RESULTS" "$front")"
}

# The expected matrix for the distro kernel: the stock column, once per
# front end.
expected()
{
	awk -v cols="$*" '
		/^[ \t]*(#|$)/ { next }
		!head {
			for (i = 2; i <= NF; i++)
				if ($i == "stock")
					s = i
			if (!s) {
				print "vmtest-distro: no stock column" > "/dev/stderr"
				exit 2
			}
			head = 1
			print "test", cols
			next
		}
		{
			line = $1
			for (i = 1; i <= split(cols, c, " "); i++)
				line = line " " $s
			print line
		}' "$EXPECTED"
}

# The front ends' matrix in RESULTS, printed, and judged against the
# stock column of EXPECTED: each row (with -t, each row asked for), and
# each front end's run whole.
judge_line()
{
	local front rows why cut=0 rc diffs

	rows=$(vm_requested_rows "${ARG_TESTS[@]}" | paste -sd' ')
	vm_matrix "$RESULTS" "${ARG_FRONTS[@]}" > "$RESULTS/matrix.txt"
	cat "$RESULTS/matrix.txt"
	expected "${ARG_FRONTS[@]}" > "$RESULTS/expected.txt" || return 2
	diffs=$(awk -v rows="$rows" -f "$VM_DIR/compare.awk" "$RESULTS/expected.txt" \
		"$RESULTS/matrix.txt")
	rc=$?
	[ -z "$diffs" ] || vm_fold_cut_rows "$RESULTS" "$diffs" "${ARG_FRONTS[@]}"
	for front in "${ARG_FRONTS[@]}"; do
		why=$(cat "$RESULTS/$front.whole" 2>/dev/null)
		[ -n "$why" ] || continue
		echo "DIFF $front: its run is not whole: $why"
		vm_run_said "$RESULTS" "$front"
		cut=1
	done
	[ $rc -eq 0 ] && [ $cut = 0 ] && log "$DISTRO_LINE: verdicts equal the stock column"
	[ $rc -ne 0 ] && return $rc
	return $cut
}

# Both front ends on Debian's kernel of line $DISTRO_LINE, against the
# stock column of that line's expected matrix.
run_line()
{
	local image initrd front

	EXPECTED=${VM_EXPECTED:-$VM_DIR/expected-matrix-$DISTRO_LINE.txt}
	RESULTS=$VM_BUILD/results-distro-$DISTRO_LINE
	"$VM_DIR/distro.sh" initramfs || die "cannot prepare Debian's $DISTRO_LINE kernel"
	image=$("$VM_DIR/distro.sh" path bzimage)
	initrd=$("$VM_DIR/distro.sh" path initramfs)
	rm -rf "$RESULTS"
	mkdir -p "$RESULTS"
	for front in "${ARG_FRONTS[@]}"; do
		vm_throttle "$jobs"
		run_front "$front" "$image" "$initrd" &
	done
	wait
	echo "Debian $("$VM_DIR/distro.sh" path kver), expected: the stock column of ${EXPECTED##*/}"
	judge_line
}

main()
{
	local line rc=0

	vm_parse_args "-t --front --line" "$@"
	for line in "${ARG_LINES[@]}"; do
		export DISTRO_LINE=$line
		run_line || rc=1
	done
	return $rc
}

# Sourced (tests/selftest.sh), only the functions are wanted.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
main "$@"; exit
