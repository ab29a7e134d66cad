// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's load generator, the seed's two netperf tests, IPv4 only
 * (docs/benchmark.md, "Shapes and workloads").
 *
 *   rr -s PORT                 TCP_RR server: echo every 32-byte request
 *   rr -c ADDR PORT SECONDS    TCP_RR for SECONDS, print transactions/s
 *   rr -n ADDR PORT COUNT      COUNT transactions, print the time taken
 *   rr -S PORT                 TCP_STREAM sink, reads 128 KiB at a time
 *   rr -t ADDR PORT SECONDS    send 32 bytes a write() for SECONDS, print
 *                              the bytes the sink got and Mbit/s
 *   rr -b ADDR PORT BYTES      the same for BYTES bytes
 *   rr -T ..., rr -B ...       -t and -b with TCP_NODELAY (netperf -D)
 *
 * No control connection, no timers, no reports while the clock runs: under
 * qemu's instruction counting the figures are a function of the kernel's
 * code. A client also prints its CPU time over the timed run and the
 * device interrupts taken meanwhile; a server or sink prints its CPU time
 * over the connection, on a line of its own, when it ends.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <linux/types.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE 32
#define SINK_BUF (128 * 1024)

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

/* CPU time of this process so far, in ns, softirq work in its context in. */
static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Interrupts taken so far by the devices whose /proc/interrupts lines name
 * NAME (one CPU: the first count); -1 if the file cannot be read. "virtio"
 * is the VM's 9p root, "ttyS" the console and output ports, draining what
 * was printed before the run.
 */
static long long device_irqs(const char *name)
{
	FILE *f = fopen("/proc/interrupts", "r");
	long long total = 0, n;
	char line[512], *p;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (p = line; *p == ' '; p++)
			;
		if (!isdigit((unsigned char)*p) || !strstr(line, name))
			continue;
		p = strchr(p, ':');
		if (p && sscanf(p + 1, "%lld", &n) == 1)
			total += n;
	}
	fclose(f);
	return total;
}

/* Where the time of a timed run went besides this process. */
struct run_cost {
	long long cpu, virtio, serial;
};

static void cost_start(struct run_cost *c)
{
	c->virtio = device_irqs("virtio");
	c->serial = device_irqs("ttyS");
	c->cpu = cpu_ns();
}

static void cost_end(struct run_cost *c)
{
	c->cpu = cpu_ns() - c->cpu;
	c->virtio = device_irqs("virtio") - c->virtio;
	c->serial = device_irqs("ttyS") - c->serial;
}

static void print_cost(const struct run_cost *c)
{
	printf(" cpu_ns %lld virtio %lld serial %lld\n", c->cpu, c->virtio,
	       c->serial);
}

/* The server's and the sink's last line: CPU time since START. */
static void print_cpu(long long start)
{
	printf("cpu_ns %lld\n", cpu_ns() - start);
	fflush(stdout);
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

/* Listen on PORT, say so, and return the one connection accepted. */
static int accept_one(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
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
	close(fd);
	return conn;
}

static int serve(int port)
{
	char buf[MSG_SIZE];
	long long cpu0;
	int conn;

	conn = accept_one(port);
	cpu0 = cpu_ns();
	set_nodelay(conn);
	while (xfer(conn, buf, 0) == 0 && xfer(conn, buf, 1) == 0)
		;
	close(conn);
	print_cpu(cpu0);
	return 0;
}

/*
 * Read until the sender shuts down, then tell it how much arrived (8
 * bytes, network order). Exit
 * only once the sender has closed too: the sender's clock stops when the
 * count arrives, and nothing of this process's exit (on the VM's 9p root,
 * requests to the host for its files) must fall before that.
 */
static int sink(int port)
{
	static char buf[SINK_BUF];
	unsigned long long total = 0;
	__u32 word[2];
	long long cpu0;
	ssize_t n;
	int conn;

	conn = accept_one(port);
	cpu0 = cpu_ns();
	for (;;) {
		n = read(conn, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read of the stream");
		if (n == 0)
			break;
		total += n;
	}
	word[0] = htonl(total >> 32);
	word[1] = htonl(total & 0xffffffffu);
	if (write(conn, word, sizeof(word)) != sizeof(word))
		die("write of the byte count");
	while ((n = read(conn, buf, sizeof(buf))) != 0)
		if (n < 0 && errno != EINTR)
			die("wait for the sender's close");
	close(conn);
	print_cpu(cpu0);
	return 0;
}

static int connect_to(const char *addr, int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd;

	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "rr: bad address %s\n", addr);
		exit(2);
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	return fd;
}

/*
 * Send 32-byte writes for SECONDS, or BYTES bytes, then shut down the
 * sending side and wait for the sink's count: the time runs until every
 * byte has arrived, as netperf's does.
 */
static int stream(const char *addr, int port, double seconds,
		  unsigned long long bytes, int nodelay)
{
	char buf[MSG_SIZE] = "payload";
	unsigned long long sent = 0, got;
	struct run_cost cost;
	__u32 word[2];
	double start, end;
	size_t have = 0;
	ssize_t n;
	int fd;

	fd = connect_to(addr, port);
	if (nodelay)
		set_nodelay(fd);
	cost_start(&cost);
	start = now();
	end = start + seconds;
	/* Check the clock every 64 sends: a read costs a syscall. */
	while (bytes ? sent < bytes : ((sent & (64 * MSG_SIZE - 1)) || now() < end)) {
		n = write(fd, buf, MSG_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != MSG_SIZE) {
			fprintf(stderr, "rr: a 32-byte write returned %zd after %llu bytes\n",
				n, sent);
			return 1;
		}
		sent += n;
	}
	if (shutdown(fd, SHUT_WR))
		die("shutdown");
	while (have < sizeof(word)) {
		n = read(fd, (char *)word + have, sizeof(word) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "rr: no byte count from the sink\n");
			return 1;
		}
		have += n;
	}
	end = now();
	cost_end(&cost);
	close(fd);
	got = (unsigned long long)ntohl(word[0]) << 32 | ntohl(word[1]);
	if (got != sent) {
		fprintf(stderr, "rr: sent %llu bytes, the sink got %llu\n", sent, got);
		return 1;
	}
	printf("bytes %llu seconds %.6f mbps %.2f", got, end - start,
	       got * 8 / (end - start) / 1e6);
	print_cost(&cost);
	return 0;
}

static int client(const char *addr, int port, double seconds, long count)
{
	char buf[MSG_SIZE] = "rr";
	struct run_cost cost;
	double start, end;
	long n = 0;
	int fd;

	fd = connect_to(addr, port);
	set_nodelay(fd);
	cost_start(&cost);
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
	cost_end(&cost);
	close(fd);
	printf("transactions %ld seconds %.6f tps %.1f", n, end - start,
	       n / (end - start));
	print_cost(&cost);
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
	if (argc == 3 && !strcmp(argv[1], "-S"))
		return sink(atoi(argv[2]));
	if (argc == 5 && (!strcmp(argv[1], "-t") || !strcmp(argv[1], "-T")))
		return stream(argv[2], atoi(argv[3]), atof(argv[4]), 0,
			      argv[1][1] == 'T');
	if (argc == 5 && (!strcmp(argv[1], "-b") || !strcmp(argv[1], "-B")))
		return stream(argv[2], atoi(argv[3]), 0, strtoull(argv[4], NULL, 0),
			      argv[1][1] == 'B');
	fprintf(stderr,
		"usage: rr -s PORT | rr -c ADDR PORT SECONDS | rr -n ADDR PORT COUNT\n"
		"       rr -S PORT | rr -t|-T ADDR PORT SECONDS | rr -b|-B ADDR PORT BYTES\n");
	return 2;
}
