#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# The table of `make peers`, from "KERNEL<TAB>ROW<TAB>VERDICT<TAB>REASON"
# lines (vm/peers.sh collects them from each VM). -v cols="stock seed fix"
# orders the columns; -v expected=FILE is the table the run must give
# (vm/peers-expected.txt). Needs vm/table.awk.
#
# Rows "tdc FILE ID" (one tdc case each) are summed up to one row per
# file. Then the reasons for every skip and fail, the regressions of the
# fix (a case that passes on stock and not on fix; seed's are notes) and
# the table against the expected one, cell by cell ("*" matches
# anything): docs/peers.md. Exit 1 on a regression or a difference, and
# when there is nothing to judge: no cells, a column with none, a VM that
# did not finish ("(vm)" row), no stock or fix column, no expected table
# or a garbled one, a row or column given twice or one side lacks.

# The printed row a case belongs to.
function row_of(r, f)
{
	if (r ~ /^tdc [^ ]+ [^ ]+$/) {
		split(r, f, " ")
		return "tdc " f[2]
	}
	return r
}

function note_row(r)
{
	if (!(r in seen)) {
		seen[r] = 1
		order[++rows] = r
	}
}

BEGIN {
	FS = "\t"
	n = split(cols, col, " ")
}

{
	k = $1; r = $2; v = $3
	ncells[k]++
	if (r == "(vm)")
		died[k] = $4
	if ((k, r) in cell)
		problem(k ": case '" r "' given twice")
	cell[k, r] = v
	why[k, r] = $4
	if (!(r in isrow)) {
		isrow[r] = 1
		cases[++ncases] = r
	}
	p = row_of(r)
	note_row(p)
	count[k, p, v]++
	total[k, p]++
}

# A summed-up row: "pass" when every case passed, else the counts.
function summary(k, p, s)
{
	if (!((k, p) in total))
		return "missing"
	if (p !~ /^tdc /)
		return cell[k, p]
	if (count[k, p, "pass"] == total[k, p])
		return "pass (" total[k, p] ")"
	s = count[k, p, "pass"] + 0 " pass"
	if (count[k, p, "skip"])
		s = s ", " count[k, p, "skip"] " skip"
	if (count[k, p, "fail"])
		s = s ", " count[k, p, "fail"] " fail"
	return s
}

function problem(what)
{
	print "PEERS " what
	problems++
}

function diff(what)
{
	print "DIFF " what
	diffs++
}

# The expected table: a header "test K1 K2 ..." then a row a line,
# columns apart by two blanks or more (names and cells hold single
# blanks: "tdc mirred.json", "25 pass, 7 skip"); "#" lines are comments.
function read_expected(file,	line, f, nf, i, lineno)
{
	while ((getline line < file) > 0) {
		lineno++
		if (line ~ /^[ \t]*(#|$)/)
			continue
		sub(/[ \t]+$/, "", line)
		nf = split(line, f, /  +/)
		if (!nexpcols) {
			if (f[1] != "test" || nf < 2) {
				problem(file ":" lineno ": no header line (test KERNEL...): " line)
				return
			}
			nexpcols = nf
			for (i = 2; i <= nf; i++) {
				if (f[i] in expcol)
					problem(file ": column " f[i] " given twice")
				expcol[f[i]] = i
			}
			continue
		}
		if (nf != nexpcols) {
			problem(file ":" lineno ": " nf - 1 " cells, the header has " nexpcols - 1 ": " line)
			continue
		}
		if (f[1] in exprow)
			problem(file ": row '" f[1] "' given twice")
		exprow[f[1]] = ++nexprows
		exporder[nexprows] = f[1]
		for (i = 2; i <= nf; i++)
			want[f[1], i] = f[i]
	}
	close(file)
	if (!lineno)
		problem("no expected table at '" file "' (missing or empty)")
	else if (!nexprows)
		problem(file ": an expected table with no rows")
}

# The run's table (summary) against the expected one; a column already
# named as having no result is not compared cell by cell.
function compare(	c, k, r, i, j, got)
{
	for (c = 1; c <= n; c++) {
		k = col[c]
		if (!(k in expcol)) {
			diff(k ": no such column in " expected)
			continue
		}
		if (!ncells[k] || (k in died))
			continue
		i = expcol[k]
		for (j = 1; j <= nexprows; j++) {
			r = exporder[j]
			got = (r in seen) ? summary(k, r) : "no such row"
			if (want[r, i] != "*" && want[r, i] != got)
				diff(r " / " k ": expected " want[r, i] ", got " got)
		}
	}
	for (r = 1; r <= rows; r++)
		if (!(order[r] in exprow) && order[r] != "(vm)")
			diff(order[r] ": not expected, got " summary(col[1], order[r]) " on " col[1])
}

END {
	for (c = 1; c <= n; c++)
		for (r = 1; r <= rows; r++)
			out[c, r] = summary(col[c], order[r])
	print_table(rows, order, n, col, out)

	# Why, for every skip and fail; one line per case and reason.
	header = 0
	for (i = 1; i <= ncases; i++) {
		r = cases[i]
		delete said
		for (c = 1; c <= n; c++) {
			k = col[c]
			if (!((k, r) in cell) || cell[k, r] == "pass")
				continue
			key = cell[k, r] SUBSEP why[k, r]
			if (key in said) {
				said[key] = said[key] "," k
				continue
			}
			said[key] = k
			keys[++nkeys] = key
		}
		for (j = 1; j <= nkeys; j++) {
			if (!(keys[j] in said))
				continue
			split(keys[j], kv, SUBSEP)
			if (!header++)
				print "\nwhy:"
			printf "  %s %s (%s)%s\n", r, kv[1], said[keys[j]],
				kv[2] == "" ? "" : ": " kv[2]
		}
		nkeys = 0
	}

	# Stock against the others, case by case.
	bad = 0
	for (i = 1; i <= ncases; i++) {
		r = cases[i]
		if (!(("stock", r) in cell) || cell["stock", r] != "pass")
			continue
		for (c = 1; c <= n; c++) {
			k = col[c]
			v = (k, r) in cell ? cell[k, r] : "missing"
			if (k == "stock" || v == "pass")
				continue
			if (k == "fix") {
				printf "REGRESSION of fix: %s: pass on stock, %s on fix\n", r, v
				bad = 1
			} else {
				printf "note: %s: pass on stock, %s on %s\n", r, v, k
			}
		}
	}

	# Nothing to judge is no pass.
	if (!NR)
		problem("no cells at all: no VM reported a result")
	for (c = 1; c <= n; c++) {
		if (col[c] in colseen)
			problem("column " col[c] " given twice")
		colseen[col[c]] = 1
		if (!ncells[col[c]])
			problem(col[c] ": no cells: its VM reported nothing")
		else if (col[c] in died)
			problem(col[c] ": the VM did not finish: " died[col[c]])
	}
	for (k in ncells)
		if (!(k in colseen))
			problem(k ": cells for a kernel that is no column (cols=\"" cols "\")")
	if (!("stock" in colseen) || !("fix" in colseen))
		problem("no " (("stock" in colseen) ? "fix" : "stock") " column: a regression of the fix cannot be told")
	if (expected == "")
		problem("no expected table given (-v expected=FILE)")
	else {
		read_expected(expected)
		if (nexpcols && NR)
			compare()
	}
	exit bad || problems || diffs
}
