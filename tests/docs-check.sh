#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation agrees with the code and with what the runners check
# (docs/README.md says what it checks and what it leaves alone):
#
#   tests/docs-check.sh            all of it, on README.md and docs/*.md
#   tests/docs-check.sh FILE...    the citations, targets, markers,
#                                  functions and files of FILE... alone
#                                  (tests/selftest.sh)
#   tests/docs-check.sh --scenario-rows README GRID <NAMES
#                                  the scenario tables' check alone
#
# Run alone or sourced by tests/run.sh, whose pass and fail count its
# results.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	. "$(dirname "$0")/lib.sh"
	docs_alone=1
fi

# Targets of a kernel tree's Makefile, which docs name as run in a tree.
KERNEL_TARGETS="headers defconfig"

# An awk function for the checks below: where(), the current line as
# FILE:LINE, FILE under the repository's top (awk -v top) relative to it.
DOCS_WHERE='function where(	f) {
	f = FILENAME
	if (index(f, top "/") == 1)
		f = substr(f, length(top) + 2)
	return f ":" FNR
}'

# The repository's files, one path a line: tracked, or new and not ignored.
docs_repo_files()
{
	git -C "$TOP" ls-files --cached --others --exclude-standard 2>/dev/null ||
		(cd "$TOP" && find . -type f ! -path './.git/*' ! -path './build/*' |
		 sed 's|^\./||')
}

# docs_cites FILE...: one line per citation FILE:LINE in FILE... that
# names no file of the repository, more than one, or a line past its end.
docs_cites()
{
	local list

	list=$(mktemp)
	docs_repo_files >"$list"
	awk -v list="$list" -v top="$TOP" "$DOCS_WHERE"'
	FILENAME == list { path[++np] = $0; next }

	# The number of lines of the repository file P, counted once.
	function lines(p,	n, l) {
		if (p in nlines)
			return nlines[p]
		n = 0
		while ((getline l < (top "/" p)) > 0)
			n++
		close(top "/" p)
		return nlines[p] = n
	}

	function check(cite,	f, a, b, i, n, found, p, last, here) {
		p = ""
		f = cite
		sub(/:[0-9].*$/, "", f)
		a = substr(cite, length(f) + 2)
		b = a
		if (index(a, "-")) {
			b = substr(a, index(a, "-") + 1)
			a = substr(a, 1, index(a, "-") - 1)
		}
		# The path itself, or else every path that ends in /f.
		n = 0
		found = ""
		for (i = 1; i <= np && !n; i++)
			if (path[i] == f) {
				n = 1
				p = f
			}
		for (i = 1; i <= np && !p; i++)
			if (substr(path[i], length(path[i]) - length(f)) == "/" f) {
				n++
				found = found (n > 1 ? " " : "") path[i]
			}
		if (n == 1 && !p)
			p = found
		here = where() ": " cite ": "
		if (n == 0) {
			print here "no file " f " in the repository"
			return
		}
		if (n > 1) {
			print here f " is ambiguous (" found "): cite its path"
			return
		}
		last = lines(p)
		if (a + 0 < 1 || b + 0 < a + 0)
			print here "no such line range"
		else if (b + 0 > last)
			print here p " has " last " lines"
	}

	{
		s = $0
		while (match(s, /[A-Za-z0-9_][A-Za-z0-9_.\/+-]*\.(c|h|S|sh|awk|mk|md|txt|py|gp|config|patch|json):[0-9]+(-[0-9]+)?/)) {
			check(substr(s, RSTART, RLENGTH))
			s = substr(s, RSTART + RLENGTH)
		}
	}' "$list" "$@"
	rm -f "$list"
}

# The targets of the project's Makefile (with what it includes), one a line.
docs_make_targets()
{
	make -C "$TOP" -npqRr --no-print-directory .DEFAULT 2>/dev/null | awk '
	/^# Not a target/ { skip = 1; next }
	/^[^#\t .%$][^=]*:([^=]|$)/ && !skip {
		t = $0
		sub(/:.*/, "", t)
		n = split(t, a, " ")
		for (i = 1; i <= n; i++)
			print a[i]
	}
	{ skip = 0 }' | sort -u
}

# docs_targets FILE...: one line per make target FILE... names that is no
# target of the project's Makefile.
docs_targets()
{
	local known

	known=$(mktemp)
	{ docs_make_targets; tr ' ' '\n' <<<"$KERNEL_TARGETS"; } >"$known"
	if ! grep -qx check "$known"; then
		echo "cannot read the Makefile's targets (make -npq in $TOP)"
		rm -f "$known"
		return 1
	fi
	awk -v known="$known" -v q="'" -v top="$TOP" "$DOCS_WHERE"'
	FILENAME == known { target[$0] = 1; next }
	FNR == 1 { col = 0 }

	function want(t, how) {
		if (!(t in target))
			print where() ": " how ": no such make target"
	}

	# The targets of one piece of code: after each "make", the words that
	# are no option, assignment, file or placeholder, up to the end of
	# the command.
	function code(s,	w, n, i, j, d) {
		gsub(q "[^" q "]*" q, "Q", s)
		gsub(/"[^"]*"/, "Q", s)
		sub(/[ \t]#.*$/, "", s)
		n = split(s, w, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (w[i] != "make")
				continue
			for (j = i + 1; j <= n; j++) {
				if (w[j] ~ /^[;&|<>()]/ || w[j] ~ /[;&|<>()]$/)
					break
				if (w[j] == "-C" || w[j] == "-f" || w[j] ~ /^-[Cf]./) {
					d = w[j] == "-C" ? w[j + 1] : substr(w[j], 3)
					if (w[j] ~ /^-f/ || (d != "." && d != "")) {
						j = n + 1
						break
					}
					if (w[j] == "-C")
						j++
					continue
				}
				if (w[j] ~ /^-/ || w[j] ~ /=/ || w[j] ~ /[\/.$]/ ||
				    w[j] ~ /^[0-9]+$/ || w[j] ~ /^[A-Z_]+$/)
					continue
				if (w[j] ~ /^[a-z][a-z0-9_-]*$/)
					want(w[j], "make " w[j])
			}
			i = j
		}
	}

	# A table with a "make targets" column: each `word` in it.
	/^\|/ {
		if (col) {
			n = split($0, c, "|")
			s = c[col + 1]
			while (match(s, /`[^`]*`/)) {
				t = substr(s, RSTART + 1, RLENGTH - 2)
				want(t, "`" t "` in the make targets column")
				s = substr(s, RSTART + RLENGTH)
			}
		} else {
			n = split($0, c, "|")
			for (i = 2; i < n; i++)
				if (c[i] ~ /^ *make targets? *$/)
					col = i - 1
		}
	}
	!/^\|/ { col = 0 }

	# Indented code: the line; elsewhere the `code` spans (an unclosed
	# one runs to the end of the line).
	/^(    |\t)/ { code($0); next }
	{
		n = split($0, p, "`")
		for (i = 2; i <= n; i += 2)
			code(p[i])
	}' "$known" "$@"
	rm -f "$known"
}

# docs_markers FILE...: one line per comment that says "generated" but is
# neither marker scripts/docs.awk reads, and per count marker outside
# code that is not <!-- count KIND -->N<!-- /count -->.
docs_markers()
{
	awk -v top="$TOP" "$DOCS_WHERE"'
	/^[ \t]*<!--.*generated/ &&
	     !/^<!-- generated by make docs from [^ ]+(: columns [^>]+|: points)? -->$/ &&
	     !/^<!-- end of generated table -->$/ {
		print where() ": not a marker make docs reads: " $0
	}
	/<!-- \/?count/ {
		n = split($0, p, "`")
		for (i = 1; i <= n; i += 2) {
			s = p[i]
			gsub(/<!-- count (points|hand-written|scenarios|tests) -->[0-9]+<!-- \/count -->/, "", s)
			if (s ~ /<!-- \/?count/)
				print where() ": not a count make docs reads: " $0
		}
	}' "$@"
}

# The files of the scenario library, its BPF programs and its front ends.
docs_library_files()
{
	local s=$TOP/tools/testing/selftests

	ls "$s"/net/tc_skip_egress/*.[ch] "$s"/net/tc_skip_egress/tc_skip_egress.c \
	   "$s"/bpf/progs/test_tc_redirect_ifb.[ch] "$s"/bpf/prog_tests/tc_redirect_ifb.c \
	   2>/dev/null | sort -u
}

# docs_functions FILE...: one line per function FILE... names in
# backquotes, `tse_NAME()` or `NAME_rule()` (NAME in lower case: upper
# case is a placeholder), or rule table, `NAME_rules`, that the library
# does not define: no line of its sources that starts with code (a
# definition, a prototype, a #define) has NAME( or NAME[ on it.
docs_functions()
{
	local defined

	defined=$(mktemp)
	docs_library_files | xargs awk '
	/^[A-Za-z_#]/ {
		s = $0
		while (match(s, /[A-Za-z_][A-Za-z0-9_]*[(\[]/)) {
			print substr(s, RSTART, RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
		}
	}' | sort -u >"$defined"
	if ! grep -qx tse_grid_judge "$defined"; then
		echo "cannot read the library's functions (tools/testing/selftests/net/tc_skip_egress/)"
		rm -f "$defined"
		return 1
	fi
	awk -v defined="$defined" -v top="$TOP" "$DOCS_WHERE"'
	FILENAME == defined { fn[$0] = 1; next }
	{
		n = split($0, p, "`")
		for (i = 2; i <= n; i += 2) {
			s = " " p[i]
			while (match(s, /[^A-Za-z0-9_](tse_[a-z0-9_]+|[a-z0-9_]+_rule)\(/)) {
				f = substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
				if (!(f in fn))
					print where() ": `" f "()`: no such function in the library"
			}
			s = " " p[i] " "
			while (match(s, /[^A-Za-z0-9_][a-z0-9_]+_rules(\[\])?[^A-Za-z0-9_(]/)) {
				f = substr(s, RSTART + 1, RLENGTH - 2)
				sub(/\[\]$/, "", f)
				s = substr(s, RSTART + RLENGTH - 1)
				if (!(f in fn))
					print where() ": `" f "`: no such rule table in the library"
			}
		}
	}' "$defined" "$@"
	rm -f "$defined"
}

# docs_files FILE...: one line per file of the project FILE... names in
# backquotes that the repository does not have: a path under one of its
# own folders (vm/, tests/, docs/, mk/, bench/, .ci/, the suite's folder;
# scripts/*.sh, *.awk and *.py: a kernel tree has a scripts/ of its own)
# or a library file by its name (tse_*.c, tse_*.h).
# Paths with a placeholder (upper case, *, $, ...) are patterns, not names.
docs_files()
{
	local list

	list=$(mktemp)
	docs_repo_files >"$list"
	awk -v list="$list" -v top="$TOP" "$DOCS_WHERE"'
	FILENAME == list {
		have[$0] = 1
		n = split($0, a, "/")
		base[a[n]] = 1
		next
	}
	function named(f) {
		if (f ~ /[A-Z*$]|\.\.\./)
			return 1
		sub(/\/$/, "", f)
		if (f ~ /^tse_[a-z0-9_]+\.[ch]$/)
			return f in base
		for (p in have)
			if (p == f || index(p, f "/") == 1)
				return 1
		return 0
	}
	{
		n = split($0, q, "`")
		for (i = 2; i <= n; i += 2) {
			f = q[i]
			sub(/:[0-9].*$/, "", f)
			if (f !~ /^(vm|tests|docs|mk|bench|\.ci)\/[A-Za-z0-9_.\/*$-]*$/ &&
			    f !~ /^scripts\/[A-Za-z0-9_.-]*\.(sh|awk|py)$/ &&
			    f !~ /^tools\/testing\/selftests\/(net\/tc_skip_egress|bpf\/progs\/test_tc_redirect_ifb|bpf\/prog_tests\/tc_redirect_ifb)/ &&
			    f !~ /^tse_[a-z0-9_]+\.[ch]$/)
				continue
			if (!named(f))
				print where() ": `" f "`: no such file in the repository"
		}
	}' "$list" "$@"
	rm -f "$list"
}

# docs_grid_names GRID: one line per axis value or observer that GRID's
# axes table or observers table and the code do not both have. An axis
# value is an enumerator of tse_point.h less its prefix (TSE_UPPER_ for
# the device axis; TSE_SITE_NONE is a hand-written scenario's), an
# observer a name in observers[] of tse_grid.c.
docs_grid_names()
{
	local src=$TOP/tools/testing/selftests/net/tc_skip_egress

	{
		sed -n 's/^[[:space:]]*TSE_\(UPPER\|SITE\|SENDS\|STAGES\|SOURCE\)_\([A-Z_]*\),.*/\1 \2/p' \
			"$src/tse_point.h" | grep -v -e ' COUNT$' -e '^SITE NONE$' |
			sed 's/^UPPER/device/; s/^SITE/site/; s/^SENDS/sends/; s/^STAGES/stages/; s/^SOURCE/source/' |
			tr 'A-Z' 'a-z' | awk '{ print "code axis " $1 " " toupper($2) }'
		sed -n 's/.*\[OBS_[A-Z0-9_]*\] = { "\([a-z0-9-]*\)".*/code observer \1/p' "$src/tse_grid.c"
	} | awk -v grid="$1" '
	FNR == NR && FILENAME == grid { exit 2 }
	FILENAME != grid { k = $2 " " $3; if (NF > 3) k = k " " $4; code[k] = 1; next }
	/^## / { part = $0 }
	part == "## The axes" && /^\| (site|sends|stages|device|source) \|/ {
		split($0, c, "|")
		axis = c[2]
		gsub(/ /, "", axis)
		n = split(c[3], v, "`")
		for (i = 2; i <= n; i += 2)
			doc["axis " axis " " v[i]] = FNR
	}
	part == "## The observers" && /^\| `/ {
		split($0, c, "|")
		n = split(c[2], v, "`")
		for (i = 2; i <= n; i += 2)
			doc["observer " v[i]] = FNR
	}
	END {
		for (k in doc)
			if (!(k in code))
				print grid ":" doc[k] ": " k ": not in the code (tse_point.h, observers[])"
		for (k in code)
			if (!(k in doc))
				print grid ": " k ": in the code, not in its table"
	}' - "$1" || echo "cannot read the axes and observers of the code ($src)"
}

# docs_result CHECK PASS FAIL FILE...: CHECK (a function above) on FILE...
# is a pass saying PASS when it prints nothing, else a fail saying FAIL
# with what it printed.
docs_result()
{
	local check=$1 ok=$2 bad=$3 out

	shift 3
	out=$("$check" "$@")
	if [ -z "$out" ]; then
		pass "$ok"
	else
		fail "$bad:"
		sed 's/^/# /' <<<"$out" | head -20
	fi
}

# docs_refs FILE...: the citations, targets, markers, functions and files
# of FILE..., each a result.
docs_refs()
{
	docs_result docs_cites "every FILE:LINE the docs cite is a line of a repository file" \
		"the docs cite lines that do not exist" "$@"
	docs_result docs_targets "every make target the docs name is a target of the Makefile" \
		"the docs name make targets that do not exist" "$@"
	docs_result docs_markers "every generated-table or count comment in the docs is a marker make docs reads" \
		"the docs have generated-table or count comments make docs does not read" "$@"
	docs_result docs_functions "every tse_*() and *_rule() function and *_rules table the docs name is the library's" \
		"the docs name functions the library does not have" "$@"
	docs_result docs_files "every file of the project the docs name is in the repository" \
		"the docs name files the repository does not have" "$@"
}

# docs_scenario_rows README GRID <names: what is wrong, one line each. A
# test is a row of README's "## The scenarios" table or of GRID's "## The
# points" table, once; each row is a test of tse_table.h.
docs_scenario_rows()
{
	awk '
		FNR == 1 { f++ }
		f == 1 { table[$1] = 1; next }
		/^## The (scenarios|points)/ { on = 1; next }
		on && /^## / { on = 0 }
		on && /^\| `[a-z0-9_]+` \|/ {
			split($0, c, "`")
			if (c[2] in doc)
				print "two rows for " c[2]
			doc[c[2]] = FILENAME
		}
		END {
			for (s in table)
				if (!(s in doc))
					print "no row for " s
			for (s in doc)
				if (!(s in table))
					print doc[s] " row " s " is no test of tse_table.h"
		}' - "$@"
}

docs_check()
{
	local tmp out

	if out=$("$TOP/scripts/docs.sh" --check 2>&1); then
		pass "generated tables in README.md and docs/ equal their sources (make docs)"
	else
		fail "generated tables differ from their sources (run make docs):"
		sed 's/^/# /' <<<"$out" | head -40
	fi

	# A stale copy: the first generated cell of docs/vm.md changed by hand.
	tmp=$(mktemp -d)
	awk '/^<!-- generated by make docs/ { on = 1 }
	     on && /^\| [a-z]/ && !done { sub(/\| [^|]* \|$/, "| stale |"); done = 1 }
	     { print }' "$TOP/docs/vm.md" > "$tmp/vm.md"
	if cmp -s "$TOP/docs/vm.md" "$tmp/vm.md"; then
		fail "could not make a stale copy of docs/vm.md's generated table"
	elif "$TOP/scripts/docs.sh" --check "$tmp/vm.md" >/dev/null 2>&1; then
		fail "docs.sh --check passed a table edited by hand"
	else
		pass "docs.sh --check fails on a table edited by hand"
	fi
	rm -rf "$tmp"

	# scripts/scenarios.sh failing would leave the table empty: README's
	# lines would count as the table.
	if ! tmp=$("$TOP/scripts/scenarios.sh" 2>&1); then
		fail "the scenario tables: scripts/scenarios.sh failed: $tmp"
		tmp=
	fi
	[ -n "$tmp" ] && out=$(docs_scenario_rows "$TOP/README.md" "$TOP/docs/grid.md" <<<"$tmp")
	if [ -z "$tmp" ]; then
		:
	elif [ -z "$out" ]; then
		pass "README's and docs/grid.md's scenario tables list the tests of tse_table.h"
	else
		fail "the docs' scenario tables and tse_table.h differ: $(echo $out)"
	fi

	docs_result docs_grid_names "docs/grid.md's axes and observers tables name the code's values and observers" \
		"docs/grid.md's axes or observers tables and the code differ" "$TOP/docs/grid.md"
	docs_refs "$TOP/README.md" "$TOP"/docs/*.md
}

if [ -n "${docs_alone:-}" ] && [ "${1:-}" = --scenario-rows ]; then
	shift
	out=$(docs_scenario_rows "$@")
	[ -z "$out" ] || { echo "$out"; exit 1; }
elif [ -n "${docs_alone:-}" ] && [ $# -gt 0 ]; then
	docs_refs "$@"
	summary
elif [ -n "${docs_alone:-}" ]; then
	docs_check
	summary
else
	docs_check
fi
