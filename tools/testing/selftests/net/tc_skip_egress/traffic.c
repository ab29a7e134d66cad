// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic: TSE_PKTS UDP datagrams per flow from the sender to the receiver,
 * each carrying a magic and a sequence number so that every oracle counts
 * test packets one by one. The redirected flow goes to TSE_PORT, the
 * unrelated flow to TSE_PORT + 1.
 *
 * There is no sleep: after sending, wait until every packet has an outcome
 * (delivered, stopped by the loop breaker, or dropped by ifb), or until
 * TSE_WAIT_MS have passed for a packet that vanished.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tse_internal.h"

static socklen_t sockaddr_of(struct tse_test *t, enum tse_side side, int port,
			     struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (t->family == TSE_V6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		inet_pton(AF_INET6, tse_addr(t, side), &sin6->sin6_addr);
		return sizeof(*sin6);
	}
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	inet_pton(AF_INET, tse_addr(t, side), &sin->sin_addr);
	return sizeof(*sin);
}

/* A UDP socket in @side's namespace, bound (receiver) or connected (sender). */
static int udp_socket(struct tse_test *t, enum tse_side side, int port)
{
	int domain = t->family == TSE_V6 ? AF_INET6 : AF_INET;
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, err;

	if (tse_enter(t, side))
		return -1;
	fd = socket(domain, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	tse_leave(t);
	if (fd < 0)
		return -1;
	len = sockaddr_of(t, TSE_RECEIVER, port, &ss);
	if (side == TSE_RECEIVER)
		err = bind(fd, (struct sockaddr *)&ss, len);
	else
		err = connect(fd, (struct sockaddr *)&ss, len);
	if (err) {
		close(fd);
		return -1;
	}
	return fd;
}

int tse_traffic_open(struct tse_test *t)
{
	int flow;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (!t->sends[flow])
			continue;
		t->rx_sock[flow] = udp_socket(t, TSE_RECEIVER, TSE_PORT + flow);
		t->tx_sock[flow] = udp_socket(t, TSE_SENDER, TSE_PORT + flow);
		if (t->rx_sock[flow] < 0 || t->tx_sock[flow] < 0)
			return tse_setup_error(t, "UDP sockets: %s",
					       strerror(errno));
	}
	return 0;
}

void tse_traffic_close(struct tse_test *t)
{
	int flow;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (t->tx_sock[flow] >= 0)
			close(t->tx_sock[flow]);
		if (t->rx_sock[flow] >= 0)
			close(t->rx_sock[flow]);
	}
}

static int send_flow(struct tse_test *t, enum tse_flow flow)
{
	struct tse_payload p = { .magic = htonl(TSE_MAGIC) };
	int seq;

	for (seq = 0; seq < TSE_PKTS; seq++) {
		p.seq = htonl(seq);
		/* A drop on the way out is an outcome the oracles judge. */
		if (send(t->tx_sock[flow], &p, sizeof(p), 0) < 0 &&
		    errno != ENOBUFS)
			return tse_setup_error(t, "send: %s", strerror(errno));
	}
	return 0;
}

static void drain(struct tse_test *t, enum tse_flow flow)
{
	struct tse_payload p;
	__u32 seq;

	while (recv(t->rx_sock[flow], &p, sizeof(p), 0) == sizeof(p)) {
		seq = ntohl(p.seq);
		if (p.magic == htonl(TSE_MAGIC) && seq < TSE_MAX_PKTS)
			t->delivered[flow][seq]++;
	}
}

static void receive_for(struct tse_test *t, int ms)
{
	struct pollfd pfd[TSE_FLOWS];
	int flow, n = 0;

	for (flow = 0; flow < TSE_FLOWS; flow++) {
		if (!t->sends[flow])
			continue;
		pfd[n].fd = t->rx_sock[flow];
		pfd[n++].events = POLLIN;
	}
	poll(pfd, n, ms);
	for (flow = 0; flow < TSE_FLOWS; flow++)
		if (t->sends[flow])
			drain(t, flow);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static unsigned int packets_sent(struct tse_test *t)
{
	return TSE_PKTS * (t->sends[TSE_FLOW_REDIRECTED] +
			   t->sends[TSE_FLOW_UNRELATED]);
}

/* Send every flow, then wait until each packet has an outcome. */
int tse_traffic_run(struct tse_test *t)
{
	long long deadline;
	int flow;

	if (tse_kstats_read(t, &t->before))
		return -1;
	for (flow = 0; flow < TSE_FLOWS; flow++)
		if (t->sends[flow] && send_flow(t, flow))
			return -1;
	deadline = now_ms() + TSE_WAIT_MS;
	while (tse_outcomes(t) < packets_sent(t) && now_ms() < deadline)
		receive_for(t, 10);
	receive_for(t, 0);
	return tse_kstats_read(t, &t->after);
}
