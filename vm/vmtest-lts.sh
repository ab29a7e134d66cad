#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite on the 6.1 LTS line (make vmtest-lts, docs/kernels.md): stock
# 6.1 and the fix backported to it (vm/kernels/fix-6.1/), built from
# Debian's linux-source-6.1, both front ends, each checked against
# vm/expected-matrix-6.1.txt.
#
#   vm/vmtest-lts.sh [-t TEST]... [--front kselftest|test_progs]...
#   vm/vmtest-lts.sh --build
#
# -t TEST    runs only TEST (egress_mirred.ipv4); repeatable.
# --front    one front end (default both, side by side: 4 VMs at once).
# --build    only the tree and the two kernels' images (vmtest.sh --build).
#
# KDIR_LTS (default build/linux-source-6.1, extracted from Debian's
# tarball, installed when missing) and VM_BUILD_LTS (default
# build/vm-6.1): the line's tree and build folder. Kernel builds hold the
# 6.12 line's lock (VM_LOCK).

# No -e: each front end's vmtest.sh status is taken (rc=1 below).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

readonly PKG=linux-source-6.1
readonly TARBALL=/usr/src/$PKG.tar.xz
KDIR_LTS=${KDIR_LTS:-$VM_ROOT/build/$PKG}
VM_BUILD_LTS=${VM_BUILD_LTS:-$VM_ROOT/build/vm-6.1}
# Debian's linux-source-6.1, installed if missing (root and apt-get).
install_source()
{
	local err

	[ -f "$TARBALL" ] && return 0
	[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null ||
		die "no $TARBALL, and $PKG cannot be installed here (needs root and apt-get)"
	log "installing $PKG"
	err=$( { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
			--no-install-recommends "$PKG" ||
		 { apt-get update -qq &&
		   DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
			--no-install-recommends "$PKG"; }; } 2>&1 >/dev/null) ||
		die "apt-get install $PKG failed: $(grep -m1 '^E:' <<< "$err")"
	[ -f "$TARBALL" ] || die "$PKG is installed but $TARBALL is not there"
}

# The 6.1 tree at KDIR_LTS: the default one is extracted once (into a
# temporary folder first, so that a broken extraction leaves no tree).
lts_tree()
{
	local parent tmp

	[ -f "$KDIR_LTS/Makefile" ] && return 0
	[ "$KDIR_LTS" = "$VM_ROOT/build/$PKG" ] ||
		die "KDIR_LTS=$KDIR_LTS is not a kernel tree"
	install_source
	parent=${KDIR_LTS%/*}
	mkdir -p "$parent"
	tmp=$(mktemp -d "$parent/.extract.XXXXXX") || die "cannot write in $parent"
	log "extracting $TARBALL (about a minute)"
	tar -C "$tmp" -xf "$TARBALL" && mv "$tmp/$PKG" "$KDIR_LTS" ||
		{ rm -rf "$tmp"; die "cannot extract $TARBALL into $parent"; }
	rmdir "$tmp"
}

# vmtest.sh on the 6.1 line: its tree, build folder and the lock of the
# 6.12 line's builds.
vmtest_lts()
{
	KDIR=$KDIR_LTS VM_BUILD=$VM_BUILD_LTS VM_LOCK=$VM_LOCK "$VM_DIR/vmtest.sh" "$@"
}

main()
{
	local line front version i build=0 rc=0
	local -a pids=()

	[ "${1:-}" = --build ] && { build=1; shift; }
	vm_parse_args "-t --front" "$@"
	lts_tree
	line=$(vm_kernel_line "$KDIR_LTS" KDIR_LTS) || exit 2
	[ "$line" = 6.1 ] ||
		die "KDIR_LTS=$KDIR_LTS is Linux $line, not 6.1 (make vmtest runs 6.12)"
	[ $build = 1 ] && { vmtest_lts --build stock fix; return; }
	# The front ends side by side (2 VMs each), each one's lines
	# printed when all are done, in order.
	version=$(make -s -C "$KDIR_LTS" kernelversion)
	mkdir -p "$VM_BUILD_LTS"
	for front in "${ARG_FRONTS[@]}"; do
		vmtest_lts --front "$front" "${ARG_TESTS[@]}" stock fix \
			> "$VM_BUILD_LTS/vmtest-$front.out" 2>&1 &
		pids+=($!)
	done
	for i in "${!ARG_FRONTS[@]}"; do
		wait "${pids[$i]}" || rc=1
		echo "6.1 line ($version), front end ${ARG_FRONTS[$i]}:"
		cat "$VM_BUILD_LTS/vmtest-${ARG_FRONTS[$i]}.out"
	done
	return $rc
}

main "$@"; exit
