// SPDX-License-Identifier: GPL-2.0
/*
 * test_progs front end of the tc_skip_egress scenarios (net/tc_skip_egress,
 * tse.h): does a packet that ifb re-injects on egress skip the device's
 * egress tc hook, as the ingress hook already does?
 *
 * One subtest per scenario and IP version, e.g.
 * tc_redirect_ifb/egress_mirred_ipv4. It runs the scenario and asserts
 * each of its checks; it holds no scenario logic of its own.
 */
#include "test_progs.h"

/*
 * The scenario library, as one translation unit. It is included rather
 * than linked so that there is one definition of the scenarios for both
 * front ends (this one and the kselftest one, net/tc_skip_egress), and so
 * that it builds under the BPF selftests' own rules, with the skeleton
 * (test_tc_redirect_ifb.skel.h) they generate from
 * progs/test_tc_redirect_ifb.c.
 */
#include "../../net/tc_skip_egress/tse_lib.c"

static void report(const struct tse_result *res)
{
	bool checks_ok = true;
	char line[512];
	int i;

	if (res->status == TSE_SKIP) {
		printf("SKIP: %s\n", res->reason);
		test__skip();
		return;
	}

	for (i = 0; i < res->nr_checks; i++) {
		const struct tse_check *c = &res->checks[i];

		if (ASSERT_TRUE(tse_check_ok(c), c->what))
			continue;
		checks_ok = false;
		tse_format_check(c, line, sizeof(line));
		printf("%s\n", line);
	}
	if (res->kernel_log[0])
		printf("kernel: %s\n", res->kernel_log);
	printf("took %.2f s\n", res->seconds);
	if (res->status == TSE_PASS)
		return;

	printf("diagnosis: %s\n", res->diagnosis);
	if (res->reason[0])
		printf("%s\n", res->reason);
	/* A scenario that could not run fails without a failing check. */
	if (checks_ok)
		ASSERT_FAIL("scenario did not run: %s", res->reason);
}

static void run_scenario(const char *name, int families)
{
	static const int family[] = { TSE_V4, TSE_V6 };
	char subtest[64];
	struct tse_result res;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(family); i++) {
		if (!(families & family[i]))
			continue;
		snprintf(subtest, sizeof(subtest), "%s_%s", name,
			 tse_family_name(family[i]));
		if (!test__start_subtest(subtest))
			continue;
		tse_run(name, family[i], &res);
		report(&res);
	}
}

/* The library's table is the one list of scenarios for both front ends. */
void test_tc_redirect_ifb(void)
{
	int i;

	for (i = 0; i < tse_scenario_count(); i++)
		run_scenario(tse_scenario_name(i), tse_scenario_families(i));
}
