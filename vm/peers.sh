#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The 6.12 tree's own tc and redirect selftests, unmodified, on kernel
# variants in VMs: one table, test by kernel (make peers, docs/peers.md).
#
#   vm/peers.sh [--save FILE] [KERNEL...]
#
# KERNEL... are variants (default: stock seed fix; fix only where
# vm/kernels/fix/ exists), each built with vm/peers.config added and
# booted in its own VM, which runs vm/peers-guest.sh. --save FILE writes
# the table to FILE, a new file (an existing one is refused before
# anything is built).
#
# Exits 1 on a regression of the fix, a cell that is not $PEERS_EXPECTED's
# (default vm/peers-expected.txt), or a VM that gave no whole result
# (vm/peers.awk). Logs: build/peers/KERNEL.log.

# No -e: each kernel's run is taken and judged.
set -uo pipefail
VM_EXTRA_CONFIG=${VM_EXTRA_CONFIG:-$(cd "$(dirname "$0")" && pwd)/peers.config}
export VM_EXTRA_CONFIG
. "$(dirname "$0")/lib.sh"

PEERS_OUT=${PEERS_OUT:-$VM_ROOT/build/peers}
SELFTESTS=$KDIR/tools/testing/selftests
PEERS_TEST_PROGS=${PEERS_TEST_PROGS:-}
PEERS_EXPECTED=${PEERS_EXPECTED:-$VM_DIR/peers-expected.txt}
save=
kernels=()

parse_args()
{
	while [ $# -gt 0 ]; do
		case $1 in
		--save)		save=${2:-}; shift ;;
		-h|--help|-*)	usage ;;
		*)		kernels+=("$1") ;;
		esac
		shift
	done
	vm_check_save "$save"
	if [ ${#kernels[@]} -eq 0 ]; then
		kernels=(stock seed)
		if [ -d "$VM_DIR/kernels/fix" ]; then
			kernels+=(fix)
		else
			log "no vm/kernels/fix/ yet: stock and seed only"
		fi
	fi
}

# What the tests run that is not the kernel: built once on the host.
build_helpers()
{
	local p

	mkdir -p "$PEERS_OUT/bin"
	for p in udpgso_bench_rx udpgso_bench_tx; do
		[ "$PEERS_OUT/bin/$p" -nt "$SELFTESTS/net/$p.c" ] && continue
		gcc -O2 -Wall -o "$PEERS_OUT/bin/$p" "$SELFTESTS/net/$p.c" ||
			die "cannot build $p"
	done
	# tc-testing's bpf.json loads action.c as "action-ebpf"; 6.12's
	# Makefile no longer builds it.
	[ "$PEERS_OUT/action-ebpf" -nt "$SELFTESTS/tc-testing/action.c" ] ||
		clang -O2 -target bpf -I/usr/include/"$(gcc -dumpmachine)" \
			-c "$SELFTESTS/tc-testing/action.c" -o "$PEERS_OUT/action-ebpf" ||
		die "cannot build tc-testing's action-ebpf"
}

# Tools the tests need from the host's /; a missing one makes its test
# SKIP or fail inside, so say it here first.
check_tools()
{
	local t

	for t in mausezahn ncat jq killall depmod tc; do
		command -v "$t" >/dev/null || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null ||
			log "warning: no $t on this host (scripts/deps.sh --peers installs it)"
	done
	/usr/bin/python3 -c 'import pyroute2' 2>/dev/null ||
		log "warning: no python3-pyroute2: tdc falls back to ip commands"
}

# The first peers build starts from a copy of the suite's object dir, if
# there is one: make then rebuilds what the extra options touch, not the
# whole kernel. Called under the lock, so obj/ is not half-built.
seed_obj()
{
	[ -d "$VM_OBJ" ] || [ ! -f "$VM_BUILD/obj/.config" ] && return 0
	log "first build with peers.config: starting from a copy of $VM_BUILD/obj"
	rm -rf "$VM_OBJ.tmp"
	cp -a "$VM_BUILD/obj" "$VM_OBJ.tmp" && mv "$VM_OBJ.tmp" "$VM_OBJ"
}

# Build every kernel in one hold of the tree's lock (in a subshell: the
# VMs run without it). Writes "KERNEL IMAGE" lines to $PEERS_OUT/images.
build_all()
(
	local k image t0

	vm_lock
	seed_obj || die "cannot copy $VM_BUILD/obj"
	for k in "${kernels[@]}"; do
		t0=$(vm_now)
		# Under nice, as the full BPF build: the first peers build is long.
		image=$(nice -n 10 "$VM_DIR/build-kernel.sh" "$k") || die "$k: build failed"
		log "$k: image ready in $(vm_since "$t0") s"
		echo "$k $image"
	done > "$PEERS_OUT/images"
	# The built-in module list is the config's, the same for every variant.
	mkdir -p "$PEERS_OUT/modules"
	cp "$VM_OBJ"/modules.builtin "$VM_OBJ"/modules.builtin.modinfo \
		"$PEERS_OUT/modules/" ||
		log "no modules.builtin: test_ingress_egress_chaining.sh will SKIP"
)

run_kernel()
{
	local k=$1 image=$2 t0 rc

	t0=$(vm_now)
	# The guest gets no environment from here: settings go in the command.
	VM_TIMEOUT=${VM_TIMEOUT:-3600} "$VM_DIR/run-vm.sh" -C "$VM_ROOT" "$image" -- \
		"KDIR='$KDIR' PEERS_TEST_PROGS='$PEERS_TEST_PROGS' PEERS_OUT='$PEERS_OUT' vm/peers-guest.sh" \
		> "$PEERS_OUT/$k.log" 2>&1
	rc=$?
	log "$k: VM ran in $(vm_since "$t0") s (exit $rc)"
	grep '^PEERS-TIME ' "$PEERS_OUT/$k.log" | sed "s/^PEERS-TIME /peers: $k: /" >&2
	# A VM that did not finish gave only some cells, if any: the table
	# must say so (vm/peers.awk fails on a "(vm)" row).
	[ $rc = 0 ] ||
		echo "PEERS-CELL	(vm)	fail	VM exit $rc, see $PEERS_OUT/$k.log" \
			>> "$PEERS_OUT/$k.log"
}

# "KERNEL<TAB>ROW<TAB>VERDICT<TAB>REASON" for every kernel, in one file.
collect_cells()
{
	local k

	for k in "${kernels[@]}"; do
		grep '^PEERS-CELL' "$PEERS_OUT/$k.log" 2>/dev/null | cut -f2- |
			sed "s/^/$k\t/"
	done
}

main()
{
	local k image rc=0

	parse_args "$@"
	[ -d "$SELFTESTS/net/forwarding" ] || die "no selftests at $SELFTESTS (make kdir)"
	check_tools
	build_helpers
	mkdir -p "$PEERS_OUT"
	build_all || exit 1
	# All VMs at once: the tests wait on timers and traffic much of the
	# time, so on 2 cores three VMs take little longer than one.
	while read -r k image; do
		run_kernel "$k" "$image" &
	done < "$PEERS_OUT/images"
	wait
	collect_cells > "$PEERS_OUT/cells.tsv"
	awk -F '\t' -v cols="${kernels[*]}" -v expected="$PEERS_EXPECTED" \
		-f "$VM_DIR/table.awk" -f "$VM_DIR/peers.awk" \
		"$PEERS_OUT/cells.tsv" | tee "$PEERS_OUT/table.txt" || rc=1
	# The table alone, as vm/peers-expected.txt holds it: up to the blank
	# line before "why:".
	[ -z "$save" ] || sed '/^$/,$d' "$PEERS_OUT/table.txt" > "$save"
	return $rc
}

main "$@"; exit
