#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the test_progs front end and print its verdicts the way the kselftest
# harness does (TAP with "# diagnosis:" lines), for vm/vmtest.sh's matrix:
#   mk/test_progs-tap.sh [-t egress_mirred.ipv4]...
# Rows and refusals: docs/test_progs.md, docs/checkers.md. Verdicts come
# from test_progs' JSON summary (-J), not from its text. In 6.12 the
# summary names only the failed subtests (with their logs) and counts the
# others; when the counts leave a row open, it is run again on its own.
# Exit: 0 every row passed or skipped, 1 a subtest or the test failed, 2 a
# row got no verdict (nothing ran, no JSON, test_progs crashed), or bad
# usage.

# No -e: test_progs' status is taken and judged; die() ends every error.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TP=$BUILD/test_progs/test_progs
KS=$BUILD/net/tc_skip_egress/tc_skip_egress
TEST=tc_redirect_ifb
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$TOP/scripts/lib.sh"
# Exit 1 is a failed subtest: an error of this script's is 2.
# shellcheck disable=SC2034 # read by die (scripts/lib.sh)
DIE_STATUS=2

# test_progs' name of a row: egress_mirred.ipv4 -> tc_redirect_ifb/egress_mirred_ipv4
subtest()
{
	echo "$TEST/$(echo "$1" | tr . _)"
}

# Run the subtests of rows "$@" with a JSON summary into FILE ($1) and
# read it into FILE.txt (see read_summary); the text output goes to
# FILE.log, for people.
run_test_progs()
{
	local json=$1 names rc

	shift
	names=$(for r in "$@"; do subtest "$r"; done | paste -sd,)
	(cd "${TP%/*}" && ./test_progs -a "$names" -J "$json") >"$json.log" 2>&1
	rc=$?
	[ -s "$json" ] || die "test_progs (exit $rc) wrote no JSON summary; its last lines:
$(tail -3 "$json.log")"
	read_summary "$json" >"$json.txt" || die "cannot read test_progs' JSON summary"
	# The summary counts skipped subtests but does not name them; the
	# result line test_progs prints for each subtest does. cells_of takes
	# these names only when their number is the summary's count.
	sed -n "s|^#[0-9/]* *$TEST/\(.*\)_\(ipv[46]\):SKIP\$|skip \1.\2|p" \
		"$json.log" | sort -u >>"$json.txt"
	case $rc in
	0|1)	;;
	*)	die "test_progs exited $rc$([ "$rc" -gt 128 ] && echo " (killed by SIG$(kill -l $((rc - 128)) 2>/dev/null))"): no verdict from its summary; its last lines:
$(tail -3 "$json.log")" ;;
	esac
	# A failure counted must be a failure named, and the other way round.
	if [ "$(awk '$1 == "count" { print ($4 > 0) }' "$json.txt")" = 1 ] ||
	   [ $rc = 1 ]; then
		grep -q '^fail ' "$json.txt" ||
			die "test_progs exited $rc, its summary counts $(awk '$1 == "count" { print $4 }' "$json.txt") failed tests and names no failure"
	fi
}

# From a JSON summary: "count SUCCEEDED SKIPPED FAILED" (subtests that
# passed, skips, failed tests), then a "fail ROW WORD" line per failed
# subtest and "log ROW LINE" lines with its log; a test that failed with
# no failed subtest (outside any subtest) is "fail - WORD".
read_summary()
{
	jq -r --arg t "$TEST" '
		def word: [scan("(?m)^diagnosis: *(\\S+)") | .[0]] | last // "?";
		def row: sub("_(?<v>ipv[46])$"; ".\(.v)");
		def log($r): split("\n")[] | select(. != "") | "log \($r) \(.)";
		"count \(.success_subtest) \(.skipped) \(.failed)",
		(.results[] | select(.name == $t) |
			((.subtests // [])[] | select(.failed) | (.name | row) as $r |
				"fail \($r) \(.message | word)", (.message | log($r))),
			(select(.failed and ([(.subtests // [])[] | select(.failed)] | length) == 0) |
				"fail - \(.message | word)", (.message | log("-"))))
	' "$1"
}

# "ROW CELL" for the rows "$@" of a summary FILE.txt ($1): fail:WORD for
# the failed ones; skip for those a result line names and pass for the
# others, only when the counts say that every other row skipped or passed.
# Rows left out are open.
cells_of()
{
	local txt=$1

	shift
	awk -v rows="$*" '
		BEGIN { n = split(rows, r, " ") }
		$1 == "count" { ok = $2; skipped = $3 }
		$1 == "skip" { skip[$2] = 1; nskip++ }
		$1 == "fail" && $2 != "-" && !($2 in failed) {
			failed[$2] = 1; nfailed++
			print $2, "fail:" $3
		}
		END {
			if (skipped != nskip || ok != n - nfailed - nskip)
				exit
			for (i = 1; i <= n; i++)
				if (r[i] in skip)
					print r[i], "skip"
				else if (!(r[i] in failed))
					print r[i], "pass"
		}' "$txt"
}

# ROW ($2) from the summary FILE.txt ($1) of its run on its own: pass,
# skip or fail:WORD, or nothing when it did not run.
cell_alone()
{
	awk -v r="$2" '
		$1 == "count" { ok = $2; skipped = $3 }
		$1 == "fail" && $2 == r { print r, "fail:" $3; done = 1; exit }
		END {
			if (done)
				exit
			if (ok == 1 && skipped == 0)
				print r, "pass"
			else if (ok == 0 && skipped == 1)
				print r, "skip"
		}' "$1"
}

# The log lines of ROW (or "-", the test's own), as TAP comments.
print_log()
{
	awk -v r="$1" '$1 == "log" && $2 == r && $3 != "diagnosis:" {
		sub(/^log [^ ]* /, ""); print "# " $0 }' "$TMP/logs"
}

# Why ROW skipped: the "SKIP: reason" line the subtest logs, which
# test_progs prints only with -v. A run with -v leaves failed subtests out
# of the JSON summary (6.12), so it is a run of its own, for skips only.
skip_reason()
{
	local reason

	reason=$(cd "${TP%/*}" && ./test_progs -v -a "$(subtest "$1")" 2>&1 |
		 sed -n 's/^SKIP: //p' | head -n 1)
	echo "${reason:-test_progs gave no reason}"
}

# The TAP, in the rows' order, with each failed subtest's log as comments;
# then the test's own failure, if it failed outside the subtests.
print_tap()
{
	local n=0 row cell rc=0 own

	own=$(awk '$1 == "fail" && $2 == "-" { print $3; exit }' "$TMP"/*.json.txt)
	echo "1..$(($# + (${#own} > 0)))"
	for row in "$@"; do
		n=$((n + 1))
		cell=$(awk -v r="$row" '$1 == r { print $2; exit }' "$TMP/cells")
		case $cell in
		pass)	echo "ok $n $row.verdict" ;;
		skip)	echo "ok $n $row.verdict # SKIP $(skip_reason "$row")" ;;
		fail:*)	print_log "$row"
			echo "# diagnosis: ${cell#fail:}"
			echo "not ok $n $row.verdict"
			[ $rc = 0 ] && rc=1 ;;
		*)	# No line: the matrix shows the row as missing.
			echo "# $row: no verdict, $(subtest "$row") did not run"
			rc=2 ;;
		esac
	done
	if [ -n "$own" ]; then
		print_log -
		echo "# diagnosis: $own"
		echo "not ok $((n + 1)) $TEST # failed outside any subtest"
		[ $rc = 0 ] && rc=1
	fi
	return $rc
}

main()
{
	local rows=() row

	while [ $# -gt 0 ]; do
		case $1 in
		-t)	[ $# -ge 2 ] || die "-t needs a name"
			rows+=("$2")
			shift 2 ;;
		*)	die "unknown option '$1'" ;;
		esac
	done
	[ -x "$TP" ] || die "$TP is not built (make test_progs)"
	command -v jq >/dev/null ||
		die "no jq on PATH: test_progs' JSON summary cannot be read (apt-get install jq)"
	if [ ${#rows[@]} -eq 0 ]; then
		[ -x "$KS" ] || die "$KS is not built (make suite): it lists the rows"
		mapfile -t rows < <("$KS" -l 2>&1 |
			awk -f "$TOP/vm/rows.awk" -f "$TOP/vm/list2rows.awk" | cut -d' ' -f1)
		[ ${#rows[@]} -gt 0 ] || die "$KS -l listed no tests"
	fi

	run_test_progs "$TMP/all.json" "${rows[@]}"
	grep '^log ' "$TMP/all.json.txt" >"$TMP/logs"
	cells_of "$TMP/all.json.txt" "${rows[@]}" >"$TMP/cells"
	for row in "${rows[@]}"; do
		grep -q "^$row " "$TMP/cells" && continue
		run_test_progs "$TMP/$row.json" "$row"
		grep '^log ' "$TMP/$row.json.txt" >>"$TMP/logs"
		cell_alone "$TMP/$row.json.txt" "$row" >>"$TMP/cells"
	done
	print_tap "${rows[@]}"
}

main "$@"; exit
