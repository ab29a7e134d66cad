#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# kselftest_harness TAP in, one "ROW CELL" line per row of the matrix out.
# ROW is scenario.family: the harness names a test fixture.variant.test
# (tc_skip_egress.ipv4.egress_mirred -> egress_mirred.ipv4; the older
# egress_mirred.ipv4.verdict form maps the same way); CELL is pass, skip or
# fail:WORD, WORD being what
# the test's "# diagnosis: WORD" line said ("?" when it said nothing).
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

function row_of(name,    n, p)
{
	n = split(name, p, ".")
	if (n != 3)
		return name
	return p[3] == "verdict" ? p[1] "." p[2] : p[3] "." p[2]
}

/^#  RUN / { diag = "" }

/^# diagnosis: / { diag = $3 }

/^(not )?ok [0-9]+ / {
	bad = ($1 == "not")
	name = bad ? $4 : $3
	row = row_of(name)
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
