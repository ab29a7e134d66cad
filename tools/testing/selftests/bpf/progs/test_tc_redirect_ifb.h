/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TEST_TC_REDIRECT_IFB_H
#define __TEST_TC_REDIRECT_IFB_H

#include <linux/types.h>

/* Test datagrams carry TSE_MAGIC; anything else on a hook, fences included, is background. */
#define TSE_MAGIC	0x74736531	/* "tse1" */
#define TSE_FENCE_MAGIC	0x74736566	/* "tsef" */
/* The kernel's log line when bpf_redirect() meets the transmit recursion limit. */
#define TSE_XMIT_LIMIT_MSG	"bpf: recursion limit reached"
/* A datagram of the second flow inside the first's burst, until vi's split. */
#define TSE_SPLIT_MAGIC	0x74736532	/* "tse2" */
#define TSE_MAX_PKTS	64		/* sequence numbers per flow, power of 2 */
#define TSE_STALL_TURNS	16384		/* bpf_loop() turns a stall takes */

struct tse_payload {
	__be32 magic;
	__be32 seq;
};

enum tse_flow {
	TSE_FLOW_REDIRECTED,
	/* the unrelated flow; in aggregate points, the second device's */
	TSE_FLOW_SECOND,
	TSE_FLOWS,
};

enum tse_hook {
	TSE_HOOK_HEAD,		/* first classifier on the hook under test */
	TSE_HOOK_TAIL,		/* last counting classifier before the redirect */
	TSE_HOOK_REDIRECT,	/* the program that bpf_redirect()s to ifb */
	TSE_HOOK_IFB,		/* ifb's own egress: every entry into ifb */
	TSE_HOOK_IFB_IN,	/* the same on a second ifb, fed from ingress */
	TSE_HOOK_PEER,		/* the receiving device's ingress */
	TSE_HOOK_IN,		/* a router's input device, ingress; vi's, splitting a burst */
	TSE_HOOK_LOWER,		/* the lower device's egress under a stacked one */
	TSE_HOOK_REINJECT,	/* the root qdisc of the device ifb returns to */
	TSE_HOOK_BACK,		/* a router's input device, egress */
	TSE_HOOK_MIRROR,	/* the monitor's ingress: copies a root action made */
	TSE_HOOK_TARGET,	/* egress of a plain device a bpf_redirect() sends to */
	TSE_HOOKS,
};

struct tse_config {
	__u32 ifb_ifindex;	/* bpf_redirect() target */
	__u32 ifb_in_ifindex;	/* the second ifb, if any */
	__u32 loop_limit;	/* entries into ifb after which a packet is dropped */
	__u32 breaker;		/* TSE_HOOKS: the loop breaker is on ifb; else this hook's */
	__u16 port[TSE_FLOWS];	/* UDP destination port of each flow */
	__u16 tcp_port;		/* TCP destination port of the stream */
	__u8 redirect_both;	/* bpf_redirect() both flows: two devices, one ifb */
	__u32 target_ifindex;	/* a plain device for bpf_redirect() */
	__u8 target_mac[6];	/* the MAC of the target's link peer */
	__u32 xdp_target_ifindex;	/* what XDP's bpf_redirect() names: rb */
	__u8 second_daddr[16];	/* vb2's address: where vi's split sends the second flow */
	__u32 tgid;		/* the test's process, whose syscalls are watched */
	__u32 net_ctx_off;	/* offset of task_struct's bpf_net_context (kernel BTF) */
	__u8 timed;		/* the datagrams carry a delivery time: count it */
};

struct tse_tcp_counters {
	__u32 skbs[TSE_HOOKS];
	__u32 segs[TSE_HOOKS];
	__u32 gso_skbs;		/* skbs with more than one segment, at the gate */
	__u32 looped;
	__u32 untracked;	/* skbs the map tcp_skbs had no room for */
};

/* An skb of the stream; len too, as the handshake's last ACK has the first data skb's seq. */
struct tse_tcp_key {
	__u32 seq;
	__u32 len;
};

/* How often the hook under test, and ifb's gate, saw that skb. */
struct tse_tcp_runs {
	__u32 head;
	__u32 ifb;
};

#define TSE_TCP_SKBS	8192	/* 1 MiB is at most 725 full-sized segments */

/* What a hook read of a redirected test packet: the fix may change only what it means to. */
struct tse_fields {
	__u32 mark;
	__u32 priority;
	__u32 tc_index;
	__u32 ingress_ifindex;
	__u32 tstamp_type;
	__u32 pkt_type;
	__u32 queue_mapping;
	__u32 ifindex;
	__u32 tc_classid;
	__u32 protocol;		/* in host byte order */
	__u32 vlan_present;
	__u32 vlan_tci;
};

struct tse_counters {
	__u32 seen[TSE_HOOKS][TSE_FLOWS][TSE_MAX_PKTS];
	__u32 other[TSE_HOOKS];			/* packets of no test flow */
	__u32 fence[TSE_HOOKS];			/* of those, the traffic's fences */
	__u32 looped[TSE_FLOWS][TSE_MAX_PKTS];	/* dropped by the loop breaker */
	struct tse_tcp_counters tcp;
	__u32 in_ifb;		/* redirected packets between gate and root qdisc */
	__u32 max_in_ifb;	/* the most of them at once: ifb's largest batch */
	__u32 iif_zero;		/* test packets that entered ifb with skb_iif 0 */
	__u32 net_ctx_left;	/* the test's syscalls that returned with a bpf_net_context */
	__u32 xmit_limit_msgs;	/* TSE_XMIT_LIMIT_MSG lines the test's process logged */
	__u32 timed[TSE_HOOKS];	/* test datagrams with a time (skb->tstamp), if cfg.timed */
	struct tse_fields fields[TSE_HOOKS][TSE_MAX_PKTS];
};

#endif /* __TEST_TC_REDIRECT_IFB_H */
