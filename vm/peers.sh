#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the 6.12 tree's own tc and redirect selftests, unmodified, on kernel
# variants in VMs and print one table: test by kernel, pass/fail/skip.
#
#   vm/peers.sh [--save FILE] [KERNEL...]
#
# KERNEL... are variants (default: stock seed fix; fix only where
# vm/kernels/fix/ exists). Each is built with vm/peers.config on top of the
# suite's config (VM_EXTRA_CONFIG, its own object dir) and booted in its own
# VM. A row that passes on stock and does not pass on fix is a regression
# of the fix: it is named and the exit code is 1. Rows that seed breaks are
# named too, for information. The table must be $PEERS_EXPECTED (default
# vm/peers-expected.txt), cell by cell: any difference is named and exits
# 1, and so does a VM that did not finish, a kernel with no result, or no
# stock or fix column (vm/peers.awk). --save FILE writes the table to FILE,
# a new file (an existing one is refused, before anything is built).
#
# The tests (from $KDIR/tools/testing/selftests):
#   net/forwarding/tc_actions.sh           one row per TEST: line
#   net/test_ingress_egress_chaining.sh    one row
#   bpf test_progs -a tc_redirect          one row per subtest; needs a
#                                          test_progs from the tree's full
#                                          BPF build: PEERS_TEST_PROGS=PATH
#                                          (make peers passes it)
#   tc-testing tdc.py mirred.json, bpf.json  one row per file; a case that
#                                          passes on stock and not on fix
#                                          counts, by id
# Logs: build/peers/KERNEL.log. The guest copies the tests to /tmp (the
# host's / is read-only there) and runs them as the tree's README says.

# No -e: each peer test's status is taken and made a cell (guest side),
# and each kernel's run judged (host side).
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

# ---------------------------------------------------------------- guest side

# One result line for the host: ROW, VERDICT (pass|fail|skip), REASON.
cell()
{
	printf 'PEERS-CELL\t%s\t%s\t%s\n' "$1" "$2" "${3:-}"
}

# The tests write next to themselves; /tmp is a tmpfs in the guest.
guest_copy_tests()
{
	local work=$1

	mkdir -p "$work/net" &&
	cp -r "$SELFTESTS/net/forwarding" "$work/net/" &&
	cp "$SELFTESTS"/net/*.sh "$work/net/" &&
	cp "$PEERS_OUT"/bin/udpgso_bench_rx "$PEERS_OUT"/bin/udpgso_bench_tx \
		"$work/net/" &&
	cp -r "$SELFTESTS/tc-testing" "$work/" &&
	cp "$PEERS_OUT/action-ebpf" "$work/tc-testing/"
}

# The VM kernel has no modules and the host has no /lib/modules: the
# kernel's own modules.builtin goes into a base dir, and modinfo (which
# test_ingress_egress_chaining.sh asks) is pointed at it. A built-in
# module is then found as it would be on an installed kernel.
guest_modules()
{
	local work=$1 base=$1/modroot rel

	rel=$(uname -r)
	mkdir -p "$base/lib/modules/$rel" "$work/bin"
	cp "$PEERS_OUT"/modules/modules.builtin* "$base/lib/modules/$rel/" &&
	depmod -b "$base" "$rel" 2>/dev/null
	cat > "$work/bin/modinfo" <<-EOF
	#!/bin/sh
	exec /usr/sbin/modinfo -b $base "\$@"
	EOF
	chmod +x "$work/bin/modinfo"
	PATH=$work/bin:$PATH
}

# tc_actions.sh: "TEST: name [ OK ]" lines, one row each.
guest_tc_actions()
{
	local dir=$1/net/forwarding out rc line name verdict

	# Its output holds a NUL byte, which bash would warn of and drop.
	# pipefail keeps the test's own exit code.
	out=$(cd "$dir" && NETIF_CREATE=yes timeout -k 5 900 ./tc_actions.sh 2>&1 |
		tr -d '\0')
	rc=$?
	printf '%s\n' "$out" | sed 's/^/tc_actions: /'
	if ! grep -q '^TEST: ' <<< "$out"; then
		line=$(grep -m1 -E 'SKIP|FAIL|rror' <<< "$out")
		case $rc in
		0)	cell tc_actions.sh pass ;;
		4)	cell tc_actions.sh skip "$line" ;;
		*)	cell tc_actions.sh fail "exit $rc: $line" ;;
		esac
		return
	fi
	while IFS= read -r line; do
		name=$(sed -E 's/^TEST: (.*[^ ]) +\[ *([A-Z]+) *\]$/\1/' <<< "$line")
		verdict=$(sed -E 's/^TEST: .*\[ *([A-Z]+) *\]$/\1/' <<< "$line")
		case $verdict in
		OK)	cell "tc_actions: $name" pass ;;
		SKIP)	cell "tc_actions: $name" skip "$(reason_after "$out" "$line")" ;;
		*)	cell "tc_actions: $name" fail "$(reason_after "$out" "$line")" ;;
		esac
	done < <(grep '^TEST: ' <<< "$out")
}

# The indented line after a TEST: line is its reason.
reason_after()
{
	grep -F -x -A1 -- "$2" <<< "$1" | sed -n '2s/^[[:space:]]*//p'
}

guest_chaining()
{
	local dir=$1/net out rc

	# Debian's tarball has it without the exec bit; kselftest's runner
	# then runs it with the interpreter of its #! line, as here.
	out=$(cd "$dir" && timeout -k 5 300 bash ./test_ingress_egress_chaining.sh 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/chaining: /'
	case $rc in
	0)	cell test_ingress_egress_chaining.sh pass ;;
	4)	cell test_ingress_egress_chaining.sh skip "$(grep -m1 SKIP <<< "$out")" ;;
	*)	cell test_ingress_egress_chaining.sh fail \
			"exit $rc: $(grep -m1 -E 'FAIL|rror' <<< "$out")" ;;
	esac
}

# test_progs prints "#N/M tc_redirect/NAME:OK|SKIP|FAIL". Two names run
# twice (veth and netkit): each row carries its subtest number M.
guest_tc_redirect()
{
	local out

	if [ -z "$PEERS_TEST_PROGS" ] || [ ! -x "$PEERS_TEST_PROGS" ]; then
		cell "test_progs -t tc_redirect" skip \
			"not run: no test_progs from the tree's full BPF build (set PEERS_TEST_PROGS=PATH)"
		return
	fi
	# -a: exactly tc_redirect; -t would add every test named tc_redirect*.
	out=$(cd "${PEERS_TEST_PROGS%/*}" && timeout -k 5 900 ./test_progs -a tc_redirect 2>&1)
	printf '%s\n' "$out" | sed 's/^/tc_redirect: /'
	grep -E '^#[0-9]+/[0-9]+ +tc_redirect/' <<< "$out" |
	sed -E 's|^#[0-9]+/([0-9]+) +([^:]*):(.*)$|\2 (subtest \1):\3|' |
	while IFS= read -r line; do
		case ${line##*:} in
		OK)	cell "${line%:*}" pass ;;
		SKIP)	cell "${line%:*}" skip "test_progs SKIP" ;;
		*)	cell "${line%:*}" fail "test_progs ${line##*:}" ;;
		esac
	done
	grep -qE '^#[0-9]+/[0-9]+ +tc_redirect/' <<< "$out" ||
		cell "test_progs -t tc_redirect" fail "no subtest ran: $(tail -n 1 <<< "$out")"
}

# tdc.py prints TAP: "ok N ID - name", "not ok ...", "... # skipped - why".
# One cell per case (the host sums them up per file).
guest_tdc()
{
	local dir=$1/tc-testing file=$2 out line id

	out=$(cd "$dir" && timeout -k 5 1200 /usr/bin/python3 tdc.py \
		-f "tc-tests/actions/$file" 2>&1)
	printf '%s\n' "$out" | sed "s/^/tdc $file: /"
	if ! grep -qE '^(not )?ok [0-9]+ ' <<< "$out"; then
		cell "tdc $file" fail "tdc did not run: $(grep -m1 -E 'rror' <<< "$out")"
		return
	fi
	while IFS= read -r line; do
		id=$(sed -E 's/^(not )?ok [0-9]+ ([^ ]+) .*/\2/' <<< "$line")
		case $line in
		not*)		cell "tdc $file $id" fail ;;
		*'# skipped'*)	cell "tdc $file $id" skip "${line##*# skipped - }" ;;
		*)		cell "tdc $file $id" pass ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ ' <<< "$out")
}

guest_main()
{
	local work=/tmp/peers

	guest_copy_tests "$work" || { echo "peers: cannot copy the tests"; exit 1; }
	guest_modules "$work"
	timed tc_actions.sh guest_tc_actions "$work"
	timed test_ingress_egress_chaining.sh guest_chaining "$work"
	timed tc_redirect guest_tc_redirect
	timed "tdc mirred.json" guest_tdc "$work" mirred.json
	timed "tdc bpf.json" guest_tdc "$work" bpf.json
}

# timed NAME CMD...: run CMD, report its wall time to the host.
timed()
{
	local name=$1 t0

	shift
	t0=$(vm_now)
	"$@"
	echo "PEERS-TIME $name $(vm_since "$t0") s"
}

# ----------------------------------------------------------------- host side

parse_args()
{
	while [ $# -gt 0 ]; do
		case $1 in
		--guest)	guest_main; exit 0 ;;
		--save)		save=${2:-}; shift ;;
		-h|--help|-*)	usage ;;
		*)		kernels+=("$1") ;;
		esac
		shift
	done
	if [ -n "$save" ] && [ -e "$save" ]; then
		log "--save $save: the file exists; --save writes a new file" \
			"(remove it first, or name another)"
		exit 2
	fi
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

# build_kernel KERNEL: print the image path; build times go to the log.
build_kernel()
{
	local k=$1 t0 image

	t0=$(vm_now)
	# Under nice, as the full BPF build: the first peers build is long.
	image=$(nice -n 10 "$VM_DIR/build-kernel.sh" "$k") || return 1
	log "$k: image ready in $(vm_since "$t0") s"
	echo "$image"
}

# Build every kernel in one hold of the tree's lock (in a subshell: the
# VMs run without it). Writes "KERNEL IMAGE" lines to $PEERS_OUT/images.
build_all()
(
	local k image

	vm_lock
	seed_obj || die "cannot copy $VM_BUILD/obj"
	for k in "${kernels[@]}"; do
		image=$(build_kernel "$k") || die "$k: build failed"
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
		"PEERS_TEST_PROGS='$PEERS_TEST_PROGS' PEERS_OUT='$PEERS_OUT' vm/peers.sh --guest" \
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
