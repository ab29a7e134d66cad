// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest front end of the tc_skip_egress scenarios (tse.h): one fixture
 * that holds a scenario's topology, one variant per IP version, one test
 * per scenario of tse_scenarios.c, e.g. tc_skip_egress.ipv6.egress_mirred.
 * The fixture's setup builds the topology of the scenario the test is
 * named after; the test sends its traffic and checks each oracle.
 */
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
 * check is printed as the harness prints its own, "file:line:test:", with
 * the file and line of the check that failed, not of this loop.
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
		ksft_print_msg("%s:%d:%s:%s\n", c->file, c->line,
			       _metadata->name, line);
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

TEST_F(tc_skip_egress, egress_mirred) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, egress_tap) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, egress_bpf_redirect) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, egress_tcx_redirect) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, ingress_mirred) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, ingress_bpf_redirect) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, egress_unrelated) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, peer_ingress_once) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, gso_after_ifb) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, root_qdisc_mirred_with_clsact) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, root_qdisc_after_clsact) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, root_qdisc_mirror_then_redirect)
{
	exercise(_metadata, self->t, &self->res);
}

TEST_F(tc_skip_egress, egress_100_filters) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, forward_egress_mirred) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, forward_egress_bpf_redirect) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, router_two_ifb) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, burst) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, tcp_stream) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, stacked_vlan) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, stacked_macvlan) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, stacked_bond) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, stacked_tunnel) { exercise(_metadata, self->t, &self->res); }
TEST_F(tc_skip_egress, shaped_ifb) { exercise(_metadata, self->t, &self->res); }

TEST_HARNESS_MAIN
