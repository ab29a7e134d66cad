#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn bench/run.sh's raw.csv into ratios against stock, a markdown table
# and a plot.
#
#   bench/summarize.sh DIR
#
# DIR holds raw.csv and run.info; writes ratios.csv, runs.csv, results.md,
# plot.dat and ratios.png there. A ratio is kernel / stock within one round
# (the two booted back to back); per kernel, shape and workload the table
# gives the median over the rounds and the spread (min-max, and the
# quartiles in the CSV). Above 1 means the kernel is faster than stock.
#
# Refuses (exit 1, naming why, results.md not written) what it cannot
# summarise: no run.info or one without a field the report states
# (kernels, rounds, seconds, accel, wall, date, host_cpus); a raw.csv that
# is missing, has another header, or holds no figures; a kernel of
# run.info with no figures; no ratio at all. No gnuplot is an error too,
# after results.md: the plot would be an old one.

set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: $0 DIR}
raw=$dir/raw.csv
HEADER=round,kernel,shape,workload,metric,value

die()
{
	echo "bench: $*" >&2
	exit 1
}

info()
{
	sed -n "s/^$1 //p" "$dir/run.info"
}

[ -f "$dir/run.info" ] || die "no $dir/run.info: what was measured, and how, is unknown"
for key in kernels rounds seconds accel wall date host_cpus; do
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

# Quantiles of each group: the awk below sorts and interpolates.
awk -F, -v out="$dir" -v kernels="$(info kernels)" '
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
function q(a, n, p,    x, i) {
	x = 1 + (n - 1) * p
	i = int(x)
	return i >= n ? a[n] : a[i] + (x - i) * (a[i + 1] - a[i])
}
# Fill arr with the values of key (SUBSEP-joined list in vals), sorted.
function load(key, arr,    n, parts, i) {
	n = split(vals[key], parts, " ")
	for (i = 1; i <= n; i++)
		arr[i] = parts[i] + 0
	sort(arr, n)
	return n
}
NR == 1 { next }
{
	round = $1; k = $2; shape = $3; w = $4; m = $5; v = $6
	if (!(k in seen)) { seen[k] = 1; order = order " " k }
	if (!((shape, w) in cell)) { cell[shape, w] = 1; cells[++ncells] = shape SUBSEP w }
	val[round, k, shape, w, m] = v
	metric[shape, w, m] = 1
	if (m == "runs_per_packet")
		vals[k, shape, w, "rpp"] = vals[k, shape, w, "rpp"] " " v
	else {
		unit[w] = m
		vals[k, shape, w, "abs"] = vals[k, shape, w, "abs"] " " v
	}
	if (round > nrounds) nrounds = round
}
END {
	nk = split(kernels != "" ? kernels : order, ks, " ")
	ratios = out "/ratios.csv"; runs = out "/runs.csv"; dat = out "/plot.dat"
	print "kernel,shape,workload,unit,rounds,stock_median,kernel_median,ratio_median,ratio_min,ratio_q1,ratio_q3,ratio_max" > ratios
	print "kernel,shape,workload,rounds,runs_per_packet_median,min,max" > runs
	printf "# label" > dat
	for (j = 2; j <= nk; j++) printf " %s_med %s_min %s_max", ks[j], ks[j], ks[j] > dat
	printf "\n" > dat
	for (c = 1; c <= ncells; c++) {
		split(cells[c], sw, SUBSEP); shape = sw[1]; w = sw[2]; m = unit[w]
		printf "\"%s\\n%s\"", w, shape > dat
		ns = load(ks[1] SUBSEP shape SUBSEP w SUBSEP "abs", sa)
		for (j = 2; j <= nk; j++) {
			k = ks[j]; n = 0; delete r
			for (round = 1; round <= nrounds; round++)
				if ((round, k, shape, w, m) in val && (round, ks[1], shape, w, m) in val &&
				    val[round, ks[1], shape, w, m] > 0)
					r[++n] = val[round, k, shape, w, m] / val[round, ks[1], shape, w, m]
			if (n == 0) { printf " - - -" > dat; continue }
			sort(r, n)
			nv = load(k SUBSEP shape SUBSEP w SUBSEP "abs", kv)
			printf "%s,%s,%s,%s,%d,%.1f,%.1f,%.4f,%.4f,%.4f,%.4f,%.4f\n", k, shape, w, m, n,
				q(sa, ns, 0.5), q(kv, nv, 0.5), q(r, n, 0.5), r[1], q(r, n, 0.25),
				q(r, n, 0.75), r[n] > ratios
			printf " %.4f %.4f %.4f", q(r, n, 0.5), r[1], r[n] > dat
		}
		printf "\n" > dat
	}
	for (j = 1; j <= nk; j++)
		for (c = 1; c <= ncells; c++) {
			split(cells[c], sw, SUBSEP)
			n = load(ks[j] SUBSEP sw[1] SUBSEP sw[2] SUBSEP "rpp", a)
			if (n > 0)
				printf "%s,%s,%s,%d,%.3f,%.3f,%.3f\n", ks[j], sw[1], sw[2], n,
					q(a, n, 0.5), a[1], a[n] > runs
		}
}' "$raw"
[ "$(wc -l < "$dir/ratios.csv")" -gt 1 ] ||
	die "no ratio against $(info kernels | cut -d' ' -f1) in $raw: no round has both kernels' figures"

# The markdown table: what was measured, how, and the figures.
{
	echo "# Benchmark results"
	echo
	echo "Measured $(info date) by \`make bench\`: kernels $(info kernels)," \
		"$(info rounds) rounds (each round boots every kernel once, in that" \
		"order), $(info seconds) s per timed run, accelerator" \
		"**$(info accel)** on a $(info host_cpus)-core host shared with" \
		"other work; the whole run took $(($(info wall) / 60)) min" \
		"$(($(info wall) % 60)) s."
	if [ "$(info accel)" != kvm ]; then
		echo "Under TCG the guest's CPU is emulated: these times are emulation" \
			"times, not hardware times. Only the ratios between kernels booted" \
			"in the same round, and the classifier runs per packet, mean" \
			"something."
	fi
	echo
	echo "Ratio = kernel / stock in the same round (above 1: faster than stock);"
	echo "median over the rounds, spread min-max (quartiles in ratios.csv)."
	echo
	echo "| kernel | shape | workload | stock (median) | kernel (median) | ratio median | ratio min-max | rounds |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 {
		printf "| %s | %s | %s | %s %s | %s %s | %.3f | %.3f-%.3f | %d |\n",
			$1, $2, $3, $6, $4, $7, $4, $8, $9, $12, $5 }' "$dir/ratios.csv"
	echo
	echo "Classifier runs per packet va sent, 100-filter shape (BPF run_cnt of the"
	echo "prio-1 pass-through classifier / va's tx_packets; the fast path has no"
	echo "classifier):"
	echo
	echo "| kernel | workload | runs per packet (median) | min-max | rounds |"
	echo "|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s-%s | %d |\n", $1, $3, $5, $6, $7, $4 }' \
		"$dir/runs.csv"
} > "$dir/results.md"

cat "$dir/results.md"
# An old plot must not pass for this run's.
rm -f "$dir/ratios.png"
command -v gnuplot >/dev/null ||
	die "no gnuplot: ratios.png not drawn (scripts/deps.sh installs gnuplot-nox)"
gnuplot -e "datafile='$dir/plot.dat'; outfile='$dir/ratios.png';" \
	-e "subtitle='$(info accel) emulation, $(info rounds) rounds, median and min-max'" \
	"$BENCH_DIR/plot.gp"
