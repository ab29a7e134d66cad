#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian 12's own 6.12 kernel, from its packages, for the VM runner and for
# the full BPF selftests build; with DISTRO_LINE=6.1, Debian 12's default
# kernel, 6.1 (the image and its modules only). docs/distro.md.
#
#   vm/distro.sh fetch      download and unpack the packages (once)
#   vm/distro.sh initramfs  fetch, then build the initramfs (vm/initramfs.sh)
#   vm/distro.sh path WHAT  print a path: bzimage, initramfs, vmlinux,
#                           headers (the kbuild tree for out-of-tree
#                           modules), kver
#
# Under $DISTRO_DIR (default build/distro, build/distro-6.1): debs/ as
# apt-get download left them, root/ the packages unpacked, vmlinux and
# initramfs.cpio.gz; docs/distro.md says what each is for.

set -o pipefail
. "$(dirname "$0")/lib.sh"

# Debian's newest amd64 image of a line, "KVER" as in the package's
# name: the registry's, not a version written here (a point release
# replaces the one before it). Looked up once more after apt-get update.
newest_kver()
{
	local re=$1 kver

	kver=$(apt-cache pkgnames linux-image- 2>/dev/null | sed -n "s/^linux-image-\($re\)\$/\1/p" |
		sort -V | tail -n 1)
	if [ -z "$kver" ]; then
		apt-get -q -o DPkg::Lock::Timeout=300 update >/dev/null 2>&1
		kver=$(apt-cache pkgnames linux-image- 2>/dev/null |
			sed -n "s/^linux-image-\($re\)\$/\1/p" | sort -V | tail -n 1)
	fi
	[ -n "$kver" ] || die "no Debian image of line $DISTRO_LINE in the registry"
	echo "$kver"
}

DISTRO_LINE=${DISTRO_LINE:-6.12}
case $DISTRO_LINE in
6.12)
	KVER=$(newest_kver '6\.12\.[0-9]*+deb12-amd64') || exit 1
	readonly KVER ABI=${KVER%-amd64}
	readonly PKGS=("linux-image-$KVER" "linux-headers-$KVER" "linux-headers-$ABI-common"
		       "linux-kbuild-$ABI" busybox-static)
	DISTRO_DIR=${DISTRO_DIR:-$VM_ROOT/build/distro}
	;;
6.1)
	KVER=$(newest_kver '6\.1\.0-[0-9]*-amd64') || exit 1
	readonly KVER
	readonly PKGS=("linux-image-$KVER" busybox-static)
	DISTRO_DIR=${DISTRO_DIR:-$VM_ROOT/build/distro-6.1}
	;;
*)
	die "DISTRO_LINE=$DISTRO_LINE: Debian kernels of lines 6.12 and 6.1 only"
	;;
esac

download()
{
	local debs=$DISTRO_DIR/debs pkg

	mkdir -p "$debs"
	for pkg in "${PKGS[@]}"; do
		compgen -G "$debs/${pkg}_*.deb" >/dev/null && continue
		log "downloading $pkg"
		# apt's sandbox user cannot write into build/: download as root,
		# quietly (apt warns about it).
		(cd "$debs" && apt-get download -q "$pkg" 2>&1) |
			grep -v -e '^W: Download is performed unsandboxed' -e '^Get:' -e '^Fetched' >&2
		compgen -G "$debs/${pkg}_*.deb" >/dev/null || die "apt-get download $pkg failed"
	done
}

# The headers package's Makefile includes the -common tree by its absolute
# /usr/src path: point it at the unpacked copy instead of installing the
# packages (which would pull in linux-image, initramfs-tools and a systemd
# upgrade on the host).
fix_headers()
{
	local mk=$DISTRO_DIR/root/usr/src/linux-headers-$KVER/Makefile

	[ -f "$mk" ] || return 0
	sed -i "s|^include /usr/src/|include $DISTRO_DIR/root/usr/src/|" "$mk"
}

unpack()
{
	local root=$DISTRO_DIR/root deb

	[ -f "$DISTRO_DIR/.unpacked" ] && return 0
	rm -rf "$root"
	mkdir -p "$root"
	for deb in "$DISTRO_DIR"/debs/*.deb; do
		dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed"
	done
	fix_headers
	# Debian makes modules.dep at install time; the package has none.
	/sbin/depmod -b "$root" "$KVER" || die "depmod -b $root failed"
	# The BTF of the full BPF build (6.12 only).
	if [ "$DISTRO_LINE" = 6.12 ]; then
		"$KDIR/scripts/extract-vmlinux" "$root/boot/vmlinuz-$KVER" > "$DISTRO_DIR/vmlinux" ||
			die "extract-vmlinux failed (KDIR=$KDIR)"
	fi
	touch "$DISTRO_DIR/.unpacked"
}

# depmod here, modprobe in the guest (which runs the host's root): kmod.
need_kmod()
{
	[ -x /sbin/depmod ] && [ -x /sbin/modprobe ] && return 0
	log "installing kmod"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends \
		kmod >/dev/null || die "apt-get install kmod failed"
}

fetch()
{
	need_kmod
	download
	unpack
}

path()
{
	case $1 in
	bzimage)	echo "$DISTRO_DIR/root/boot/vmlinuz-$KVER" ;;
	initramfs)	echo "$DISTRO_DIR/initramfs.cpio.gz" ;;
	vmlinux)	echo "$DISTRO_DIR/vmlinux" ;;
	headers)	echo "$DISTRO_DIR/root/usr/src/linux-headers-$KVER" ;;
	kver)		echo "$KVER" ;;
	*)		usage ;;
	esac
}

main()
{
	case ${1:-} in
	fetch)
		fetch
		;;
	initramfs)
		fetch
		"$VM_DIR/initramfs.sh" "$DISTRO_DIR/root" "$KVER" "$(path initramfs)"
		;;
	path)
		[ $# -eq 2 ] || usage
		path "$2"
		;;
	*)
		usage
		;;
	esac
}

main "$@"; exit
