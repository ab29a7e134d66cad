// SPDX-License-Identifier: GPL-2.0
/* A device's counters over rtnetlink, and a bridge port's state. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <string.h>
#include <sys/socket.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "tse_netlink.h"

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
		.nh.nlmsg_type = type,
		.nh.nlmsg_flags = NLM_F_REQUEST | flags,
	};

	if (type == RTM_GETLINK) {
		req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
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

static void parse_link(struct nlmsghdr *nh, struct tse_devstats *ds)
{
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	struct rtattr *rta = rta_find(IFLA_RTA(ifi), IFLA_PAYLOAD(nh),
				      IFLA_STATS64);
	struct rtnl_link_stats64 st;

	if (!rta)
		return;
	memcpy(&st, RTA_DATA(rta), sizeof(st));
	ds->rx = st.rx_packets;
	ds->tx = st.tx_packets;
	ds->dropped = st.rx_dropped + st.tx_dropped;
	ds->rx_dropped = st.rx_dropped;
}

/* The clsact qdisc's packets and drops, or the root qdisc's overlimits and drops. */
static void parse_qdisc(struct nlmsghdr *nh, struct tse_devstats *ds)
{
	struct tcmsg *tcm = NLMSG_DATA(nh);
	int len = nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tcm));
	struct rtattr *kind, *stats, *basic, *queue;
	struct gnet_stats_basic gb;
	struct gnet_stats_queue gq;
	bool clsact;

	kind = rta_find(TCA_RTA(tcm), len, TCA_KIND);
	stats = rta_find(TCA_RTA(tcm), len, TCA_STATS2);
	if (!kind || !stats)
		return;
	clsact = !strcmp(RTA_DATA(kind), "clsact");
	if (!clsact && tcm->tcm_parent != TC_H_ROOT)
		return;
	basic = rta_find(RTA_DATA(stats), RTA_PAYLOAD(stats), TCA_STATS_BASIC);
	queue = rta_find(RTA_DATA(stats), RTA_PAYLOAD(stats), TCA_STATS_QUEUE);
	if (!basic || !queue)
		return;
	memcpy(&gb, RTA_DATA(basic), sizeof(gb));
	memcpy(&gq, RTA_DATA(queue), sizeof(gq));
	if (clsact) {
		ds->clsact = gb.packets;
		ds->clsact_drops = gq.drops;
	} else {
		ds->overlimits = gq.overlimits;
		ds->root_drops = gq.drops;
	}
}

/* Packets a class 1:N of the root qdisc sent (prio: its band's qdisc). */
static void parse_class(struct nlmsghdr *nh, struct tse_devstats *ds)
{
	struct tcmsg *tcm = NLMSG_DATA(nh);
	int len = nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tcm));
	unsigned int minor = TC_H_MIN(tcm->tcm_handle);
	struct rtattr *stats, *basic;
	struct gnet_stats_basic gb;

	if (TC_H_MAJ(tcm->tcm_handle) != TC_H_MAKE(1 << 16, 0) || minor >= TSE_CLASSES)
		return;
	stats = rta_find(TCA_RTA(tcm), len, TCA_STATS2);
	basic = stats ? rta_find(RTA_DATA(stats), RTA_PAYLOAD(stats), TCA_STATS_BASIC) : NULL;
	if (!basic)
		return;
	memcpy(&gb, RTA_DATA(basic), sizeof(gb));
	ds->class_pkts[minor] = gb.packets;
}

static int nl_query(int fd, int type, int flags, int ifindex,
		    struct tse_devstats *ds)
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
				parse_link(nh, ds);
			else if (nh->nlmsg_type == RTM_NEWQDISC &&
				 ((struct tcmsg *)NLMSG_DATA(nh))->tcm_ifindex == ifindex)
				parse_qdisc(nh, ds);
			else if (nh->nlmsg_type == RTM_NEWTCLASS)
				parse_class(nh, ds);
		}
		if (!(flags & NLM_F_DUMP))
			return 0;
	}
}

/* An action's packets, and its overlimits: what mirred could not send. */
static int parse_action(struct nlmsghdr *nh, struct tse_actstats *as)
{
	struct rtattr *rta = rta_find(TA_RTA(NLMSG_DATA(nh)), TA_PAYLOAD(nh), TCA_ACT_TAB);
	struct rtattr *basic, *queue;
	struct gnet_stats_queue gq;
	struct gnet_stats_basic gb;

	rta = rta ? rta_find(RTA_DATA(rta), RTA_PAYLOAD(rta), 1) : NULL;
	rta = rta ? rta_find(RTA_DATA(rta), RTA_PAYLOAD(rta), TCA_ACT_STATS) : NULL;
	basic = rta ? rta_find(RTA_DATA(rta), RTA_PAYLOAD(rta), TCA_STATS_BASIC) : NULL;
	queue = rta ? rta_find(RTA_DATA(rta), RTA_PAYLOAD(rta), TCA_STATS_QUEUE) : NULL;
	if (!basic || !queue)
		return -1;
	memcpy(&gb, RTA_DATA(basic), sizeof(gb));
	memcpy(&gq, RTA_DATA(queue), sizeof(gq));
	as->pkts = gb.packets;
	as->overlimits = gq.overlimits;
	return 0;
}

static struct rtattr *rta_put(struct nlmsghdr *nh, int type, const void *data,
			      int len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (data)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

/* Close a nest opened by rta_put(nh, type, NULL, 0). */
static void rta_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (char *)nh + nh->nlmsg_len - (char *)nest;
}

int tse_action_read(int fd, const char *kind, __u32 index, struct tse_actstats *as)
{
	union {
		struct nlmsghdr nh;
		char buf[256];
	} req = { .nh = {
		.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcamsg)),
		.nlmsg_type = RTM_GETACTION,
		.nlmsg_flags = NLM_F_REQUEST,
	} };
	struct rtattr *tab, *act;
	char buf[8192];
	int len;

	tab = rta_put(&req.nh, TCA_ACT_TAB, NULL, 0);
	act = rta_put(&req.nh, 1, NULL, 0);
	rta_put(&req.nh, TCA_ACT_KIND, kind, strlen(kind) + 1);
	rta_put(&req.nh, TCA_ACT_INDEX, &index, sizeof(index));
	rta_end(&req.nh, act);
	rta_end(&req.nh, tab);
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -1;
	len = recv(fd, buf, sizeof(buf), 0);
	/* The reply to a get carries the request's type (tca_get_fill()). */
	if (len <= 0 || !NLMSG_OK((struct nlmsghdr *)buf, len) ||
	    ((struct nlmsghdr *)buf)->nlmsg_type != RTM_GETACTION)
		return -1;
	return parse_action((struct nlmsghdr *)buf, as);
}

int tse_devstats_read(int fd, int ifindex, struct tse_devstats *ds)
{
	memset(ds, 0, sizeof(*ds));
	if (nl_query(fd, RTM_GETLINK, 0, ifindex, ds) ||
	    nl_query(fd, RTM_GETQDISC, NLM_F_DUMP, ifindex, ds) ||
	    nl_query(fd, RTM_GETTCLASS, NLM_F_DUMP, ifindex, ds))
		return -1;
	return 0;
}

static int parse_brport_state(struct nlmsghdr *nh)
{
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	struct rtattr *rta = rta_find(IFLA_RTA(ifi), IFLA_PAYLOAD(nh), IFLA_LINKINFO);

	rta = rta ? rta_find(RTA_DATA(rta), RTA_PAYLOAD(rta), IFLA_INFO_SLAVE_DATA) : NULL;
	rta = rta ? rta_find(RTA_DATA(rta), RTA_PAYLOAD(rta), IFLA_BRPORT_STATE) : NULL;
	return rta ? *(__u8 *)RTA_DATA(rta) : -1;
}

int tse_brport_state(int fd, int ifindex)
{
	char buf[32768];
	int len;

	if (nl_send(fd, RTM_GETLINK, 0, ifindex))
		return -1;
	len = recv(fd, buf, sizeof(buf), 0);
	if (len <= 0 || !NLMSG_OK((struct nlmsghdr *)buf, len) ||
	    ((struct nlmsghdr *)buf)->nlmsg_type != RTM_NEWLINK)
		return -1;
	return parse_brport_state((struct nlmsghdr *)buf);
}
