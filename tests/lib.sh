#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the project's own tests: run the suite, read its TAP, and
# look for anything it left behind.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUITE=${SUITE:-$TOP/build/net/tc_skip_egress/tc_skip_egress}
BPFTOOL=${BPFTOOL:-$TOP/build/bpftool/bpftool}
PASSED=0
FAILED=0

pass()
{
	PASSED=$((PASSED + 1))
	echo "ok - $*"
}

fail()
{
	FAILED=$((FAILED + 1))
	echo "not ok - $*"
}

# "ROW NAME" per test the suite lists (SUITE -l): ROW is the matrix row
# (egress_mirred.ipv4), NAME the harness's name for -r. The suite's own
# list is the one list of scenarios; vm/rows.awk maps either harness
# naming to rows.
suite_tests()
{
	"$SUITE" -l 2>&1 | awk -f "$TOP/vm/rows.awk" -f "$TOP/vm/list2rows.awk"
}

# Every row the suite must give a verdict for.
expected_tests()
{
	suite_tests | cut -d' ' -f1
}

# The rows the suite lists that have no line in the verdicts FILE, one a
# line. A suite that lists nothing fails: it cannot have covered anything.
# (FILENAME, not NR == FNR: an empty FILE would make every listed row
# count as a verdict.)
missing_verdicts()
{
	local rows

	rows=$(expected_tests)
	if [ -z "$rows" ]; then
		echo "(the suite lists no tests: $SUITE -l)"
		return 1
	fi
	awk 'FILENAME == ARGV[1] { got[$1] = 1; next } !($1 in got)' "$1" - <<<"$rows"
}

# The harness's name of ROW, for SUITE -r.
harness_name()
{
	suite_tests | awk -v row="$1" '$1 == row { print $2 }'
}

# "ROW CELL" per test (pass, skip, fail:WORD) from the harness's TAP on
# stdin, read as the VM matrix reads it.
tap_verdicts()
{
	awk -f "$TOP/vm/rows.awk" -f "$TOP/vm/tap2cells.awk"
}

# Two verdict lists agree: equal, and not empty (two runs that gave
# nothing agree on nothing).
same_verdicts()
{
	[ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"
}

# VALUE is a number of seconds below LIMIT; an empty or garbled time is
# not within any limit.
within_limit()
{
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] &&
		awk -v s="$1" -v l="$2" 'BEGIN { exit !(s + 0 < l + 0) }'
}

# "hold netns KEY PID" for every holder of a network namespace (KEY its
# net:[inode]): a process in it, with a descriptor on it, or with a bind
# mount of it in its mount namespace. A namespace with no name in "ip
# netns" is still here.
netns_holders()
{
	find /proc/[0-9]*/ns /proc/[0-9]*/fd -maxdepth 1 -lname 'net:*' \
		-printf 'hold netns %l %h\n' 2>/dev/null |
		awk '{ split($4, p, "/"); print $1, $2, $3, p[3] }'
	grep -H ' - nsfs ' /proc/[0-9]*/mountinfo 2>/dev/null |
		awk '$4 ~ /^net:/ { split($1, p, "/"); print "hold netns", $4, p[3] }'
}

# The BPF objects that bpftool makes to answer "show" (its pid_iter
# skeleton: program "iter", maps "pid_iter.*") and libbpf's feature probes
# ("libbpf_*"): freed after an RCU grace period once bpftool exits, so one
# look can see those of the look before. On a slow guest (6.1 under TCG)
# every look saw its predecessor's, and the leftover check never settled.
OBSERVER_OBJECTS='^(prog iter|(prog|map) (pid_iter[.].*|libbpf_.*))$'

# What the suite could leave behind on this host, one thing a line:
# network namespaces, the root namespace's devices, BPF programs, links
# and maps by id (but for the observer's own: OBSERVER_OBJECTS). Fails, saying why on stderr, when it cannot see them
# all: without bpftool (missing, failing, or output jq cannot read) or
# without jq the BPF objects are unseen, and "nothing left" would mean
# nothing.
system_state()
{
	local what out links objs

	netns_holders | cut -d' ' -f2,3 | sort -u
	links=$(ip -o link show) || { echo "cannot list devices: ip -o link show failed" >&2; return 1; }
	# A tunnel module that a probe loads (ipip, ip6_tunnel on a modular
	# kernel) makes its fallback device in every namespace, this one
	# included, until it is unloaded: no test's leftover.
	awk -F': ' '{ sub(/@.*/, "", $2) }
		$2 !~ /^(tunl0|ip6tnl0|sit0|gre0|gretap0|erspan0|ip6gre0|ip_vti0|ip6_vti0)$/ {
			print "dev", $1, $2
		}' <<<"$links"
	if [ ! -x "$BPFTOOL" ]; then
		echo "no bpftool at $BPFTOOL: BPF objects cannot be seen (make suite builds it)" >&2
		return 1
	fi
	if ! command -v jq >/dev/null; then
		echo "no jq on PATH: bpftool's lists cannot be read, BPF objects cannot be seen (apt-get install jq)" >&2
		return 1
	fi
	for what in prog link map; do
		if ! out=$("$BPFTOOL" -j "$what" show 2>/dev/null) || [ -z "$out" ]; then
			echo "bpftool failed, or printed nothing: $BPFTOOL -j $what show" >&2
			return 1
		fi
		objs=$(jq -r --arg w "$what" 'if type == "array" then .[] | "\($w) \(.id) \(.name // .type)"
			else error("not a list") end' <<<"$out" 2>/dev/null) || {
			echo "bpftool gave no list jq can read: $BPFTOOL -j $what show: $(head -c 100 <<<"$out")" >&2
			return 1
		}
		[ -n "$objs" ] || continue
		awk -v skip="$OBSERVER_OBJECTS" '{ o = $1 " " $3 } o !~ skip' <<<"$objs"
	done
}

# Snapshot the state into FILE, before the suite runs. Fails when the
# state cannot be read whole (the reason on stderr).
snapshot()
{
	local state

	state=$(system_state) || return 1
	sort <<<"$state" >"$1" && grep -q '^netns ' "$1"
}

# What is there now and was not in the snapshot FILE. Without a usable
# snapshot, or a view of the system, everything is suspect: say so, and
# fail (2).
leftovers()
{
	local now

	if ! grep -qs '^netns ' "$1"; then
		echo "no snapshot in '$1' to compare with"
		return 2
	fi
	# Its last line, on failure, says why.
	now=$(system_state 2>&1) ||
		{ echo "cannot read the system state: $(tail -n 1 <<<"$now")"; return 2; }
	comm -13 "$1" - <<<"$(sort <<<"$now")"
}

# "hold KIND KEY PID" for every holder of a network namespace and of a
# BPF program, map or link (KEY its id; a process with a descriptor on
# it: bpftool's "pids").
holders()
{
	local what

	netns_holders
	[ -x "$BPFTOOL" ] || return 0
	for what in prog map link; do
		"$BPFTOOL" -j "$what" show 2>/dev/null |
			jq -r --arg w "$what" '.[]? | .id as $id | (.pids // [])[] |
				"hold \($w) \($id) \(.pid)"' 2>/dev/null
	done
}

# Each "hold WHAT KEY PID" line with the holder's command (blanks as _)
# and session added. The holder may exit while it is read, a read error
# that awk's getline makes fatal: then "? -".
owned()
{
	local hold what key pid comm st

	while read -r hold what key pid; do
		comm=$(cat "/proc/$pid/comm" 2>/dev/null) || comm=?
		comm=${comm// /_}
		st=$(cat "/proc/$pid/stat" 2>/dev/null) || st=
		# After "COMM) ": state, ppid, pgrp, session.
		read -r _ _ _ st _ <<< "${st##*) }"
		echo "$hold $what $key $pid ${comm:-?} ${st:--}"
	done
}

# The session of process $1.
session_of()
{
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f4
}

# The leftover lines on stdin, each with who holds it ("comm[pid]"), and
# whose it is: "ours LINE" when a process of the sessions SIDS ($1, a
# list) holds it, or nothing does and it is a BPF object (pinned, or held
# by the kernel: a tc filter on a root device; or on its way out);
# "foreign LINE" when only processes of other sessions hold it: someone
# else's run on this machine, not something a run of ours left; "gone
# LINE" for a namespace nothing holds any more: only processes held it
# (that is how it was listed), so it is being freed. Namespace inodes are
# reused at once: an inode seen again may be another namespace, so a
# namespace is judged by its holders at this look only.
attribute_leftovers()
{
	{ holders | owned; cat; } | awk -v sids="$1" '
		BEGIN {
			n = split(sids, s, " ")
			for (i = 1; i <= n; i++)
				our[s[i]] = 1
		}
		$1 == "hold" {
			key = $2 SUBSEP $3
			if ((key, $4) in seen)
				next
			seen[key, $4] = 1
			who[key] = who[key] " " $5 "[" $4 "]"
			if ($6 in our)
				mine[key] = 1
			held[key] = 1
			next
		}
		{
			key = $1 SUBSEP $2
			if (key in mine)
				whose = "ours"
			else if (key in held)
				whose = "foreign"
			else
				whose = ($1 == "netns") ? "gone" : "ours"
			print whose, $0 ", held by" (key in held ? who[key] : " nothing any more")
		}'
}

# Namespaces and BPF objects die asynchronously after the last reference
# goes: wait for the leftovers to go, bounded ($LEFTOVER_WAIT s, 10);
# print what stays, with who holds it. One look takes about a second here
# (bpftool), hence a deadline. What counts is ours (attribute_leftovers,
# the sessions SID... given after FILE counted as this script's) and there
# at every look since the first: on a shared machine others' runs come and
# go meanwhile (docs/stress.md).
wait_no_leftovers()
{
	local snap=$1 end left sids kept now

	shift
	sids="$(session_of $$) $*"
	end=$((SECONDS + ${LEFTOVER_WAIT:-10}))
	kept=
	while :; do
		left=$(leftovers "$snap")
		case $?,$left in
		0,)	return 0 ;;
		2,*)	echo "$left"; return 1 ;;
		esac
		now=$(attribute_leftovers "$sids" <<<"$left" | sed -n 's/^ours //p')
		if [ -z "$kept" ]; then
			kept=$now
		else
			kept=$(awk 'FILENAME == ARGV[1] { was[$1, $2] = 1; next }
				    ($1, $2) in was' <(echo "$kept") - <<<"$now")
		fi
		[ -z "$kept" ] && return 0
		[ "$SECONDS" -ge "$end" ] && break
		sleep 0.1
	done
	echo "$kept"
	return 1
}

# Does the kernel release $1 (default: the running one) come before 6.4?
before_6_4()
{
	local v=${1:-$(uname -r)} major minor

	major=${v%%.*}
	minor=${v#*.}
	minor=${minor%%[!0-9]*}
	[[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ ]] || return 1
	[ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 4 ]; }
}

# The ingress controls that do not hold on kernel release KVER, from the
# verdicts FILE and the TAP they came from: "ROW CELL" a line, nothing
# when they hold. ingress_mirred passes on every kernel. So does
# ingress_bpf_redirect since 6.4; before it (6.1 LTS, Debian 12's
# default kernel) bpf_redirect() does not mark packets redirected
# (mainline 59e498a3289f, v6.4), ifb drops them, and the test fails as
# dropped-by-ifb, for that mark and no other cause. A 6.1 with that
# commit backported (vm/kernels/fix-6.1/) passes. The line is told from
# the release, not from the behaviour: a control that took its
# expectation from what it observed could not fail.
controls_bad()
{
	local verdicts=$1 tap=$2 kver=$3 bad

	bad=$(grep -E '^ingress_(mirred|bpf_redirect)\.' "$verdicts" | grep -v ' pass$')
	before_6_4 "$kver" || { [ -z "$bad" ] || echo "$bad"; return; }
	bad=$(grep -vE '^ingress_bpf_redirect\.ipv[46] fail:dropped-by-ifb$' <<<"$bad")
	[ -n "$bad" ] && echo "$bad"
	if grep -q '^ingress_bpf_redirect\..* fail:' "$verdicts" &&
	   ! grep -q 'ingress_bpf_redirect:.*did not set the redirected bit' "$tap"; then
		echo "ingress_bpf_redirect dropped-by-ifb, but not for the missing redirected mark"
	fi
	return 0
}

summary()
{
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}
