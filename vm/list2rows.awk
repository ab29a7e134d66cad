# SPDX-License-Identifier: GPL-2.0
#
# The kselftest harness's test list (SUITE -l, on stderr) in, one
# "ROW NAME" line per test out: ROW the matrix row (see rows.awk), NAME
# the harness's own name for -r. Load rows.awk first:
#   SUITE -l 2>&1 | awk -f vm/rows.awk -f vm/list2rows.awk
#
# The harness prints a block per fixture, "%-20s %-25s %s" of fixture,
# variant and test, the variants and the tests zipped side by side (not
# crossed); blocks are separated by dashes. Each test runs once per
# variant, so the names are the cross product of the two columns, in the
# order the harness runs them.

function flush(	i, j, name)
{
	if (fixture == "")
		return
	for (j = 1; nvariants == 0 && j <= ntests; j++) {
		name = fixture "." test[j]
		print tse_row(name), name
	}
	for (i = 1; i <= nvariants; i++) {
		for (j = 1; j <= ntests; j++) {
			name = fixture "." variant[i] "." test[j]
			print tse_row(name), name
		}
	}
	fixture = ""
	nvariants = ntests = 0
}

# Fields of the fixture and variant columns are padded; a longer name
# pushes the rest of the line along, so read the line word by word, telling
# an empty variant column by the blanks that stand in its place.
function columns(rest)
{
	if (rest ~ /^[^ ]/) {
		variant[++nvariants] = rest
		sub(/ .*/, "", variant[nvariants])
		rest = substr(rest, length(variant[nvariants]) + 1)
	}
	sub(/^ +/, "", rest)
	sub(/ +$/, "", rest)
	if (rest != "")
		test[++ntests] = rest
}

/^# FIXTURE/ { next }

/^-+$/ { flush(); next }

/^[^ ]/ {
	flush()
	fixture = $1
	columns(substr($0, (length($1) > 20 ? length($1) : 20) + 2))
	next
}

/^ / { columns(substr($0, 22)) }

END { flush() }
