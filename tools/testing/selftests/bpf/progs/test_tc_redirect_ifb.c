// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for the tc_redirect_ifb tests: counters that tell how often each
 * tc hook classified each test packet, a bpf_redirect() to ifb, and a loop
 * breaker on ifb itself, so that a kernel that loops packets through ifb
 * still gives a verdict in bounded time.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "test_tc_redirect_ifb.h"

/* Set by the loader before load; a global, so that no map lookup is needed. */
struct tse_config cfg;
struct tse_counters counters;

struct tse_packet {
	__u32 flow;
	__u32 seq;
};

static __always_inline int l4_offset(struct __sk_buff *skb, __u32 *off)
{
	struct ipv6hdr ip6;
	struct iphdr ip;

	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)))
			return -1;
		if (ip.ihl != 5 || ip.protocol != IPPROTO_UDP)
			return -1;
		*off = ETH_HLEN + sizeof(ip);
		return 0;
	}
	if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip6, sizeof(ip6)))
			return -1;
		if (ip6.nexthdr != IPPROTO_UDP)
			return -1;
		*off = ETH_HLEN + sizeof(ip6);
		return 0;
	}
	return -1;
}

/* Is this a test packet, and of which flow and sequence number? */
static __always_inline bool parse_test_packet(struct __sk_buff *skb,
					      struct tse_packet *pkt)
{
	struct tse_payload payload;
	struct udphdr udp;
	__u32 off;

	if (l4_offset(skb, &off))
		return false;
	if (bpf_skb_load_bytes(skb, off, &udp, sizeof(udp)) ||
	    bpf_skb_load_bytes(skb, off + sizeof(udp), &payload, sizeof(payload)))
		return false;
	if (payload.magic != bpf_htonl(TSE_MAGIC))
		return false;
	pkt->seq = bpf_ntohl(payload.seq);
	if (pkt->seq >= TSE_MAX_PKTS)
		return false;
	for (pkt->flow = 0; pkt->flow < TSE_FLOWS; pkt->flow++)
		if (udp.dest == bpf_htons(cfg.port[pkt->flow]))
			return true;
	return false;
}

/*
 * Count one run of @hook; returns the count so far for this packet. The
 * add's own return value is not used: without alu32 atomics (-mcpu=v2),
 * only a plain atomic add is available.
 */
static __always_inline __u32 count(struct __sk_buff *skb, enum tse_hook hook,
				   struct tse_packet *pkt)
{
	__u32 *n;

	if (!parse_test_packet(skb, pkt)) {
		__sync_fetch_and_add(&counters.other[hook], 1);
		pkt->flow = TSE_FLOWS;
		return 0;
	}
	n = &counters.seen[hook][pkt->flow & 1][pkt->seq & (TSE_MAX_PKTS - 1)];
	__sync_fetch_and_add(n, 1);
	return *n;
}

/* Counters return "unspec" so that classification goes on to the next filter. */
SEC("tc")
int tse_count_head(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	count(skb, TSE_HOOK_HEAD, &pkt);
	return TC_ACT_UNSPEC;
}

SEC("tc")
int tse_count_tail(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	count(skb, TSE_HOOK_TAIL, &pkt);
	return TC_ACT_UNSPEC;
}

SEC("tc")
int tse_count_peer(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	count(skb, TSE_HOOK_PEER, &pkt);
	return TC_ACT_UNSPEC;
}

/* TC_ACT_REDIRECT and TCX_REDIRECT are the same value, so are the "next"s. */
static __always_inline int redirect_ifb(struct __sk_buff *skb)
{
	struct tse_packet pkt;

	count(skb, TSE_HOOK_REDIRECT, &pkt);
	if (pkt.flow != TSE_FLOW_REDIRECTED)
		return TC_ACT_UNSPEC;
	return bpf_redirect(cfg.ifb_ifindex, 0);
}

SEC("tc")
int tse_redirect_ifb(struct __sk_buff *skb)
{
	return redirect_ifb(skb);
}

SEC("tcx/egress")
int tse_redirect_ifb_tcx(struct __sk_buff *skb)
{
	return redirect_ifb(skb);
}

/*
 * Attached to ifb's own egress, which every packet passes on its way into
 * ifb. A packet that enters ifb more than loop_limit times is looping: drop
 * it here so the test ends, and record that it looped.
 */
SEC("tc")
int tse_ifb_gate(struct __sk_buff *skb)
{
	struct tse_packet pkt;
	__u32 entries = count(skb, TSE_HOOK_IFB, &pkt);

	if (pkt.flow >= TSE_FLOWS || entries <= cfg.loop_limit)
		return TC_ACT_UNSPEC;
	__sync_fetch_and_add(&counters.looped[pkt.flow & 1]
					     [pkt.seq & (TSE_MAX_PKTS - 1)], 1);
	return TC_ACT_SHOT;
}

char _license[] SEC("license") = "GPL";
