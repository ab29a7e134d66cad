// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest front end of the tc_skip_egress scenarios (tse.h): one fixture
 * that holds a scenario's topology, one variant per IP version, one test
 * per scenario of the library's table, e.g. tc_skip_egress.ipv6.egress_mirred.
 * The fixture's setup builds the topology of the scenario the test is
 * named after; the test sends its traffic and checks each oracle.
 */
#include <stdlib.h>
#include <sys/mman.h>

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

/* The test's name is the scenario's. */
FIXTURE_SETUP(tc_skip_egress)
{
	self->t = tse_setup(_metadata->name, variant->family, &self->res);
	ASSERT_NE(NULL, self->t);
	if (self->res.status == TSE_SKIP)
		SKIP(return, "%s", self->res.reason);
	if (self->res.status != TSE_PASS)
		ksft_print_msg("diagnosis: %s\n", self->res.diagnosis);
	ASSERT_EQ(TSE_PASS, self->res.status) TH_LOG("setup: %s", self->res.reason);
}

FIXTURE_TEARDOWN(tc_skip_egress)
{
	tse_teardown(self->t);
}

/*
 * Send, judge, and report every failed check, then the diagnosis. A failed
 * check is printed with where it was judged: the row, and the oracle or
 * the model's observer, e.g. "egress_mirred_vlan_solo:model.peer:".
 */
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
		ksft_print_msg("%s:%s\n", c->site, line);
		_metadata->exit_code = KSFT_FAIL;
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
	_metadata->exit_code = KSFT_FAIL;
}

/* What every test runs: the scenario it is named after. */
TEST_F(tc_skip_egress, scenario)
{
	exercise(_metadata, self->t, &self->res);
}

/*
 * One test per scenario of the library's table (tse_table.h), named after
 * it: the harness registered the test above once; it takes the first
 * scenario's name, and a copy of it, shared with the test's fork as the
 * harness's own are, is registered for each other one, in table order.
 * The list of scenarios lives in the library alone.
 */
static void __attribute__((constructor(KSELFTEST_PRIO_TEST + 1)))
register_scenarios(void)
{
	struct __test_metadata *first = _tc_skip_egress_scenario_object, *t;
	int i;

	first->name = tse_scenario_name(0);
	for (i = 1; i < tse_scenario_count(); i++) {
		t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (t == MAP_FAILED)
			abort();
		t->name = tse_scenario_name(i);
		t->fn = first->fn;
		t->fixture = first->fixture;
		t->termsig = first->termsig;
		t->timeout = first->timeout;
		__register_test(t);
	}
}

TEST_HARNESS_MAIN
