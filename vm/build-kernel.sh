#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a bzImage for one kernel: a variant, or a mutant on its base.
#
#   vm/build-kernel.sh KERNEL
#
# KERNEL is a variant, stock, seed, iif, both or fix (vm/kernels/; on 6.1
# stock or fix, vm/kernels/fix-6.1/), or a mutant by its file name
# (vm/mutants/KERNEL.patch, applied after the variant its "# base:" line
# names). Prints the image's path: build/vm/bzImage-NAME, NAME the
# kernel's (BASE-MUTANT for a mutant).
#
# All variants share one git working copy of the 6.12 tree and one object
# dir: switching variant rewrites only the files the patches touch, so make
# rebuilds a couple of objects (15-40 s) instead of a whole kernel (5 min).
# An image whose patches and config are unchanged is not rebuilt.
# Exits non-zero with a one-line message if the build fails.

set -o pipefail
. "$(dirname "$0")/lib.sh"

# Patches for KERNEL, one per line: a variant's, or a mutant's base's
# and then the mutant.
patches()
{
	local base

	vm_is_mutant "$1" || {
		vm_variant_patches "$1" ||
			die "unknown kernel '$1' (a variant, or a mutant of vm/mutants/)"
		return
	}
	base=$(vm_mutant_base "$1")
	vm_variant_patches "$base" || die "mutant '$1': unknown base '$base'"
	echo "$VM_DIR/mutants/$1.patch"
}

# What the image depends on: base tree, patch contents and config.
image_key()
{
	{
		git -C "$VM_BUILD/src" rev-parse vm-base
		vm_config_key
		cat "$@" /dev/null
	} | sha256sum | cut -c1-16
}

# cached IMAGE PATCHES...: IMAGE exists and was built from PATCHES.
cached()
{
	local image=$1

	shift
	[ -f "$image" ] && [ -d "$VM_BUILD/src/.git" ] &&
		[ "$(cat "$image.key" 2>/dev/null)" = "$(image_key "$@")" ]
}

# The tree's diff against vm-base that the objects in $VM_OBJ were last
# built from (none when unknown: a cold build, or an object dir older than
# this record), and the one this build reads, which becomes it once built.
readonly BUILT_DIFF=$VM_OBJ/.vm-built.diff NEXT_DIFF=$VM_OBJ/.vm-next.diff

# The headers that DIFF ($1) changes, one a line.
diff_headers()
{
	sed -n 's|^+++ b/\(.*\.h\)$|\1|p' "$1"
}

# header_adds_only DIFF HEADER CHANGED: DIFF only adds to HEADER whole
# definitions (vm/header-adds.awk) that nothing but HEADER and the .c
# files in CHANGED (one a line: what make rebuilds anyway) uses.
header_adds_only()
{
	local diff=$1 h=$2 changed=$3 names name f

	names=$(awk -v h="$h" '/^diff --git/ { p = $3 == "a/" h } p' "$diff" |
		awk -f "$VM_DIR/header-adds.awk" 2>/dev/null) || return 1
	for name in $names; do
		while read -r f; do
			[ "$f" = "$h" ] && continue
			case $f in *.c) ;; *) return 1 ;; esac
			grep -qxF "$f" <<< "$changed" || return 1
		done < <(git -C "$VM_BUILD/src" grep -l -w -e "$name" -- '*.c' '*.h' '*.S')
	done
}

# Kbuild rebuilds every object that includes a header newer than it. The
# 6.1 backport adds one static inline to skbuff.h, which most of the
# kernel includes: switching between stock and fix rebuilt most of it
# (611 s) for objects whose code cannot change. A header that the last
# build's diff or this one only adds whole definitions to, used by no
# file but the changed .c files (which are rebuilt: their times are new),
# gets the pristine tree's mtime back, so make rebuilds what uses the new
# definition and nothing else. An object it spares differs from a full
# rebuild's in one way only: the line numbers of the header's later
# definitions (a WARN in one names its line as it was before the added
# ones). Anything else keeps its new mtime: a full rebuild.
keep_header_times()
{
	local src=$VM_BUILD/src last=$BUILT_DIFF now=$NEXT_DIFF h changed

	mkdir -p "$VM_OBJ"
	git -C "$src" diff vm-base > "$now" || return 1
	[ -f "$last" ] || return 0
	changed=$(sed -n 's|^+++ b/||p' "$last" "$now" | sort -u)
	for h in $({ diff_headers "$last"; diff_headers "$now"; } | sort -u); do
		[ -f "$KDIR/$h" ] && header_adds_only "$last" "$h" "$changed" &&
			header_adds_only "$now" "$h" "$changed" &&
			touch -r "$KDIR/$h" "$src/$h"
	done
	return 0
}

# Put the working copy in the state KERNEL needs.
switch_tree()
{
	local src=$VM_BUILD/src

	git -C "$src" checkout -q -f --detach vm-base &&
	git -C "$src" clean -q -f -d -x &&
	{ [ $# -eq 0 ] || git -C "$src" apply "$@"; }
}

main()
{
	local kernel=$1 name image start plist log key base=
	local -a list

	[ $# -eq 1 ] && [ -n "$kernel" ] || usage
	vm_kernel_line >/dev/null || exit 2
	vm_is_mutant "$kernel" && base=$(vm_mutant_base "$kernel")-
	name=${VM_EXTRA_NAME:+$VM_EXTRA_NAME-}$base$kernel
	image=$VM_BUILD/bzImage-$name
	plist=$(patches "$kernel") || exit 1
	read -r -d "" -a list <<< "$plist"

	# A cached image needs no lock: its key is written after it.
	if cached "$image" "${list[@]}"; then
		echo "$image"
		return 0
	fi
	vm_lock
	vm_src_init || die "$name: cannot make $VM_BUILD/src"
	if cached "$image" "${list[@]}"; then
		echo "$image"
		return 0
	fi

	start=$(vm_now)
	# The key of what this build reads, taken before it reads it: a config
	# fragment edited during a build must not be recorded as built in.
	key=$(image_key "${list[@]}")
	switch_tree "${list[@]}" || die "$name: patches do not apply"
	log=$VM_BUILD/logs/build-$name.log
	keep_header_times || die "$name: cannot read the tree's diff"
	rm -f "$BUILT_DIFF"
	vm_make "$VM_BUILD/src" "$VM_OBJ" "$log" ||
		die "$name: build failed: $(vm_make_error "$log")"
	mv "$NEXT_DIFF" "$BUILT_DIFF"
	if ! cp "$VM_OBJ/arch/x86/boot/bzImage" "$image" ||
	   ! echo "$key" > "$image.key"; then
		die "$name: cannot store image"
	fi
	log "$name ($(vm_kernel_line)): built in $(vm_since "$start") s"
	echo "$image"
}

main "$@"; exit
