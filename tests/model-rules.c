// SPDX-License-Identifier: GPL-2.0
/*
 * The model has a rule, a correct kernel's and stock's, for every observer
 * at every point that can be (TSE_POINT_CAN_BE()): prints each observer and
 * point that has none, and exits 1 if there is one. A rule table with a row
 * missing would leave that observer unread there, silently. It includes
 * tse_grid.c: the rule tables are static there.
 *
 *   tests/model-rules.sh [TSE_GRID_C]
 */
#include "tse_grid.c"
#include "grid-axes.h"

static int points, rules, missing;

static bool has_rule(struct tse_rule r)
{
	return r.value >= 0 && r.why;
}

static void print_missing(const char *model, enum tse_obs o, const int *v)
{
	int a;

	printf("no %s rule for %s at", model, observers[o].key);
	for (a = 0; a < AXES; a++)
		printf(" %s %s", axis_name[a], values[a][v[a]]);
	printf("\n");
	missing++;
}

static void check_point(const int *v)
{
	struct tse_point p = { v[SITE], v[SENDS], v[STAGES], v[DEVICE], v[SOURCE],
			       v[SOLO], v[AGGREGATE] };
	int o;

	for (o = 0; o < OBS_COUNT; o++) {
		if (!applies(&p, o))
			continue;
		rules++;
		if (!has_rule(correct_rule(&p, o)))
			print_missing("correct", o, v);
		else if (!has_rule(stock_rule(&p, o)))
			print_missing("stock", o, v);
	}
	points++;
}

int main(void)
{
	int v[AXES];

	walk_points(v, 0, check_point);
	printf("%d rules at %d points that can be, %d missing\n", rules, points, missing);
	return missing ? 1 : 0;
}
