#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages a target needs, if missing.
#
#   scripts/deps.sh [--vm] [--bench] [--peers] [--series] [--full-build]
#
# Without a flag: the suite's own packages, all that make run_tests needs.
# Each flag adds the group of the top-level Makefile's deps-vm, deps-bench,
# deps-peers, deps-series or deps-full-build, on which the targets that
# need it depend. DEPS_DRY_RUN=1 prints the groups' packages and the
# missing ones, and installs nothing.
#
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# The suite and its test_progs front end: compilers, libbpf's and bpftool's
# build needs, iproute2, the 6.12 tree (scripts/kdir.sh extracts it with
# tar and xz), rsync (make overlay), util-linux (unshare, nsenter) and
# procps; jq reads test_progs' JSON summary (mk/test_progs-tap.sh).
SUITE=(make gcc clang llvm libelf-dev zlib1g-dev pkg-config libcap-dev
       iproute2 util-linux procps xz-utils rsync linux-source-6.12 jq)
# Kernel builds (vm/build-kernel.sh: a git working copy of the tree; flex,
# bison, bc, perl and libssl-dev for the kernel's own build), qemu, and
# ccache, which keeps compiled objects across clones (vm/lib.sh, vm_kmake). The
# initramfs of make vmtest-distro uses busybox-static's own cpio, fetched
# with apt-get download by vm/distro.sh, not installed.
VM=(git perl flex bison bc libssl-dev qemu-system-x86 ccache)
# bench/: iperf3 (the stream workloads, in the guest), gnuplot-nox (the plots).
BENCH=(iperf3 gnuplot-nox)
# vm/peers.sh: netsniff-ng (mausezahn), ncat, jq, psmisc (killall), kmod
# (depmod, modinfo), python3-pyroute2 (tdc), iputils-ping.
PEERS=(netsniff-ng ncat jq psmisc kmod python3-pyroute2 iputils-ping)
# vm/series.sh: git format-patch from a scratch clone.
SERIES=(git)
# mk/full-build.sh: the BPF selftests' sign-file links libcrypto. The script
# installs clang-19, llvm-19, lld-19 and pahole itself.
FULL_BUILD=(libssl-dev)

main()
{
	local p missing=() pkgs=("${SUITE[@]}")

	for p in "$@"; do
		case $p in
		--vm)		pkgs+=("${VM[@]}") ;;
		--bench)	pkgs+=("${BENCH[@]}") ;;
		--peers)	pkgs+=("${PEERS[@]}") ;;
		--series)	pkgs+=("${SERIES[@]}") ;;
		--full-build)	pkgs+=("${FULL_BUILD[@]}") ;;
		*)		usage ;;
		esac
	done
	# Each package once, in the order given.
	read -r -a pkgs <<< "$(printf '%s\n' "${pkgs[@]}" | awk '!seen[$0]++' | tr '\n' ' ')"
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	if [ "${DEPS_DRY_RUN:-0}" != 0 ]; then
		echo "deps: packages: ${pkgs[*]}"
		echo "deps: would install: ${missing[*]:-nothing}"
		return 0
	fi
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
		die "missing packages: ${missing[*]} (install them as root)"
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get -o DPkg::Lock::Timeout=300 update -qq ||
	   ! apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null; then
		die "apt-get install ${missing[*]} failed"
	fi
}

main "$@"
