#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the suite needs to build and run, if missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Suite and test_progs: compilers, libbpf's needs, iproute2, the 6.12 tree.
# VM runner (make check's VM part, vmtest, bisect): kernel build and qemu.
# make bench: iperf3 (the stream workload), gnuplot-nox (the plot).
# jq: test_progs' JSON summary (mk/test_progs-tap.sh), bpftool -j (tests/).
PKGS=(make gcc clang llvm libelf-dev zlib1g-dev iproute2 xz-utils rsync
      linux-source-6.12 libcap-dev pkg-config util-linux procps
      qemu-system-x86 flex bison bc git libssl-dev iperf3 gnuplot-nox jq)
# make peers (vm/peers.sh): what the tree's own tc selftests run in the VMs.
if [ "${1:-}" = --peers ]; then
	PKGS+=(netsniff-ng ncat jq psmisc kmod python3-pyroute2 iputils-ping)
fi

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
	die "missing packages: ${missing[*]} (install them as root)"
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
