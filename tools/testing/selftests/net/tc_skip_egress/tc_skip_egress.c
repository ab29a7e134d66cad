// SPDX-License-Identifier: GPL-2.0
/* kselftest front end of tse.h: one test per scenario and IP version. */
#include "../../kselftest_harness.h"
#include "tse.h"

FIXTURE(tc_skip_egress) {
	struct tse_test *t;
	struct tse_result res;
};

FIXTURE_VARIANT(tc_skip_egress) {
	int family;
};

FIXTURE_VARIANT_ADD(tc_skip_egress, ipv4) {
	.family = TSE_V4,
};

FIXTURE_VARIANT_ADD(tc_skip_egress, ipv6) {
	.family = TSE_V6,
};

FIXTURE_SETUP(tc_skip_egress)
{
	self->t = NULL;
}

FIXTURE_TEARDOWN(tc_skip_egress)
{
	tse_teardown(self->t);
}

/* A missing feature skips the test; any other setup error fails it. */
static void build(struct __test_metadata *_metadata, struct tse_test **t,
		  struct tse_result *res, int family, const char *scenario)
{
	*t = tse_setup(scenario, family, res);
	ASSERT_NE(NULL, *t);
	if (res->status == TSE_SKIP)
		SKIP(return, "%s", res->reason);
	if (res->status != TSE_PASS)
		ksft_print_msg("diagnosis: %s\n", res->diagnosis);
	ASSERT_EQ(TSE_PASS, res->status) TH_LOG("setup: %s", res->reason);
}

static void exercise(struct __test_metadata *_metadata, struct tse_test *t,
		     const struct tse_result *res)
{
	const struct tse_check *c;
	char line[512];
	int i;

	tse_exercise(t);
	for (i = 0; i < res->nr_checks; i++) {
		c = &res->checks[i];
		if (tse_check_ok(c))
			continue;
		tse_format_check(c, line, sizeof(line));
		ksft_print_msg("%s:%s\n", c->where, line);
	}
	if (res->note[0])
		ksft_print_msg("%s\n", res->note);
	if (res->kernel_log[0])
		ksft_print_msg("kernel: %s\n", res->kernel_log);
	ksft_print_msg("took %.2f s\n", res->seconds);
	if (res->status == TSE_PASS)
		return;
	ksft_print_msg("diagnosis: %s\n", res->diagnosis);
	ASSERT_EQ(0, res->reason[0]) TH_LOG("%s", res->reason);
	ASSERT_EQ(TSE_PASS, res->status);
}

static void run(struct __test_metadata *_metadata, struct tse_test **t,
		struct tse_result *res, int family, const char *scenario)
{
	build(_metadata, t, res, family, scenario);
	if (res->status == TSE_PASS)
		exercise(_metadata, *t, res);
}

/* One test per line of tse_table.h: the library finds the scenario by name. */
#define TSE_SCENARIO(name)						\
	static const char name##_scenario[] = #name;			\
	TEST_F(tc_skip_egress, name)					\
	{								\
		run(_metadata, &self->t, &self->res, variant->family,	\
		    name##_scenario);					\
	}
#define TSE_GRID(name, ...)	TSE_SCENARIO(name)
#define TSE_ROW(name, ...)	TSE_SCENARIO(name)
#include "tse_table.h"

TEST_HARNESS_MAIN
