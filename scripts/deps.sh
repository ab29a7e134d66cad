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
# missing ones, and installs nothing. Without dpkg-query (another
# distribution), nothing is installed: it looks for the commands and
# headers the packages provide, and names each one missing with its Debian
# package. DEPS_NO_DPKG=1 takes that path where dpkg is, to test it.
#
set -uo pipefail
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$(dirname "$0")/.." && pwd)

# The suite and its test_progs front end: compilers, libbpf's and bpftool's
# build needs, iproute2, xz-utils (scripts/trees.sh extracts the kernel
# tree from Debian's package with it; apt-get downloads the package),
# rsync (make overlay), util-linux (unshare, nsenter) and procps; jq reads
# test_progs' JSON summary (mk/test_progs-tap.sh); openssl makes the
# signing certificate test_progs embeds from 7.x on (mk/test_progs.mk);
# python3 runs vm/mutate.py (make mutate, and its self-test in make check);
# nftables' nft makes and reads egress_mirred_nft_egress's chain.
SUITE=(make gcc clang llvm libelf-dev zlib1g-dev pkg-config libcap-dev
       iproute2 util-linux procps xz-utils rsync jq openssl python3 nftables)
# Kernel builds (vm/build-kernel.sh: a git working copy of the tree; flex,
# bison, bc, perl and libssl-dev for the kernel's own build), qemu, and
# ccache, which keeps compiled objects across clones (vm/lib.sh, vm_kmake);
# dwarves' pahole makes the BTF of make mutate's kernels. The
# initramfs of make vmtest-distro uses busybox-static's own cpio, fetched
# with apt-get download by vm/distro.sh, not installed.
VM=(git perl flex bison bc libssl-dev qemu-system-x86 ccache dwarves)
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

# What a package provides, to look for where no dpkg can be asked: commands
# on PATH, headers (h:) and python3 modules (py:); "a|b" takes either one.
# A package not listed provides the command of its own name.
provides()
{
	case $1 in
	llvm)			echo 'llvm-strip|llvm-objcopy' ;;
	libelf-dev)		echo h:gelf.h ;;
	zlib1g-dev)		echo h:zlib.h ;;
	libcap-dev)		echo h:sys/capability.h ;;
	libssl-dev)		echo h:openssl/ssl.h ;;
	iproute2)		echo ip tc ;;
	util-linux)		echo unshare nsenter ;;
	procps)			echo ps pkill ;;
	xz-utils)		echo xz ;;
	qemu-system-x86)	echo qemu-system-x86_64 ;;
	dwarves)		echo pahole ;;
	gnuplot-nox)		echo gnuplot ;;
	netsniff-ng)		echo mausezahn ;;
	psmisc)			echo killall ;;
	kmod)			echo depmod modinfo ;;
	python3-pyroute2)	echo py:pyroute2 ;;
	iputils-ping)		echo ping ;;
	nftables)		echo nft ;;
	*)			echo "$1" ;;
	esac
}

# The compiler's own search finds a header wherever the distribution puts
# it (another prefix, a multiarch directory); with no compiler (named
# missing anyway), /usr/include.
has_header()
{
	local cc

	cc=$(command -v cc || command -v gcc || command -v clang) ||
		{ [ -f "/usr/include/$1" ]; return; }
	echo "#include <$1>" | "$cc" -E -x c - >/dev/null 2>&1
}

# Whether one of provides' words ("a|b": either) is on this machine.
has()
{
	local t

	for t in ${1//|/ }; do
		case $t in
		h:*)	has_header "${t#h:}" ;;
		py:*)	python3 -c "import ${t#py:}" 2>/dev/null ;;
		*)	command -v "$t" >/dev/null ;;
		esac && return 0
	done
	return 1
}

# "WHAT (Debian: PACKAGE)" for each thing missing of the packages given,
# joined with ", ": what the reader must provide, and the Debian package
# to find its own distribution's name by. (The kernel tree is KDIR's:
# scripts/trees.sh says so where it cannot fetch one.)
missing_things()
{
	local p t out=''

	for p in "$@"; do
		for t in $(provides "$p"); do
			has "$t" || { t=${t%%|*}; out+=", ${t#*:} (Debian: $p)"; }
		done
	done
	echo "${out#, }"
}

# Another distribution: nothing is installed, what is missing is named.
check_no_dpkg()
{
	local missing

	missing=$(missing_things "$@")
	if [ "${DEPS_DRY_RUN:-0}" != 0 ]; then
		echo "deps: packages: $*"
		echo "deps: no dpkg, missing: ${missing:-nothing}"
		return 0
	fi
	[ -z "$missing" ] || die "missing, and no dpkg to install it: $missing"
}

install_debian()
{
	local p missing=() pkgs=("$@")

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

main()
{
	local p pkgs=("${SUITE[@]}")

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
	if [ "${DEPS_NO_DPKG:-0}" = 0 ] && command -v dpkg-query >/dev/null; then
		install_debian "${pkgs[@]}"
	else
		check_no_dpkg "${pkgs[@]}"
	fi
}

main "$@"
