#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a bzImage for one kernel variant, optionally with a mutant on top.
#
#   vm/build-kernel.sh VARIANT [MUTANT]
#
# VARIANT is stock, seed, iif, both or fix (vm/kernels/; on 6.1 stock or
# fix, vm/kernels/fix-6.1/); MUTANT names
# vm/mutants/MUTANT.patch, applied after VARIANT ("base" = the variant its
# "# base:" line names). Prints the image's path: build/vm/bzImage-NAME.
#
# All variants share one git working copy of the 6.12 tree and one object
# dir: switching variant rewrites only the files the patches touch, so make
# rebuilds a couple of objects (15-40 s) instead of a whole kernel (5 min).
# An image whose patches and config are unchanged is not rebuilt.
# Exits non-zero with a one-line message if the build fails.

set -o pipefail
. "$(dirname "$0")/lib.sh"

# Patches for VARIANT [MUTANT], one per line.
patches()
{
	vm_variant_patches "$1" || die "unknown variant '$1'"
	[ -n "$2" ] || return 0
	[ -f "$VM_DIR/mutants/$2.patch" ] || die "unknown mutant '$2'"
	echo "$VM_DIR/mutants/$2.patch"
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

# Put the working copy in the state VARIANT [MUTANT] needs.
switch_tree()
{
	local src=$VM_BUILD/src

	git -C "$src" checkout -q -f --detach vm-base &&
	git -C "$src" clean -q -f -d -x &&
	{ [ $# -eq 0 ] || git -C "$src" apply "$@"; }
}

main()
{
	local variant=$1 mutant=$2 name image start plist log key
	local -a list

	[ -n "$variant" ] || usage
	vm_kernel_line >/dev/null || exit 2
	[ "$variant" = base ] && variant=$(vm_mutant_base "$mutant")
	name=${VM_EXTRA_NAME:+$VM_EXTRA_NAME-}$variant${mutant:+-$mutant}
	image=$VM_BUILD/bzImage-$name
	plist=$(patches "$variant" "$mutant") || exit 1
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
	vm_make "$VM_BUILD/src" "$VM_OBJ" "$log" ||
		die "$name: build failed: $(vm_make_error "$log")"
	if ! cp "$VM_OBJ/arch/x86/boot/bzImage" "$image" ||
	   ! echo "$key" > "$image.key"; then
		die "$name: cannot store image"
	fi
	log "$name: built in $(vm_since "$start") s"
	echo "$image"
}

main "$@"; exit
