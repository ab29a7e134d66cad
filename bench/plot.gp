# SPDX-License-Identifier: GPL-2.0
#
# Ratios kernel / stock per workload and shape, median with min-max bars;
# below, the fast-path cells alone, in per cent of stock, at the scale of
# a fast-path cost (the bench-check gate is at -0.1 %).
# gnuplot -e "datafile='plot.dat'; fastfile='plot-fast.dat'; outfile='ratios.png'; subtitle='...'" plot.gp
# Both files: a label column, then median, min and max per kernel.

set terminal pngcairo size 1000,860 font ",11"
set output outfile
set multiplot layout 2,1 title "Throughput relative to stock\n{/*0.8 ".subtitle."}"

ncols = (words(system("head -n 1 ".datafile)) - 2) / 3
name(i) = system(sprintf("head -n 1 %s | awk '{ sub(/_med$/, \"\", $%d); print $%d }'", datafile, 3 * i, 3 * i))

set style data histogram
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.6 border -1
set boxwidth 0.9
set key top left
set grid ytics
set bmargin 4

set title "kernel / stock, same round (1.0 = stock)"
set yrange [0:*]
set ylabel "ratio"
plot for [i=1:ncols] datafile using (column(3 * i - 1)):(column(3 * i)):(column(3 * i + 1)):xtic(1) \
	title name(i), \
	1 with lines lc rgb "black" dt 2 notitle

set title "fast paths only: kernel / stock - 1, in per cent (dashed: the bench-check gate, -0.1 %)"
set yrange [*<-0.3:0.3<*]
set ylabel "per cent"
set format y "%+.2f"
set key top right
plot for [i=1:ncols] fastfile using (column(3 * i - 1)):(column(3 * i)):(column(3 * i + 1)):xtic(1) \
	title name(i), \
	0 with lines lc rgb "black" notitle, \
	-0.1 with lines lc rgb "red" dt 2 notitle

unset multiplot
