#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel under qemu, with the host's / as a read-only 9p root, and
# run one command inside (default: the suite binary).
#
#   vm/run-vm.sh [-C DIR] [-t SECONDS] [-l LOG] [-i INITRD] BZIMAGE [-- COMMAND...]
#
#   -C DIR      working directory of the command (default: the current one)
#   -t SECONDS  host-side limit for boot + command (default: $VM_TIMEOUT, 900)
#   -l LOG      kernel console log (default: build/vm/logs/console-IMAGE.log)
#   -i INITRD   boot with this initramfs (default: $VM_INITRD, else none): a
#               distribution kernel with 9p as a module (vm/initramfs.sh)
# VM_APPEND adds kernel parameters (module_blacklist=act_mirred, say).
#
# A single COMMAND word is run as a shell script line ('ip netns add x; ...').
# stdout gets the command's output (stdout and stderr) and nothing else; the
# exit code is the command's, or:
#   255  boot failed: the command never started (no boot, panic, hang);
#        one that ended early boots again once (VM_BOOT_TRIES=1: never)
#   254  the kernel died while the command ran
#   253  the command did not finish in time
#   252  the kernel that booted is not the image's: its banner names another
#        build than the image's setup header (a stale payload, docs/vm.md)
# Kernel WARN/BUG/panic lines from the console are repeated on stderr.
# The accelerator (VM_ACCEL), VM_SMP and VM_MEM: docs/vm.md.

set -o pipefail
. "$(dirname "$0")/lib.sh"

readonly BOOT_FAILED=255 VM_DIED=254 TIMED_OUT=253 STALE_IMAGE=252
cwd=$PWD
timeout=${VM_TIMEOUT:-900}
console=
initrd=${VM_INITRD:-}
accel=tcg
last_qemu_rc=

# Store the command where the guest's init finds it: under build/, since the
# guest mounts a tmpfs over /tmp.
write_cmd()
{
	local dir=$1

	shift
	echo "$cwd" > "$dir/cwd"
	if [ $# -eq 0 ]; then
		printf '%q\n' "$VM_SUITE"
	elif [ $# -eq 1 ]; then
		printf '%s\n' "$1"
	else
		printf '%q ' "$@"
		echo
	fi > "$dir/cmd"
}

accel_args()
{
	case $accel in
	kvm)	echo "-enable-kvm -cpu host" ;;
	icount)	echo "-accel tcg,thread=single -cpu max" \
			"-icount shift=0,align=off,sleep=off" ;;
	*)	echo "-accel tcg -cpu max" ;;
	esac
}

# The guest's clock. Under TCG the TSC's calibration against the PIT
# depends on how the host schedules the vCPU at boot: it fails (the clock
# is then refined-jiffies), succeeds (tsc), or on a loaded host comes out
# far too low (measured: a 6.1 guest took its TSC for 42 MHz, its clock
# ran 46 times fast, and every test ended at the harness's timeout).
# tsc=unstable gives every TCG guest refined-jiffies, the clock whose
# bounded waits stretch with a starved guest instead of failing it
# (docs/checkers.md). icount and KVM keep their own.
clock_args()
{
	[ "$accel" = tcg ] && echo "tsc=unstable"
	return 0
}

# KVM only where a short boot under it works: nested KVM here aborts or
# hangs. The probe runs once per build folder; its answer is kept.
probe_accel()
{
	local image=$1 cache=$VM_BUILD/accel

	if [ -n "${VM_ACCEL:-}" ]; then
		accel=$VM_ACCEL
		return
	fi
	if [ -s "$cache" ]; then
		accel=$(cat "$cache")
		return
	fi
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
	   VM_ACCEL=kvm VM_BOOT_TRIES=1 "$0" -t 20 -l "$VM_BUILD/logs/kvm-probe.log" \
		${initrd:+-i "$initrd"} "$image" -- true >/dev/null 2>&1; then
		accel=kvm
	fi
	echo "$accel" > "$cache"
	echo "vm: accelerator $accel (probed once, kept in $cache)" >&2
}

# qemu in the background: ttyS0 = console log, ttyS1 = command output.
start_qemu()
{
	local image=$1 dir=$2 smp=${VM_SMP:-2}

	# Instruction counting runs one vCPU: the figures then do not
	# depend on how the host schedules vCPU threads.
	[ "$accel" = icount ] && smp=1
	# A socket per vCPU: the kernels have no ACPI, and SeaBIOS's MP
	# table lists one CPU per socket, so with qemu's default of one
	# socket of $smp cores the guest would bring up one CPU.
	# norandmaps: TCG finds the code it translated by virtual address,
	# so with randomised mappings every exec translates ld.so and libc
	# again. Without, a test's ip and tc batches cost a third
	# (docs/vm.md). The suite does not depend on userspace ASLR.
	# shellcheck disable=SC2046
	timeout -k 5 "$timeout" qemu-system-x86_64 $(accel_args) \
		-m "${VM_MEM:-1G}" -smp "$smp,sockets=$smp,cores=1,threads=1" \
		-nodefaults -display none -no-reboot \
		-kernel "$image" ${initrd:+-initrd "$initrd"} \
		-append "console=ttyS0 panic=-1 root=root rootfstype=9p \
rootflags=trans=virtio,version=9p2000.L,msize=1048576,cache=loose ro \
init=$VM_DIR/init.sh vmtest_dir=$dir norandmaps $(clock_args) ${VM_APPEND:-}" \
		-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=root,mount_tag=root \
		-serial "file:$console" -serial "file:$dir/out" \
		</dev/null >"$dir/qemu.log" 2>&1 &
}

# Repeat what the kernel complained about: WARN, BUG, oops, panic.
report_console()
{
	grep -E 'WARNING:|BUG:|Oops|Kernel panic|general protection|RIP:' "$console" |
		head -20 | sed 's/^/vm: console: /' >&2
}

# Did the image's own kernel boot? The console's banner must name the
# build the image's setup header names: a compressed payload of another
# build (docs/vm.md) boots another kernel, whose verdicts are not this
# image's. An image without a setup header, or a console without a banner
# (no boot: verdict() says so), is not judged here.
own_kernel()
{
	local image=$1 version banner

	version=$(vm_image_version "$image")
	banner=$(grep -a -m1 'Linux version ' "$console" | tr -d '\r')
	[ -z "$version" ] || [ -z "$banner" ] || vm_banner_is "$version" "$banner" && return 0
	echo "vm: the kernel that booted is not $image's: it printed '${banner#*Linux version }'," \
		"the image's setup header says '$version' (a stale payload: docs/vm.md)" >&2
	return 1
}

# Exit code for the caller, from the markers init.sh wrote:
# "VMTEST-BOOTED UPTIME" and "VMTEST-EXIT RC UPTIME".
verdict()
{
	local out=$1 qemu_rc=$2 t0=$3 boot rc end

	read -r _ boot < <(grep -m1 '^VMTEST-BOOTED ' "$out")
	read -r _ rc end < <(grep '^VMTEST-EXIT ' "$out" | tail -n 1)
	if [ -n "$rc" ]; then
		echo "vm: boot $boot s, command $(awk "BEGIN { print $end - $boot }") s," \
			"all $(vm_since "$t0") s" >&2
		return "$rc"
	fi
	if [ -z "$boot" ]; then
		echo "vm: boot failed (qemu exit $qemu_rc), console: $console" >&2
		tail -n 2 "${out%/*}/qemu.log" | sed 's/^/vm: qemu: /' >&2
		tail -n 5 "$console" | sed 's/^/vm: console: /' >&2
		return $BOOT_FAILED
	fi
	if [ "$qemu_rc" = 124 ]; then
		echo "vm: timed out after $timeout s, console: $console" >&2
		return $TIMED_OUT
	fi
	echo "vm: the kernel died under the command, console: $console" >&2
	return $VM_DIED
}

# Boot IMAGE once with the command in DIR ($2); streams the command's
# output, returns its exit code or one of run-vm.sh's own.
boot()
{
	local image=$1 dir=$2 pid qemu_rc t0

	t0=$(vm_now)
	start_qemu "$image" "$dir"
	pid=$!
	# timeout runs in a process group of its own: a signal to ours does
	# not reach it, and qemu would outlive us. It passes TERM on to qemu.
	trap 'kill "$pid" 2>/dev/null; exit 130' INT
	trap 'kill "$pid" 2>/dev/null; exit 143' TERM
	trap 'kill "$pid" 2>/dev/null; exit 129' HUP
	# Stream the output while the VM runs, minus the markers.
	tail -n +1 -s 0.2 -f --pid=$pid "$dir/out" |
		sed -u '/^VMTEST-BOOTED /d; /^VMTEST-EXIT /d'
	wait $pid
	qemu_rc=$?
	last_qemu_rc=$qemu_rc
	report_console
	own_kernel "$image" || return $STALE_IMAGE
	verdict "$dir/out" $qemu_rc "$t0"
}

main()
{
	local image dir rc

	while getopts C:t:l:i:h opt; do
		case $opt in
		C)	cwd=$(cd "$OPTARG" && pwd) || exit 2 ;;
		t)	timeout=$OPTARG ;;
		l)	console=$OPTARG ;;
		i)	initrd=$(realpath "$OPTARG") || exit 2 ;;
		*)	usage ;;
		esac
	done
	shift $((OPTIND - 1))
	image=$1
	[ -f "$image" ] || usage
	shift
	[ "$1" = -- ] && shift
	image=$(realpath "$image")
	console=${console:-$VM_BUILD/logs/console-${image##*/}.log}
	mkdir -p "$VM_BUILD/tmp" "${console%/*}"
	dir=$(mktemp -d "$VM_BUILD/tmp/run.XXXXXX") || exit 2
	trap 'rm -rf "$dir"' EXIT
	write_cmd "$dir" "$@"
	: > "$dir/out"
	probe_accel "$image"

	boot "$image" "$dir"
	rc=$?
	# A boot that never started the command, and ended before the time
	# limit, ran no test: it says nothing of the suite, so boot once more
	# (seen once in CI: a guest that gave the host no marker, where 30
	# boots under load here all came up). A kernel that cannot boot fails
	# twice; the first boot's console stays beside the second's.
	[ $rc = $BOOT_FAILED ] && [ "$last_qemu_rc" != 124 ] &&
		[ "${VM_BOOT_TRIES:-2}" -gt 1 ] || return $rc
	mv -f "$console" "$console.first" 2>/dev/null
	echo "vm: booting once more (the first boot's console: $console.first)" >&2
	: > "$dir/out"
	boot "$image" "$dir"
}

main "$@"; exit
