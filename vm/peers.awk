#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# The table of `make peers`, from "KERNEL<TAB>ROW<TAB>VERDICT<TAB>REASON"
# lines (vm/peers.sh collects them from each VM). -v cols="stock seed fix"
# orders the columns.
#
# Rows "tdc FILE ID" (one tdc case each) are summed up to one row per file;
# every other row is printed as it is. Then the reasons for every skip and
# fail, once per row and reason. Then the comparison, case by case: a case
# that passes on stock and not on fix is a regression of the fix, named,
# and the exit code is 1; a case that passes on stock and not on seed is
# named for information. Needs vm/table.awk.

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
	exit bad
}
