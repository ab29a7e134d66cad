#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The seed's benchmark, side by side in VMs: each round boots every kernel
# once, in the same order (A B C A B C ...), and runs bench/guest.sh in it:
# both shapes (fast path, 100 filters) and both workloads (rr, stream).
# Then bench/summarize.sh turns the raw figures into ratios against stock.
#
#   bench/run.sh [-r ROUNDS] [-d SECONDS] [-o DIR] [KERNEL...]
#
# KERNEL...  variants for vm/build-kernel.sh (default: stock seed, plus fix
#            when vm/build-kernel.sh knows it); stock comes first and is the
#            reference of every ratio
# ROUNDS     rounds (default $BENCH_ROUNDS or 5)
# SECONDS    length of each timed run (default $BENCH_SECONDS or 5)
# DIR        where raw.csv, ratios.csv, results.md and ratios.png go
#            (default $BENCH_OUT or bench/results)
#
# The VMs run under qemu TCG unless run-vm.sh's KVM probe works: TCG times
# are emulation times, not hardware times. Only the ratios between kernels
# booted in the same round mean something, and the classifier runs per
# packet, which are exact.

set -o pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
. "$ROOT/vm/lib.sh"

rounds=${BENCH_ROUNDS:-5}
seconds=${BENCH_SECONDS:-5}
out=${BENCH_OUT:-$BENCH_DIR/results}
kernels=()

die()
{
	echo "bench: $*" >&2
	exit 1
}

usage()
{
	sed -n '/^#   bench/,/^#            (default \$BENCH_OUT/p' "$0" |
		sed 's/^# \{0,1\}//' >&2
	exit 2
}

# stock, seed, and fix once the VM runner can build it.
default_kernels()
{
	kernels=(stock seed)
	vm_variant_patches fix >/dev/null 2>&1 && kernels+=(fix)
}

# Build (or find cached) every image; print NAME=PATH lines.
build_images()
{
	local k image

	for k in "${kernels[@]}"; do
		echo "bench: kernel $k: building (cached if built before)" >&2
		image=$("$ROOT/vm/build-kernel.sh" "$k") || die "kernel $k did not build"
		echo "$k=$image"
	done
}

fmt_time()
{
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# Progress for the user: where we are, and the time left from the boots
# done so far (before the first one, from the planned run lengths).
progress()
{
	local round=$1 k=$2 done=$3 total=$4 elapsed=$5 per left

	if [ "$done" -gt 0 ]; then
		per=$((elapsed / done))
	else
		per=$((60 + 8 * seconds))
	fi
	left=$(((total - done) * per))
	echo "bench: round $round/$rounds, kernel $k (boot $((done + 1)) of" \
		"$total), elapsed $(fmt_time "$elapsed"), about $(fmt_time "$left") left" >&2
}

# One boot: guest.sh's lines become CSV rows round,kernel,shape,workload,
# metric,value. Its own errors go to the log.
run_one()
{
	local round=$1 k=$2 image=$3 log=$4 vmout

	vmout=$("$ROOT/vm/run-vm.sh" -C "$ROOT" -t $((300 + 20 * seconds)) "$image" \
		-- "bench/guest.sh -d $seconds fast filters100" 2>>"$log")
	local rc=$?

	echo "$vmout" | sed "s/^/# $k round $round: /" >> "$log"
	[ $rc -eq 0 ] || echo "bench: $k round $round failed (exit $rc), see $log" >&2
	# What it measured before a failure still counts.
	echo "$vmout" | awk -v r="$round" -v k="$k" '
		$1 == "result" { printf "%s,%s,%s,%s,%s,%s\n", r, k, $2, $3, $5, $4 }
		$1 == "count" && $5 > 0 {
			printf "%s,%s,%s,%s,runs_per_packet,%.4f\n", r, k, $2, $3, $4 / $5 }'
	return $rc
}

main()
{
	local opt images line round k done=0 total t0 failed=0 cold tb build_wall
	declare -A image

	while getopts r:d:o:h opt; do
		case $opt in
		r)	rounds=$OPTARG ;;
		d)	seconds=$OPTARG ;;
		o)	out=$OPTARG ;;
		*)	usage ;;
		esac
	done
	shift $((OPTIND - 1))
	kernels=("$@")
	[ ${#kernels[@]} -gt 0 ] || default_kernels
	[ "${kernels[0]}" = stock ] || die "the first kernel must be stock, the reference"
	[ "$(id -u)" = 0 ] || die "needs root (qemu, the build tree)"

	# An empty object dir means the builds below are cold: their time is
	# the cold part of the suite's VM matrix (bench/suite-cost.sh).
	[ -f "$VM_OBJ/.config" ] && cold=no || cold=yes
	tb=$SECONDS
	images=$(build_images) || exit 1
	build_wall=$((SECONDS - tb))
	while IFS='=' read -r k line; do
		image[$k]=$line
	done <<< "$images"

	mkdir -p "$out"
	local raw=$out/raw.csv log=$out/run.log
	: > "$log"
	echo "round,kernel,shape,workload,metric,value" > "$raw.tmp"
	total=$((rounds * ${#kernels[@]}))
	echo "bench: ${kernels[*]}, $rounds rounds, ${seconds} s per timed run;" \
		"TCG emulation times unless the KVM probe works, not hardware times" >&2
	t0=$SECONDS
	for round in $(seq "$rounds"); do
		for k in "${kernels[@]}"; do
			progress "$round" "$k" "$done" "$total" $((SECONDS - t0))
			run_one "$round" "$k" "${image[$k]}" "$log" >> "$raw.tmp" || failed=1
			done=$((done + 1))
		done
	done
	mv "$raw.tmp" "$raw"
	echo "bench: $total boots in $(fmt_time $((SECONDS - t0)))" >&2
	{
		echo "kernels ${kernels[*]}"
		echo "rounds $rounds"
		echo "seconds $seconds"
		echo "accel $(cat "$VM_BUILD/accel" 2>/dev/null || echo tcg)"
		echo "wall $((SECONDS - t0))"
		echo "build_wall $build_wall"
		echo "build_cold $cold"
		echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
		echo "host_cpus $(nproc)"
	} > "$out/run.info"
	"$BENCH_DIR/summarize.sh" "$out" || exit 1
	[ $failed -eq 0 ] || die "some boots failed, see $log"
}

main "$@"; exit
