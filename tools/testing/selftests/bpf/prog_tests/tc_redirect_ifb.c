// SPDX-License-Identifier: GPL-2.0
/* test_progs front end of net/tc_skip_egress (tse.h): a subtest per scenario and family. */
#include "test_progs.h"
#include "../../net/tc_skip_egress/tse.h"

static void report_check(const struct tse_check *c)
{
	char line[512];

	if (tse_check_ok(c))
		return;
	tse_format_check(c, line, sizeof(line));
	printf("%s:FAIL:%s\n", c->where, line);
	test__fail();
}

static void report(const struct tse_result *res)
{
	int i;

	for (i = 0; i < res->nr_checks; i++)
		report_check(&res->checks[i]);
	if (res->note[0])
		printf("%s\n", res->note);
	if (res->kernel_log[0])
		printf("kernel: %s\n", res->kernel_log);
	printf("took %.2f s\n", res->seconds);
	if (res->status == TSE_PASS)
		return;
	printf("diagnosis: %s\n", res->diagnosis);
	/* A scenario that could not run fails without a failing check. */
	ASSERT_STREQ(res->reason, "", "scenario ran");
}

static void run_scenario(const char *name, int family)
{
	struct tse_result res;
	struct tse_test *t;

	t = tse_setup(name, family, &res);
	if (!ASSERT_OK_PTR(t, "tse_setup"))
		return;
	if (res.status == TSE_SKIP) {
		printf("SKIP: %s\n", res.reason);
		test__skip();
	} else {
		tse_exercise(t);
		report(&res);
	}
	tse_teardown(t);
}

void test_tc_redirect_ifb(void)
{
	static const int families[] = { TSE_V4, TSE_V6 };
	char subtest[80];
	unsigned int f;
	int i;

	for (i = 0; i < tse_scenario_count(); i++) {
		for (f = 0; f < ARRAY_SIZE(families); f++) {
			snprintf(subtest, sizeof(subtest), "%s_%s",
				 tse_scenario_name(i), tse_family_name(families[f]));
			if (test__start_subtest(subtest))
				run_scenario(tse_scenario_name(i), families[f]);
		}
	}
}
