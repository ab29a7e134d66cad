// SPDX-License-Identifier: GPL-2.0
/* tc_redirect_ifb: count each hook's runs per test packet, redirect to ifb, break loops. */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/libbpf_version.h>

#include "test_tc_redirect_ifb.h"

/* libbpf < 1.3 has no tcx sections nor links: the tcx programs load as tc, the tests skip. */
#if LIBBPF_MAJOR_VERSION > 1 || LIBBPF_MINOR_VERSION >= 3
#define SEC_TCX_EGRESS	SEC("tcx/egress")
#else
#define SEC_TCX_EGRESS	SEC("tc")
#endif

#define VLAN_HLEN	4
#define NH_CMP_WORDS	5	/* an IPv4 header's 20 bytes */

const volatile struct tse_config cfg = {};
struct tse_counters counters = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TSE_TCP_SKBS);
	__type(key, struct tse_tcp_key);
	__type(value, struct tse_tcp_runs);
} tcp_skbs SEC(".maps");

enum tse_kind {
	TSE_KIND_OTHER,		/* background: no packet of the test's */
	TSE_KIND_FENCE,		/* the fence that ends the datagrams */
	TSE_KIND_UDP,		/* a test datagram: pkt->flow, pkt->seq */
	TSE_KIND_TCP,		/* a segment of the TCP stream */
};

struct tse_packet {
	__u32 flow;
	__u32 seq;
};

/*
 * No link-layer header on ipip or ip6tnl devices, nor in ifb for what they redirect. A tc
 * program cannot read skb->network_header, but bpf_skb_load_bytes_relative() reads from it.
 * An Ethernet frame's first bytes match only if its EtherType recurs in the IP source address
 * (8.0.x.x, or 86dd in an IPv6 address's third group): no test address has it.
 */
static __always_inline bool at_network_header(struct __sk_buff *skb)
{
	__u32 data[NH_CMP_WORDS], nh[NH_CMP_WORDS];
	int i;

	if (bpf_skb_load_bytes(skb, 0, data, sizeof(data)) ||
	    bpf_skb_load_bytes_relative(skb, 0, nh, sizeof(nh), BPF_HDR_START_NET))
		return false;
#pragma unroll
	for (i = 0; i < NH_CMP_WORDS; i++)
		if (data[i] != nh[i])
			return false;
	return true;
}

static __always_inline int l3_offset(struct __sk_buff *skb, __u16 *proto,
				     __u32 *off)
{
	__be16 inner;

	*proto = skb->protocol;
	*off = ETH_HLEN;
	if (*proto == bpf_htons(ETH_P_8021Q)) {
		if (bpf_skb_load_bytes(skb, ETH_HLEN + 2, &inner, sizeof(inner)))
			return -1;
		*proto = inner;
		*off += VLAN_HLEN;
		return 0;
	}
	if ((*proto == bpf_htons(ETH_P_IP) || *proto == bpf_htons(ETH_P_IPV6)) &&
	    at_network_header(skb))
		*off = 0;
	return 0;
}

static __always_inline int ip_next(struct __sk_buff *skb, bool v6, __u8 *next,
				   __u32 *off)
{
	struct ipv6hdr ip6;
	struct iphdr ip;

	if (!v6) {
		if (bpf_skb_load_bytes(skb, *off, &ip, sizeof(ip)) || ip.version != 4)
			return -1;
		*next = ip.protocol;
		*off += ip.ihl * 4;
		return 0;
	}
	if (bpf_skb_load_bytes(skb, *off, &ip6, sizeof(ip6)) || ip6.version != 6)
		return -1;
	*next = ip6.nexthdr;
	*off += sizeof(ip6);
	return 0;
}

/* Below a tunnel (ipip; ip6ip6 without an encapsulation limit) count the inner packet. */
static __always_inline int l4_offset(struct __sk_buff *skb, __u8 *l4,
				     __u32 *off)
{
	__u16 proto;

	if (l3_offset(skb, &proto, off))
		return -1;
	if (proto != bpf_htons(ETH_P_IP) && proto != bpf_htons(ETH_P_IPV6))
		return -1;
	if (ip_next(skb, proto == bpf_htons(ETH_P_IPV6), l4, off))
		return -1;
	if (*l4 == IPPROTO_IPIP || *l4 == IPPROTO_IPV6)
		return ip_next(skb, *l4 == IPPROTO_IPV6, l4, off);
	return 0;
}

static __always_inline enum tse_kind udp_kind(struct __sk_buff *skb, __u32 off,
					      struct tse_packet *pkt)
{
	struct tse_payload payload;
	struct udphdr udp;

	if (bpf_skb_load_bytes(skb, off, &udp, sizeof(udp)) ||
	    bpf_skb_load_bytes(skb, off + sizeof(udp), &payload, sizeof(payload)))
		return TSE_KIND_OTHER;
	if (payload.magic == bpf_htonl(TSE_FENCE_MAGIC))
		return TSE_KIND_FENCE;
	if (payload.magic != bpf_htonl(TSE_MAGIC))
		return TSE_KIND_OTHER;
	pkt->seq = bpf_ntohl(payload.seq);
	if (pkt->seq >= TSE_MAX_PKTS)
		return TSE_KIND_OTHER;
	for (pkt->flow = 0; pkt->flow < TSE_FLOWS; pkt->flow++)
		if (udp.dest == bpf_htons(cfg.port[pkt->flow]))
			return TSE_KIND_UDP;
	return TSE_KIND_OTHER;
}

static __always_inline enum tse_kind tcp_kind(struct __sk_buff *skb, __u32 off,
					      struct tse_packet *pkt)
{
	struct tcphdr tcp;

	if (!cfg.tcp_port || bpf_skb_load_bytes(skb, off, &tcp, sizeof(tcp)) ||
	    tcp.dest != bpf_htons(cfg.tcp_port))
		return TSE_KIND_OTHER;
	pkt->seq = bpf_ntohl(tcp.seq);
	return TSE_KIND_TCP;
}

static __always_inline enum tse_kind classify(struct __sk_buff *skb,
					      struct tse_packet *pkt)
{
	__u32 off;
	__u8 l4;

	/* Defined for every kind: newer clang computes counter addresses early. */
	pkt->flow = 0;
	pkt->seq = 0;
	if (l4_offset(skb, &l4, &off))
		return TSE_KIND_OTHER;
	if (l4 == IPPROTO_UDP)
		return udp_kind(skb, off, pkt);
	if (l4 == IPPROTO_TCP)
		return tcp_kind(skb, off, pkt);
	return TSE_KIND_OTHER;
}

static __always_inline __u32 *seen(enum tse_hook hook, struct tse_packet *pkt)
{
	return &counters.seen[hook][pkt->flow & 1][pkt->seq & (TSE_MAX_PKTS - 1)];
}

static __always_inline void count_tcp_skb(struct __sk_buff *skb,
					  enum tse_hook hook, __u32 seq)
{
	struct tse_tcp_key key = { .seq = seq, .len = skb->len };
	struct tse_tcp_runs zero = {}, *runs;

	if (hook != TSE_HOOK_HEAD && hook != TSE_HOOK_IFB)
		return;
	runs = bpf_map_lookup_elem(&tcp_skbs, &key);
	if (!runs) {
		bpf_map_update_elem(&tcp_skbs, &key, &zero, BPF_NOEXIST);
		runs = bpf_map_lookup_elem(&tcp_skbs, &key);
	}
	if (!runs)
		__sync_fetch_and_add(&counters.tcp.untracked, 1);
	else if (hook == TSE_HOOK_HEAD)
		__sync_fetch_and_add(&runs->head, 1);
	else
		__sync_fetch_and_add(&runs->ifb, 1);
}

static __always_inline void keep_fields(struct __sk_buff *skb,
					enum tse_hook hook,
					struct tse_packet *pkt)
{
	struct tse_fields *f;

	if (pkt->flow != TSE_FLOW_REDIRECTED)
		return;
	f = &counters.fields[hook][pkt->seq & (TSE_MAX_PKTS - 1)];
	f->mark = skb->mark;
	f->priority = skb->priority;
	f->tc_index = skb->tc_index;
	f->ingress_ifindex = skb->ingress_ifindex;
	f->tstamp_type = skb->tstamp_type;
	f->pkt_type = skb->pkt_type;
	f->queue_mapping = skb->queue_mapping;
	f->ifindex = skb->ifindex;
	f->tc_classid = skb->tc_classid;
	f->protocol = bpf_ntohs(skb->protocol);
	f->vlan_present = skb->vlan_present;
	f->vlan_tci = skb->vlan_tci;
}

/* Atomic adds, their value unused: without alu32 atomics (-mcpu=v2) only a plain add exists. */
static __always_inline enum tse_kind count(struct __sk_buff *skb,
					   enum tse_hook hook,
					   struct tse_packet *pkt)
{
	enum tse_kind kind = classify(skb, pkt);

	if (kind == TSE_KIND_UDP) {
		__sync_fetch_and_add(seen(hook, pkt), 1);
		keep_fields(skb, hook, pkt);
		if (cfg.timed && skb->tstamp)
			__sync_fetch_and_add(&counters.timed[hook], 1);
	} else if (kind == TSE_KIND_TCP) {
		__sync_fetch_and_add(&counters.tcp.skbs[hook], 1);
		__sync_fetch_and_add(&counters.tcp.segs[hook],
				     skb->gso_segs ? skb->gso_segs : 1);
		count_tcp_skb(skb, hook, pkt->seq);
	} else {
		__sync_fetch_and_add(&counters.other[hook], 1);
		if (kind == TSE_KIND_FENCE)
			__sync_fetch_and_add(&counters.fence[hook], 1);
	}
	return kind;
}

static __always_inline void record_loop(enum tse_kind kind,
					struct tse_packet *pkt)
{
	if (kind == TSE_KIND_TCP)
		__sync_fetch_and_add(&counters.tcp.looped, 1);
	else
		__sync_fetch_and_add(&counters.looped[pkt->flow & 1]
						     [pkt->seq & (TSE_MAX_PKTS - 1)], 1);
}

/*
 * skb->mark counts a test packet's passes: it survives ifb, a netns crossing clears it. A
 * looping fence is dropped unrecorded: copies of it kept coming would hold up the test's end.
 */
static __always_inline int break_loop(struct __sk_buff *skb, enum tse_kind kind,
				      struct tse_packet *pkt)
{
	if (kind != TSE_KIND_UDP && kind != TSE_KIND_TCP && kind != TSE_KIND_FENCE)
		return TC_ACT_UNSPEC;
	if (++skb->mark <= cfg.loop_limit)
		return TC_ACT_UNSPEC;
	if (kind != TSE_KIND_FENCE)
		record_loop(kind, pkt);
	return TC_ACT_SHOT;
}

/* Counters return UNSPEC: they observe. cfg.breaker's breaks loops where no ifb gate can. */
static __always_inline int count_and_go_on(struct __sk_buff *skb,
					   enum tse_hook hook)
{
	struct tse_packet pkt;
	enum tse_kind kind = count(skb, hook, &pkt);

	return hook == cfg.breaker ? break_loop(skb, kind, &pkt) : TC_ACT_UNSPEC;
}

SEC("tc")
int tse_count_head(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_HEAD);
}

SEC("tc")
int tse_count_tail(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_TAIL);
}

SEC("tc")
int tse_count_peer(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_PEER);
}

SEC("tc")
int tse_count_target(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_TARGET);
}

SEC("tc")
int tse_count_in(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_IN);
}

SEC("tc")
int tse_count_lower(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_LOWER);
}

SEC("tc")
int tse_count_back(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_BACK);
}

SEC("tc")
int tse_count_mirror(struct __sk_buff *skb)
{
	return count_and_go_on(skb, TSE_HOOK_MIRROR);
}

/*
 * The first place after ifb on every kernel (the fix skips clsact). skb_iif == ifb's ifindex
 * here means the packet left ifb; a redirecting root qdisc also sees it before ifb.
 */
SEC("tc")
int tse_count_reinject(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	enum tse_kind kind = count(skb, TSE_HOOK_REINJECT, &pkt);

	if (kind == TSE_KIND_UDP && pkt.flow == TSE_FLOW_REDIRECTED &&
	    skb->ingress_ifindex == cfg.ifb_ifindex)
		__sync_fetch_and_add(&counters.in_ifb, -1);
	return cfg.breaker == TSE_HOOK_REINJECT ? break_loop(skb, kind, &pkt) :
						  TC_ACT_UNSPEC;
}

/* 1: a test packet to send on; 0: one to let pass; -1: the loop breaker stopped it. */
static __always_inline int site_sends_packet(struct __sk_buff *skb, enum tse_kind *kind,
					     struct tse_packet *pkt)
{
	*kind = count(skb, TSE_HOOK_REDIRECT, pkt);
	if (*kind != TSE_KIND_UDP)
		return 0;
	if (cfg.breaker == TSE_HOOK_REDIRECT &&
	    break_loop(skb, *kind, pkt) == TC_ACT_SHOT)
		return -1;
	return pkt->flow == TSE_FLOW_REDIRECTED || cfg.redirect_both;
}

static __always_inline int site_sends(struct __sk_buff *skb, enum tse_kind *kind)
{
	struct tse_packet pkt;

	return site_sends_packet(skb, kind, &pkt);
}

/*
 * Each test packet to @ifindex, or with @peer into its veth peer; the rest passes.
 * TC_ACT_REDIRECT and TCX_REDIRECT are the same value, so are the "next"s.
 */
static __always_inline int redirect_sent(struct __sk_buff *skb, __u32 ifindex, bool peer)
{
	enum tse_kind kind;
	int sends = site_sends(skb, &kind);

	if (sends < 0)
		return TC_ACT_SHOT;
	if (!sends)
		return TC_ACT_UNSPEC;
	return peer ? bpf_redirect_peer(ifindex, 0) : bpf_redirect(ifindex, 0);
}

static __always_inline int redirect_ifb(struct __sk_buff *skb)
{
	return redirect_sent(skb, cfg.ifb_ifindex, false);
}

SEC("tc")
int tse_redirect_ifb(struct __sk_buff *skb)
{
	return redirect_ifb(skb);
}

SEC_TCX_EGRESS
int tse_redirect_ifb_tcx(struct __sk_buff *skb)
{
	return redirect_ifb(skb);
}

static __always_inline int clone_ifb(struct __sk_buff *skb)
{
	enum tse_kind kind;
	int sends = site_sends(skb, &kind);

	if (sends < 0)
		return TC_ACT_SHOT;
	if (sends)
		bpf_clone_redirect(skb, cfg.ifb_ifindex, 0);
	return TC_ACT_UNSPEC;
}

SEC("tc")
int tse_clone_ifb(struct __sk_buff *skb)
{
	return clone_ifb(skb);
}

SEC_TCX_EGRESS
int tse_clone_ifb_tcx(struct __sk_buff *skb)
{
	return clone_ifb(skb);
}

/* Readdressed to the target's link peer, so that the receiver takes it. */
static __always_inline int redirect_to_target(struct __sk_buff *skb)
{
	if (bpf_skb_store_bytes(skb, 0, (const void *)cfg.target_mac,
				sizeof(cfg.target_mac), 0))
		return TC_ACT_SHOT;
	return bpf_redirect(cfg.target_ifindex, 0);
}

/* Not to ifb: nothing the target reads may depend on the fix. The fence follows the packets. */
static __always_inline int redirect_plain(struct __sk_buff *skb)
{
	enum tse_kind kind;
	int sends = site_sends(skb, &kind);

	if (sends < 0)
		return TC_ACT_SHOT;
	if (!sends && kind != TSE_KIND_FENCE)
		return TC_ACT_UNSPEC;
	return redirect_to_target(skb);
}

SEC("tc")
int tse_redirect_plain(struct __sk_buff *skb)
{
	return redirect_plain(skb);
}

SEC_TCX_EGRESS
int tse_redirect_plain_tcx(struct __sk_buff *skb)
{
	return redirect_plain(skb);
}

/* Back to its own device once, as a program that strips a header does: no ifb, seen twice. */
static __always_inline int resubmit_own(struct __sk_buff *skb)
{
	struct tse_packet pkt;
	enum tse_kind kind;
	int sends = site_sends_packet(skb, &kind, &pkt);

	if (sends < 0)
		return TC_ACT_SHOT;
	if (sends && *seen(TSE_HOOK_REDIRECT, &pkt) == 1)
		return bpf_redirect(skb->ifindex, 0);
	return TC_ACT_UNSPEC;
}

SEC("tc")
int tse_resubmit_own(struct __sk_buff *skb)
{
	return resubmit_own(skb);
}

SEC_TCX_EGRESS
int tse_resubmit_own_tcx(struct __sk_buff *skb)
{
	return resubmit_own(skb);
}

/* Back to its own device every time: the kernel's transmit recursion limit ends the loop. */
SEC("tc")
int tse_redirect_self(struct __sk_buff *skb)
{
	return redirect_sent(skb, skb->ifindex, false);
}

/* To cfg.target_ifindex: an ifindex no device has, or lo's; the kernel drops each test packet. */
SEC("tc")
int tse_redirect_target(struct __sk_buff *skb)
{
	return redirect_sent(skb, cfg.target_ifindex, false);
}

/* Each test packet into the peer of cfg.target_ifindex's veth, as if the peer received it. */
SEC("tc")
int tse_redirect_peer(struct __sk_buff *skb)
{
	return redirect_sent(skb, cfg.target_ifindex, true);
}

/*
 * Even test packets by bpf_redirect_peer(); odd ones return TC_ACT_REDIRECT with no helper call,
 * so with no target: the kernel must drop them, not take the target of the packet before.
 */
SEC("tc")
int tse_redirect_peer_or_bare(struct __sk_buff *skb)
{
	struct tse_packet pkt;
	enum tse_kind kind;
	int sends = site_sends_packet(skb, &kind, &pkt);

	if (sends < 0)
		return TC_ACT_SHOT;
	if (!sends)
		return TC_ACT_UNSPEC;
	return pkt.seq & 1 ? TC_ACT_REDIRECT : bpf_redirect_peer(cfg.target_ifindex, 0);
}

/*
 * Each test packet to ifb by bpf_redirect_neigh(), through a next hop on ifb (a documentation
 * address; ifb has no ARP, so any will do): this path does not mark the packet redirected.
 */
SEC("tc")
int tse_redirect_neigh_ifb(struct __sk_buff *skb)
{
	struct bpf_redir_neigh nh = {};
	struct tse_packet pkt;
	enum tse_kind kind = count(skb, TSE_HOOK_TARGET, &pkt);

	if (kind != TSE_KIND_UDP || pkt.flow != TSE_FLOW_REDIRECTED)
		return TC_ACT_UNSPEC;
	if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		nh.nh_family = 10;	/* AF_INET6 */
		nh.ipv6_nh[0] = bpf_htonl(0x20010db8);
		nh.ipv6_nh[3] = bpf_htonl(0xfe);
	} else {
		nh.nh_family = 2;	/* AF_INET */
		nh.ipv4_nh = bpf_htonl(0xc00002fe);	/* 192.0.2.254 */
	}
	return bpf_redirect_neigh(cfg.ifb_ifindex, &nh, sizeof(nh), 0);
}

/*
 * XDP's bpf_redirect() names cfg.xdp_target_ifindex for each packet, which then passes: XDP
 * does not act on the target, and it stays in the redirect info that tc's hook reads next.
 */
SEC("xdp")
int tse_xdp_name_target(struct xdp_md *ctx)
{
	bpf_redirect(cfg.xdp_target_ifindex, 0);
	return XDP_PASS;
}

/*
 * Each redirected test packet leaves va for a MAC that is not ra's, as after a stale neighbour
 * entry (00:00:5e:00:53:01, RFC 7042's documentation range): ra takes it as PACKET_OTHERHOST.
 */
SEC("tc")
int tse_to_other_host(struct __sk_buff *skb)
{
	static const __u8 other_host[ETH_ALEN] = { 0x00, 0x00, 0x5e, 0x00, 0x53, 0x01 };
	struct tse_packet pkt;

	if (count(skb, TSE_HOOK_TAIL, &pkt) == TSE_KIND_UDP && pkt.flow == TSE_FLOW_REDIRECTED &&
	    bpf_skb_store_bytes(skb, 0, other_host, sizeof(other_host), 0))
		return TC_ACT_SHOT;
	return TC_ACT_UNSPEC;
}

/* A copy to ifb; the fence's too, but not a copy of it that came back from ifb (skb_iif set). */
SEC("tc")
int tse_clone_to_ifb(struct __sk_buff *skb)
{
	struct tse_packet pkt;
	enum tse_kind kind = count(skb, TSE_HOOK_REDIRECT, &pkt);

	if (kind == TSE_KIND_UDP ||
	    (kind == TSE_KIND_FENCE && !skb->ingress_ifindex))
		bpf_clone_redirect(skb, cfg.ifb_ifindex, 0);
	return TC_ACT_OK;
}

/* skb->mark: resubmitted already; the crossing into the receiver's netns clears it. */
SEC("tc")
int tse_resubmit(struct __sk_buff *skb)
{
	struct tse_packet pkt;
	enum tse_kind kind = count(skb, TSE_HOOK_REDIRECT, &pkt);

	if (kind != TSE_KIND_UDP && kind != TSE_KIND_FENCE)
		return TC_ACT_OK;
	if (skb->mark)
		return TC_ACT_OK;
	skb->mark = 1;
	return bpf_redirect(skb->ifindex, 0);
}

/* A burst arrives in one softirq run: each ifb batch holds packets of both outputs. */
SEC("tc")
int tse_split_odd(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	if (count(skb, TSE_HOOK_IN, &pkt) != TSE_KIND_UDP ||
	    pkt.flow != TSE_FLOW_REDIRECTED || !(pkt.seq & 1))
		return TC_ACT_UNSPEC;
	return redirect_to_target(skb);
}

/* Of a CHECKSUM_PARTIAL packet's checksum only the pseudo header (@pseudo) is in it yet. */
static __always_inline int rewrite(struct __sk_buff *skb, __u32 off, __u32 *to,
				   __u32 len, __u32 csum, __u32 l3_csum, bool pseudo)
{
	__u32 from[4] = {}, flags = BPF_F_MARK_MANGLED_0 | (pseudo ? BPF_F_PSEUDO_HDR : 0);
	__s64 diff;

	if (bpf_skb_load_bytes(skb, off, from, len))
		return -1;
	diff = bpf_csum_diff(from, len, to, len, 0);
	if (diff < 0 || bpf_l4_csum_replace(skb, csum, 0, diff, flags) ||
	    (l3_csum && bpf_l3_csum_replace(skb, l3_csum, 0, diff, 0)))
		return -1;
	return bpf_skb_store_bytes(skb, off, to, len, 0);
}

static __always_inline void second_daddr(__u32 *addr)
{
	int i;

#pragma unroll
	for (i = 0; i < 16; i++)
		((__u8 *)addr)[i] = cfg.second_daddr[i];
}

/* The port is rewritten with the length after it: the checksum helpers take 32-bit words. */
static __always_inline int split_datagram(struct __sk_buff *skb)
{
	__u32 l3, l4, csum, magic = bpf_htonl(TSE_MAGIC), port_len, addr[4];
	bool v6;
	__u16 proto;
	__u8 next;

	if (l3_offset(skb, &proto, &l3) ||
	    (proto != bpf_htons(ETH_P_IP) && proto != bpf_htons(ETH_P_IPV6)))
		return 0;
	v6 = proto == bpf_htons(ETH_P_IPV6);
	l4 = l3;
	if (ip_next(skb, v6, &next, &l4) || next != IPPROTO_UDP ||
	    bpf_skb_load_bytes(skb, l4 + sizeof(struct udphdr), addr, 4) ||
	    addr[0] != bpf_htonl(TSE_SPLIT_MAGIC) ||
	    bpf_skb_load_bytes(skb, l4 + offsetof(struct udphdr, dest), &port_len, 4))
		return 0;
	((__u16 *)&port_len)[0] = bpf_htons(cfg.port[TSE_FLOW_SECOND]);
	csum = l4 + offsetof(struct udphdr, check);
	second_daddr(addr);
	return rewrite(skb, l4 + sizeof(struct udphdr), &magic, 4, csum, 0, false) ?:
	       rewrite(skb, l4 + offsetof(struct udphdr, dest), &port_len, 4, csum, 0, false) ?:
	       (v6 ? rewrite(skb, l3 + offsetof(struct ipv6hdr, daddr), addr, 16, csum, 0, true) :
		     rewrite(skb, l3 + offsetof(struct iphdr, daddr), addr, 4, csum,
			     l3 + offsetof(struct iphdr, check), true));
}

/* vi splits the burst; a datagram it cannot rewrite stays of no flow (tse_expect_quiet()). */
SEC("tc")
int tse_split_flows(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	split_datagram(skb);
	count(skb, TSE_HOOK_IN, &pkt);
	return TC_ACT_UNSPEC;
}

static __always_inline void track_batch(void)
{
	__u32 now;

	__sync_fetch_and_add(&counters.in_ifb, 1);
	now = counters.in_ifb;
	if (now > counters.max_in_ifb)
		counters.max_in_ifb = now;
}

SEC("tc")
int tse_ifb_gate(struct __sk_buff *skb)
{
	bool in = cfg.ifb_in_ifindex && skb->ifindex == cfg.ifb_in_ifindex;
	enum tse_hook hook = in ? TSE_HOOK_IFB_IN : TSE_HOOK_IFB;
	struct tse_packet pkt;
	enum tse_kind kind = count(skb, hook, &pkt);

	if (kind == TSE_KIND_FENCE)
		return break_loop(skb, kind, &pkt);
	if (kind != TSE_KIND_UDP && kind != TSE_KIND_TCP)
		return TC_ACT_UNSPEC;
	if (kind == TSE_KIND_TCP && skb->gso_segs > 1)
		__sync_fetch_and_add(&counters.tcp.gso_skbs, 1);
	/* ingress_ifindex is skb_iif: ifb returns the packet to it, or drops it. */
	if (!skb->ingress_ifindex)
		__sync_fetch_and_add(&counters.iif_zero, 1);
	if (kind == TSE_KIND_UDP && !in && pkt.flow == TSE_FLOW_REDIRECTED)
		track_batch();
	return break_loop(skb, kind, &pkt);
}

/*
 * Every tc hook sets the task's bpf_net_context, where bpf_redirect() keeps its target, and
 * clears it on its way out. One left set points into a stack frame that has returned.
 */
SEC("raw_tp/sys_exit")
int tse_net_ctx_left(void *ctx)
{
	__u64 task = bpf_get_current_task();
	void *net_ctx = NULL;

	if (bpf_get_current_pid_tgid() >> 32 != cfg.tgid)
		return 0;
	if (!bpf_probe_read_kernel(&net_ctx, sizeof(net_ctx),
				   (void *)(task + cfg.net_ctx_off)) && net_ctx)
		__sync_fetch_and_add(&counters.net_ctx_left, 1);
	return 0;
}

/* printk() runs in its caller's context: the test's process logged what it sees here. */
SEC("raw_tp/console")
int tse_count_xmit_limit_msgs(__u64 *ctx)
{
	char text[sizeof(TSE_XMIT_LIMIT_MSG)] = {};
	int i;

	if (bpf_get_current_pid_tgid() >> 32 != cfg.tgid)
		return 0;
	if (bpf_probe_read_kernel(text, sizeof(text) - 1, (void *)ctx[0]))
		return 0;
#pragma clang loop unroll(full)
	for (i = 0; i < sizeof(text) - 1; i++)
		if (text[i] != TSE_XMIT_LIMIT_MSG[i])
			return 0;
	__sync_fetch_and_add(&counters.xmit_limit_msgs, 1);
	return 0;
}

static long stall_turn(__u32 i, void *ctx)
{
	return 0;
}

/*
 * The filter of a packet socket on ifb: taps run in ifb's transmit path, under its queue
 * lock, so each packet into ifb holds the lock TSE_STALL_TURNS turns longer. Two CPUs
 * sending into ifb then often find it taken (ifb_ri_tasklet()'s trylocks). It takes no
 * packet.
 */
SEC("socket")
int tse_stall_ifb_xmit(struct __sk_buff *skb)
{
	bpf_loop(TSE_STALL_TURNS, stall_turn, NULL, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
