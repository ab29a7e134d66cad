/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A point of the grid: one value of each axis (docs/grid.md). Alone in a
 * header so that tests/grid-pairs.c can check the table's coverage with
 * nothing else of the library.
 */
#ifndef __TSE_POINT_H
#define __TSE_POINT_H

#include <stdbool.h>

/* A device stacked over va and vb, which carries their addresses. */
enum tse_upper {
	TSE_UPPER_NONE,
	TSE_UPPER_VLAN,		/* 802.1Q vlan 10 */
	TSE_UPPER_MACVLAN,	/* a macvlan in bridge mode, a MAC of its own */
	TSE_UPPER_BOND,		/* an active-backup bond, va or vb its slave */
	TSE_UPPER_TUNNEL,	/* ipip or ip6tnl (ip6ip6) from va to vb, no L2 header */
	TSE_UPPER_BRIDGE,	/* a bridge, va its port; the sender's floods to vc too */
	TSE_UPPER_QINQ,		/* 802.1ad vlan 10: a provider's S-tag */
	TSE_UPPER_COUNT,
};

enum tse_site {
	TSE_SITE_NONE,		/* a hand-written scenario */
	TSE_SITE_CLSACT_MIRRED,	/* clsact egress, u32 + mirred */
	TSE_SITE_CLSACT_BPF,	/* clsact egress, cls_bpf bpf_redirect() */
	TSE_SITE_TCX,		/* a tcx link, bpf_redirect() */
	TSE_SITE_ROOT,		/* root qdisc u32 + mirred, no egress hook */
	TSE_SITE_ROOT_CLSACT,	/* the same, a counting clsact beside it */
	TSE_SITE_COUNT,
};

/* What the site sends, and where. */
enum tse_sends {
	TSE_SENDS_PACKET,	/* the packet to ifb: mirred redirect, bpf_redirect() */
	TSE_SENDS_COPY,		/* a copy to ifb: mirred mirror, bpf_clone_redirect() */
	TSE_SENDS_PLAIN,	/* the packet to a plain device, va2, whose egress counts */
	TSE_SENDS_OWN,		/* the packet back to its own device, once (BPF sites) */
	TSE_SENDS_INPUT,	/* a forwarded packet back out of its input device, vi */
	TSE_SENDS_COUNT,
};

/* The ifbs a packet passes on its way out of the device. */
enum tse_stages {
	TSE_STAGES_ONE,		/* the site's */
	TSE_STAGES_TWO,		/* then the device's root qdisc's, to a second ifb */
	TSE_STAGES_LOWER,	/* and va's below the site's device, to the same ifb */
	TSE_STAGES_COUNT,
};

/* Where the packets the site meets come from. */
enum tse_source {
	TSE_SOURCE_LOCAL,	/* sent from the site's host: no input device */
	TSE_SOURCE_FORWARDED,	/* forwarded from the origin, in by vi */
	TSE_SOURCE_BATCH,	/* the same, both flows in one burst: one ifb batch */
	TSE_SOURCE_TWO_CPUS,	/* local, each flow from its own CPU, both at once */
	TSE_SOURCE_COUNT,
};

struct tse_point {
	enum tse_site site;
	enum tse_sends sends;
	enum tse_stages stages;
	enum tse_upper upper;	/* the device the redirect sits on */
	enum tse_source source;
	bool solo;		/* no egress hook on any other device */
	bool aggregate;		/* a second device redirects to the same ifb */
};

/*
 * Values that do not meet (docs/grid.md, "Values that do not meet"): a
 * point with them would drop its packets on every kernel, or the setup
 * cannot build it. tse_scenarios.c asserts this of every point, so such
 * a point does not build; tests/grid-pairs.c takes the pairs that can be
 * from it.
 */
#define TSE_POINT_CAN_BE(site, sends, stages, upper, source, agg)		\
	(!((sends) == TSE_SENDS_OWN &&						\
	   (site) != TSE_SITE_CLSACT_BPF && (site) != TSE_SITE_TCX) &&		\
	 !((sends) == TSE_SENDS_INPUT && ((source) == TSE_SOURCE_LOCAL ||	\
				       (source) == TSE_SOURCE_TWO_CPUS)) &&	\
	 !(((sends) == TSE_SENDS_PLAIN || (sends) == TSE_SENDS_INPUT) &&	\
	   (upper) == TSE_UPPER_TUNNEL) &&					\
	 !((stages) == TSE_STAGES_LOWER &&					\
	   ((upper) == TSE_UPPER_NONE || (upper) == TSE_UPPER_TUNNEL)) &&	\
	 !(((site) == TSE_SITE_CLSACT_BPF || (site) == TSE_SITE_TCX) &&	\
	   (upper) == TSE_UPPER_TUNNEL) &&					\
	 !((stages) == TSE_STAGES_TWO &&					\
	   ((site) == TSE_SITE_ROOT || (site) == TSE_SITE_ROOT_CLSACT)) &&	\
	 !((sends) == TSE_SENDS_PLAIN && (agg)) &&				\
	 !((source) == TSE_SOURCE_BATCH &&					\
	   (!(agg) || (sends) != TSE_SENDS_PACKET)) &&				\
	 !((source) == TSE_SOURCE_TWO_CPUS && !(agg)))

#endif /* __TSE_POINT_H */
