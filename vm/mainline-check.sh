#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Do the series' kernel patches apply to another tree's files? What it
# does and what it found: docs/kernels.md, "Mainline".
#
#   vm/mainline-check.sh DIR [PATCHDIR]
#
# DIR holds the files the patches touch at their paths in the tree (a
# whole tree, or only those files); PATCHDIR is vm/kernels/fix by default.
# Exits 1 when the series stops, needs fuzz (a context line it carries is
# not the tree's: it was not made against this tree), or a file it touches
# is missing from DIR. An offset is no failure.

# No -e: git apply's and patch's statuses are taken and reported.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
# Exit 1 says the series stops; a usage error or no patches is 2.
# shellcheck disable=SC2034 # read by die (scripts/lib.sh)
DIE_STATUS=2
tmp=

# The paths the patches in "$@" touch, one a line.
touched()
{
	sed -n 's|^+++ b/||p' "$@" | sort -u
}

main()
{
	local dir=${1:-} pdir=${2:-$(dirname "$0")/kernels/fix} p f out rc=0
	local -a patches

	[ -d "$dir" ] || die "usage: $0 DIR [PATCHDIR] (DIR: a tree, or its touched files)"
	mapfile -t patches < <(compgen -G "$pdir/*.patch" | sort | xargs -r realpath)
	[ ${#patches[@]} -gt 0 ] || die "no patches in $pdir"
	# A copy of the touched files outside any git work tree: git apply
	# inside one takes paths from its top, not from DIR.
	tmp=$(mktemp -d) || exit 2
	trap 'rm -rf "$tmp"' EXIT
	for f in $(touched "${patches[@]}"); do
		[ -f "$dir/$f" ] || { echo "missing in $dir: $f"; rc=1; continue; }
		mkdir -p "$tmp/pristine/${f%/*}"
		cp "$dir/$f" "$tmp/pristine/$f"
	done
	for p in "${patches[@]}"; do
		if out=$(cd "$tmp/pristine" && git apply --check --verbose "$p" 2>&1); then
			echo "alone: applies: ${p##*/}"
		else
			# Not an error by itself: a patch may need the ones before it.
			echo "alone: does not apply: ${p##*/}: $(grep -m1 -E 'error|does not' <<< "$out")"
		fi
	done
	cp -a "$tmp/pristine" "$tmp/series"
	for p in "${patches[@]}"; do
		if ! out=$(patch -d "$tmp/series" -p1 --batch --dry-run < "$p" 2>&1) ||
		   ! patch -d "$tmp/series" -p1 --batch --quiet < "$p" >/dev/null 2>&1; then
			echo "series: stops at ${p##*/}: $(grep -m1 -iE 'fail|error' <<< "$out")"
			return 1
		fi
		if grep -q -i 'fuzz' <<< "$out"; then
			echo "series: ${p##*/} needs fuzz: $(grep -m1 -i fuzz <<< "$out")"
			rc=1
		fi
	done
	if [ $rc = 0 ]; then
		echo "series: all ${#patches[@]} patches apply in order, with no fuzz"
	else
		echo "series: all ${#patches[@]} patches apply in order, but not as they are"
	fi
	return $rc
}

main "$@"; exit
