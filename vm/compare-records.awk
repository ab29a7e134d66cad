# SPDX-License-Identifier: GPL-2.0
#
# Every observation of a grid row that differs between kernels, from their
# record files (TSE_RECORD; vm/compare-kernels.sh). The records, the
# comparison, its labels, its output and exit codes: docs/compare.md.
#
#   awk -v kernels='K1 K2...' -v rows='ROW...' -v asked=1 -v csv=FILE \
#       [-v cells='K1.cells K2.cells...'] -f vm/table.awk \
#       -f vm/compare-records.awk K1.tsv K2.tsv...
#
# One file per kernel, in the order of kernels, none of them empty (the
# caller checks: an empty file has no first line for awk to see). rows
# lists the grid rows to compare; lines of other rows are passed over.
# With asked=1 every row of rows was run, and one that no file holds is a
# failure; with asked=0 it is passed over, unless a TAP (cells) shows it
# ran. cells names each kernel's verdicts ("ROW CELL" lines of its TAP;
# "-" for none): a row that cannot be compared is named with its verdict.

BEGIN {
	FS = "\t"
	nk = split(kernels, kname, " ")
	nrows = split(rows, rowlist, " ")
	for (i = 1; i <= nrows; i++)
		grid[rowlist[i]] = 1
	k = 0
	problems = 0
	nc = split(cells, cellfile, " ")
	for (j = 1; j <= nc; j++) {
		if (cellfile[j] == "-")
			continue
		while ((getline line < cellfile[j]) > 0) {
			split(line, c, " ")
			verdict[j, c[1]] = c[2]
		}
		close(cellfile[j])
	}
}

# " (TAP: CELL)" for row r on kernel j, where its TAP names it.
function tap(j, r)
{
	return (j, r) in verdict ? " (TAP: " verdict[j, r] ")" : ""
}

function problem(msg)
{
	print "compare: " msg > "/dev/stderr"
	problems++
}

FNR == 1 {
	k++
}

!($1 in grid) {
	next
}

$2 == ".end" {
	if (NF != 4 || $3 !~ /^[0-9]+$/) {
		problem(kname[k] ": " $1 ": a malformed .end line: " $0)
		next
	}
	if ((k, $1) in ended) {
		problem(kname[k] ": " $1 " recorded twice")
		next
	}
	ended[k, $1] = 1
	endn[k, $1] = $3
	status[k, $1] = $4
	next
}

{
	row = $1
	if (NF != 7) {
		problem(kname[k] ": " row ": a malformed line (" NF " fields, not 7): " $0)
		next
	}
	if ((k, row) in ended) {
		problem(kname[k] ": " row ": observations after its .end (recorded twice?)")
		next
	}
	if ((k, row, $2) in val) {
		problem(kname[k] ": " row ": " $2 " recorded twice")
		next
	}
	nobs[k, row]++
	val[k, row, $2] = $7 != "-" ? $7 : $4
	want[k, row, $2] = $5
	stock[k, row, $2] = $6
	if (!((row, $2) in what)) {
		what[row, $2] = $3
		site[row, ++nsites[row]] = $2
	}
}

# The observer's name in a row: SITE without its "scenario:".
function observer(s)
{
	sub(/^[^:]*:/, "", s)
	return s
}

# Does an observation move between the model's stock and correct values
# from kernel 1 (a) to kernel j (b)? Packet by packet where VALUES are
# given, else in total; no model (STOCK -1): no.
function moves(a, b, j, r, s,	na, nb, pa, pb, i, s1, w1, sj, wj)
{
	s1 = stock[1, r, s]; w1 = want[1, r, s]
	sj = stock[j, r, s]; wj = want[j, r, s]
	if (s1 < 0 || sj < 0)
		return 0
	na = split(a, pa, ",")
	nb = split(b, pb, ",")
	if (na != nb)
		return 0
	for (i = 1; i <= na; i++) {
		if (pa[i] == pb[i])
			continue
		if (!((pa[i] == s1 && pb[i] == wj) || (pa[i] == w1 && pb[i] == sj)))
			return 0
	}
	return 1
}

function csvq(s)
{
	if (s !~ /[",]/)
		return s
	gsub(/"/, "\"\"", s)
	return "\"" s "\""
}

# The row's state on kernel j: "whole", "skipped", "missing", or a problem.
function state(j, r)
{
	if (!((j, r) in ended))
		return (j, r) in nobs ? "cut" : "missing"
	if (endn[j, r] != nobs[j, r] + 0)
		return "miscounted"
	if (nobs[j, r] + 0 == 0)
		return "empty"
	return "whole"
}

# Check that row r is on every kernel and whole: 1 to compare it.
function comparable(r,	j, st, has, ok, msg)
{
	has = 0
	for (j = 1; j <= nk; j++) {
		st[j] = state(j, r)
		if (st[j] == "whole")
			has = j
	}
	ok = 1
	if (!asked) {
		for (j = 1; j <= nk && st[j] == "missing" && !((j, r) in verdict); j++)
			;
		if (j > nk)
			return 0
	}
	# Not on any kernel: one line, with each kernel's verdict.
	for (j = 1; j <= nk && st[j] == "missing"; j++)
		;
	if (j > nk) {
		msg = ""
		for (j = 1; j <= nk; j++)
			msg = msg (j > 1 ? ", " : "") kname[j] ((j, r) in verdict ? " " verdict[j, r] : "")
		problem(r " not recorded on any kernel (TAP: " msg ")")
		return 0
	}
	for (j = 1; j <= nk; j++) {
		if (st[j] == "cut") {
			problem(kname[j] ": " r " cut short: " nobs[j, r] " observations and no .end line" tap(j, r))
			ok = 0
		} else if (st[j] == "miscounted") {
			problem(kname[j] ": " r ": its .end counts " endn[j, r] " observations, the file has " nobs[j, r] + 0)
			ok = 0
		} else if (st[j] == "missing") {
			problem(kname[j] ": " r " not recorded" tap(j, r) \
				(has ? ", which " kname[has] " has (" nobs[has, r] " observations)" : ""))
			ok = 0
		} else if (st[j] == "empty" && has) {
			problem(kname[j] ": " r " " (status[j, r] == "skip" ? "skipped" : "has no observations (" status[j, r] ")") \
				tap(j, r) " where " kname[has] " has " nobs[has, r] " observations: not compared")
			ok = 0
		}
	}
	if (ok && !has) {
		skipped_all = skipped_all " " r
		return 0
	}
	return ok
}

# Add a line to the table (cells separated by SUBSEP): the first is its
# header, "row observer KERNEL... model stock model correct label".
function add_line(line,	n, c, i)
{
	n = split(line, c, SUBSEP)
	if (!nlines++) {
		table_head = c[1]
		for (i = 2; i <= n; i++)
			thead[i - 1] = c[i]
		ncols = n - 1
		return
	}
	trow[nlines - 1] = c[1]
	for (i = 2; i <= n; i++)
		tcell[i - 1, nlines - 1] = c[i]
}

END {
	head = "row" SUBSEP "observer"
	chead = "row,observer,what"
	for (j = 1; j <= nk; j++) {
		head = head SUBSEP kname[j]
		chead = chead "," csvq(kname[j])
	}
	add_line(head SUBSEP "model stock" SUBSEP "model correct" SUBSEP "label")
	print chead ",model_stock,model_correct,label" > csv
	compared = 0
	nobserved = 0
	for (i = 1; i <= nrows; i++) {
		r = rowlist[i]
		if (!comparable(r))
			continue
		compared++
		for (n = 1; n <= nsites[r]; n++) {
			s = site[r, n]
			nobserved++
			a = (1, r, s) in val ? val[1, r, s] : "absent"
			line = r SUBSEP observer(s) SUBSEP a
			cline = r "," csvq(observer(s)) "," csvq(what[r, s]) "," csvq(a)
			bad = ""
			differs = 0
			for (j = 2; j <= nk; j++) {
				b = (j, r, s) in val ? val[j, r, s] : "absent"
				line = line SUBSEP b
				cline = cline "," csvq(b)
				if (b == a)
					continue
				differs = 1
				if (a == "absent" || b == "absent" || !moves(a, b, j, r, s))
					bad = bad " " kname[j]
			}
			if (!differs)
				continue
			m = (1, r, s) in stock ? 1 : 2
			ms = stock[m, r, s]
			mw = want[m, r, s]
			if (ms < 0)
				ms = mw = "-"
			label = bad == "" ? "expected" : "unexpected"
			if (bad != "" && nk > 2)
				label = label " (" substr(bad, 2) ")"
			if (bad == "")
				nexpected++
			else
				nunexpected++
			add_line(line SUBSEP ms SUBSEP mw SUBSEP label)
			print cline "," ms "," mw "," csvq(label) > csv
			used[observer(s)] = what[r, s]
			bylabel[observer(s), bad == "" ? "expected" : "unexpected"]++
		}
	}
	close(csv)
	if (nlines > 1) {
		print_table(nlines - 1, trow, ncols, thead, tcell)
		print ""
		for (o in used)
			legend[++nl] = o
		# Sorted, by insertion: the legend reads the same every run.
		for (x = 2; x <= nl; x++)
			for (y = x; y > 1 && legend[y - 1] > legend[y]; y--) {
				t = legend[y]; legend[y] = legend[y - 1]; legend[y - 1] = t
			}
		# Each observer: what it counts, and its differences by label.
		for (x = 1; x <= nl; x++) {
			o = legend[x]
			n = ""
			if ((o, "expected") in bylabel)
				n = bylabel[o, "expected"] " expected"
			if ((o, "unexpected") in bylabel)
				n = n (n != "" ? ", " : "") bylabel[o, "unexpected"] " unexpected"
			print "  " o ": " used[o] " [" n "]"
		}
		print ""
	}
	for (j = 1; j <= nk; j++) {
		delete cnt
		for (i = 1; i <= nrows; i++)
			if ((j, rowlist[i]) in ended)
				cnt[status[j, rowlist[i]]]++
		printf "%s: %d pass, %d fail, %d skip\n", kname[j], cnt["pass"], cnt["fail"], cnt["skip"]
	}
	if (skipped_all != "")
		print "skipped on every kernel, not compared:" skipped_all
	if (!compared && !problems)
		problem("no grid row was recorded whole on every kernel: nothing compared")
	printf "%d observations of %d grid rows compared on %d kernels: ", nobserved, compared, nk
	# "No differences" only of a whole comparison.
	if (nexpected + nunexpected == 0 && !problems)
		print "no differences from " kname[1]
	else
		printf "%d differ from %s, %d expected, %d unexpected\n", nexpected + nunexpected,
			kname[1], nexpected, nunexpected
	if (problems) {
		print "NOT A WHOLE COMPARISON: " problems " problem(s), each on stderr"
		exit 2
	}
	exit nunexpected ? 1 : 0
}
