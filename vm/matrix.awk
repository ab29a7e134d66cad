#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# "KERNEL ROW CELL" lines in, the verdict matrix out: a row per test, a
# column per kernel, in the order given by -v cols="k1 k2 ...". A kernel
# that reported nothing for a row gets its entry in -v fills="f1 f2 ..."
# (fail:boot, fail:crash, ..., or missing).

function pad(s, w)
{
	return sprintf("%-" w "s", s)
}

BEGIN {
	n = split(cols, col, " ")
	split(fills, fill, " ")
}

!($2 in seen) {
	seen[$2] = 1
	order[++rows] = $2
}

{ cell[$1, $2] = $3 }

END {
	w[0] = length("test")
	for (r = 1; r <= rows; r++)
		if (length(order[r]) > w[0])
			w[0] = length(order[r])
	for (c = 1; c <= n; c++) {
		w[c] = length(col[c])
		for (r = 1; r <= rows; r++) {
			if (!((col[c], order[r]) in cell))
				cell[col[c], order[r]] = fill[c]
			if (length(cell[col[c], order[r]]) > w[c])
				w[c] = length(cell[col[c], order[r]])
		}
	}
	line = pad("test", w[0])
	for (c = 1; c <= n; c++)
		line = line "  " pad(col[c], w[c])
	print line
	for (r = 1; r <= rows; r++) {
		line = pad(order[r], w[0])
		for (c = 1; c <= n; c++)
			line = line "  " pad(cell[col[c], order[r]], w[c])
		print line
	}
}
