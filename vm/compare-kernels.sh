#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a patch changes: every observation of the grid on kernel A next to
# kernel B (make compare).
#
#   vm/compare-kernels.sh [-t ROW]... KERNEL KERNEL...
#   vm/compare-kernels.sh --records FILE FILE...
#
# KERNEL: a variant (stock, seed, iif, both, fix), a mutant by its file
# name (fix-ifb-one-home: vm/mutants/ on its base), a bzImage path, or
# distro, distro-6.1 (Debian's kernel with its modules). -t ROW limits
# the run to that grid row (scenario.ipv4). --records compares record
# files already made, named by their file names.
#
# docs/compare.md says what it runs, the files it leaves per kernel in
# $COMPARE_DIR (default build/compare), the labels and the exit codes:
# 0 only expected differences, 1 an unexpected one, 2 no whole comparison.

# No -e: every status that matters is taken and judged (rc=$? below).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

COMPARE_DIR=${COMPARE_DIR:-$VM_ROOT/build/compare}
readonly TABLE=$VM_ROOT/tools/testing/selftests/net/tc_skip_egress/tse_table.h
# Exit codes: 0 only expected differences, 1 an unexpected one (the awk's).
readonly NOT_WHOLE=2
# shellcheck disable=SC2034 # read by die (scripts/lib.sh)
DIE_STATUS=$NOT_WHOLE

# The grid's rows, scenario.ipv4 then scenario.ipv6 (tse_table.h's TSE_GRID
# lines), one a line.
grid_rows()
{
	local fam
	local -a names

	mapfile -t names < <(sed -n 's/^TSE_GRID(\([a-z0-9_]*\),.*/\1/p' "$TABLE")
	[ ${#names[@]} -gt 0 ] || die "no TSE_GRID lines in $TABLE"
	for fam in ipv4 ipv6; do
		printf "%s.$fam\n" "${names[@]}"
	done
}

# The rows to run: the -t ROWs (each must be a grid row), else the grid.
rows_to_run()
{
	local all row

	all=$(grid_rows) || exit $NOT_WHOLE
	[ $# -gt 0 ] || { echo "$all"; return; }
	for row; do
		grep -qxF -- "$row" <<< "$all" ||
			die "-t $row: not a grid row (scenario.ipv4 or .ipv6 of a TSE_GRID line)"
		echo "$row"
	done
}

# "IMAGE INITRD" for a KERNEL word (INITRD "-" for none), built or fetched.
kernel_image()
{
	local k=$1 line image

	if [[ $k == */* ]] || [ -f "$k" ]; then
		[ -f "$k" ] || die "$k: no such image"
		echo "$(realpath "$k") -"
	elif [[ $k =~ ^distro(-6\.12|-6\.1)?$ ]]; then
		line=${k#distro}
		export DISTRO_LINE=${line#-}
		DISTRO_LINE=${DISTRO_LINE:-6.12}
		"$VM_DIR/distro.sh" initramfs >&2 || die "$k: cannot prepare Debian's kernel"
		echo "$("$VM_DIR/distro.sh" path bzimage) $("$VM_DIR/distro.sh" path initramfs)"
	else
		image=$("$VM_DIR/build-kernel.sh" "$k") ||
			die "$k: no image (build-kernel.sh $k failed)"
		echo "$image -"
	fi
}

# Split run-vm.sh's output (stdin) into the TAP (before the records) and
# the records (between the markers of vm/records-guest.sh). No records
# file unless the end marker was seen: records cut off are no records.
split_output()
{
	local tap=$1 tsv=$2

	awk -v tap="$tap" -v tsv="$tsv.part" '
		/^TSE-RECORDS-BEGIN / { on = 1; next }
		/^TSE-RECORDS-END$/ { on = 0; done = 1; next }
		on { print > tsv; next }
		{ print > tap }
		END { exit !done }' &&
	{ [ -f "$tsv.part" ] || : >"$tsv.part"; } &&
	mv "$tsv.part" "$tsv"
}

# The last test the TAP names: where a run that gave no records stopped.
last_test()
{
	grep -E '^(not )?ok [0-9]+ |^#  RUN ' "$1" | tail -n 1
}

# Boot one kernel and keep its records: NAME.tsv, .tap, .err, .log.
run_kernel()
{
	local name=$1 image=$2 initrd=$3 base=$COMPARE_DIR/$1 t0 rc
	local -a opt=()

	shift 3
	[ "$initrd" = - ] || opt=(-i "$initrd")
	rm -f "$base.tsv" "$base.tap" "$base.err" "$base.log" "$base.cells"
	t0=$(vm_now)
	"$VM_DIR/run-vm.sh" -C "$VM_ROOT" -t "$(vm_tests_limit $#)" -l "$base.log" \
		"${opt[@]}" "$image" \
		-- "$VM_DIR/records-guest.sh" "$SUITE_COPY" "$@" 2>"$base.err" |
		split_output "$base.tap" "$base.tsv"
	rc=${PIPESTATUS[0]}
	log "$name: $(vm_since "$t0") s, exit $rc ($(vm_run_times "$COMPARE_DIR" "$name"))"
	[ -f "$base.tsv" ] ||
		log "$name: no records (run-vm.sh exit $rc); the TAP's last test: $(last_test "$base.tap")"
}

# compare_files ROWS ASKED FILE...: compare the record files (kernel names
# from their file names) on ROWS. ASKED 1: every row was run, and one that
# no file holds is a failure; 0 (--records): such a row is passed over.
compare_files()
{
	local rows=$1 asked=$2 f missing=0
	local -a names=() cells=()

	shift 2
	for f; do
		names+=("$(basename "${f%.tsv}")")
		# The verdicts of its TAP, beside it, name what a row lacks.
		if [ -f "${f%.tsv}.tap" ]; then
			vm_cells "${f%.tsv}.tap" >"${f%.tsv}.cells"
			cells+=("${f%.tsv}.cells")
		else
			cells+=(-)
		fi
	done
	for f; do
		if [ ! -e "$f" ]; then
			log "$(basename "${f%.tsv}"): no record file $f"
			missing=1
		elif [ ! -s "$f" ]; then
			log "$(basename "${f%.tsv}"): the record file $f is empty"
			missing=1
		fi
	done
	if [ $missing = 1 ]; then
		echo "NOT A WHOLE COMPARISON: a kernel's records are missing (above)"
		return $NOT_WHOLE
	fi
	awk -v kernels="${names[*]}" -v cells="${cells[*]}" -v rows="$rows" -v asked="$asked" -v csv="$COMPARE_DIR/compare.csv" \
		-f "$VM_DIR/table.awk" -f "$VM_DIR/compare-records.awk" "$@"
}

main()
{
	local k i name spec
	local -a tests=() kernels=() names=() images=() initrds=() files=() rows

	[ "${1:-}" = --records ] && {
		shift
		[ $# -ge 2 ] || usage $NOT_WHOLE "--records needs two files or more"
		mkdir -p "$COMPARE_DIR"
		compare_files "$(grid_rows | paste -sd' ')" 0 "$@"
		return
	}
	while [ $# -gt 0 ]; do
		case $1 in
		-t)	[ $# -ge 2 ] || usage $NOT_WHOLE "-t needs a row"
			tests+=("$2")
			shift ;;
		-*)	usage $NOT_WHOLE "unknown option '$1'" ;;
		*)	kernels+=("$1") ;;
		esac
		shift
	done
	[ ${#kernels[@]} -ge 2 ] || usage $NOT_WHOLE "name two kernels or more"
	k=$(rows_to_run "${tests[@]}") || exit $NOT_WHOLE
	mapfile -t rows <<< "$k"
	for k in "${kernels[@]}"; do
		name=${k##*/}
		[[ " ${names[*]} " != *" $name "* ]] || die "$name named twice"
		names+=("$name")
	done
	[ -x "$VM_SUITE" ] || die "$VM_SUITE is not built (make suite)"
	mkdir -p "$COMPARE_DIR"
	# Every kernel runs the same binary, even if the suite is rebuilt
	# meanwhile.
	SUITE_COPY=$COMPARE_DIR/tc_skip_egress
	cp "$VM_SUITE" "$SUITE_COPY" || die "cannot copy $VM_SUITE"
	# All images first: a kernel that does not build stops it before
	# any boot.
	for k in "${kernels[@]}"; do
		spec=$(kernel_image "$k") || exit $NOT_WHOLE
		images+=("${spec% *}")
		initrds+=("${spec##* }")
	done
	for i in "${!kernels[@]}"; do
		run_kernel "${names[$i]}" "${images[$i]}" "${initrds[$i]}" "${rows[@]}"
		files+=("$COMPARE_DIR/${names[$i]}.tsv")
	done
	compare_files "${rows[*]}" 1 "${files[@]}"
}

# Sourced (tests/selftest.sh), only the functions are wanted.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
main "$@"; exit
