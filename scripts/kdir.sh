#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure KDIR is a kernel tree with its libbpf and bpftool built into
# $BUILD. A default tree ($BUILD/linux-source-LINE, LINE one of
# scripts/lines) is made from Debian's package when missing
# (scripts/trees.sh); any other KDIR is taken as it is. What $BUILD holds
# was built against one tree: when KDIR names another, it is built anew.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1
build=${BUILD:?}

# The default trees are made here; the suite's own build needs nothing
# else of the package.
make_default_tree()
{
	local line=${kdir##*/linux-source-}

	[ -f "$kdir/Makefile" ] && return 0
	[ "$kdir" = "$build/linux-source-$line" ] && line_known "$line" || return 0
	"$(dirname "$0")/trees.sh" "$line" "$kdir" >/dev/null
}

# libbpf, bpftool and the suite's objects in $build come from one tree:
# the stamp names it (path and release); another empties them. With no
# stamp yet, what is there is taken as this tree's (series-check puts
# the libbpf and bpftool of the same sources there first).
forget_other_tree()
{
	local stamp=$build/.kdir now

	now="$(cd "$kdir" && pwd) $(tree_release "$kdir")"
	[ "$(cat "$stamp" 2>/dev/null || echo "$now")" = "$now" ] || {
		log "KDIR is now $now: building libbpf, bpftool and the suite anew"
		rm -rf "$build/libbpf" "$build/bpftool" "$build/net" "$build/test_progs"
	}
	mkdir -p "$build"
	echo "$now" > "$stamp"
}

make_default_tree
if [ ! -f "$kdir/Makefile" ] || [ ! -f "$kdir/tools/testing/selftests/lib.mk" ]; then
	DIE_STATUS=2 die "KDIR=$kdir is not a kernel tree with tools/testing/selftests"
fi
forget_other_tree
# libbpf and bpftool are made of the tree's tools/ and the compiler alone
# (bpftool also reads the running kernel's BTF): another clone on the
# machine copies them from TOOLS_CACHE instead of building them again, a
# minute and a half on 2 cores. The key names the tree's tools/ files
# (path, size, mtime: Debian's tarball extracts to the same ones in every
# clone), gcc, and the BTF. An empty TOOLS_CACHE turns it off.
TOOLS_CACHE=${TOOLS_CACHE-/var/cache/tc-skip-egress/tools}

tools_key()
{
	{
		(cd "$kdir" && find tools/lib tools/bpf tools/include tools/build \
			tools/scripts -type f -printf '%p %s %T@\n' | LC_ALL=C sort)
		gcc --version | head -n 1
		sha256sum </sys/kernel/btf/vmlinux 2>/dev/null
	} | sha256sum | cut -c1-16
}

build_libbpf()
{
	echo "kdir: building libbpf from $kdir"
	mkdir -p "$build/libbpf"
	make -s -C "$kdir/tools/lib/bpf" OUTPUT="$build/libbpf/" -j"$(nproc)" \
		BUILD_STATIC_ONLY=1 >/dev/null &&
	make -s -C "$kdir/tools/lib/bpf" OUTPUT="$build/libbpf/" \
		DESTDIR="$build/libbpf" prefix= install_headers >/dev/null
}

build_bpftool()
{
	echo "kdir: building bpftool from $kdir"
	mkdir -p "$build/bpftool"
	make -s -C "$kdir/tools/bpf/bpftool" OUTPUT="$build/bpftool/" \
		VMLINUX_BTF=/sys/kernel/btf/vmlinux -j"$(nproc)" >/dev/null 2>&1
}

# from_cache NAME: copy NAME (libbpf, bpftool) from the cache; to_cache
# NAME: put this build there, whole or not at all (a rename).
from_cache()
{
	[ -n "$TOOLS_CACHE" ] && [ -d "$TOOLS_CACHE/$key/$1" ] &&
		cp -a "$TOOLS_CACHE/$key/$1" "$build/" &&
		echo "kdir: $1 taken from $TOOLS_CACHE/$key"
}

to_cache()
{
	local tmp

	[ -n "$TOOLS_CACHE" ] && [ ! -d "$TOOLS_CACHE/$key/$1" ] || return 0
	mkdir -p "$TOOLS_CACHE/$key" && tmp=$(mktemp -d "$TOOLS_CACHE/$key/.tmp.XXXXXX") &&
		cp -a "$build/$1" "$tmp/" && mv -T "$tmp/$1" "$TOOLS_CACHE/$key/$1"
	rm -rf "${tmp:-}"
	return 0
}

key=$(tools_key)
if [ ! -f "$build/libbpf/libbpf.a" ]; then
	rm -rf "$build/libbpf"
	from_cache libbpf || { build_libbpf || die "cannot build libbpf from $kdir"; to_cache libbpf; }
fi
if [ ! -x "$build/bpftool/bpftool" ]; then
	rm -rf "$build/bpftool"
	from_cache bpftool || { build_bpftool || die "cannot build bpftool from $kdir"; to_cache bpftool; }
fi
