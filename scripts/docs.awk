# SPDX-License-Identifier: GPL-2.0
#
# Rewrite the generated tables and counts of one markdown file
# (scripts/docs.sh), the markers and their sources as docs/README.md
# describes them. -v root=DIR is where FILE is found. Exits 2, naming the
# line, on a bad marker, a missing file or column.

function fail(msg)
{
	printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	failed = 1
	exit 2
}

# Split a verdict file's line into f[1..n].
function fields(line, f)
{
	sub(/^[ \t]+/, "", line)
	sub(/[ \t]+$/, "", line)
	if (line ~ /  /)
		return split(line, f, /[ \t][ \t]+/)
	return split(line, f, /[ \t]+/)
}

function cell(s)
{
	if (s == "*")
		return "any"
	sub(/^fail:/, "fail: ", s)
	return s
}

function md_row(name, c, n,    line, j)
{
	line = "| " name
	for (j = 1; j <= n; j++)
		line = line " | " c[j]
	return line " |"
}

function table(src, want,    first, path, line, f, n, i, j, ncol, col, pos, nrows,
	       row, cells, k, base, fam, other, c, d, same, done)
{
	path = root "/" src
	ncol = 0
	nrows = 0
	while ((k = (getline line < path)) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		n = fields(line, f)
		if (!ncol) {
			if (f[1] != "test" && f[1] != "rule" && f[1] != "mutant")
				fail(src ": no header line \"test ...\" (or rule, mutant)")
			first = f[1]
			for (i = 2; i <= n; i++)
				pos[f[i]] = i
			if (want == "")
				for (i = 2; i <= n; i++)
					col[++ncol] = f[i]
			else
				ncol = split(want, col, " ")
			for (j = 1; j <= ncol; j++)
				if (!(col[j] in pos))
					fail(src " has no column " col[j])
			continue
		}
		row[++nrows] = f[1]
		for (j = 1; j <= ncol; j++)
			cells[nrows, j] = cell(f[pos[col[j]]])
	}
	close(path)
	if (k < 0)
		fail("cannot read " src)
	if (!nrows)
		fail(src " has no rows")

	line = "| " first
	for (j = 1; j <= ncol; j++)
		line = line " | " col[j]
	print line " |"
	line = "|---"
	for (j = 1; j <= ncol; j++)
		line = line "|---"
	print line "|"
	for (i = 1; i <= nrows; i++) {
		if (done[i])
			continue
		for (j = 1; j <= ncol; j++)
			c[j] = cells[i, j]
		# NAME.ipv4 with NAME.ipv6 (or the other way round) alike.
		if (match(row[i], /\.ipv[46]$/)) {
			base = substr(row[i], 1, RSTART - 1)
			fam = substr(row[i], RSTART)
			other = base (fam == ".ipv4" ? ".ipv6" : ".ipv4")
			for (k = i + 1; k <= nrows; k++)
				if (row[k] == other)
					break
			if (k <= nrows) {
				same = 1
				for (j = 1; j <= ncol; j++)
					if (cells[k, j] != c[j])
						same = 0
				if (same) {
					done[k] = 1
					print md_row(base, c, ncol)
					continue
				}
			}
		}
		print md_row(row[i], c, ncol)
	}
}

# The scenario table, tse_table.h: how many lines of each kind.
function read_counts(    path, line, k, grid, row)
{
	path = root "/" TABLE
	while ((k = (getline line < path)) > 0) {
		if (line ~ /^TSE_GRID\(/)
			grid++
		else if (line ~ /^TSE_ROW\(/)
			row++
	}
	close(path)
	if (k < 0 || !grid)
		fail("cannot read the scenarios of " TABLE)
	count["points"] = grid
	count["hand-written"] = row
	count["scenarios"] = grid + row
	count["tests"] = 2 * (grid + row)
	counted = 1
}

# TEXT, prose without code, with the number in each count marker set to
# what it counts.
function count_text(text,    out, m, kind)
{
	out = ""
	while (match(text, /<!-- count [a-z-]+ -->[0-9]*<!-- \/count -->/)) {
		m = substr(text, RSTART, RLENGTH)
		kind = m
		sub(/^<!-- count /, "", kind)
		sub(/ -->.*/, "", kind)
		if (!counted)
			read_counts()
		if (!(kind in count))
			fail("no count of " kind ": points, hand-written, scenarios or tests")
		out = out substr(text, 1, RSTART - 1) "<!-- count " kind " -->" count[kind] \
		      "<!-- /count -->"
		text = substr(text, RSTART + RLENGTH)
	}
	if (text ~ /<!-- \/?count/)
		fail("a count marker is not <!-- count KIND -->N<!-- /count -->")
	return out text
}

# LINE with its counts set; what is between backquotes is code, left alone.
function counts(line,    p, n, i, out)
{
	if (line !~ /<!-- \/?count/)
		return line
	n = split(line, p, "`")
	out = count_text(p[1])
	for (i = 2; i <= n; i++)
		out = out "`" (i % 2 ? count_text(p[i]) : p[i])
	return out
}

# The grid's points of tse_table.h (SRC), a row each: its axes' values.
function points(src,    path, line, k, entry, f, n, i, yes, nrows)
{
	path = root "/" src
	print "| test | site | sends | stages | device | source | solo | aggregate |"
	print "|---|---|---|---|---|---|---|---|"
	entry = ""
	while ((k = (getline line < path)) > 0) {
		if (line ~ /^TSE_GRID\(/)
			entry = line
		else if (entry != "")
			entry = entry " " line
		else
			continue
		if (entry !~ /\)[ \t]*$/)
			continue
		sub(/^TSE_GRID\(/, "", entry)
		sub(/\)[ \t]*$/, "", entry)
		gsub(/[ \t]+/, "", entry)
		n = split(entry, f, ",")
		if (n != 8)
			fail(src ": a TSE_GRID line without 8 fields: " entry)
		line = "| `" f[1] "`"
		for (i = 2; i <= 8; i++) {
			yes = f[i] == "true" ? "yes" : f[i] == "false" ? "no" : f[i]
			line = line " | " yes
		}
		print line " |"
		entry = ""
		nrows++
	}
	close(path)
	if (k < 0)
		fail("cannot read " src)
	if (!nrows)
		fail(src " has no TSE_GRID lines")
}

BEGIN { TABLE = "tools/testing/selftests/net/tc_skip_egress/tse_table.h" }

/^<!-- generated by make docs from / {
	if (inside)
		fail("generated table not ended before a new one")
	print
	spec = $0
	sub(/^<!-- generated by make docs from /, "", spec)
	if (!sub(/ -->$/, "", spec))
		fail("marker does not end in -->")
	want = ""
	if (spec ~ /: points$/) {
		sub(/: points$/, "", spec)
		points(spec)
		inside = 1
		next
	}
	if (index(spec, ": columns ")) {
		want = substr(spec, index(spec, ": columns ") + 10)
		spec = substr(spec, 1, index(spec, ": columns ") - 1)
	}
	table(spec, want)
	inside = 1
	next
}

/^<!-- end of generated table -->$/ {
	if (!inside)
		fail("end of a generated table that did not begin")
	inside = 0
	print
	next
}

!inside { print counts($0) }

END {
	if (!failed && inside)
		fail("generated table not ended")
}
