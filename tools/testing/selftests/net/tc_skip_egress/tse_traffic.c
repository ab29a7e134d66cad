// SPDX-License-Identifier: GPL-2.0
/*
 * Each datagram carries a magic and a sequence number. A burst is one UDP GSO send, segmented
 * in software: its datagrams reach the next hop together, in one softirq run. No sleeps.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "tse_result.h"
#include "tse_netlink.h"
#include "tse_topology.h"
#include "tse_traffic.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT	103
#endif

static socklen_t receiver_sockaddr(struct tse_test *t, int port,
				   struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	bool second = t->s->shape.aggregate && port == TSE_PORT + TSE_FLOW_SECOND;
	const char *addr = tse_addr(t, second ? TSE_VB2 : TSE_VB);

	memset(ss, 0, sizeof(*ss));
	if (t->family == TSE_V6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &sin6->sin6_addr);
		return sizeof(*sin6);
	}
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	inet_pton(AF_INET, addr, &sin->sin_addr);
	return sizeof(*sin);
}

static int tse_socket(struct tse_test *t, enum tse_ns ns, int type, int port)
{
	int domain = t->family == TSE_V6 ? AF_INET6 : AF_INET;
	bool receiver = ns == TSE_NS_RECEIVER;
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, err;

	if (tse_enter(t, ns))
		return -1;
	fd = socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	tse_leave(t);
	if (fd < 0)
		return -1;
	len = receiver_sockaddr(t, port, &ss);
	if (receiver)
		err = bind(fd, (struct sockaddr *)&ss, len) ?:
		      (type == SOCK_STREAM ? listen(fd, 1) : 0);
	else
		err = connect(fd, (struct sockaddr *)&ss, len);
	if (err && !(type == SOCK_STREAM && errno == EINPROGRESS)) {
		close(fd);
		return -1;
	}
	return fd;
}

static enum tse_dev sender_dev(struct tse_test *t)
{
	return t->s->shape.upper ? TSE_UP_A : TSE_VA;
}

static int tap_open(struct tse_test *t)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = t->net.ifindex[sender_dev(t)],
	};
	int fd;

	if (tse_enter(t, TSE_NS_SENDER))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	t->traffic.tap_sock = fd;
	tse_leave(t);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		return tse_setup_error(t, "packet socket on %s: %s",
				       tse_dev(t, sender_dev(t)), strerror(errno));
	return 0;
}

/*
 * Where two CPUs send, a packet socket on ifb whose filter stalls each packet into ifb under
 * ifb's queue lock (tse_stall_ifb_xmit): the other CPU's ifb tasklet meets the lock taken.
 */
static int stall_open(struct tse_test *t)
{
	int prog = bpf_program__fd(t->net.skel->progs.tse_stall_ifb_xmit);
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = t->net.ifindex[TSE_IFB],
	};
	int fd;

	if (tse_enter(t, t->s->shape.ifb_ns))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
	t->traffic.stall_sock = fd;
	tse_leave(t);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog)) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		return tse_setup_error(t, "stalling packet socket on %s: %s",
				       tse_dev(t, TSE_IFB), strerror(errno));
	return 0;
}

/* A tunnel device's frames start at the IP header. */
static int frame_seq(struct tse_test *t, const unsigned char *f, ssize_t len)
{
	int l3 = t->s->shape.upper == TSE_UPPER_TUNNEL ? 0 : ETH_HLEN;
	int l4 = t->family == TSE_V6 ? l3 + 40 : l3 + 20;
	const struct tse_payload *p = (const void *)(f + l4 + 8);
	__u16 dport;

	if (len < l4 + 8 + (ssize_t)sizeof(*p))
		return -1;
	if (f[t->family == TSE_V6 ? l3 + 6 : l3 + 9] != IPPROTO_UDP)
		return -1;
	memcpy(&dport, f + l4 + 2, sizeof(dport));
	if (ntohs(dport) != TSE_PORT || ntohl(p->magic) != TSE_MAGIC ||
	    ntohl(p->seq) >= TSE_MAX_PKTS)
		return -1;
	return ntohl(p->seq);
}

/*
 * Drains stop at their wait's deadline, checked every TSE_DRAIN_CHECK reads: a kernel sending
 * copies without end must not hold the test (one read can take milliseconds then).
 */
#define TSE_DRAIN_MAX	4096
#define TSE_DRAIN_CHECK	16
#define TSE_TAP_MS	500	/* how long the tap's drain may take */

static bool drain_stops(int n, long long until)
{
	return n % TSE_DRAIN_CHECK == 0 && tse_now_ms() >= until;
}

static void tap_drain(struct tse_test *t)
{
	long long until = tse_now_ms() + TSE_TAP_MS;
	unsigned char frame[256];
	struct sockaddr_ll from;
	socklen_t alen;
	ssize_t n;
	int seq, i;

	for (i = 0; i < TSE_DRAIN_MAX && !drain_stops(i + 1, until); i++) {
		alen = sizeof(from);
		n = recvfrom(t->traffic.tap_sock, frame, sizeof(frame), MSG_TRUNC,
			     (struct sockaddr *)&from, &alen);
		if (n < 0)
			return;
		seq = frame_seq(t, frame, n > (ssize_t)sizeof(frame) ? sizeof(frame) : n);
		if (seq >= 0 && from.sll_pkttype == PACKET_OUTGOING)
			t->traffic.tapped[seq]++;
	}
}

static enum tse_ns sender_ns(struct tse_test *t)
{
	return t->s->shape.forwarded ? TSE_NS_ORIGIN : TSE_NS_SENDER;
}

/* CLOCK_REALTIME: a delivery time that a redirect clears (skb_clear_tstamp()). */
static int timed_socket(struct tse_test *t, int fd)
{
	struct sock_txtime txtime = { .clockid = CLOCK_REALTIME };

	if (setsockopt(fd, SOL_SOCKET, SO_TXTIME, &txtime, sizeof(txtime)))
		return tse_setup_error(t, "SO_TXTIME: %s", strerror(errno));
	return 0;
}

int tse_traffic_open(struct tse_test *t)
{
	int flow, type = SOCK_DGRAM, port = TSE_PORT;

	if ((t->s->shape.tap && tap_open(t)) || (t->s->shape.two_cpus && stall_open(t)))
		return -1;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (!t->traffic.sends[flow])
			continue;
		if (t->s->traffic == TSE_TCP_STREAM) {
			type = SOCK_STREAM;
			port = TSE_TCP_PORT;
		}
		t->traffic.rx_sock[flow] = tse_socket(t, TSE_NS_RECEIVER, type, port + flow);
		if (t->traffic.rx_sock[flow] < 0)
			return tse_setup_error(t, "receiver socket: %s", strerror(errno));
		/* The TCP sender connects once the counters have been read. */
		if (type == SOCK_STREAM)
			continue;
		t->traffic.tx_sock[flow] = tse_socket(t, sender_ns(t), type, port + flow);
		if (t->traffic.tx_sock[flow] < 0)
			return tse_setup_error(t, "sender socket: %s", strerror(errno));
		if (t->s->traffic == TSE_UDP_TIMED && timed_socket(t, t->traffic.tx_sock[flow]))
			return -1;
	}
	return 0;
}

void tse_traffic_close(struct tse_test *t)
{
	int flow;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (t->traffic.tx_sock[flow] >= 0)
			close(t->traffic.tx_sock[flow]);
		if (t->traffic.rx_sock[flow] >= 0)
			close(t->traffic.rx_sock[flow]);
	}
	if (t->traffic.tap_sock >= 0)
		close(t->traffic.tap_sock);
	if (t->traffic.stall_sock >= 0)
		close(t->traffic.stall_sock);
}

/* The counters of action @kind @index, in @dev's netns. */
static int read_action(struct tse_test *t, enum tse_dev dev, const char *kind,
		       __u32 index, struct tse_actstats *as)
{
	if (tse_action_read(t->net.nl[tse_dev_ns(t, dev)], kind, index, as))
		return tse_setup_error(t, "read %s action %u's counters over rtnetlink",
				       kind, index);
	return 0;
}

static int tse_kstats_read(struct tse_test *t, struct tse_devstats *ds)
{
	int dev;

	memset(ds, 0, sizeof(*ds) * TSE_DEVS);
	for (dev = 0; dev < TSE_DEVS; dev++) {
		if (!t->net.ifindex[dev])
			continue;
		if (tse_devstats_read(t->net.nl[tse_dev_ns(t, dev)], t->net.ifindex[dev],
				      &ds[dev]))
			return tse_setup_error(t, "read counters of %s over rtnetlink",
					       tse_dev(t, dev));
	}
	return (t->net.root_gact ?
		read_action(t, TSE_VA, "gact", TSE_GACT_INDEX, &ds[TSE_VA].gact) : 0) ?:
	       (t->net.peer_gact ?
		read_action(t, TSE_VB, "gact", TSE_PEER_GACT_INDEX, &ds[TSE_VB].peer_gact) : 0) ?:
	       (t->net.root_gone ?
		read_action(t, TSE_VA, "mirred", TSE_GONE_INDEX, &ds[TSE_VA].gone) : 0) ?:
	       (t->net.mirred_read ?
		read_action(t, TSE_VA, "mirred", TSE_MIRRED_INDEX, &ds[TSE_VA].mirred) : 0);
}

static void fill_payloads(struct tse_payload *p, int n, __u32 magic)
{
	int seq;

	for (seq = 0; seq < n; seq++) {
		p[seq].magic = htonl(magic);
		p[seq].seq = htonl(seq);
	}
}

/* A drop on the way out is an outcome to judge, not an error. */
static int send_or_drop(struct tse_test *t, int fd, const void *buf, size_t len)
{
	if (send(fd, buf, len, 0) < 0 && errno != ENOBUFS)
		return tse_setup_error(t, "send: %s", strerror(errno));
	return 0;
}

/* The datagram's delivery time (SCM_TXTIME) is now: it only has to be there. */
static int send_timed(struct tse_test *t, int fd, void *buf, size_t len)
{
	char control[CMSG_SPACE(sizeof(__u64))] = {};
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	struct timespec now;
	__u64 txtime;

	clock_gettime(CLOCK_REALTIME, &now);
	txtime = now.tv_sec * 1000000000ULL + now.tv_nsec;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_TXTIME;
	cm->cmsg_len = CMSG_LEN(sizeof(txtime));
	memcpy(CMSG_DATA(cm), &txtime, sizeof(txtime));
	if (sendmsg(fd, &msg, 0) < 0 && errno != ENOBUFS)
		return tse_setup_error(t, "sendmsg with SCM_TXTIME: %s", strerror(errno));
	return 0;
}

static int send_flow(struct tse_test *t, enum tse_flow flow)
{
	struct tse_payload p[TSE_MAX_PKTS];
	int fd = t->traffic.tx_sock[flow];
	int seq, err;

	fill_payloads(p, t->pkts, TSE_MAGIC);
	for (seq = 0; seq < t->pkts; seq++) {
		err = t->s->traffic == TSE_UDP_TIMED ?
		      send_timed(t, fd, &p[seq], sizeof(p[seq])) :
		      send_or_drop(t, fd, &p[seq], sizeof(p[seq]));
		if (err)
			return -1;
	}
	return 0;
}

/* Every second datagram is the second flow's: vi's split readdresses it (tse_split_flows). */
static void fill_split_payloads(struct tse_payload *p, int n)
{
	int i;

	for (i = 0; i < 2 * n; i++) {
		p[i].magic = htonl(i % 2 ? TSE_SPLIT_MAGIC : TSE_MAGIC);
		p[i].seq = htonl(i / 2);
	}
}

/* UDP GSO cuts the one send into a datagram per payload; a split burst carries both flows. */
static int send_burst(struct tse_test *t, enum tse_flow flow)
{
	struct tse_payload p[2 * TSE_MAX_PKTS];
	int fd = t->traffic.tx_sock[flow], size = sizeof(p[0]), off = 0, n = t->pkts;

	if (t->s->shape.split_burst) {
		fill_split_payloads(p, n);
		n *= 2;
	} else {
		fill_payloads(p, n, TSE_MAGIC);
	}
	if (setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &size, sizeof(size)))
		return tse_skip(t, "kernel lacks UDP GSO (UDP_SEGMENT): %s",
				strerror(errno));
	if (send_or_drop(t, fd, p, size * n))
		return -1;
	return setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &off, sizeof(off)) ?
	       tse_setup_error(t, "UDP_SEGMENT off: %s", strerror(errno)) : 0;
}

static int send_datagrams(struct tse_test *t, enum tse_flow flow)
{
	if (t->s->traffic != TSE_UDP_BURST)
		return send_flow(t, flow);
	if (flow == TSE_FLOW_REDIRECTED)
		return send_burst(t, flow);
	return t->s->shape.split_burst ? 0 : send_flow(t, flow);
}

static void drain(struct tse_test *t, enum tse_flow flow, long long until)
{
	struct tse_payload p;
	int n = 0;
	__u32 seq;

	while (n++ < TSE_DRAIN_MAX && !drain_stops(n, until) &&
	       recv(t->traffic.rx_sock[flow], &p, sizeof(p), 0) == sizeof(p)) {
		seq = ntohl(p.seq);
		if (p.magic == htonl(TSE_FENCE_MAGIC))
			t->traffic.fences++;
		else if (p.magic == htonl(TSE_MAGIC) && seq < TSE_MAX_PKTS)
			t->traffic.delivered[flow][seq]++;
	}
}

static void receive_for(struct tse_test *t, int ms, long long until)
{
	struct pollfd pfd[TSE_FLOWS];
	int flow, n = 0;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (!t->traffic.sends[flow])
			continue;
		pfd[n].fd = t->traffic.rx_sock[flow];
		pfd[n++].events = POLLIN;
	}
	poll(pfd, n, ms);
	for (flow = 0; flow < TSE_FLOWS; flow++)
		if (t->traffic.sends[flow])
			drain(t, flow, until);
}

static unsigned int packets_sent(struct tse_test *t)
{
	return t->pkts * (t->traffic.sends[TSE_FLOW_REDIRECTED] +
			  t->traffic.sends[TSE_FLOW_SECOND]);
}

static unsigned int packets_delivered(struct tse_test *t)
{
	unsigned int n = 0;
	int flow, seq;

	for (flow = 0; flow < TSE_FLOWS; flow++)
		for (seq = 0; seq < t->pkts; seq++)
			n += t->traffic.delivered[flow][seq] > 0;
	return n;
}

static unsigned int sent_back(struct tse_test *t, const struct tse_devstats *now,
			      enum tse_dev input)
{
	if (!t->net.ifindex[input])
		return 0;
	return now[input].tx - t->stats.before[input].tx;
}

/* Its runs on va's egress reached the kernel's limit: the kernel dropped it, uncounted. */
static bool stopped_at_xmit_limit(struct tse_test *t, int flow, int seq)
{
	return t->net.to_xmit_limit &&
	       t->net.skel->bss->counters.seen[TSE_HOOK_REDIRECT][flow][seq] >= TSE_XMIT_LIMIT + 2;
}

/* The site's program redirected it where the kernel drops it, uncounted: that is its outcome. */
static bool dropped_by_redirect(struct tse_test *t, int flow, int seq)
{
	return t->net.redirect_drops &&
	       t->net.skel->bss->counters.seen[TSE_HOOK_REDIRECT][flow][seq];
}

/*
 * In a copy point ifb's drops are the copies': each datagram needs an outcome of its own too,
 * or the wait can end before it is delivered (as on a starved guest).
 */
static unsigned int tse_outcomes(struct tse_test *t)
{
	struct tse_counters *c = &t->net.skel->bss->counters;
	unsigned int done = 0, copies = 0, gone;
	struct tse_devstats now[TSE_DEVS];
	int flow, seq;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (!t->traffic.sends[flow])
			continue;
		for (seq = 0; seq < t->pkts; seq++) {
			done += t->traffic.delivered[flow][seq] || c->looped[flow][seq] ||
				stopped_at_xmit_limit(t, flow, seq) ||
				dropped_by_redirect(t, flow, seq);
			copies += (t->traffic.delivered[flow][seq] > 1) + !!c->looped[flow][seq];
		}
	}
	if (tse_kstats_read(t, now))
		return done;
	gone = now[TSE_IFB].dropped - t->stats.before[TSE_IFB].dropped +
	       now[TSE_IFB].root_drops - t->stats.before[TSE_IFB].root_drops;
	if (t->net.ifindex[TSE_IFB_IN])
		gone += now[TSE_IFB_IN].dropped - t->stats.before[TSE_IFB_IN].dropped;
	gone += sent_back(t, now, TSE_RA) + sent_back(t, now, TSE_VI);
	gone += now[TSE_VA].gone.pkts - t->stats.before[TSE_VA].gone.pkts;
	if (t->net.hook_drops)
		gone += now[TSE_VA].clsact_drops - t->stats.before[TSE_VA].clsact_drops;
	if (t->s->copies)
		return done < copies + gone ? done : copies + gone;
	return done + gone;
}

static void wait_outcomes(struct tse_test *t)
{
	long long deadline = tse_now_ms() + TSE_WAIT_MS;

	while (tse_outcomes(t) < packets_sent(t) && tse_now_ms() < deadline)
		receive_for(t, 10, deadline);
	receive_for(t, 0, deadline);
}

/*
 * A sent datagram charges its socket until the kernel frees it, or a veth
 * into another namespace orphans it: once every datagram has its outcome,
 * the socket holds nothing. What it still holds was never freed.
 */
static int unfreed(struct tse_test *t)
{
	int flow, n, sum = 0;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		t->traffic.unfreed[flow] = 0;
		if (t->traffic.sends[flow] &&
		    !ioctl(t->traffic.tx_sock[flow], SIOCOUTQ, &n))
			t->traffic.unfreed[flow] = n;
		sum += t->traffic.unfreed[flow];
	}
	return sum;
}

static void wait_freed(struct tse_test *t)
{
	long long deadline = tse_now_ms() + TSE_WAIT_MS;

	while (unfreed(t) && tse_now_ms() < deadline)
		receive_for(t, 10, deadline);
}

/* Sent after the outcomes: a late duplicate arrives before the fence, and is counted. */
static int wait_fence(struct tse_test *t)
{
	struct tse_payload fence;
	long long deadline;

	if (!packets_delivered(t))
		return 0;
	fill_payloads(&fence, 1, TSE_FENCE_MAGIC);
	if (send_or_drop(t, t->traffic.tx_sock[TSE_FLOW_REDIRECTED], &fence, sizeof(fence)))
		return -1;
	deadline = tse_now_ms() + TSE_FENCE_MS;
	while (!t->traffic.fences && tse_now_ms() < deadline)
		receive_for(t, 10, deadline);
	return 0;
}

/* net.core.message_cost: the seconds of each net_ratelimit() window, plus one. */
static long long ratelimit_window_ms(void)
{
	FILE *f = fopen("/proc/sys/net/core/message_cost", "r");
	int cost = 5;

	if (f) {
		if (fscanf(f, "%d", &cost) != 1)
			cost = 5;
		fclose(f);
	}
	return (cost + 1) * 1000LL;
}

/*
 * net_ratelimit()'s budget is the whole kernel's: where others spent it, the kernel logs
 * nothing until its window ends. One more datagram, past the judged sequence numbers, loops
 * to the limit each 100 ms until the test's process logs the line, for one window at most.
 */
static int wait_xmit_limit_logged(struct tse_test *t)
{
	struct tse_payload p[TSE_MAX_PKTS];
	long long deadline = tse_now_ms() + ratelimit_window_ms();
	const __u32 *logged = &t->net.skel->bss->counters.xmit_limit_msgs;

	/* Nothing to log where the kernel did not stop the first packet. */
	if (!t->net.console_link || !stopped_at_xmit_limit(t, TSE_FLOW_REDIRECTED, 0) ||
	    t->pkts >= TSE_MAX_PKTS)
		return 0;
	fill_payloads(p, t->pkts + 1, TSE_MAGIC);
	while (!*logged && tse_now_ms() < deadline) {
		if (send_or_drop(t, t->traffic.tx_sock[TSE_FLOW_REDIRECTED], &p[t->pkts],
				 sizeof(p[0])))
			return -1;
		receive_for(t, 100, deadline);
	}
	return 0;
}

/* The first two CPUs in @cpus. */
static void first_two_cpus(const cpu_set_t *cpus, int cpu[2])
{
	int i, n = 0;

	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, cpus))
			cpu[n++] = i;
}

static int pin_to_cpu(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

/* The child: va2's flow from @cpu once the parent writes to @go. Returns 0 or an errno. */
static int send_second_from(struct tse_test *t, int cpu, int go)
{
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin_to_cpu(cpu) || read(go, &c, 1) != 1)
		return errno ?: EPIPE;
	return send_flow(t, TSE_FLOW_SECOND) ? errno ?: EIO : 0;
}

/* The child's exit: 0, or its errno; a child that hangs is killed at the deadline. */
static int wait_second(struct tse_test *t, pid_t pid, int cpu)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0), status = 0, ready = 0;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	if (pidfd >= 0) {
		ready = poll(&pfd, 1, TSE_WAIT_MS);
		close(pidfd);
	}
	if (ready <= 0)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (ready <= 0)
		return tse_setup_error(t, "va2's flow from CPU %d: its sender %s in %d ms", cpu,
				       pidfd < 0 ? "could not be watched, killed" : "did not end",
				       TSE_WAIT_MS);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return tse_setup_error(t, "va2's flow from CPU %d: %s", cpu,
				       WIFEXITED(status) ? strerror(WEXITSTATUS(status)) :
				       "its sender was killed");
	return 0;
}

/*
 * va's flow from one CPU and va2's from another, at once. ifb_xmit() on one CPU then now and
 * then holds ifb's queue lock while ifb's tasklet on the other tries it (ifb_ri_tasklet()).
 * A child sends va2's flow; a byte down a pipe starts both.
 */
static int send_from_two_cpus(struct tse_test *t)
{
	int cpu[2], go[2], err;
	cpu_set_t all;
	pid_t pid;

	if (sched_getaffinity(0, sizeof(all), &all) || pipe2(go, O_CLOEXEC))
		return tse_setup_error(t, "two senders: %s", strerror(errno));
	first_two_cpus(&all, cpu);
	fflush(NULL);
	pid = fork();
	if (!pid)
		_exit(send_second_from(t, cpu[1], go[0]));
	close(go[0]);
	if (pid < 0) {
		close(go[1]);
		return tse_setup_error(t, "fork va2's sender: %s", strerror(errno));
	}
	err = pin_to_cpu(cpu[0]) ? tse_setup_error(t, "pin va's sender to CPU %d: %s", cpu[0],
						   strerror(errno)) : 0;
	if (!err && write(go[1], "", 1) != 1)
		err = tse_setup_error(t, "start va2's sender: %s", strerror(errno));
	close(go[1]);
	err = err ?: send_flow(t, TSE_FLOW_REDIRECTED);
	err = wait_second(t, pid, cpu[1]) ?: err;
	if (sched_setaffinity(0, sizeof(all), &all))
		err = tse_setup_error(t, "unpin the test: %s", strerror(errno));
	return err;
}

static int send_flows(struct tse_test *t)
{
	int flow;

	if (t->s->shape.two_cpus)
		return send_from_two_cpus(t);
	if (t->s->interlude)
		return send_datagrams(t, TSE_FLOW_SECOND) ?: t->s->interlude(t) ?:
		       send_datagrams(t, TSE_FLOW_REDIRECTED);
	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (t->traffic.sends[flow] && send_datagrams(t, flow))
			return -1;
	}
	return 0;
}

static int run_datagrams(struct tse_test *t)
{
	if (send_flows(t))
		return -1;
	wait_outcomes(t);
	if (wait_fence(t) || wait_xmit_limit_logged(t))
		return -1;
	wait_freed(t);
	/* The fence went out of va after every test packet, and arrived. */
	if (t->traffic.tap_sock >= 0)
		tap_drain(t);
	return 0;
}

/* Byte @off of the stream: a pattern that shows loss, reordering, damage. */
static unsigned char stream_byte(long long off)
{
	return (off ^ (off >> 8) ^ (off >> 16)) & 0xff;
}

struct tse_tcp {
	int tx, rx;		/* sender's socket; receiver's accepted one */
	long long sent;
	bool closed;
};

static void stream_send(struct tse_test *t, struct tse_tcp *c)
{
	unsigned char buf[16384];
	ssize_t n;
	int i;

	while (c->sent < TSE_STREAM_BYTES) {
		n = TSE_STREAM_BYTES - c->sent;
		if (n > (ssize_t)sizeof(buf))
			n = sizeof(buf);
		for (i = 0; i < n; i++)
			buf[i] = stream_byte(c->sent + i);
		n = send(c->tx, buf, n, MSG_NOSIGNAL);
		if (n <= 0)
			return;
		c->sent += n;
	}
	if (!c->closed && !shutdown(c->tx, SHUT_WR))
		c->closed = true;
}

static void stream_receive(struct tse_test *t, struct tse_tcp *c)
{
	struct tse_stream *st = &t->traffic.stream;
	unsigned char buf[16384];
	ssize_t n, i;

	if (c->rx < 0)
		c->rx = accept4(t->traffic.rx_sock[0], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (c->rx < 0)
		return;
	while ((n = recv(c->rx, buf, sizeof(buf), 0)) > 0) {
		for (i = 0; i < n && st->first_bad < 0; i++)
			if (buf[i] != stream_byte(st->received + i))
				st->first_bad = st->received + i;
		st->received += n;
	}
	if (n == 0)
		st->done = true;
}

/* A D-SACK proves a retransmission spurious: wait until all is acked, at most TSE_FENCE_MS. */
static void stream_retrans(struct tse_test *t, int fd)
{
	long long deadline = tse_now_ms() + TSE_FENCE_MS;
	struct tcp_info ti;
	socklen_t len;

	do {
		len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
			return;
		if (!ti.tcpi_unacked)
			break;
		poll(NULL, 0, 10);
	} while (tse_now_ms() < deadline);
	t->traffic.stream.retrans = ti.tcpi_total_retrans;
	t->traffic.stream.spurious = ti.tcpi_dsack_dups;
}

static int run_stream(struct tse_test *t)
{
	struct tse_tcp c = { .rx = -1 };
	long long deadline = tse_now_ms() + TSE_STREAM_MS;
	struct pollfd pfd[2];

	/* The interlude sits between two datagram flows; a stream has one. */
	if (t->s->interlude)
		return tse_setup_error(t, "an interlude needs datagram traffic, not a TCP stream");
	t->traffic.stream.first_bad = -1;
	c.tx = tse_socket(t, TSE_NS_SENDER, SOCK_STREAM, TSE_TCP_PORT);
	t->traffic.tx_sock[0] = c.tx;
	if (c.tx < 0)
		return tse_setup_error(t, "TCP connect: %s", strerror(errno));
	while (!t->traffic.stream.done && tse_now_ms() < deadline) {
		pfd[0] = (struct pollfd){ .fd = c.tx, .events = POLLOUT };
		pfd[1] = (struct pollfd){ .fd = c.rx >= 0 ? c.rx : t->traffic.rx_sock[0],
					  .events = POLLIN };
		poll(pfd, 2, 10);
		stream_send(t, &c);
		stream_receive(t, &c);
	}
	stream_retrans(t, c.tx);
	if (c.rx >= 0)
		close(c.rx);
	return 0;
}

/* BPF is read first before and last after: its window holds the kernel counters'. */
int tse_traffic_run(struct tse_test *t)
{
	struct tse_counters *bpf = &t->net.skel->bss->counters;

	memcpy(t->stats.other_before, bpf->other, sizeof(t->stats.other_before));
	memcpy(t->stats.fence_before, bpf->fence, sizeof(t->stats.fence_before));
	if (tse_kstats_read(t, t->stats.before))
		return -1;
	if (t->s->traffic == TSE_TCP_STREAM ? run_stream(t) : run_datagrams(t))
		return -1;
	return tse_kstats_read(t, t->stats.after);
}
