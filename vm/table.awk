# SPDX-License-Identifier: GPL-2.0
#
# The table printer of vm/matrix.awk, vm/peers.awk and
# vm/compare-records.awk (load it first: awk -f vm/table.awk -f
# vm/matrix.awk): a column of row names headed "test" (or table_head),
# then one column per kernel, each as wide as its widest entry, two blanks
# apart, with no trailing blanks.

function table_pad(s, w)
{
	return sprintf("%-" w "s", s)
}

# print_table(NROWS, ROW, NCOLS, COL, CELL): ROW[1..NROWS] are the row
# names, COL[1..NCOLS] the column heads, CELL[c, r] the entries.
function print_table(nrows, row, ncols, col, cell,    w, r, c, line)
{
	if (table_head == "")
		table_head = "test"
	w[0] = length(table_head)
	for (r = 1; r <= nrows; r++)
		if (length(row[r]) > w[0])
			w[0] = length(row[r])
	for (c = 1; c <= ncols; c++) {
		w[c] = length(col[c])
		for (r = 1; r <= nrows; r++)
			if (length(cell[c, r]) > w[c])
				w[c] = length(cell[c, r])
	}
	line = table_pad(table_head, w[0])
	for (c = 1; c <= ncols; c++)
		line = line "  " table_pad(col[c], w[c])
	sub(/ +$/, "", line)
	print line
	for (r = 1; r <= nrows; r++) {
		line = table_pad(row[r], w[0])
		for (c = 1; c <= ncols; c++)
			line = line "  " table_pad(cell[c, r], w[c])
		sub(/ +$/, "", line)
		print line
	}
}
