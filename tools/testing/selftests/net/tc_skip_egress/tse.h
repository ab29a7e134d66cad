/* SPDX-License-Identifier: GPL-2.0 */
/* The tc_skip_egress scenario library's interface to tc_skip_egress.c and tc_redirect_ifb.c. */
#ifndef __TSE_H
#define __TSE_H

#include <stdbool.h>

#define TSE_V4			1
#define TSE_V6			2

enum tse_status {
	TSE_PASS,
	TSE_FAIL,
	TSE_SKIP,
};

enum tse_cmp {
	TSE_EQ,
	TSE_GE,
};

#define TSE_MAX_CHECKS	128
#define TSE_TEXT	256
#define TSE_VALUES	448	/* "N," for each of 64 packets, N up to 6 digits */

struct tse_check {
	char what[112];		/* e.g. "egress classifier runs per packet" */
	long long got;
	long long want;
	enum tse_cmp cmp;
	int bad;		/* per-packet checks: packets that differ */
	int total;		/* per-packet checks: packets checked */
	const char *word;	/* diagnosis when it fails, e.g. "reclassified" */
	const char *meaning;	/* what a failure means for the kernel */
	char where[96];		/* "scenario:tse_expect_*", or "scenario:model.observer" */
	char values[TSE_VALUES];	/* per-packet checks: each packet's count */
	long long stock;	/* points: what the model gives stock, or -1 */
};

struct tse_result {
	enum tse_status status;
	char reason[TSE_TEXT];		/* why it skipped or could not run */
	const char *diagnosis;		/* the first failing check's word */
	char note[TSE_TEXT];		/* facts about the run, e.g. the qdisc */
	int nr_checks;
	struct tse_check checks[TSE_MAX_CHECKS];
	char kernel_log[TSE_TEXT];	/* a warning the kernel logged meanwhile */
	double seconds;			/* wall time, for information only */
};

struct tse_test;

int tse_scenario_count(void);
const char *tse_scenario_name(int i);
const char *tse_family_name(int family);

/*
 * Returns NULL only when out of memory; res->status says whether the test may run (TSE_PASS),
 * skips (a missing feature, res->reason) or failed its setup.
 */
struct tse_test *tse_setup(const char *scenario, int family,
			   struct tse_result *res);
/* With TSE_RECORD set, also appends the checks to that file, or fails the result. */
void tse_exercise(struct tse_test *t);
void tse_teardown(struct tse_test *t);

bool tse_check_ok(const struct tse_check *c);
void tse_format_check(const struct tse_check *c, char *buf, int len);

#endif /* __TSE_H */
