#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the kernel tree of a line (scripts/lines) from Debian's package.
#
#   scripts/trees.sh LINE [DIR]
#   scripts/trees.sh --tarball LINE
#
# --tarball prints the path of the package's pristine tarball, kept in
# the cache beside the .deb (vm/series.sh takes clean files from it).
# DIR is where the tree goes, by default $BUILD/linux-source-LINE; its
# path is printed. A tree already there is taken as it is. The package is
# fetched with apt-get download into TREES_CACHE (default
# /var/cache/tc-skip-egress/debs, shared by every clone) and never
# installed. A line whose suite the system's apt does not have (7.3 in
# trixie-backports) is fetched through a private sources list of the
# Debian archive the system already uses: the system's apt setup is left
# as it was. The tree is extracted through a temporary folder, so that a
# broken extraction leaves none.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${TREES_CACHE:-/var/cache/tc-skip-egress/debs}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# The Debian archive the system's apt uses (its first non-security URI),
# for the private sources list.
archive_uri()
{
	local uri

	uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '$1 == "URIs:" && $2 !~ /security/ { print $2; exit }')
	[ -n "$uri" ] || uri=$(cat /etc/apt/sources.list 2>/dev/null |
		awk '$1 == "deb" && $0 !~ /security/ {
			for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }')
	echo "${uri:-http://deb.debian.org/debian}"
}

# apt-get with the private lists and sources of suite $1 (none: the
# system's sources); the package caches are not written.
apt_for()
{
	local suite=$1 priv=$CACHE/apt-$1
	shift

	if [ -z "$suite" ]; then
		apt-get -q -o APT::Sandbox::User=root "$@"
		return
	fi
	mkdir -p "$priv/lists/partial"
	echo "deb [signed-by=$KEYRING] $(archive_uri) $suite main" > "$priv/sources.list"
	apt-get -q -o APT::Sandbox::User=root -o Dir::Etc::sourcelist="$priv/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$priv/lists" \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= "$@"
}

# The package's .deb in CACHE, downloaded if missing: with the lists as
# they are first, then once more after updating them.
fetch_deb()
{
	local pkg=$1 suite=$2 deb

	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
		die "no apt-get here to fetch $pkg: set KDIR to a kernel tree of that line"
	mkdir -p "$CACHE"
	deb=$(cd "$CACHE" && { apt_for "$suite" download "$pkg" >/dev/null 2>&1 ||
		{ apt_for "$suite" update >/dev/null 2>&1 &&
		  apt_for "$suite" download "$pkg" >/dev/null; }; } &&
		ls -t "$CACHE/${pkg}_"*.deb | head -n 1) ||
		die "apt-get download $pkg${suite:+ (suite $suite)} failed"
	echo "$deb"
}

# The package's tarball, taken out of its .deb once, into CACHE.
tarball()
{
	local line=$1 pkg deb tar

	line_known "$line" || usage 2 "no kernel line '$line' (lines: $(lines_all))"
	pkg=$(line_field "$line" 2)
	deb=$(fetch_deb "$pkg" "$(line_field "$line" 3)")
	tar=${deb%.deb}.tar.xz
	if [ ! -f "$tar" ]; then
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" > "$tar.tmp" &&
			mv "$tar.tmp" "$tar" || { rm -f "$tar.tmp"; die "cannot take $pkg.tar.xz from $deb"; }
	fi
	echo "$tar"
}

main()
{
	local line=${1:-} dir=${2:-} pkg suite deb tmp

	[ "$line" = --tarball ] && { tarball "$dir"; return; }

	line_known "$line" || usage 2 "no kernel line '$line' (lines: $(lines_all))"
	dir=${dir:-${BUILD:-$TOP/build}/linux-source-$line}
	if [ -f "$dir/Makefile" ]; then
		echo "$dir"
		return
	fi
	pkg=$(line_field "$line" 2)
	suite=$(line_field "$line" 3)
	deb=$(fetch_deb "$pkg" "$suite")
	mkdir -p "${dir%/*}"
	tmp=$(mktemp -d "${dir%/*}/.extract.XXXXXX") || die "cannot write in ${dir%/*}"
	log "extracting ${deb##*/} into $dir"
	if ! dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" |
	     tar -C "$tmp" -xJ || [ ! -f "$tmp/$pkg/Makefile" ]; then
		rm -rf "$tmp"
		die "cannot extract $pkg from $deb"
	fi
	mv "$tmp/$pkg" "$dir" && rmdir "$tmp"
	echo "$dir"
}

main "$@"
