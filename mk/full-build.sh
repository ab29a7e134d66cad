#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tree's own BPF selftests build, no custom runner: test_progs with
# tc_redirect_ifb in it, as BPF CI builds it (docs/full-build.md says what
# it needs and why, and the tree's defects it works around).
#
#   mk/full-build.sh [-j N]
#
# Builds in FULL_DIR (build/bpf-full); prints the path of the built
# test_progs on stdout.
#
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FULL_DIR=${FULL_DIR:-$ROOT/build/bpf-full}
TREE=$FULL_DIR/linux-source-6.12
OUT=$FULL_DIR/out
# Debian's pristine 6.12 tarball, kept in the cache by scripts/trees.sh.
TARBALL=
LLVM_TOOLS=(clang-19 llc-19 llvm-strip-19 ld.lld-19 pahole)
jobs=$(nproc)

. "$ROOT/scripts/lib.sh"

# clang 14 (Debian 12's default) is too old for 6.12's BPF programs;
# pahole makes the test modules' BTF.
install_tools()
{
	local t

	for t in "${LLVM_TOOLS[@]}"; do
		command -v "$t" >/dev/null && continue
		log "installing clang-19 llvm-19 lld-19 pahole"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			-o DPkg::Lock::Timeout=600 clang-19 llvm-19 lld-19 pahole >/dev/null ||
			die "apt-get install clang-19 llvm-19 lld-19 pahole failed"
		return
	done
}

# A private copy of the 6.12 tree with the suite overlaid (and
# scripts/tree-edits.sh's edits). The overlay is reapplied every time, so
# the build sees the checkout's current sources.
prepare_tree()
{
	if [ ! -f "$TREE/Makefile" ]; then
		TARBALL=$("$ROOT/scripts/trees.sh" --tarball 6.12) ||
			die "no 6.12 tarball"
		log "extracting $TARBALL into $FULL_DIR"
		mkdir -p "$FULL_DIR"
		tar -C "$FULL_DIR" -xf "$TARBALL" || die "cannot extract $TARBALL"
	fi
	make -s -C "$ROOT" overlay KDIR="$TREE" >&2 || die "make overlay KDIR=$TREE failed"
	drop_broken_test
}

# Debian's linux-source-6.12 (6.12.117) ships prog_tests/bpf_attr_size.c,
# a stable backport, without the BPF program it includes
# (progs/cgroup_skb_direct_packet_access.c): as shipped, the tree's
# test_progs does not build ("cgroup_skb_direct_packet_access.skel.h: No
# such file or directory"). Move that one test aside in the private copy.
drop_broken_test()
{
	local bpf=$TREE/tools/testing/selftests/bpf

	[ -f "$bpf/prog_tests/bpf_attr_size.c" ] || return 0
	[ -f "$bpf/progs/cgroup_skb_direct_packet_access.c" ] && return 0
	log "moving prog_tests/bpf_attr_size.c aside: its BPF program is not in the tree"
	mv "$bpf/prog_tests/bpf_attr_size.c" "$FULL_DIR/bpf_attr_size.c.broken"
	# The generated list of tests: a removed file does not make it stale.
	rm -f "$bpf/prog_tests/tests.h"
}

# The tree's rule compiles each test in OUTPUT (cd $(@D), -I. -MMD), so its
# .d file names the skeletons without a folder ("atomics.lskel.h"); make
# runs in the source folder, and with OUTPUT elsewhere the next run stops:
# "No rule to make target 'atomics.lskel.h'". Put OUTPUT's folder in front
# of those names (the first run has no .d files: nothing to do). A test
# object without its .d file has no record of its skeleton: remake it.
fix_deps()
{
	local d o

	for d in "$OUT"/*.test.d; do
		[ -f "$d" ] || continue
		sed -i -E "s#(^| )([A-Za-z0-9_]+\.(l|sub)?skel\.h)#\1$OUT/\2#g" "$d"
	done
	for o in "$OUT"/*.test.o; do
		[ -f "$o" ] && [ ! -f "${o%.o}.d" ] && rm -f "$o"
	done
	return 0
}

build()
{
	local vmlinux headers t0 rc

	vmlinux=$("$ROOT/vm/distro.sh" path vmlinux)
	headers=$("$ROOT/vm/distro.sh" path headers)
	mkdir -p "$OUT" "$ROOT/build/logs"
	fix_deps
	log "building test_progs (log: build/logs/full-build.log)"
	t0=$EPOCHSECONDS
	rc=0
	nice -n 10 make -C "$TREE/tools/testing/selftests/bpf" -j"$jobs" \
		OUTPUT="$OUT" CLANG=clang-19 LLC=llc-19 LLVM_STRIP=llvm-strip-19 \
		VMLINUX_BTF="$vmlinux" KDIR="$headers" \
		"$OUT/test_progs" > "$ROOT/build/logs/full-build.log" 2>&1 || rc=$?
	log "make exit $rc after $((EPOCHSECONDS - t0)) s"
	if [ $rc -ne 0 ]; then
		grep -E 'error|Error [0-9]' "$ROOT/build/logs/full-build.log" | head -5 >&2
		exit 1
	fi
}

# test_progs must list the test: "-l" prints the tests it has.
check_built()
{
	(cd "$OUT" && ./test_progs -l | grep -qx tc_redirect_ifb) ||
		die "$OUT/test_progs has no tc_redirect_ifb"
	echo "$OUT/test_progs"
}

main()
{
	while getopts j:h opt; do
		case $opt in
		j)	jobs=$OPTARG ;;
		*)	usage ;;
		esac
	done
	install_tools
	prepare_tree
	# extract-vmlinux from the copy: a fresh clone may have no other tree.
	KDIR=$TREE "$ROOT/vm/distro.sh" fetch
	build
	check_built
}

main "$@"; exit
