/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenarios, one a line, each run for IPv4 and IPv6 by both front ends
 * (docs/adding-a-scenario.md); the includer defines the two macros.
 *
 * TSE_GRID(name, site, sends, stages, device, source, solo, aggregate): a
 * point of the grid, named after its axes. The points cover every site on
 * every device, and every pair of values of any two axes (docs/grid.md
 * says which pairs cannot be).
 *
 * TSE_ROW(name, shape, features, traffic, ...): a hand-written scenario, its
 * setup and judge in tse_scenarios.c.
 */
TSE_GRID(egress_mirred, CLSACT_MIRRED, PACKET, ONE, NONE, LOCAL, false, false)
TSE_GRID(egress_mirred_vlan_solo, CLSACT_MIRRED, PACKET, ONE, VLAN, LOCAL, true, false)
TSE_GRID(egress_mirred_macvlan_aggregate, CLSACT_MIRRED, PACKET, ONE, MACVLAN, LOCAL, false, true)
TSE_GRID(egress_mirred_bond_solo, CLSACT_MIRRED, PACKET, ONE, BOND, LOCAL, true, false)
TSE_GRID(egress_mirred_tunnel, CLSACT_MIRRED, PACKET, ONE, TUNNEL, LOCAL, false, false)
TSE_GRID(egress_mirred_bridge, CLSACT_MIRRED, PACKET, ONE, BRIDGE, LOCAL, false, false)
TSE_GRID(egress_bpf_redirect, CLSACT_BPF, PACKET, ONE, NONE, LOCAL, false, false)
TSE_GRID(egress_bpf_redirect_vlan_solo_aggregate, CLSACT_BPF, PACKET, ONE, VLAN, LOCAL, true, true)
TSE_GRID(egress_bpf_redirect_macvlan_solo, CLSACT_BPF, PACKET, ONE, MACVLAN, LOCAL, true, false)
TSE_GRID(egress_bpf_redirect_bond, CLSACT_BPF, PACKET, ONE, BOND, LOCAL, false, false)
TSE_GRID(egress_bpf_redirect_bridge_solo, CLSACT_BPF, PACKET, ONE, BRIDGE, LOCAL, true, false)
TSE_GRID(egress_tcx_redirect, TCX, PACKET, ONE, NONE, LOCAL, false, false)
TSE_GRID(egress_tcx_redirect_vlan, TCX, PACKET, ONE, VLAN, LOCAL, false, false)
TSE_GRID(egress_tcx_redirect_macvlan_solo, TCX, PACKET, ONE, MACVLAN, LOCAL, true, false)
TSE_GRID(egress_tcx_redirect_bond_solo, TCX, PACKET, ONE, BOND, LOCAL, true, false)
TSE_GRID(egress_tcx_redirect_bridge_aggregate, TCX, PACKET, ONE, BRIDGE, LOCAL, false, true)
TSE_GRID(root_qdisc_mirred_solo, ROOT, PACKET, ONE, NONE, LOCAL, true, false)
TSE_GRID(root_qdisc_mirred_solo_aggregate, ROOT, PACKET, ONE, NONE, LOCAL, true, true)
TSE_GRID(root_qdisc_mirred_vlan_solo, ROOT, PACKET, ONE, VLAN, LOCAL, true, false)
TSE_GRID(root_qdisc_mirred_macvlan, ROOT, PACKET, ONE, MACVLAN, LOCAL, false, false)
TSE_GRID(root_qdisc_mirred_bond_solo, ROOT, PACKET, ONE, BOND, LOCAL, true, false)
TSE_GRID(root_qdisc_mirred_tunnel_solo, ROOT, PACKET, ONE, TUNNEL, LOCAL, true, false)
TSE_GRID(root_qdisc_mirred_bridge_solo_aggregate, ROOT, PACKET, ONE, BRIDGE, LOCAL, true, true)
TSE_GRID(root_qdisc_mirred_with_clsact, ROOT_CLSACT, PACKET, ONE, NONE, LOCAL, false, false)
TSE_GRID(root_qdisc_mirred_with_clsact_vlan, ROOT_CLSACT, PACKET, ONE, VLAN, LOCAL, false, false)
TSE_GRID(root_qdisc_mirred_with_clsact_macvlan_solo, ROOT_CLSACT, PACKET, ONE, MACVLAN, LOCAL,
	 true, false)
TSE_GRID(root_qdisc_mirred_with_clsact_bond_solo_aggregate, ROOT_CLSACT, PACKET, ONE, BOND, LOCAL,
	 true, true)
TSE_GRID(root_qdisc_mirred_with_clsact_tunnel, ROOT_CLSACT, PACKET, ONE, TUNNEL, LOCAL,
	 false, false)
TSE_GRID(root_qdisc_mirred_with_clsact_bridge_solo, ROOT_CLSACT, PACKET, ONE, BRIDGE, LOCAL,
	 true, false)
TSE_GRID(egress_mirror_tunnel, CLSACT_MIRRED, COPY, ONE, TUNNEL, LOCAL, false, false)
TSE_GRID(egress_bpf_clone_solo_aggregate, CLSACT_BPF, COPY, ONE, NONE, LOCAL, true, true)
TSE_GRID(egress_tcx_clone_vlan, TCX, COPY, ONE, VLAN, LOCAL, false, false)
TSE_GRID(root_qdisc_mirror_macvlan_solo, ROOT, COPY, ONE, MACVLAN, LOCAL, true, false)
TSE_GRID(root_qdisc_mirror_with_clsact_bond_aggregate, ROOT_CLSACT, COPY, ONE, BOND, LOCAL,
	 false, true)
TSE_GRID(egress_mirror_bridge_solo, CLSACT_MIRRED, COPY, ONE, BRIDGE, LOCAL, true, false)
TSE_GRID(root_qdisc_mirror_qinq_solo_aggregate, ROOT, COPY, ONE, QINQ, LOCAL, true, true)
TSE_GRID(egress_mirred_two_ifb, CLSACT_MIRRED, PACKET, TWO, NONE, LOCAL, false, false)
TSE_GRID(egress_bpf_redirect_vlan_two_ifb_solo, CLSACT_BPF, PACKET, TWO, VLAN, LOCAL, true, false)
TSE_GRID(egress_tcx_redirect_macvlan_two_ifb_aggregate, TCX, PACKET, TWO, MACVLAN, LOCAL,
	 false, true)
TSE_GRID(egress_mirror_bond_two_ifb_solo_aggregate, CLSACT_MIRRED, COPY, TWO, BOND, LOCAL,
	 true, true)
TSE_GRID(egress_mirred_tunnel_two_ifb_solo, CLSACT_MIRRED, PACKET, TWO, TUNNEL, LOCAL, true, false)
TSE_GRID(egress_bpf_clone_bridge_two_ifb_aggregate, CLSACT_BPF, COPY, TWO, BRIDGE, LOCAL,
	 false, true)
TSE_GRID(egress_tcx_clone_two_ifb_solo, TCX, COPY, TWO, NONE, LOCAL, true, false)
TSE_GRID(egress_mirred_vlan_lower_too, CLSACT_MIRRED, PACKET, LOWER, VLAN, LOCAL, false, false)
TSE_GRID(egress_bpf_redirect_macvlan_lower_too_solo, CLSACT_BPF, PACKET, LOWER, MACVLAN, LOCAL,
	 true, false)
TSE_GRID(egress_tcx_clone_bond_lower_too_aggregate, TCX, COPY, LOWER, BOND, LOCAL, false, true)
TSE_GRID(root_qdisc_mirred_bridge_lower_too_solo_aggregate, ROOT, PACKET, LOWER, BRIDGE, LOCAL,
	 true, true)
TSE_GRID(root_qdisc_mirred_macvlan_lower_too, ROOT, PACKET, LOWER, MACVLAN, LOCAL, false, false)
TSE_GRID(root_qdisc_mirror_with_clsact_vlan_lower_too_solo, ROOT_CLSACT, COPY, LOWER, VLAN, LOCAL,
	 true, false)
TSE_GRID(egress_mirred_to_veth_bridge_lower_too, CLSACT_MIRRED, PLAIN, LOWER, BRIDGE, LOCAL,
	 false, false)
TSE_GRID(egress_bpf_redirect_to_veth_bond_solo, CLSACT_BPF, PLAIN, ONE, BOND, LOCAL, true, false)
TSE_GRID(egress_tcx_redirect_to_veth_vlan_two_ifb, TCX, PLAIN, TWO, VLAN, LOCAL, false, false)
TSE_GRID(root_qdisc_mirred_to_veth_macvlan_solo, ROOT, PLAIN, ONE, MACVLAN, LOCAL, true, false)
TSE_GRID(root_qdisc_mirred_with_clsact_to_veth, ROOT_CLSACT, PLAIN, ONE, NONE, LOCAL, false, false)
TSE_GRID(egress_bpf_resubmit, CLSACT_BPF, OWN, ONE, NONE, LOCAL, false, false)
TSE_GRID(egress_tcx_resubmit_vlan_solo, TCX, OWN, ONE, VLAN, LOCAL, true, false)
TSE_GRID(egress_bpf_resubmit_macvlan_solo_aggregate, CLSACT_BPF, OWN, ONE, MACVLAN, LOCAL,
	 true, true)
TSE_GRID(egress_tcx_resubmit_bond_aggregate, TCX, OWN, ONE, BOND, LOCAL, false, true)
TSE_GRID(egress_bpf_resubmit_bridge_solo, CLSACT_BPF, OWN, ONE, BRIDGE, LOCAL, true, false)
TSE_GRID(egress_bpf_resubmit_two_ifb_aggregate, CLSACT_BPF, OWN, TWO, NONE, LOCAL, false, true)
TSE_GRID(egress_tcx_resubmit_bridge_two_ifb_solo, TCX, OWN, TWO, BRIDGE, LOCAL, true, false)
TSE_GRID(egress_bpf_resubmit_vlan_lower_too_aggregate, CLSACT_BPF, OWN, LOWER, VLAN, LOCAL,
	 false, true)
TSE_GRID(egress_tcx_resubmit_macvlan_lower_too_solo, TCX, OWN, LOWER, MACVLAN, LOCAL, true, false)
TSE_GRID(egress_tcx_resubmit_qinq_lower_too_solo, TCX, OWN, LOWER, QINQ, LOCAL, true, false)
TSE_GRID(egress_bpf_redirect_forwarded, CLSACT_BPF, PACKET, ONE, NONE, FORWARDED, false, false)
TSE_GRID(egress_tcx_resubmit_macvlan_lower_too_forwarded_solo, TCX, OWN, LOWER, MACVLAN,
	 FORWARDED, true, false)
TSE_GRID(egress_mirred_tunnel_two_ifb_forwarded_aggregate, CLSACT_MIRRED, PACKET, TWO, TUNNEL,
	 FORWARDED, false, true)
TSE_GRID(root_qdisc_mirred_to_veth_bridge_forwarded_solo, ROOT, PLAIN, ONE, BRIDGE,
	 FORWARDED, true, false)
TSE_GRID(root_qdisc_mirror_with_clsact_bond_forwarded_aggregate, ROOT_CLSACT, COPY, ONE, BOND,
	 FORWARDED, false, true)
TSE_GRID(egress_tcx_clone_vlan_forwarded_solo_aggregate, TCX, COPY, ONE, VLAN,
	 FORWARDED, true, true)
TSE_GRID(root_qdisc_mirred_with_clsact_to_veth_qinq_lower_too_forwarded, ROOT_CLSACT, PLAIN,
	 LOWER, QINQ, FORWARDED, false, false)
TSE_GRID(egress_mirred_hairpin_forwarded, CLSACT_MIRRED, INPUT, ONE, NONE, FORWARDED,
	 false, false)
TSE_GRID(egress_bpf_redirect_hairpin_vlan_lower_too_forwarded_solo, CLSACT_BPF, INPUT, LOWER,
	 VLAN, FORWARDED, true, false)
TSE_GRID(egress_tcx_redirect_hairpin_macvlan_two_ifb_forwarded_aggregate, TCX, INPUT, TWO,
	 MACVLAN, FORWARDED, false, true)
TSE_GRID(root_qdisc_mirred_hairpin_bond_forwarded_solo, ROOT, INPUT, ONE, BOND, FORWARDED,
	 true, false)
TSE_GRID(root_qdisc_mirred_with_clsact_hairpin_bridge_lower_too_forwarded, ROOT_CLSACT, INPUT,
	 LOWER, BRIDGE, FORWARDED, false, false)
TSE_GRID(egress_mirred_hairpin_qinq_forwarded, CLSACT_MIRRED, INPUT, ONE, QINQ, FORWARDED,
	 false, false)
TSE_GRID(egress_mirred_bond_batch_aggregate, CLSACT_MIRRED, PACKET, ONE, BOND, BATCH,
	 false, true)
TSE_GRID(egress_bpf_redirect_macvlan_two_ifb_batch_aggregate, CLSACT_BPF, PACKET, TWO, MACVLAN,
	 BATCH, false, true)
TSE_GRID(egress_tcx_redirect_vlan_lower_too_batch_solo_aggregate, TCX, PACKET, LOWER, VLAN,
	 BATCH, true, true)
TSE_GRID(root_qdisc_mirred_tunnel_batch_solo_aggregate, ROOT, PACKET, ONE, TUNNEL, BATCH,
	 true, true)
TSE_GRID(root_qdisc_mirred_with_clsact_bridge_batch_aggregate, ROOT_CLSACT, PACKET, ONE, BRIDGE,
	 BATCH, false, true)
TSE_GRID(egress_bpf_redirect_batch_aggregate, CLSACT_BPF, PACKET, ONE, NONE, BATCH, false, true)
TSE_GRID(egress_bpf_redirect_qinq_two_ifb_batch_aggregate, CLSACT_BPF, PACKET, TWO, QINQ,
	 BATCH, false, true)
TSE_GRID(egress_bpf_redirect_two_cpus_aggregate, CLSACT_BPF, PACKET, ONE, NONE, TWO_CPUS,
	 false, true)
TSE_GRID(egress_mirror_tunnel_two_ifb_two_cpus_solo_aggregate, CLSACT_MIRRED, COPY, TWO, TUNNEL,
	 TWO_CPUS, true, true)
TSE_GRID(egress_tcx_resubmit_vlan_lower_too_two_cpus_aggregate, TCX, OWN, LOWER, VLAN,
	 TWO_CPUS, false, true)
TSE_GRID(root_qdisc_mirred_macvlan_lower_too_two_cpus_solo_aggregate, ROOT, PACKET, LOWER,
	 MACVLAN, TWO_CPUS, true, true)
TSE_GRID(root_qdisc_mirror_with_clsact_bond_two_cpus_aggregate, ROOT_CLSACT, COPY, ONE, BOND,
	 TWO_CPUS, false, true)
TSE_GRID(egress_bpf_resubmit_bridge_two_ifb_two_cpus_solo_aggregate, CLSACT_BPF, OWN, TWO,
	 BRIDGE, TWO_CPUS, true, true)
TSE_GRID(egress_tcx_redirect_qinq_two_cpus_solo_aggregate, TCX, PACKET, ONE, QINQ, TWO_CPUS,
	 true, true)
TSE_ROW(ingress_mirred, PAIR_AT(TSE_NS_RECEIVER), TSE_F_MIRRED_U32, TSE_UDP,
	.setup = setup_ingress_mirred, .judge = judge_ingress_mirred)
TSE_ROW(ingress_bpf_redirect, PAIR_AT(TSE_NS_RECEIVER), TSE_F_BASE, TSE_UDP,
	.setup = setup_ingress_bpf_redirect, .judge = judge_ingress_bpf_redirect)
TSE_ROW(egress_unrelated, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_UDP,
	.unrelated = true, .setup = setup_egress_mirred, .judge = judge_egress_unrelated)
TSE_ROW(gso_after_ifb, { .ifb_ns = TSE_NS_SENDER, .burst_sender = true },
	TSE_F_MIRRED_U32, TSE_UDP_BURST, .pkts = 8,
	.setup = setup_peer_ingress_once, .judge = judge_gso_after_ifb)
TSE_ROW(root_qdisc_mirror_then_redirect, { .ifb_ns = TSE_NS_SENDER, .monitor = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP,
	.setup = setup_root_qdisc_mirror_then_redirect,
	.judge = judge_root_qdisc_mirror_then_redirect)
TSE_ROW(egress_100_filters, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_UDP,
	.setup = setup_egress_100_filters, .judge = judge_egress_100_filters)
TSE_ROW(forward_egress_mirred, ROUTER, TSE_F_MIRRED_U32, TSE_UDP,
	.setup = setup_forward_egress_mirred, .judge = judge_forward_egress_mirred)
TSE_ROW(forward_egress_bpf_redirect, ROUTER, TSE_F_BASE, TSE_UDP,
	.setup = setup_forward_egress_bpf_redirect,
	.judge = judge_forward_egress_bpf_redirect)
TSE_ROW(ingress_bpf_redirect_peer, { .routed = true, .ifb_ns = TSE_NS_ROUTER, .peer = true },
	TSE_F_BASE, TSE_UDP, .prepare = prepare_ingress_bpf_redirect_peer,
	.setup = setup_ingress_bpf_redirect_peer, .judge = judge_ingress_bpf_redirect_peer)
TSE_ROW(ingress_bpf_redirect_peer_other_host,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .peer = true }, TSE_F_BASE, TSE_UDP,
	.prepare = prepare_ingress_bpf_redirect_peer,
	.setup = setup_ingress_bpf_redirect_peer_other_host,
	.judge = judge_ingress_bpf_redirect_peer_other_host)
TSE_ROW(ingress_bpf_redirect_without_target,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .peer = true, .burst_sender = true },
	TSE_F_BASE, TSE_UDP_BURST, .pkts = TSE_MAX_PKTS,
	.prepare = prepare_ingress_bpf_redirect_without_target,
	.setup = setup_ingress_bpf_redirect_without_target,
	.judge = judge_ingress_bpf_redirect_without_target)
TSE_ROW(ingress_bpf_redirect_target_from_xdp,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .peer = true, .burst_sender = true },
	TSE_F_BASE, TSE_UDP_BURST, .pkts = TSE_MAX_PKTS,
	.prepare = prepare_ingress_bpf_redirect_without_target,
	.setup = setup_ingress_bpf_redirect_target_from_xdp,
	.judge = judge_ingress_bpf_redirect_target_from_xdp)
TSE_ROW(ingress_bpf_redirect_flags_after_gone,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .peer = true, .burst_sender = true },
	TSE_F_BASE, TSE_UDP_BURST, .pkts = TSE_MAX_PKTS,
	.prepare = prepare_ingress_bpf_redirect_flags_after_gone,
	.setup = setup_ingress_bpf_redirect_target_from_xdp,
	.judge = judge_ingress_bpf_redirect_flags_after_gone)
TSE_ROW(ingress_bpf_redirect_peer_of_ifb,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .peer = true }, TSE_F_BASE, TSE_UDP,
	.prepare = prepare_ingress_bpf_redirect_peer_of_ifb,
	.setup = setup_ingress_bpf_redirect_peer, .judge = judge_ingress_bpf_redirect_peer_of_ifb)
TSE_ROW(egress_bpf_redirect_peer, { .ifb_ns = TSE_NS_SENDER, .peer = true }, TSE_F_BASE, TSE_UDP,
	.prepare = prepare_egress_bpf_redirect_peer, .setup = setup_egress_bpf_redirect_peer,
	.judge = judge_egress_bpf_redirect_peer)
TSE_ROW(egress_bpf_redirect_to_gone, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE, TSE_UDP,
	.prepare = prepare_egress_bpf_redirect_to_gone,
	.setup = setup_va_redirect_to_target, .judge = judge_egress_bpf_redirect_nowhere)
TSE_ROW(egress_bpf_redirect_to_lo, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE, TSE_UDP,
	.prepare = prepare_egress_bpf_redirect_to_lo,
	.setup = setup_va_redirect_to_target, .judge = judge_egress_bpf_redirect_nowhere)
TSE_ROW(router_two_ifb, { .routed = true, .ifb_ns = TSE_NS_ROUTER, .ifb_in = true },
	TSE_F_MIRRED_U32, TSE_UDP, .setup = setup_router_two_ifb,
	.judge = judge_router_two_ifb)
TSE_ROW(burst, { .routed = true, .ifb_ns = TSE_NS_ROUTER, .burst_sender = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP_BURST, .pkts = TSE_MAX_PKTS,
	.setup = setup_burst, .judge = judge_burst)
TSE_ROW(burst_into_short_ifb_queue,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .burst_sender = true },
	TSE_F_MIRRED_U32, TSE_UDP_BURST, .pkts = TSE_MAX_PKTS,
	.setup = setup_burst_into_short_ifb_queue, .judge = judge_burst_into_short_ifb_queue)
TSE_ROW(burst_two_devices,
	{ .routed = true, .ifb_ns = TSE_NS_ROUTER, .burst_sender = true, .second_output = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP_BURST, .pkts = TSE_MAX_PKTS,
	.setup = setup_burst_two_devices, .judge = judge_burst_two_devices)
TSE_ROW(tcp_stream, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_TCP_STREAM,
	.setup = setup_tcp_stream, .judge = judge_tcp_stream)
TSE_ROW(shaped_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32 | TSE_F_TBF, TSE_UDP,
	.pkts = 16, .setup = setup_shaped_ifb, .judge = judge_shaped_ifb)
TSE_ROW(stacked_into_one_ifb,
	{ .upper = TSE_UPPER_MACVLAN, .ifb_ns = TSE_NS_SENDER, .bare = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC | TSE_F_MACVLAN, TSE_UDP,
	.setup = setup_stacked_into_one_ifb, .judge = judge_stacked_into_one_ifb)
TSE_ROW(stacked_with_clsact_below,
	{ .upper = TSE_UPPER_MACVLAN, .ifb_ns = TSE_NS_SENDER, .bare = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC | TSE_F_MACVLAN, TSE_UDP,
	.setup = setup_stacked_with_clsact_below, .judge = judge_stacked_with_clsact_below)
TSE_ROW(stacked_bond_into_one_ifb,
	{ .upper = TSE_UPPER_BOND, .ifb_ns = TSE_NS_SENDER, .bare = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC | TSE_F_BOND, TSE_UDP,
	.setup = setup_stacked_into_one_ifb, .judge = judge_stacked_into_one_ifb)
TSE_ROW(stacked_bond_with_clsact_below,
	{ .upper = TSE_UPPER_BOND, .ifb_ns = TSE_NS_SENDER, .bare = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC | TSE_F_BOND, TSE_UDP,
	.setup = setup_stacked_with_clsact_below, .judge = judge_stacked_with_clsact_below)
TSE_ROW(bpf_redirect_to_veth, { .ifb_ns = TSE_NS_SENDER, .target = true },
	TSE_F_BASE, TSE_UDP,
	.setup = setup_bpf_redirect_to_veth, .judge = judge_bpf_redirect_to_veth)
TSE_ROW(bpf_redirect_timed_to_veth, { .ifb_ns = TSE_NS_SENDER, .target = true },
	TSE_F_BASE, TSE_UDP_TIMED,
	.setup = setup_bpf_redirect_to_veth, .judge = judge_bpf_redirect_timed_to_veth)
TSE_ROW(tcx_redirect_to_veth, { .ifb_ns = TSE_NS_SENDER, .target = true },
	TSE_F_TCX, TSE_UDP,
	.setup = setup_tcx_redirect_to_veth, .judge = judge_bpf_redirect_to_veth)
TSE_ROW(mirred_to_veth,
	{ .ifb_ns = TSE_NS_SENDER, .target = true, .target_has_vb_mac = true },
	TSE_F_MIRRED_U32, TSE_UDP,
	.setup = setup_mirred_to_veth, .judge = judge_mirred_to_veth)
TSE_ROW(mirred_to_veth_then_neigh_to_ifb,
	{ .ifb_ns = TSE_NS_SENDER, .target = true, .target_has_vb_mac = true,
	  .ifb_has_vb_mac = true },
	TSE_F_MIRRED_U32, TSE_UDP, .setup = setup_mirred_to_veth_then_neigh_to_ifb,
	.judge = judge_mirred_to_veth_then_neigh_to_ifb)
TSE_ROW(root_qdisc_mirred_to_veth,
	{ .ifb_ns = TSE_NS_SENDER, .target = true, .target_has_vb_mac = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP,
	.setup = setup_root_qdisc_mirred_to_veth, .judge = judge_root_qdisc_mirred_to_veth)
TSE_ROW(clone_to_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE, TSE_UDP, .copies = true,
	.setup = setup_clone_to_ifb, .judge = judge_clone_to_ifb)
TSE_ROW(two_ifb_stages, { .ifb_ns = TSE_NS_SENDER, .ifb_in = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP,
	.setup = setup_two_ifb_stages, .judge = judge_two_ifb_stages)
TSE_ROW(egress_hairpin, ROUTER, TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP,
	.setup = setup_egress_hairpin, .judge = judge_egress_hairpin)
TSE_ROW(resubmit, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE, TSE_UDP,
	.setup = setup_resubmit, .judge = judge_resubmit)
TSE_ROW(root_mirror_to_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP,
	.setup = setup_root_mirror_to_ifb, .judge = judge_root_mirror_to_ifb)
TSE_ROW(root_redirect_to_gone, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC, TSE_UDP,
	.setup = setup_root_redirect_to_gone, .judge = judge_root_redirect_to_gone)
TSE_ROW(egress_drop, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_UDP,
	.prepare = prepare_egress_drop, .setup = setup_egress_mirred, .judge = judge_egress_drop)
TSE_ROW(egress_redirect_to_down_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_UDP,
	.setup = setup_egress_redirect_to_down_ifb, .judge = judge_egress_redirect_to_down_ifb)
TSE_ROW(egress_mirror_to_down_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_UDP,
	.setup = setup_egress_mirror_to_down_ifb, .judge = judge_egress_mirror_to_down_ifb)
TSE_ROW(egress_redirect_to_dropping_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_MIRRED_U32, TSE_UDP,
	.prepare = prepare_egress_redirect_to_dropping_ifb,
	.setup = setup_egress_redirect_to_dropping_ifb,
	.judge = judge_egress_redirect_to_dropping_ifb)
TSE_ROW(egress_tcx_redirect_to_dropping_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE | TSE_F_TCX,
	TSE_UDP, .prepare = prepare_egress_redirect_to_dropping_ifb,
	.setup = setup_egress_tcx_redirect_to_dropping_ifb,
	.judge = judge_egress_tcx_redirect_to_dropping_ifb)
TSE_ROW(egress_bpf_redirect_to_self, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE, TSE_UDP,
	.prepare = prepare_egress_bpf_redirect_to_self,
	.setup = setup_egress_bpf_redirect_to_self,
	.judge = judge_egress_bpf_redirect_to_self)
TSE_ROW(egress_mirred_nft_egress, PAIR_AT(TSE_NS_SENDER),
	TSE_F_MIRRED_U32 | TSE_F_NFT_EGRESS, TSE_UDP,
	.setup = setup_egress_mirred_nft_egress, .judge = judge_egress_mirred_nft_egress)
TSE_ROW(device_deleted_while_in_ifb,
	{ .ifb_ns = TSE_NS_SENDER, .aggregate = true, .bare = true },
	TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC | TSE_F_TBF, TSE_UDP,
	.setup = setup_device_deleted_while_in_ifb, .interlude = delete_va2_let_go,
	.judge = judge_device_deleted_while_in_ifb)
TSE_ROW(route_into_ifb, PAIR_AT(TSE_NS_SENDER), TSE_F_BASE, TSE_UDP,
	.setup = setup_route_into_ifb, .judge = judge_route_into_ifb)
