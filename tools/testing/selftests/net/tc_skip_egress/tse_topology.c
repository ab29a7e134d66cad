// SPDX-License-Identifier: GPL-2.0
/*
 * The namespaces are held by fd only: they go with the process however it ends, and parallel
 * runs cannot collide. The links are silent: their counters move only with test packets.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <poll.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "tse_result.h"
#include "tse_netlink.h"
#include "tse_topology.h"

struct tse_devdef {
	const char *name;
	enum tse_ns ns;
	const char *mac;	/* veths only */
	const char *addr4, *addr6;
	const char *prefix4;	/* NULL: 24 */
};

static const struct tse_devdef pair_devs[TSE_DEVS] = {
	[TSE_VA] = { "va", TSE_NS_SENDER, "02:00:00:00:0e:01",
		     "192.0.2.1", "2001:db8::1" },
	[TSE_VB] = { "vb", TSE_NS_RECEIVER, "02:00:00:00:0e:02",
		     "192.0.2.2", "2001:db8::2" },
	[TSE_UP_A] = { NULL, TSE_NS_SENDER },	/* named by the upper's kind */
	[TSE_UP_B] = { NULL, TSE_NS_RECEIVER },
	[TSE_IFB] = { "ifb_tse" },
	[TSE_IFB_IN] = { "ifb_in" },
	[TSE_VC] = { "vc", TSE_NS_SENDER, "02:00:00:00:0e:05" },
	[TSE_VD] = { "vd", TSE_NS_RECEIVER, "02:00:00:00:0e:06" },
	/* A /25 inside va's /24: the more specific route leaves by va2. */
	[TSE_VA2] = { "va2", TSE_NS_SENDER, "02:00:00:00:0e:07",
		     "192.0.2.129", "2001:db8:4::1", "25" },
	[TSE_VB2] = { "vb2", TSE_NS_RECEIVER, "02:00:00:00:0e:08",
		     "192.0.2.130", "2001:db8:4::2", "25" },
	/* A /25 beside a tunnel's inner /24: the more specific route wins. */
	[TSE_VO] = { "vo", TSE_NS_ORIGIN, "02:00:00:00:0e:0a",
		     "198.51.100.129", "2001:db8:5::1", "25" },
	[TSE_VI] = { "vi", TSE_NS_SENDER, "02:00:00:00:0e:0b",
		     "198.51.100.254", "2001:db8:5::fe", "25" },
};

static const struct tse_devdef routed_devs[TSE_DEVS] = {
	[TSE_VA] = { "va", TSE_NS_SENDER, "02:00:00:00:0e:01",
		     "192.0.2.1", "2001:db8:1::1" },
	[TSE_RA] = { "ra", TSE_NS_ROUTER, "02:00:00:00:0e:03",
		     "192.0.2.254", "2001:db8:1::fe" },
	[TSE_RB] = { "rb", TSE_NS_ROUTER, "02:00:00:00:0e:04",
		     "198.51.100.254", "2001:db8:2::fe" },
	[TSE_VB] = { "vb", TSE_NS_RECEIVER, "02:00:00:00:0e:02",
		     "198.51.100.2", "2001:db8:2::2" },
	[TSE_IFB] = { "ifb_tse" },
	[TSE_IFB_IN] = { "ifb_in" },
	/* No addresses: ra's program sends them frames for vb's. */
	[TSE_RB2] = { "rb2", TSE_NS_ROUTER, "02:00:00:00:0e:09" },
	[TSE_VB2] = { "vb2", TSE_NS_RECEIVER, "02:00:00:00:0e:08" },
};

struct tse_upperdef {
	const char *name[2];
	const char *mac[2];	/* NULL: the lower device's */
	const char *type;	/* ip link add ... type @type */
	bool master;		/* the lower device is enslaved, not linked */
	bool floods;		/* a bridge: va's has vc for a second port */
	const char *type6;
	const char *addr4[2], *addr6[2];
};

static const struct tse_upperdef uppers[] = {
	[TSE_UPPER_VLAN] = { { "va.10", "vb.10" }, { NULL, NULL }, "vlan id 10" },
	[TSE_UPPER_MACVLAN] = { { "va.mv", "vb.mv" },
				{ "02:00:00:00:0e:11", "02:00:00:00:0e:12" },
				"macvlan mode bridge" },
	[TSE_UPPER_BOND] = { { "va.bd", "vb.bd" },
			     { "02:00:00:00:0e:21", "02:00:00:00:0e:22" },
			     "bond mode active-backup", true },
	[TSE_UPPER_TUNNEL] = { { "va.tn", "vb.tn" }, { NULL, NULL }, "ipip", false, false,
			       "ip6tnl mode ip6ip6 encaplimit none",
			       { "198.51.100.1", "198.51.100.2" },
			       { "2001:db8:3::1", "2001:db8:3::2" } },
	/* No snooping: a snooping bridge's IGMP and MLD reports would go into the traffic. */
	[TSE_UPPER_BRIDGE] = { { "va.br", "vb.br" },
			       { "02:00:00:00:0e:31", "02:00:00:00:0e:32" },
			       "bridge mcast_snooping 0", true, true },
	[TSE_UPPER_QINQ] = { { "va.ad", "vb.ad" }, { NULL, NULL }, "vlan proto 802.1ad id 10" },
};

static const struct tse_devdef *devdef(struct tse_test *t, enum tse_dev dev)
{
	return t->s->shape.routed ? &routed_devs[dev] : &pair_devs[dev];
}

static const struct tse_upperdef *upperdef(struct tse_test *t)
{
	return t->s->shape.upper ? &uppers[t->s->shape.upper] : NULL;
}

const char *tse_dev(struct tse_test *t, enum tse_dev dev)
{
	if ((dev == TSE_UP_A || dev == TSE_UP_B) && upperdef(t))
		return upperdef(t)->name[dev == TSE_UP_B];
	return devdef(t, dev)->name;
}

enum tse_ns tse_dev_ns(struct tse_test *t, enum tse_dev dev)
{
	if (dev == TSE_IFB || dev == TSE_IFB_IN)
		return t->s->shape.ifb_ns;
	return devdef(t, dev)->ns;
}

static enum tse_dev addressed(struct tse_test *t, enum tse_dev dev)
{
	if (!t->s->shape.upper)
		return dev;
	return dev == TSE_VA ? TSE_UP_A : TSE_UP_B;
}

static bool tunneled(struct tse_test *t)
{
	return upperdef(t) && upperdef(t)->type6;
}

static const char *upper_mac(struct tse_test *t, enum tse_dev dev)
{
	const struct tse_upperdef *up = upperdef(t);

	if (!up || (dev != TSE_VA && dev != TSE_VB))
		return NULL;
	return up->mac[dev == TSE_VB];
}

/* vb2 takes the MAC va's frames are for where mirred redirects them to va2 unchanged. */
static const char *own_mac(struct tse_test *t, enum tse_dev dev)
{
	if (dev == TSE_VB2 && t->s->shape.target_has_vb_mac)
		return upper_mac(t, TSE_VB) ?: devdef(t, TSE_VB)->mac;
	return devdef(t, dev)->mac;
}

static const char *link_mac(struct tse_test *t, enum tse_dev dev)
{
	return upper_mac(t, dev) ?: own_mac(t, dev);
}

static const char *link_addr(struct tse_test *t, enum tse_dev dev)
{
	const struct tse_devdef *d = devdef(t, dev);

	return t->family == TSE_V6 ? d->addr6 : d->addr4;
}

const char *tse_addr(struct tse_test *t, enum tse_dev dev)
{
	const struct tse_upperdef *up = upperdef(t);
	bool b = dev == TSE_VB;

	if (tunneled(t) && (dev == TSE_VA || b))
		return t->family == TSE_V6 ? up->addr6[b] : up->addr4[b];
	return link_addr(t, dev);
}

static const char *prefix_len(struct tse_test *t, enum tse_dev dev)
{
	if (t->family == TSE_V6)
		return "64";
	return devdef(t, dev)->prefix4 ?: "24";
}

int tse_enter(struct tse_test *t, enum tse_ns ns)
{
	return setns(t->net.ns[ns], CLONE_NEWNET);
}

void tse_leave(struct tse_test *t)
{
	if (setns(t->net.self_ns, CLONE_NEWNET))
		abort();	/* every later step would run in the wrong netns */
}

int tse_netns_new(struct tse_test *t)
{
	int fd;

	if (unshare(CLONE_NEWNET))
		return -1;
	fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	tse_leave(t);
	return fd;
}

void tse_chomp(char *s)
{
	char *nl = strchr(s, '\n');

	if (nl)
		*nl = '\0';
}

/* Read to the end: a tool writing into a pipe nobody reads dies of SIGPIPE. */
static void read_errors(int fd, char *err, size_t errlen)
{
	char buf[1024], rest[256], *line, *save;
	size_t got = 0, used = 0;
	ssize_t n;

	while (got < sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	while (read(fd, rest, sizeof(rest)) > 0)
		;	/* the rest, unread, to the end */
	buf[got] = '\0';
	for (line = strtok_r(buf, "\n", &save); line && used < errlen - 1;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Warning:", 8))
			continue;
		used += snprintf(err + used, errlen - used, "%s%s",
				 used ? " | " : "", line);
	}
}

/* ip and tc read commands with -batch, nft with -f. @listing: stdout goes with stderr. */
static void exec_batch(int nsfd, int in, int err, const char *tool, bool listing)
{
	int null = open("/dev/null", O_RDWR);

	if (setns(nsfd, CLONE_NEWNET) || null < 0)
		_exit(127);
	dup2(in, STDIN_FILENO);
	dup2(listing ? err : null, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	execlp(tool, tool, strcmp(tool, "nft") ? "-batch" : "-f", "-", (char *)NULL);
	dprintf(err, "cannot run %s: %s\n", tool, strerror(errno));
	_exit(127);
}

/* The pipe holds the largest batch (100 filters, about 16 KiB). */
static pid_t start_batch(int nsfd, const char *tool, const char *cmds, bool listing,
			 int *from, char *err, size_t errlen)
{
	int in[2], out[2];
	ssize_t n;
	pid_t pid;

	err[0] = '\0';
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0)
		exec_batch(nsfd, in[0], out[1], tool, listing);
	close(in[0]);
	close(out[1]);
	n = write(in[1], cmds, strlen(cmds));
	close(in[1]);
	if (n != (ssize_t)strlen(cmds) && pid > 0)
		snprintf(err, errlen, "batch input cut short");
	*from = out[0];
	return pid;
}

static int end_batch(pid_t pid)
{
	int status = -1;

	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int tse_run_batch(int nsfd, const char *tool, const char *cmds, char *err,
		  size_t errlen)
{
	int from = -1;
	pid_t pid = start_batch(nsfd, tool, cmds, false, &from, err, errlen);

	if (from >= 0) {
		read_errors(from, err, errlen);
		close(from);
	}
	return end_batch(pid);
}

/* What @tool printed, stdout and stderr, into @out: nft's listing of a counter. */
int tse_run_listing(int nsfd, const char *tool, const char *cmds, char *out,
		    size_t outlen)
{
	char rest[256];
	size_t got = 0;
	int from = -1;
	ssize_t n;
	pid_t pid = start_batch(nsfd, tool, cmds, true, &from, out, outlen);

	while (from >= 0 && got < outlen - 1 &&
	       (n = read(from, out + got, outlen - 1 - got)) > 0)
		got += n;
	while (from >= 0 && read(from, rest, sizeof(rest)) > 0)
		;	/* the rest, unread, to the end */
	out[got] = '\0';
	if (from >= 0)
		close(from);
	return end_batch(pid);
}

static const char *const tools[TSE_TOOLS] = { "ip", "tc" };

/* Batched: building a topology costs two commands per namespace, not one per step. */
__printf(4, 5) int tse_queue(struct tse_test *t, enum tse_ns ns,
			     enum tse_tool tool, const char *fmt, ...)
{
	char *q = t->queue->batch[ns][tool];
	size_t used = strlen(q);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(q + used, TSE_QUEUE - used, fmt, ap);
	va_end(ap);
	if (n >= (int)(TSE_QUEUE - used)) {
		q[used] = '\0';
		return tse_setup_error(t, "%s batch too long", tools[tool]);
	}
	return 0;
}

/* The command that failed: iproute2 names its line ("Command failed -:N"). */
static void failed_command(const char *cmds, const char *err, char *buf, int len)
{
	const char *at = strstr(err, "Command failed -:");
	int line = at ? atoi(at + strlen("Command failed -:")) : 1;

	while (--line > 0 && strchr(cmds, '\n'))
		cmds = strchr(cmds, '\n') + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(cmds, "\n"), cmds);
}

/* Run the queued commands: namespace by namespace, ip before tc. */
static int tse_flush(struct tse_test *t)
{
	char err[512], cmd[256];
	int ns, tool, ret = 0;

	for (ns = 0; ns < TSE_NSS; ns++) {
		for (tool = 0; tool < TSE_TOOLS; tool++) {
			char *q = t->queue->batch[ns][tool];

			if (!ret && q[0] && tse_run_batch(t->net.ns[ns], tools[tool], q,
							  err, sizeof(err))) {
				failed_command(q, err, cmd, sizeof(cmd));
				ret = tse_setup_error(t, "'%s %s' failed: %s", tools[tool],
						      cmd, err);
			}
			q[0] = '\0';
		}
	}
	return ret;
}

int tse_tc_flush(struct tse_test *t)
{
	return tse_flush(t);
}

int tse_tc_batch(struct tse_test *t, enum tse_ns ns, const char *cmds)
{
	char err[512];

	if (tse_run_batch(t->net.ns[ns], "tc", cmds, err, sizeof(err)))
		return tse_setup_error(t, "tc -batch failed: %s", err);
	return 0;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) == (ssize_t)strlen(val))
		ret = 0;
	close(fd);
	return ret;
}

static int tse_sysctl(struct tse_test *t, enum tse_ns ns, const char *path,
		      const char *val)
{
	int ret;

	if (tse_enter(t, ns))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	ret = write_file(path, val);
	tse_leave(t);
	if (ret)
		return tse_setup_error(t, "write %s: %s", path, strerror(errno));
	return 0;
}

/*
 * Readdressed to the target's peer: vb2, or back out of vi to the origin's vo. A redirect
 * into a peer (bpf_redirect_peer()) names rb, or va, whose peer is vb.
 */
static void set_target(struct tse_test *t, struct tse_config *cfg)
{
	bool hairpin = t->s->shape.hairpin;
	const char *mac = own_mac(t, hairpin ? TSE_VO : TSE_VB2);
	__u8 *m = cfg->target_mac;

	if (t->net.fixed_target)
		cfg->target_ifindex = t->net.fixed_target;
	else if (t->net.peer_of_ifb)
		cfg->target_ifindex = t->net.ifindex[TSE_IFB];
	else if (t->s->shape.peer)
		cfg->target_ifindex = t->net.ifindex[t->s->shape.routed ? TSE_RB : TSE_VA];
	else if (hairpin)
		cfg->target_ifindex = t->net.ifindex[TSE_VI];
	else
		cfg->target_ifindex = t->net.ifindex[t->s->shape.routed ? TSE_RB2 : TSE_VA2];
	cfg->xdp_target_ifindex = t->net.ifindex[TSE_RB];
	if (mac)
		sscanf(mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx",
		       &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]);
}

/* task_struct's bpf_net_context (since 6.11), from the kernel's BTF; 0: none to read. */
static __u32 net_ctx_offset(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *type = NULL;
	const struct btf_member *m;
	__u32 off = 0;
	int id, i;

	if (!btf)
		return 0;
	id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	if (id > 0)
		type = btf__type_by_id(btf, id);
	for (i = 0; type && i < btf_vlen(type); i++) {
		m = btf_members(type) + i;
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "bpf_net_context"))
			off = btf_member_bit_offset(type, i) / 8;
	}
	btf__free(btf);
	return off;
}

/*
 * Raw tracepoint programs watch the test's process: its syscalls' exits (the task's
 * bpf_net_context, from kernel BTF) and its log lines. Where the kernel cannot, those checks
 * are left out.
 */
static void watch_process(struct tse_test *t, struct tse_config *cfg)
{
	struct test_tc_redirect_ifb *skel = t->net.skel;
	const char *why = NULL;
	bool raw_tp;

	raw_tp = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL) == 1;
	if (!raw_tp)
		why = "the kernel runs no BPF on raw tracepoints (CONFIG_BPF_EVENTS)";
	else
		cfg->net_ctx_off = net_ctx_offset();
	if (!why && !cfg->net_ctx_off)
		why = "no kernel BTF, or a task_struct without it (before 6.11)";
	if (why)
		tse_note(t, "bpf_net_context not checked: %s", why);
	cfg->tgid = getpid();
	bpf_program__set_autoload(skel->progs.tse_net_ctx_left, !why);
	bpf_program__set_autoload(skel->progs.tse_count_xmit_limit_msgs, raw_tp);
}

static int load_bpf(struct tse_test *t)
{
	struct tse_config *cfg;

	t->net.skel = test_tc_redirect_ifb__open();
	if (!t->net.skel)
		return tse_setup_error(t, "open BPF skeleton: %s", strerror(errno));
	cfg = &t->net.skel->rodata->cfg;
	cfg->loop_limit = t->net.breaker_drops ? 0 : TSE_LOOP_LIMIT;
	/* Above the kernel's limit, which must stop the loop first. */
	if (t->net.to_xmit_limit)
		cfg->loop_limit = TSE_XMIT_LIMIT + 4;
	cfg->breaker = t->net.breaker;
	cfg->redirect_both = t->s->shape.aggregate;
	cfg->timed = t->s->traffic == TSE_UDP_TIMED;
	cfg->port[TSE_FLOW_REDIRECTED] = TSE_PORT;
	cfg->port[TSE_FLOW_SECOND] = TSE_PORT + 1;
	cfg->tcp_port = TSE_TCP_PORT;
	cfg->ifb_ifindex = t->net.ifindex[TSE_IFB];
	cfg->ifb_in_ifindex = t->net.ifindex[TSE_IFB_IN];
	set_target(t, cfg);
	if (t->s->shape.split_burst)
		inet_pton(t->family == TSE_V6 ? AF_INET6 : AF_INET, tse_addr(t, TSE_VB2),
			  cfg->second_daddr);
	watch_process(t, cfg);
	if (test_tc_redirect_ifb__load(t->net.skel))
		return tse_setup_error(t, "load BPF programs: %s", strerror(errno));
	return 0;
}

/* New devices send nothing: no link-local address (DAD, RS); in IPv4 tests no IPv6. */
static int ipv6_default(struct tse_test *t, enum tse_ns ns, const char *what,
			const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/default/%s", what);
	return tse_sysctl(t, ns, path, val);
}

static int quiet_ipv6(struct tse_test *t, enum tse_ns ns)
{
	if (t->family == TSE_V4)
		return ipv6_default(t, ns, "disable_ipv6", "1");
	return ipv6_default(t, ns, "addr_gen_mode", "1");
}

static int create_namespaces(struct tse_test *t)
{
	int ns;

	for (ns = 0; ns < TSE_NSS; ns++) {
		if ((ns == TSE_NS_ROUTER && !t->s->shape.routed) ||
		    (ns == TSE_NS_ORIGIN && !t->s->shape.forwarded))
			continue;
		t->net.ns[ns] = tse_netns_new(t);
		if (t->net.ns[ns] < 0)
			return tse_setup_error(t, "new netns: %s", strerror(errno));
		if (quiet_ipv6(t, ns))
			return -1;
	}
	return 0;
}

/* Segmented in software, a burst's datagrams reach the peer's queue together. */
static const char *segments(struct tse_test *t, enum tse_dev dev)
{
	if ((dev == TSE_VA && t->s->shape.burst_sender) ||
	    (dev == TSE_VO && t->s->shape.split_burst))
		return " gso_max_segs 1";
	return "";
}

static int create_veth(struct tse_test *t, enum tse_dev a, enum tse_dev b)
{
	char peer[128];

	snprintf(peer, sizeof(peer), "peer name %s%s address %s netns /proc/%d/fd/%d",
		 tse_dev(t, b), segments(t, b), own_mac(t, b), getpid(),
		 t->net.ns[tse_dev_ns(t, b)]);
	return tse_queue(t, tse_dev_ns(t, a), TSE_IP,
			 "link add name %s%s address %s type veth %s\n",
			 tse_dev(t, a), segments(t, a), own_mac(t, a), peer);
}

/*
 * "arp off" keeps ARP, ND and solicited-node groups away, "multicast off" a router's devices
 * out of all-routers. clsact is an egress hook even unfiltered: bare shapes count received
 * packets on an ingress qdisc.
 */
#define TSE_SILENT "arp off multicast off up"

static int link_up(struct tse_test *t, enum tse_dev dev)
{
	const char *name = tse_dev(t, dev);
	enum tse_ns ns = tse_dev_ns(t, dev);
	const char *qdisc = "clsact";

	if (t->s->shape.bare)
		qdisc = ns == TSE_NS_RECEIVER ? "ingress" : NULL;
	return tse_queue(t, ns, TSE_IP, "link set %s " TSE_SILENT "\n", name) ?:
	       (qdisc ? tse_queue(t, ns, TSE_TC, "qdisc add dev %s %s\n", name, qdisc) : 0);
}

/* A bridge that learns nothing floods each frame to both ports (cake-dual-ifb's br-lan). */
static int bridge_ports(struct tse_test *t, enum tse_dev up, enum tse_dev lower)
{
	const char *br = tse_dev(t, up), *vc = tse_dev(t, TSE_VC);

	return tse_queue(t, tse_dev_ns(t, up), TSE_IP,
			 "link set %s type bridge_slave learning off\n", tse_dev(t, lower)) ?:
	       (up == TSE_UP_A ?
		tse_queue(t, tse_dev_ns(t, up), TSE_IP,
			  "link set %s master %s\nlink set %s type bridge_slave learning off\n",
			  vc, br, vc) : 0);
}

/* A bond enslaves a device only while it is down. */
static int create_upper(struct tse_test *t, enum tse_dev up, enum tse_dev lower)
{
	const struct tse_upperdef *def = upperdef(t);
	const char *mac = def->mac[up == TSE_UP_B];
	enum tse_dev peer = lower == TSE_VA ? TSE_VB : TSE_VA;
	char address[32] = "";
	int ret;

	if (mac)
		snprintf(address, sizeof(address), " address %s", mac);
	if (tunneled(t))
		ret = tse_queue(t, tse_dev_ns(t, up), TSE_IP,
				"link add name %s type %s local %s remote %s dev %s\n",
				tse_dev(t, up), t->family == TSE_V6 ? def->type6 : def->type,
				link_addr(t, lower), link_addr(t, peer), tse_dev(t, lower));
	else if (def->master)
		ret = tse_queue(t, tse_dev_ns(t, up), TSE_IP,
				"link add name %s%s type %s\n"
				"link set %s down\nlink set %s master %s\nlink set %s up\n",
				tse_dev(t, up), address, def->type, tse_dev(t, lower),
				tse_dev(t, lower), tse_dev(t, up), tse_dev(t, lower)) ?:
		      (def->floods ? bridge_ports(t, up, lower) : 0);
	else
		ret = tse_queue(t, tse_dev_ns(t, up), TSE_IP,
				"link add link %s name %s%s type %s\n",
				tse_dev(t, lower), tse_dev(t, up), address, def->type);
	return ret ?: link_up(t, up);
}

/* Over a tunnel va and vb keep their addresses; the tunnel (no neighbours) the test's. */
static int address_link(struct tse_test *t, enum tse_dev dev, enum tse_dev peer)
{
	const char *nodad = t->family == TSE_V6 ? " nodad" : "";
	enum tse_dev on = tunneled(t) || dev >= TSE_VA2 ? dev : addressed(t, dev);

	return tse_queue(t, tse_dev_ns(t, dev), TSE_IP,
		      "address add %s/%s dev %s%s\n"
		      "neigh replace %s lladdr %s dev %s nud permanent\n",
		      link_addr(t, dev), prefix_len(t, dev), tse_dev(t, on), nodad,
		      link_addr(t, peer), link_mac(t, peer), tse_dev(t, on)) ?:
	       (tunneled(t) && dev < TSE_VA2 ?
		tse_queue(t, tse_dev_ns(t, dev), TSE_IP, "address add %s/%s dev %s%s\n",
			  tse_addr(t, dev), prefix_len(t, dev),
			  tse_dev(t, addressed(t, dev)), nodad) : 0);
}

static int route_through(struct tse_test *t, enum tse_dev end, enum tse_dev gw,
			 enum tse_dev far)
{
	return tse_queue(t, tse_dev_ns(t, end), TSE_IP, "route add %s via %s\n",
		      tse_addr(t, far), tse_addr(t, gw));
}

/* Only now: a device that comes up with forwarding and multicast on joins all-routers (MLD). */
static int enable_forwarding(struct tse_test *t, enum tse_ns ns)
{
	if (t->family == TSE_V4)
		return tse_sysctl(t, ns, "/proc/sys/net/ipv4/ip_forward", "1");
	return tse_sysctl(t, ns, "/proc/sys/net/ipv6/conf/all/forwarding", "1");
}

/* The receiver takes what comes from an address it has no route to. */
static int no_rp_filter(struct tse_test *t)
{
	if (t->family != TSE_V4)
		return 0;
	return tse_sysctl(t, TSE_NS_RECEIVER, "/proc/sys/net/ipv4/conf/all/rp_filter", "0") ?:
	       tse_sysctl(t, TSE_NS_RECEIVER, "/proc/sys/net/ipv4/conf/default/rp_filter", "0");
}

static int create_origin(struct tse_test *t)
{
	const char *dflt = t->family == TSE_V6 ? "::/0" : "0.0.0.0/0";

	return no_rp_filter(t) ?: create_veth(t, TSE_VI, TSE_VO) ?:
	       link_up(t, TSE_VI) ?: link_up(t, TSE_VO) ?:
	       address_link(t, TSE_VO, TSE_VI) ?: address_link(t, TSE_VI, TSE_VO) ?:
	       tse_queue(t, TSE_NS_ORIGIN, TSE_IP, "route add %s via %s\n", dflt,
			 link_addr(t, TSE_VI));
}

static int create_pair(struct tse_test *t)
{
	if (create_veth(t, TSE_VA, TSE_VB) || link_up(t, TSE_VA) ||
	    link_up(t, TSE_VB))
		return -1;
	/* Before the uppers: it carries a bridge's floods too. */
	if (t->s->shape.monitor &&
	    (create_veth(t, TSE_VC, TSE_VD) || link_up(t, TSE_VC) || link_up(t, TSE_VD)))
		return -1;
	if (t->s->shape.upper &&
	    (create_upper(t, TSE_UP_A, TSE_VA) || create_upper(t, TSE_UP_B, TSE_VB)))
		return -1;
	if ((t->s->shape.aggregate || t->s->shape.target) &&
	    (create_veth(t, TSE_VA2, TSE_VB2) || link_up(t, TSE_VA2) || link_up(t, TSE_VB2) ||
	     address_link(t, TSE_VA2, TSE_VB2) || address_link(t, TSE_VB2, TSE_VA2)))
		return -1;
	if (t->s->shape.forwarded && create_origin(t))
		return -1;
	return address_link(t, TSE_VA, TSE_VB) ?: address_link(t, TSE_VB, TSE_VA);
}

/* vb2 takes frames for vb's address: in IPv4 only with rp_filter off. */
static int create_second_output(struct tse_test *t)
{
	if (t->family == TSE_V4 &&
	    (tse_sysctl(t, TSE_NS_RECEIVER, "/proc/sys/net/ipv4/conf/all/rp_filter", "0") ||
	     tse_sysctl(t, TSE_NS_RECEIVER, "/proc/sys/net/ipv4/conf/default/rp_filter", "0")))
		return -1;
	return create_veth(t, TSE_RB2, TSE_VB2) ?: link_up(t, TSE_RB2) ?:
	       link_up(t, TSE_VB2);
}

static int create_routed(struct tse_test *t)
{
	static const enum tse_dev devs[] = { TSE_VA, TSE_RA, TSE_RB, TSE_VB };
	unsigned int i;

	if (create_veth(t, TSE_VA, TSE_RA) || create_veth(t, TSE_RB, TSE_VB))
		return -1;
	for (i = 0; i < ARRAY_SIZE(devs); i++)
		if (link_up(t, devs[i]))
			return -1;
	return address_link(t, TSE_VA, TSE_RA) ?:
	       address_link(t, TSE_RA, TSE_VA) ?:
	       address_link(t, TSE_RB, TSE_VB) ?:
	       address_link(t, TSE_VB, TSE_RB) ?:
	       route_through(t, TSE_VA, TSE_RA, TSE_VB) ?:
	       route_through(t, TSE_VB, TSE_RB, TSE_VA) ?:
	       (t->s->shape.second_output ? create_second_output(t) : 0);
}

/*
 * A queue no burst of 64 overflows; the gate's clsact, unless the site breaks loops. Where
 * two CPUs send, no qdisc: each CPU then hands its packets to ifb itself, under ifb's queue
 * lock. With one, the CPU that runs it sends the other's packets too.
 */
static int create_ifb(struct tse_test *t, enum tse_dev ifb)
{
	const char *name = tse_dev(t, ifb);
	enum tse_ns ns = tse_dev_ns(t, ifb);
	char address[40] = "";

	if (ifb == TSE_IFB && t->s->shape.ifb_has_vb_mac)
		snprintf(address, sizeof(address), " address %s", link_mac(t, TSE_VB));
	return tse_queue(t, ns, TSE_IP,
		      "link add name %s txqueuelen 1000%s type ifb\n"
		      "link set %s " TSE_SILENT "\n", name, address, name) ?:
	       (t->net.breaker == TSE_HOOKS ?
		tse_queue(t, ns, TSE_TC, "qdisc add dev %s clsact\n", name) : 0) ?:
	       (ifb == TSE_IFB && t->s->shape.two_cpus ?
		tse_queue(t, ns, TSE_TC, "qdisc add dev %s root noqueue\n", name) : 0);
}

static int lookup_ifindexes(struct tse_test *t)
{
	int dev, ns;

	for (ns = 0; ns < TSE_NSS; ns++) {
		if (t->net.ns[ns] < 0)
			continue;
		if (tse_enter(t, ns))
			return tse_setup_error(t, "setns: %s", strerror(errno));
		t->net.nl[ns] = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				       NETLINK_ROUTE);
		for (dev = 0; dev < TSE_DEVS; dev++)
			if (tse_dev_ns(t, dev) == ns && tse_dev(t, dev))
				t->net.ifindex[dev] = if_nametoindex(tse_dev(t, dev));
		tse_leave(t);
		if (t->net.nl[ns] < 0)
			return tse_setup_error(t, "netlink: %s", strerror(errno));
	}
	return 0;
}

static int tse_attach_cls_bpf(struct tse_test *t, enum tse_dev dev,
			      enum bpf_tc_attach_point where, __u32 parent,
			      struct bpf_program *prog, int prio)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = t->net.ifindex[dev],
		    .attach_point = where, .parent = parent);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = 1, .priority = prio,
		    .prog_fd = bpf_program__fd(prog));
	int err;

	if (tse_enter(t, tse_dev_ns(t, dev)))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	err = bpf_tc_attach(&hook, &opts);
	tse_leave(t);
	if (err)
		return tse_setup_error(t, "attach %s to %s: %s",
				       bpf_program__name(prog), tse_dev(t, dev),
				       strerror(-err));
	return 0;
}

int tse_count_at(struct tse_test *t, enum tse_dev dev, bool egress,
		 struct bpf_program *prog, int prio)
{
	return tse_attach_cls_bpf(t, dev, egress ? BPF_TC_EGRESS : BPF_TC_INGRESS,
				  0, prog, prio);
}

/* Classes 1:1 to 1:3, 1:2 the default: prio's bands (1:2 is priority 0's), or htb's. */
int tse_root_qdisc_queue(struct tse_test *t, enum tse_dev dev)
{
	const char *name = tse_dev(t, dev);

	if (strcmp(t->net.root_qdisc, "htb"))
		return tse_tc_queue(t, tse_dev_ns(t, dev),
				    "qdisc add dev %s root handle 1: %s\n",
				    name, t->net.root_qdisc);
	return tse_tc_queue(t, tse_dev_ns(t, dev),
			    "qdisc add dev %s root handle 1: htb default %d\n"
			    "class add dev %s parent 1: classid 1:1 htb rate 10gbit\n"
			    "class add dev %s parent 1: classid 1:2 htb rate 10gbit\n"
			    "class add dev %s parent 1: classid 1:3 htb rate 10gbit\n",
			    name, TSE_DEFAULT_CLASS, name, name, name);
}

int tse_root_qdisc(struct tse_test *t, enum tse_dev dev)
{
	return tse_root_qdisc_queue(t, dev) ?: tse_tc_flush(t);
}

int tse_count_at_root(struct tse_test *t, enum tse_dev dev,
		      struct bpf_program *prog)
{
	return tse_attach_cls_bpf(t, dev, BPF_TC_CUSTOM, TC_H_MAKE(1 << 16, 0),
				  prog, 1);
}

/* libbpf has tcx from 1.3 on; without it tse_probe_tcx() skips the tcx tests. */
struct bpf_link *tse_tcx_link(struct bpf_program *prog, int ifindex)
{
#if LIBBPF_MAJOR_VERSION > 1 || LIBBPF_MINOR_VERSION >= 3
	return bpf_program__attach_tcx(prog, ifindex, NULL);
#else
	errno = ENOTSUP;
	return NULL;
#endif
}

int tse_attach_tcx(struct tse_test *t, enum tse_dev dev,
		   struct bpf_program *prog)
{
	struct bpf_link **link = &t->net.tcx_link[!!t->net.tcx_link[0]];
	int err = 0;

	if (tse_enter(t, tse_dev_ns(t, dev)))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	*link = tse_tcx_link(prog, t->net.ifindex[dev]);
	if (!*link)
		err = -errno;
	tse_leave(t);
	if (err)
		return tse_setup_error(t, "attach tcx to %s: %s", tse_dev(t, dev),
				       strerror(-err));
	return 0;
}

/* Generic (skb) mode: the program runs on each packet just before tc's ingress hook. */
int tse_attach_xdp(struct tse_test *t, enum tse_dev dev, struct bpf_program *prog)
{
	int err = 0;

	if (tse_enter(t, tse_dev_ns(t, dev)))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	if (bpf_xdp_attach(t->net.ifindex[dev], bpf_program__fd(prog), XDP_FLAGS_SKB_MODE,
			   NULL))
		err = -errno;
	tse_leave(t);
	if (err)
		return tse_setup_error(t, "attach generic XDP to %s: %s", tse_dev(t, dev),
				       strerror(-err));
	return 0;
}

int tse_u32_match(struct tse_test *t, int l4, int port, char *buf, int len)
{
	const char *ip = t->family == TSE_V6 ? "ip6" : "ip";

	return snprintf(buf, len,
			"protocol %s u32 match %s protocol %d 0xff match %s dport %d 0xffff",
			t->family == TSE_V6 ? "ipv6" : "ip", ip, l4, ip, port);
}

int tse_mirred_filter_queue(struct tse_test *t, enum tse_dev dev,
			    const char *parent, int prio, int l4, int port,
			    const char *verb, enum tse_dev ifb)
{
	char match[160];

	tse_u32_match(t, l4, port, match, sizeof(match));
	return tse_tc_queue(t, tse_dev_ns(t, dev),
			    "filter add dev %s %s prio %d %s action mirred egress %s dev %s\n",
			    tse_dev(t, dev), parent, prio, match, verb, tse_dev(t, ifb));
}

int tse_mirred_filter(struct tse_test *t, enum tse_dev dev,
		      const char *parent, int prio, int l4, int port,
		      enum tse_dev ifb)
{
	return tse_mirred_filter_queue(t, dev, parent, prio, l4, port, "redirect", ifb) ?:
	       tse_tc_flush(t);
}

static int attach_ifb_gates(struct tse_test *t)
{
	struct bpf_program *gate = t->net.skel->progs.tse_ifb_gate;

	if (t->net.breaker != TSE_HOOKS)
		return 0;
	return tse_count_at(t, TSE_IFB, true, gate, 1) ?:
	       (t->s->shape.ifb_in ? tse_count_at(t, TSE_IFB_IN, true, gate, 1) : 0);
}

/* Counts what leaves ra: a stray shows as noise (tse_expect_quiet()), not a wrong device. */
static int watch_router_input(struct tse_test *t)
{
	if (!t->s->shape.routed)
		return 0;
	return tse_count_at(t, TSE_RA, true, t->net.skel->progs.tse_count_back, 1);
}

static int create_devices(struct tse_test *t)
{
	if (t->s->shape.routed ? create_routed(t) : create_pair(t))
		return -1;
	if (create_ifb(t, TSE_IFB) ||
	    (t->s->shape.ifb_in && create_ifb(t, TSE_IFB_IN)) || tse_flush(t))
		return -1;
	if (t->s->shape.forwarded)
		return enable_forwarding(t, TSE_NS_SENDER);
	return t->s->shape.routed ? enable_forwarding(t, TSE_NS_ROUTER) : 0;
}

int tse_topology_init(struct tse_test *t)
{
	t->net.self_ns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (t->net.self_ns < 0)
		return tse_setup_error(t, "own netns: %s", strerror(errno));
	return 0;
}

static int link_events(struct tse_test *t, enum tse_ns ns)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1 << (RTNLGRP_LINK - 1),
	};
	int fd;

	if (tse_enter(t, ns))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	tse_leave(t);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		tse_setup_error(t, "netlink link events: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int wait_forwarding(struct tse_test *t, enum tse_dev port)
{
	enum tse_ns ns = tse_dev_ns(t, port);
	long long left, deadline = tse_now_ms() + TSE_WAIT_MS;
	struct pollfd pfd = { .events = POLLIN };
	char drain[8192];
	int state;

	pfd.fd = link_events(t, ns);
	if (pfd.fd < 0)
		return -1;
	while ((state = tse_brport_state(t->net.nl[ns], t->net.ifindex[port])) !=
	       BR_STATE_FORWARDING && (left = deadline - tse_now_ms()) > 0) {
		poll(&pfd, 1, left);
		while (recv(pfd.fd, drain, sizeof(drain), 0) > 0)
			;
	}
	close(pfd.fd);
	if (state != BR_STATE_FORWARDING)
		return tse_setup_error(t, "bridge port %s not forwarding after %d ms (state %d)",
				       tse_dev(t, port), TSE_WAIT_MS, state);
	return 0;
}

/* A port forwards only once linkwatch saw its link up: a packet sent before is dropped. */
static int bridges_forward(struct tse_test *t)
{
	if (t->s->shape.upper != TSE_UPPER_BRIDGE)
		return 0;
	return wait_forwarding(t, TSE_VA) ?: wait_forwarding(t, TSE_VC) ?:
	       wait_forwarding(t, TSE_VB);
}

int tse_topology_create(struct tse_test *t)
{
	if (create_namespaces(t) || create_devices(t) || lookup_ifindexes(t) ||
	    bridges_forward(t) || load_bpf(t))
		return -1;
	return 0;
}

static int attach_watch(struct tse_test *t, struct bpf_program *prog, struct bpf_link **link,
			const char *tracepoint)
{
	if (!bpf_program__autoload(prog))
		return 0;
	*link = bpf_program__attach(prog);
	if (!*link)
		return tse_setup_error(t, "attach to the %s raw tracepoint: %s", tracepoint,
				       strerror(errno));
	return 0;
}

static int watch_process_attach(struct tse_test *t)
{
	return attach_watch(t, t->net.skel->progs.tse_net_ctx_left, &t->net.net_ctx_link,
			    "sys_exit") ?:
	       attach_watch(t, t->net.skel->progs.tse_count_xmit_limit_msgs,
			    &t->net.console_link, "console");
}

int tse_topology_attach(struct tse_test *t)
{
	return attach_ifb_gates(t) ?: watch_router_input(t) ?: watch_process_attach(t);
}

void tse_topology_destroy(struct tse_test *t)
{
	int ns;

	bpf_link__destroy(t->net.tcx_link[0]);
	bpf_link__destroy(t->net.tcx_link[1]);
	bpf_link__destroy(t->net.net_ctx_link);
	bpf_link__destroy(t->net.console_link);
	test_tc_redirect_ifb__destroy(t->net.skel);
	for (ns = 0; ns < TSE_NSS; ns++) {
		if (t->net.nl[ns] >= 0)
			close(t->net.nl[ns]);
		if (t->net.ns[ns] >= 0)
			close(t->net.ns[ns]);
	}
	if (t->net.self_ns >= 0)
		close(t->net.self_ns);
}
