#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn bench/run.sh's raw.csv into ratios against stock, the markdown
# tables and the plot (docs/benchmark.md, "Reading the results").
#
#   bench/summarize.sh DIR
#
# DIR holds raw.csv and run.info; cells.csv, ratios.csv, runs.csv,
# results.md, plot.dat, plot-fast.dat and ratios.png are written there.
# What it refuses, exiting 1 and naming why, is in docs/checkers.md.

set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: $0 DIR}
raw=$dir/raw.csv
HEADER=round,kernel,shape,workload,metric,value
. "$BENCH_DIR/../scripts/lib.sh"

info()
{
	sed -n "s/^$1 //p" "$dir/run.info"
}

[ -f "$dir/run.info" ] || die "no $dir/run.info: what was measured, and how, is unknown"
for key in kernels rounds seconds clock wall date host_cpus; do
	[ -n "$(info $key)" ] || die "$dir/run.info has no '$key' line"
done
for key in rounds seconds wall host_cpus; do
	[[ $(info $key) =~ ^[0-9]+$ ]] || die "$dir/run.info: $key '$(info $key)' is no whole number"
done
[ -s "$raw" ] || die "no $raw"
[ "$(head -n 1 "$raw")" = "$HEADER" ] ||
	die "$raw: first line '$(head -n 1 "$raw")', not the header $HEADER"
[ "$(wc -l < "$raw")" -gt 1 ] || die "$raw holds its header and no figures"
for k in $(info kernels); do
	awk -F, -v k="$k" 'NR > 1 && $2 == k { found = 1; exit } END { exit !found }' "$raw" ||
		die "$raw: no figures for kernel $k (run.info: kernels $(info kernels))"
done

clock=$(info clock)
# What the guest's clock counts, for the tables' words.
work=ns
[ "$clock" != icount ] || work=instructions

# Per cell (shape, workload): per kernel cells.csv and runs.csv, per kernel
# but stock ratios.csv and the plot's rows.
awk -F, -v out="$dir" -v kernels="$(info kernels)" '
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
# Quantile p of the sorted a[1..n], interpolated.
function q(a, n, p,    x, i) {
	x = 1 + (n - 1) * p
	i = int(x)
	return i >= n ? a[n] : a[i] + (x - i) * (a[i + 1] - a[i])
}
# Fill arr with the values of key (kernel, shape, workload, metric), sorted.
function load(key, arr,    n, parts, i) {
	delete arr
	n = split(vals[key], parts, " ")
	for (i = 1; i <= n; i++)
		arr[i] = parts[i] + 0
	sort(arr, n)
	return n
}
# Quantile p of the values of key in format f; "-" when there are none.
function stat(key, p, f,    a, n) {
	n = load(key, a)
	return n ? sprintf(f, q(a, n, p)) : "-"
}
# (max - min) / median of the values of key, in per cent; "-" for none.
function spread(key,    a, n, md) {
	n = load(key, a)
	md = n ? q(a, n, 0.5) : 0
	return md > 0 ? sprintf("%.3f", 100 * (a[n] - a[1]) / md) : "-"
}
# "min-max" of the payload bytes per packet va sent in a stream cell, over
# the rounds ("-" for rr): Mbit/s times the work per packet.
function bytes_per_packet(k, shape, w,    r, b, n, lo, hi) {
	if (unit[w] != "Mbit/s")
		return "-"
	for (r = 1; r <= nrounds; r++) {
		if (!((r, k, shape, w) in val) || !((r, k, shape, w) in perpkt))
			continue
		b = val[r, k, shape, w] * 1e6 / 8 * perpkt[r, k, shape, w] / 1e9
		if (!n++ || b < lo) lo = b
		if (n == 1 || b > hi) hi = b
	}
	return n ? sprintf("%.1f-%.1f", lo, hi) : "-"
}
NR == 1 { next }
{
	round = $1; k = $2; shape = $3; w = $4; m = $5; v = $6
	if (!((shape, w) in cell)) { cell[shape, w] = 1; cells[++ncells] = shape SUBSEP w }
	if (!(w in wseen)) { wseen[w] = 1; wls[++nw] = w }
	vals[k, shape, w, m] = vals[k, shape, w, m] " " v
	if (m == "tps" || m == "Mbit/s") {
		unit[w] = m
		val[round, k, shape, w] = v
	}
	if (m == "ns_per_packet")
		perpkt[round, k, shape, w] = v
	if (round > nrounds) nrounds = round
}
END {
	nk = split(kernels, ks, " ")
	ratios = out "/ratios.csv"; runs = out "/runs.csv"; cellf = out "/cells.csv"
	dat = out "/plot.dat"; fdat = out "/plot-fast.dat"
	print "kernel,shape,workload,unit,rounds,stock_median,kernel_median,ratio_median,ratio_min,ratio_q1,ratio_q3,ratio_max" > ratios
	print "kernel,shape,workload,rounds,runs_per_packet_median,min,max" > runs
	print "kernel,shape,workload,unit,rounds,median,min,max,spread_pct,per_transaction,per_packet,other_median,other_min,other_max,virtio_irqs_max,serial_irqs_max,per_packet_spread_pct,bytes_per_packet" > cellf
	head = "# label"
	for (j = 2; j <= nk; j++)
		head = head sprintf(" %s_med %s_min %s_max", ks[j], ks[j], ks[j])
	print head > dat
	print head > fdat
	for (j = 1; j <= nk; j++)
		for (c = 1; c <= ncells; c++) {
			split(cells[c], sw, SUBSEP); shape = sw[1]; w = sw[2]; m = unit[w]
			key = ks[j] SUBSEP cells[c] SUBSEP
			if (n = load(key "runs_per_packet", a))
				printf "%s,%s,%s,%d,%.3f,%.3f,%.3f\n", ks[j], shape, w, n,
					q(a, n, 0.5), a[1], a[n] > runs
			if (!(n = load(key m, a)))
				continue
			md = q(a, n, 0.5)
			printf "%s,%s,%s,%s,%d,%.1f,%.1f,%.1f,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", ks[j], shape, w, m, n,
				md, a[1], a[n], (md > 0 ? 100 * (a[n] - a[1]) / md : 0),
				stat(key "ns_per_transaction", 0.5, "%.1f"), stat(key "ns_per_packet", 0.5, "%.1f"),
				stat(key "ns_other", 0.5, "%.0f"), stat(key "ns_other", 0, "%.0f"),
				stat(key "ns_other", 1, "%.0f"), stat(key "irqs_virtio", 1, "%.0f"),
				stat(key "irqs_serial", 1, "%.0f"), spread(key "ns_per_packet"),
				bytes_per_packet(ks[j], shape, w) > cellf
		}
	for (c = 1; c <= ncells; c++) {
		split(cells[c], sw, SUBSEP); shape = sw[1]; w = sw[2]; m = unit[w]
		pl[c] = "\"" shape "\""
		# The fast paths also in per cent of stock: the scale of a fast-path cost.
		if (shape ~ /^fast/)
			pf[c] = pl[c]
		ns = load(ks[1] SUBSEP cells[c] SUBSEP m, sa)
		for (j = 2; j <= nk; j++) {
			k = ks[j]; n = 0; delete r
			for (round = 1; round <= nrounds; round++)
				if ((round, k, shape, w) in val && (round, ks[1], shape, w) in val &&
				    val[round, ks[1], shape, w] > 0)
					r[++n] = val[round, k, shape, w] / val[round, ks[1], shape, w]
			sort(r, n)
			if (n) {
				nv = load(k SUBSEP cells[c] SUBSEP m, kv)
				printf "%s,%s,%s,%s,%d,%.1f,%.1f,%.5f,%.5f,%.5f,%.5f,%.5f\n", k, shape, w, m, n,
					q(sa, ns, 0.5), q(kv, nv, 0.5), q(r, n, 0.5), r[1], q(r, n, 0.25),
					q(r, n, 0.75), r[n] > ratios
			}
			pl[c] = pl[c] (n ? sprintf(" %.5f %.5f %.5f", q(r, n, 0.5), r[1], r[n]) : " - - -")
			if (c in pf)
				pf[c] = pf[c] (n ? sprintf(" %.4f %.4f %.4f", 100 * (q(r, n, 0.5) - 1),
					100 * (r[1] - 1), 100 * (r[n] - 1)) : " - - -")
		}
	}
	# The plot files: a block per workload (the plot groups the shapes
	# under it), headed "# workload W", two blank lines between blocks.
	for (i = 1; i <= nw; i++) {
		nd = nf = 0
		for (c = 1; c <= ncells; c++) {
			if (substr(cells[c], index(cells[c], SUBSEP) + 1) != wls[i])
				continue
			if (!nd++)
				printf "%s# workload %s\n", (i > 1 ? "\n\n" : ""), wls[i] > dat
			print pl[c] > dat
			if (!(c in pf))
				continue
			if (!nf++)
				printf "%s# workload %s\n", (fblocks++ ? "\n\n" : ""), wls[i] > fdat
			print pf[c] > fdat
		}
	}
}' "$raw"
[ "$(wc -l < "$dir/ratios.csv")" -gt 1 ] ||
	die "no ratio against $(info kernels | cut -d' ' -f1) in $raw: no round has both kernels' figures"

# The claims of 2021 beside what was measured: the seed's netperf figures
# (one CPU, 100 filters) and the author's production figure (about 5
# prios, about 1 %), as kernel / stock - 1 in per cent.
claims()
{
	awk -F, -v work="$work" '
	FNR == 1 { next }
	FILENAME ~ /ratios.csv$/ { r[$1, $2, $3] = sprintf("%+.2f %%", 100 * ($8 - 1)) }
	FILENAME ~ /cells.csv$/ { pp[$1, $2, $3] = $11 }
	function saved(k, s, w) {
		if (!((k, s, w) in pp) || !(("stock", s, w) in pp) || pp[k, s, w] == "-")
			return "-"
		return sprintf("%.0f", pp["stock", s, w] - pp[k, s, w])
	}
	function ratio(k, s, w) {
		return (k, s, w) in r ? r[k, s, w] : "-"
	}
	function line(claim, figure, s, w) {
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", claim, figure, s, w,
			ratio("seed", s, w), ratio("fix", s, w), saved("seed", s, w), saved("fix", s, w)
	}
	END {
		line("seed: TCP_RR, 100 filters (netperf, one CPU, hardware)", "+16.6 %", "filters100", "rr")
		line("seed: TCP_STREAM -m 32, 100 filters", "+33.9 %", "filters100", "stream")
		line("author: production, about 5 prios", "about +1 %", "filters5", "rr")
		line("author: production, about 5 prios", "about +1 %", "filters5", "stream")
		line("review: fast-path cost (no tc)", "none wanted", "fast", "rr")
		line("review: fast-path cost (no tc)", "none wanted", "fast", "stream")
		line("fast path, egress hook on another device", "none wanted", "fastkey", "rr")
		line("fast path, egress hook on another device", "none wanted", "fastkey", "stream")
	}' "$dir/ratios.csv" "$dir/cells.csv"
}

# The markdown tables: what was measured, how, and the figures.
{
	echo "# Benchmark results"
	echo
	echo "Measured $(info date) by \`make bench\`: kernels $(info kernels)," \
		"$(info rounds) rounds (each round boots every kernel once, in that" \
		"order), $(info seconds) s per timed run on the guest's clock," \
		"clock **$clock**, $(info jobs) VM(s) at a time on a" \
		"$(info host_cpus)-core host shared with other work; the boots took" \
		"$(($(info wall) / 60)) min $(($(info wall) % 60)) s of wall time." \
		"Guest clocksource: $(info clocksource)."
	echo
	case $clock in
	icount)
		echo "Under icount (qemu TCG, one vCPU, \`-icount shift=0,align=off,sleep=off\`)" \
			"the guest's clock advances 1 ns per instruction executed and" \
			"jumps over idle time: a second of the guest is 10^9 instructions" \
			"(and skipped idle), whatever the host does. Transactions per" \
			"second and Mbit/s are per 10^9 instructions; the columns" \
			"\"instructions per transaction\" and \"per packet\" (va's packets" \
			"in the timed run) are the same figures turned round. They" \
			"are not hardware times: the emulated CPU has no caches, no" \
			"branch predictor, and every instruction costs the same." ;;
	tcg)
		echo "Under TCG the guest's CPU is emulated and its clock is the host's:" \
			"these times are emulation times, not hardware times, and carry" \
			"the host's load. Only the ratios between kernels booted in the same" \
			"round, and the classifier runs per packet, mean something." ;;
	kvm)
		echo "Under KVM the figures are hardware times, with the host's noise." ;;
	esac
	echo
	echo "Per kernel: the median over the rounds and the spread, (max - min) / median."
	echo
	echo "| kernel | shape | workload | median | min-max | spread | $work per transaction | $work per packet | rounds |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 {
		printf "| %s | %s | %s | %s %s | %s-%s | %.3f %% | %s | %s | %d |\n",
			$1, $2, $3, $6, $4, $7, $8, $9, $10, $11, $5 }' "$dir/cells.csv"
	if awk -F, 'NR > 1 && $12 != "-" { found = 1 } END { exit !found }' "$dir/cells.csv"; then
		echo
		echo "Where a run's $work went besides the two benchmark processes"
		echo "(bench/rr.c's client and server or sink, each with the softirq work"
		echo "done in its context): \"other\" is the run's length less both"
		echo "processes' CPU time, i.e. other tasks (kernel threads, workqueues)"
		echo "and idle, per timed run, median and min-max over the rounds; the"
		echo "interrupts are those of the 9p root (virtio: I/O whose completion"
		echo "the host times) and of the serial ports taken while the client's"
		echo "clock ran, the most in one run. A spread that \"other\" does not"
		echo "account for is the benchmark processes' own work varying: for the"
		echo "streams, where the packet boundaries fall, which the payload bytes"
		echo "per packet va sent show (min-max over the rounds), beside the"
		echo "spread of the $work per packet."
		echo
		echo "| kernel | shape | workload | spread | other: median | other: min-max | 9p interrupts (max) | serial interrupts (max) | $work per packet: spread | bytes per packet |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		awk -F, 'NR > 1 && $12 != "-" {
			printf "| %s | %s | %s | %.3f %% | %s | %s-%s | %s | %s | %s %% | %s |\n",
				$1, $2, $3, $9, $12, $13, $14, $15, $16, $17, $18 }' "$dir/cells.csv"
	fi
	echo
	echo "Ratio = kernel / stock in the same round (above 1: faster than stock);"
	echo "median over the rounds, spread min-max (quartiles in ratios.csv)."
	echo
	echo "| kernel | shape | workload | stock (median) | kernel (median) | ratio median | ratio min-max | rounds |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 {
		printf "| %s | %s | %s | %s %s | %s %s | %.4f | %.4f-%.4f | %d |\n",
			$1, $2, $3, $6, $4, $7, $4, $8, $9, $12, $5 }' "$dir/ratios.csv"
	echo
	echo "Classifier runs per packet va sent, filter shapes (BPF run_cnt of the"
	echo "prio-1 pass-through classifier / va's tx_packets, over a counting run"
	echo "before each timed one; the fast paths have no classifier on va):"
	echo
	echo "| kernel | shape | workload | runs per packet (median) | min-max | rounds |"
	echo "|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s-%s | %d |\n", $1, $2, $3, $5, $6, $7, $4 }' \
		"$dir/runs.csv"
	echo
	echo "The claims of 2021 beside these figures (kernel / stock - 1, medians;"
	echo "\"saved\": stock's $work per packet minus the kernel's):"
	echo
	echo "| claim | claimed | shape | workload | seed | fix | seed: $work saved per packet | fix: saved per packet |"
	echo "|---|---|---|---|---|---|---|---|"
	claims
} > "$dir/results.md"

cat "$dir/results.md"
# An old plot must not pass for this run's.
rm -f "$dir/ratios.png"
command -v gnuplot >/dev/null ||
	die "no gnuplot: ratios.png not drawn (scripts/deps.sh installs gnuplot-nox)"
gnuplot -e "datafile='$dir/plot.dat'; fastfile='$dir/plot-fast.dat'; outfile='$dir/ratios.png';" \
	-e "subtitle='clock $clock, $(info rounds) rounds, median and min-max'" \
	"$BENCH_DIR/plot.gp"
