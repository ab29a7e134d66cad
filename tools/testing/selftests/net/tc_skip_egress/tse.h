/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_skip_egress: does a packet that ifb re-injects on egress skip the
 * device's egress tc hook, as the ingress hook already does?
 *
 * The scenario library's interface to its front ends, the kselftest
 * harness (tc_skip_egress.c) and test_progs (tc_redirect_ifb.c), which
 * hold no scenario logic.
 */
#ifndef __TSE_H
#define __TSE_H

#include <stdbool.h>

/* IP versions every scenario runs for. */
#define TSE_V4			1
#define TSE_V6			2

enum tse_status {
	TSE_PASS,
	TSE_FAIL,
	TSE_SKIP,
};

/* How a check compares what it saw with what a correct kernel gives. */
enum tse_cmp {
	TSE_EQ,
	TSE_GE,
};

#define TSE_MAX_CHECKS	128
#define TSE_TEXT	256

/* One observation compared with what a correct kernel gives. */
struct tse_check {
	char what[112];		/* e.g. "egress classifier runs per packet" */
	long long got;
	long long want;
	enum tse_cmp cmp;
	int bad;		/* per-packet checks: packets that differ */
	int total;		/* per-packet checks: packets checked */
	const char *word;	/* diagnosis when it fails, e.g. "reclassified" */
	const char *meaning;	/* what a failure means for the kernel */
	char where[96];		/* "row:oracle", or "row:model.observer" */
	char values[96];	/* per-packet checks: each packet's count */
	long long stock;	/* grid rows: what the model gives stock, or -1 */
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
 * Build @scenario's topology for @family. Returns NULL only when out of
 * memory; otherwise res->status says whether it may run (TSE_PASS), must
 * skip (a missing feature, res->reason) or failed its setup.
 */
struct tse_test *tse_setup(const char *scenario, int family,
			   struct tse_result *res);
/*
 * Send the scenario's traffic and judge the kernel into the result; with
 * TSE_RECORD set, append its checks to that file, or fail the result.
 */
void tse_exercise(struct tse_test *t);
/* Remove everything the scenario created. */
void tse_teardown(struct tse_test *t);

bool tse_check_ok(const struct tse_check *c);
void tse_format_check(const struct tse_check *c, char *buf, int len);

#endif /* __TSE_H */
