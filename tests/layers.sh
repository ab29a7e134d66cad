#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that the scenario library is layered as its header says.
#
#   tests/layers.sh OBJDIR [HEADER]
#
# HEADER (default: the library's tse_internal.h) lists the parts, one
# "*   tse_NAME.c" line each, top layer first; each part may use only the
# parts listed before it. The uses are read from the objects in OBJDIR
# (tse_NAME.o): a symbol one of them needs and another defines. Prints
# each use that goes down the list or around it, and exits 1 if any does.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# "USER DEFINER" per symbol one object takes from another.
uses()
{
	nm -A "$1"/tse_*.o | awk '
		{ split($1, p, ":"); o = p[1]; sub(/.*\//, "", o); sub(/\.o$/, "", o) }
		$2 == "U" && $3 ~ /^tse_/ { need[o, $3] = 1; next }
		NF == 3 && $2 ~ /^[TDBR]$/ { def[$3] = o }
		END { for (k in need) { split(k, q, SUBSEP)
			if (q[2] in def && def[q[2]] != q[1]) print q[1], def[q[2]] } }' |
		sort -u
}

main()
{
	local dir=${1:-} header=${2:-}

	[ -d "$dir" ] || usage
	header=${header:-$(dirname "$0")/../tools/testing/selftests/net/tc_skip_egress/tse_internal.h}
	ls "$dir"/tse_*.o >/dev/null 2>&1 || die "no library objects in $dir"
	uses "$dir" | awk -v hdr="$header" '
		BEGIN {
			while ((getline l < hdr) > 0)
				if (match(l, /^ \*   tse_[a-z_]+\.c/)) {
					f = substr(l, 6, RLENGTH - 7)
					rank[f] = ++n
				}
			if (!n) { print "no parts listed in " hdr; bad = 1; exit }
		}
		!($1 in rank) || !($2 in rank) {
			printf "%s uses %s, which %s does not list\n", $1, $2, hdr; bad = 1; next
		}
		rank[$2] >= rank[$1] {
			printf "%s uses %s, listed after it in %s: not layered\n", $1, $2, hdr; bad = 1
		}
		END { exit bad }'
}

main "$@"; exit
