/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_skip_egress: does a packet that ifb re-injects on egress skip the
 * device's egress tc hook, as the ingress hook already does?
 *
 * This is the interface between the scenarios (topology, traffic and
 * oracles, in this folder) and the two front ends that run them: the
 * kselftest harness (tc_skip_egress.c) and test_progs
 * (bpf/prog_tests/tc_redirect_ifb.c). A front end runs a scenario and
 * renders its checks; it holds no scenario logic of its own.
 */
#ifndef __TSE_H
#define __TSE_H

#include <stdbool.h>

/* IP versions a scenario runs for. The scenarios are listed in scenarios.c. */
#define TSE_V4			1
#define TSE_V6			2

enum tse_status {
	TSE_PASS,
	TSE_FAIL,
	TSE_SKIP,
};

#define TSE_MAX_CHECKS	16
#define TSE_TEXT	256

/* One observation compared with what a correct kernel gives. */
struct tse_check {
	char what[96];		/* e.g. "egress classifier runs per packet" */
	long long got;
	long long want;
	int bad;		/* per-packet checks: packets that differ */
	int total;		/* per-packet checks: packets checked */
	const char *word;	/* diagnosis when it fails, e.g. "reclassified" */
	const char *meaning;	/* what a failure means for the kernel */
};

struct tse_result {
	enum tse_status status;
	char reason[TSE_TEXT];		/* why it skipped or could not run */
	const char *diagnosis;		/* the first failing check's word */
	int nr_checks;
	struct tse_check checks[TSE_MAX_CHECKS];
	char kernel_log[TSE_TEXT];	/* a warning the kernel logged meanwhile */
	double seconds;			/* wall time, for information only */
};

int tse_scenario_count(void);
const char *tse_scenario_name(int i);
int tse_scenario_families(int i);
const char *tse_family_name(int family);
void tse_run(const char *scenario, int family, struct tse_result *res);
bool tse_check_ok(const struct tse_check *c);
void tse_format_check(const struct tse_check *c, char *buf, int len);

#endif /* __TSE_H */
