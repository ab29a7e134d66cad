#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# An initramfs that lets a distribution kernel boot the VM runner's 9p root.
#
#   vm/initramfs.sh ROOT KVER OUT
#
# ROOT is an unpacked kernel package (ROOT/lib/modules/KVER, with
# modules.dep) that also holds busybox-static (ROOT/bin/busybox); OUT is
# the gzipped cpio to write. What its /init does: docs/distro.md. Any
# failure there prints "initramfs: ..." on the console and powers off,
# which run-vm.sh reports as a boot failure with the console's last lines.

set -euo pipefail

# What the 9p root and the overlay need; their dependencies come first.
readonly BOOT_MODULES=(virtio_pci 9pnet_virtio 9p overlay)
work=

. "$(dirname "$0")/../scripts/lib.sh"

# The /init script. @MODULES@ and @KVER@ are filled in by write_init.
init_script()
{
	cat <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Load 9p, mount the host's root, show the package's modules, hand over.

fail()
{
	echo "initramfs: $*"
	poweroff -f
}

# Value of NAME=... on the kernel command line.
param()
{
	local word

	for word in $(cat /proc/cmdline); do
		case $word in
		"$1"=*) echo "${word#*=}" ;;
		esac
	done
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" || fail "insmod $m.ko failed"
done

root=$(param root)
fstype=$(param rootfstype)
flags=$(param rootflags)
init=$(param init)
[ -n "$root" ] && [ -n "$init" ] || fail "no root= or init= on the kernel command line"
mkdir -p /newroot
mount -t "${fstype:-9p}" -o "ro${flags:+,$flags}" "$root" /newroot ||
	fail "mount -t ${fstype:-9p} $root failed"

# The package's lib/ (modules/KVER) over the host's (a link to usr/lib
# on merged-/usr systems), read-only: two lower layers, no upper.
kver=$(uname -r)
pkglib=/newroot$(cat /etc/package-lib)
[ -f "$pkglib/modules/$kver/modules.dep" ] ||
	fail "$pkglib/modules/$kver/modules.dep is missing: run vm/distro.sh fetch"
lib=$(readlink -f /newroot/lib)
mount -t overlay overlay -o "ro,lowerdir=$pkglib:$lib" "$lib" ||
	fail "cannot overlay $pkglib on $lib"

umount /proc /sys /dev
exec switch_root /newroot "$init"
EOF
}

# The module files to load for BOOT_MODULES under DIR (ROOT/lib/modules/
# KVER), one a line, each after the ones it needs. modules.dep lists every
# dependency of a module, the one to load first last; a module built into
# the kernel (modules.builtin) needs nothing.
boot_modules()
{
	local dir=$1 m line dep
	local -a order=()

	for m in "${BOOT_MODULES[@]}"; do
		line=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$dir/modules.dep") || {
			grep -qE "(^|/)$m\.ko\$" "$dir/modules.builtin" 2>/dev/null ||
				die "$m is neither a module nor built in ($dir)"
			continue
		}
		# shellcheck disable=SC2086
		for dep in $(echo ${line#*:} | tr ' ' '\n' | tac) "${line%%:*}"; do
			[[ " ${order[*]} " == *" $dep "* ]] || order+=("$dep")
		done
	done
	printf '%s\n' "${order[@]}"
}

main()
{
	local root=${1:-} kver=${2:-} out=${3:-} m ko name

	[ $# -eq 3 ] || die "usage: $0 ROOT KVER OUT"
	root=$(realpath "$root")
	[ -x "$root/bin/busybox" ] || die "$root/bin/busybox missing (busybox-static unpacked?)"
	[ -f "$root/lib/modules/$kver/modules.dep" ] || die "$root/lib/modules/$kver/modules.dep missing"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work"/{bin,dev,proc,sys,etc,modules,newroot}
	cp "$root/bin/busybox" "$work/bin/"
	for m in sh mount umount insmod mkdir cat uname readlink switch_root poweroff; do
		ln -s busybox "$work/bin/$m"
	done
	for m in $(boot_modules "$root/lib/modules/$kver"); do
		ko=$root/lib/modules/$kver/$m
		[ -f "$ko" ] || die "no $m under $root/lib/modules/$kver"
		name=${m##*/}
		name=${name%%.ko*}
		case $ko in
		*.xz)	xz -dc "$ko" ;;
		*.zst)	zstd -dcq "$ko" ;;
		*.gz)	gzip -dc "$ko" ;;
		*)	cat "$ko" ;;
		esac > "$work/modules/$name.ko"
		echo "$name" >> "$work/modules/order"
	done
	echo "$root/lib" > "$work/etc/package-lib"
	init_script > "$work/init"
	chmod 755 "$work/init"
	mkdir -p "$(dirname "$out")"
	# busybox's cpio: Debian 12 does not install cpio by default.
	(cd "$work" && find . | sort | "$root/bin/busybox" cpio -o -H newc 2>/dev/null) |
		gzip -9 > "$out.tmp"
	mv "$out.tmp" "$out"
}

main "$@"; exit
