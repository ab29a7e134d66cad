// SPDX-License-Identifier: GPL-2.0
/*
 * Topology: two network namespaces joined by a veth pair, and an ifb in the
 * namespace whose tc hook redirects to it.
 *
 *    sender netns                      receiver netns
 *    va 192.0.2.1, 2001:db8::1  <--->  vb 192.0.2.2, 2001:db8::2
 *    ifb_tse (egress scenarios)        ifb_tse (ingress scenarios)
 *
 * The namespaces have no name: only file descriptors hold them, so they go
 * away with the test process however it ends (return, assertion, signal, or
 * the harness's timeout kill), and runs in parallel cannot collide.
 *
 * The links are silent: no ARP (arp off, permanent neighbours), no IPv6
 * link-local address, DAD, ND or MLD. Kernel counters on them then move
 * only with test packets.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
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
#include <linux/netlink.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tse_internal.h"

#define IFB_NAME	"ifb_tse"

static const char *const dev_name[TSE_SIDES] = { "va", "vb" };
static const char *const mac[TSE_SIDES] = { "02:00:00:00:0e:01",
					    "02:00:00:00:0e:02" };
static const char *const addr4[TSE_SIDES] = { "192.0.2.1", "192.0.2.2" };
static const char *const addr6[TSE_SIDES] = { "2001:db8::1", "2001:db8::2" };

const char *tse_dev(enum tse_side side)
{
	return dev_name[side];
}

const char *tse_addr(struct tse_test *t, enum tse_side side)
{
	return t->family == TSE_V6 ? addr6[side] : addr4[side];
}

/* A test that cannot run says why: SKIP for a missing feature, else FAIL. */
static int set_reason(struct tse_test *t, enum tse_status status,
		      const char *fmt, va_list ap)
{
	char *buf = t->res->reason;
	int len = sizeof(t->res->reason);

	if (vsnprintf(buf, len, fmt, ap) >= len)
		buf[len - 1] = '\0';
	t->res->status = status;
	if (status == TSE_FAIL)
		t->res->diagnosis = "setup";
	return -1;
}

int tse_skip(struct tse_test *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_reason(t, TSE_SKIP, fmt, ap);
	va_end(ap);
	return -1;
}

int tse_setup_error(struct tse_test *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_reason(t, TSE_FAIL, fmt, ap);
	va_end(ap);
	return -1;
}

int tse_enter(struct tse_test *t, enum tse_side side)
{
	return setns(t->ns[side], CLONE_NEWNET);
}

void tse_leave(struct tse_test *t)
{
	if (setns(t->self_ns, CLONE_NEWNET))
		abort();	/* every later step would run in the wrong netns */
}

/* A namespace that only the returned descriptor holds. */
static int tse_netns_new(struct tse_test *t)
{
	int fd;

	if (unshare(CLONE_NEWNET))
		return -1;
	fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	tse_leave(t);
	return fd;
}

/* What iproute2 and the kernel say when a feature is not built in. */
static bool missing_feature(const char *err)
{
	static const char *const signs[] = {
		"Unknown device type", "unknown qdisc", "Unknown qdisc",
		"Unknown filter", "Unknown action", "not supported",
		"Not supported", "kind is unknown", "No such file",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(signs); i++)
		if (strstr(err, signs[i]))
			return true;
	return false;
}

static void run_in_netns(int nsfd, int errfd, const char *cmd)
{
	int null = open("/dev/null", O_RDWR);

	if (setns(nsfd, CLONE_NEWNET) || null < 0)
		_exit(127);
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	execl("/bin/sh", "sh", "-ec", cmd, (char *)NULL);
	_exit(127);
}

void tse_chomp(char *s)
{
	char *nl = strchr(s, '\n');

	if (nl)
		*nl = '\0';
}

/*
 * Run a shell command in one of the test's namespaces. A failure that says
 * a feature is missing makes the test skip; any other fails its setup.
 */
int tse_cmd(struct tse_test *t, enum tse_side side, const char *fmt, ...)
{
	char cmd[4096], err[512] = "";
	int pipefd[2], status, n;
	va_list ap;
	pid_t pid;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(cmd))
		return tse_setup_error(t, "command too long: %.64s", cmd);
	if (pipe2(pipefd, O_CLOEXEC))
		return tse_setup_error(t, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0)
		run_in_netns(t->ns[side], pipefd[1], cmd);
	close(pipefd[1]);
	n = read(pipefd[0], err, sizeof(err) - 1);
	err[n > 0 ? n : 0] = '\0';
	tse_chomp(err);
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return tse_setup_error(t, "fork: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (missing_feature(err))
		return tse_skip(t, "kernel or iproute2 lacks a feature: '%s': %s",
				cmd, err);
	return tse_setup_error(t, "'%s' failed: %s", cmd, err);
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

/* New devices get no IPv6 link-local address: no DAD, RS or MLD from them. */
static void quiet_ipv6(struct tse_test *t, enum tse_side side)
{
	if (tse_enter(t, side))
		return;
	write_file("/proc/sys/net/ipv6/conf/default/addr_gen_mode", "1");
	tse_leave(t);
}

static int create_namespaces(struct tse_test *t)
{
	int side;

	for (side = 0; side < TSE_SIDES; side++) {
		t->ns[side] = tse_netns_new(t);
		if (t->ns[side] < 0)
			return tse_setup_error(t, "new netns: %s", strerror(errno));
		quiet_ipv6(t, side);
	}
	return 0;
}

static int create_veth(struct tse_test *t)
{
	const char *prefix = t->family == TSE_V6 ? "64" : "24";
	int side;

	if (tse_cmd(t, TSE_SENDER,
		    "ip link add va address %s type veth peer name vb address %s netns /proc/%d/fd/%d",
		    mac[TSE_SENDER], mac[TSE_RECEIVER], getpid(),
		    t->ns[TSE_RECEIVER]))
		return -1;
	for (side = 0; side < TSE_SIDES; side++) {
		if (tse_cmd(t, side,
			    "ip link set %s arp off\n"
			    "ip addr add %s/%s dev %s nodad\n"
			    "ip neigh replace %s lladdr %s dev %s nud permanent\n"
			    "ip link set %s up\n"
			    "tc qdisc add dev %s clsact",
			    dev_name[side], tse_addr(t, side), prefix,
			    dev_name[side], tse_addr(t, !side), mac[!side],
			    dev_name[side], dev_name[side], dev_name[side]))
			return -1;
	}
	return 0;
}

static int create_ifb(struct tse_test *t)
{
	return tse_cmd(t, t->ifb_side,
		       "ip link add " IFB_NAME " type ifb\n"
		       "ip link set " IFB_NAME " arp off up\n"
		       "tc qdisc add dev " IFB_NAME " clsact");
}

static int open_netlink(struct tse_test *t)
{
	int side;

	for (side = 0; side < TSE_SIDES; side++) {
		if (tse_enter(t, side))
			return tse_setup_error(t, "setns: %s", strerror(errno));
		t->nl[side] = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				     NETLINK_ROUTE);
		t->ifindex[side] = if_nametoindex(dev_name[side]);
		if (side == t->ifb_side)
			t->ifb_ifindex = if_nametoindex(IFB_NAME);
		tse_leave(t);
		if (t->nl[side] < 0 || !t->ifindex[side])
			return tse_setup_error(t, "netlink or ifindex: %s",
					       strerror(errno));
	}
	return t->ifb_ifindex ? 0 : tse_setup_error(t, "no ifindex for ifb");
}

static int load_bpf(struct tse_test *t)
{
	struct tse_config *cfg;

	t->skel = test_tc_redirect_ifb__open();
	if (!t->skel)
		return tse_setup_error(t, "open BPF skeleton: %s", strerror(errno));
	cfg = &t->skel->bss->cfg;
	cfg->ifb_ifindex = t->ifb_ifindex;
	cfg->loop_limit = TSE_LOOP_LIMIT;
	cfg->port[TSE_FLOW_REDIRECTED] = TSE_PORT;
	cfg->port[TSE_FLOW_UNRELATED] = TSE_PORT + 1;
	if (test_tc_redirect_ifb__load(t->skel))
		return tse_setup_error(t, "load BPF programs: %s", strerror(errno));
	return 0;
}

int tse_attach_cls_bpf(struct tse_test *t, enum tse_side side, int ifindex,
		       bool egress, struct bpf_program *prog, int prio)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = 1, .priority = prio,
		    .prog_fd = bpf_program__fd(prog));
	int err;

	if (tse_enter(t, side))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	err = bpf_tc_attach(&hook, &opts);
	tse_leave(t);
	if (err == -EOPNOTSUPP || err == -ENOENT)
		return tse_skip(t, "kernel lacks clsact or cls_bpf: %s",
				strerror(-err));
	if (err)
		return tse_setup_error(t, "attach %s: %s",
				       bpf_program__name(prog), strerror(-err));
	return 0;
}

int tse_attach_tcx(struct tse_test *t, enum tse_side side,
		   struct bpf_program *prog)
{
	int err = 0;

	if (tse_enter(t, side))
		return tse_setup_error(t, "setns: %s", strerror(errno));
	t->tcx_link = bpf_program__attach_tcx(prog, t->ifindex[side], NULL);
	if (!t->tcx_link)
		err = -errno;
	tse_leave(t);
	if (err == -EINVAL || err == -EOPNOTSUPP)
		return tse_skip(t, "kernel has no tcx links: %s", strerror(-err));
	if (err)
		return tse_setup_error(t, "attach tcx: %s", strerror(-err));
	return 0;
}

/* Attach the loop breaker that counts every entry into ifb. */
static int attach_ifb_gate(struct tse_test *t)
{
	return tse_attach_cls_bpf(t, t->ifb_side, t->ifb_ifindex, true,
				  t->skel->progs.tse_ifb_gate, 1);
}

/* A u32 filter that sends the redirected flow, and only it, to ifb. */
int tse_mirred_filter(struct tse_test *t, enum tse_side side,
		      const char *parent, int prio, int port)
{
	bool v6 = t->family == TSE_V6;

	return tse_cmd(t, side,
		       "tc filter add dev %s %s prio %d protocol %s u32 match %s protocol 17 0xff match %s dport %d 0xffff action mirred egress redirect dev " IFB_NAME,
		       dev_name[side], parent, prio, v6 ? "ipv6" : "ip",
		       v6 ? "ip6" : "ip", v6 ? "ip6" : "ip", port);
}

int tse_topology_create(struct tse_test *t)
{
	t->self_ns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (t->self_ns < 0)
		return tse_setup_error(t, "own netns: %s", strerror(errno));
	if (create_namespaces(t) || create_veth(t) || create_ifb(t) ||
	    open_netlink(t) || load_bpf(t) || attach_ifb_gate(t))
		return -1;
	return 0;
}

void tse_topology_destroy(struct tse_test *t)
{
	int side;

	bpf_link__destroy(t->tcx_link);
	test_tc_redirect_ifb__destroy(t->skel);
	for (side = 0; side < TSE_SIDES; side++) {
		if (t->nl[side] >= 0)
			close(t->nl[side]);
		if (t->ns[side] >= 0)
			close(t->ns[side]);
	}
	if (t->self_ns >= 0)
		close(t->self_ns);
}
