// SPDX-License-Identifier: GPL-2.0
/* Each feature is probed in an empty netns: a probe that fails skips the test. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "tse_result.h"
#include "tse_topology.h"
#include "tse_probes.h"

struct tse_probe {
	unsigned int feature;
	const char *name;
	const char *tool;
	const char *cmds;
	int family;		/* only for tests of this IP version; 0: all */
};

static const struct tse_probe probes[] = {
	{ TSE_F_VETH, "veth", "ip", "link add name p0 type veth peer name p1\n" },
	{ TSE_F_IFB, "ifb", "ip", "link add name pi type ifb\n" },
	{ TSE_F_VLAN, "802.1Q vlan", "ip", "link add link p0 name p0.10 type vlan id 10\n" },
	{ TSE_F_QINQ, "802.1ad vlan", "ip",
	  "link add link p0 name p0.ad type vlan proto 802.1ad id 10\n" },
	{ TSE_F_MACVLAN, "macvlan", "ip",
	  "link add link p0 name p0.mv type macvlan mode bridge\n" },
	{ TSE_F_BOND, "bonding", "ip", "link add name pb type bond mode active-backup\n" },
	{ TSE_F_BRIDGE, "the bridge", "ip", "link add name pbr type bridge\n" },
	/* Endpoints of their own: the fallback tunl0 or ip6tnl0 has none. */
	{ TSE_F_TUNNEL, "ipip tunnels", "ip",
	  "link add name pt type ipip local 192.0.2.1 remote 192.0.2.2\n", TSE_V4 },
	{ TSE_F_TUNNEL, "ip6tnl tunnels", "ip",
	  "link add name pt type ip6tnl mode ip6ip6 local 2001:db8::1 remote 2001:db8::2\n",
	  TSE_V6 },
	{ TSE_F_CLSACT, "the clsact qdisc", "tc", "qdisc add dev p0 clsact\n" },
	{ TSE_F_CLS_BPF, "the bpf classifier", "tc",
	  "filter add dev p0 ingress prio 1 bpf bytecode \"1,6 0 0 4294967295,\"\n" },
	{ TSE_F_U32, "the u32 classifier", "tc",
	  "filter add dev p0 egress prio 2 protocol ip u32 match u32 0 0\n" },
	{ TSE_F_MIRRED, "the mirred action", "tc",
	  "actions add action mirred egress redirect dev p1\n" },
	{ TSE_F_TBF, "the tbf qdisc", "tc",
	  "qdisc add dev p0 root tbf rate 1mbit burst 10kb latency 10ms\n" },
	{ TSE_F_NFT_EGRESS, "nftables' netdev egress hook", "nft",
	  "add table netdev p { chain c { type filter hook egress device p0 priority 0; }; }\n" },
};

static int probe_feature(struct tse_test *t, int nsfd, const struct tse_probe *p)
{
	char err[256];

	if (!tse_run_batch(nsfd, p->tool, p->cmds, err, sizeof(err)))
		return 0;
	if (!strncmp(err, "cannot run", 10))
		return tse_skip(t, "no %s to probe %s: %s", p->tool, p->name, err);
	return tse_skip(t, "kernel lacks %s: '%s %.*s' failed in an empty netns: %s",
			p->name, p->tool, (int)strcspn(p->cmds, "\n"), p->cmds, err);
}

/* prio as measured in the series' review; htb where the kernel has no prio. */
static int probe_root_qdisc(struct tse_test *t, int nsfd)
{
	static const char *const kinds[] = { "prio", "htb" };
	char cmd[64], err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		snprintf(cmd, sizeof(cmd), "qdisc add dev p1 root handle 1: %s\n",
			 kinds[i]);
		if (tse_run_batch(nsfd, "tc", cmd, err, sizeof(err)))
			continue;
		t->net.root_qdisc = kinds[i];
		tse_note(t, "root qdisc: %s", kinds[i]);
		return tse_run_batch(nsfd, "tc", "qdisc del dev p1 root\n", err,
				     sizeof(err)) ?
		       tse_setup_error(t, "tc qdisc del: %s", err) : 0;
	}
	return tse_skip(t, "kernel has neither the prio nor the htb qdisc: %s", err);
}

/* The kernel may lack act_gact: then the root filter has no gact, and its check is left out. */
static void probe_root_gact(struct tse_test *t, int nsfd)
{
	char err[256];

	t->net.root_gact = !tse_run_batch(nsfd, "tc", "actions add action gact pipe\n",
					  err, sizeof(err));
	if (!t->net.root_gact)
		tse_note(t, "no gact action in the root filter: kernel lacks it (%s)", err);
}

/* Two CPUs to pin a sender to each (tse_traffic.c). */
static int probe_two_cpus(struct tse_test *t)
{
	cpu_set_t cpus;

	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return tse_setup_error(t, "sched_getaffinity: %s", strerror(errno));
	if (CPU_COUNT(&cpus) < 2)
		return tse_skip(t, "two flows sent from two CPUs at once need two CPUs; %s %d",
				"the test may run on", CPU_COUNT(&cpus));
	return 0;
}

/* AF_PACKET is global, not per namespace: a socket here tells. */
static int probe_packet_socket(struct tse_test *t)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EAFNOSUPPORT)
		return tse_skip(t, "kernel lacks packet sockets (CONFIG_PACKET): %s",
				strerror(errno));
	return tse_setup_error(t, "socket(AF_PACKET): %s", strerror(errno));
}

static bool probe_needed(struct tse_test *t, unsigned int need,
			 const struct tse_probe *p)
{
	return (need & p->feature) && (!p->family || p->family == t->family);
}

static void probe_batch(struct tse_test *t, unsigned int need, const char *tool,
			char *cmds, size_t len)
{
	unsigned int i;

	cmds[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (probe_needed(t, need, &probes[i]) && !strcmp(probes[i].tool, tool))
			strncat(cmds, probes[i].cmds, len - strlen(cmds) - 1);
}

static int in_new_netns(struct tse_test *t,
			int (*probe)(struct tse_test *t, int nsfd))
{
	int nsfd = tse_netns_new(t), ret;

	if (nsfd < 0)
		return tse_setup_error(t, "new netns: %s", strerror(errno));
	ret = probe(t, nsfd);
	close(nsfd);
	return ret;
}

/* Probes one by one, to name the feature that is missing. */
static int probe_each(struct tse_test *t, int nsfd)
{
	unsigned int need = t->s->features | TSE_F_VETH;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(probes) && !ret; i++)
		if (probe_needed(t, need, &probes[i]))
			ret = probe_feature(t, nsfd, &probes[i]);
	/* The batch failed, so one probe must have: else the batch was wrong. */
	return ret ?: tse_setup_error(t, "feature probes failed together, passed one by one");
}

/*
 * Where the kernel has prio and gact, their probes ride in front of the features' tc
 * batch: a tc run costs a guest under TCG some 0.15 s, and these were three of a test's
 * eleven. They leave nothing that the batch's retry would trip on, so a failed batch is
 * probed again the slow way, each on its own.
 */
static bool probe_prio_and_gact(struct tse_test *t, int nsfd, unsigned int need)
{
	char cmds[1024], features[1024], err[256];

	cmds[0] = '\0';
	if (need & TSE_F_ROOT_QDISC)
		strcat(cmds, "qdisc add dev p1 root handle 1: prio\nqdisc del dev p1 root\n");
	if (t->s->shape.monitor)
		strcat(cmds, "actions add action gact pipe\n");
	probe_batch(t, need, "tc", features, sizeof(features));
	strncat(cmds, features, sizeof(cmds) - strlen(cmds) - 1);
	if (tse_run_batch(nsfd, "tc", cmds, err, sizeof(err)))
		return false;
	if (need & TSE_F_ROOT_QDISC) {
		t->net.root_qdisc = "prio";
		tse_note(t, "root qdisc: prio");
	}
	t->net.root_gact = t->s->shape.monitor;
	return true;
}

/* The common case costs a command per tool (ip, tc, nft): its probes in one batch. */
static int probe_features(struct tse_test *t, int nsfd)
{
	static const char *const tools[] = { "ip", "tc", "nft" };
	unsigned int need = t->s->features | TSE_F_VETH;
	bool root = need & TSE_F_ROOT_QDISC, gact = t->s->shape.monitor;
	char cmds[1024], err[256];
	bool tc_all = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tools); i++) {
		if (!strcmp(tools[i], "tc") && (root || gact))
			tc_all = probe_prio_and_gact(t, nsfd, need);
		if (!strcmp(tools[i], "tc") && tc_all)
			continue;
		probe_batch(t, need, tools[i], cmds, sizeof(cmds));
		if (cmds[0] && tse_run_batch(nsfd, tools[i], cmds, err, sizeof(err)))
			return in_new_netns(t, probe_each);
	}
	if (root && !tc_all && probe_root_qdisc(t, nsfd))
		return -1;
	if ((need & TSE_F_TWO_CPUS) && probe_two_cpus(t))
		return -1;
	if (gact && !tc_all)
		probe_root_gact(t, nsfd);
	return t->s->shape.tap ? probe_packet_socket(t) : 0;
}

/* tcx needs a loaded program: probe it with one of ours, on a veth of its own. */
static int probe_tcx_in(struct tse_test *t, int nsfd)
{
	struct bpf_link *link;
	char err[256];
	int ret = 0;

	if (tse_run_batch(nsfd, "ip", "link add name p0 type veth peer name p1\n",
			  err, sizeof(err)))
		return tse_setup_error(t, "veth for the tcx probe: %s", err);
	if (setns(nsfd, CLONE_NEWNET))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	link = tse_tcx_link(t->net.skel->progs.tse_redirect_ifb_tcx,
			    if_nametoindex("p0"));
	if (!link)
		ret = -errno;
	bpf_link__destroy(link);
	tse_leave(t);
	if (ret == -ENOTSUP)
		return tse_skip(t, "no tcx links in the libbpf the suite was %s",
				"built with (KDIR's, older than 1.3)");
	if (ret)
		return tse_skip(t, "kernel has no tcx links: %s: %s",
				"attaching one to a veth in an empty netns failed",
				strerror(-ret));
	return 0;
}

int tse_probe_tcx(struct tse_test *t)
{
	if (!(t->s->features & TSE_F_TCX))
		return 0;
	return in_new_netns(t, probe_tcx_in);
}

int tse_check_features(struct tse_test *t)
{
	return in_new_netns(t, probe_features);
}
