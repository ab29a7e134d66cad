#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# Is a TAP stream whole? TAP in; nothing out and exit 0 when it holds one
# plan "1..N" (N > 0), exactly N results numbered 1 to N in order, and no
# "Bail out!"; else one line saying what is wrong, and exit 1. A reader of
# the results (vm/tap2cells.awk) sees what the TAP holds; this says whether
# that is all the run had to say: a run cut off after its first test, or
# one that bailed out, holds verdicts too, and too few of them.

/^Bail out!/ {
	if (bail == "")
		bail = $0
	next
}

/^1\.\.[0-9]+/ {
	plans++
	split($1, p, /\.\./)
	planned = p[2] + 0
	next
}

/^(not )?ok [0-9]+([ \t]|$)/ {
	n++
	num = ($1 == "not") ? $3 : $2
	if (num + 0 != n && order == "")
		order = "result " n " is numbered " num
}

END {
	if (bail != "")
		why = "the run bailed out after " n + 0 " results: " bail
	else if (!plans)
		why = "no plan line (1..N): " (n ? n " results and no plan" : "no TAP at all")
	else if (plans > 1)
		why = plans " plan lines: two runs mixed, or a garbled TAP"
	else if (!planned)
		why = "the plan is 1..0: no test to run"
	else if (n != planned)
		why = "planned " planned " tests, got " n + 0 " results: cut off after test " n + 0
	else if (order != "")
		why = "results out of order: " order
	if (why == "")
		exit 0
	print why
	exit 1
}
