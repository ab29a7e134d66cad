# SPDX-License-Identifier: GPL-2.0
#
# Ratios kernel / stock, median with min-max bars, one group of shapes per
# workload; below, the fast-path cells alone, in per cent of stock, at the
# scale of a fast-path cost, with the bench-check gate (-0.1 %) under the
# workload it gates (rr) and nowhere else.
# gnuplot -e "datafile='plot.dat'; fastfile='plot-fast.dat'; outfile='ratios.png'; subtitle='...'" plot.gp
# Both files (bench/summarize.sh): a header naming the kernels' columns,
# then a block per workload headed "# workload W", two blank lines between
# blocks; a row per shape: its name, then median, min and max per kernel.

if (!exists("gated")) gated = "rr"
gate = -0.1

set terminal pngcairo size 1200,900 font ",11"
set output outfile
set multiplot layout 2,1 title "Throughput relative to stock\n{/*0.8 ".subtitle."}"

ncols = (words(system("head -n 1 ".datafile)) - 2) / 3
name(i) = system(sprintf("head -n 1 %s | awk '{ sub(/_med$/, \"\", $%d); print $%d }'", datafile, 3 * i, 3 * i))
# The workloads of a file, in block order, and the rows of block b (from 0).
blocks(f) = system(sprintf("awk '/^# workload / { printf \"%%s \", $3 }' %s", f))
rows(f, b) = int(system(sprintf("awk '/^# workload / { n++ } n == %d && /^\"/ { c++ } END { print c + 0 }' %s", b + 1, f)))

set style data histogram
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.6 border -1
set boxwidth 0.9
set grid ytics
set bmargin 5
set samples 2000

# Panel 1 the ratios (datafile), panel 2 the fast paths (fastfile). In
# each, a histogram per block, titled with its workload, one empty cluster
# between; each restarts the colours, so a kernel has one colour and one
# key entry. gx0 and gx1: where the gated workload's group begins and ends.
do for [p = 1:2] {
	f = p == 1 ? datafile : fastfile
	cmd = ""; x = 0; gx0 = NaN; gx1 = NaN; wl = blocks(f)
	unset label
	do for [b = 0:words(wl) - 1] {
		n = rows(f, b)
		cmd = cmd . sprintf("newhistogram lt 1 at %d, for [i=1:ncols] \"%s\" index %d using (column(3 * i - 1)):(column(3 * i)):(column(3 * i + 1)):xtic(1) title (%d || p > 1 ? \"\" : name(i)), ", x, f, b, b)
		set label 10 + b sprintf("{/:Bold %s}", word(wl, b + 1)) at x + (n - 1) / 2.0, graph 0 center offset 0, -2.6
		if (word(wl, b + 1) eq gated) {
			gx0 = x - 0.5; gx1 = x + n - 0.5
		}
		x = x + n + 1
	}
	if (p == 1) {
		set title "kernel / stock, same round (1.0 = stock)"
		set yrange [0:*]
		set ylabel "ratio"
		# One key, for both panels (the kernels keep their colours), in
		# a row above the bars: the offset leaves the room.
		set key inside top left horizontal maxrows 1
		set offsets 0, 0, graph 0.12, 0
		# An arrow, not "1 with lines": gnuplot 5.4.4 aborts (free():
		# invalid next size) on the next panel after a function plotted
		# beside newhistogram.
		set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "black" dt 2
	} else {
		set title "fast paths only: kernel / stock - 1, in per cent (colours as above)"
		set yrange [*<-0.3:0.3<*]
		set ylabel "per cent"
		set offsets 0, 0, 0, 0
		set format y "%+.2f"
		unset arrow 1
		set arrow 2 from graph 0, first 0 to graph 1, first 0 nohead lc rgb "black"
		if (gx0 == gx0) {
			set arrow 3 from gx0, gate to gx1, gate nohead lc rgb "red" dt 2 lw 1.5
			set label 3 sprintf("bench-check gate, %s only: %g %%", gated, gate) \
				at (gx0 + gx1) / 2.0, gate center offset 0, -1 tc rgb "red" font ",10"
		}
	}
	if (strlen(cmd) == 0) {
		# A run without fast-path shapes (BENCH_SHAPES): an empty panel.
		set label 4 "no fast-path shape in this run" at graph 0.5, graph 0.5 center
		unset arrow 2
		set xrange [0:1]
		set yrange [-1:1]
		cmd = "NaN notitle, "
	}
	eval "plot " . cmd[1:strlen(cmd) - 2]
}

unset multiplot
