#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# compare.awk EXPECTED ACTUAL: two matrices in (a header line, then a line
# per test; "#" lines are comments), one line per difference out:
#   DIFF ROW / KERNEL: expected X, got Y
# "*" expects anything. Every kernel of ACTUAL must have its column in
# EXPECTED, except the ones named in -v mutants="m1 m2" (vmtest.sh judges
# those against their base kernel): a misnamed column is a difference, not
# a kernel to leave out. A kernel with no verdicts at all is a difference,
# and so is, on either side, a matrix with no rows or no kernels, a first
# line that is no header ("test" then the kernels), a row whose cells do
# not match the header, and a row or kernel given twice (which of the two
# would count is anybody's guess). Exits 1 on any difference (2 when a
# file cannot be read).
# With -v rows="r1 r2 ..." (vmtest.sh -t: only those tests were run) only
# those rows are compared, and each of them: a row asked for that a kernel
# did not report is a difference, named, and so is a row asked for that
# the expected matrix has not, or a row reported that was not asked for.

/^[ \t]*(#|$)/ { next }

!(FILENAME in head) {
	if ($1 != "test") {
		diff(FILENAME ": no header line (test KERNEL...); the first line is: " $0)
		head[FILENAME] = 0
		bad[FILENAME] = 1
		next
	}
	head[FILENAME] = NF
	for (i = 2; i <= NF; i++) {
		if ((FILENAME, $i) in hascol)
			diff(FILENAME ": kernel " $i " given twice in the header")
		hascol[FILENAME, $i] = 1
		col[FILENAME, i] = $i
	}
	next
}

# A file without a header is not read any further: its lines cannot be
# told from a header.
FILENAME in bad { next }

NF != head[FILENAME] {
	diff(FILENAME ": row " $1 " has " NF - 1 " cells, the header " head[FILENAME] - 1)
	next
}

(FILENAME, $1) in hasrow {
	diff(FILENAME ": row " $1 " given twice")
	next
}

{ hasrow[FILENAME, $1] = 1 }

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
		if (nreq && !(r in req))
			continue
		g = ((r, k) in got) ? got[r, k] : "no such row"
		if (want[r, k] != "*" && want[r, k] != g)
			diff(r " / " k ": expected " want[r, k] ", got " g)
	}
	for (r in grow)
		if (!(r in erow))
			diff(r " / " k ": not expected, got " got[r, k])
		else if (nreq && !(r in req))
			diff(r " / " k ": not asked for (-t), got " got[r, k])
}

function diff(what)
{
	print "DIFF " what
	diffs++
}

# A matrix with nothing to compare is a difference, not a match.
function empty(file, rows)
{
	if (file in bad)
		return 1
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
	nreq = split(rows, r, " ")
	for (i = 1; i <= nreq; i++) {
		req[r[i]] = 1
		if (!(r[i] in erow))
			diff(r[i] ": asked for (-t), but the expected matrix has no such row")
	}
	for (i = 2; i <= head[ARGV[1]]; i++)
		ecol[col[ARGV[1], i]] = 1
	split(mutants, m, " ")
	for (i in m)
		mutant[m[i]] = 1
	for (i = 2; i <= head[ARGV[2]]; i++) {
		k = col[ARGV[2], i]
		if (!(k in ecol) && (k in mutant))
			print "note: mutant " k " has no expected column: judged against its base"
		else if (!(k in ecol))
			diff("all rows / " k ": no such kernel in the expected matrix (misnamed?)")
		else if (!cells[k])
			diff("all rows / " k ": no verdicts at all")
		else
			check(k)
	}
	exit diffs > 0
}
