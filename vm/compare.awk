#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# compare.awk EXPECTED ACTUAL: two matrices in (a header line, then a line
# per test; "#" lines are comments), one line per difference out:
#   DIFF ROW / KERNEL: expected X, got Y
# Only kernels both matrices have are compared; "*" expects anything; a
# kernel with no verdicts at all is a difference.
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
		cells[col[FILENAME, i]]++
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

# Every kernel the run names is judged, even one that gave no verdict at all.
END {
	for (i = 2; i <= head[ARGV[1]]; i++)
		ecol[col[ARGV[1], i]] = 1
	for (i = 2; i <= head[ARGV[2]]; i++) {
		k = col[ARGV[2], i]
		if (!(k in ecol))
			print "note: " k " has no expected column: not compared"
		else if (!cells[k])
			print "DIFF all rows / " k ": no verdicts at all"
		else
			check(k)
	}
}
