// SPDX-License-Identifier: GPL-2.0
/*
 * Every two axes of the grid meet in every pair of values that can be
 * (docs/grid.md): prints each pair that some point could have and none
 * has, and exits 1 if there is one. What can be is TSE_POINT_CAN_BE(),
 * the assertion every point of tse_table.h builds against.
 *
 *   cc -I tools/testing/selftests/net/tc_skip_egress tests/grid-pairs.c
 */
#include <stdio.h>
#include "tse_point.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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
	{ "NONE", "VLAN", "MACVLAN", "BOND", "TUNNEL", "BRIDGE" },
	{ "LOCAL", "FORWARDED", "BATCH" },
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

struct point {
	const char *name;
	int v[AXES];
};

#define TSE_GRID(n, site, sends, stages, dev, source, alone, agg)		\
	{ #n, { TSE_SITE_##site, TSE_SENDS_##sends, TSE_STAGES_##stages,	\
		TSE_UPPER_##dev, TSE_SOURCE_##source, alone, agg } },
#define TSE_ROW(...)

static const struct point points[] = {
#include "tse_table.h"
};

static unsigned char can[AXES][MAX_VALUES][AXES][MAX_VALUES], has[AXES][MAX_VALUES][AXES][MAX_VALUES];

static void mark(unsigned char set[AXES][MAX_VALUES][AXES][MAX_VALUES], const int *v)
{
	int i, j;

	for (i = 0; i < AXES; i++)
		for (j = i + 1; j < AXES; j++)
			set[i][v[i]][j][v[j]] = 1;
}

/* Every combination of values, one axis at a time; marks those that can be. */
static void walk(int *v, int axis)
{
	if (axis == AXES) {
		if (TSE_POINT_CAN_BE(v[SITE], v[SENDS], v[STAGES], v[DEVICE],
				     v[SOURCE], v[AGGREGATE]))
			mark(can, v);
		return;
	}
	for (v[axis] = first[axis]; v[axis] < count[axis]; v[axis]++)
		walk(v, axis + 1);
}

int main(void)
{
	int v[AXES], i, j, a, b, missing = 0;
	unsigned int p;

	for (i = 0; i < AXES; i++)
		if (!values[i][count[i] - 1] || values[i][count[i]]) {
			printf("values[] of %s does not list the %d values of its enumeration\n",
			       axis_name[i], count[i]);
			return 1;
		}
	walk(v, 0);
	for (p = 0; p < ARRAY_SIZE(points); p++)
		mark(has, points[p].v);
	for (i = 0; i < AXES; i++)
		for (j = i + 1; j < AXES; j++)
			for (a = 0; a < count[i]; a++)
				for (b = 0; b < count[j]; b++) {
					if (!can[i][a][j][b] || has[i][a][j][b])
						continue;
					printf("%s %s with %s %s: no point has them\n",
					       axis_name[i], values[i][a],
					       axis_name[j], values[j][b]);
					missing++;
				}
	printf("%zu points, %d pairs of values that can be and are in none\n",
	       ARRAY_SIZE(points), missing);
	return missing ? 1 : 0;
}
