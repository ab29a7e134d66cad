/* SPDX-License-Identifier: GPL-2.0 */
/* What the scenario parts (topology, traffic, oracles, scenarios) share. */
#ifndef __TSE_INTERNAL_H
#define __TSE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/types.h>

#include "tse.h"
#include "../../bpf/progs/test_tc_redirect_ifb.h"
#include "test_tc_redirect_ifb.skel.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define TSE_PKTS	5	/* test packets per flow */
#define TSE_LOOP_LIMIT	8	/* entries into ifb before a packet counts as looping */
#define TSE_WAIT_MS	3000	/* how long a packet may take to reach an outcome */
#define TSE_PORT	4000	/* UDP port of the redirected flow; unrelated: +1 */

/* The two namespaces; the ifb sits in the one whose hook redirects. */
enum tse_side {
	TSE_SENDER,
	TSE_RECEIVER,
	TSE_SIDES,
};

/* Kernel counters, read over rtnetlink. */
struct tse_kstats {
	__u64 clsact_pkts[TSE_SIDES];	/* clsact qdisc on va, vb */
	__u64 ifb_rx;			/* packets handed to ifb */
	__u64 ifb_dropped;		/* rx_dropped + tx_dropped of ifb */
	__u64 peer_rx;			/* rx_packets of vb */
};

struct tse_test {
	int family;
	int self_ns;			/* where the caller's thread came from */
	int ns[TSE_SIDES];		/* held by fd only: gone when we are */
	int nl[TSE_SIDES];		/* rtnetlink socket in each namespace */
	int ifindex[TSE_SIDES];		/* va in the sender, vb in the receiver */
	enum tse_side ifb_side;
	int ifb_ifindex;
	int kmsg;
	struct test_tc_redirect_ifb *skel;
	struct bpf_link *tcx_link;
	int tx_sock[TSE_FLOWS];
	int rx_sock[TSE_FLOWS];
	bool sends[TSE_FLOWS];		/* flows the scenario sends */
	unsigned int delivered[TSE_FLOWS][TSE_MAX_PKTS];
	struct tse_kstats before, after;
	struct tse_result *res;
};

/* A diagnosis word and what it tells about the kernel. */
struct tse_meaning {
	const char *word;
	const char *meaning;
};

extern const struct tse_meaning tse_reclassified, tse_skipped, tse_looped,
	tse_not_redirected, tse_duplicated, tse_not_delivered;

/* topology.c */
int tse_topology_create(struct tse_test *t);
void tse_topology_destroy(struct tse_test *t);
int tse_enter(struct tse_test *t, enum tse_side side);
void tse_leave(struct tse_test *t);
int tse_cmd(struct tse_test *t, enum tse_side side, const char *fmt, ...)
	__printf(3, 4);
const char *tse_dev(enum tse_side side);
const char *tse_addr(struct tse_test *t, enum tse_side side);
int tse_attach_cls_bpf(struct tse_test *t, enum tse_side side, int ifindex,
		       bool egress, struct bpf_program *prog, int prio);
int tse_attach_tcx(struct tse_test *t, enum tse_side side,
		   struct bpf_program *prog);
int tse_mirred_filter(struct tse_test *t, enum tse_side side,
		      const char *parent, int prio, int port);
int tse_skip(struct tse_test *t, const char *fmt, ...)
	__printf(2, 3);
int tse_setup_error(struct tse_test *t, const char *fmt, ...)
	__printf(2, 3);
void tse_chomp(char *s);

/* traffic.c */
int tse_traffic_open(struct tse_test *t);
void tse_traffic_close(struct tse_test *t);
int tse_traffic_run(struct tse_test *t);

/* oracles.c */
int tse_kstats_read(struct tse_test *t, struct tse_kstats *ks);
unsigned int tse_outcomes(struct tse_test *t);
void tse_expect(struct tse_test *t, const char *what, long long got,
		long long want, const struct tse_meaning *more,
		const struct tse_meaning *less);
void tse_expect_each(struct tse_test *t, const char *what,
		     const unsigned int *row, unsigned int want,
		     const struct tse_meaning *more,
		     const struct tse_meaning *less);
void tse_expect_hook(struct tse_test *t, const char *what, enum tse_hook hook,
		     enum tse_flow flow, unsigned int want);
void tse_expect_no_loop(struct tse_test *t, enum tse_flow flow);
void tse_expect_ifb_kept(struct tse_test *t);
void tse_expect_ifb_once(struct tse_test *t);
void tse_expect_clsact(struct tse_test *t, enum tse_side side,
		       enum tse_hook hook, unsigned int per_packet,
		       unsigned int flows);
void tse_expect_delivered(struct tse_test *t, enum tse_flow flow);
void tse_expect_peer_rx(struct tse_test *t, unsigned int flows);
void tse_kernel_log_start(struct tse_test *t);
void tse_kernel_log_check(struct tse_test *t);

#endif /* __TSE_INTERNAL_H */
