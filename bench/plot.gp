# SPDX-License-Identifier: GPL-2.0
#
# Ratios kernel / stock per workload and shape, median with min-max bars.
# gnuplot -e "datafile='plot.dat'; outfile='ratios.png'; subtitle='...'" plot.gp
# plot.dat: a label column, then median, min and max per kernel.

set terminal pngcairo size 900,540 font ",11"
set output outfile
set title "Throughput relative to stock (1.0 = stock)\n{/*0.8 ".subtitle."}"
set ylabel "kernel / stock, same round"
set style data histogram
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.6 border -1
set boxwidth 0.9
set key top left
set grid ytics
set yrange [0:*]
set bmargin 4
ncols = (words(system("head -n 1 ".datafile)) - 2) / 3
plot for [i=1:ncols] datafile using (column(3 * i - 1)):(column(3 * i)):(column(3 * i + 1)):xtic(1) \
	title system(sprintf("head -n 1 %s | awk '{ sub(/_med$/, \"\", $%d); print $%d }'", datafile, 3 * i, 3 * i)), \
	1 with lines lc rgb "black" dt 2 notitle
