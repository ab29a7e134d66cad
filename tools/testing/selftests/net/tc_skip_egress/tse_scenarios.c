// SPDX-License-Identifier: GPL-2.0
/* The hand-written scenarios, for what no axis covers; the table of all at the end. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_packet.h>

#include "tse_result.h"
#include "tse_topology.h"
#include "tse_oracles.h"
#include "tse_grid.h"
#include "tse_scenarios.h"

#define UDP	17
#define TCP	6

static int head_and_mirred_verb(struct tse_test *t, enum tse_dev dev, bool egress,
				enum tse_dev ifb, const char *verb)
{
	return tse_count_at(t, dev, egress, t->net.skel->progs.tse_count_head, 1) ?:
	       tse_mirred_filter_queue(t, dev, egress ? "egress" : "ingress", 2, UDP,
				       TSE_PORT, verb, ifb) ?:
	       tse_tc_flush(t);
}

static int head_and_mirred(struct tse_test *t, enum tse_dev dev, bool egress,
			   enum tse_dev ifb)
{
	return head_and_mirred_verb(t, dev, egress, ifb, "redirect");
}

static void judge_once(struct tse_test *t, enum tse_dev dev,
		       enum tse_hook hook, const char *what)
{
	tse_expect_hook(t, what, hook, TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, dev, hook);
}

static void judge_received_once(struct tse_test *t)
{
	tse_expect_hook(t, "vb ingress classifier runs per packet (BPF)",
			TSE_HOOK_PEER, TSE_FLOW_REDIRECTED, 1);
	tse_expect_peer_fields(t);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
}

/* va: no skb_iif, no mark; ifb's gate: skb_iif va (mirred's), the mark read before it counts. */
static void judge_sent_fields(struct tse_test *t, enum tse_hook hook)
{
	tse_expect_sent_fields(t, hook, TSE_VA, 0, 0, "va's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_VA], 0,
			       "ifb's egress");
}

/* The crossing into vb's netns cleared the mark; ifb returns the packet to vb. */
static void judge_ingress_fields(struct tse_test *t, enum tse_hook hook)
{
	tse_expect_received_fields(t, hook, TSE_VB, PACKET_HOST, "vb's ingress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_VB], 0,
			       "ifb's egress");
}

static int setup_egress_mirred(struct tse_test *t)
{
	return head_and_mirred(t, TSE_VA, true, TSE_IFB);
}

static void judge_egress_mirred(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect_delivery(t);
	judge_sent_fields(t, TSE_HOOK_HEAD);
}

/* ingress_mirred, a control: ingress has skipped re-injected packets always. */
static int setup_ingress_mirred(struct tse_test *t)
{
	return head_and_mirred(t, TSE_VB, false, TSE_IFB);
}

static void judge_ingress_mirred(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VB, TSE_HOOK_HEAD, "ingress classifier runs per packet (BPF)");
	tse_expect_delivery(t);
	judge_ingress_fields(t, TSE_HOOK_HEAD);
}

/* ingress_bpf_redirect, a control: the kernel set skb_iif on arrival. */
static int setup_ingress_bpf_redirect(struct tse_test *t)
{
	return tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_redirect_ifb, 1);
}

static void judge_ingress_bpf_redirect(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VB, TSE_HOOK_REDIRECT,
		   "ingress bpf_redirect program runs per packet");
	tse_expect_delivery(t);
	judge_ingress_fields(t, TSE_HOOK_REDIRECT);
}

static void judge_egress_unrelated(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect_not_redirected(t, TSE_FLOW_SECOND);
	tse_expect_hook(t, "egress classifier runs per unrelated packet (BPF)",
			TSE_HOOK_HEAD, TSE_FLOW_SECOND, 1);
	tse_expect_ifb_once(t, TSE_IFB);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_delivered(t, TSE_FLOW_SECOND);
	tse_expect_peer_rx(t, 2);
	judge_sent_fields(t, TSE_HOOK_HEAD);
}

/* A skip mark nobody cleared would cross the veth (skb_scrub_packet() keeps it). */
static int setup_peer_ingress_once(struct tse_test *t)
{
	return setup_egress_mirred(t) ?:
	       tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_count_peer, 1);
}

/* va (gso_max_segs 1) segments after ifb, in validate_xmit_skb(): each segment copies the mark. */
static void judge_gso_after_ifb(struct tse_test *t)
{
	tse_expect_redirected(t);
	tse_expect_gso_once(t);
	tse_expect_clsact(t, TSE_VA, TSE_HOOK_HEAD);
	judge_once(t, TSE_VB, TSE_HOOK_PEER, "vb ingress classifier runs per segment (BPF)");
	tse_expect_peer_fields(t);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
	/* The hooks before the segmentation read the GSO skb by its first datagram. */
	judge_sent_fields(t, TSE_HOOK_HEAD);
}

static int root_mirror_filter(struct tse_test *t, enum tse_dev to, const char *then)
{
	char match[160], gact[48] = "";

	tse_u32_match(t, UDP, TSE_PORT, match, sizeof(match));
	if (t->net.root_gact)
		snprintf(gact, sizeof(gact), " action gact pipe index %d", TSE_GACT_INDEX);
	return tse_tc_queue(t, TSE_NS_SENDER,
			    "filter add dev %s parent 1: prio 2 %s classid 1:%d action mirred egress mirror dev %s%s%s\n",
			    tse_dev(t, TSE_VA), match, TSE_CHOSEN_CLASS, tse_dev(t, to),
			    gact, then) ?:
	       tse_tc_flush(t);
}

static int root_qdisc_watched(struct tse_test *t)
{
	return tse_root_qdisc(t, TSE_VA) ?:
	       tse_count_at_root(t, TSE_VA, t->net.skel->progs.tse_count_reinject) ?:
	       tse_count_at(t, TSE_VD, false, t->net.skel->progs.tse_count_mirror, 1);
}

/*
 * On stock, ifb's mark makes tcf_action_exec() skip the actions after ifb; a fix that only
 * refuses the redirect back to ifb runs the mirror twice.
 */
static int setup_root_qdisc_mirror_then_redirect(struct tse_test *t)
{
	char redirect[64];

	snprintf(redirect, sizeof(redirect), " action mirred egress redirect dev %s",
		 tse_dev(t, TSE_IFB));
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_count_head, 1) ?:
	       root_qdisc_watched(t) ?: root_mirror_filter(t, TSE_VC, redirect);
}

/* The root filter's last run is after ifb (skb_iif ifb, the gate's count 1). */
static void judge_mirror_then_redirect_fields(struct tse_test *t)
{
	judge_sent_fields(t, TSE_HOOK_HEAD);
	tse_expect_sent_fields(t, TSE_HOOK_REINJECT, TSE_VA, t->net.ifindex[TSE_IFB], 1,
			       "va's root qdisc");
	tse_expect_received_fields(t, TSE_HOOK_MIRROR, TSE_VD, PACKET_OTHERHOST,
				   "the monitor's ingress (vd)");
}

static void judge_root_qdisc_mirror_then_redirect(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect_hook(t, "root qdisc filter runs per packet, before ifb and after (BPF)",
			TSE_HOOK_REINJECT, TSE_FLOW_REDIRECTED, 2);
	tse_expect_root_actions(t);
	tse_expect_root_class(t, TSE_VA);
	tse_expect_delivery(t);
	judge_mirror_then_redirect_fields(t);
}

/*
 * The egress hook redirects to ifb, the root filter mirrors to the same
 * ifb (tcpdump on ifb). Only the packet ifb re-injects reaches the root
 * qdisc; its mirror makes a copy, which ifb drops (a mirror's copy is not
 * redirected). The hook took ifb's mark: no skip may reach the mirror.
 */
static int setup_root_mirror_to_ifb(struct tse_test *t)
{
	return setup_egress_mirred(t) ?:
	       tse_root_qdisc(t, TSE_VA) ?:
	       tse_count_at_root(t, TSE_VA, t->net.skel->progs.tse_count_reinject) ?:
	       root_mirror_filter(t, TSE_IFB, "");
}

static void judge_root_mirror_to_ifb(struct tse_test *t)
{
	tse_expect_no_loop(t, TSE_FLOW_REDIRECTED);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect_root_qdisc_once(t);
	tse_expect_each(t, "entries into ifb per packet: the packet, the root filter's copy (BPF)",
			tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 2,
			&tse_actions_repeated, &tse_actions_skipped);
	tse_expect(t, "test packets and copies ifb received (rx_packets)",
		   (long long)tse_moved(t, TSE_IFB).rx - tse_background(t, TSE_HOOK_IFB),
		   2 * t->pkts, &tse_actions_repeated, &tse_actions_skipped);
	tse_expect(t, "copies of the root filter's mirror ifb dropped, fences aside",
		   (long long)tse_moved(t, TSE_IFB).dropped - t->traffic.fences, t->pkts,
		   &tse_actions_repeated, &tse_actions_skipped);
	tse_expect_root_class(t, TSE_VA);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
	/* ifb's egress saw the copy last: mirred's skb_iif, the gate's count of one entry. */
	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, 0, 0, "va's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_VA], 1,
			       "ifb's egress");
}

/*
 * va's root filter redirects to a device since deleted: mirred then
 * drops what reaches it (its tcfm_dev is NULL). Only what ifb re-injects
 * reaches it; skipping the filter's actions would deliver the packet.
 */
static int setup_root_redirect_to_gone(struct tse_test *t)
{
	char match[160];

	tse_u32_match(t, UDP, TSE_PORT, match, sizeof(match));
	if (tse_ip_queue(t, TSE_NS_SENDER,
			 "link add tse_gone type veth peer name tse_gone_peer\n") ||
	    setup_egress_mirred(t) || tse_root_qdisc(t, TSE_VA) ||
	    tse_count_at_root(t, TSE_VA, t->net.skel->progs.tse_count_reinject) ||
	    tse_tc_queue(t, TSE_NS_SENDER,
			 "filter add dev %s parent 1: prio 2 %s classid 1:%d action mirred egress redirect dev tse_gone index %d\n",
			 tse_dev(t, TSE_VA), match, TSE_CHOSEN_CLASS, TSE_GONE_INDEX) ||
	    tse_tc_flush(t) ||
	    tse_ip_queue(t, TSE_NS_SENDER, "link del tse_gone\n") || tse_tc_flush(t))
		return -1;
	t->net.root_gone = true;
	return 0;
}

static void judge_root_redirect_to_gone(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect_root_qdisc_once(t);
	tse_expect_ifb_once(t, TSE_IFB);
	tse_expect(t, "packets the root filter's redirect to a deleted device dropped",
		   (long long)tse_moved(t, TSE_VA).gone.pkts, t->pkts,
		   &tse_actions_repeated, &tse_actions_skipped);
	tse_expect(t, "test packets vb received (veth rx_packets)",
		   (long long)tse_moved(t, TSE_VB).rx, 0,
		   &tse_actions_skipped, &tse_actions_skipped);
	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, 0, 0, "va's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_VA], 0,
			       "ifb's egress");
}

/* A hook that drops a packet counts it (TC_ACT_SHOT); a steal is not a drop. */
static const struct tse_meaning drop_uncounted = {
	"drop-uncounted",
	"the egress hook lost packets its qdisc did not count as dropped: what it could not send was not returned as TC_ACT_SHOT"
};

/* Test packets @dev's clsact qdisc dropped: its hook's TC_ACT_SHOT. */
static void expect_hook_drops(struct tse_test *t, enum tse_dev dev, long long want,
			      const struct tse_meaning *more, const struct tse_meaning *less)
{
	char what[64];

	snprintf(what, sizeof(what), "test packets %s's clsact qdisc dropped", tse_dev(t, dev));
	tse_expect(t, what, (long long)tse_moved(t, dev).clsact_drops, want, more, less);
}

/*
 * egress_drop: va's egress hook drops every test packet (the loop
 * breaker with no pass allowed returns TC_ACT_SHOT): it must free each,
 * and nothing reaches the mirred filter behind it, ifb or vb.
 */
static void prepare_egress_drop(struct tse_test *t)
{
	t->net.breaker = TSE_HOOK_HEAD;
	t->net.breaker_drops = true;
}

static void judge_egress_drop(struct tse_test *t)
{
	tse_expect_hook(t, "egress classifier runs per packet (BPF)", TSE_HOOK_HEAD,
			TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, TSE_VA, TSE_HOOK_HEAD);
	tse_expect_each(t, "packets the egress hook dropped (TC_ACT_SHOT)",
			t->net.skel->bss->counters.looped[TSE_FLOW_REDIRECTED], 1,
			&tse_reclassified, &tse_skipped);
	expect_hook_drops(t, TSE_VA, t->pkts, &drop_uncounted, &drop_uncounted);
	tse_expect(t, "packets ifb received (rx_packets)", (long long)tse_moved(t, TSE_IFB).rx, 0,
		   &tse_misredirected, &tse_misredirected);
	tse_expect(t, "packets vb received (veth rx_packets)", (long long)tse_moved(t, TSE_VB).rx,
		   0, &tse_skipped, &tse_skipped);
	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, 0, 0, "va's egress");
}

/* va's egress filter redirects or mirrors (@verb) to ifb by a mirred action the test reads. */
static int head_and_read_mirred(struct tse_test *t, const char *verb)
{
	char indexed[48];

	snprintf(indexed, sizeof(indexed), "%s index %d", verb, TSE_MIRRED_INDEX);
	t->net.mirred_read = true;
	return head_and_mirred_verb(t, TSE_VA, true, TSE_IFB, indexed);
}

static const struct tse_meaning unsent_uncounted = {
	"drop-uncounted",
	"mirred's overlimits are not the packets it could not send: a send that failed went uncounted, or one that did not fail was counted"
};

/*
 * The scenarios that read va's mirred: it ran once per packet, and could send none (its
 * overlimits). A fence follows delivered packets through it, and fails as they do.
 */
static void judge_head_and_unsent(struct tse_test *t)
{
	struct tse_actstats m = tse_moved(t, TSE_VA).mirred;
	long long fences = t->traffic.fences;

	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect(t, "packets va's mirred action ran on, fences aside",
		   (long long)m.pkts - fences, t->pkts, &tse_reclassified, &tse_skipped);
	tse_expect(t, "packets va's mirred could not send (its overlimits), fences aside",
		   (long long)m.overlimits - fences, t->pkts, &unsent_uncounted, &unsent_uncounted);
}

/*
 * va's egress filter redirects or mirrors (@verb) to an ifb that is down.
 * mirred cannot send to it: a redirect says so (TC_ACT_SHOT), and the
 * hook's qdisc counts the drop; a mirror's packet goes its way.
 */
static int mirred_to_down_ifb(struct tse_test *t, const char *verb)
{
	if (head_and_read_mirred(t, verb) ||
	    tse_ip_queue(t, tse_dev_ns(t, TSE_IFB), "link set dev %s down\n",
			 tse_dev(t, TSE_IFB)) ||
	    tse_tc_flush(t))
		return -1;
	t->net.hook_drops = true;
	return 0;
}

static int setup_egress_redirect_to_down_ifb(struct tse_test *t)
{
	return mirred_to_down_ifb(t, "redirect");
}

static void judge_egress_redirect_to_down_ifb(struct tse_test *t)
{
	judge_head_and_unsent(t);
	expect_hook_drops(t, TSE_VA, t->pkts, &drop_uncounted, &drop_uncounted);
	tse_expect(t, "packets ifb received (rx_packets)", (long long)tse_moved(t, TSE_IFB).rx, 0,
		   &tse_misredirected, &tse_misredirected);
	tse_expect(t, "test packets vb received (veth rx_packets)",
		   (long long)tse_moved(t, TSE_VB).rx, 0, &tse_skipped, &tse_skipped);
	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, 0, 0, "va's egress");
}

static int setup_egress_mirror_to_down_ifb(struct tse_test *t)
{
	return mirred_to_down_ifb(t, "mirror");
}

static const struct tse_meaning mirror_dropped_packet = {
	"not-delivered",
	"a mirror that could not send its copy dropped the packet itself: only a redirect that cannot send is TC_ACT_SHOT"
};

static void judge_egress_mirror_to_down_ifb(struct tse_test *t)
{
	judge_head_and_unsent(t);
	expect_hook_drops(t, TSE_VA, 0, &mirror_dropped_packet, &mirror_dropped_packet);
	tse_expect(t, "packets ifb received (rx_packets)", (long long)tse_moved(t, TSE_IFB).rx, 0,
		   &tse_misredirected, &tse_misredirected);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, 0, 0, "va's egress");
}

/*
 * va's egress filter redirects to ifb, whose own egress hook drops every
 * test packet (ifb's gate, with no pass allowed, returns TC_ACT_SHOT).
 * dev_queue_xmit() then returns NET_XMIT_DROP to mirred, which counts it
 * (overlimits) and must not touch the packet again: ifb's hook freed it.
 */
static const struct tse_meaning sent_again = {
	"sent-again",
	"mirred sent packets again after dev_queue_xmit() failed: ifb's hook had freed them (a use after free)"
};

static const struct tse_meaning drop_counted_twice = {
	"drop-counted-twice",
	"va's hook counted as its own drop a packet that ifb's hook dropped: mirred returned TC_ACT_SHOT for a packet it had handed over"
};

static void prepare_egress_redirect_to_dropping_ifb(struct tse_test *t)
{
	t->net.breaker_drops = true;
}

static int setup_egress_redirect_to_dropping_ifb(struct tse_test *t)
{
	return head_and_read_mirred(t, "redirect");
}

static const struct tse_meaning verdict_lost = {
	"verdict-lost",
	"ifb's egress hook dropped packets (TC_ACT_SHOT) that still went through ifb: the hook's verdict was lost"
};

/* ifb's own hook classified and dropped each packet once (@again: more); none went on. */
static void judge_ifb_hook_dropped(struct tse_test *t, const struct tse_meaning *again)
{
	tse_expect_each(t, "ifb's egress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 1,
			again, &tse_not_redirected);
	tse_expect_each(t, "packets ifb's egress hook dropped (TC_ACT_SHOT)",
			t->net.skel->bss->counters.looped[TSE_FLOW_REDIRECTED], 1,
			again, &tse_skipped);
	expect_hook_drops(t, TSE_IFB, t->pkts, again, &drop_uncounted);
	tse_expect(t, "packets ifb received (rx_packets)", (long long)tse_moved(t, TSE_IFB).rx, 0,
		   &verdict_lost, &verdict_lost);
	tse_expect(t, "test packets vb received (veth rx_packets)",
		   (long long)tse_moved(t, TSE_VB).rx, 0, &verdict_lost, &verdict_lost);
}

static void judge_egress_redirect_to_dropping_ifb(struct tse_test *t)
{
	judge_head_and_unsent(t);
	judge_ifb_hook_dropped(t, &sent_again);
	/* The redirect's verdict stands (TC_ACT_STOLEN): va's hook dropped nothing. */
	expect_hook_drops(t, TSE_VA, 0, &drop_counted_twice, &drop_counted_twice);
	judge_sent_fields(t, TSE_HOOK_HEAD);
}

/*
 * The same from a tcx link on va: its program redirects to ifb, whose
 * clsact gate drops each packet. A tcx link anywhere makes every egress
 * hook run the tcx programs, then the clsact filters, whose verdict is the
 * hook's when the tcx programs give none.
 */
static int setup_egress_tcx_redirect_to_dropping_ifb(struct tse_test *t)
{
	return tse_attach_tcx(t, TSE_VA, t->net.skel->progs.tse_redirect_ifb_tcx);
}

static void judge_egress_tcx_redirect_to_dropping_ifb(struct tse_test *t)
{
	tse_expect_hook(t, "runs of va's tcx program per packet (BPF)", TSE_HOOK_REDIRECT,
			TSE_FLOW_REDIRECTED, 1);
	judge_ifb_hook_dropped(t, &tse_reclassified);
	tse_expect_sent_fields(t, TSE_HOOK_REDIRECT, TSE_VA, 0, 0, "va's tcx");
}

/*
 * va's egress program bpf_redirect()s each test packet back to va: one
 * more nested transmit each time. Past XMIT_RECURSION_LIMIT of them,
 * __bpf_tx_skb() frees the packet and logs it; the loop breaker is above.
 */
static const struct tse_meaning xmit_limit_ignored = {
	"xmit-limit-ignored",
	"bpf_redirect() sent packets round more nested transmits than XMIT_RECURSION_LIMIT: __bpf_tx_skb() did not stop them"
};

static const struct tse_meaning xmit_limit_early = {
	"xmit-limit-early",
	"bpf_redirect() stopped packets before XMIT_RECURSION_LIMIT nested transmits"
};

static const struct tse_meaning sent_past_limit = {
	"sent-past-limit",
	"packets that bpf_redirect() looped to the kernel's transmit recursion limit left va after all"
};

static void prepare_egress_bpf_redirect_to_self(struct tse_test *t)
{
	t->net.breaker = TSE_HOOK_REDIRECT;
	t->net.to_xmit_limit = true;
}

static int setup_egress_bpf_redirect_to_self(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_redirect_self, 1);
}

static void judge_egress_bpf_redirect_to_self(struct tse_test *t)
{
	/* The first run, then one per redirect below the limit (recursion 0 to 8). */
	tse_expect_each(t, "va egress program runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_REDIRECT, TSE_FLOW_REDIRECTED), TSE_XMIT_LIMIT + 2,
			&xmit_limit_ignored, &xmit_limit_early);
	tse_expect_each(t, "packets the loop breaker dropped, above the kernel's limit (BPF)",
			t->net.skel->bss->counters.looped[TSE_FLOW_REDIRECTED], 0,
			&xmit_limit_ignored, &xmit_limit_ignored);
	/* The kernel's drop, not the hook's: the hook's verdict was TC_ACT_REDIRECT. */
	expect_hook_drops(t, TSE_VA, 0, &xmit_limit_ignored, &xmit_limit_ignored);
	tse_expect(t, "packets va sent (tx_packets)", (long long)tse_moved(t, TSE_VA).tx, 0,
		   &sent_past_limit, &sent_past_limit);
	tse_expect(t, "packets vb received (veth rx_packets)", (long long)tse_moved(t, TSE_VB).rx,
		   0, &sent_past_limit, &sent_past_limit);
	tse_expect(t, "packets ifb received (rx_packets)", (long long)tse_moved(t, TSE_IFB).rx, 0,
		   &tse_misredirected, &tse_misredirected);
	/* The last run reads the breaker's count of the runs before it; skb_iif stays 0. */
	tse_expect_sent_fields(t, TSE_HOOK_REDIRECT, TSE_VA, 0, TSE_XMIT_LIMIT + 1, "va's egress");
}

/* Counters at prio 1 and 99 show how often the list was walked; between them, other ports. */
static int add_no_match_filters(struct tse_test *t)
{
	char cmds[97 * 192], match[160], redirect[64];
	int prio, len = 0;

	snprintf(redirect, sizeof(redirect), "action mirred egress redirect dev %s",
		 tse_dev(t, TSE_IFB));
	for (prio = 2; prio <= 98; prio++) {
		tse_u32_match(t, UDP, 5000 + prio, match, sizeof(match));
		len += snprintf(cmds + len, sizeof(cmds) - len,
				"filter add dev %s egress prio %d %s %s\n",
				tse_dev(t, TSE_VA), prio, match, redirect);
	}
	return tse_tc_batch(t, TSE_NS_SENDER, cmds);
}

static int setup_egress_100_filters(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_count_head, 1) ?:
	       add_no_match_filters(t) ?:
	       tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_count_tail, 99) ?:
	       tse_mirred_filter(t, TSE_VA, "egress", 100, UDP, TSE_PORT, TSE_IFB);
}

static void judge_egress_100_filters(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "runs of egress filter prio 1 per packet (BPF)");
	tse_expect_hook(t, "runs of egress filter prio 99 per packet (BPF)",
			TSE_HOOK_TAIL, TSE_FLOW_REDIRECTED, 1);
	tse_expect_delivery(t);
	judge_sent_fields(t, TSE_HOOK_HEAD);
	tse_expect_sent_fields(t, TSE_HOOK_TAIL, TSE_VA, 0, 0, "va's egress, prio 99");
}

/* A forwarded packet's skb_iif is ra: ifb must still send it back out of rb. */
static int setup_forward_egress_mirred(struct tse_test *t)
{
	return head_and_mirred(t, TSE_RB, true, TSE_IFB);
}

/* @mark: the count of the ifb gates the packet passed before rb. */
static void judge_forward_fields(struct tse_test *t, enum tse_hook hook, unsigned int mark)
{
	tse_expect_sent_fields(t, hook, TSE_RB, t->net.ifindex[TSE_RA], mark, "rb's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_RB], mark,
			       "ifb's egress");
}

static void judge_forwarded_once(struct tse_test *t)
{
	tse_expect_redirected(t);
	tse_expect_forwarded_once(t);
	judge_once(t, TSE_RB, TSE_HOOK_HEAD, "rb egress classifier runs per packet (BPF)");
	tse_expect_delivery(t);
}

static void judge_forward_egress_mirred(struct tse_test *t)
{
	judge_forwarded_once(t);
	judge_forward_fields(t, TSE_HOOK_HEAD, 0);
}

static int setup_forward_egress_bpf_redirect(struct tse_test *t)
{
	return tse_count_at(t, TSE_RB, true, t->net.skel->progs.tse_redirect_ifb, 1);
}

static void judge_forward_egress_bpf_redirect(struct tse_test *t)
{
	tse_expect_redirected(t);
	tse_expect_forwarded_once(t);
	judge_once(t, TSE_RB, TSE_HOOK_REDIRECT,
		   "rb egress bpf_redirect program runs per packet");
	tse_expect_delivery(t);
	judge_forward_fields(t, TSE_HOOK_REDIRECT, 0);
}

/*
 * ingress_bpf_redirect_peer, a control: bpf_redirect_peer() at ra's ingress hands each packet
 * to vb, rb's peer in the receiver's namespace, past the router's forwarding and rb's egress
 * (skb_do_redirect()'s BPF_F_PEER branch, which the fix leaves as it is). A kernel that left
 * the packet on ra would run ra's ingress again without end: ra's program breaks the loop.
 */
static void prepare_ingress_bpf_redirect_peer(struct tse_test *t)
{
	t->net.breaker = TSE_HOOK_REDIRECT;
}

static int setup_ingress_bpf_redirect_peer(struct tse_test *t)
{
	return tse_count_at(t, TSE_RA, false, t->net.skel->progs.tse_redirect_peer, 1) ?:
	       tse_count_at(t, TSE_RB, true, t->net.skel->progs.tse_count_head, 1) ?:
	       tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_count_peer, 1);
}

static const struct tse_meaning routed_not_peered = {
	"wrong-device",
	"packets left the router by rb: bpf_redirect_peer() did not hand them to rb's peer"
};

static const struct tse_meaning peer_looped = {
	"looped", "packets came back to ra's ingress: bpf_redirect_peer() left them on ra"
};

/*
 * ra's program ran once per packet, on what ra received (@pkt_type: for ra's MAC or another's):
 * a loop would bring it back.
 */
static void judge_peer_redirect_ran(struct tse_test *t, unsigned int pkt_type)
{
	tse_expect_each(t, "ra ingress bpf_redirect_peer() program runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_REDIRECT, TSE_FLOW_REDIRECTED), 1,
			&peer_looped, &tse_skipped);
	tse_expect_clsact(t, TSE_RA, TSE_HOOK_REDIRECT);
	tse_expect_received_fields(t, TSE_HOOK_REDIRECT, TSE_RA, pkt_type, "ra's ingress");
}

/* Past the router's forwarding, vb received each packet once, as for vb (PACKET_HOST). */
static void judge_peered_to_vb(struct tse_test *t)
{
	tse_expect_each(t, "rb egress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED), 0,
			&routed_not_peered, &routed_not_peered);
	/* The fences take the router's way: rb sends them, and only them. */
	tse_expect(t, "packets the router sent out of rb (tx_packets), fences aside",
		   (long long)tse_moved(t, TSE_RB).tx - t->traffic.fences, 0,
		   &routed_not_peered, &routed_not_peered);
	/* Lost, a packet misses vb's hook too: say so first. */
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect_peer_rx(t, 1);
	tse_expect_each(t, "vb ingress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED), 1,
			&tse_duplicated, &tse_not_delivered);
	/* The breaker's count of the one pass: skb_scrub_packet(skb, false) keeps the mark. */
	tse_expect_sent_fields(t, TSE_HOOK_PEER, TSE_VB, t->net.ifindex[TSE_VB], 1,
			       "vb's ingress");
}

static void judge_ingress_bpf_redirect_peer(struct tse_test *t)
{
	judge_peer_redirect_ran(t, PACKET_HOST);
	judge_peered_to_vb(t);
}

/*
 * ingress_bpf_redirect_peer_other_host, a control: as ingress_bpf_redirect_peer, but va sends
 * each test packet to a MAC that is not ra's, so ra takes it as PACKET_OTHERHOST. The
 * redirect's skb_scrub_packet() makes it PACKET_HOST: vb delivers it. Without the scrub vb's
 * IP layer would drop it as meant for another host.
 */
static int setup_ingress_bpf_redirect_peer_other_host(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_to_other_host, 1) ?:
	       setup_ingress_bpf_redirect_peer(t);
}

static void judge_ingress_bpf_redirect_peer_other_host(struct tse_test *t)
{
	tse_expect_hook(t, "va egress program for another MAC runs per packet (BPF)",
			TSE_HOOK_TAIL, TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, TSE_VA, TSE_HOOK_TAIL);
	judge_peer_redirect_ran(t, PACKET_OTHERHOST);
	judge_peered_to_vb(t);
}

/*
 * ingress_bpf_redirect_without_target, a control: ra's ingress program bpf_redirect_peer()s the
 * even packets of a burst to vb, and returns TC_ACT_REDIRECT for the odd ones without naming a
 * target. ra takes the burst in one softirq, where the redirect's target lives on from packet
 * to packet: skb_do_redirect() clears it, so every kernel drops the odd ones, counted nowhere.
 */
static void prepare_ingress_bpf_redirect_without_target(struct tse_test *t)
{
	prepare_ingress_bpf_redirect_peer(t);
	t->net.redirect_drops = true;
}

static int setup_ingress_bpf_redirect_without_target(struct tse_test *t)
{
	return tse_count_at(t, TSE_RA, false, t->net.skel->progs.tse_redirect_peer_or_bare, 1) ?:
	       tse_count_at(t, TSE_RB, true, t->net.skel->progs.tse_count_head, 1) ?:
	       tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_count_peer, 1);
}

static const struct tse_meaning redirected_without_target = {
	"misredirected",
	"packets redirected with no target went on: the kernel took the target of a packet before"
};

/* The sum of @row over all packets. */
static long long row_sum(struct tse_test *t, const unsigned int *row)
{
	long long n = 0;
	int seq;

	for (seq = 0; seq < t->pkts; seq++)
		n += row[seq];
	return n;
}

/* The sum of @row over the packets of one parity. */
static long long parity_sum(struct tse_test *t, const unsigned int *row, int odd)
{
	long long n = 0;
	int seq;

	for (seq = odd; seq < t->pkts; seq += 2)
		n += row[seq];
	return n;
}

/* @want of the even packets went into vb by bpf_redirect_peer(), each once. */
static void judge_even_into_vb(struct tse_test *t, int want)
{
	const unsigned int *peer = tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED);
	const unsigned int *got = t->traffic.delivered[TSE_FLOW_REDIRECTED];

	tse_expect(t, "copies the receiver got of the even packets (bpf_redirect_peer())",
		   parity_sum(t, got, 0), want, &tse_duplicated, &tse_not_delivered);
	tse_expect(t, "runs of vb's ingress classifier for the even packets (BPF)",
		   parity_sum(t, peer, 0), want, &tse_duplicated, &tse_not_delivered);
}

static void judge_ingress_bpf_redirect_without_target(struct tse_test *t)
{
	const unsigned int *peer = tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED);
	const unsigned int *got = t->traffic.delivered[TSE_FLOW_REDIRECTED];

	judge_peer_redirect_ran(t, PACKET_HOST);
	tse_expect(t, "runs of vb's ingress classifier for the odd packets (BPF)",
		   parity_sum(t, peer, 1), 0, &redirected_without_target,
		   &redirected_without_target);
	tse_expect(t, "packets the router sent out of rb (tx_packets), fences aside",
		   (long long)tse_moved(t, TSE_RB).tx - t->traffic.fences, 0,
		   &redirected_without_target, &redirected_without_target);
	tse_expect(t, "copies the receiver got of the odd packets", parity_sum(t, got, 1), 0,
		   &redirected_without_target, &redirected_without_target);
	judge_even_into_vb(t, t->pkts / 2);
	tse_expect_each(t, "rb egress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED), 0,
			&redirected_without_target, &redirected_without_target);
	tse_expect_sent_fields(t, TSE_HOOK_PEER, TSE_VB, t->net.ifindex[TSE_VB], 1,
			       "vb's ingress");
}

/*
 * ingress_bpf_redirect_target_from_xdp, a control: as ingress_bpf_redirect_without_target, under
 * a generic XDP program on ra whose bpf_redirect() names rb for each packet, which it passes.
 * That sets the target, not the flags: the odd packets' bare TC_ACT_REDIRECT sends them out of
 * rb as bpf_redirect() would, and vb drops them (for ra's MAC). Only if the flags of the even
 * packet's bpf_redirect_peer() carried over would they go into vb instead.
 */
static int setup_ingress_bpf_redirect_target_from_xdp(struct tse_test *t)
{
	return tse_attach_xdp(t, TSE_RA, t->net.skel->progs.tse_xdp_name_target) ?:
	       setup_ingress_bpf_redirect_without_target(t);
}

static const struct tse_meaning flags_carried = {
	"misredirected",
	"packets redirected without flags went into vb: the BPF_F_PEER of the redirect before carried over"
};

static const struct tse_meaning peered_out_of_rb = {
	"wrong-device", "even packets left by rb: bpf_redirect_peer() did not hand them to vb"
};

/* The odd packets left by rb; the even ones went into vb by bpf_redirect_peer() (@peered). */
static void judge_odd_out_of_rb(struct tse_test *t, bool peered)
{
	const unsigned int *head = tse_bpf_row(t, TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED);
	const unsigned int *peer = tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED);
	const unsigned int *got = t->traffic.delivered[TSE_FLOW_REDIRECTED];

	judge_peer_redirect_ran(t, PACKET_HOST);
	tse_expect(t, "runs of rb's egress classifier for the odd packets (BPF)",
		   parity_sum(t, head, 1), t->pkts / 2, &tse_duplicated, &flags_carried);
	tse_expect(t, "runs of rb's egress classifier for the even packets (BPF)",
		   parity_sum(t, head, 0), 0, &peered_out_of_rb, &peered_out_of_rb);
	tse_expect(t, "packets the router sent out of rb (tx_packets), fences aside",
		   (long long)tse_moved(t, TSE_RB).tx - t->traffic.fences, t->pkts / 2,
		   &peered_out_of_rb, &flags_carried);
	tse_expect(t, "copies the receiver got of the odd packets (for ra's MAC)",
		   parity_sum(t, got, 1), 0, &flags_carried, &flags_carried);
	tse_expect(t, "runs of vb's ingress classifier for the odd packets (BPF)",
		   parity_sum(t, peer, 1), t->pkts / 2, &tse_duplicated, &tse_not_delivered);
	judge_even_into_vb(t, peered ? t->pkts / 2 : 0);
}

static void judge_ingress_bpf_redirect_target_from_xdp(struct tse_test *t)
{
	judge_odd_out_of_rb(t, true);
}

/*
 * ingress_bpf_redirect_flags_after_gone, a control: as ingress_bpf_redirect_target_from_xdp, but
 * the even packets' bpf_redirect_peer() names an ifindex no device has: skb_do_redirect() drops
 * them, and clears the flags on that way out too, so the odd packets still leave by rb.
 */
static void prepare_ingress_bpf_redirect_flags_after_gone(struct tse_test *t)
{
	prepare_ingress_bpf_redirect_without_target(t);
	t->net.fixed_target = TSE_GONE_IFINDEX;
}

static void judge_ingress_bpf_redirect_flags_after_gone(struct tse_test *t)
{
	judge_odd_out_of_rb(t, false);
}

/*
 * ingress_bpf_redirect_peer_of_ifb, a control: bpf_redirect_peer() at ra's ingress names the
 * router's ifb, a device with no peer. skb_do_redirect() drops each packet, counted nowhere, on
 * every kernel; the fences take the router's way.
 */
static void prepare_ingress_bpf_redirect_peer_of_ifb(struct tse_test *t)
{
	prepare_ingress_bpf_redirect_peer(t);
	t->net.peer_of_ifb = true;
	t->net.redirect_drops = true;
}

static const struct tse_meaning peered_without_peer = {
	"misredirected", "bpf_redirect_peer() to a device with no peer sent packets on to vb"
};

static void judge_ingress_bpf_redirect_peer_of_ifb(struct tse_test *t)
{
	judge_peer_redirect_ran(t, PACKET_HOST);
	tse_expect_each(t, "copies the receiver got per packet",
			t->traffic.delivered[TSE_FLOW_REDIRECTED], 0,
			&peered_without_peer, &peered_without_peer);
	tse_expect_each(t, "rb egress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED), 0,
			&peered_without_peer, &peered_without_peer);
	tse_expect(t, "packets ifb received (rx_packets)", (long long)tse_moved(t, TSE_IFB).rx, 0,
		   &peered_without_peer, &peered_without_peer);
	tse_expect(t, "packets vb received (veth rx_packets), fences aside",
		   (long long)tse_moved(t, TSE_VB).rx - t->traffic.fences, 0,
		   &peered_without_peer, &peered_without_peer);
	tse_expect_each(t, "vb ingress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED), 0,
			&peered_without_peer, &peered_without_peer);
}

/*
 * egress_bpf_redirect_peer, a control: bpf_redirect_peer() is for tc ingress. From va's egress,
 * skb_do_redirect() drops the packet on every kernel, before it reaches va's peer, vb, and
 * counts that nowhere: the program's run is each packet's outcome, the fence what follows it.
 */
static void prepare_egress_bpf_redirect_peer(struct tse_test *t)
{
	t->net.redirect_drops = true;
}

static int setup_egress_bpf_redirect_peer(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_redirect_peer, 1) ?:
	       tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_count_peer, 1);
}

static const struct tse_meaning peered_from_egress = {
	"misredirected",
	"bpf_redirect_peer() from an egress hook sent packets on to vb: only tc ingress may"
};

/*
 * va's program ran once per packet, and the kernel dropped what it redirected: vb got none of
 * it (the fences pass the program and take the veth's way). @lost names what vb got.
 */
static void judge_dropped_after_va(struct tse_test *t, const char *what,
				   const struct tse_meaning *lost)
{
	tse_expect_hook(t, what, TSE_HOOK_REDIRECT, TSE_FLOW_REDIRECTED, 1);
	tse_expect_clsact(t, TSE_VA, TSE_HOOK_REDIRECT);
	tse_expect_each(t, "copies the receiver got per packet",
			t->traffic.delivered[TSE_FLOW_REDIRECTED], 0, lost, lost);
	tse_expect(t, "packets vb received (veth rx_packets), fences aside",
		   (long long)tse_moved(t, TSE_VB).rx - t->traffic.fences, 0, lost, lost);
	tse_expect_each(t, "vb ingress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED), 0, lost, lost);
	tse_expect_sent_fields(t, TSE_HOOK_REDIRECT, TSE_VA, 0, 0, "va's egress");
}

static void judge_egress_bpf_redirect_peer(struct tse_test *t)
{
	judge_dropped_after_va(t, "va egress bpf_redirect_peer() program runs per packet (BPF)",
			       &peered_from_egress);
}

/*
 * egress_bpf_redirect_to_gone and egress_bpf_redirect_to_lo, controls: va's egress program
 * bpf_redirect()s each test packet to an ifindex no device has, or to lo, a device registered
 * without rtnl_link_ops (netif_is_ifb() must not read them). skb_do_redirect() finds no device,
 * or dev_queue_xmit() finds lo down in a new netns: every kernel drops the packet, counted
 * nowhere (as mirred does in root_redirect_to_gone).
 */
static void prepare_redirect_nowhere(struct tse_test *t, int ifindex)
{
	t->net.fixed_target = ifindex;
	t->net.redirect_drops = true;
}

static void prepare_egress_bpf_redirect_to_gone(struct tse_test *t)
{
	prepare_redirect_nowhere(t, TSE_GONE_IFINDEX);
}

static void prepare_egress_bpf_redirect_to_lo(struct tse_test *t)
{
	prepare_redirect_nowhere(t, TSE_LO_IFINDEX);
}

static int setup_va_redirect_to_target(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_redirect_target, 1) ?:
	       tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_count_peer, 1);
}

static const struct tse_meaning sent_from_nowhere = {
	"misredirected", "bpf_redirect() to no device, or to lo while down, sent packets on to vb"
};

static void judge_egress_bpf_redirect_nowhere(struct tse_test *t)
{
	judge_dropped_after_va(t, "va egress bpf_redirect() program runs per packet (BPF)",
			       &sent_from_nowhere);
}

static int setup_router_two_ifb(struct tse_test *t)
{
	return tse_count_at(t, TSE_RA, false, t->net.skel->progs.tse_count_in, 1) ?:
	       tse_mirred_filter(t, TSE_RA, "ingress", 2, UDP, TSE_PORT, TSE_IFB_IN) ?:
	       setup_forward_egress_mirred(t);
}

static void judge_router_two_ifb(struct tse_test *t)
{
	judge_forwarded_once(t);
	tse_expect_ifb_once(t, TSE_IFB_IN);
	judge_once(t, TSE_RA, TSE_HOOK_IN, "ra ingress classifier runs per packet (BPF)");
	tse_expect_received_fields(t, TSE_HOOK_IN, TSE_RA, PACKET_HOST, "ra's ingress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB_IN, TSE_IFB_IN, t->net.ifindex[TSE_RA], 0,
			       "ifb_in's egress");
	judge_forward_fields(t, TSE_HOOK_HEAD, 1);
}

/* The burst reaches ifb before its tasklet runs: rb's root qdisc counts ifb's batch. */
static int setup_burst(struct tse_test *t)
{
	return setup_forward_egress_mirred(t) ?:
	       tse_root_qdisc(t, TSE_RB) ?:
	       tse_count_at_root(t, TSE_RB, t->net.skel->progs.tse_count_reinject);
}

static void judge_burst(struct tse_test *t)
{
	judge_forwarded_once(t);
	tse_expect_root_qdisc_once(t);
	tse_expect_root_default_class(t, TSE_RB, t->pkts, t->traffic.fences,
				      &tse_duplicated, &tse_not_delivered);
	tse_expect_batched(t);
	judge_forward_fields(t, TSE_HOOK_HEAD, 0);
	/* After ifb, which set skb_iif to itself; its gate counted the packet. */
	tse_expect_sent_fields(t, TSE_HOOK_REINJECT, TSE_RB, t->net.ifindex[TSE_IFB], 1,
			       "rb's root qdisc");
}

/*
 * burst_into_short_ifb_queue: the burst into an ifb of txqueuelen 4 under a pfifo of 4. ifb_xmit()
 * stops ifb's queue when it holds 4 packets, so the next wait in the pfifo and the rest of the
 * burst is dropped there; the tasklet wakes the queue once it has sent what ifb held.
 */
#define SHORT_QUEUE	4

static int setup_burst_into_short_ifb_queue(struct tse_test *t)
{
	enum tse_ns ns = tse_dev_ns(t, TSE_IFB);

	return tse_ip_queue(t, ns, "link set %s txqueuelen %d\n", tse_dev(t, TSE_IFB),
			    SHORT_QUEUE) ?:
	       tse_tc_queue(t, ns, "qdisc add dev %s root pfifo limit %d\n",
			    tse_dev(t, TSE_IFB), SHORT_QUEUE) ?:
	       setup_forward_egress_mirred(t);
}

static const struct tse_meaning queue_ignored = {
	"queue-ignored",
	"ifb took more packets than its txqueuelen without stopping its queue: none waited in its root qdisc"
};

static const struct tse_meaning queue_not_woken = {
	"not-delivered",
	"fewer packets left ifb than it holds and its pfifo: its queue stopped too soon, or did not wake"
};

static void judge_burst_into_short_ifb_queue(struct tse_test *t)
{
	const unsigned int *got = t->traffic.delivered[TSE_FLOW_REDIRECTED];
	long long dropped = tse_moved(t, TSE_IFB).root_drops;
	long long delivered = row_sum(t, got);

	tse_expect_redirected(t);
	judge_once(t, TSE_RB, TSE_HOOK_HEAD, "rb egress classifier runs per packet (BPF)");
	tse_expect_hook(t, "entries into ifb per packet (BPF on its egress)", TSE_HOOK_IFB,
			TSE_FLOW_REDIRECTED, 1);
	tse_expect_at_least(t, "packets ifb's root pfifo dropped", dropped, 1, &queue_ignored);
	/* ifb holds one more than txqueuelen: it stops the queue before it takes the packet. */
	tse_expect_at_least(t, "packets the receiver got", delivered, 2 * SHORT_QUEUE + 1,
			    &queue_not_woken);
	tse_expect(t, "packets the receiver got or ifb's root pfifo dropped", delivered + dropped,
		   t->pkts, &tse_duplicated, &tse_not_delivered);
}

/* One ifb batch holds packets of rb and rb2: ifb must return each to its own device. */
static int setup_burst_two_devices(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return tse_count_at(t, TSE_RA, false, progs->tse_split_odd, 1) ?:
	       head_and_mirred(t, TSE_RB, true, TSE_IFB) ?:
	       head_and_mirred(t, TSE_RB2, true, TSE_IFB) ?:
	       tse_root_qdisc(t, TSE_RB) ?: tse_root_qdisc(t, TSE_RB2) ?:
	       tse_count_at_root(t, TSE_RB, progs->tse_count_reinject) ?:
	       tse_count_at_root(t, TSE_RB2, progs->tse_count_reinject);
}

/* ra's redirect of the odd datagrams to rb2 leaves skb_iif ra. */
static void judge_two_devices_fields(struct tse_test *t)
{
	static const enum tse_dev outputs[2] = { TSE_RB, TSE_RB2 };
	static const enum tse_dev ifb[2] = { TSE_IFB, TSE_IFB };
	static const enum tse_dev ra[2] = { TSE_RA, TSE_RA };

	tse_expect_received_fields(t, TSE_HOOK_IN, TSE_RA, PACKET_HOST, "ra's ingress");
	tse_expect_split_fields(t, TSE_HOOK_HEAD, outputs, ra, 0, "rb's or rb2's egress");
	tse_expect_split_fields(t, TSE_HOOK_IFB, ifb, outputs, 0, "ifb's egress");
	tse_expect_split_fields(t, TSE_HOOK_REINJECT, outputs, ifb, 1,
				"rb's or rb2's root qdisc");
}

static void judge_burst_two_devices(struct tse_test *t)
{
	tse_expect_redirected(t);
	tse_expect_hook(t, "ra's ingress program runs per packet (BPF)",
			TSE_HOOK_IN, TSE_FLOW_REDIRECTED, 1);
	tse_expect_hook(t, "egress classifier runs per packet, on rb or rb2 (BPF)",
			TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED, 1);
	tse_expect_root_qdisc_once(t);
	/* ra's program leaves the fences to routing: they leave by rb. */
	tse_expect_root_default_class(t, TSE_RB, t->pkts - t->pkts / 2, t->traffic.fences,
				      &tse_wrong_home, &tse_wrong_home);
	tse_expect_root_default_class(t, TSE_RB2, t->pkts / 2, 0,
				      &tse_wrong_home, &tse_wrong_home);
	tse_expect_batched(t);
	tse_expect_ifb_once(t, TSE_IFB);
	tse_expect_two_homes(t);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	judge_two_devices_fields(t);
}

static int setup_tcp_stream(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_count_head, 1) ?:
	       tse_mirred_filter(t, TSE_VA, "egress", 2, TCP, TSE_TCP_PORT, TSE_IFB);
}

static void judge_tcp_stream(struct tse_test *t)
{
	tse_expect_ifb_kept(t);
	tse_expect_stream(t);
}

/* ifb re-injects from tbf's watchdog; the bucket, below the MTU, passes about two datagrams. */
static int setup_shaped_ifb(struct tse_test *t)
{
	return setup_egress_mirred(t) ?:
	       tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s root tbf %s\n",
			    tse_dev(t, TSE_IFB), "rate 100kbit burst 200 limit 100000") ?:
	       tse_tc_flush(t);
}

static void judge_shaped_ifb(struct tse_test *t)
{
	tse_expect_shaped(t);
	judge_egress_mirred(t);
}

/*
 * device_deleted_while_in_ifb, a control: va2's egress program bpf_redirect()s its flow to
 * ifb, whose tbf lets a packet or two through and holds the rest: the packets themselves,
 * which charge their socket until freed (mirred would send clones). va2 is deleted and the
 * tbf let go; then each packet of va's flow goes to vb, and va's root filter mirrors a copy
 * to ifb. The first copy pushes the held packets out ahead of it. ifb drops the copies as
 * it takes them, so nothing queues behind the held packets. ifb finds no device for their
 * skb_iif: it drops each in its tasklet (tx_dropped), and goes on to the next by itself.
 * Stock never gets that far: skb_iif is 0, and ifb_xmit() drops them.
 */
#define HOLD_TBF	"rate 80bit burst 100 limit 10000"
#define LET_GO_TBF	"rate 1gbit burst 10kb limit 10000"

static int setup_device_deleted_while_in_ifb(struct tse_test *t)
{
	return tse_root_qdisc(t, TSE_VA) ?:
	       tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s root tbf %s\n",
			    tse_dev(t, TSE_IFB), HOLD_TBF) ?:
	       tse_mirred_filter_queue(t, TSE_VA, "parent 1:", 2, UDP, TSE_PORT, "mirror",
				       TSE_IFB) ?:
	       tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s clsact\n", tse_dev(t, TSE_VA2)) ?:
	       tse_tc_flush(t) ?:
	       tse_count_at(t, TSE_VA2, true, t->net.skel->progs.tse_redirect_ifb, 1);
}

static int delete_va2_let_go(struct tse_test *t)
{
	if (tse_ip_queue(t, TSE_NS_SENDER, "link del %s\n", tse_dev(t, TSE_VA2)) ||
	    tse_tc_flush(t))
		return -1;
	/* vb2, its peer, went with it: nothing reads their counters now. */
	t->net.ifindex[TSE_VA2] = 0;
	t->net.ifindex[TSE_VB2] = 0;
	return tse_tc_queue(t, TSE_NS_SENDER, "qdisc change dev %s root tbf %s\n",
			    tse_dev(t, TSE_IFB), LET_GO_TBF) ?:
	       tse_tc_flush(t);
}

static const struct tse_meaning held_none = {
	"setup", "the tbf on ifb held none of va2's packets: none was in ifb when va2 went"
};

static const struct tse_meaning gone_uncounted = {
	"drop-uncounted",
	"packets of a deleted device were neither delivered nor counted dropped by ifb: ifb lost them, or still holds them"
};

static const struct tse_meaning sent_to_itself = {
	"wrong-home",
	"ifb took packets in more than once: it sent those whose device was gone into itself, instead of dropping them"
};

static void judge_device_deleted_while_in_ifb(struct tse_test *t)
{
	long long got = row_sum(t, t->traffic.delivered[TSE_FLOW_SECOND]);
	long long dropped = tse_moved(t, TSE_IFB).dropped;

	tse_expect_hook(t, "entries into ifb per packet of va's flow: its copy (BPF on its egress)",
			TSE_HOOK_IFB, TSE_FLOW_REDIRECTED, 1);
	tse_expect_hook(t, "va2 egress bpf_redirect() program runs per packet (BPF)",
			TSE_HOOK_REDIRECT, TSE_FLOW_SECOND, 1);
	tse_expect_hook(t, "entries into ifb per packet of va2's flow (BPF on its egress)",
			TSE_HOOK_IFB, TSE_FLOW_SECOND, 1);
	tse_expect_at_least(t, "packets of va2's flow not delivered (held in ifb when va2 went)",
			    t->pkts - got, 1, &held_none);
	tse_expect(t, "packets of va2's flow delivered, or dropped by ifb (va's copies aside)",
		   got + dropped - t->pkts - t->traffic.fences, t->pkts, &tse_duplicated,
		   &gone_uncounted);
	/* ifb counts a packet in at ifb_xmit(): one it sent into itself counts twice. */
	tse_expect(t, "packets ifb took in: va's copies, va2's packets and the fences, each once",
		   tse_moved(t, TSE_IFB).rx, 2 * t->pkts + t->traffic.fences, &sent_to_itself,
		   &tse_not_redirected);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
}

/* The upper's root qdisc consumes ifb's mark, so va's filter sends it through ifb again. */
static int setup_stacked_into_one_ifb(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return tse_root_qdisc(t, TSE_UP_A) ?: tse_root_qdisc(t, TSE_VA) ?:
	       tse_mirred_filter(t, TSE_UP_A, "parent 1:", 2, UDP, TSE_PORT, TSE_IFB) ?:
	       tse_mirred_filter(t, TSE_VA, "parent 1:", 2, UDP, TSE_PORT, TSE_IFB) ?:
	       tse_count_at_root(t, TSE_UP_A, progs->tse_count_reinject) ?:
	       tse_count_at_root(t, TSE_VA, progs->tse_count_lower) ?:
	       tse_count_at(t, TSE_VB, false, progs->tse_count_peer, 1);
}

/* The gate counts each entry in skb->mark: 1 before the upper's second run, 2 before va's. */
static void judge_stacked_fields(struct tse_test *t)
{
	int ifb = t->net.ifindex[TSE_IFB];

	tse_expect_sent_fields(t, TSE_HOOK_REINJECT, TSE_UP_A, ifb, 1,
			       "the upper device's root qdisc");
	tse_expect_sent_fields(t, TSE_HOOK_LOWER, TSE_VA, ifb, 2, "va's root qdisc");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_VA], 1,
			       "ifb's egress");
}

static void judge_stacked_into_one_ifb(struct tse_test *t)
{
	tse_expect_redirected(t);
	tse_expect_hook(t, "upper device's root filter runs per packet, before ifb and after (BPF)",
			TSE_HOOK_REINJECT, TSE_FLOW_REDIRECTED, 2);
	tse_expect_hook(t, "va root qdisc filter runs per packet, before ifb and after (BPF)",
			TSE_HOOK_LOWER, TSE_FLOW_REDIRECTED, 2);
	tse_expect_each(t, "entries into ifb per packet, one per device (BPF on its egress)",
			tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 2,
			&tse_looped, &tse_not_redirected);
	judge_stacked_fields(t);
	judge_received_once(t);
}

/* va's clsact must read the packet once on its way down, and skip it when ifb returns it. */
static int setup_stacked_with_clsact_below(struct tse_test *t)
{
	return tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s clsact\n",
			    tse_dev(t, TSE_VA)) ?:
	       setup_stacked_into_one_ifb(t) ?:
	       tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_count_head, 1);
}

static void judge_stacked_with_clsact_below(struct tse_test *t)
{
	judge_stacked_into_one_ifb(t);
	tse_expect_hook(t, "va egress classifier runs per packet (BPF)",
			TSE_HOOK_HEAD, TSE_FLOW_REDIRECTED, 1);
	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, t->net.ifindex[TSE_IFB], 1,
			       "va's egress");
}

/* A redirect to anything but ifb leaves skb_iif as stock does: va2 must not see the fix. */
static int count_at_target(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA2, true, t->net.skel->progs.tse_count_target, 1);
}

static int setup_bpf_redirect_to_veth(struct tse_test *t)
{
	return tse_count_at(t, TSE_VA, true, t->net.skel->progs.tse_redirect_plain, 1) ?:
	       count_at_target(t);
}

static int setup_tcx_redirect_to_veth(struct tse_test *t)
{
	return tse_attach_tcx(t, TSE_VA, t->net.skel->progs.tse_redirect_plain_tcx) ?:
	       count_at_target(t);
}

static int setup_mirred_to_veth(struct tse_test *t)
{
	return head_and_mirred(t, TSE_VA, true, TSE_VA2) ?: count_at_target(t);
}

static int setup_root_qdisc_mirred_to_veth(struct tse_test *t)
{
	return tse_root_qdisc(t, TSE_VA) ?:
	       tse_count_at_root(t, TSE_VA, t->net.skel->progs.tse_count_head) ?:
	       tse_mirred_filter(t, TSE_VA, "parent 1:", 2, UDP, TSE_PORT, TSE_VA2) ?:
	       count_at_target(t);
}

/* @iif at va2: 0 after bpf_redirect(), va after mirred. */
static void judge_to_veth(struct tse_test *t, enum tse_hook hook, const char *what, int iif)
{
	tse_expect_hook(t, what, hook, TSE_FLOW_REDIRECTED, 1);
	tse_expect_hook(t, "va2 egress classifier runs per packet (BPF)",
			TSE_HOOK_TARGET, TSE_FLOW_REDIRECTED, 1);
	tse_expect_each(t, "entries into ifb per packet (BPF on its egress)",
			tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 0,
			&tse_misredirected, &tse_misredirected);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
	tse_expect(t, "packets vb2 received (veth rx_packets), fences aside",
		   (long long)tse_moved(t, TSE_VB2).rx - t->traffic.fences, t->pkts,
		   &tse_duplicated, &tse_not_delivered);
	tse_expect_sent_fields(t, hook, TSE_VA, 0, 0, "va's egress");
	tse_expect_sent_fields(t, TSE_HOOK_TARGET, TSE_VA2, iif, 0, "va2's egress");
}

static void judge_bpf_redirect_to_veth(struct tse_test *t)
{
	judge_to_veth(t, TSE_HOOK_REDIRECT, "va egress bpf_redirect program runs per packet", 0);
}

/*
 * Each datagram carries a delivery time on CLOCK_REALTIME (SCM_TXTIME),
 * which __bpf_tx_skb() clears: the next device may not read it as its own.
 */
static const struct tse_meaning not_timed = {
	"not-timed",
	"the datagrams reached va's egress without their delivery time: the test did not exercise what it is for"
};

static const struct tse_meaning tstamp_kept = {
	"tstamp-kept",
	"bpf_redirect() kept the packets' delivery time on CLOCK_REALTIME: __bpf_tx_skb() did not clear it (skb_clear_tstamp())"
};

/* Every hook after va's (va2's egress, ifb's gate) is after the redirect. */
static void judge_bpf_redirect_timed_to_veth(struct tse_test *t)
{
	const __u32 *timed = t->net.skel->bss->counters.timed;
	long long after = 0;
	int hook;

	for (hook = 0; hook < TSE_HOOKS; hook++)
		after += hook == TSE_HOOK_REDIRECT ? 0 : timed[hook];
	judge_bpf_redirect_to_veth(t);
	tse_expect(t, "test packets with a delivery time at va's egress (BPF, skb->tstamp)",
		   timed[TSE_HOOK_REDIRECT], t->pkts, &not_timed, &not_timed);
	tse_expect(t, "test packets with a time at a hook after bpf_redirect(), va2's egress (BPF)",
		   after, 0, &tstamp_kept, &tstamp_kept);
}

static void judge_mirred_to_veth(struct tse_test *t)
{
	judge_to_veth(t, TSE_HOOK_HEAD, "va egress classifier runs per packet (BPF)",
		      t->net.ifindex[TSE_VA]);
}

/*
 * mirred_to_veth_then_neigh_to_ifb: mirred on va egress redirects each test packet to va2 (which
 * marks it redirected, skb_iif va), and va2's egress program bpf_redirect_neigh()s it on to ifb.
 * That path leaves skb_iif alone on every kernel, and ifb returns the packet to va, whose egress
 * hook it skips; it leaves for ifb's MAC, which is vb's. The fences take va2's way to vb2.
 */
static int setup_mirred_to_veth_then_neigh_to_ifb(struct tse_test *t)
{
	return head_and_mirred(t, TSE_VA, true, TSE_VA2) ?:
	       tse_count_at(t, TSE_VA2, true, t->net.skel->progs.tse_redirect_neigh_ifb, 1) ?:
	       tse_count_at(t, TSE_VB, false, t->net.skel->progs.tse_count_peer, 1);
}

static const struct tse_meaning neigh_iif_changed = {
	"wrong-home",
	"ifb returned packets redirected to it by bpf_redirect_neigh() to another device than mirred's: the redirect changed skb_iif"
};

static void judge_mirred_to_veth_then_neigh_to_ifb(struct tse_test *t)
{
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "va egress classifier runs per packet (BPF)");
	tse_expect_hook(t, "va2 egress bpf_redirect_neigh() program runs per packet (BPF)",
			TSE_HOOK_TARGET, TSE_FLOW_REDIRECTED, 1);
	tse_expect_ifb_once(t, TSE_IFB);
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, t->net.ifindex[TSE_VA], 0,
			       "ifb's egress");
	tse_expect_each(t, "vb ingress classifier runs per packet (BPF)",
			tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED), 1,
			&tse_duplicated, &neigh_iif_changed);
	tse_expect(t, "packets vb2 received (veth rx_packets), fences aside",
		   (long long)tse_moved(t, TSE_VB2).rx - t->traffic.fences, 0,
		   &neigh_iif_changed, &neigh_iif_changed);
	tse_expect_delivered(t, TSE_FLOW_REDIRECTED);
}

static void judge_root_qdisc_mirred_to_veth(struct tse_test *t)
{
	judge_to_veth(t, TSE_HOOK_HEAD, "va root qdisc filter runs per packet (BPF)",
		      t->net.ifindex[TSE_VA]);
}

/* BPF's twin of a mirred mirror to ifb: ifb drops each copy, the fence's too. */
static int setup_clone_to_ifb(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return tse_count_at(t, TSE_VA, true, progs->tse_clone_to_ifb, 1) ?:
	       tse_count_at(t, TSE_VB, false, progs->tse_count_peer, 1);
}

static void judge_clone_to_ifb(struct tse_test *t)
{
	static const struct tse_meaning copies_kept = {
		"duplicated",
		"ifb sent the copies of bpf_clone_redirect() back out of va: the receiver gets each packet twice"
	};
	static const struct tse_meaning homeless_queued = {
		"wrong-home",
		"ifb queued copies whose skb_iif is 0, and dropped them only in its tasklet (tx_dropped): ifb_xmit() must drop what has no device to go back to"
	};

	tse_expect_no_loop(t, TSE_FLOW_REDIRECTED);
	tse_expect_hook(t, "va egress bpf_clone_redirect program runs per packet",
			TSE_HOOK_REDIRECT, TSE_FLOW_REDIRECTED, 1);
	tse_expect_each(t, "copies that entered ifb per packet (BPF on its egress)",
			tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 1,
			&tse_looped, &tse_not_redirected);
	/* One fence went after the packets, and ifb drops its copy too. */
	tse_expect(t, "copies ifb dropped (rx_dropped + tx_dropped), the fence's included",
		   (long long)tse_moved(t, TSE_IFB).dropped, t->pkts + !!t->traffic.fences,
		   &copies_kept, &copies_kept);
	/* A copy has skb_iif 0: no device to go back to, so ifb_xmit() drops it at once. */
	tse_expect(t, "copies ifb dropped as it took them in (rx_dropped), the fence's included",
		   (long long)tse_moved(t, TSE_IFB).rx_dropped, t->pkts + !!t->traffic.fences,
		   &copies_kept, &homeless_queued);
	/* Neither the packet nor its copy has an input device; the gate reads the mark first. */
	tse_expect_sent_fields(t, TSE_HOOK_REDIRECT, TSE_VA, 0, 0, "va's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, 0, 0, "ifb's egress");
	judge_received_once(t);
}

/* Stock loops: the clsact match consumes ifb's mark, and the root filter redirects again. */
static int setup_two_ifb_stages(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return head_and_mirred(t, TSE_VA, true, TSE_IFB) ?:
	       tse_root_qdisc(t, TSE_VA) ?:
	       tse_count_at_root(t, TSE_VA, progs->tse_count_reinject) ?:
	       tse_mirred_filter(t, TSE_VA, "parent 1:", 2, UDP, TSE_PORT, TSE_IFB_IN);
}

static void judge_two_stages_fields(struct tse_test *t)
{
	int va = t->net.ifindex[TSE_VA];

	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_VA, 0, 0, "va's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, va, 0, "the first ifb's egress");
	tse_expect_sent_fields(t, TSE_HOOK_IFB_IN, TSE_IFB_IN, va, 1, "the second ifb's egress");
	tse_expect_sent_fields(t, TSE_HOOK_REINJECT, TSE_VA, t->net.ifindex[TSE_IFB_IN], 2,
			       "va's root qdisc");
}

static void judge_two_ifb_stages(struct tse_test *t)
{
	tse_expect_redirected(t);
	judge_once(t, TSE_VA, TSE_HOOK_HEAD, "egress classifier runs per packet (BPF)");
	tse_expect_hook(t, "root qdisc filter runs per packet, before ifb_in and after (BPF)",
			TSE_HOOK_REINJECT, TSE_FLOW_REDIRECTED, 2);
	tse_expect_ifb_once(t, TSE_IFB_IN);
	judge_two_stages_fields(t);
	tse_expect_delivery(t);
}

/* skb_iif is ra, the root filter's target: ra is no ifb, so the action must still run. */
static int setup_egress_hairpin(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return tse_count_at(t, TSE_RB, true, progs->tse_count_head, 1) ?:
	       tse_root_qdisc(t, TSE_RB) ?:
	       tse_count_at_root(t, TSE_RB, progs->tse_count_reinject) ?:
	       tse_mirred_filter(t, TSE_RB, "parent 1:", 2, UDP, TSE_PORT, TSE_RA);
}

static void judge_hairpin_fields(struct tse_test *t)
{
	int ra = t->net.ifindex[TSE_RA];

	tse_expect_sent_fields(t, TSE_HOOK_HEAD, TSE_RB, ra, 0, "rb's egress");
	tse_expect_sent_fields(t, TSE_HOOK_REINJECT, TSE_RB, ra, 0, "rb's root qdisc");
	tse_expect_sent_fields(t, TSE_HOOK_BACK, TSE_RA, t->net.ifindex[TSE_RB], 0,
			       "ra's egress");
}

static void judge_egress_hairpin(struct tse_test *t)
{
	judge_once(t, TSE_RB, TSE_HOOK_HEAD, "rb egress classifier runs per packet (BPF)");
	tse_expect_root_qdisc_once(t);
	tse_expect_each(t, "packets sent back out of the router's input ra (BPF on ra egress)",
			tse_bpf_row(t, TSE_HOOK_BACK, TSE_FLOW_REDIRECTED), 1,
			&tse_duplicated, &tse_not_hairpinned);
	tse_expect_each(t, "copies the receiver got per packet",
			t->traffic.delivered[TSE_FLOW_REDIRECTED], 0, &tse_not_hairpinned,
			&tse_not_hairpinned);
	tse_expect(t, "packets rb sent on to vb (tx_packets)",
		   (long long)tse_moved(t, TSE_RB).tx, 0, &tse_not_hairpinned,
		   &tse_not_hairpinned);
	judge_hairpin_fields(t);
}

/* No ifb on the way: every kernel runs the program twice per packet and delivers it once. */
static int setup_resubmit(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return tse_count_at(t, TSE_VA, true, progs->tse_resubmit, 1) ?:
	       tse_count_at(t, TSE_VB, false, progs->tse_count_peer, 1);
}

static void judge_resubmit(struct tse_test *t)
{
	tse_expect_hook(t, "va egress program runs per packet, resubmitted once (BPF)",
			TSE_HOOK_REDIRECT, TSE_FLOW_REDIRECTED, 2);
	/* Its last run reads its own mark; a redirect to va leaves skb_iif 0. */
	tse_expect_sent_fields(t, TSE_HOOK_REDIRECT, TSE_VA, 0, 1, "va's egress");
	tse_expect_each(t, "entries into ifb per packet (BPF on its egress)",
			tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 0,
			&tse_misredirected, &tse_misredirected);
	judge_received_once(t);
}

/*
 * egress_mirred_nft_egress: egress_mirred under an nftables netdev egress chain on va, which
 * counts the test flow before tc's egress hook does. ifb marks what it re-injects
 * nf_skip_egress, so on every kernel the chain counts each packet once.
 */
#define NFT_CHAIN	"netdev tse_egress out"

static int setup_egress_mirred_nft_egress(struct tse_test *t)
{
	char cmds[192], err[256];

	snprintf(cmds, sizeof(cmds),
		 "add table netdev tse_egress { chain out { type filter hook egress device %s priority 0; udp dport %d counter; }; }\n",
		 tse_dev(t, TSE_VA), TSE_PORT);
	if (tse_run_batch(t->net.ns[TSE_NS_SENDER], "nft", cmds, err, sizeof(err)))
		return tse_setup_error(t, "nft: %s", err);
	return setup_egress_mirred(t);
}

/* The chain's counter, -1 where nft cannot list it. */
static long long nft_egress_packets(struct tse_test *t)
{
	static const char counter[] = "counter packets ";
	const char *p = NULL;
	char out[1024];

	if (!tse_run_listing(t->net.ns[TSE_NS_SENDER], "nft", "list chain " NFT_CHAIN "\n",
			     out, sizeof(out)))
		p = strstr(out, counter);
	if (p)
		return strtoll(p + strlen(counter), NULL, 10);
	tse_chomp(out);
	tse_note(t, "nft list chain " NFT_CHAIN ": %s", out);
	return -1;
}

static const struct tse_meaning nft_egress_again = {
	"reclassified",
	"netfilter's egress hook ran again for packets ifb re-injected: they lost nf_skip_egress"
};

static const struct tse_meaning nft_egress_missed = {
	"skipped", "netfilter's egress hook on va let test packets pass uncounted"
};

static void judge_egress_mirred_nft_egress(struct tse_test *t)
{
	judge_egress_mirred(t);
	tse_expect(t, "test packets va's nftables egress chain counted, fences aside",
		   nft_egress_packets(t) - t->traffic.fences, t->pkts, &nft_egress_again,
		   &nft_egress_missed);
}

/*
 * route_into_ifb: the sender's route to vb leads into ifb, so each datagram leaves its socket
 * by ifb itself. No redirect set skb->redirected: ifb's egress hook classifies it once, and
 * ifb_xmit() counts it in and frees it as a drop. Its socket is then charged for nothing.
 */
static int setup_route_into_ifb(struct tse_test *t)
{
	return tse_ip_queue(t, TSE_NS_SENDER, "route replace %s dev %s\n",
			    tse_addr(t, TSE_VB), tse_dev(t, TSE_IFB)) ?:
	       tse_tc_flush(t);
}

static const struct tse_meaning unredirected_sent = {
	"misredirected",
	"ifb sent on packets that no redirect gave it: only a redirected packet has a device to go back to"
};

static void judge_route_into_ifb(struct tse_test *t)
{
	struct tse_devstats ifb = tse_moved(t, TSE_IFB);

	tse_expect_hook(t, "ifb's egress classifier runs per packet (BPF)", TSE_HOOK_IFB,
			TSE_FLOW_REDIRECTED, 1);
	tse_expect_sent_fields(t, TSE_HOOK_IFB, TSE_IFB, 0, 0, "ifb's egress");
	tse_expect(t, "packets ifb took in (rx_packets)", (long long)ifb.rx, t->pkts,
		   &tse_misredirected, &tse_not_redirected);
	tse_expect(t, "packets ifb dropped as it took them in (rx_dropped)",
		   (long long)ifb.rx_dropped, t->pkts, &tse_misredirected, &unredirected_sent);
	tse_expect(t, "test packets vb received (veth rx_packets)",
		   (long long)tse_moved(t, TSE_VB).rx, 0, &unredirected_sent, &unredirected_sent);
}

#define PAIR_AT(ns)	{ .ifb_ns = (ns) }
#define ROUTER		{ .routed = true, .ifb_ns = TSE_NS_ROUTER }

/* What a point's site, device and source need, beyond u32, mirred and a root qdisc. */
#define TSE_F_SITE_CLSACT_MIRRED	0
#define TSE_F_SITE_CLSACT_BPF		0
#define TSE_F_SITE_TCX			TSE_F_TCX
#define TSE_F_SITE_ROOT			0
#define TSE_F_SITE_ROOT_CLSACT		0
#define TSE_F_UPPER_NONE		0
#define TSE_F_UPPER_VLAN		TSE_F_VLAN
#define TSE_F_UPPER_MACVLAN		TSE_F_MACVLAN
#define TSE_F_UPPER_BOND		TSE_F_BOND
#define TSE_F_UPPER_TUNNEL		TSE_F_TUNNEL
#define TSE_F_UPPER_BRIDGE		TSE_F_BRIDGE
#define TSE_F_UPPER_QINQ		TSE_F_QINQ
#define TSE_F_SOURCE_LOCAL		0
#define TSE_F_SOURCE_FORWARDED		0
#define TSE_F_SOURCE_BATCH		0
#define TSE_F_SOURCE_TWO_CPUS		TSE_F_TWO_CPUS

/*
 * Datagrams per flow, by source (0: TSE_PKTS). Two CPUs meet in ifb's queue lock only now
 * and then: each packet is a chance.
 */
#define TSE_PKTS_SOURCE_LOCAL		0
#define TSE_PKTS_SOURCE_FORWARDED	0
#define TSE_PKTS_SOURCE_BATCH		0
#define TSE_PKTS_SOURCE_TWO_CPUS	TSE_MAX_PKTS

#define TSE_GRID(n, site, sends, stages, dev, source, alone, agg)		\
	{ #n, { .upper = TSE_UPPER_##dev, .ifb_ns = TSE_NS_SENDER,		\
		.forwarded = TSE_SOURCE_##source == TSE_SOURCE_FORWARDED ||	\
			     TSE_SOURCE_##source == TSE_SOURCE_BATCH,		\
		.split_burst = TSE_SOURCE_##source == TSE_SOURCE_BATCH,	\
		.two_cpus = TSE_SOURCE_##source == TSE_SOURCE_TWO_CPUS,	\
		.ifb_in = TSE_STAGES_##stages == TSE_STAGES_TWO,		\
		.monitor = true, .tap = true, .aggregate = agg, .bare = true,	\
		.target = TSE_SENDS_##sends == TSE_SENDS_PLAIN,			\
		.target_has_vb_mac = TSE_SENDS_##sends == TSE_SENDS_PLAIN,	\
		.hairpin = TSE_SENDS_##sends == TSE_SENDS_INPUT },		\
	  TSE_F_MIRRED_U32 | TSE_F_ROOT_QDISC | TSE_F_SITE_##site |		\
	  TSE_F_UPPER_##dev | TSE_F_SOURCE_##source,				\
	  TSE_SOURCE_##source == TSE_SOURCE_BATCH ? TSE_UDP_BURST : TSE_UDP,	\
	  .pkts = TSE_PKTS_SOURCE_##source,					\
	  .copies = TSE_SENDS_##sends == TSE_SENDS_COPY,			\
	  .point = { TSE_SITE_##site, TSE_SENDS_##sends, TSE_STAGES_##stages,	\
		     TSE_UPPER_##dev, TSE_SOURCE_##source, alone, agg },		\
	  .prepare = tse_grid_prepare, .setup = tse_grid_setup,		\
	  .judge = tse_grid_judge },
#define TSE_ROW(n, ...)	{ #n, __VA_ARGS__ },

static const struct tse_scenario tse_table[] = {
#include "tse_table.h"
};

/* Each point a static assertion, made an expression by a struct inside sizeof. */
#undef TSE_GRID
#undef TSE_ROW
#define TSE_GRID(n, site, sends, stages, dev, source, alone, agg)		\
	sizeof(struct {								\
		_Static_assert(TSE_POINT_CAN_BE(TSE_SITE_##site,		\
				TSE_SENDS_##sends, TSE_STAGES_##stages,		\
				TSE_UPPER_##dev, TSE_SOURCE_##source, agg),	\
			#n " (" #site " " #sends " " #stages " " #dev " "	\
			#source " solo " #alone " aggregate " #agg		\
			"): values that do not meet (docs/grid.md)");		\
		char ok;							\
	}),
#define TSE_ROW(...)

static const size_t tse_points_can_be[] __maybe_unused = {
#include "tse_table.h"
};

int tse_scenario_count(void)
{
	return ARRAY_SIZE(tse_table);
}

const char *tse_scenario_name(int i)
{
	return tse_table[i].name;
}

const struct tse_scenario *tse_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tse_table); i++)
		if (!strcmp(tse_table[i].name, name))
			return &tse_table[i];
	return NULL;
}
