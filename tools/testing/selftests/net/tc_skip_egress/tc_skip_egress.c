// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest front end of the tc_skip_egress scenarios (tse.h): one fixture
 * per scenario, one variant per IP version, e.g. egress_mirred.ipv6.verdict.
 * make check verifies that it declares every scenario of scenarios.c.
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

static void run_scenario(struct __test_metadata *_metadata,
			 const char *scenario, int family)
{
	struct tse_result res;

	tse_run(scenario, family, &res);
	report(_metadata, &res);
}

/*
 * One fixture per scenario of scenarios.c, one variant per IP version. The
 * fixtures hold nothing: each test builds and removes its own topology.
 */
FIXTURE(egress_mirred) {};
FIXTURE_VARIANT(egress_mirred) { int family; };
FIXTURE_VARIANT_ADD(egress_mirred, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(egress_mirred, ipv6) { TSE_V6 };
FIXTURE_SETUP(egress_mirred) {}
FIXTURE_TEARDOWN(egress_mirred) {}
TEST_F(egress_mirred, verdict)
{
	run_scenario(_metadata, "egress_mirred", variant->family);
}

FIXTURE(egress_bpf_redirect) {};
FIXTURE_VARIANT(egress_bpf_redirect) { int family; };
FIXTURE_VARIANT_ADD(egress_bpf_redirect, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(egress_bpf_redirect, ipv6) { TSE_V6 };
FIXTURE_SETUP(egress_bpf_redirect) {}
FIXTURE_TEARDOWN(egress_bpf_redirect) {}
TEST_F(egress_bpf_redirect, verdict)
{
	run_scenario(_metadata, "egress_bpf_redirect", variant->family);
}

FIXTURE(egress_tcx_redirect) {};
FIXTURE_VARIANT(egress_tcx_redirect) { int family; };
FIXTURE_VARIANT_ADD(egress_tcx_redirect, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(egress_tcx_redirect, ipv6) { TSE_V6 };
FIXTURE_SETUP(egress_tcx_redirect) {}
FIXTURE_TEARDOWN(egress_tcx_redirect) {}
TEST_F(egress_tcx_redirect, verdict)
{
	run_scenario(_metadata, "egress_tcx_redirect", variant->family);
}

FIXTURE(ingress_mirred) {};
FIXTURE_VARIANT(ingress_mirred) { int family; };
FIXTURE_VARIANT_ADD(ingress_mirred, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(ingress_mirred, ipv6) { TSE_V6 };
FIXTURE_SETUP(ingress_mirred) {}
FIXTURE_TEARDOWN(ingress_mirred) {}
TEST_F(ingress_mirred, verdict)
{
	run_scenario(_metadata, "ingress_mirred", variant->family);
}

FIXTURE(ingress_bpf_redirect) {};
FIXTURE_VARIANT(ingress_bpf_redirect) { int family; };
FIXTURE_VARIANT_ADD(ingress_bpf_redirect, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(ingress_bpf_redirect, ipv6) { TSE_V6 };
FIXTURE_SETUP(ingress_bpf_redirect) {}
FIXTURE_TEARDOWN(ingress_bpf_redirect) {}
TEST_F(ingress_bpf_redirect, verdict)
{
	run_scenario(_metadata, "ingress_bpf_redirect", variant->family);
}

FIXTURE(egress_unrelated) {};
FIXTURE_VARIANT(egress_unrelated) { int family; };
FIXTURE_VARIANT_ADD(egress_unrelated, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(egress_unrelated, ipv6) { TSE_V6 };
FIXTURE_SETUP(egress_unrelated) {}
FIXTURE_TEARDOWN(egress_unrelated) {}
TEST_F(egress_unrelated, verdict)
{
	run_scenario(_metadata, "egress_unrelated", variant->family);
}

FIXTURE(peer_ingress_once) {};
FIXTURE_VARIANT(peer_ingress_once) { int family; };
FIXTURE_VARIANT_ADD(peer_ingress_once, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(peer_ingress_once, ipv6) { TSE_V6 };
FIXTURE_SETUP(peer_ingress_once) {}
FIXTURE_TEARDOWN(peer_ingress_once) {}
TEST_F(peer_ingress_once, verdict)
{
	run_scenario(_metadata, "peer_ingress_once", variant->family);
}

FIXTURE(root_qdisc_mirred_with_clsact) {};
FIXTURE_VARIANT(root_qdisc_mirred_with_clsact) { int family; };
FIXTURE_VARIANT_ADD(root_qdisc_mirred_with_clsact, ipv4) { TSE_V4 };
FIXTURE_VARIANT_ADD(root_qdisc_mirred_with_clsact, ipv6) { TSE_V6 };
FIXTURE_SETUP(root_qdisc_mirred_with_clsact) {}
FIXTURE_TEARDOWN(root_qdisc_mirred_with_clsact) {}
TEST_F(root_qdisc_mirred_with_clsact, verdict)
{
	run_scenario(_metadata, "root_qdisc_mirred_with_clsact", variant->family);
}

FIXTURE(egress_100_filters) {};
FIXTURE_VARIANT(egress_100_filters) { int family; };
FIXTURE_VARIANT_ADD(egress_100_filters, ipv4) { TSE_V4 };
FIXTURE_SETUP(egress_100_filters) {}
FIXTURE_TEARDOWN(egress_100_filters) {}
TEST_F(egress_100_filters, verdict)
{
	run_scenario(_metadata, "egress_100_filters", variant->family);
}

TEST_HARNESS_MAIN
