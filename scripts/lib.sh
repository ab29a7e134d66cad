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
