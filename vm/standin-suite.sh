#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stand-in for the real suite while it is being written: a few real checks
# that print TAP the way kselftest_harness does, including the
# "# diagnosis: WORD" line before a failure, so the runner and its matrix can
# be developed and tested. Run it inside the VM (vmtest.sh --standin).

n=0
pass=0
fail=0
skip=0

# tap NAME STATUS [WORD]: STATUS is ok, fail or skip.
tap()
{
	n=$((n + 1))
	echo "#  RUN           $1 ..."
	case $2 in
	ok)	pass=$((pass + 1))
		echo "#            OK  $1"
		echo "ok $n $1" ;;
	skip)	skip=$((skip + 1))
		echo "#      SKIP      $3"
		echo "#            OK  $1"
		echo "ok $n $1 # SKIP $3" ;;
	*)	fail=$((fail + 1))
		echo "# diagnosis: $3"
		echo "#            FAIL  $1"
		echo "not ok $n $1" ;;
	esac
}

# Two namespaces joined by veth va/vb, ifb0 beside va, static neighbours.
setup()
{
	ip netns add a && ip netns add b &&
	ip -n a link add va type veth peer name vb netns b &&
	ip -n a link add ifb0 type ifb &&
	# IPv6 would add its own packets to the counters.
	ip netns exec a sysctl -qw net.ipv6.conf.va.disable_ipv6=1 &&
	ip netns exec b sysctl -qw net.ipv6.conf.vb.disable_ipv6=1 &&
	ip -n a addr add 192.0.2.1/24 dev va &&
	ip -n b addr add 192.0.2.2/24 dev vb &&
	ip -n a link set va address 02:00:00:00:00:01 &&
	ip -n b link set vb address 02:00:00:00:00:02 &&
	ip -n a neigh add 192.0.2.2 lladdr 02:00:00:00:00:02 dev va nud permanent &&
	ip -n b neigh add 192.0.2.1 lladdr 02:00:00:00:00:01 dev vb nud permanent &&
	for l in "a va" "a ifb0" "a lo" "b vb" "b lo"; do
		read -r ns dev <<< "$l"
		ip -n "$ns" link set "$dev" up || return 1
	done
}

cleanup()
{
	ip netns del a 2>/dev/null
	ip netns del b 2>/dev/null
}

# Packets the clsact qdisc on va counted.
clsact_packets()
{
	tc -n a -s qdisc show dev va | awk '/clsact/ { q = 1 } q && /Sent/ { print $4; exit }'
}

# Three UDP datagrams from a to b; bash's /dev/udp, as ping may be missing.
send3()
{
	ip netns exec a bash -c 'for i in 1 2 3; do echo >/dev/udp/192.0.2.2/9; done'
}

vb_rx()
{
	ip netns exec b cat /sys/class/net/vb/statistics/rx_packets
}

# test_ping NAME
test_ping()
{
	local before

	before=$(vb_rx)
	send3
	sleep 0.2
	if [ $(($(vb_rx) - before)) -eq 3 ]; then
		tap "smoke.veth.$1" ok
	else
		tap "smoke.veth.$1" fail lost
	fi
}

# Series claim 1: with the check at the egress hook, a packet ifb
# re-injects is not classified (nor counted) by clsact a second time.
test_mirred_counted_once()
{
	local sent

	if ! tc -n a qdisc add dev va clsact ||
	   ! tc -n a filter add dev va egress protocol ip u32 match u32 0 0 \
		action mirred egress redirect dev ifb0; then
		tap egress_mirred.ipv4.counted_once skip "tc setup failed"
		return
	fi
	send3
	sleep 0.2
	sent=$(clsact_packets)
	case $sent in
	3)	tap egress_mirred.ipv4.counted_once ok ;;
	6)	tap egress_mirred.ipv4.counted_once fail reclassified ;;
	*)	tap egress_mirred.ipv4.counted_once fail "count-$sent" ;;
	esac
	tc -n a qdisc del dev va clsact
}

# The bpf syscall works: create a one-entry array map.
bpf_map_create()
{
	python3 -c '
import ctypes, struct
attr = struct.pack("IIII", 2, 4, 4, 1) + bytes(112)
fd = ctypes.CDLL(None, use_errno=True).syscall(321, 0, attr, len(attr))
exit(0 if fd >= 0 else 1)'
}

test_bpf()
{
	if ! grep -q ' /sys/fs/bpf bpf ' /proc/mounts; then
		tap smoke.bpf.syscall fail no-bpffs
	elif ! command -v python3 >/dev/null; then
		tap smoke.bpf.syscall skip "python3 not installed"
	elif bpf_map_create; then
		tap smoke.bpf.syscall ok
	else
		tap smoke.bpf.syscall fail bpf-syscall
	fi
}

echo "TAP version 13"
echo "1..4"
echo "# Starting 4 tests from 3 test cases."
trap cleanup EXIT
setup || { echo "Bail out! setup failed"; exit 1; }
test_ping udp
test_mirred_counted_once
test_ping udp_after
test_bpf
[ $fail -eq 0 ] && echo "# PASSED: $pass / $n tests passed." ||
	echo "# FAILED: $pass / $n tests passed."
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ $fail -eq 0 ]
