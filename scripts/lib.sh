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

log()
{
	echo "${0##*/}: $*" >&2
}

die()
{
	log "$@"
	exit "${DIE_STATUS:-1}"
}
