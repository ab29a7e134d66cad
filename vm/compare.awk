#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# compare.awk EXPECTED ACTUAL: two matrices in (a header line, then a line
# per test; "#" lines are comments), one line per difference out:
#   DIFF ROW / KERNEL: expected X, got Y
# Only kernels both matrices have are compared; "*" expects anything; a
# kernel with no verdicts at all is a difference, and so is a matrix with
# no rows or no kernels, on either side. Exits 1 on any difference (2
# when a file cannot be read).
# With -v some=1 (only some tests were run) missing rows are no difference.

/^[ \t]*(#|$)/ { next }

!(FILENAME in head) {
	head[FILENAME] = NF
	for (i = 2; i <= NF; i++)
		col[FILENAME, i] = $i
	next
}

FILENAME == ARGV[1] {
	erows++
	erow[$1] = 1
	for (i = 2; i <= NF; i++)
		want[$1, col[FILENAME, i]] = $i
	next
}

{
	grows++
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
			diff(r " / " k ": expected " want[r, k] ", got " g)
	}
	for (r in grow)
		if (!(r in erow))
			diff(r " / " k ": not expected, got " got[r, k])
}

function diff(what)
{
	print "DIFF " what
	diffs++
}

# A matrix with nothing to compare is a difference, not a match.
function empty(file, rows)
{
	if (head[file] < 2)
		diff(file ": no matrix (no header with kernel columns)")
	else if (!rows)
		diff(file ": a matrix with no rows")
	return head[file] < 2 || !rows
}

# Every kernel the run names is judged, even one that gave no verdict at all.
END {
	if (ARGC != 3) {
		print "usage: compare.awk EXPECTED ACTUAL" > "/dev/stderr"
		exit 2
	}
	if (empty(ARGV[1], erows) + empty(ARGV[2], grows))
		exit 1
	for (i = 2; i <= head[ARGV[1]]; i++)
		ecol[col[ARGV[1], i]] = 1
	for (i = 2; i <= head[ARGV[2]]; i++) {
		k = col[ARGV[2], i]
		if (!(k in ecol))
			print "note: " k " has no expected column: not compared"
		else if (!cells[k])
			diff("all rows / " k ": no verdicts at all")
		else
			check(k)
	}
	exit diffs > 0
}
