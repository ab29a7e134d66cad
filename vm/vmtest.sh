#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the suite on each kernel in a VM, print the verdict matrix and judge
# it against the expected one (make vmtest, docs/vm.md).
#
#   vm/vmtest.sh [--mutants] [--front kselftest|test_progs]
#                [-t TEST]... [-j N] [--save FILE] [KERNEL...]
#   vm/vmtest.sh --build [--mutants] [KERNEL...]
#   vm/vmtest.sh --kernel PATH [-t TEST]...     (or KERNEL=PATH)
#   vm/vmtest.sh --line
#
# KERNEL... are variants (default: stock fix; on the mutants' line, 6.12,
# stock seed iif both fix) or mutants by file name; --mutants adds every vm/mutants/*.patch.
# --front test_progs runs that front end, against the same expectations.
# -t TEST runs only TEST (egress_mirred.ipv4); repeatable. -j N runs up
# to N VMs at once beside the builds (default 2, or $VM_JOBS). --save
# FILE writes the matrix to FILE, a new file. --kernel boots one image,
# prints the suite's TAP and exits with its code. --build builds (or
# finds cached) the images and boots nothing. --line prints KDIR's kernel
# line (scripts/lines) or refuses it.
#
# Exits 1 on any difference from the line's vm/expected-matrix-LINE.txt,
# a run that is not whole, or a mutant that survived; TAP and logs in
# build/vm/results/ (VM_RESULTS).

# No -e: the runs' statuses are taken and judged (rc=$? below).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXPECTED=${VM_EXPECTED:-}
RESULTS=${VM_RESULTS:-$VM_BUILD/results}
suite_cmd=(scripts/run-suite.sh)
# The console logs' suffix: the front ends' runs may go side by side.
console_tag=
suite_args=()
kernels=()
kernel_image=
save=
mutants=0
build_only=0
jobs=${VM_JOBS:-2}

# The test_progs front end must give the very verdicts of the expected
# matrix: it runs in the same VMs and fills a matrix of its own.
set_front()
{
	suite_cmd=("$(DIE_STATUS=2 vm_front_cmd "$1")") || exit 2
	[ "$1" = kselftest ] && return
	console_tag=-$1
	RESULTS=${VM_RESULTS:-$VM_BUILD/results}-$1
}

parse_args()
{
	while [ $# -gt 0 ]; do
		case $1 in
		--mutants)	mutants=1 ;;
		--build)	build_only=1 ;;
		--front)	set_front "$2"; shift ;;
		-t)		suite_args+=(-t "$2"); shift ;;
		--save)		[ -n "${2:-}" ] || usage
				save=$2; shift ;;
		-j)		jobs=$2; shift ;;
		-j*)		jobs=${1#-j} ;;
		--kernel)	kernel_image=$2; shift ;;
		--line)		vm_kernel_line; exit ;;
		KERNEL=*)	kernel_image=${1#KERNEL=} ;;
		-h|--help)	usage ;;
		-*)		usage ;;
		*)		kernels+=("$1") ;;
		esac
		shift
	done
	return 0
}

# The variants of KDIR's line, when none are named; then the mutants.
default_kernels()
{
	if [ ${#kernels[@]} -eq 0 ]; then
		# shellcheck disable=SC2207 # the variants are words
		kernels=($(vm_line_variants "$(vm_kernel_line)"))
	fi
	[ $mutants = 1 ] && mapfile -t -O ${#kernels[@]} kernels < <(vm_mutants)
	vm_check_save "$save"
}

# --build: each column's image, built or found cached; nothing boots.
build_images()
{
	local name rc=0

	for name in "$@"; do
		"$VM_DIR/build-kernel.sh" "$name" >/dev/null || rc=1
	done
	return $rc
}

# Build a column's kernel; prints the image's path. Builds take turns:
# they share one tree.
build_column()
{
	local name=$1

	rm -f "$RESULTS/$name".*
	"$VM_DIR/build-kernel.sh" "$name" && return 0
	: > "$RESULTS/$name.cells"
	vm_fill build > "$RESULTS/$name.fill"
	return 1
}

# Boot and run one column; leaves NAME.tap, NAME.cells, NAME.fill and
# NAME.whole (empty, or why the run is not all it had to say: judge),
# NAME.key (the image's key, from build-kernel.sh) and NAME.args (the
# suite's -t options, empty for every test): what vm/series-check.sh
# reads to take a fix column's run as its own.
run_column()
{
	local name=$1 image=$2 build_s=$3

	cat "$image.key" > "$RESULTS/$name.key" 2>/dev/null
	printf '%s' "${suite_args[*]}" > "$RESULTS/$name.args"
	vm_run_cells "$RESULTS" "$name" \
		-l "$VM_BUILD/logs/console-$name$console_tag.log" "$image" \
		-- "${suite_cmd[@]}" "${suite_args[@]}"
	log "$name: build $build_s s; $(vm_run_times "$RESULTS" "$name")"
}

# Build each column in turn; up to $jobs VMs run beside the builds.
run_columns()
{
	local name image start build_s

	for name in "$@"; do
		start=$(vm_now)
		image=$(build_column "$name") || continue
		build_s=$(vm_since "$start")
		vm_throttle "$jobs"
		run_column "$name" "$image" "$build_s" &
	done
	wait
}

# Differences of matrix $1 from the expected matrix; with -t the rows
# asked for, each of them (one a kernel did not report is a difference).
# The columns "$@" after it that are mutants need no expected column
# (mutant_report judges them); any other must have one. Fails on any
# difference, and when there is nothing to compare with.
compare()
{
	local matrix=$1 rows out rc name mutant_cols=

	shift
	for name in "$@"; do
		vm_is_mutant "$name" && mutant_cols+=" $name"
	done
	rows=$(vm_requested_rows "${suite_args[@]}" | paste -sd' ')
	if [ ! -s "$EXPECTED" ]; then
		echo "DIFF no expected matrix: $EXPECTED is missing or empty"
		return 1
	fi
	out=$(awk -v rows="$rows" -v mutants="$mutant_cols" -f "$VM_DIR/compare.awk" \
		"$EXPECTED" "$matrix" 2>&1)
	rc=$?
	[ -n "$out" ] && sort <<< "$out"
	[ $rc -gt 1 ] && echo "DIFF compare.awk failed (exit $rc)"
	return $rc
}

# "ROW CELL, ..." for the rows where mutant $2 differs from its base $1.
changed_rows()
{
	join -a 1 -e "$(cat "$RESULTS/$2.fill")" -o 0,1.2,2.2 \
		<(sort "$RESULTS/$1.cells") <(sort "$RESULTS/$2.cells") |
		awk '$2 != $3 { printf "%s%s %s", sep, $1, $3; sep = ", " }'
}

# The rows of column $1 that hold no verdict, as "ROW CELL, ...": the
# kernel did not build, boot, live or finish (fail:build, fail:boot,
# fail:crash, fail:timeout), or said nothing of the row (missing); the
# rows are those of column $2 (its base), or its own.
unjudged_rows()
{
	local fill

	fill=$(cat "$RESULTS/$1.fill" 2>/dev/null) || fill=missing
	join -a 1 -a 2 -e "$fill" -o 0,2.2 \
		<(sort "$RESULTS/${2:-$1}.cells" 2>/dev/null) \
		<(sort "$RESULTS/$1.cells" 2>/dev/null) |
		awk '$2 ~ /^(fail:(build|boot|crash|timeout)|missing)$/ {
			rows[++n] = $1 " " $2
			if (!($2 in seen))
				kinds = kinds (kinds == "" ? "" : "/") $2
			seen[$2] = 1
		}
		END {
			if (!NR)
				printf "no verdicts at all"
			else if (n > 3)
				printf "%s in %d of %d rows", kinds, n, NR
			else
				for (i = 1; i <= n; i++)
					printf "%s%s", (i > 1 ? ", " : ""), rows[i]
		}'
}

# A mutant the suite does not tell from its base variant survived. One
# that did not build, boot or finish, or whose base did not, tells
# nothing: it is broken, not killed.
mutant_report()
{
	local m base bad

	for m in "$@"; do
		vm_is_mutant "$m" || continue
		base=$(vm_mutant_base "$m")
		if bad=$(unjudged_rows "$base") && [ -n "$bad" ]; then
			echo "BROKEN mutant $m: its base $base gave no verdict: $bad"
		elif bad=$(unjudged_rows "$m" "$base") && [ -n "$bad" ]; then
			echo "BROKEN mutant $m: no verdict: $bad"
		elif cmp -s "$RESULTS/$m.cells" "$RESULTS/$base.cells"; then
			echo "SURVIVED mutant $m: same verdicts as $base"
		else
			echo "killed mutant $m (base $base): $(changed_rows "$base" "$m")"
		fi
	done
}

# The columns of "$@" whose run was not whole (NAME.whole, run_column):
# a difference for a kernel, a broken mutant for a mutant, each followed
# by what run-vm.sh said of the run (boot, qemu's exit, console lines).
cut_runs()
{
	local name why

	for name in "$@"; do
		why=$(cat "$RESULTS/$name.whole" 2>/dev/null)
		[ -n "$why" ] || continue
		if vm_is_mutant "$name"; then
			echo "BROKEN mutant $name: its run is not whole: $why"
		else
			echo "DIFF $name: its run is not whole: $why"
		fi
		vm_run_said "$RESULTS" "$name"
	done
}

# The verdict on a run: the matrix ($1) against the expected one, each
# column's run whole, and the mutants among the columns ("$@" after it).
# Prints every difference; fails on any, or when the comparison itself
# could not be made.
judge()
{
	local matrix=$1 diffs rc

	shift
	diffs=$(compare "$matrix" "$@"; echo "rc $?"; cut_runs "$@"; mutant_report "$@")
	rc=$(sed -n 's/^rc //p' <<< "$diffs")
	diffs=$(vm_fold_cut_rows "$RESULTS" "$(grep -v '^rc ' <<< "$diffs")" "$@")
	[ -n "$diffs" ] && echo "$diffs"
	[ "$rc" = 0 ] && ! grep -qE '^(DIFF|SURVIVED|BROKEN)' <<< "$diffs"
}

# An x86 bzImage carries "HdrS" at offset 0x202: refuse anything else
# before qemu does, with one line.
check_bootable()
{
	[ -r "$1" ] || DIE_STATUS=2 die "KERNEL=$1: no such file"
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] ||
		DIE_STATUS=2 die "KERNEL=$1 is not a bootable x86 kernel image (bzImage)"
}

main()
{
	local start name rc

	parse_args "$@"
	if [ -n "$kernel_image" ]; then
		check_bootable "$kernel_image"
		vm_boot -t "$(vm_run_limit -- "${suite_args[@]}")" \
			"$kernel_image" -- "${suite_cmd[@]}" "${suite_args[@]}"
		exit
	fi
	# The kernel line of KDIR picks the expected matrix; another line is
	# refused here, before anything is built.
	vm_kernel_line >/dev/null || exit 2
	[ -n "$EXPECTED" ] || EXPECTED=$(vm_expected_matrix)
	default_kernels
	[ $build_only = 1 ] && { build_images "${kernels[@]}"; return; }
	start=$(vm_now)
	mkdir -p "$RESULTS"
	# A mutant needs its base variant's column to be judged against.
	for name in "${kernels[@]}"; do
		vm_is_mutant "$name" && [[ " ${kernels[*]} " != *" $(vm_mutant_base "$name") "* ]] &&
			kernels=("$(vm_mutant_base "$name")" "${kernels[@]}")
	done
	run_columns "${kernels[@]}"
	vm_matrix "$RESULTS" "${kernels[@]}" > "$RESULTS/matrix.txt"
	cat "$RESULTS/matrix.txt"
	judge "$RESULTS/matrix.txt" "${kernels[@]}"
	rc=$?
	# After the judging, into a new file (check_save): the measured matrix
	# whatever the verdict, to compare or fill in by hand.
	if [ -n "$save" ]; then
		if (set -o noclobber; cat "$RESULTS/matrix.txt" > "$save"); then
			log "matrix saved to $save"
		else
			log "cannot write $save"
			rc=1
		fi
	fi
	log "${#kernels[@]} kernels in $(vm_since "$start") s"
	return $rc
}

# Sourced (tests/selftest.sh), only the functions are wanted.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
main "$@"; exit
