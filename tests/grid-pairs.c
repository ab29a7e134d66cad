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
#include "grid-axes.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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

static void mark_can(const int *v)
{
	mark(can, v);
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
	walk_points(v, 0, mark_can);
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
