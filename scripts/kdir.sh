#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure KDIR is a kernel tree with its libbpf and bpftool built into
# $BUILD; extract Debian's linux-source-6.12 when KDIR is the default.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1
build=${BUILD:?}
tarball=/usr/src/linux-source-6.12.tar.xz

if [ ! -f "$kdir/Makefile" ] && [ "$kdir" = "$build/linux-source-6.12" ]; then
	echo "kdir: extracting $tarball"
	mkdir -p "$build"
	tar -C "$build" -xf "$tarball"
fi
if [ ! -f "$kdir/Makefile" ] || [ ! -f "$kdir/tools/testing/selftests/lib.mk" ]; then
	DIE_STATUS=2 die "KDIR=$kdir is not a kernel tree with tools/testing/selftests"
fi
if [ ! -f "$build/libbpf/libbpf.a" ]; then
	echo "kdir: building libbpf from $kdir"
	mkdir -p "$build/libbpf"
	make -s -C "$kdir/tools/lib/bpf" OUTPUT="$build/libbpf/" -j"$(nproc)" \
		BUILD_STATIC_ONLY=1 >/dev/null
	make -s -C "$kdir/tools/lib/bpf" OUTPUT="$build/libbpf/" \
		DESTDIR="$build/libbpf" prefix= install_headers >/dev/null
fi
if [ ! -x "$build/bpftool/bpftool" ]; then
	echo "kdir: building bpftool from $kdir"
	mkdir -p "$build/bpftool"
	make -s -C "$kdir/tools/bpf/bpftool" OUTPUT="$build/bpftool/" \
		VMLINUX_BTF=/sys/kernel/btf/vmlinux -j"$(nproc)" >/dev/null 2>&1
fi
