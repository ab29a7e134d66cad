// SPDX-License-Identifier: GPL-2.0
/* The grid's points (docs/grid.md): one setup and one judge for all, and the model. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <string.h>
#include <linux/if_packet.h>

#include "tse_result.h"
#include "tse_topology.h"
#include "tse_oracles.h"
#include "tse_grid.h"

#define UDP	17

static enum tse_dev site_dev(struct tse_test *t, enum tse_flow flow)
{
	if (flow == TSE_FLOW_SECOND)
		return TSE_VA2;
	return t->s->point.upper ? TSE_UP_A : TSE_VA;
}

static bool root_site(const struct tse_point *p)
{
	return p->site == TSE_SITE_ROOT || p->site == TSE_SITE_ROOT_CLSACT;
}

static bool two_stages(const struct tse_point *p)
{
	return p->stages == TSE_STAGES_TWO;
}

static bool lower_stage(const struct tse_point *p)
{
	return p->stages == TSE_STAGES_LOWER;
}

static bool root_redirects(const struct tse_point *p)
{
	return root_site(p) || two_stages(p);
}

static bool plain_target(const struct tse_point *p)
{
	return p->sends == TSE_SENDS_PLAIN;
}

static bool hairpin(const struct tse_point *p)
{
	return p->sends == TSE_SENDS_INPUT;
}

static bool sent_away(const struct tse_point *p)
{
	return plain_target(p) || hairpin(p);
}

static bool own_device(const struct tse_point *p)
{
	return p->sends == TSE_SENDS_OWN;
}

static bool forwarded(const struct tse_point *p)
{
	return p->source == TSE_SOURCE_FORWARDED || p->source == TSE_SOURCE_BATCH;
}

static bool batch(const struct tse_point *p)
{
	return p->source == TSE_SOURCE_BATCH;
}

static bool has_clsact(const struct tse_point *p)
{
	return p->site != TSE_SITE_TCX && p->site != TSE_SITE_ROOT;
}

static bool bpf_site(const struct tse_point *p)
{
	return p->site == TSE_SITE_CLSACT_BPF || p->site == TSE_SITE_TCX;
}

static enum tse_hook site_hook(const struct tse_point *p)
{
	switch (p->site) {
	case TSE_SITE_CLSACT_BPF:
	case TSE_SITE_TCX:
		return TSE_HOOK_REDIRECT;
	case TSE_SITE_ROOT:
		return TSE_HOOK_REINJECT;
	default:
		return TSE_HOOK_HEAD;
	}
}

/* Solo points have no gate on ifb: the site program or the root counter breaks loops. */
void tse_grid_prepare(struct tse_test *t)
{
	const struct tse_point *p = &t->s->point;

	if (p->solo)
		t->net.breaker = root_site(p) ? TSE_HOOK_REINJECT : site_hook(p);
}

static bool copies(const struct tse_point *p)
{
	return p->sends == TSE_SENDS_COPY;
}

static const char *mirred_verb(const struct tse_point *p)
{
	return copies(p) ? "mirror" : "redirect";
}

static enum tse_dev site_target(const struct tse_point *p)
{
	if (hairpin(p))
		return TSE_VI;
	return plain_target(p) ? TSE_VA2 : TSE_IFB;
}

static bool vlan_upper(const struct tse_point *p)
{
	return p->upper == TSE_UPPER_VLAN || p->upper == TSE_UPPER_QINQ;
}

static const char *tag_protocol(const struct tse_point *p)
{
	return p->upper == TSE_UPPER_QINQ ? "protocol 802.1ad" : "protocol 802.1q";
}

/* Below a vlan, va's tag is out of band: tc sees its TPID (tc_skb_protocol()), u32 IP. */
static int root_mirred(struct tse_test *t, enum tse_dev dev, enum tse_flow flow,
		       const char *verb, enum tse_dev target)
{
	bool tagged = dev == TSE_VA && vlan_upper(&t->s->point);
	char match[160];

	tse_u32_match(t, UDP, TSE_PORT + flow, match, sizeof(match));
	return tse_tc_queue(t, TSE_NS_SENDER,
			    "filter add dev %s parent 1: prio 2 %s%s classid 1:%d action mirred egress %s dev %s\n",
			    tse_dev(t, dev), tagged ? tag_protocol(&t->s->point) : "",
			    tagged ? strstr(match, " u32 ") : match, TSE_CHOSEN_CLASS, verb,
			    tse_dev(t, target));
}

static int root_redirect(struct tse_test *t, enum tse_dev dev, enum tse_flow flow)
{
	const struct tse_point *p = &t->s->point;

	if (two_stages(p))
		return root_mirred(t, dev, flow, "redirect", TSE_IFB_IN);
	return root_mirred(t, dev, flow, mirred_verb(p), site_target(p));
}

static int site_filters(struct tse_test *t, enum tse_dev dev, enum tse_flow flow)
{
	const struct tse_point *p = &t->s->point;

	if (has_clsact(p) &&
	    tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s clsact\n", tse_dev(t, dev)))
		return -1;
	if (tse_root_qdisc_queue(t, dev))
		return -1;
	if (p->site == TSE_SITE_CLSACT_MIRRED &&
	    tse_mirred_filter_queue(t, dev, "egress", 2, UDP, TSE_PORT + flow,
				    mirred_verb(p), site_target(p)))
		return -1;
	return root_redirects(p) ? root_redirect(t, dev, flow) : 0;
}

static struct bpf_program *bpf_site_program(struct tse_test *t, bool tcx)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	switch (t->s->point.sends) {
	case TSE_SENDS_COPY:
		return tcx ? progs->tse_clone_ifb_tcx : progs->tse_clone_ifb;
	case TSE_SENDS_PLAIN:
	case TSE_SENDS_INPUT:	/* to cfg's target: va2 or vi (set_target()) */
		return tcx ? progs->tse_redirect_plain_tcx : progs->tse_redirect_plain;
	case TSE_SENDS_OWN:
		return tcx ? progs->tse_resubmit_own_tcx : progs->tse_resubmit_own;
	default:
		return tcx ? progs->tse_redirect_ifb_tcx : progs->tse_redirect_ifb;
	}
}

static int site_programs(struct tse_test *t, enum tse_dev dev)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	if (tse_count_at_root(t, dev, progs->tse_count_reinject))
		return -1;
	switch (t->s->point.site) {
	case TSE_SITE_CLSACT_MIRRED:
	case TSE_SITE_ROOT_CLSACT:
		return tse_count_at(t, dev, true, progs->tse_count_head, 1);
	case TSE_SITE_CLSACT_BPF:
		return tse_count_at(t, dev, true, bpf_site_program(t, false), 1);
	case TSE_SITE_TCX:
		return tse_attach_tcx(t, dev, bpf_site_program(t, true));
	default:
		return 0;
	}
}

/* vb gets a tunnel's outer packet, a vlan's tagged frame: u32's "protocol ip" misses both. */
static bool peer_u32_matches(const struct tse_point *p)
{
	return p->upper != TSE_UPPER_TUNNEL && !vlan_upper(p);
}

static bool floods(const struct tse_point *p)
{
	return p->upper == TSE_UPPER_BRIDGE;
}

/* A tunnel's packet, with no link-layer header, would reach vd as garbage; a bridge floods vd. */
static bool mirrors(const struct tse_point *p)
{
	return p->upper != TSE_UPPER_TUNNEL && !floods(p);
}

static int lower_filters(struct tse_test *t)
{
	if (!t->s->point.upper)
		return 0;
	if (tse_root_qdisc_queue(t, TSE_VA))
		return -1;
	if (!lower_stage(&t->s->point))
		return 0;
	return root_mirred(t, TSE_VA, TSE_FLOW_REDIRECTED, "redirect", TSE_IFB);
}

static int observer_filters(struct tse_test *t, enum tse_dev dev)
{
	char match[160], gact[48] = "", mirror[64] = "";

	tse_u32_match(t, UDP, TSE_PORT, match, sizeof(match));
	if (t->net.root_gact)
		snprintf(gact, sizeof(gact), " action gact pipe index %d", TSE_GACT_INDEX);
	if (mirrors(&t->s->point))
		snprintf(mirror, sizeof(mirror), " action mirred egress mirror dev %s",
			 tse_dev(t, TSE_VC));
	if (tse_tc_queue(t, TSE_NS_SENDER,
			 "filter add dev %s parent 1: prio 3 %s classid 1:%d%s%s\n",
			 tse_dev(t, dev), match, TSE_CHOSEN_CLASS, mirror, gact))
		return -1;
	t->net.peer_gact = t->net.root_gact && peer_u32_matches(&t->s->point);
	return t->net.peer_gact ?
	       tse_tc_queue(t, TSE_NS_RECEIVER, "filter add dev %s ingress prio 2 %s %s %d\n",
			    tse_dev(t, TSE_VB), match, "action gact pipe index",
			    TSE_PEER_GACT_INDEX) : 0;
}

static int target_qdisc(struct tse_test *t)
{
	if (!sent_away(&t->s->point))
		return 0;
	return tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s clsact\n",
			    tse_dev(t, site_target(&t->s->point)));
}

static int observer_programs(struct tse_test *t)
{
	typeof(t->net.skel->progs) *progs = &t->net.skel->progs;

	return (mirrors(&t->s->point) || floods(&t->s->point) ?
		tse_count_at(t, TSE_VD, false, progs->tse_count_mirror, 1) : 0) ?:
	       (sent_away(&t->s->point) ?
		tse_count_at(t, site_target(&t->s->point), true, progs->tse_count_target, 1) : 0) ?:
	       tse_count_at(t, TSE_VB, false, progs->tse_count_peer, 1) ?:
	       (t->s->point.upper ? tse_count_at_root(t, TSE_VA, progs->tse_count_lower) : 0);
}

/* An ingress qdisc, not clsact: it leaves the egress static key alone. */
static int split_qdisc(struct tse_test *t)
{
	if (!batch(&t->s->point))
		return 0;
	return tse_tc_queue(t, TSE_NS_SENDER, "qdisc add dev %s ingress\n", tse_dev(t, TSE_VI));
}

static int split_program(struct tse_test *t)
{
	if (!batch(&t->s->point))
		return 0;
	return tse_count_at(t, TSE_VI, false, t->net.skel->progs.tse_split_flows, 1);
}

/* One tc batch per namespace: tc is most of a point's setup time under an emulated CPU. */
int tse_grid_setup(struct tse_test *t)
{
	enum tse_dev dev = site_dev(t, TSE_FLOW_REDIRECTED);
	bool agg = t->s->shape.aggregate;

	return site_filters(t, dev, TSE_FLOW_REDIRECTED) ?:
	       (agg ? site_filters(t, TSE_VA2, TSE_FLOW_SECOND) : 0) ?:
	       lower_filters(t) ?: observer_filters(t, dev) ?: target_qdisc(t) ?:
	       split_qdisc(t) ?: tse_tc_flush(t) ?:
	       site_programs(t, dev) ?: (agg ? site_programs(t, TSE_VA2) : 0) ?:
	       observer_programs(t) ?: split_program(t);
}

enum tse_obs {
	OBS_LOOPED,
	OBS_IFB_DROPPED,
	OBS_HOOK,
	OBS_CLSACT,
	OBS_ROOT,
	OBS_CLASS,
	OBS_DEFAULT_CLASS,
	OBS_MIRROR,
	OBS_ROOT_GACT,
	OBS_LOWER,
	OBS_FLOOD,
	OBS_PEER,
	OBS_PEER_GACT,
	OBS_TAP,
	OBS_IFB_GATE,
	OBS_IFB_RX,
	OBS_IFB2_GATE,
	OBS_IFB2_RX,
	OBS_IFB2_DROPPED,
	OBS_DELIVERED,
	OBS_PEER_RX,
	OBS_AGG_SITE,
	OBS_AGG_ROOT,
	OBS_AGG_CLSACT,
	OBS_AGG_RX,
	OBS_AGG_DELIVERED,
	OBS_TARGET,
	OBS_TARGET_RX,
	OBS_BACK,
	OBS_SPLIT,
	OBS_CROSSED,
	OBS_COUNT,
};

struct tse_rule {
	int value;		/* per packet; -1: the observer does not apply */
	const char *why;
	const struct tse_meaning *fewer;	/* if not the observer's own */
	const struct tse_meaning *more;		/* the same */
};

static bool has_egress_hook(const struct tse_point *p)
{
	return p->site != TSE_SITE_ROOT;
}

static bool has_upper(const struct tse_point *p)
{
	return p->upper != TSE_UPPER_NONE;
}

static bool has_gate(const struct tse_point *p)
{
	return !p->solo;
}

static bool has_second_gate(const struct tse_point *p)
{
	return !p->solo && two_stages(p);
}

static bool aggregates(const struct tse_point *p)
{
	return p->aggregate;
}

/* An observer: what it counts, at which points, and the words a count over or under gives. */
struct tse_observer {
	const char *key;
	const char *what;
	bool (*applies)(const struct tse_point *p);	/* NULL: at every point */
	const struct tse_meaning *more, *less;
};

static const struct tse_observer observers[OBS_COUNT] = {
	[OBS_LOOPED] = { "looped", "packets stopped by the loop breaker",
			 NULL, &tse_looped, &tse_looped },
	[OBS_IFB_DROPPED] = { "ifb-dropped", "packets ifb dropped (rx_dropped + tx_dropped)",
			      NULL, &tse_dropped_by_ifb, &tse_dropped_by_ifb },
	[OBS_HOOK] = { "hook", "runs of the egress hook's first program per packet (BPF)",
		       has_egress_hook, &tse_reclassified, &tse_skipped },
	[OBS_CLSACT] = { "clsact", "test packets the clsact qdisc counted",
			 has_clsact, &tse_reclassified, &tse_skipped },
	[OBS_ROOT] = { "root", "runs of the root qdisc's first filter per packet (BPF)",
		       NULL, &tse_reclassified, &tse_skipped },
	[OBS_CLASS] = { "class", "packets class 1:3 (the filter's) sent, fences aside",
			NULL, &tse_duplicated, &tse_misclassified },
	[OBS_DEFAULT_CLASS] = { "default-class", "packets default class 1:2 sent",
				NULL, &tse_misclassified, &tse_misclassified },
	[OBS_MIRROR] = { "root-mirror",
			 "copies of each packet the second root filter mirrored (BPF)",
			 mirrors, &tse_actions_repeated, &tse_actions_skipped },
	[OBS_ROOT_GACT] = { "root-gact", "packets the second root filter's gact counted",
			    NULL, &tse_actions_repeated, &tse_actions_skipped },
	[OBS_LOWER] = { "lower", "runs of va's root qdisc counter, below the upper device (BPF)",
			has_upper, &tse_duplicated, &tse_not_delivered },
	[OBS_FLOOD] = { "flood", "copies of each packet the bridge flooded to vc, at vd (BPF)",
			floods, &tse_duplicated, &tse_not_delivered },
	[OBS_PEER] = { "peer", "runs of vb's ingress counter per packet (BPF)",
		       NULL, &tse_reclassified, &tse_skipped },
	[OBS_PEER_GACT] = { "peer-gact", "packets vb's ingress u32 + gact counted, fences aside",
			    peer_u32_matches, &tse_reclassified, &tse_skipped },
	[OBS_TAP] = { "tap", "copies a packet socket on the device saw leave per packet",
		      NULL, &tse_duplicated, &tse_not_delivered },
	[OBS_IFB_GATE] = { "ifb-gate", "entries into ifb per packet (BPF on its egress)",
			   has_gate, &tse_looped, &tse_not_redirected },
	[OBS_IFB_RX] = { "ifb-rx", "test packets ifb received (rx_packets), fences aside",
			 NULL, &tse_looped, &tse_not_redirected },
	[OBS_IFB2_GATE] = { "ifb2-gate",
			    "entries into the second ifb per packet (BPF on its egress)",
			    has_second_gate, &tse_looped, &tse_not_redirected },
	[OBS_IFB2_RX] = { "ifb2-rx", "test packets the second ifb received, fences aside",
			  two_stages, &tse_looped, &tse_not_redirected },
	[OBS_IFB2_DROPPED] = { "ifb2-dropped", "packets the second ifb dropped",
			       two_stages, &tse_dropped_by_ifb, &tse_dropped_by_ifb },
	[OBS_DELIVERED] = { "delivered", "copies the receiver got per packet",
			    NULL, &tse_duplicated, &tse_not_delivered },
	[OBS_PEER_RX] = { "peer-rx", "packets vb received (veth rx_packets), fences aside",
			  NULL, &tse_wrong_device, &tse_not_delivered },
	[OBS_AGG_SITE] = { "aggregate-hook", "runs of va2's egress hook program per packet (BPF)",
			   aggregates, &tse_reclassified, &tse_skipped },
	[OBS_AGG_CLSACT] = { "aggregate-clsact", "packets of its flow va2's clsact qdisc counted",
			     aggregates, &tse_reclassified, &tse_skipped },
	[OBS_AGG_ROOT] = { "aggregate-root",
			   "runs of va2's root qdisc first filter per packet (BPF)",
			   aggregates, &tse_reclassified, &tse_skipped },
	[OBS_AGG_RX] = { "aggregate-rx", "packets vb2 received (veth rx_packets)",
			 aggregates, &tse_duplicated, &tse_wrong_device },
	[OBS_AGG_DELIVERED] = { "aggregate-delivered", "copies vb2's receiver got per packet",
				aggregates, &tse_duplicated, &tse_wrong_device },
	[OBS_TARGET] = { "target",
			 "runs of the egress program of va2, or of vi in a hairpin, per packet (BPF)",
			 sent_away, &tse_reclassified, &tse_skipped },
	[OBS_TARGET_RX] = { "target-rx", "packets vb2 received (veth rx_packets), fences aside",
			    plain_target, &tse_duplicated, &tse_not_redirected },
	[OBS_BACK] = { "back", "packets the sender sent back out of its input device vi (tx)",
		       forwarded, &tse_wrong_device, &tse_not_delivered },
	[OBS_CROSSED] = { "crossed",
			  "packets of va2's flow vb's ingress counter saw, per packet (BPF)",
			  aggregates, &tse_wrong_home, &tse_wrong_home },
	[OBS_SPLIT] = { "split",
			"datagrams of either flow vi's ingress program saw, per packet (BPF)",
			batch, &tse_duplicated, &tse_not_delivered },
};

static const char once_per_hook[] =
	"an egress hook classifies a packet once: the hook skips what ifb marked and re-injects";
static const char stock_twice[] =
	"stock: egress hooks classify packets ifb re-injects again";
static const char stock_iif[] =
	"stock: bpf_redirect() leaves skb_iif 0 and ifb drops the packet";
static const char root_twice[] =
	"a root qdisc classifies before ifb and after; the mark skips the redirect's actions";
static const char second_stage_twice[] =
	"the root qdisc classifies before the second ifb and after; the mark skips its redirect";
static const char after_ifb[] =
	"only the packet ifb re-injected reaches the root qdisc, once";
static const char actions_once[] = "actions run once per packet";
static const char not_reached[] =
	"the redirecting filter matches first, and returns its class: the second is never reached";
static const char chosen_class[] = "the packet leaves by the class its filter chose";
static const char mark_gone[] =
	"the mark is gone after the first hook or action it meets: later hooks classify once";
static const char delivered_once[] = "each packet is delivered once, by its own device";
static const char no_loop[] = "no packet loops";
static const char ifb_keeps[] = "ifb returns every packet it gets";
static const char enters_once[] = "each packet enters ifb once";
static const char mirror_dropped[] =
	"ifb drops a copy mirred mirrored: a mirror does not mark it redirected";
static const char clone_dropped[] =
	"ifb drops a copy bpf_clone_redirect() made: its skb_iif is 0 (the fix keeps it so)";
static const char original_once[] =
	"the packet itself goes its way once: only its copy went to ifb";
static const char lower_twice[] =
	"va's root qdisc classifies before ifb and after; the mark skips its redirect then";
static const char enters_per_device[] =
	"each packet enters ifb once from each device that redirects it: the upper one and va";
static const char flooded_once[] =
	"the bridge floods each packet it sends to both its ports once, after ifb";
static const char by_route[] =
	"a forwarded packet leaves by the device its route names, never by its input device vi";
static const char clone_back[] =
	"ifb returns a bpf_clone_redirect() copy to the packet's own skb_iif, its input device vi";
static const char plain_hook_once[] =
	"the hook classifies the packet once: it sends it to another device, never to return";
static const char plain_root_once[] =
	"the root qdisc classifies the packet once: its filter sends it to another device";
static const char plain_away[] =
	"the site sends the packet to va2: it never reaches the site's queue, va below, ifb or vb";
static const char plain_target_once[] =
	"the plain device's egress classifies the packet once: nothing marks it, nothing skips it";
static const char plain_delivered[] =
	"the packet leaves by the plain device once, and its peer, vb2, takes it for the receiver";
static const char plain_no_ifb[] = "nothing reaches ifb";
static const char hairpin_away[] =
	"the site sends the packet back out of vi: it never reaches its queue, ifb or vb";
static const char hairpin_back[] =
	"the site's redirect sends each forwarded packet back out of vi, the device it came in by";
static const char hairpin_target_once[] =
	"vi's egress classifies the packet once: nothing marks it, nothing skips it";
static const char own_twice[] =
	"the program sees the packet it resubmitted: no ifb re-injected it, so no hook skips it";
static const char own_root_once[] =
	"the root qdisc classifies the resubmitted packet once";
static const char own_no_ifb[] = "the packet goes back to its own device: nothing reaches ifb";
static const char own_from_below[] =
	"each packet enters ifb once, from va below: the site sends it back to its own device";
static const char split_once[] =
	"vi's ingress program sees each datagram of the burst once, the second flow's too";
static const char own_home[] =
	"ifb returns each packet to the device that sent it: none of va2's reaches vb";

/* va2's observers show what the first device's do. */
static enum tse_obs twin(enum tse_obs o)
{
	switch (o) {
	case OBS_AGG_SITE:
		return OBS_HOOK;
	case OBS_AGG_CLSACT:
		return OBS_CLSACT;
	case OBS_AGG_ROOT:
		return OBS_ROOT;
	default:
		return o;
	}
}

/* An observer counts only what its point builds; va2's, only where the first device's does. */
static bool applies(const struct tse_point *p, enum tse_obs o)
{
	bool (*at)(const struct tse_point *p) = observers[o].applies;

	if (at && !at(p))
		return false;
	return twin(o) == o || applies(p, twin(o));
}

/*
 * One rule of the model: at a point where @when holds (NULL: at every point), observer @obs
 * counts @value per packet, one more with aggregate if @per_flow, for the reason @why. The
 * first row of a point's tables that names the observer, or OBS_ANY, gives its rule.
 */
#define OBS_ANY	OBS_COUNT

struct rule_row {
	enum tse_obs obs;
	bool (*when)(const struct tse_point *p);
	int value;
	const char *why;
	bool per_flow;
	const struct tse_meaning *fewer, *more;
};

static bool bpf_copy(const struct tse_point *p)
{
	return copies(p) && bpf_site(p);
}

/* A forwarded packet's BPF copy has an input device to go back to. */
static bool forwarded_bpf_copy(const struct tse_point *p)
{
	return bpf_copy(p) && forwarded(p);
}

static bool no_second_stage(const struct tse_point *p)
{
	return !two_stages(p);
}

static bool copy_no_second_stage(const struct tse_point *p)
{
	return copies(p) && !two_stages(p);
}

/* Before the site: nothing the site does changes them. */
static const struct rule_row before_site_rules[] = {
	{ OBS_SPLIT,		NULL,			2, split_once },
	/* No kernel, stock included, sends va2's flow to vb: nothing to model. */
	{ OBS_CROSSED,		NULL,			0, own_home },
	{ }
};

/* PACKET and COPY: the site sends the packet, or a copy, to ifb. */
static const struct rule_row ifb_rules[] = {
	{ OBS_LOOPED,		NULL,			0, no_loop },
	{ OBS_IFB_DROPPED,	forwarded_bpf_copy,	0, clone_back },
	{ OBS_IFB_DROPPED,	bpf_copy,		1, clone_dropped, true, &tse_duplicated },
	{ OBS_IFB_DROPPED,	copies,			1, mirror_dropped, true, &tse_duplicated },
	{ OBS_IFB_DROPPED,	NULL,			0, ifb_keeps },
	{ OBS_HOOK,		NULL,			1, once_per_hook },
	{ OBS_CLSACT,		NULL,			1, once_per_hook },
	{ OBS_ROOT,		copy_no_second_stage,	1, original_once },
	{ OBS_ROOT,		root_site,		2, root_twice },
	{ OBS_ROOT,		two_stages,		2, second_stage_twice },
	{ OBS_ROOT,		NULL,			1, after_ifb },
	{ OBS_CLASS,		NULL,			1, chosen_class },
	{ OBS_DEFAULT_CLASS,	NULL,			0, chosen_class },
	{ OBS_MIRROR,		root_redirects,		0, not_reached },
	{ OBS_MIRROR,		NULL,			1, actions_once },
	{ OBS_ROOT_GACT,	root_redirects,		0, not_reached },
	{ OBS_ROOT_GACT,	NULL,			1, actions_once },
	{ OBS_LOWER,		lower_stage,		2, lower_twice },
	{ OBS_LOWER,		NULL,			1, mark_gone },
	{ OBS_FLOOD,		NULL,			1, flooded_once },
	{ OBS_PEER,		NULL,			1, mark_gone },
	{ OBS_PEER_GACT,	NULL,			1, mark_gone },
	{ OBS_TAP,		NULL,			1, mark_gone },
	{ OBS_IFB_GATE,		lower_stage,		2, enters_per_device },
	{ OBS_IFB_GATE,		NULL,			1, enters_once },
	{ OBS_IFB_RX,		lower_stage,		2, enters_per_device, true },
	{ OBS_IFB_RX,		NULL,			1, enters_once, true },
	{ OBS_IFB2_GATE,	NULL,			1, enters_once },
	{ OBS_IFB2_RX,		NULL,			1, enters_once, true },
	{ OBS_IFB2_DROPPED,	NULL,			0, ifb_keeps },
	{ OBS_DELIVERED,	NULL,			1, delivered_once },
	{ OBS_PEER_RX,		NULL,			1, delivered_once },
	{ OBS_AGG_RX,		NULL,			1, delivered_once },
	{ OBS_AGG_DELIVERED,	NULL,			1, delivered_once },
	{ OBS_BACK,		forwarded_bpf_copy,	1, clone_back, true, &tse_duplicated },
	{ OBS_BACK,		NULL,			0, by_route },
	{ }
};

/* OWN: the packet goes back to its own device; ifb_rules say the rest. */
static const struct rule_row own_rules[] = {
	{ OBS_HOOK,		NULL,			2, own_twice },
	{ OBS_CLSACT,		NULL,			2, own_twice },
	{ OBS_ROOT,		no_second_stage,	1, own_root_once },
	{ OBS_IFB_GATE,		lower_stage,		1, own_from_below },
	{ OBS_IFB_GATE,		NULL,			0, own_no_ifb },
	{ OBS_IFB_RX,		lower_stage,		1, own_from_below },
	{ OBS_IFB_RX,		NULL,			0, own_no_ifb },
	{ OBS_IFB_DROPPED,	NULL,			0, own_no_ifb },
	{ }
};

/* PLAIN and INPUT: the site sends the packet to another device, never to return. */
static const struct rule_row away_site_rules[] = {
	{ OBS_LOOPED,		NULL,			0, no_loop },
	{ OBS_IFB_DROPPED,	NULL,			0, plain_no_ifb },
	{ OBS_HOOK,		NULL,			1, plain_hook_once },
	{ OBS_CLSACT,		NULL,			1, plain_hook_once },
	{ OBS_ROOT,		root_site,		1, plain_root_once },
	{ OBS_ROOT,		NULL,			0, plain_away },
	{ }
};

static const struct rule_row plain_rules[] = {
	{ OBS_TARGET,		NULL,			1, plain_target_once },
	{ OBS_TARGET_RX,	NULL,			1, plain_delivered },
	{ OBS_DELIVERED,	NULL,			1, plain_delivered },
	{ OBS_BACK,		NULL,			0, by_route },
	{ OBS_ANY,		NULL,			0, plain_away },
	{ }
};

/* Out of vi, where only the back observer counts it (va2's too). */
static const struct rule_row hairpin_rules[] = {
	{ OBS_BACK,		NULL,			1, hairpin_back, true,
				&tse_not_hairpinned, &tse_duplicated },
	{ OBS_TARGET,		NULL,			1, hairpin_target_once },
	{ OBS_ANY,		NULL,			0, hairpin_away },
	{ }
};

static const struct rule_row *const *correct_tables(const struct tse_point *p)
{
	static const struct rule_row *const plain[] = {
		before_site_rules, away_site_rules, plain_rules, NULL
	};
	static const struct rule_row *const input[] = {
		before_site_rules, away_site_rules, hairpin_rules, NULL
	};
	static const struct rule_row *const own[] = {
		before_site_rules, own_rules, ifb_rules, NULL
	};
	static const struct rule_row *const to_ifb[] = {
		before_site_rules, ifb_rules, NULL
	};

	if (plain_target(p))
		return plain;
	if (hairpin(p))
		return input;
	return own_device(p) ? own : to_ifb;
}

/* The first row of the point's tables that gives observer @o a rule there. */
static const struct rule_row *first_row(const struct tse_point *p, enum tse_obs o)
{
	const struct rule_row *const *table;
	const struct rule_row *r;

	for (table = correct_tables(p); *table; table++)
		for (r = *table; r->why; r++)
			if ((r->obs == o || r->obs == OBS_ANY) && (!r->when || r->when(p)))
				return r;
	return NULL;
}

static struct tse_rule correct_rule(const struct tse_point *p, enum tse_obs o)
{
	const struct rule_row *r = applies(p, o) ? first_row(p, twin(o)) : NULL;

	if (!r)
		return (struct tse_rule){ -1 };
	return (struct tse_rule){ r->value + (r->per_flow && p->aggregate), r->why, r->fewer,
				  r->more };
}

static const char stock_loops[] =
	"stock: the site's action consumes ifb_in's mark, so the root filter loops to ifb_in";
static const char stock_loop_runs[] =
	"stock: the hook classifies the packet on each pass, until the loop breaker drops it";
static const char stock_clones_again[] =
	"stock: the program copies what ifb_in returns; ifb keeps that copy, ifb_in drops it";

/*
 * Stock, two stages behind mirred: the site's u32 + mirred consumes ifb_in's mark, so the root
 * filter redirects again until the loop breaker drops the packet. The breaker counts entries
 * into an ifb; in solo points the site program's runs, one more than the root's.
 */
static struct tse_rule stock_loop_rule(const struct tse_point *p, enum tse_obs o,
				       struct tse_rule r)
{
	int roots = TSE_LOOP_LIMIT + copies(p) - p->solo;

	switch (o) {
	case OBS_LOOPED:
		return (struct tse_rule){ 1 + p->aggregate, stock_loops };
	case OBS_HOOK:
	case OBS_CLSACT:
		return (struct tse_rule){ TSE_LOOP_LIMIT + 1, stock_loop_runs };
	case OBS_ROOT:
	case OBS_IFB2_GATE:
		return (struct tse_rule){ roots, stock_loops };
	case OBS_IFB2_RX:
		/* The gate, where there is one, drops the last entry. */
		return (struct tse_rule){ (roots - !p->solo) * (1 + p->aggregate), stock_loops };
	case OBS_IFB_GATE:
	case OBS_IFB_RX:
	case OBS_IFB_DROPPED:
	case OBS_IFB2_DROPPED:
		return r;
	default:
		return (struct tse_rule){ 0, stock_loops };
	}
}

/* Stock, a BPF copy and two stages: the program copies twice per packet. */
static struct tse_rule stock_clone_rule(const struct tse_point *p, enum tse_obs o,
					struct tse_rule r)
{
	switch (o) {
	case OBS_HOOK:
	case OBS_CLSACT:
	case OBS_IFB_GATE:
	case OBS_IFB2_GATE:
		return (struct tse_rule){ 2, stock_clones_again };
	case OBS_IFB_RX:
	case OBS_IFB2_RX:
		return (struct tse_rule){ 2 * (1 + p->aggregate), stock_clones_again };
	case OBS_IFB2_DROPPED:
		return (struct tse_rule){ 1 + p->aggregate, stock_clones_again };
	default:
		return r;
	}
}

static bool counts_site_hook(enum tse_obs o)
{
	return o == OBS_HOOK || o == OBS_CLSACT || o == OBS_AGG_SITE || o == OBS_AGG_CLSACT;
}

static const char stock_own_again[] =
	"stock: the hook classifies again what the second ifb returns, a third run";

/* Stock, back to its own device: with a second stage the hook sees what ifb_in returns. */
static struct tse_rule own_stock_rule(const struct tse_point *p, enum tse_obs o,
				      struct tse_rule r)
{
	if (counts_site_hook(o) && two_stages(p))
		return (struct tse_rule){ 3, stock_own_again };
	return r;
}

static const char stock_back[] =
	"stock: bpf_redirect() keeps skb_iif vi, the input device: ifb sends the packet back there";

/* Stock bpf_redirect(): ifb drops a local packet (skb_iif 0), returns a forwarded one to vi. */
static struct tse_rule stock_bpf_rule(const struct tse_point *p, enum tse_obs o,
				      struct tse_rule r)
{
	const char *why = forwarded(p) ? stock_back : stock_iif;
	int lost = 1 + p->aggregate;

	switch (o) {
	case OBS_IFB_GATE:
	case OBS_IFB_RX:
		/* What ifb dropped or sent back never reached va's redirect. */
		if (lower_stage(p))
			return (struct tse_rule){ o == OBS_IFB_RX ? lost : 1, why };
		return r;
	case OBS_HOOK:
	case OBS_CLSACT:
	case OBS_LOOPED:
	case OBS_DEFAULT_CLASS:
		return r;
	case OBS_IFB_DROPPED:
		return forwarded(p) ? r : (struct tse_rule){ lost, why };
	case OBS_BACK:
		return (struct tse_rule){ lost, why };
	default:
		return (struct tse_rule){ 0, why };
	}
}

/* Only where stock differs; a copy point is stock's too, unless a second stage returns it. */
static struct tse_rule stock_rule(const struct tse_point *p, enum tse_obs o)
{
	struct tse_rule r = correct_rule(p, o);
	bool dropped = bpf_site(p);

	/* Nothing passes ifb where the site sends the packet away. */
	if (r.value < 0 || sent_away(p) || o == OBS_SPLIT || o == OBS_CROSSED)
		return r;
	if (own_device(p))
		return own_stock_rule(p, o, r);
	if (o == OBS_AGG_SITE || o == OBS_AGG_ROOT || o == OBS_AGG_CLSACT)
		return stock_rule(p, twin(o));
	if (two_stages(p) && !dropped)
		return stock_loop_rule(p, o, r);
	if (two_stages(p) && copies(p))
		return stock_clone_rule(p, o, r);
	if (copies(p))
		return r;
	if (dropped)
		return stock_bpf_rule(p, o, r);
	if (o == OBS_HOOK || o == OBS_CLSACT)
		return (struct tse_rule){ 2, stock_twice };
	return r;
}

/* A failure that shows what stock shows says stock's rule. */
static void set_stock(struct tse_check *c, long long value, struct tse_rule want,
		      struct tse_rule stock)
{
	c->stock = value;
	if (!tse_check_ok(c) && stock.why != want.why && c->got == c->stock)
		c->meaning = stock.why;
}

static void observe(struct tse_test *t, enum tse_obs o, const unsigned int *row,
		    long long total)
{
	const struct tse_point *p = &t->s->point;
	struct tse_rule want = correct_rule(p, o), stock = stock_rule(p, o);
	const struct tse_observer *obs = &observers[o];
	struct tse_meaning more = { (want.more ?: obs->more)->word, want.why };
	struct tse_meaning less = { (want.fewer ?: obs->less)->word, want.why };
	int n = row ? 1 : t->pkts;
	char where[40];
	struct tse_check *c;

	if (want.value < 0)
		return;
	snprintf(where, sizeof(where), "model.%s", obs->key);
	if (row)
		c = __tse_expect_each(where, t, obs->what, row, want.value, &more, &less);
	else
		c = __tse_expect(where, t, obs->what, total, (long long)want.value * n,
				 &more, &less);
	if (c)
		set_stock(c, (long long)stock.value * n, want, stock);
}

static long long sum(const unsigned int *row, int n)
{
	long long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += row[i];
	return s;
}

/* Sent away, the packets take the fences along: u32 matches them, the program sends them on. */
static int fences_past_site(struct tse_test *t)
{
	return sent_away(&t->s->point) ? 0 : t->traffic.fences;
}

/* The fence takes the test packets' way into ifb only where u32 sends it there. */
static int site_fences(struct tse_test *t)
{
	return bpf_site(&t->s->point) ? 0 : fences_past_site(t);
}

static int fences_into_ifb(struct tse_test *t)
{
	return site_fences(t) + (lower_stage(&t->s->point) ? fences_past_site(t) : 0);
}

/* Only the first flow has a fence: the second's packets each have an outcome before it goes. */
static void observe_links(struct tse_test *t)
{
	observe(t, OBS_IFB_RX, NULL, (long long)tse_moved(t, TSE_IFB).rx - fences_into_ifb(t));
	if (two_stages(&t->s->point)) {
		/* The second stage's u32 sends the fence to ifb_in too. */
		observe(t, OBS_IFB2_RX, NULL,
			(long long)tse_moved(t, TSE_IFB_IN).rx - fences_past_site(t));
		observe(t, OBS_IFB2_DROPPED, NULL, (long long)tse_moved(t, TSE_IFB_IN).dropped);
	}
	observe(t, OBS_PEER_RX, NULL, (long long)tse_moved(t, TSE_VB).rx - fences_past_site(t));
	observe(t, OBS_AGG_RX, NULL, (long long)tse_moved(t, TSE_VB2).rx);
	/* A plain target takes every fence: u32 and the program send them along. */
	observe(t, OBS_TARGET_RX, NULL, (long long)tse_moved(t, TSE_VB2).rx - t->traffic.fences);
}

static void observe_root(struct tse_test *t)
{
	enum tse_dev dev = site_dev(t, TSE_FLOW_REDIRECTED);

	observe(t, OBS_ROOT, tse_bpf_row(t, TSE_HOOK_REINJECT, TSE_FLOW_REDIRECTED), 0);
	observe(t, OBS_CLASS, NULL,
		tse_moved_class(t, dev, TSE_CHOSEN_CLASS) - fences_past_site(t));
	observe(t, OBS_DEFAULT_CLASS, NULL, tse_moved_class(t, dev, TSE_DEFAULT_CLASS));
	observe(t, OBS_MIRROR, tse_bpf_row(t, TSE_HOOK_MIRROR, TSE_FLOW_REDIRECTED), 0);
	if (t->net.root_gact)
		observe(t, OBS_ROOT_GACT, NULL,
			(long long)tse_moved(t, TSE_VA).gact.pkts -
			(root_redirects(&t->s->point) ? 0 : fences_past_site(t)));
}

static void observe_peer(struct tse_test *t)
{
	observe(t, OBS_PEER, tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_REDIRECTED), 0);
	if (t->net.peer_gact)
		observe(t, OBS_PEER_GACT, NULL,
			(long long)tse_moved(t, TSE_VB).peer_gact.pkts - fences_past_site(t));
	observe(t, OBS_TAP, t->traffic.tapped, 0);
}

/* The site's hook, root, lower, two gates, peer, root-mirror (or flood), the target. */
#define FIELD_HOOKS	8

struct field_hook {
	enum tse_hook hook;
	enum tse_obs obs;	/* the observer that counts its runs */
	enum tse_dev dev;	/* the device it is on */
	const char *place;
};

static const char nothing_read[] = "no packet reaches the hook: its program reads nothing";
static const char on_device[] = "skb->ifindex is the device the hook is on";
static const char sent_here[] =
	"a packet sent from this host has no input device, and the hook sees it before ifb";
static const char stock_again_iif[] =
	"stock: the hook reads the packet again after ifb, which set skb_iif to itself";
static const char stock_again_iif2[] =
	"stock: the hook reads the packet again after the second ifb, which set skb_iif to itself";
static const char stock_copy_iif2[] =
	"stock: the second copy was cloned from what the second ifb returned: skb_iif ifb_in's";
static const char stock_copy_home[] =
	"stock: ifb returned the second copy to ifb_in, setting skb_iif to itself";
static const char stock_loop_mark[] =
	"stock: the last pass reads the loop breaker's count of every pass before it";
static const char stock_copy_mark[] =
	"stock: the second copy carries the count of the packet's pass through ifb_in";
static const char stock_copy_mark2[] =
	"stock: the second copy carries the packet's count, and ifb's gate counted it once more";
static const char ifb_home[] = "ifb set skb_iif to itself when it re-injected the packet";
static const char ifb2_home[] =
	"the second ifb set skb_iif to itself when it re-injected the packet, last";
static const char second_home[] =
	"the root filter's mirred set skb_iif to its device, where ifb_in returns the packet";
static const char lower_home[] =
	"va's root filter redirected the packet last, and mirred set skb_iif to va";
static const char upper_counted[] =
	"the gate counted the packet's entry from the upper device before its entry from va";
static const char both_entries[] =
	"the gate counted both of the packet's entries into ifb, from the upper device and from va";
static const char own_entry[] =
	"the gate counted the packet's own entry, from va; only its copy came from above";
static const char gates_counted[] =
	"each ifb's gate the packet passed counted it once: skb->mark survives both ifbs";
static const char first_gate_counted[] =
	"the first ifb's gate counted the packet once, and the second's reads before it counts";
static const char tunnel_scrub[] =
	"the tunnel's xmit scrubs the packet (skb_scrub_packet()): no input device";
static const char redirect_home[] =
	"the redirect set skb_iif to the device it redirected from, where ifb returns the packet";
static const char received[] = "skb_iif is the device that received the packet";
static const char first_mark[] =
	"the hook is the first the packet meets: no loop breaker counted it yet";
static const char stock_again_mark[] =
	"stock: the hook reads the packet again, after the loop breaker counted it once";
static const char gate_mark[] = "ifb's gate reads the mark before it counts the entry";
static const char breaker_once[] =
	"the loop breaker counted the packet once before this hook: skb->mark survives ifb";
static const char breaker_twice[] =
	"the root qdisc's counter, the loop breaker here, counted the packet before ifb and after";
static const char stock_breaker_twice[] =
	"stock: the site's program, the loop breaker here, ran twice before this hook";
static const char scrubbed[] = "the crossing into another namespace clears the mark";
static const char vlan_tag[] =
	"the vlan tag is out of band: va, what va sends to ifb, and the peer read vlan 10";
static const char family[] =
	"skb->protocol is the test's family (below a tunnel, the outer header's: the same)";
static const char for_us[] = "the frame is for the receiving device's MAC";
static const char for_other[] =
	"the frame is for another MAC than the receiving device's (an upper's, or vb's at vd)";
static const char sent[] = "an outgoing packet is PACKET_HOST until a device receives it";
static const char unset[] = "nothing on the packet's way sets it";
static const char mirror_iif[] =
	"mirred sets skb_iif on its copy to the device it copies from";
static const char clone_iif[] =
	"bpf_clone_redirect() leaves the copy's skb_iif 0, as stock does";
static const char original_iif[] =
	"the packet itself never passes ifb: sent from this host, it has no input device";
static const char copy_unmarked[] =
	"no loop breaker counted the packet itself: only its copy passed ifb's gate";
static const char site_breaker_once[] =
	"the site's program, the loop breaker here, counted the packet once";
static const char root_breaker_once[] =
	"the root qdisc's counter, the loop breaker here, counted the packet once";
static const char sent_no_iif[] = "a packet sent from this host has no input device";
static const char redirect_keeps_iif[] =
	"bpf_redirect() to a plain device leaves skb_iif as it was: 0, sent from this host";
static const char redirect_keeps_vi[] =
	"bpf_redirect() to a device other than ifb leaves skb_iif alone: vi, where it arrived";
static const char mirred_names_site[] =
	"mirred sets skb_iif to the device it runs on, the site's, for every target";
static const char no_breaker[] =
	"no loop breaker is on the packet's way: ifb's gate would be, and it never gets there";

#define TSE_VLAN_ID	10

static const char arrived_by_vi[] =
	"a forwarded packet's skb_iif is the device it arrived on, vi, until a redirect sets it";
static const char clone_keeps_vi[] =
	"bpf_clone_redirect() leaves the copy the packet's skb_iif: vi, where it arrived";

static struct tse_rule arrival_iif(struct tse_test *t, const char *local, const char *fwd)
{
	if (!forwarded(&t->s->point))
		return (struct tse_rule){ 0, local };
	return (struct tse_rule){ t->net.ifindex[TSE_VI], fwd };
}

static int field_hooks(struct tse_test *t, struct field_hook *h)
{
	const struct tse_point *p = &t->s->point;
	enum tse_dev dev = site_dev(t, TSE_FLOW_REDIRECTED);
	int n = 0;

	if (has_egress_hook(p))
		h[n++] = (struct field_hook){ site_hook(p), OBS_HOOK, dev,
					      "the egress hook's first program" };
	h[n++] = (struct field_hook){ TSE_HOOK_REINJECT, OBS_ROOT, dev,
				      "the root qdisc's first filter" };
	if (p->upper)
		h[n++] = (struct field_hook){ TSE_HOOK_LOWER, OBS_LOWER, TSE_VA,
					      "va's root qdisc filter" };
	if (has_gate(p))
		h[n++] = (struct field_hook){ TSE_HOOK_IFB, OBS_IFB_GATE, TSE_IFB,
					      "ifb's gate" };
	if (has_second_gate(p))
		h[n++] = (struct field_hook){ TSE_HOOK_IFB_IN, OBS_IFB2_GATE, TSE_IFB_IN,
					      "the second ifb's gate" };
	h[n++] = (struct field_hook){ TSE_HOOK_PEER, OBS_PEER, TSE_VB, "vb's ingress" };
	if (mirrors(p))
		h[n++] = (struct field_hook){ TSE_HOOK_MIRROR, OBS_MIRROR, TSE_VD,
					      "the monitor's ingress (vd)" };
	else if (floods(p))
		h[n++] = (struct field_hook){ TSE_HOOK_MIRROR, OBS_FLOOD, TSE_VD,
					      "the flood port's peer (vd)" };
	if (sent_away(p))
		h[n++] = (struct field_hook){ TSE_HOOK_TARGET, OBS_TARGET, site_target(p),
					      hairpin(p) ? "the input device's egress (vi)" :
							   "the plain device's egress (va2)" };
	return n;
}

static struct tse_rule copy_iif_rule(struct tse_test *t, const struct field_hook *h)
{
	const struct tse_point *p = &t->s->point;

	switch (h->hook) {
	case TSE_HOOK_IFB:
		if (bpf_site(p))
			return arrival_iif(t, clone_iif, clone_keeps_vi);
		return (struct tse_rule){ t->net.ifindex[site_dev(t, TSE_FLOW_REDIRECTED)],
					  mirror_iif };
	case TSE_HOOK_LOWER:
	case TSE_HOOK_REINJECT:
		return arrival_iif(t, original_iif, arrived_by_vi);
	default:
		return arrival_iif(t, sent_here, arrived_by_vi);
	}
}

static struct tse_rule one_stage_iif_rule(struct tse_test *t, const struct field_hook *h,
					  int runs, bool stock)
{
	const struct tse_point *p = &t->s->point;

	if (copies(p))
		return copy_iif_rule(t, h);
	switch (h->hook) {
	case TSE_HOOK_IFB:
		if (stock && !root_site(p) && p->site != TSE_SITE_CLSACT_MIRRED)
			return arrival_iif(t, stock_iif, stock_back);
		return (struct tse_rule){ t->net.ifindex[site_dev(t, TSE_FLOW_REDIRECTED)],
					  redirect_home };
	case TSE_HOOK_REINJECT:
	case TSE_HOOK_LOWER:
		return (struct tse_rule){ t->net.ifindex[TSE_IFB], ifb_home };
	default:
		if (runs > 1)
			return (struct tse_rule){ t->net.ifindex[TSE_IFB], stock_again_iif };
		return arrival_iif(t, sent_here, arrived_by_vi);
	}
}

static struct tse_rule two_stage_iif_rule(struct tse_test *t, const struct field_hook *h,
					  int runs, bool stock)
{
	int ifb_in = t->net.ifindex[TSE_IFB_IN];

	switch (h->hook) {
	case TSE_HOOK_IFB_IN:
		if (runs > 1 && copies(&t->s->point))
			return (struct tse_rule){ t->net.ifindex[TSE_IFB], stock_copy_home };
		return (struct tse_rule){ t->net.ifindex[site_dev(t, TSE_FLOW_REDIRECTED)],
					  second_home };
	case TSE_HOOK_IFB:
		if (runs > 1)
			return (struct tse_rule){ ifb_in, stock_copy_iif2 };
		break;
	case TSE_HOOK_REINJECT:
	case TSE_HOOK_LOWER:
		return (struct tse_rule){ ifb_in, ifb2_home };
	default:	/* the site's hook */
		if (runs > 1)
			return (struct tse_rule){ ifb_in, stock_again_iif2 };
		break;
	}
	return one_stage_iif_rule(t, h, runs, stock);
}

static struct tse_rule lower_iif_rule(struct tse_test *t, const struct field_hook *h,
				      int runs, bool stock)
{
	if (h->hook == TSE_HOOK_LOWER)
		return (struct tse_rule){ t->net.ifindex[TSE_IFB], ifb_home };
	/* Unless stock's gate saw the packet once: its entry from above. */
	if (h->hook == TSE_HOOK_IFB && !(stock && runs < 2))
		return (struct tse_rule){ t->net.ifindex[TSE_VA], lower_home };
	return one_stage_iif_rule(t, h, runs, stock);
}

static struct tse_rule plain_iif_rule(struct tse_test *t, const struct field_hook *h)
{
	if (h->hook != TSE_HOOK_TARGET)
		return arrival_iif(t, sent_no_iif, arrived_by_vi);
	if (bpf_site(&t->s->point))
		return arrival_iif(t, redirect_keeps_iif, redirect_keeps_vi);
	return (struct tse_rule){ t->net.ifindex[site_dev(t, TSE_FLOW_REDIRECTED)],
				  mirred_names_site };
}

static const char own_iif[] =
	"a redirect to its own device leaves skb_iif 0: the fix sets it for ifb alone";

static struct tse_rule own_iif_rule(struct tse_test *t, const struct field_hook *h, int runs)
{
	const struct tse_point *p = &t->s->point;
	int ifb_in = t->net.ifindex[TSE_IFB_IN];

	switch (h->hook) {
	case TSE_HOOK_IFB_IN:
		return (struct tse_rule){ t->net.ifindex[site_dev(t, TSE_FLOW_REDIRECTED)],
					  second_home };
	case TSE_HOOK_IFB:
		return (struct tse_rule){ t->net.ifindex[TSE_VA], lower_home };
	case TSE_HOOK_REINJECT:
	case TSE_HOOK_LOWER:
		if (two_stages(p))
			return (struct tse_rule){ ifb_in, ifb2_home };
		if (lower_stage(p) && h->hook == TSE_HOOK_LOWER)
			return (struct tse_rule){ t->net.ifindex[TSE_IFB], ifb_home };
		return arrival_iif(t, sent_no_iif, arrived_by_vi);
	default:	/* the site's hook */
		if (runs > 2)
			return (struct tse_rule){ ifb_in, stock_again_iif2 };
		return arrival_iif(t, own_iif, arrived_by_vi);
	}
}

/* ingress_ifindex is skb_iif. */
static struct tse_rule iif_rule(struct tse_test *t, const struct field_hook *h,
				int runs, bool stock)
{
	const struct tse_point *p = &t->s->point;

	/* Received here, or below a tunnel (which scrubs it): the redirect does not show. */
	if (h->hook == TSE_HOOK_PEER || h->hook == TSE_HOOK_MIRROR)
		return (struct tse_rule){ t->net.ifindex[h->dev], received };
	if (h->hook == TSE_HOOK_LOWER && p->upper == TSE_UPPER_TUNNEL)
		return (struct tse_rule){ 0, tunnel_scrub };
	if (sent_away(p))
		return plain_iif_rule(t, h);
	if (own_device(p))
		return own_iif_rule(t, h, runs);
	switch (p->stages) {
	case TSE_STAGES_TWO:
		return two_stage_iif_rule(t, h, runs, stock);
	case TSE_STAGES_LOWER:
		return lower_iif_rule(t, h, runs, stock);
	default:
		return one_stage_iif_rule(t, h, runs, stock);
	}
}

static struct tse_rule copy_mark_rule(const struct tse_point *p, const struct field_hook *h)
{
	if (!p->solo)
		return (struct tse_rule){ 0, copy_unmarked };
	if (!root_site(p))
		return (struct tse_rule){ 1, site_breaker_once };
	if (h->hook == TSE_HOOK_LOWER)
		return (struct tse_rule){ 1, root_breaker_once };
	return (struct tse_rule){ 0, first_mark };
}

/* Solo: the site's program breaks loops, or at a root site the root qdisc's counter. */
static struct tse_rule one_stage_mark_rule(const struct tse_point *p,
					   const struct field_hook *h, int site_runs)
{
	if (copies(p))
		return copy_mark_rule(p, h);
	if (!p->solo)
		return (struct tse_rule){ 1, breaker_once };
	if (!root_site(p))
		return site_runs > 1 ? (struct tse_rule){ site_runs, stock_breaker_twice } :
				       (struct tse_rule){ 1, breaker_once };
	if (h->hook == TSE_HOOK_LOWER)
		return (struct tse_rule){ 2, breaker_twice };
	return (struct tse_rule){ 1, breaker_once };
}

static struct tse_rule two_stage_mark_rule(const struct tse_point *p,
					   const struct field_hook *h, int site_runs)
{
	if (!p->solo)
		return (struct tse_rule){ 1 + !copies(p), gates_counted };
	if (site_runs > 1)
		return (struct tse_rule){ site_runs, stock_breaker_twice };
	return one_stage_mark_rule(p, h, site_runs);
}

static struct tse_rule lower_mark_rule(const struct tse_point *p,
				       const struct field_hook *h, int site_runs)
{
	if (h->hook == TSE_HOOK_LOWER && !p->solo)
		return copies(p) ? (struct tse_rule){ 1, own_entry } :
				   (struct tse_rule){ 2, both_entries };
	return one_stage_mark_rule(p, h, site_runs);
}

static struct tse_rule below_site_mark_rule(const struct tse_point *p,
					    const struct field_hook *h, int runs, bool stock)
{
	int site_runs = (stock ? stock_rule(p, OBS_HOOK) : correct_rule(p, OBS_HOOK)).value;

	if (runs > 2)
		return (struct tse_rule){ TSE_LOOP_LIMIT, stock_loop_mark };
	switch (p->stages) {
	case TSE_STAGES_TWO:
		return two_stage_mark_rule(p, h, site_runs);
	case TSE_STAGES_LOWER:
		return lower_mark_rule(p, h, site_runs);
	default:
		return one_stage_mark_rule(p, h, site_runs);
	}
}

static struct tse_rule gate_mark_rule(const struct tse_point *p, int runs)
{
	if (lower_stage(p) && runs > 1 && !copies(p))
		return (struct tse_rule){ 1, upper_counted };
	if (two_stages(p) && runs > 1)
		return (struct tse_rule){ 1, stock_copy_mark };
	return (struct tse_rule){ 0, gate_mark };
}

static struct tse_rule second_gate_mark_rule(const struct tse_point *p, int runs)
{
	if (runs > 2)
		return (struct tse_rule){ TSE_LOOP_LIMIT, stock_loop_mark };
	if (runs > 1)
		return (struct tse_rule){ 2, stock_copy_mark2 };
	/* Only the copy passed the first ifb in a copy point. */
	return copies(p) ? (struct tse_rule){ 0, gate_mark } :
			   (struct tse_rule){ 1, first_gate_counted };
}

static struct tse_rule plain_mark_rule(const struct tse_point *p, const struct field_hook *h)
{
	if (h->hook != TSE_HOOK_TARGET)
		return (struct tse_rule){ 0, first_mark };
	if (!p->solo)
		return (struct tse_rule){ 0, no_breaker };
	return root_site(p) ? (struct tse_rule){ 1, root_breaker_once } :
			      (struct tse_rule){ 1, site_breaker_once };
}

static const char own_passes[] =
	"the site's program, the loop breaker here, counted each of its runs before this read";
static const char own_gate_counted[] =
	"the gate of the ifb the packet passed counted it once; the site's program breaks no loop";

/* Solo: the site's program counts each of its runs after reading; else the passed ifb's gate. */
static struct tse_rule own_mark_rule(const struct tse_point *p, const struct field_hook *h,
				     int site_runs)
{
	bool site = h->hook == site_hook(p);

	if (h->hook == TSE_HOOK_IFB || h->hook == TSE_HOOK_IFB_IN)
		return (struct tse_rule){ 0, gate_mark };
	if (p->solo)
		return (struct tse_rule){ site_runs - site, own_passes };
	if (two_stages(p) && (!site || site_runs > 2))
		return (struct tse_rule){ 1, own_gate_counted };
	if (lower_stage(p) && h->hook == TSE_HOOK_LOWER)
		return (struct tse_rule){ 1, own_gate_counted };
	return (struct tse_rule){ 0, no_breaker };
}

/* skb->mark: the loop breaker's count of passes (break_loop()), read before it counts. */
static struct tse_rule mark_rule(const struct tse_point *p, const struct field_hook *h,
				 int runs, bool stock)
{
	if (sent_away(p))
		return plain_mark_rule(p, h);
	if (own_device(p) && h->hook != TSE_HOOK_PEER && h->hook != TSE_HOOK_MIRROR)
		return own_mark_rule(p, h, (stock ? stock_rule(p, OBS_HOOK) :
					       correct_rule(p, OBS_HOOK)).value);
	switch (h->hook) {
	case TSE_HOOK_PEER:
	case TSE_HOOK_MIRROR:
		return (struct tse_rule){ 0, scrubbed };
	case TSE_HOOK_IFB:
		return gate_mark_rule(p, runs);
	case TSE_HOOK_IFB_IN:
		return second_gate_mark_rule(p, runs);
	case TSE_HOOK_REINJECT:
	case TSE_HOOK_LOWER:
		return below_site_mark_rule(p, h, runs, stock);
	default:	/* the site's hook */
		if (runs > 2)
			return (struct tse_rule){ TSE_LOOP_LIMIT, stock_loop_mark };
		if (runs > 1)
			return (struct tse_rule){ 1, stock_again_mark };
		return (struct tse_rule){ 0, first_mark };
	}
}

static struct tse_rule pkt_type_rule(const struct tse_point *p, const struct field_hook *h)
{
	if (h->hook == TSE_HOOK_MIRROR ||
	    (h->hook == TSE_HOOK_PEER &&
	     (p->upper == TSE_UPPER_MACVLAN || p->upper == TSE_UPPER_BRIDGE)))
		return (struct tse_rule){ PACKET_OTHERHOST, for_other };
	if (h->hook == TSE_HOOK_PEER)
		return (struct tse_rule){ PACKET_HOST, for_us };
	return (struct tse_rule){ PACKET_HOST, sent };
}

static struct tse_rule vlan_rule(const struct tse_point *p, const struct field_hook *h,
				 enum tse_field_id f)
{
	bool below = h->hook == TSE_HOOK_LOWER ||
		     (h->hook == TSE_HOOK_IFB && lower_stage(p));

	/* ifb's gate reads the entry from va last, where va redirects too. */
	if (!vlan_upper(p) || (!below && h->hook != TSE_HOOK_PEER))
		return (struct tse_rule){ 0, unset };
	return (struct tse_rule){ f == TSE_FIELD_VLAN_PRESENT ? 1 : TSE_VLAN_ID, vlan_tag };
}

static struct tse_rule field_rule(struct tse_test *t, const struct field_hook *h,
				  enum tse_field_id f, bool stock)
{
	const struct tse_point *p = &t->s->point;
	int runs = (stock ? stock_rule(p, h->obs) : correct_rule(p, h->obs)).value;

	if (runs <= 0)
		return (struct tse_rule){ 0, nothing_read };
	switch (f) {
	case TSE_FIELD_IFINDEX:
		return (struct tse_rule){ t->net.ifindex[h->dev], on_device };
	case TSE_FIELD_INGRESS_IFINDEX:
		return iif_rule(t, h, runs, stock);
	case TSE_FIELD_MARK:
		return mark_rule(p, h, runs, stock);
	case TSE_FIELD_PKT_TYPE:
		return pkt_type_rule(p, h);
	case TSE_FIELD_PROTOCOL:
		return (struct tse_rule){ tse_ethertype(t), family };
	case TSE_FIELD_VLAN_PRESENT:
	case TSE_FIELD_VLAN_TCI:
		return vlan_rule(p, h, f);
	default:
		return (struct tse_rule){ 0, unset };
	}
}

static void observe_fields(struct tse_test *t, const struct field_hook *h)
{
	unsigned int row[TSE_MAX_PKTS];
	struct tse_rule want, stock;
	char where[48], what[112];
	struct tse_meaning m;
	struct tse_check *c;
	int f;

	for (f = 0; f < TSE_NR_FIELDS; f++) {
		want = field_rule(t, h, f, false);
		stock = field_rule(t, h, f, true);
		m = (struct tse_meaning){ tse_fields_changed.word, want.why };
		tse_field_row(t, h->hook, f, row);
		snprintf(where, sizeof(where), "model.%s.%s", observers[h->obs].key,
			 tse_fields[f].name);
		snprintf(what, sizeof(what), "%s that %s read (BPF)", tse_fields[f].name,
			 h->place);
		c = __tse_expect_each(where, t, what, row, want.value, &m, &m);
		if (c)
			set_stock(c, stock.value, want, stock);
	}
}

/* The hooks a correct kernel's packets reach; stock's may read nothing. */
static void observe_all_fields(struct tse_test *t)
{
	struct field_hook hooks[FIELD_HOOKS];
	int i, n = field_hooks(t, hooks);

	for (i = 0; i < n; i++)
		if (correct_rule(&t->s->point, hooks[i].obs).value > 0)
			observe_fields(t, &hooks[i]);
}

/* The outcomes that end a packet's way first: they explain every count after them. */
void tse_grid_judge(struct tse_test *t)
{
	const struct tse_point *p = &t->s->point;
	struct tse_counters *bpf = &t->net.skel->bss->counters;
	enum tse_hook hook = site_hook(p);

	observe(t, OBS_LOOPED, NULL,
		sum(bpf->looped[TSE_FLOW_REDIRECTED], t->pkts) +
		sum(bpf->looped[TSE_FLOW_SECOND], t->pkts));
	/* ifb drops the fence's copy too, where u32 mirrors it. */
	observe(t, OBS_IFB_DROPPED, NULL, (long long)tse_moved(t, TSE_IFB).dropped -
		(copies(p) ? site_fences(t) : 0));
	/* No program copies a fence: the one thing vi may send is a test packet. */
	observe(t, OBS_BACK, NULL, (long long)tse_moved(t, TSE_VI).tx);
	observe(t, OBS_SPLIT, NULL,
		sum(tse_bpf_row(t, TSE_HOOK_IN, TSE_FLOW_REDIRECTED), t->pkts) +
		sum(tse_bpf_row(t, TSE_HOOK_IN, TSE_FLOW_SECOND), t->pkts));
	observe(t, OBS_CROSSED, tse_bpf_row(t, TSE_HOOK_PEER, TSE_FLOW_SECOND), 0);
	if (has_egress_hook(p))
		observe(t, OBS_HOOK, tse_bpf_row(t, hook, TSE_FLOW_REDIRECTED), 0);
	if (has_clsact(p))
		observe(t, OBS_CLSACT, NULL,
			(long long)tse_moved(t, site_dev(t, TSE_FLOW_REDIRECTED)).clsact -
			tse_background(t, hook));
	observe_root(t);
	observe(t, OBS_TARGET, tse_bpf_row(t, TSE_HOOK_TARGET, TSE_FLOW_REDIRECTED), 0);
	observe(t, OBS_LOWER, tse_bpf_row(t, TSE_HOOK_LOWER, TSE_FLOW_REDIRECTED), 0);
	observe(t, OBS_FLOOD, tse_bpf_row(t, TSE_HOOK_MIRROR, TSE_FLOW_REDIRECTED), 0);
	if (has_gate(p))
		observe(t, OBS_IFB_GATE, tse_bpf_row(t, TSE_HOOK_IFB, TSE_FLOW_REDIRECTED), 0);
	if (has_second_gate(p))
		observe(t, OBS_IFB2_GATE, tse_bpf_row(t, TSE_HOOK_IFB_IN, TSE_FLOW_REDIRECTED), 0);
	observe_peer(t);
	observe(t, OBS_DELIVERED, t->traffic.delivered[TSE_FLOW_REDIRECTED], 0);
	if (p->aggregate) {
		observe(t, OBS_AGG_SITE, tse_bpf_row(t, hook, TSE_FLOW_SECOND), 0);
		observe(t, OBS_AGG_ROOT,
			tse_bpf_row(t, TSE_HOOK_REINJECT, TSE_FLOW_SECOND), 0);
		/* va2 carries its flow alone, and no fence: nothing to set aside. */
		observe(t, OBS_AGG_CLSACT, NULL, (long long)tse_moved(t, TSE_VA2).clsact);
		observe(t, OBS_AGG_DELIVERED, t->traffic.delivered[TSE_FLOW_SECOND], 0);
	}
	observe_links(t);
	observe_all_fields(t);
	/*
	 * Last: a failure says the test, not the kernel, made no batch. The gate counts
	 * the first flow's packets in ifb at once; the second's are sent between them.
	 */
	if (batch(p) && !p->solo && p->stages == TSE_STAGES_ONE)
		tse_expect_batched(t);
}
