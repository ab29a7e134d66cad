/* SPDX-License-Identifier: GPL-2.0 */
/* Layout shared by test_tc_redirect_ifb.c and the programs that load it. */
#ifndef __TEST_TC_REDIRECT_IFB_H
#define __TEST_TC_REDIRECT_IFB_H

#include <linux/types.h>

/* Test packets carry this payload; anything else on a hook is background. */
#define TSE_MAGIC	0x74736531	/* "tse1" */
#define TSE_MAX_PKTS	16		/* sequence numbers per flow, power of 2 */

struct tse_payload {
	__be32 magic;
	__be32 seq;
};

/* The flow that the scenario redirects to ifb, and one that it leaves alone. */
enum tse_flow {
	TSE_FLOW_REDIRECTED,
	TSE_FLOW_UNRELATED,
	TSE_FLOWS,
};

/* Where a counting program sits; each has its own row of counters. */
enum tse_hook {
	TSE_HOOK_HEAD,		/* first classifier on the hook under test */
	TSE_HOOK_TAIL,		/* last counting classifier before the redirect */
	TSE_HOOK_REDIRECT,	/* the program that bpf_redirect()s to ifb */
	TSE_HOOK_IFB,		/* ifb's own egress: every entry into ifb */
	TSE_HOOK_PEER,		/* the receiving device's ingress */
	TSE_HOOKS,
};

struct tse_config {
	__u32 ifb_ifindex;	/* bpf_redirect() target */
	__u32 loop_limit;	/* entries into ifb after which a packet is dropped */
	__u16 port[TSE_FLOWS];	/* UDP destination port of each flow */
};

struct tse_counters {
	__u32 seen[TSE_HOOKS][TSE_FLOWS][TSE_MAX_PKTS];
	__u32 other[TSE_HOOKS];			/* packets of no test flow */
	__u32 looped[TSE_FLOWS][TSE_MAX_PKTS];	/* dropped by the loop breaker */
};

#endif /* __TEST_TC_REDIRECT_IFB_H */
