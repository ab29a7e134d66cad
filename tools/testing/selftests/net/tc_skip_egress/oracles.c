// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles: what the kernel did with each test packet, seen from three
 * independent places, and the checks that compare it with a correct kernel.
 *
 * - BPF counters (test_tc_redirect_ifb.c): how often each hook ran for each
 *   packet, how often it entered ifb, whether the loop breaker stopped it.
 * - Kernel counters over rtnetlink: the clsact qdisc's packet count on the
 *   hook under test, ifb's rx/tx/dropped counters and the receiving veth's
 *   rx counter.
 * - The receiver: which packets arrived, and how often.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "tse_internal.h"

struct nl_req {
	struct nlmsghdr nh;
	union {
		struct ifinfomsg ifi;
		struct tcmsg tcm;
	};
};

static int nl_send(int fd, int type, int flags, int ifindex)
{
	struct nl_req req = {
		.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi)),
		.nh.nlmsg_type = type,
		.nh.nlmsg_flags = NLM_F_REQUEST | flags,
	};

	if (type == RTM_GETLINK) {
		req.ifi.ifi_index = ifindex;
	} else {
		req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.tcm));
		req.tcm.tcm_family = AF_UNSPEC;
		req.tcm.tcm_ifindex = ifindex;
	}
	return send(fd, &req, req.nh.nlmsg_len, 0) < 0 ? -1 : 0;
}

static struct rtattr *rta_find(struct rtattr *rta, int len, int type)
{
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if (rta->rta_type == type)
			return rta;
	return NULL;
}

static void parse_link(struct nlmsghdr *nh, struct rtnl_link_stats64 *st)
{
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	struct rtattr *rta = rta_find(IFLA_RTA(ifi), IFLA_PAYLOAD(nh),
				      IFLA_STATS64);

	if (rta)
		memcpy(st, RTA_DATA(rta), sizeof(*st));
}

/* Packets the clsact qdisc counted, if this message is the one of @ifindex. */
static void parse_qdisc(struct nlmsghdr *nh, int ifindex, __u64 *pkts)
{
	struct tcmsg *tcm = NLMSG_DATA(nh);
	int len = nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tcm));
	struct rtattr *kind, *stats, *basic;
	struct gnet_stats_basic gb;

	if (tcm->tcm_ifindex != ifindex)
		return;
	kind = rta_find(TCA_RTA(tcm), len, TCA_KIND);
	if (!kind || strcmp(RTA_DATA(kind), "clsact"))
		return;
	stats = rta_find(TCA_RTA(tcm), len, TCA_STATS2);
	if (!stats)
		return;
	basic = rta_find(RTA_DATA(stats), RTA_PAYLOAD(stats), TCA_STATS_BASIC);
	if (!basic)
		return;
	memcpy(&gb, RTA_DATA(basic), sizeof(gb));
	*pkts = gb.packets;
}

/* Ask rtnetlink; hand every reply message to the parser of its type. */
static int nl_query(int fd, int type, int flags, int ifindex, void *out)
{
	char buf[32768];
	struct nlmsghdr *nh;
	int len;

	if (nl_send(fd, type, flags, ifindex))
		return -1;
	for (;;) {
		len = recv(fd, buf, sizeof(buf), 0);
		if (len <= 0)
			return -1;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, len);
		     nh = NLMSG_NEXT(nh, len)) {
			if (nh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
			if (nh->nlmsg_type == RTM_NEWLINK)
				parse_link(nh, out);
			else if (nh->nlmsg_type == RTM_NEWQDISC)
				parse_qdisc(nh, ifindex, out);
		}
		if (!(flags & NLM_F_DUMP))
			return 0;
	}
}

static int link_stats(struct tse_test *t, enum tse_side side, int ifindex,
		      struct rtnl_link_stats64 *st)
{
	memset(st, 0, sizeof(*st));
	return nl_query(t->nl[side], RTM_GETLINK, 0, ifindex, st);
}

int tse_kstats_read(struct tse_test *t, struct tse_kstats *ks)
{
	struct rtnl_link_stats64 ifb, vb;
	int side;

	memset(ks, 0, sizeof(*ks));
	for (side = 0; side < TSE_SIDES; side++)
		if (nl_query(t->nl[side], RTM_GETQDISC, NLM_F_DUMP,
			     t->ifindex[side], &ks->clsact_pkts[side]))
			return tse_setup_error(t, "read qdisc stats");
	if (link_stats(t, t->ifb_side, t->ifb_ifindex, &ifb) ||
	    link_stats(t, TSE_RECEIVER, t->ifindex[TSE_RECEIVER], &vb))
		return tse_setup_error(t, "read link stats");
	ks->ifb_rx = ifb.rx_packets;
	ks->ifb_dropped = ifb.rx_dropped + ifb.tx_dropped;
	ks->peer_rx = vb.rx_packets;
	return 0;
}

static unsigned int *bpf_row(struct tse_test *t, enum tse_hook hook,
			     enum tse_flow flow)
{
	return t->skel->bss->counters.seen[hook][flow];
}

/* Packets with an outcome: delivered, stopped as looping, dropped by ifb. */
unsigned int tse_outcomes(struct tse_test *t)
{
	struct tse_counters *c = &t->skel->bss->counters;
	unsigned int done = 0;
	struct tse_kstats now;
	int flow, seq;

	for (flow = 0; flow < TSE_FLOWS; flow++)
		for (seq = 0; seq < TSE_PKTS; seq++)
			done += t->sends[flow] && (t->delivered[flow][seq] ||
						   c->looped[flow][seq]);
	if (!tse_kstats_read(t, &now))
		done += now.ifb_dropped - t->before.ifb_dropped;
	return done;
}

static struct tse_check *new_check(struct tse_test *t, const char *what)
{
	struct tse_result *res = t->res;
	struct tse_check *c;

	if (res->nr_checks == TSE_MAX_CHECKS)
		return NULL;
	c = &res->checks[res->nr_checks++];
	memset(c, 0, sizeof(*c));
	snprintf(c->what, sizeof(c->what), "%s", what);
	return c;
}

static void record(struct tse_test *t, struct tse_check *c)
{
	if (tse_check_ok(c) || t->res->status != TSE_PASS)
		return;
	t->res->status = TSE_FAIL;
	t->res->diagnosis = c->word;
}

const struct tse_meaning tse_reclassified = {
	"reclassified", "packets re-injected by ifb are classified again"
};
const struct tse_meaning tse_skipped = {
	"skipped", "the hook let packets pass unclassified: a skip meant for re-injected packets reached them"
};
const struct tse_meaning tse_looped = {
	"looped", "re-injected packets are redirected to ifb again, without end"
};
const struct tse_meaning tse_not_redirected = {
	"not-redirected", "packets that should pass through ifb did not"
};
const struct tse_meaning tse_duplicated = {
	"duplicated", "the receiver got packets more than once"
};
const struct tse_meaning tse_not_delivered = {
	"not-delivered", "packets were lost on the way to the receiver"
};

/* A failed check's diagnosis depends on whether it saw too much or too little. */
static void set_meaning(struct tse_check *c, const struct tse_meaning *more,
			const struct tse_meaning *less)
{
	const struct tse_meaning *m = c->got > c->want ? more : less;

	c->word = m->word;
	c->meaning = m->meaning;
}

/* Every packet of @flow must have been counted @want times in @row. */
void tse_expect_each(struct tse_test *t, const char *what,
		     const unsigned int *row, unsigned int want,
		     const struct tse_meaning *more,
		     const struct tse_meaning *less)
{
	struct tse_check *c = new_check(t, what);
	int seq;

	if (!c)
		return;
	c->want = want;
	c->got = want;
	c->total = TSE_PKTS;
	for (seq = 0; seq < TSE_PKTS; seq++) {
		if (row[seq] == want)
			continue;
		if (!c->bad++)
			c->got = row[seq];
	}
	set_meaning(c, more, less);
	record(t, c);
}

void tse_expect(struct tse_test *t, const char *what, long long got,
		long long want, const struct tse_meaning *more,
		const struct tse_meaning *less)
{
	struct tse_check *c = new_check(t, what);

	if (!c)
		return;
	c->got = got;
	c->want = want;
	set_meaning(c, more, less);
	record(t, c);
}

void tse_expect_hook(struct tse_test *t, const char *what, enum tse_hook hook,
		     enum tse_flow flow, unsigned int want)
{
	tse_expect_each(t, what, bpf_row(t, hook, flow), want,
			&tse_reclassified, &tse_skipped);
}

/* Outcomes that end a packet's way early come first: they explain the rest. */
void tse_expect_no_loop(struct tse_test *t, enum tse_flow flow)
{
	unsigned int *looped = t->skel->bss->counters.looped[flow];
	unsigned int seq, n = 0;
	char what[96];

	for (seq = 0; seq < TSE_PKTS; seq++)
		n += looped[seq];
	snprintf(what, sizeof(what),
		 "packets stopped by the loop breaker after %d entries into ifb",
		 TSE_LOOP_LIMIT);
	tse_expect(t, what, n, 0, &tse_looped, &tse_looped);
}

void tse_expect_ifb_kept(struct tse_test *t)
{
	static const struct tse_meaning dropped = {
		"dropped-by-ifb",
		"ifb dropped redirected packets: the redirect left skb_iif 0 (bpf_redirect does not set it), so ifb has no device to return them to"
	};

	tse_expect(t, "packets ifb dropped (rx_dropped + tx_dropped)",
		   t->after.ifb_dropped - t->before.ifb_dropped, 0,
		   &dropped, &dropped);
}

/* Each redirected packet enters ifb once: BPF on ifb and ifb's rx agree. */
void tse_expect_ifb_once(struct tse_test *t)
{
	tse_expect_each(t, "entries into ifb per packet (BPF on ifb egress)",
			bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 1,
			&tse_looped,
			&tse_not_redirected);
	tse_expect(t, "packets ifb received (ifb rx_packets)",
		   t->after.ifb_rx - t->before.ifb_rx, TSE_PKTS,
		   &tse_looped, &tse_not_redirected);
}

/*
 * The clsact qdisc counts every packet its hooks see, before classifying.
 * Minus the background packets that the BPF counter on @hook saw, that is
 * the number of times the hook ran for test packets.
 */
void tse_expect_clsact(struct tse_test *t, enum tse_side side,
		       enum tse_hook hook, unsigned int per_packet,
		       unsigned int flows)
{
	__u64 counted = t->after.clsact_pkts[side] - t->before.clsact_pkts[side];
	char what[96];

	snprintf(what, sizeof(what), "test packets the clsact qdisc on %s counted",
		 tse_dev(side));
	tse_expect(t, what, counted - t->skel->bss->counters.other[hook],
		   (long long)per_packet * flows * TSE_PKTS, &tse_reclassified,
		   &tse_skipped);
}

/* Each packet reached the receiving veth once, and the socket once. */
void tse_expect_delivered(struct tse_test *t, enum tse_flow flow)
{
	tse_expect_each(t, "copies the receiver got per packet",
			t->delivered[flow], 1, &tse_duplicated,
			&tse_not_delivered);
}

void tse_expect_peer_rx(struct tse_test *t, unsigned int flows)
{
	tse_expect(t, "packets vb received (veth rx_packets)",
		   t->after.peer_rx - t->before.peer_rx, flows * TSE_PKTS,
		   &tse_duplicated, &tse_not_delivered);
}

/* The kernel log, from the start of the test: warnings are a failure. */
void tse_kernel_log_start(struct tse_test *t)
{
	t->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->kmsg >= 0)
		lseek(t->kmsg, 0, SEEK_END);
}

static bool is_warning(const char *line)
{
	static const char *const signs[] = {
		"WARNING:", "BUG:", "Oops", "recursion limit",
		"mirred recursion", "Dead loop", "RCU stall", "soft lockup",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(signs); i++)
		if (strstr(line, signs[i]))
			return true;
	return false;
}

void tse_kernel_log_check(struct tse_test *t)
{
	static const struct tse_meaning warned = {
		"kernel-warning", "the kernel logged a warning while the test ran"
	};
	char rec[1024];
	int n, warnings = 0;

	if (t->kmsg < 0)
		return;
	while ((n = read(t->kmsg, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		if (n <= 0)
			continue;	/* EPIPE: records overwritten, go on */
		rec[n] = '\0';
		tse_chomp(rec);
		if (!is_warning(rec))
			continue;
		if (!warnings++)
			snprintf(t->res->kernel_log, sizeof(t->res->kernel_log),
				 "%.200s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
	}
	close(t->kmsg);
	t->kmsg = -1;
	tse_expect(t, "kernel log lines with WARNING, BUG or recursion",
		   warnings, 0, &warned, &warned);
}
