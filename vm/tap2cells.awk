#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# kselftest_harness TAP in, one "ROW CELL" line per row of the matrix out.
# ROW is scenario.family, from the test's name by vm/rows.awk, which must be
# loaded first (awk -f vm/rows.awk -f vm/tap2cells.awk); CELL is pass, skip
# or fail:WORD, WORD being what the test's "# diagnosis: WORD" line said
# ("?" when it said nothing).
# A row made of several tests fails if any fails (the words joined by "+"),
# else passes if any passes, else is skipped. Rows keep the TAP's order.

function add(row, cell)
{
	if (!(row in state)) {
		order[++rows] = row
		state[row] = cell
		return
	}
	if (cell ~ /^fail/) {
		if (state[row] !~ /^fail/)
			state[row] = cell
		else if (index("+" substr(state[row], 6) "+", "+" substr(cell, 6) "+") == 0)
			state[row] = state[row] "+" substr(cell, 6)
	} else if (cell == "pass" && state[row] == "skip") {
		state[row] = "pass"
	}
}

/^#  RUN / { diag = "" }

/^# diagnosis: / { diag = $3 }

/^(not )?ok [0-9]+ / {
	bad = ($1 == "not")
	name = bad ? $4 : $3
	row = tse_row(name)
	if (bad)
		cell = "fail:" (diag == "" ? "?" : diag)
	else if ($0 ~ /# [Ss][Kk][Ii][Pp]/)
		cell = "skip"
	else
		cell = "pass"
	add(row, cell)
	diag = ""
}

END {
	for (i = 1; i <= rows; i++)
		print order[i], state[order[i]]
}
