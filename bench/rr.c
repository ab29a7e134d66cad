// SPDX-License-Identifier: GPL-2.0
/*
 * A TCP request/response load generator, like netperf's TCP_RR: one
 * connection, 32-byte requests, 32-byte responses, one in flight.
 *
 *   rr -s PORT                 serve one connection, echo every request
 *   rr -c ADDR PORT SECONDS    run for SECONDS, print transactions per second
 *   rr -n ADDR PORT COUNT      run COUNT transactions, print the time taken
 *
 * IPv4 only: the benchmark's flows are IPv4.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE 32

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Move exactly MSG_SIZE bytes; 0 on success, -1 when the peer is gone. */
static int xfer(int fd, char *buf, int out)
{
	size_t done = 0;
	ssize_t n;

	while (done < MSG_SIZE) {
		if (out)
			n = write(fd, buf + done, MSG_SIZE - done);
		else
			n = read(fd, buf + done, MSG_SIZE - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static void set_nodelay(int fd)
{
	int one = 1;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("TCP_NODELAY");
}

static int serve(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char buf[MSG_SIZE];
	int fd, conn, one = 1;

	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
		die("bind/listen");
	/* The caller waits for this line before it starts the client. */
	printf("listening %d\n", port);
	fflush(stdout);
	conn = accept(fd, NULL, NULL);
	if (conn < 0)
		die("accept");
	set_nodelay(conn);
	while (xfer(conn, buf, 0) == 0 && xfer(conn, buf, 1) == 0)
		;
	close(conn);
	close(fd);
	return 0;
}

static int client(const char *addr, int port, double seconds, long count)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char buf[MSG_SIZE] = "rr";
	double start, end;
	long n = 0;
	int fd;

	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "rr: bad address %s\n", addr);
		return 2;
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	set_nodelay(fd);
	start = now();
	end = start + seconds;
	/* Check the clock every 64 transactions: a read costs a syscall. */
	while (count ? n < count : ((n & 63) || now() < end)) {
		if (xfer(fd, buf, 1) || xfer(fd, buf, 0)) {
			fprintf(stderr, "rr: connection lost after %ld\n", n);
			return 1;
		}
		n++;
	}
	end = now();
	close(fd);
	printf("transactions %ld seconds %.3f tps %.1f\n", n, end - start,
	       n / (end - start));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return serve(atoi(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "-c"))
		return client(argv[2], atoi(argv[3]), atof(argv[4]), 0);
	if (argc == 5 && !strcmp(argv[1], "-n"))
		return client(argv[2], atoi(argv[3]), 0, atol(argv[4]));
	fprintf(stderr,
		"usage: rr -s PORT | rr -c ADDR PORT SECONDS | rr -n ADDR PORT COUNT\n");
	return 2;
}
