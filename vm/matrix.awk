#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# "KERNEL ROW CELL" lines in, the verdict matrix out: a row per test, a
# column per kernel, in the order given by -v cols="k1 k2 ...". A kernel
# that reported nothing for a row gets its entry in -v fills="f1 f2 ..."
# (fail:boot, fail:crash, ..., or missing). Needs vm/table.awk.

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
	for (c = 1; c <= n; c++)
		for (r = 1; r <= rows; r++)
			out[c, r] = (col[c], order[r]) in cell ? cell[col[c], order[r]] : fill[c]
	print_table(rows, order, n, col, out)
}
