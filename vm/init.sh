#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the test VM (run-vm.sh boots the kernel with init= pointing here).
# The root file system is the host's / over 9p, read-only: give the tools
# the writable and kernel file systems they expect, run the command that
# run-vm.sh left in $vmtest_dir/cmd, report its exit code, reboot.
# vmtest_dir comes from the kernel command line, as an environment variable.
#
# Command output goes to ttyS1 and the kernel console to ttyS0, so the
# host gets the command's output without console noise. The markers let
# the host tell "did not boot" from "booted, then died or hung".

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp

# A checkout under /tmp (a CI clone, say) must not vanish under the tmpfs:
# put the host's copy of it back in place.
keep_repo_visible()
{
	local tmpdir=$1 repo=${0%/vm/init.sh}

	case $repo in
	"$tmpdir"/*)
		mkdir -p "$repo" && mount --bind "/dev/.host$repo" "$repo"
		;;
	esac
}

mount_fs()
{
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	# bash's process substitution and /dev/stdin users need these.
	ln -sf /proc/self/fd /dev/fd
	ln -sf /proc/self/fd/0 /dev/stdin
	ln -sf /proc/self/fd/1 /dev/stdout
	ln -sf /proc/self/fd/2 /dev/stderr
	# The host's root stays reachable under /dev (writable, so the mount
	# point can be made) for what the tmpfs mounts below would hide.
	mkdir -p /dev/.host && mount --bind / /dev/.host
	# Writable places: scratch files, ip netns (/run/netns), /dev/shm.
	for d in /tmp /run /var/tmp /dev/shm; do
		mkdir -p "$d" && mount -t tmpfs tmpfs "$d"
		keep_repo_visible "$d"
	done
	mkdir -p /run/netns
	mount -t bpf bpf /sys/fs/bpf
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
}

# KCSAN's kernels (vm/kernel-observe.config watch ifb.c): ifb's counter
# readers take no lock by design (u64_stats), so their races with the
# counting are no bug. Every other race in ifb.c is reported.
kcsan_pass_over_stats()
{
	local f=/sys/kernel/debug/kcsan

	[ -w "$f" ] || return 0
	echo blacklist > "$f" &&
	echo '!ifb_stats64' > "$f" &&
	echo '!ifb_get_ethtool_stats' > "$f"
}

run_cmd()
{
	cd "$(cat "${vmtest_dir:?}/cwd")" || return 126
	bash "$vmtest_dir/cmd" </dev/null
}

# reboot(2), not systemd: with -no-reboot qemu then exits. Exiting PID 1
# would work too (panic=-1), but would look like a crash in the log.
power_off()
{
	reboot -ff 2>/dev/null || busybox reboot -f
	sleep 10
}

mount_fs
kcsan_pass_over_stats
ip link set lo up
# Raw: no CR before each LF, no echo of what the host never sends.
stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3>/dev/ttyS1
# Markers carry the guest's uptime, for the host's timings.
echo "VMTEST-BOOTED $(cut -d' ' -f1 /proc/uptime)" >&3
run_cmd >&3 2>&3
echo "VMTEST-EXIT $? $(cut -d' ' -f1 /proc/uptime)" >&3
# Closing the tty waits until the output has left the serial port.
exec 3>&-
power_off
