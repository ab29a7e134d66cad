#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: each round boots every kernel once, in the same order, and
# runs bench/guest.sh in it; then bench/summarize.sh (docs/benchmark.md).
#
#   bench/run.sh [-r ROUNDS] [-d SECONDS] [-o DIR] [-j JOBS] [KERNEL...]
#
# KERNEL...  a variant, or a mutant of vm/mutants/ by its name alone (built
#            on its "# base:"); default stock seed fix and each mutant of
#            $BENCH_ALTERNATIVES that vm/mutants/ holds; stock comes first
# ROUNDS     rounds (default $BENCH_ROUNDS, else 3 under icount, 5 otherwise)
# SECONDS    each timed run, guest clock (default $BENCH_SECONDS or 2)
# DIR        where the results go (default $BENCH_OUT or bench/results)
# JOBS       VMs at a time (default $BENCH_JOBS, else 2 under icount, 1
#            otherwise)
#
# BENCH_CLOCK (icount, tcg or kvm), BENCH_SHAPES and BENCH_WORKLOADS:
# docs/benchmark.md.

set -o pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
. "$ROOT/vm/lib.sh"

rounds=${BENCH_ROUNDS:-}
seconds=${BENCH_SECONDS:-2}
out=${BENCH_OUT:-$BENCH_DIR/results}
jobs=${BENCH_JOBS:-}
shapes=${BENCH_SHAPES:-fast fastkey filters5 filters100}
workloads=${BENCH_WORKLOADS:-rr stream nodelay}
clock=${BENCH_CLOCK:-}
alternatives=${BENCH_ALTERNATIVES-fix-keep-mark fix-mirred-only}
kernels=()
declare -A image

# stock, seed, the fix, and the fix's other designs kept as mutants.
default_kernels()
{
	local m

	kernels=(stock seed)
	vm_variant_patches fix >/dev/null 2>&1 || return 0
	kernels+=(fix)
	for m in $alternatives; do
		[ -f "$VM_DIR/mutants/$m.patch" ] && kernels+=("$m")
	done
}

# Build (or find cached) every image into image[KERNEL]; build-kernel.sh
# builds a mutant on the base its "# base:" line names.
build_images()
{
	local k

	for k in "${kernels[@]}"; do
		echo "bench: kernel $k: building (cached if built before)" >&2
		image[$k]=$("$ROOT/vm/build-kernel.sh" "$k") ||
			die "kernel $k did not build"
	done
}

# icount unless KVM works here: vm/run-vm.sh probes KVM once per build
# folder (a 20 s boot) and keeps the answer in $VM_BUILD/accel.
choose_clock()
{
	[ -n "$clock" ] && return 0
	clock=icount
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 0
	[ -s "$VM_BUILD/accel" ] || vm_boot -t 60 "$1" -- true >/dev/null 2>&1
	[ "$(cat "$VM_BUILD/accel" 2>/dev/null)" = kvm ] && clock=kvm
	return 0
}

fmt_time()
{
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# Wall seconds of one boot on an idle core, planned from qemu's CPU time
# under icount here: boot 15 s, each timed run 11 s per guest second plus
# 4 s, each counting run (filter shapes) 5 s.
planned_boot()
{
	local n_s n_w n_f

	n_s=$(wc -w <<< "$shapes")
	n_w=$(wc -w <<< "$workloads")
	n_f=$(tr ' ' '\n' <<< "$shapes" | grep -c '^filters')
	echo $((15 + n_s * n_w * (11 * seconds + 4) + n_f * n_w * 5))
}

# Where we are, and the time left from the boots done so far (with JOBS
# VMs at a time, elapsed / done is the rate), or before the first one from
# the planned run lengths.
progress()
{
	local round=$1 k=$2 started=$3 elapsed=$((SECONDS - t0)) fin per

	fin=$((started - $(jobs -pr | wc -l)))
	per=$(($(planned_boot) / jobs))
	[ "$fin" -gt 0 ] && per=$((elapsed / fin))
	echo "bench: round $round/$rounds, kernel $k (boot $((started + 1)) of" \
		"$total), elapsed $(fmt_time "$elapsed"), about" \
		"$(fmt_time $(((total - fin) * per))) left" >&2
}

# One boot: guest.sh's lines become CSV rows round,kernel,shape,workload,
# metric,value. Its own errors go to the log; a failed boot is named in
# $log.failed.
run_one()
{
	local round=$1 k=$2 vmout w wargs=() rc

	for w in $workloads; do
		wargs+=(-w "$w")
	done
	# shellcheck disable=SC2086
	vmout=$(VM_ACCEL=$clock vm_boot -t $((10 * $(planned_boot) + 600)) \
		-l "$VM_BUILD/logs/bench-$k-r$round.log" "${image[$k]}" \
		-- "bench/guest.sh -d $seconds ${wargs[*]} $shapes" 2>>"$log.$round.$k")
	rc=$?
	echo "$vmout" | sed "s/^/# $k round $round: /" >> "$log.$round.$k"
	if [ $rc -ne 0 ]; then
		echo "bench: $k round $round failed (exit $rc), see $log" >&2
		echo "$k round $round" >> "$log.failed"
	fi
	# What it measured before a failure still counts.
	echo "$vmout" | awk -v r="$round" -v k="$k" '
	function row(shape, w, m, v) {
		printf "%s,%s,%s,%s,%s,%s\n", r, k, shape, w, m, v
	}
	$1 == "result" {
		row($2, $3, $5, $4)
		if ($7 > 0 && $3 == "rr")
			row($2, $3, "ns_per_transaction", sprintf("%.1f", $6 * 1e9 / $7))
		if ($8 > 0)
			row($2, $3, "ns_per_packet", sprintf("%.1f", $6 * 1e9 / $8))
		# Where a run went long: outside both processes, device interrupts.
		if ($9 ~ /^-?[0-9]+$/)
			row($2, $3, "ns_other", $9)
		if ($10 ~ /^[0-9]+$/)
			row($2, $3, "irqs_virtio", $10)
		if ($11 ~ /^[0-9]+$/)
			row($2, $3, "irqs_serial", $11)
	}
	$1 == "count" {
		row($2, $3, "classifier_runs", $4)
		row($2, $3, "packets_counted", $5)
		if ($5 > 0)
			row($2, $3, "runs_per_packet", sprintf("%.4f", $4 / $5))
	}'
}

main()
{
	local opt round k started=0 total t0 cold tb build_wall line raw log failed

	while getopts r:d:o:j:h opt; do
		case $opt in
		r)	rounds=$OPTARG ;;
		d)	seconds=$OPTARG ;;
		o)	out=$OPTARG ;;
		j)	jobs=$OPTARG ;;
		*)	usage ;;
		esac
	done
	shift $((OPTIND - 1))
	kernels=("$@")
	[ ${#kernels[@]} -gt 0 ] || default_kernels
	[ "${kernels[0]}" = stock ] || die "the first kernel must be stock, the reference"
	[ "$(id -u)" = 0 ] || die "needs root (qemu, the build tree)"
	case $clock in
	""|icount|tcg|kvm) ;;
	*)	die "BENCH_CLOCK=$clock: icount, tcg or kvm" ;;
	esac

	# An empty object dir means the builds below are cold: their time is
	# the cold part of the suite's VM matrix (bench/suite-cost.sh).
	[ -f "$VM_OBJ/.config" ] && cold=no || cold=yes
	tb=$SECONDS
	build_images
	build_wall=$((SECONDS - tb))
	choose_clock "${image[stock]}"
	[ -n "$rounds" ] || { [ "$clock" = icount ] && rounds=3 || rounds=5; }
	[ -n "$jobs" ] || { [ "$clock" = icount ] && jobs=2 || jobs=1; }

	mkdir -p "$out"
	raw=$out/raw.csv log=$out/run.log
	: > "$log"
	rm -f "$log.failed"
	total=$((rounds * ${#kernels[@]}))
	case $clock in
	icount)	line="instruction counts (qemu icount, 1 vCPU): deterministic" ;;
	tcg)	line="TCG emulation times, not hardware times" ;;
	kvm)	line="KVM: hardware times" ;;
	esac
	echo "bench: ${kernels[*]}, $rounds rounds, ${seconds} s per timed run" \
		"(guest clock), $jobs VM(s) at a time; $line" >&2
	t0=$SECONDS
	for round in $(seq "$rounds"); do
		for k in "${kernels[@]}"; do
			vm_throttle "$jobs"
			progress "$round" "$k" $((started++))
			run_one "$round" "$k" > "$raw.$round.$k" &
		done
	done
	wait
	# The boots' rows and logs, in boot order.
	echo "round,kernel,shape,workload,metric,value" > "$raw.tmp"
	for round in $(seq "$rounds"); do
		for k in "${kernels[@]}"; do
			cat "$raw.$round.$k" >> "$raw.tmp"
			cat "$log.$round.$k" >> "$log" 2>/dev/null
			rm -f "$raw.$round.$k" "$log.$round.$k"
		done
	done
	mv "$raw.tmp" "$raw"
	echo "bench: $total boots in $(fmt_time $((SECONDS - t0)))" >&2
	{
		echo "kernels ${kernels[*]}"
		echo "shapes $shapes"
		echo "workloads $workloads"
		echo "rounds $rounds"
		echo "seconds $seconds"
		echo "clock $clock"
		echo "jobs $jobs"
		echo "wall $((SECONDS - t0))"
		echo "build_wall $build_wall"
		echo "build_cold $cold"
		echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
		echo "host_cpus $(nproc)"
		echo "clocksource $(grep -ho 'info clocksource .*' "$log" | sort | uniq -c |
			awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $4, $1 }')"
	} > "$out/run.info"
	failed=$(paste -sd, "$log.failed" 2>/dev/null)
	rm -f "$log.failed"
	"$BENCH_DIR/summarize.sh" "$out" || exit 1
	[ -z "$failed" ] || die "some boots failed ($failed), see $log"
}

main "$@"; exit
