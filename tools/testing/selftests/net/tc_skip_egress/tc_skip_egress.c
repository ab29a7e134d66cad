// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest front end of the tc_skip_egress scenarios (tse.h): one fixture
 * per scenario, one variant per IP version, e.g. egress_mirred.ipv6.verdict.
 * It runs the scenario and reports each failing check; the scenarios and
 * their oracles live in scenarios.c and are shared with test_progs.
 */
#include "../../kselftest_harness.h"
#include "tse.h"

static void report(struct __test_metadata *_metadata,
		   const struct tse_result *res)
{
	char line[512];
	int i;

	for (i = 0; i < res->nr_checks; i++) {
		const struct tse_check *c = &res->checks[i];

		if (tse_check_ok(c))
			continue;
		tse_format_check(c, line, sizeof(line));
		ksft_print_msg("%s\n", line);
	}
	if (res->kernel_log[0])
		ksft_print_msg("kernel: %s\n", res->kernel_log);
	ksft_print_msg("took %.2f s\n", res->seconds);
	if (res->status == TSE_SKIP)
		SKIP(return, "%s", res->reason);
	if (res->status == TSE_PASS)
		return;
	ksft_print_msg("diagnosis: %s\n", res->diagnosis);
	if (res->reason[0])
		ksft_print_msg("%s\n", res->reason);
	_metadata->exit_code = KSFT_FAIL;
}

#define TSE_VARIANTS_ipv4(name)						\
	FIXTURE_VARIANT_ADD(name, ipv4) { .family = TSE_V4 }
#define TSE_VARIANTS_both(name)						\
	TSE_VARIANTS_ipv4(name);					\
	FIXTURE_VARIANT_ADD(name, ipv6) { .family = TSE_V6 }

#define X(name, fam)							\
	FIXTURE(name) {};						\
	FIXTURE_VARIANT(name) { int family; };				\
	TSE_VARIANTS_##fam(name);					\
	FIXTURE_SETUP(name) {}						\
	FIXTURE_TEARDOWN(name) {}					\
	TEST_F(name, verdict)						\
	{								\
		struct tse_result res;					\
									\
		tse_run(#name, variant->family, &res);			\
		report(_metadata, &res);				\
	}
TSE_SCENARIOS(X)
#undef X

TEST_HARNESS_MAIN
