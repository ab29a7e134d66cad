// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios: for each test, which hooks redirect to ifb and which count,
 * and what a correct kernel does with every test packet. The topology,
 * traffic and oracles they use are in topology.c, traffic.c and oracles.c.
 *
 * A correct kernel classifies a packet once per hook, even when ifb
 * re-injects it: ifb marks it tc_skip_classify, and the next hook it meets
 * must skip classification and clear the mark. Ingress always did; egress
 * does not without "net: sched: add check tc_skip_classify in sch egress".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tse_internal.h"

struct tse_scenario {
	enum tse_side side;	/* the redirecting hook's and the ifb's netns */
	bool unrelated;		/* also send a flow that is not redirected */
	int (*setup)(struct tse_test *t);
	void (*judge)(struct tse_test *t);
};

static int count_at(struct tse_test *t, enum tse_side side, bool egress,
		    struct bpf_program *prog, int prio)
{
	return tse_attach_cls_bpf(t, side, t->ifindex[side], egress, prog, prio);
}

/* Whatever else a scenario checks, its redirected packets must get through. */
static void judge_redirect_outcome(struct tse_test *t)
{
	tse_expect_no_loop(t, TSE_FLOW_REDIRECTED);
	tse_expect_ifb_kept(t);
	tse_expect_ifb_once(t);
}

static void judge_delivery(struct tse_test *t)
{
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
}

/*
 * The hook under test is va's egress in the sender's namespace, or vb's
 * ingress in the receiver's: the side the scenario puts its ifb on.
 */
static bool at_egress(struct tse_test *t)
{
	return t->ifb_side == TSE_SENDER;
}

static int count_head(struct tse_test *t)
{
	return count_at(t, t->ifb_side, at_egress(t),
			t->skel->progs.tse_count_head, 1);
}

/* 1, 4. A counter first on the clsact hook, then u32 + mirred to ifb. */
static int setup_mirred(struct tse_test *t)
{
	return count_head(t) ?:
	       tse_mirred_filter(t, t->ifb_side,
				 at_egress(t) ? "egress" : "ingress", 2,
				 TSE_PORT);
}

/* The hook ran @hook's program once per packet; clsact counted it once. */
static void judge_classified_once(struct tse_test *t, enum tse_hook hook,
				  const char *what)
{
	judge_redirect_outcome(t);
	tse_expect_hook(t, what, hook, TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, t->ifb_side, hook, 1, 1);
	judge_delivery(t);
}

static void judge_mirred(struct tse_test *t)
{
	judge_classified_once(t, TSE_HOOK_HEAD, at_egress(t) ?
			      "egress classifier runs per packet (BPF)" :
			      "ingress classifier runs per packet (BPF)");
}

static const struct tse_scenario egress_mirred = {
	.side = TSE_SENDER,
	.setup = setup_mirred,
	.judge = judge_mirred,
};

/* Control: ingress has skipped re-injected packets since ifb exists. */
static const struct tse_scenario ingress_mirred = {
	.side = TSE_RECEIVER,
	.setup = setup_mirred,
	.judge = judge_mirred,
};

/* 2, 5. Direct-action cls_bpf on the hook: bpf_redirect() to ifb. */
static int setup_bpf_redirect(struct tse_test *t)
{
	return count_at(t, t->ifb_side, at_egress(t),
			t->skel->progs.tse_redirect_ifb, 1);
}

static void judge_bpf_redirect(struct tse_test *t)
{
	judge_classified_once(t, TSE_HOOK_REDIRECT, at_egress(t) ?
			      "egress bpf_redirect program runs per packet" :
			      "ingress bpf_redirect program runs per packet");
}

static const struct tse_scenario egress_bpf_redirect = {
	.side = TSE_SENDER,
	.setup = setup_bpf_redirect,
	.judge = judge_bpf_redirect,
};

/* Control: on ingress, the kernel set skb_iif when the packet arrived. */
static const struct tse_scenario ingress_bpf_redirect = {
	.side = TSE_RECEIVER,
	.setup = setup_bpf_redirect,
	.judge = judge_bpf_redirect,
};

/* 3. The same program through a tcx link: no clsact qdisc, no tc counters. */
static int setup_egress_tcx_redirect(struct tse_test *t)
{
	return tse_attach_tcx(t, TSE_SENDER, t->skel->progs.tse_redirect_ifb_tcx);
}

static void judge_egress_tcx_redirect(struct tse_test *t)
{
	judge_redirect_outcome(t);
	tse_expect_hook(t, "tcx egress program runs per packet",
			TSE_HOOK_REDIRECT, TSE_FLOW_REDIRECTED, 1);
	judge_delivery(t);
}

static const struct tse_scenario egress_tcx_redirect = {
	.side = TSE_SENDER,
	.setup = setup_egress_tcx_redirect,
	.judge = judge_egress_tcx_redirect,
};

/*
 * 6. A second flow shares va with the redirected one, and the mirred
 * filter leaves it alone: whatever the kernel does for re-injected packets
 * must not change how it treats these.
 */
static void judge_egress_unrelated(struct tse_test *t)
{
	static const struct tse_meaning misredirected = {
		"misredirected", "packets no filter redirects went through ifb"
	};

	tse_expect_hook(t, "egress classifier runs per unrelated packet (BPF)",
			TSE_HOOK_HEAD, TSE_FLOW_UNRELATED, 1);
	tse_expect_each(t, "entries into ifb per unrelated packet",
			t->skel->bss->counters.seen[TSE_HOOK_IFB][TSE_FLOW_UNRELATED],
			0, &misredirected, &misredirected);
	tse_expect_delivered(t, TSE_FLOW_UNRELATED);
	tse_expect_peer_rx(t, 2);
}

static const struct tse_scenario egress_unrelated = {
	.side = TSE_SENDER,
	.unrelated = true,
	.setup = setup_mirred,
	.judge = judge_egress_unrelated,
};

/*
 * 7. After the round trip through ifb on va's egress, vb's ingress must
 * classify each packet once: a skip mark nobody cleared on egress would
 * cross the veth (skb_scrub_packet() keeps it) and skip vb's hook instead.
 */
static int setup_peer_ingress_once(struct tse_test *t)
{
	return setup_mirred(t) ?:
	       count_at(t, TSE_RECEIVER, false, t->skel->progs.tse_count_peer, 1);
}

static void judge_peer_ingress_once(struct tse_test *t)
{
	judge_redirect_outcome(t);
	tse_expect_hook(t, "vb ingress classifier runs per packet (BPF)",
			TSE_HOOK_PEER, TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, TSE_RECEIVER, TSE_HOOK_PEER, 1, 1);
	judge_delivery(t);
}

static const struct tse_scenario peer_ingress_once = {
	.side = TSE_SENDER,
	.setup = setup_peer_ingress_once,
	.judge = judge_peer_ingress_once,
};

/*
 * 8. The root qdisc's filter (prio, or htb) redirects to ifb; clsact
 * egress only counts.
 * Consuming the mark at the clsact hook (as the seed patch does) leaves the
 * root qdisc's filter to redirect the re-injected packet again: a loop.
 * How often clsact ran is not judged here; scenario 1 judges it.
 */
static int setup_root_qdisc_mirred(struct tse_test *t)
{
	/* prio as measured in the series' review; htb where there is no prio */
	return tse_cmd(t, TSE_SENDER,
		       "tc qdisc add dev va root handle 1: prio 2>/dev/null || tc qdisc add dev va root handle 1: htb") ?:
	       tse_mirred_filter(t, TSE_SENDER, "parent 1:", 1, TSE_PORT) ?:
	       count_head(t);
}

static void judge_root_qdisc_mirred(struct tse_test *t)
{
	judge_redirect_outcome(t);
	judge_delivery(t);
}

static const struct tse_scenario root_qdisc_mirred_with_clsact = {
	.side = TSE_SENDER,
	.setup = setup_root_qdisc_mirred,
	.judge = judge_root_qdisc_mirred,
};

/*
 * 9. The seed's benchmark shape: 100 egress filters, only the last matches
 * and redirects. Counters at prio 1 and 99 show how often the list was
 * walked; the 97 u32 filters between them match other ports.
 */
static const char no_match_filters[] =
	"for p in $(seq 2 98); do echo filter add dev va egress prio $p protocol ip u32 match ip protocol 17 0xff match ip dport $((5000 + p)) 0xffff action mirred egress redirect dev ifb_tse; done | tc -batch -";

static int setup_egress_100_filters(struct tse_test *t)
{
	return count_head(t) ?:
	       tse_cmd(t, TSE_SENDER, "%s", no_match_filters) ?:
	       count_at(t, TSE_SENDER, true, t->skel->progs.tse_count_tail, 99) ?:
	       tse_mirred_filter(t, TSE_SENDER, "egress", 100, TSE_PORT);
}

static void judge_egress_100_filters(struct tse_test *t)
{
	judge_redirect_outcome(t);
	tse_expect_hook(t, "runs of egress filter prio 1 per packet (BPF)",
			TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED, 1);
	tse_expect_hook(t, "runs of egress filter prio 99 per packet (BPF)",
			TSE_HOOK_TAIL, TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, TSE_SENDER, TSE_HOOK_HEAD, 1, 1);
	judge_delivery(t);
}

static const struct tse_scenario egress_100_filters = {
	.side = TSE_SENDER,
	.setup = setup_egress_100_filters,
	.judge = judge_egress_100_filters,
};

/* The scenarios by name; both front ends run them from this table. */
static const struct tse_entry {
	const char *name;
	int families;
	const struct tse_scenario *s;
} tse_table[] = {
	{ "egress_mirred", TSE_V4 | TSE_V6, &egress_mirred },
	{ "egress_bpf_redirect", TSE_V4 | TSE_V6, &egress_bpf_redirect },
	{ "egress_tcx_redirect", TSE_V4 | TSE_V6, &egress_tcx_redirect },
	{ "ingress_mirred", TSE_V4 | TSE_V6, &ingress_mirred },
	{ "ingress_bpf_redirect", TSE_V4 | TSE_V6, &ingress_bpf_redirect },
	{ "egress_unrelated", TSE_V4 | TSE_V6, &egress_unrelated },
	{ "peer_ingress_once", TSE_V4 | TSE_V6, &peer_ingress_once },
	{ "root_qdisc_mirred_with_clsact", TSE_V4 | TSE_V6,
	  &root_qdisc_mirred_with_clsact },
	{ "egress_100_filters", TSE_V4, &egress_100_filters },
};

int tse_scenario_count(void)
{
	return ARRAY_SIZE(tse_table);
}

const char *tse_scenario_name(int i)
{
	return tse_table[i].name;
}

int tse_scenario_families(int i)
{
	return tse_table[i].families;
}

static const struct tse_entry *tse_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tse_table); i++)
		if (!strcmp(tse_table[i].name, name))
			return &tse_table[i];
	return NULL;
}

const char *tse_family_name(int family)
{
	return family == TSE_V6 ? "ipv6" : "ipv4";
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - start->tv_sec +
	       (now.tv_nsec - start->tv_nsec) / 1e9;
}

static void tse_test_init(struct tse_test *t, int family,
			  const struct tse_scenario *s, struct tse_result *res)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->family = family;
	t->res = res;
	t->ifb_side = s->side;
	t->sends[TSE_FLOW_REDIRECTED] = true;
	t->sends[TSE_FLOW_UNRELATED] = s->unrelated;
	t->self_ns = t->kmsg = -1;
	for (i = 0; i < TSE_SIDES; i++)
		t->ns[i] = t->nl[i] = -1;
	for (i = 0; i < TSE_FLOWS; i++)
		t->tx_sock[i] = t->rx_sock[i] = -1;
}

/* Build the scenario, send its traffic, judge it, and remove it all. */
void tse_run(const char *name, int family, struct tse_result *res)
{
	const struct tse_entry *e = tse_find(name);
	struct timespec start;
	struct tse_test t;

	memset(res, 0, sizeof(*res));
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (!e || !(e->families & family)) {
		res->status = TSE_FAIL;
		res->diagnosis = "setup";
		snprintf(res->reason, sizeof(res->reason),
			 "no scenario %s for %s", name, tse_family_name(family));
		return;
	}
	tse_test_init(&t, family, e->s, res);
	if (geteuid() != 0) {
		tse_skip(&t, "needs root: network namespaces, tc and BPF");
		return;
	}
	tse_kernel_log_start(&t);
	if (!tse_topology_create(&t) && !e->s->setup(&t) &&
	    !tse_traffic_open(&t) && !tse_traffic_run(&t)) {
		e->s->judge(&t);
		tse_kernel_log_check(&t);
	}
	tse_traffic_close(&t);
	tse_topology_destroy(&t);
	if (t.kmsg >= 0)
		close(t.kmsg);
	res->seconds = seconds_since(&start);
}

bool tse_check_ok(const struct tse_check *c)
{
	return c->total ? c->bad == 0 : c->got == c->want;
}

void tse_format_check(const struct tse_check *c, char *buf, int len)
{
	if (tse_check_ok(c))
		snprintf(buf, len, "%s: %lld, as expected", c->what, c->got);
	else if (c->total)
		snprintf(buf, len, "%s: %lld for %d of %d packets, expected %lld: %s",
			 c->what, c->got, c->bad, c->total, c->want, c->meaning);
	else
		snprintf(buf, len, "%s: %lld, expected %lld: %s",
			 c->what, c->got, c->want, c->meaning);
}
