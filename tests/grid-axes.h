/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The grid's axes, their values' names, and a walk over every point that
 * can be (TSE_POINT_CAN_BE()): for the checks of tests/ that read the
 * grid with none of the suite (grid-pairs.c) or with its model alone
 * (model-rules.c).
 */
#ifndef __GRID_AXES_H
#define __GRID_AXES_H

#include "tse_point.h"

#define MAX_VALUES	8	/* more than any axis has */

enum { SITE, SENDS, STAGES, DEVICE, SOURCE, SOLO, AGGREGATE, AXES };

static const char *const axis_name[AXES] = {
	"site", "sends", "stages", "device", "source", "solo", "aggregate",
};

/* The values of each axis, in the order of their enumerations (tse_point.h). */
static const char *const values[AXES][MAX_VALUES] = {
	{ "NONE", "CLSACT_MIRRED", "CLSACT_BPF", "TCX", "ROOT", "ROOT_CLSACT" },
	{ "PACKET", "COPY", "PLAIN", "OWN", "INPUT" },
	{ "ONE", "TWO", "LOWER" },
	{ "NONE", "VLAN", "MACVLAN", "BOND", "TUNNEL", "BRIDGE", "QINQ" },
	{ "LOCAL", "FORWARDED", "BATCH", "TWO_CPUS" },
	{ "false", "true" },
	{ "false", "true" },
};

/* The first value each axis takes: a point has a site. */
static const int first[AXES] = { TSE_SITE_CLSACT_MIRRED };
static const int count[AXES] = {
	TSE_SITE_COUNT, TSE_SENDS_COUNT, TSE_STAGES_COUNT, TSE_UPPER_COUNT,
	TSE_SOURCE_COUNT, 2, 2,
};

_Static_assert(TSE_SITE_COUNT <= MAX_VALUES && TSE_SENDS_COUNT <= MAX_VALUES &&
	       TSE_STAGES_COUNT <= MAX_VALUES && TSE_UPPER_COUNT <= MAX_VALUES &&
	       TSE_SOURCE_COUNT <= MAX_VALUES, "an axis has more than MAX_VALUES values");

/* Calls visit() with every combination of values that can be a point. */
static void walk_points(int *v, int axis, void (*visit)(const int *v))
{
	if (axis == AXES) {
		if (TSE_POINT_CAN_BE(v[SITE], v[SENDS], v[STAGES], v[DEVICE],
				     v[SOURCE], v[AGGREGATE]))
			visit(v);
		return;
	}
	for (v[axis] = first[axis]; v[axis] < count[axis]; v[axis]++)
		walk_points(v, axis + 1, visit);
}

#endif /* __GRID_AXES_H */
