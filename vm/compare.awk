#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# compare.awk EXPECTED ACTUAL: two matrices in (a header line, then a line
# per test; "#" lines are comments), one line per difference out:
#   DIFF ROW / KERNEL: expected X, got Y
# Only kernels both matrices have are compared; "*" expects anything.
# With -v some=1 (only some tests were run) missing rows are no difference.

/^[ \t]*(#|$)/ { next }

!(FILENAME in head) {
	head[FILENAME] = NF
	for (i = 2; i <= NF; i++)
		col[FILENAME, i] = $i
	next
}

FILENAME == ARGV[1] {
	erow[$1] = 1
	for (i = 2; i <= NF; i++)
		want[$1, col[FILENAME, i]] = $i
	next
}

{
	grow[$1] = 1
	for (i = 2; i <= NF; i++) {
		got[$1, col[FILENAME, i]] = $i
		ran[col[FILENAME, i]] = 1
	}
}

function check(k,	r, g)
{
	for (r in erow) {
		if (some && !(r in grow))
			continue
		g = ((r, k) in got) ? got[r, k] : "no such row"
		if (want[r, k] != "*" && want[r, k] != g)
			print "DIFF " r " / " k ": expected " want[r, k] ", got " g
	}
	for (r in grow)
		if (!(r in erow))
			print "DIFF " r " / " k ": not expected, got " got[r, k]
}

END {
	for (i = 2; i <= head[ARGV[1]]; i++)
		ecol[col[ARGV[1], i]] = 1
	for (k in ran) {
		if (k in ecol)
			check(k)
		else
			print "note: " k " has no expected column: not compared"
	}
}
