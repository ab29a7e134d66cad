#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest payload of make peers: vm/peers.sh boots each kernel with
# this as the VM's command. It copies the 6.12 tree's tc and redirect
# selftests to /tmp (the host's / is read-only there), runs them as the
# tree's README says, and prints for the host a PEERS-CELL line per row
# and a PEERS-TIME line per test (docs/peers.md).
#
#   PEERS_OUT=DIR [PEERS_TEST_PROGS=PATH] vm/peers-guest.sh
#
# DIR holds what vm/peers.sh built on the host: bin/udpgso_bench_rx and
# _tx, action-ebpf, modules/modules.builtin*. PATH is test_progs from the
# tree's full BPF build; without it, its row says "not run".

# No -e: each peer test's status is taken and made a cell.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

PEERS_OUT=${PEERS_OUT:-$VM_ROOT/build/peers}
SELFTESTS=$KDIR/tools/testing/selftests
PEERS_TEST_PROGS=${PEERS_TEST_PROGS:-}

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

guest_main; exit 0
