#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One benchmark pass on the running kernel: bench/run.sh runs it in each
# VM (it also runs on a host, as root). The shapes and workloads are
# docs/benchmark.md's.
#
#   bench/guest.sh [-d SECONDS] [-w WORKLOAD]... SHAPE...
#
# SHAPE      fast, fastkey, or filtersN: N >= 2 egress filters, the last
#            one redirecting to ifb (default: fast filters100)
# WORKLOAD   rr, stream, nodelay or iperf3 (default: rr and stream)
# SECONDS    length of each timed run (default 10)
#
# Prints one line per measurement:
#   result SHAPE WORKLOAD VALUE UNIT SECONDS OPS PACKETS OTHER VIRTIO SERIAL
#          VALUE in tps or Mbit/s over SECONDS of the guest's clock; OPS the
#          transactions or bytes, PACKETS the packets va sent in that time;
#          OTHER the guest ns (instructions under icount) of the run that
#          neither benchmark process spent; VIRTIO and SERIAL the
#          interrupts of the 9p root and of the serial ports while it ran
#          ("-" for iperf3)
#   count SHAPE WORKLOAD RUNS PACKETS       (classifier runs, packets va sent)
#   info clocksource NAME
# Everything lives in two namespaces of its own; they go when it ends.

set -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# In the VM too: the project is at the same path there (the host's / is
# the guest's 9p root), as the tools below are.
. "$ROOT/scripts/lib.sh"
RR=$ROOT/build/bench/rr
RUNCNT=$ROOT/build/bench/runcnt
OBJ=$ROOT/build/bench/count.bpf.o
BPFTOOL=${BPFTOOL:-$ROOT/build/bpftool/bpftool}
SND=bench_snd_$$
RCV=bench_rcv_$$
SERVER_OUT=/tmp/bench-server.$$
ADDR_SND=198.51.100.1
ADDR_RCV=198.51.100.2
RR_PORT=5001
STREAM_PORT=5201
# Transactions and bytes of the counting runs: short, stats on.
COUNT_RR=2000
COUNT_STREAM=65536
COUNT_IPERF=1M
seconds=10
workloads=()

cleanup()
{
	local pid

	for pid in $(jobs -p); do
		kill "$pid" 2>/dev/null
	done
	ip netns del "$SND" 2>/dev/null
	ip netns del "$RCV" 2>/dev/null
	rm -f "$SERVER_OUT"
}

in_snd()
{
	ip netns exec "$SND" "$@"
}

in_rcv()
{
	ip netns exec "$RCV" "$@"
}

mac_of()
{
	ip -n "$1" -br link show "$2" | awk '{ print $3 }'
}

# Two namespaces, veth va/vb, IPv4 only and static neighbours: nothing but
# the benchmark's own packets crosses the link.
make_link()
{
	local ns

	for ns in "$SND" "$RCV"; do
		ip netns add "$ns" || return 1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
		# Each run starts from the same TCP state: no cwnd or
		# ssthresh carried over from the counting run before it.
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_no_metrics_save=1 ||
			return 1
		ip -n "$ns" link set lo up || return 1
	done
	ip -n "$SND" link add va type veth peer name vb netns "$RCV" &&
	ip -n "$SND" addr add $ADDR_SND/24 dev va &&
	ip -n "$RCV" addr add $ADDR_RCV/24 dev vb &&
	ip -n "$SND" link set va up &&
	ip -n "$RCV" link set vb up &&
	ip -n "$SND" neigh replace $ADDR_RCV lladdr "$(mac_of "$RCV" vb)" \
		dev va nud permanent &&
	ip -n "$RCV" neigh replace $ADDR_SND lladdr "$(mac_of "$SND" va)" \
		dev vb nud permanent
}

# The seed's shape with N egress filters: prio 1 the pass-through counter,
# only the last one matches the benchmark's flow and redirects it to ifb.
# tc -batch adds them in one go.
make_filters()
{
	local n=$1 prio

	ip -n "$SND" link add bifb type ifb &&
	ip -n "$SND" link set bifb up &&
	tc -n "$SND" qdisc add dev va clsact || return 1
	{
		echo "filter add dev va egress prio 1 bpf da obj $OBJ sec tc"
		for prio in $(seq 2 $((n - 1))); do
			echo "filter add dev va egress prio $prio protocol ip u32" \
				"match ip dport $((20000 + prio)) 0xffff flowid 1:1"
		done
		echo "filter add dev va egress prio $n protocol ip u32" \
			"match ip dst $ADDR_RCV/32" \
			"action mirred egress redirect dev bifb"
	} | tc -n "$SND" -batch -
}

# Wait until PORT listens in the receiver namespace (at most 10 s):
# /proc/net/tcp works without sock_diag, which the VM kernel lacks.
wait_listen()
{
	local port hex

	port=$1
	hex=$(printf ':%04X' "$port")
	for _ in $(seq 200); do
		in_rcv awk -v p="$hex" '$2 ~ p "$" && $4 == "0A" { f = 1 }
			END { exit !f }' /proc/net/tcp && return 0
		sleep 0.05
	done
	die "nothing listens on port $port after 10 s"
}

# The counter's run_cnt, read by bench/runcnt (bpftool hides it while
# run_time_ns is 0, which a jiffies sched_clock gives under TCG). No
# counter loaded, or no answer, is an error, not a count of 0.
run_cnt()
{
	local out id

	out=$("$BPFTOOL" -j prog show name bench_count 2>&1) ||
		die "bpftool prog show name bench_count: $out"
	id=$(jq -e 'if type == "array" then .[0] else . end | .id' <<< "$out" 2>/dev/null) ||
		die "no bench_count program in bpftool's answer: $out"
	"$RUNCNT" "$id" || die "cannot read run_cnt of program $id"
}

tx_packets()
{
	in_snd cat /sys/class/net/va/statistics/tx_packets
}

# An egress hook on another device: clsact on the sender namespace's lo
# turns egress_needed_key on; va itself has no hook.
make_key_elsewhere()
{
	tc -n "$SND" qdisc add dev lo clsact &&
	tc -n "$SND" filter add dev lo egress prio 1 protocol ip u32 \
		match ip dst 127.0.0.1/32 flowid 1:1
}

# served SERVER PORT ARGS...: one bench/rr.c client run (ARGS) against a
# fresh bench/rr.c server (-s $RR_PORT, the rr server, or -S $STREAM_PORT,
# the stream sink); prints the client's line.
served()
{
	local mode=$1 port=$2 server out

	shift 2
	in_rcv "$RR" "$mode" "$port" > "$SERVER_OUT" &
	server=$!
	wait_listen "$port"
	out=$(in_snd "$RR" "$@")
	local rc=$?

	wait "$server"
	[ $rc -eq 0 ] || die "rr client '$*' failed"
	# The server's CPU time, for the share of the run outside both.
	echo "$out server_cpu_ns $(awk '$1 == "cpu_ns" { print $2 }' "$SERVER_OUT")"
}

# iperf3 ARGS...: one iperf3 client run; prints the receiver's Mbit/s.
iperf_once()
{
	local server out

	in_rcv iperf3 -s -1 -B $ADDR_RCV -p $STREAM_PORT >/dev/null 2>&1 &
	server=$!
	wait_listen $STREAM_PORT
	out=$(in_snd iperf3 -c $ADDR_RCV -p $STREAM_PORT -f m "$@" 2>&1)
	local rc=$?

	wait "$server"
	[ $rc -eq 0 ] || die "iperf3 failed: $(echo "$out" | tail -n 1)"
	echo "$out" | awk '/receiver/ { print $(NF - 2) }'
}

# No run counted: what the kernel says of the statistics, the counter and
# va's filters, for the log (an explanation, not a verdict).
count_says_why()
{
	{
		echo "no classifier run counted:"
		sysctl kernel.bpf_stats_enabled
		"$BPFTOOL" prog show name bench_count
		in_snd tc -s filter show dev va egress | head -n 12
	} 2>&1 | sed 's/^/bench: /' >&2
}

# A short run of WORKLOAD (2000 transactions, or 64 KiB of stream).
short_run()
{
	case $1 in
	rr)	served -s $RR_PORT -n $ADDR_RCV $RR_PORT $COUNT_RR ;;
	stream)	served -S $STREAM_PORT -b $ADDR_RCV $STREAM_PORT $COUNT_STREAM ;;
	nodelay) served -S $STREAM_PORT -B $ADDR_RCV $STREAM_PORT $COUNT_STREAM ;;
	iperf3)	iperf_once -l 32 -n $COUNT_IPERF ;;
	esac >/dev/null
}

# Classifier runs per packet va sent, over a short run with BPF run
# statistics switched on (off again for the timed runs: the stats cost).
# It also warms the timed run up, as the fast paths' untimed run does.
count_runs()
{
	local shape=$1 workload=$2 runs0 tx0 runs

	sysctl -qw kernel.bpf_stats_enabled=1 || die "no kernel.bpf_stats_enabled"
	# run_cnt's die ends only its subshell: stop here too.
	runs0=$(run_cnt) || exit 1
	tx0=$(tx_packets)
	short_run "$workload"
	runs=$(run_cnt) || exit 1
	runs=$((runs - runs0))
	echo "count $shape $workload $runs $(($(tx_packets) - tx0))"
	[ "$runs" -gt 0 ] || count_says_why
	sysctl -qw kernel.bpf_stats_enabled=0
}

# bench/rr.c's client line (with the server's CPU time appended) as
# VALUE UNIT SECONDS OPS OTHER VIRTIO SERIAL; OTHER is the run's guest ns
# less both processes' CPU time.
rr_fields()
{
	awk -v unit="$1" '{ printf "%s %s %s %s %.0f %s %s\n", $6, unit, $4, $2,
		$4 * 1e9 - $8 - $14, $10, $12 }'
}

# One timed run: VALUE UNIT SECONDS OPS OTHER VIRTIO SERIAL, with the
# packets va sent put before OTHER.
measure()
{
	local shape=$1 workload=$2 line tx0 v u sec ops other virtio serial

	tx0=$(tx_packets)
	case $workload in
	rr)	line=$(served -s $RR_PORT -c $ADDR_RCV $RR_PORT "$seconds" |
			rr_fields tps) || exit 1 ;;
	stream)	line=$(served -S $STREAM_PORT -t $ADDR_RCV $STREAM_PORT "$seconds" |
			rr_fields Mbit/s) || exit 1 ;;
	nodelay) line=$(served -S $STREAM_PORT -T $ADDR_RCV $STREAM_PORT "$seconds" |
			rr_fields Mbit/s) || exit 1 ;;
	iperf3)	line=$(iperf_once -l 32 -t "$seconds") || exit 1
		line="$line Mbit/s $seconds 0 - - -" ;;
	*)	die "unknown workload '$workload'" ;;
	esac
	read -r v u sec ops other virtio serial <<< "$line"
	echo "result $shape $workload $v $u $sec $ops $(($(tx_packets) - tx0))" \
		"$other $virtio $serial"
}

run_shape()
{
	local shape=$1 w

	make_link || die "$shape: could not make the link"
	case $shape in
	fast)	;;
	fastkey)
		make_key_elsewhere || die "$shape: could not add clsact to lo" ;;
	filters[0-9]*)
		[ "${shape#filters}" -ge 2 ] 2>/dev/null ||
			die "unknown shape '$shape' (filtersN needs N >= 2)"
		make_filters "${shape#filters}" ||
			die "$shape: could not add the filters" ;;
	*)	die "unknown shape '$shape'" ;;
	esac
	# Before each timed run, a short one of its workload: the pages of
	# code it uses (bench/rr.c's, libc's, the kernel's) are read from the
	# 9p root now. The first run of a workload in a boot took those faults
	# inside its timed run otherwise: requests to the host, 3 virtio
	# interrupts, and idle while it answered.
	for w in "${workloads[@]}"; do
		case $shape in
		filters*) count_runs "$shape" "$w" ;;
		*)	short_run "$w" ;;
		esac
		measure "$shape" "$w"
	done
	cleanup
}

main()
{
	local opt shape

	while getopts d:w: opt; do
		case $opt in
		d)	seconds=$OPTARG ;;
		w)	workloads+=("$OPTARG") ;;
		*)	usage ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -gt 0 ] || set -- fast filters100
	[ ${#workloads[@]} -gt 0 ] || workloads=(rr stream)
	[ "$(id -u)" = 0 ] || die "needs root"
	[ -x "$RR" ] && [ -x "$RUNCNT" ] && [ -f "$OBJ" ] ||
		die "build it first: make bench-tools"
	case " ${workloads[*]} " in
	*" iperf3 "*)
		command -v iperf3 >/dev/null || die "no iperf3 (apt-get install iperf3)" ;;
	esac
	echo "info clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
	trap cleanup EXIT
	for shape in "$@"; do
		run_shape "$shape"
	done
}

main "$@"; exit
