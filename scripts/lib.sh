# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What every shell script of the project shares; source it, do not run it.
#
#   log MESSAGE...   "SCRIPT: MESSAGE" on stderr
#   die MESSAGE...   log it and exit with $DIE_STATUS, 1 by default. Where
#                    exit 1 means "a test failed" (test_progs-tap.sh) or a
#                    caller reads the code (kselftest's 4 is a skip), set
#                    DIE_STATUS, for the script or for one call:
#                    DIE_STATUS=4 die "needs root".
#   usage [STATUS [WHY]]
#                    the script's synopsis on stderr ("SCRIPT: WHY" first,
#                    if given) and exit STATUS, 2 by default: the header
#                    comment from its first "#   " line that names the
#                    script, to the paragraph after it, which says what
#                    the options do.

log()
{
	echo "${0##*/}: $*" >&2
}

die()
{
	log "$@"
	exit "${DIE_STATUS:-1}"
}

usage()
{
	[ -z "${2:-}" ] || log "$2"
	awk -v me="${0##*/}" '
		!on && /^#   / && index($0, me) { on = 1 }
		on && /^#$/ && ++blank == 2 { exit }
		on' "$0" | sed 's/^# \{0,1\}//' >&2
	exit "${1:-2}"
}

# The kernel lines (scripts/lines): lines_all prints them, newest first;
# line_first the default one; line_known LINE tells whether LINE is one;
# line_field LINE N prints column N (2: the package, 3: the apt suite).
LINES_FILE=$(dirname "${BASH_SOURCE[0]}")/lines

lines_all()
{
	awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = " " } END { print "" }' "$LINES_FILE"
}

# The stable lines: all but the first.
lines_stable()
{
	awk '!/^#/ && NF && n++ { printf "%s%s", sep, $1; sep = " " } END { print "" }' "$LINES_FILE"
}

line_first()
{
	awk '!/^#/ && NF { print $1; exit }' "$LINES_FILE"
}

line_known()
{
	[ -n "$1" ] && awk -v l="$1" '!/^#/ && $1 == l { f = 1 } END { exit !f }' "$LINES_FILE"
}

line_field()
{
	awk -v l="$1" -v n="$2" '!/^#/ && $1 == l { print $n; exit }' "$LINES_FILE"
}

# The line ("7.3") and the release ("7.3.4") of the kernel tree at $1,
# from its top Makefile.
tree_release()
{
	awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { print v "." p "." $2; exit }' "$1/Makefile" 2>/dev/null
}

tree_line()
{
	local r

	r=$(tree_release "$1")
	echo "${r%.*}"
}
