/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the library's parts share (words: docs/glossary.md). Each uses only the parts above it:
 *
 *   tse_result.c     checks, results, diagnoses
 *   tse_netlink.c    kernel counters over rtnetlink
 *   tse_topology.c   namespaces, devices, addresses, tc and BPF attachment
 *   tse_probes.c     feature probes: a test skips before it builds anything
 *   tse_traffic.c    the UDP flows, the UDP burst, the TCP stream; the wait
 *   tse_oracles.c    what a correct kernel does, checked against the counters
 *   tse_grid.c       the grid's points: setup, observers, the model
 *   tse_scenarios.c  the hand-written scenarios, the table of all (tse_table.h)
 *   tse_runner.c     tse_setup(), tse_exercise(), tse_teardown()
 */
#ifndef __TSE_INTERNAL_H
#define __TSE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <time.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>

#include "tse.h"
#include "tse_point.h"
#include "../../bpf/progs/test_tc_redirect_ifb.h"
#include "test_tc_redirect_ifb.skel.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define TSE_PKTS	5	/* test datagrams per flow, unless a scenario says */
#define TSE_LOOP_LIMIT	8	/* entries into ifb before a packet counts as looping */
#define TSE_GONE_IFINDEX 0x7fffff00	/* no device's: a netns counts its ifindexes up from 1 */
#define TSE_LO_IFINDEX	1		/* lo's, in every netns: it is registered first */
#define TSE_XMIT_LIMIT	8	/* the kernel's XMIT_RECURSION_LIMIT (linux/netdevice.h) */
#define TSE_WAIT_MS	3000	/* how long a packet may take to reach an outcome */
#define TSE_FENCE_MS	1000	/* how long the fence may take */
#define TSE_STREAM_MS	20000	/* how long the TCP stream may take */
#define TSE_PORT	4000	/* UDP port of the redirected flow; the second: +1 */
#define TSE_TCP_PORT	4010	/* TCP port of the stream */
#define TSE_STREAM_BYTES (1024 * 1024)

/* Routed: a router between sender and receiver; forwarded: an origin before the sender. */
enum tse_ns {
	TSE_NS_SENDER,
	TSE_NS_ROUTER,
	TSE_NS_RECEIVER,
	TSE_NS_ORIGIN,
	TSE_NSS,
};

enum tse_dev {
	TSE_VA,		/* sender's veth */
	TSE_VB,		/* receiver's veth */
	TSE_RA,		/* router's input veth, va's peer */
	TSE_RB,		/* router's output veth, vb's peer */
	TSE_UP_A,	/* the upper device over va: vlan, macvlan, bond, tunnel, bridge */
	TSE_UP_B,	/* the same over vb */
	TSE_IFB,	/* the ifb the hook under test redirects to */
	TSE_IFB_IN,	/* a second ifb: the router's input's, or a second stage's */
	TSE_VC,		/* the sender's monitor veth: a root action's target, a bridge's port */
	TSE_VD,		/* its peer, where the copies are counted */
	TSE_VA2,	/* a second sender veth: aggregate points, a redirect target */
	TSE_VB2,	/* its peer */
	TSE_RB2,	/* a router's second output veth, vb2's peer */
	TSE_VO,		/* the origin's veth, where forwarded packets come from */
	TSE_VI,		/* its peer, the sender's input: it forwards what vo sends */
	TSE_DEVS,
};

enum tse_tool {
	TSE_IP,
	TSE_TC,
	TSE_TOOLS,
};

#define TSE_QUEUE	2048	/* room for one tool's batch in one namespace */

enum tse_feature {
	TSE_F_VETH	= BIT(0),
	TSE_F_IFB	= BIT(1),
	TSE_F_CLSACT	= BIT(2),
	TSE_F_CLS_BPF	= BIT(3),
	TSE_F_U32	= BIT(4),
	TSE_F_MIRRED	= BIT(5),
	TSE_F_ROOT_QDISC = BIT(6),	/* prio, or htb where there is no prio */
	TSE_F_TCX	= BIT(7),
	TSE_F_VLAN	= BIT(8),
	TSE_F_TBF	= BIT(9),
	TSE_F_MACVLAN	= BIT(10),
	TSE_F_BOND	= BIT(11),
	TSE_F_TUNNEL	= BIT(12),	/* ipip in IPv4 tests, ip6tnl in IPv6 tests */
	TSE_F_BRIDGE	= BIT(13),
	TSE_F_NFT_EGRESS = BIT(14),	/* nftables' netdev egress hook, and nft */
	TSE_F_QINQ	= BIT(15),
	TSE_F_TWO_CPUS	= BIT(16),	/* two CPUs the test may run on */
};

#define TSE_F_BASE	(TSE_F_VETH | TSE_F_IFB | TSE_F_CLSACT | TSE_F_CLS_BPF)
#define TSE_F_MIRRED_U32 (TSE_F_BASE | TSE_F_U32 | TSE_F_MIRRED)

struct tse_shape {
	bool routed;		/* sender - router - receiver, else a veth pair */
	enum tse_upper upper;	/* the traffic runs over a device stacked on va and vb */
	enum tse_ns ifb_ns;	/* the namespace of the ifb(s) */
	bool ifb_in;		/* a second ifb: a router's input, a second stage */
	bool burst_sender;	/* va segments in software: GSO sends burst */
	bool monitor;		/* a second veth pair, vc - vd, for mirrors */
	bool tap;		/* a packet socket on va counts what it sends */
	bool aggregate;		/* a second veth pair, va2 - vb2, its own flow */
	bool target;		/* va2 - vb2, a plain target for a redirect */
	bool target_has_vb_mac;	/* vb2 answers to vb's MAC (a redirect that cannot readdress) */
	bool ifb_has_vb_mac;	/* so a neighbour on ifb (no ARP: its own MAC) is for vb */
	bool bare;		/* clsact only where the scenario adds one */
	bool second_output;	/* routed: rb2 - vb2, for what ra's program sends */
	bool forwarded;		/* the sender forwards what the origin sends it */
	bool hairpin;		/* a redirect sends it back out of vi, to vo's MAC */
	bool split_burst;	/* one burst from vo carries both flows; vi splits it */
	bool two_cpus;		/* va's and va2's flows at once, each from its own CPU */
	bool peer;		/* bpf_redirect_peer() names rb (routed) or va: vb is the peer */
};

enum tse_traffic {
	TSE_UDP,		/* datagrams one at a time */
	TSE_UDP_BURST,		/* one UDP GSO send: the datagrams in a burst */
	TSE_UDP_TIMED,		/* datagrams one at a time, each with a delivery time */
	TSE_TCP_STREAM,		/* TSE_STREAM_BYTES over one TCP connection */
};

struct tse_test;

struct tse_scenario {
	const char *name;
	struct tse_shape shape;
	unsigned int features;
	enum tse_traffic traffic;
	int pkts;		/* datagrams per flow; 0: TSE_PKTS */
	bool unrelated;		/* also send a flow that is not redirected */
	bool copies;		/* sends ifb copies: ifb's drops are theirs */
	struct tse_point point;	/* the grid's points */
	void (*prepare)(struct tse_test *t);
	int (*setup)(struct tse_test *t);
	/*
	 * If set, the second flow is sent first, then this runs, then the first flow.
	 * Datagram traffic only: a TCP stream refuses it (setup error).
	 */
	int (*interlude)(struct tse_test *t);
	void (*judge)(struct tse_test *t);
};

/* Root qdisc classes counted, by minor number: 1:1, 1:2 (default), 1:3. */
#define TSE_CLASSES	4
#define TSE_DEFAULT_CLASS	2	/* prio's band for priority 0; htb's default */
#define TSE_CHOSEN_CLASS	3	/* the class a root filter chooses */
#define TSE_GACT_INDEX	7	/* the index of the root filter's gact action */
#define TSE_PEER_GACT_INDEX 8	/* and of the peer's ingress gact (the grid) */
#define TSE_GONE_INDEX	9	/* a root filter's redirect to a deleted device */
#define TSE_MIRRED_INDEX 10	/* the egress hook's mirred, where a scenario reads it */

struct tse_actstats {
	__u64 pkts;		/* packets the action ran on */
	__u64 overlimits;	/* of them, mirred's: those it could not send */
};

struct tse_devstats {
	__u64 rx;
	__u64 tx;
	__u64 dropped;		/* rx_dropped + tx_dropped */
	__u64 rx_dropped;
	__u64 clsact;		/* packets its clsact qdisc counted */
	__u64 clsact_drops;	/* packets its clsact qdisc dropped (TC_ACT_SHOT) */
	__u64 overlimits;	/* its root qdisc's overlimits */
	__u64 root_drops;	/* its root qdisc's drops */
	__u64 class_pkts[TSE_CLASSES];	/* root qdisc classes 1:0 to 1:3 */
	struct tse_actstats gact;	/* its root filter's gact action */
	struct tse_actstats peer_gact;	/* the peer's ingress gact */
	struct tse_actstats gone;	/* the redirect to a deleted device: it drops all */
	struct tse_actstats mirred;	/* its egress hook's mirred (TSE_MIRRED_INDEX) */
};

struct tse_stream {
	long long received;	/* bytes the receiver read */
	long long first_bad;	/* offset of the first wrong byte, or -1 */
	long long retrans;	/* the sender's total retransmissions */
	long long spurious;	/* of them, shown needless by a D-SACK */
	bool done;
};

struct tse_net {
	int self_ns;			/* where the caller's thread came from */
	int ns[TSE_NSS];		/* held by fd only: gone when we are */
	int nl[TSE_NSS];		/* rtnetlink socket in each namespace */
	int ifindex[TSE_DEVS];		/* 0: the shape has no such device */
	const char *root_qdisc;		/* "prio" or "htb", when probed */
	bool root_gact;			/* the root filter also runs a gact action */
	bool peer_gact;			/* vb's ingress has a u32 + gact filter */
	bool root_gone;			/* va's root filter redirects to a deleted device */
	bool hook_drops;		/* va's egress hook drops what it redirects */
	bool mirred_read;		/* va's egress mirred has TSE_MIRRED_INDEX */
	int breaker;			/* the hook that breaks loops (BPF cfg) */
	bool breaker_drops;		/* it drops every test packet: a hook's TC_ACT_SHOT */
	bool to_xmit_limit;		/* va's program loops each packet to the kernel's limit */
	bool redirect_drops;		/* the kernel drops what the site's program redirects */
	int fixed_target;		/* if not 0, the ifindex the programs redirect to */
	bool peer_of_ifb;		/* bpf_redirect_peer() names ifb, which has no peer */
	struct test_tc_redirect_ifb *skel;
	struct bpf_link *tcx_link[2];
	struct bpf_link *net_ctx_link;	/* on sys_exit; NULL: the check is left out */
	struct bpf_link *console_link;	/* on console: the process's log lines; NULL: none */
};

struct tse_cmd_queue {
	char batch[TSE_NSS][TSE_TOOLS][TSE_QUEUE];
};

struct tse_traffic_state {
	int tx_sock[TSE_FLOWS];
	int rx_sock[TSE_FLOWS];
	bool sends[TSE_FLOWS];		/* flows the scenario sends */
	unsigned int delivered[TSE_FLOWS][TSE_MAX_PKTS];
	unsigned int fences;		/* fences delivered */
	int unfreed[TSE_FLOWS];		/* bytes the sender's socket still held (SIOCOUTQ) */
	int tap_sock;			/* AF_PACKET on va, when the shape taps */
	int stall_sock;			/* AF_PACKET on ifb, stalling it: two CPUs */
	unsigned int tapped[TSE_MAX_PKTS];	/* redirected packets it saw leave */
	struct tse_stream stream;
};

struct tse_stats {
	struct tse_devstats before[TSE_DEVS], after[TSE_DEVS];
	__u32 other_before[TSE_HOOKS];	/* BPF background counts at "before" */
	__u32 fence_before[TSE_HOOKS];	/* and fence counts */
};

struct tse_test {
	const struct tse_scenario *s;
	int family;
	int pkts;
	struct tse_result *res;
	bool recorded;			/* its observations written (TSE_RECORD) */
	struct timespec start;
	int kmsg;
	struct tse_net net;
	struct tse_cmd_queue *queue;	/* 12 KiB: allocated on its own */
	struct tse_traffic_state traffic;
	struct tse_stats stats;
};

#endif /* __TSE_INTERNAL_H */
