#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a bzImage for one kernel: a variant, or a mutant on its base.
#
#   vm/build-kernel.sh KERNEL
#   vm/build-kernel.sh --key KERNEL
#   vm/build-kernel.sh --tree
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
# An image whose key (image_key: tree, compiler, config, patches) is
# unchanged is not rebuilt, and one that another clone on this machine
# built is taken from the image cache (VM_IMAGE_CACHE, default
# /var/cache/tc-skip-egress/images). --key prints the key and builds
# nothing; --tree only makes the git copy (series-check applies the
# series to it: make check's prebuild makes it while the host part runs).
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
	vm_mutant_file "$1"
}

# What the image depends on: the tree (vm_tree_key), the compiler and
# linker, the config, how it is built (vm/lib.sh's functions that make
# it) and the patches. Nothing in it names the clone, so the image cache
# (VM_IMAGE_CACHE) can serve another clone the same kernel.
image_key()
{
	{
		echo "$TREE_KEY"
		gcc --version | head -n 1
		ld --version | head -n 1
		vm_config_key
		declare -f vm_config vm_kmake vm_make_vars vm_make vm_fresh_payload
		cat "$@" /dev/null
	} | sha256sum | cut -c1-16
}

# cached IMAGE KEY: IMAGE exists and was built as KEY says, in this
# clone or, taken from the image cache now, in another.
cached()
{
	[ -f "$1" ] && [ "$(cat "$1.key" 2>/dev/null)" = "$2" ] && return 0
	take_from_cache "$1" "$2"
}

# Copy FILE ($1) to DEST ($2) through a rename in DEST's folder, so that
# no reader sees half a file. The temporary name starts with a dot: the
# image cache's pruning (bzImage-*) does not see it.
copy_whole()
{
	local tmp

	tmp=$(mktemp "${2%/*}/.copy.XXXXXX") || return 1
	cp "$1" "$tmp" && chmod 644 "$tmp" && mv "$tmp" "$2" ||
		{ rm -f "$tmp"; return 1; }
}

# The image cache: images by key, outside the clone, so that a fresh clone
# on this machine (CI's among them) boots the kernels an earlier one built
# instead of building them again: ccache still leaves a kernel's links,
# objtool and its own lookups, about a minute of CPU each. The key is
# written after the image, as in a build: a reader never takes a half-copied
# one. VM_IMAGE_CACHE= (empty) turns it off.
take_from_cache()
{
	local image=$1 key=$2 f=$VM_IMAGE_CACHE/bzImage-$2

	[ -n "$VM_IMAGE_CACHE" ] && [ -f "$f" ] || return 1
	mkdir -p "${image%/*}" && copy_whole "$f" "$image" &&
		echo "$key" > "$image.key" || return 1
	touch "$f"
	log "${image##*/bzImage-} ($(vm_kernel_line)): taken from $VM_IMAGE_CACHE"
}

# Store IMAGE ($1) under KEY ($2), and keep the VM_IMAGE_KEEP (default
# 100, 2-3 MB each) last used. A cache that cannot be written is no error.
put_in_cache()
{
	[ -n "$VM_IMAGE_CACHE" ] || return 0
	mkdir -p "$VM_IMAGE_CACHE" 2>/dev/null &&
		copy_whole "$1" "$VM_IMAGE_CACHE/bzImage-$2" 2>/dev/null ||
		{ log "cannot store the image in $VM_IMAGE_CACHE"; return 0; }
	ls -t "$VM_IMAGE_CACHE"/bzImage-* | tail -n +$((${VM_IMAGE_KEEP:-100} + 1)) |
		xargs -r rm -f
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
	local kernel name image start plist log key base= key_only=0
	local -a list

	if [ "${1:-}" = --tree ] && [ $# -eq 1 ]; then
		vm_lock
		vm_src_init || die "cannot make $VM_BUILD/src"
		return
	fi
	[ "${1:-}" = --key ] && { key_only=1; shift; }
	kernel=${1:-}
	[ $# -eq 1 ] && [ -n "$kernel" ] || usage
	vm_kernel_line >/dev/null || exit 2
	vm_is_mutant "$kernel" && base=$(vm_mutant_base "$kernel")-
	name=${VM_EXTRA_NAME:+$VM_EXTRA_NAME-}$base$kernel
	image=$VM_BUILD/bzImage-$name
	plist=$(patches "$kernel") || exit 1
	read -r -d "" -a list <<< "$plist"
	# The key of what this build reads, taken before it reads it: a config
	# fragment edited during a build must not be recorded as built in.
	TREE_KEY=$(vm_tree_key)
	key=$(image_key "${list[@]}")
	[ $key_only = 0 ] || { echo "$key"; return 0; }

	# A cached image needs no lock: its key is written after it.
	if cached "$image" "$key"; then
		echo "$image"
		return 0
	fi
	vm_lock
	vm_src_init || die "$name: cannot make $VM_BUILD/src"
	if cached "$image" "$key"; then
		echo "$image"
		return 0
	fi

	start=$(vm_now)
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
	put_in_cache "$image" "$key"
	log "$name ($(vm_kernel_line)): built in $(vm_since "$start") s"
	echo "$image"
}

main "$@"; exit
