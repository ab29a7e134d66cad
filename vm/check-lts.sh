#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's host part (CHECK_VM=0 tests/run.sh) on a 6.1 kernel, in a
# VM: what a Debian 12 machine running its default kernel gets from make
# check (make check-lts, docs/kernels.md).
#
#   vm/check-lts.sh [--kernel BZIMAGE]
#
# Default kernel: Debian's own 6.1 image with its modules (vm/distro.sh,
# DISTRO_LINE=6.1); --kernel boots an image built from source instead
# (make vmtest-lts leaves stock 6.1 in build/vm-6.1/bzImage-stock).
#
# Under TCG the suite runs some 50 times slower than on a host:
# CHECK_RUN_LIMIT (default here 900 s) replaces the host's 60 s bound on
# its run, and the VM gets VM_TIMEOUT (default here 5400 s; measured runs
# in docs/kernels.md). Exit: run.sh's, or run-vm.sh's boot/crash/timeout
# code.

# No -e: the run's status is the script's, passed on as it is.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

initrd=

main()
{
	vm_parse_args "--kernel" "$@"
	kernel=$ARG_KERNEL
	if [ -z "$kernel" ]; then
		export DISTRO_LINE=6.1
		"$VM_DIR/distro.sh" initramfs || die "cannot prepare Debian's 6.1 kernel"
		kernel=$("$VM_DIR/distro.sh" path bzimage)
		initrd=$("$VM_DIR/distro.sh" path initramfs)
	fi
	[ -f "$kernel" ] || die "no kernel image at $kernel"
	mkdir -p "$VM_BUILD/logs"
	VM_TIMEOUT=${VM_TIMEOUT:-5400} "$VM_DIR/run-vm.sh" -C "$VM_ROOT" ${initrd:+-i "$initrd"} \
		-l "$VM_BUILD/logs/console-check-lts.log" "$kernel" -- \
		"echo \"# kernel \$(uname -r)\"; CHECK_VM=0 CHECK_RUN_LIMIT=${CHECK_RUN_LIMIT:-900} tests/run.sh"
}

main "$@"; exit
