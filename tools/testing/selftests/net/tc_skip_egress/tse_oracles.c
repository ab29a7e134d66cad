// SPDX-License-Identifier: GPL-2.0
/* What the kernel did with each test packet: BPF and kernel counters, and the receiver. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tse_result.h"
#include "tse_topology.h"
#include "tse_oracles.h"

static struct tse_counters *bpf_counters(struct tse_test *t)
{
	return &t->net.skel->bss->counters;
}

const unsigned int *tse_bpf_row(struct tse_test *t, enum tse_hook hook,
				enum tse_flow flow)
{
	return bpf_counters(t)->seen[hook][flow];
}

static struct tse_actstats actstats_moved(const struct tse_actstats *a,
					  const struct tse_actstats *b)
{
	return (struct tse_actstats){
		.pkts = a->pkts - b->pkts,
		.overlimits = a->overlimits - b->overlimits,
	};
}

struct tse_devstats tse_moved(struct tse_test *t, enum tse_dev dev)
{
	const struct tse_devstats *a = &t->stats.after[dev], *b = &t->stats.before[dev];

	return (struct tse_devstats){
		.rx = a->rx - b->rx,
		.tx = a->tx - b->tx,
		.dropped = a->dropped - b->dropped,
		.rx_dropped = a->rx_dropped - b->rx_dropped,
		.clsact = a->clsact - b->clsact,
		.clsact_drops = a->clsact_drops - b->clsact_drops,
		.overlimits = a->overlimits - b->overlimits,
		.root_drops = a->root_drops - b->root_drops,
		.gact = actstats_moved(&a->gact, &b->gact),
		.peer_gact = actstats_moved(&a->peer_gact, &b->peer_gact),
		.gone = actstats_moved(&a->gone, &b->gone),
		.mirred = actstats_moved(&a->mirred, &b->mirred),
	};
}

long long tse_moved_class(struct tse_test *t, enum tse_dev dev,
			  unsigned int minor)
{
	return t->stats.after[dev].class_pkts[minor] - t->stats.before[dev].class_pkts[minor];
}

long long tse_background(struct tse_test *t, enum tse_hook hook)
{
	return bpf_counters(t)->other[hook] - t->stats.other_before[hook];
}

static bool failed_per_packet(const struct tse_result *res, const struct tse_check *last)
{
	const struct tse_check *c;

	for (c = res->checks; c < last; c++)
		if (c->total && !tse_check_ok(c))
			return true;
	return false;
}

/*
 * Noise on the hooks would count as test packets and blame the kernel. Judged last: where a
 * per-packet count, which noise cannot move, failed, the kernel keeps the diagnosis.
 */
/*
 * The TCP stream's socket holds what is not acknowledged yet: only datagrams. One check for
 * all flows: a test records one observation per site, and no socket holds less than 0.
 */
void tse_expect_sends_freed(struct tse_test *t)
{
	long long unfreed = 0;
	int flow;

	if (t->s->traffic == TSE_TCP_STREAM)
		return;
	for (flow = 0; flow < TSE_FLOWS; flow++)
		if (t->traffic.sends[flow])
			unfreed += t->traffic.unfreed[flow];
	tse_expect(t, "bytes the senders' sockets still held after the outcomes (SIOCOUTQ)",
		   unfreed, 0, &tse_leaked, &tse_leaked);
}

static const struct tse_meaning ifb_lost = {
	"drop-uncounted",
	"ifb took in packets (rx_packets) that it neither sent on (tx_packets) nor counted dropped on the way in (rx_dropped)"
};

static const struct tse_meaning ifb_overcounted = {
	"drop-counted-twice",
	"ifb counted more packets sent on (tx_packets) or dropped on the way in (rx_dropped) than it took in (rx_packets)"
};

/*
 * ifb counts each packet it takes in (ifb_xmit()), then either drops it there (rx_dropped) or
 * queues it, and its tasklet counts it sent (tx_packets) before it looks up the home. Once
 * every packet has its outcome the three add up, on every kernel, fences and copies included.
 */
void tse_expect_ifb_accounted(struct tse_test *t)
{
	/* A name each, so that a test's records name each check once. */
	static const struct {
		enum tse_dev dev;
		const char *check;
		const char *what;
	} ifbs[] = {
		{ TSE_IFB, "ifb-accounted",
		  "packets ifb took in, less those it sent on or dropped (rx - tx - rx_dropped)" },
		{ TSE_IFB_IN, "ifb_in-accounted",
		  "packets ifb_in took in, less those it sent on or dropped (rx-tx-rx_dropped)" },
	};
	struct tse_devstats m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ifbs); i++) {
		if (!t->net.ifindex[ifbs[i].dev])
			continue;
		m = tse_moved(t, ifbs[i].dev);
		__tse_expect(ifbs[i].check, t, ifbs[i].what,
			     (long long)m.rx - (long long)m.tx - (long long)m.rx_dropped, 0,
			     &ifb_lost, &ifb_overcounted);
	}
}

/* Read at every syscall exit of the test's process, its setup's included. */
void tse_expect_net_ctx_cleared(struct tse_test *t)
{
	if (!t->net.net_ctx_link)
		return;
	tse_expect(t, "the test's syscalls that returned with the task's bpf_net_context set",
		   bpf_counters(t)->net_ctx_left, 0, &tse_net_ctx_left, &tse_net_ctx_left);
}

void tse_expect_quiet(struct tse_test *t)
{
	static const struct tse_meaning noisy = {
		"noisy",
		"packets not of the test crossed its links while it ran: the test's setup, not the kernel, is at fault"
	};
	const __u32 *fence = bpf_counters(t)->fence;
	struct tse_check *c;
	long long n = 0;
	int hook;

	for (hook = 0; hook < TSE_HOOKS; hook++)
		n += tse_background(t, hook) - (fence[hook] - t->stats.fence_before[hook]);
	c = tse_expect(t,
		       "packets of no test flow on the BPF hooks while the traffic ran (fences aside)",
		       n, 0, &noisy, &noisy);
	if (c && !tse_check_ok(c) && !failed_per_packet(t->res, c))
		t->res->diagnosis = c->word;
}

void tse_expect_hook(struct tse_test *t, const char *what,
		     enum tse_hook hook, enum tse_flow flow,
		     unsigned int want)
{
	tse_expect_each(t, what, tse_bpf_row(t, hook, flow), want,
			&tse_reclassified, &tse_skipped);
}

void tse_expect_no_loop(struct tse_test *t, enum tse_flow flow)
{
	const unsigned int *looped = bpf_counters(t)->looped[flow];
	unsigned int n = 0;
	char what[96];
	int seq;

	for (seq = 0; seq < t->pkts; seq++)
		n += looped[seq];
	snprintf(what, sizeof(what),
		 "packets stopped by the loop breaker after %d entries into ifb",
		 TSE_LOOP_LIMIT);
	tse_expect(t, what, n, 0, &tse_looped, &tse_looped);
}

/* Which of ifb's reasons to drop applies: BPF saw skb_iif as it entered. */
static void expect_ifb_kept(struct tse_test *t, enum tse_dev ifb)
{
	const struct tse_meaning *why = bpf_counters(t)->iif_zero ?
					&tse_dropped_by_ifb_iif0 : &tse_dropped_by_ifb;
	char what[96];

	snprintf(what, sizeof(what), "packets %s dropped (rx_dropped + tx_dropped)",
		 tse_dev(t, ifb));
	tse_expect(t, what, (long long)tse_moved(t, ifb).dropped, 0, why, why);
}

void tse_expect_ifb_kept(struct tse_test *t)
{
	expect_ifb_kept(t, TSE_IFB);
	if (t->net.ifindex[TSE_IFB_IN])
		expect_ifb_kept(t, TSE_IFB_IN);
}

void tse_expect_ifb_once(struct tse_test *t, enum tse_dev ifb)
{
	enum tse_hook gate = ifb == TSE_IFB_IN ? TSE_HOOK_IFB_IN : TSE_HOOK_IFB;
	char what[96];

	snprintf(what, sizeof(what), "entries into %s per packet (BPF on its egress)",
		 tse_dev(t, ifb));
	tse_expect_each(t, what, tse_bpf_row(t, gate, TSE_FLOW_REDIRECTED), 1,
			&tse_looped, &tse_not_redirected);
	snprintf(what, sizeof(what), "test packets %s received (rx_packets)",
		 tse_dev(t, ifb));
	tse_expect(t, what, (long long)tse_moved(t, ifb).rx - tse_background(t, gate),
		   t->pkts, &tse_looped, &tse_not_redirected);
}

/* A loop or a drop in ifb ends a packet's way: it explains every count after. */
void tse_expect_redirected(struct tse_test *t)
{
	tse_expect_no_loop(t, TSE_FLOW_REDIRECTED);
	tse_expect_ifb_kept(t);
}

/* clsact counts every packet its hooks see; minus @hook's background, the test's runs. */
void tse_expect_clsact(struct tse_test *t, enum tse_dev dev,
		       enum tse_hook hook)
{
	int flows = t->traffic.sends[TSE_FLOW_REDIRECTED] + t->traffic.sends[TSE_FLOW_SECOND];
	char what[96];

	snprintf(what, sizeof(what), "test packets the clsact qdisc on %s counted",
		 tse_dev(t, dev));
	tse_expect(t, what, (long long)tse_moved(t, dev).clsact - tse_background(t, hook),
		   (long long)flows * t->pkts, &tse_reclassified, &tse_skipped);
}

void tse_expect_delivered(struct tse_test *t, enum tse_flow flow)
{
	tse_expect_each(t, "copies the receiver got per packet",
			t->traffic.delivered[flow], 1, &tse_duplicated,
			&tse_not_delivered);
}

static void expect_link(struct tse_test *t, const char *what, long long moved,
			unsigned int flows)
{
	tse_expect(t, what, moved - t->traffic.fences, (long long)flows * t->pkts,
		   &tse_duplicated, &tse_not_delivered);
}

void tse_expect_peer_rx(struct tse_test *t, unsigned int flows)
{
	expect_link(t, "packets vb received (veth rx_packets)",
		    (long long)tse_moved(t, TSE_VB).rx, flows);
}

void tse_expect_forwarded_once(struct tse_test *t)
{
	tse_expect_each(t, "packets sent back out of the router's input ra (BPF on ra egress)",
			tse_bpf_row(t, TSE_HOOK_BACK, TSE_FLOW_REDIRECTED), 0,
			&tse_wrong_device, &tse_wrong_device);
	tse_expect(t, "packets the router sent back out of its input device ra (tx_packets)",
		   (long long)tse_moved(t, TSE_RA).tx, 0, &tse_wrong_device, &tse_wrong_device);
	expect_link(t, "packets the router forwarded out of rb (tx_packets)",
		    (long long)tse_moved(t, TSE_RB).tx, 1);
}

/* After the hooks: a hook that skipped a packet explains why it missed ifb, not the reverse. */
void tse_expect_delivery(struct tse_test *t)
{
	tse_expect_ifb_once(t, TSE_IFB);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
}

void tse_expect_not_redirected(struct tse_test *t, enum tse_flow flow)
{
	tse_expect_each(t, "entries into ifb per unrelated packet",
			tse_bpf_row(t, TSE_HOOK_IFB, flow), 0, &tse_misredirected,
			&tse_misredirected);
}

void tse_expect_root_qdisc_once(struct tse_test *t)
{
	tse_expect_each(t, "root qdisc filter runs per packet (BPF, first filter)",
			tse_bpf_row(t, TSE_HOOK_REINJECT, TSE_FLOW_REDIRECTED), 1,
			&tse_reclassified, &tse_skipped);
}

void tse_expect_root_actions(struct tse_test *t)
{
	tse_expect_each(t, "copies the root qdisc's mirror action made per packet (BPF on vd)",
			tse_bpf_row(t, TSE_HOOK_MIRROR, TSE_FLOW_REDIRECTED), 1,
			&tse_actions_repeated, &tse_actions_skipped);
	tse_expect(t, "copies vd received (veth rx_packets), fences aside",
		   (long long)tse_moved(t, TSE_VD).rx - t->traffic.fences, t->pkts,
		   &tse_actions_repeated, &tse_actions_skipped);
	if (t->net.root_gact)
		tse_expect(t, "packets the root filter's gact action counted, fences aside",
			   (long long)tse_moved(t, TSE_VA).gact.pkts - t->traffic.fences, t->pkts,
			   &tse_actions_repeated, &tse_actions_skipped);
}

static void expect_root_classes(const char *oracle, struct tse_test *t, enum tse_dev dev,
				unsigned int minor, unsigned int other, int pkts, int fences,
				const struct tse_meaning *more, const struct tse_meaning *fewer)
{
	char what[112];

	snprintf(what, sizeof(what), "packets class 1:%u of %s's root qdisc sent, fences aside",
		 minor, tse_dev(t, dev));
	__tse_expect(oracle, t, what, tse_moved_class(t, dev, minor) - fences, pkts, more, fewer);
	snprintf(what, sizeof(what), "packets class 1:%u of %s's root qdisc sent", other,
		 tse_dev(t, dev));
	__tse_expect(oracle, t, what, tse_moved_class(t, dev, other), 0,
		     &tse_misclassified, &tse_misclassified);
}

void tse_expect_root_class(struct tse_test *t, enum tse_dev dev)
{
	expect_root_classes(__func__, t, dev, TSE_CHOSEN_CLASS, TSE_DEFAULT_CLASS, t->pkts,
			    t->traffic.fences, &tse_duplicated, &tse_misclassified);
}

void tse_expect_root_default_class(struct tse_test *t, enum tse_dev dev, int pkts,
				   int fences, const struct tse_meaning *more,
				   const struct tse_meaning *fewer)
{
	expect_root_classes(__func__, t, dev, TSE_DEFAULT_CLASS, TSE_CHOSEN_CLASS, pkts, fences,
			    more, fewer);
}

unsigned int tse_ethertype(struct tse_test *t)
{
	return t->family == TSE_V6 ? ETH_P_IPV6 : ETH_P_IP;
}

#define FIELD(name)	{ #name, offsetof(struct tse_fields, name) }

const struct tse_field tse_fields[TSE_NR_FIELDS] = {
	[TSE_FIELD_MARK] = FIELD(mark),
	[TSE_FIELD_PRIORITY] = FIELD(priority),
	[TSE_FIELD_TC_INDEX] = FIELD(tc_index),
	[TSE_FIELD_INGRESS_IFINDEX] = FIELD(ingress_ifindex),
	[TSE_FIELD_TSTAMP_TYPE] = FIELD(tstamp_type),
	[TSE_FIELD_PKT_TYPE] = FIELD(pkt_type),
	[TSE_FIELD_QUEUE_MAPPING] = FIELD(queue_mapping),
	[TSE_FIELD_IFINDEX] = FIELD(ifindex),
	[TSE_FIELD_TC_CLASSID] = FIELD(tc_classid),
	[TSE_FIELD_PROTOCOL] = FIELD(protocol),
	[TSE_FIELD_VLAN_PRESENT] = FIELD(vlan_present),
	[TSE_FIELD_VLAN_TCI] = FIELD(vlan_tci),
};

void tse_field_row(struct tse_test *t, enum tse_hook hook,
		   enum tse_field_id field, unsigned int *row)
{
	const struct tse_fields *f = bpf_counters(t)->fields[hook];
	int seq;

	for (seq = 0; seq < t->pkts; seq++)
		row[seq] = *(const __u32 *)((const char *)&f[seq] +
					   tse_fields[field].offset);
}

static int field_differs(const struct tse_fields *f, const struct tse_fields *want,
			 char *buf, size_t len)
{
	const __u32 *got = (const __u32 *)f, *expected = (const __u32 *)want;
	int i;

	for (i = 0; i < TSE_NR_FIELDS; i++) {
		int k = tse_fields[i].offset / sizeof(__u32);

		if (got[k] == expected[k])
			continue;
		snprintf(buf, len, "%s %u, expected %u", tse_fields[i].name,
			 got[k], expected[k]);
		return 1;
	}
	return 0;
}

/* A test that splits its flow by parity sends odd and even datagrams by different devices. */
static void expect_fields_by_parity(const char *oracle, struct tse_test *t,
				    enum tse_hook hook, const struct tse_fields want[2],
				    const char *where)
{
	const struct tse_fields *fields = bpf_counters(t)->fields[hook];
	const unsigned int *seen = tse_bpf_row(t, hook, TSE_FLOW_REDIRECTED);
	char first[96] = "", what[96];
	int seq, bad = 0;

	for (seq = 0; seq < t->pkts; seq++) {
		if (!seen[seq])
			continue;
		if (field_differs(&fields[seq], &want[seq & 1], first,
				  bad ? 0 : sizeof(first)))
			bad++;
	}
	if (bad)
		tse_note(t, "first skb field at %s that differs: %s", where, first);
	snprintf(what, sizeof(what), "packets whose skb fields at %s differ (BPF)", where);
	__tse_expect(oracle, t, what, bad, 0, &tse_fields_changed, &tse_fields_changed);
}

static void expect_fields(const char *oracle, struct tse_test *t, enum tse_hook hook,
			  const struct tse_fields *want, const char *where)
{
	const struct tse_fields both[2] = { *want, *want };

	expect_fields_by_parity(oracle, t, hook, both, where);
}

static const char *set_field(struct tse_test *t, const struct tse_fields *f)
{
	if (f->priority)
		return "priority";
	if (f->tc_index)
		return "tc_index";
	if (f->tstamp_type)
		return "tstamp_type";
	if (f->queue_mapping)
		return "queue_mapping";
	if (f->tc_classid)
		return "tc_classid";
	return f->protocol != tse_ethertype(t) ? "protocol" : NULL;
}

/* What no device, action or program of any scenario sets reads as without the skip. */
void tse_expect_fields_unset(struct tse_test *t)
{
	const char *first = NULL, *field;
	int hook, seq, bad = 0;

	for (hook = 0; hook < TSE_HOOKS; hook++) {
		const unsigned int *seen = tse_bpf_row(t, hook, TSE_FLOW_REDIRECTED);
		const struct tse_fields *f = bpf_counters(t)->fields[hook];

		for (seq = 0; seq < t->pkts; seq++) {
			field = seen[seq] ? set_field(t, &f[seq]) : NULL;
			if (field && !bad++)
				first = field;
		}
	}
	if (bad)
		tse_note(t, "first field set that nothing sets: %s", first);
	tse_expect(t, "readings, at any hook, of a field that nothing sets, set (BPF)", bad, 0,
		   &tse_fields_changed, &tse_fields_changed);
}

/* The crossing into vb's netns scrubbed the mark; a macvlan's frame is another host's to vb. */
void tse_expect_peer_fields(struct tse_test *t)
{
	bool macvlan = t->s->shape.upper == TSE_UPPER_MACVLAN;
	const struct tse_fields want = {
		.ingress_ifindex = t->net.ifindex[TSE_VB],
		.ifindex = t->net.ifindex[TSE_VB],
		.pkt_type = macvlan ? PACKET_OTHERHOST : PACKET_HOST,
		.protocol = tse_ethertype(t),
	};

	expect_fields(__func__, t, TSE_HOOK_PEER, &want, "vb's ingress");
}

void tse_expect_sent_fields(struct tse_test *t, enum tse_hook hook, enum tse_dev dev,
			    int iif, unsigned int mark, const char *where)
{
	const struct tse_fields want = {
		.mark = mark,
		.ingress_ifindex = iif,
		.ifindex = t->net.ifindex[dev],
		.pkt_type = PACKET_HOST,
		.protocol = tse_ethertype(t),
	};

	expect_fields(__func__, t, hook, &want, where);
}

void tse_expect_received_fields(struct tse_test *t, enum tse_hook hook, enum tse_dev dev,
				unsigned int pkt_type, const char *where)
{
	const struct tse_fields want = {
		.ingress_ifindex = t->net.ifindex[dev],
		.ifindex = t->net.ifindex[dev],
		.pkt_type = pkt_type,
		.protocol = tse_ethertype(t),
	};

	expect_fields(__func__, t, hook, &want, where);
}

/* Even datagrams pass @dev[0] with skb_iif @iif[0], odd ones @dev[1] with @iif[1]. */
void tse_expect_split_fields(struct tse_test *t, enum tse_hook hook,
			     const enum tse_dev dev[2], const enum tse_dev iif[2],
			     unsigned int mark, const char *where)
{
	struct tse_fields want[2] = {};
	int i;

	for (i = 0; i < 2; i++) {
		want[i].mark = mark;
		want[i].ingress_ifindex = t->net.ifindex[iif[i]];
		want[i].ifindex = t->net.ifindex[dev[i]];
		want[i].pkt_type = PACKET_HOST;
		want[i].protocol = tse_ethertype(t);
	}
	expect_fields_by_parity(__func__, t, hook, want, where);
}

/* The even datagrams leave by rb to vb, the odd ones by rb2 to vb2. */
void tse_expect_two_homes(struct tse_test *t)
{
	long long odd = t->pkts / 2, clsact;

	clsact = (long long)tse_moved(t, TSE_RB).clsact + tse_moved(t, TSE_RB2).clsact -
		 tse_background(t, TSE_HOOK_HEAD);
	tse_expect(t, "test packets the clsact qdiscs on rb and rb2 counted", clsact,
		   t->pkts, &tse_reclassified, &tse_skipped);
	tse_expect(t, "packets vb received, fences aside: the even ones (veth rx_packets)",
		   (long long)tse_moved(t, TSE_VB).rx - t->traffic.fences, t->pkts - odd,
		   &tse_wrong_home, &tse_wrong_home);
	tse_expect(t, "packets vb2 received: the odd ones (veth rx_packets)",
		   (long long)tse_moved(t, TSE_VB2).rx, odd, &tse_wrong_home, &tse_wrong_home);
}

void tse_expect_gso_once(struct tse_test *t)
{
	const unsigned int *gate = tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED);
	const unsigned int *head = tse_bpf_row(t, TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED);
	long long entries = 0;
	int seq;

	for (seq = 0; seq < t->pkts; seq++)
		entries += gate[seq];
	tse_expect(t, "skbs that entered ifb for the one UDP_SEGMENT send (BPF)", entries, 1,
		   &tse_looped, &tse_not_redirected);
	tse_expect(t, "egress classifier runs for the GSO skb (BPF)", head[0], 1,
		   &tse_reclassified, &tse_skipped);
}

void tse_expect_batched(struct tse_test *t)
{
	static const struct tse_meaning not_batched = {
		"not-batched",
		"ifb re-injected the burst one packet at a time: the test did not exercise batches"
	};
	unsigned int batch = bpf_counters(t)->max_in_ifb;

	tse_note(t, "largest batch inside ifb: %u packets", batch);
	tse_expect_at_least(t, "redirected packets inside ifb at once (BPF)",
			    batch, 2, &not_batched);
}

void tse_expect_shaped(struct tse_test *t)
{
	static const struct tse_meaning not_shaped = {
		"not-shaped", "the tbf on ifb never held a packet back: nothing was queued"
	};

	tse_expect_at_least(t, "times the tbf on ifb held a packet back (overlimits)",
			    (long long)tse_moved(t, TSE_IFB).overlimits, 1, &not_shaped);
}

/* Per skb: over the whole stream one skb classified twice could hide another skipped. */
static void tcp_runs_per_skb(struct tse_test *t, long long *more, long long *less)
{
	int fd = bpf_map__fd(t->net.skel->maps.tcp_skbs);
	struct tse_tcp_key key, *prev = NULL;
	struct tse_tcp_runs runs;

	*more = 0;
	*less = 0;
	while (!bpf_map_get_next_key(fd, prev, &key)) {
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &runs) || !runs.ifb)
			continue;
		*more += runs.head > runs.ifb;
		*less += runs.head < runs.ifb;
	}
}

static void expect_tcp_per_skb(struct tse_test *t)
{
	static const struct tse_meaning untracked = {
		"setup", "the test's map of TCP skbs was full: it could not judge each skb"
	};
	long long more, less;

	tse_expect(t, "TCP skbs the BPF map had no room for", bpf_counters(t)->tcp.untracked,
		   0, &untracked, &untracked);
	tcp_runs_per_skb(t, &more, &less);
	tse_expect(t, "TCP skbs va egress classified more often than they entered ifb (BPF)",
		   more, 0, &tse_reclassified, &tse_reclassified);
	tse_expect(t, "TCP skbs va egress classified less often than they entered ifb (BPF)",
		   less, 0, &tse_skipped, &tse_skipped);
}

void tse_expect_stream(struct tse_test *t)
{
	static const struct tse_meaning corrupted = {
		"corrupted", "the stream arrived out of order or damaged"
	};
	static const struct tse_meaning retransmitted = {
		"retransmitted", "the sender had to retransmit: segments were lost on the redirect"
	};
	static const struct tse_meaning not_gso = {
		"not-gso",
		"no GSO skb of the stream went through ifb: the test did not exercise segments"
	};
	struct tse_tcp_counters *tcp = &bpf_counters(t)->tcp;

	tse_note(t, "TCP skbs through ifb: %u, of them GSO: %u, segments: %u",
		 tcp->skbs[TSE_HOOK_IFB], tcp->gso_skbs, tcp->segs[TSE_HOOK_IFB]);
	tse_expect(t, "TCP skbs stopped by the loop breaker", tcp->looped, 0,
		   &tse_looped, &tse_looped);
	tse_expect(t, "bytes the receiver read", t->traffic.stream.received,
		   TSE_STREAM_BYTES, &tse_duplicated, &tse_not_delivered);
	tse_expect(t, "offset of the first wrong byte (-1: none)",
		   t->traffic.stream.first_bad, -1, &corrupted, &corrupted);
	expect_tcp_per_skb(t);
	tse_expect_at_least(t, "TCP skbs that entered ifb", tcp->skbs[TSE_HOOK_IFB],
			    1, &tse_not_redirected);
	tse_expect(t,
		   "egress classifier runs for the TCP segments that entered ifb (BPF, gso_segs)",
		   tcp->segs[TSE_HOOK_HEAD], tcp->segs[TSE_HOOK_IFB],
		   &tse_reclassified, &tse_skipped);
	tse_expect_at_least(t, "TCP GSO skbs (more than one segment) that entered ifb",
			    tcp->gso_skbs, 1, &not_gso);
	tse_note(t, "TCP retransmissions: %lld, shown spurious by a D-SACK: %lld",
		 t->traffic.stream.retrans, t->traffic.stream.spurious);
	tse_expect(t, "the sender's retransmissions no D-SACK showed spurious (TCP_INFO)",
		   t->traffic.stream.retrans - t->traffic.stream.spurious, 0, &retransmitted,
		   &retransmitted);
}

static const struct tse_meaning xmit_limit_met = {
	"xmit-limit",
	"bpf_redirect() met the kernel's transmit recursion limit: a redirect loop that the kernel had to stop"
};

static const struct tse_meaning xmit_limit_unlogged = {
	"unlogged",
	"the kernel stopped bpf_redirect() loops at its transmit recursion limit without logging it"
};

/* Read from the test's own process (raw tracepoint console): parallel runs do not mix. */
void tse_expect_xmit_limit_logged(struct tse_test *t)
{
	const char *what = "the test's kernel log lines \"" TSE_XMIT_LIMIT_MSG "\"";
	long long n = bpf_counters(t)->xmit_limit_msgs;

	if (!t->net.console_link)
		return;
	if (t->net.to_xmit_limit)
		tse_expect_at_least(t, what, n, 1, &xmit_limit_unlogged);
	else
		tse_expect(t, what, n, 0, &xmit_limit_met, &xmit_limit_met);
}

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
		"huh, entered softirq",	/* a softirq handler changed the preempt count */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(signs); i++)
		if (strstr(line, signs[i]))
			return true;
	return false;
}

/* The bpf_redirect() limit's line: the test's own count judges it, or the scenario wants it. */
static bool expected_elsewhere(struct tse_test *t, const char *line)
{
	return (t->net.console_link || t->net.to_xmit_limit) && strstr(line, TSE_XMIT_LIMIT_MSG);
}

void tse_kernel_log_check(struct tse_test *t)
{
	char rec[1024];
	int n, warnings = 0;

	if (t->kmsg < 0)
		return;
	for (;;) {
		n = read(t->kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on */
		/* EAGAIN: no more records; 0: the end of a file bound over it */
		if (n <= 0)
			break;
		rec[n] = '\0';
		tse_chomp(rec);
		if (!is_warning(rec) || expected_elsewhere(t, rec))
			continue;
		if (!warnings++)
			snprintf(t->res->kernel_log, sizeof(t->res->kernel_log),
				 "%.200s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
	}
	close(t->kmsg);
	t->kmsg = -1;
	tse_expect(t, "kernel log lines with WARNING, BUG or recursion",
		   warnings, 0, &tse_kernel_warning, &tse_kernel_warning);
}
