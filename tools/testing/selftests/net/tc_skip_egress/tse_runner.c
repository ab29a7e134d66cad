// SPDX-License-Identifier: GPL-2.0
/* What a front end calls (tse.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tse_result.h"
#include "tse_topology.h"
#include "tse_probes.h"
#include "tse_traffic.h"
#include "tse_oracles.h"
#include "tse_scenarios.h"

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - start->tv_sec +
	       (now.tv_nsec - start->tv_nsec) / 1e9;
}

static void tse_test_init(struct tse_test *t, const struct tse_scenario *s,
			  int family, struct tse_result *res)
{
	int i;

	clock_gettime(CLOCK_MONOTONIC, &t->start);
	t->s = s;
	t->family = family;
	t->res = res;
	t->pkts = s->pkts ?: TSE_PKTS;
	t->traffic.sends[TSE_FLOW_REDIRECTED] = true;
	t->traffic.sends[TSE_FLOW_SECOND] = s->unrelated || s->shape.aggregate;
	t->net.self_ns = -1;
	t->kmsg = -1;
	t->net.breaker = TSE_HOOKS;
	t->traffic.tap_sock = -1;
	t->traffic.stall_sock = -1;
	for (i = 0; i < TSE_NSS; i++) {
		t->net.ns[i] = -1;
		t->net.nl[i] = -1;
	}
	for (i = 0; i < TSE_FLOWS; i++) {
		t->traffic.tx_sock[i] = -1;
		t->traffic.rx_sock[i] = -1;
	}
}

/* A missing feature skips before anything is built; tcx needs our programs loaded. */
static int build(struct tse_test *t)
{
	return tse_topology_init(t) ?: tse_check_features(t) ?:
	       tse_topology_create(t) ?: tse_probe_tcx(t) ?:
	       tse_topology_attach(t);
}

struct tse_test *tse_setup(const char *name, int family, struct tse_result *res)
{
	const struct tse_scenario *s = tse_find(name);
	struct tse_test *t = calloc(1, sizeof(*t));

	if (t)
		t->queue = calloc(1, sizeof(*t->queue));
	if (!t || !t->queue) {
		free(t);
		return NULL;
	}
	memset(res, 0, sizeof(*res));
	t->res = res;
	t->kmsg = -1;
	if (!s || (family != TSE_V4 && family != TSE_V6)) {
		tse_setup_error(t, "no scenario %s for IP version %d", name, family);
		return t;
	}
	tse_test_init(t, s, family, res);
	if (geteuid() != 0) {
		tse_skip(t, "needs root: network namespaces, tc and BPF");
		tse_record(t);
		return t;
	}
	tse_kernel_log_start(t);
	if (s->prepare)
		s->prepare(t);
	if (!build(t) && !s->setup(t))
		tse_traffic_open(t);
	/* A front end may not tear down what did not set up: record it now. */
	if (res->status != TSE_PASS)
		tse_record(t);
	return t;
}

void tse_exercise(struct tse_test *t)
{
	if (t->res->status != TSE_PASS)
		return;
	if (!tse_traffic_run(t)) {
		t->s->judge(t);
		tse_expect_fields_unset(t);
		tse_expect_sends_freed(t);
		tse_expect_ifb_accounted(t);
		tse_expect_quiet(t);
		tse_expect_net_ctx_cleared(t);
		tse_expect_xmit_limit_logged(t);
		tse_kernel_log_check(t);
	}
	t->res->seconds = seconds_since(&t->start);
	/* Before the front end reports: a test not recorded fails its test. */
	tse_record(t);
}

void tse_teardown(struct tse_test *t)
{
	if (!t)
		return;
	if (t->s) {
		/* Recorded already, unless the front end did not exercise it. */
		tse_record(t);
		tse_traffic_close(t);
		tse_topology_destroy(t);
	}
	if (t->kmsg >= 0)
		close(t->kmsg);
	free(t->queue);
	free(t);
}
