// SPDX-License-Identifier: GPL-2.0
/* The first failed check gives the diagnosis; a test that cannot run skips, or fails "setup". */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tse_result.h"

const struct tse_meaning tse_reclassified = {
	"reclassified", "packets re-injected by ifb are classified again"
};

const struct tse_meaning tse_skipped = {
	"skipped",
	"the hook let packets pass unclassified: a skip meant for re-injected packets reached them"
};

const struct tse_meaning tse_looped = {
	"looped", "re-injected packets are redirected to ifb again, without end"
};

const struct tse_meaning tse_not_redirected = {
	"not-redirected", "packets that should pass through ifb did not"
};

const struct tse_meaning tse_misredirected = {
	"misredirected", "packets no filter redirects went through ifb"
};

const struct tse_meaning tse_duplicated = {
	"duplicated", "the receiver got packets more than once"
};

const struct tse_meaning tse_not_delivered = {
	"not-delivered", "packets were lost on the way to the receiver"
};

/* ifb drops what has skb_iif 0, no redirected bit, or an skb_iif naming no device. */
const struct tse_meaning tse_dropped_by_ifb = {
	"dropped-by-ifb",
	"ifb dropped redirected packets whose skb_iif was set: either the redirect did not set the redirected bit (bpf_redirect() does not on 6.1), or skb_iif names no device in ifb's namespace"
};

const struct tse_meaning tse_dropped_by_ifb_iif0 = {
	"dropped-by-ifb",
	"ifb dropped redirected packets that arrived with skb_iif 0 (seen by BPF on ifb): the redirect did not set skb_iif (bpf_redirect() does not without the bpf patch of this series), so ifb has no device to return them to"
};

const struct tse_meaning tse_wrong_device = {
	"wrong-device",
	"ifb sent forwarded packets out of the router's input device: the redirect left skb_iif naming the device the packet arrived on, not the one it was leaving"
};

const struct tse_meaning tse_not_hairpinned = {
	"not-hairpinned",
	"the redirect back out of the input device did not run: the packet went on"
};

const struct tse_meaning tse_wrong_home = {
	"wrong-home",
	"ifb returned packets to another device than the one in their skb_iif: one batch's packets left by one device"
};

const struct tse_meaning tse_actions_skipped = {
	"actions-skipped",
	"the root qdisc's actions did not run for packets ifb re-injected: a skip meant for the egress hook reached them"
};

const struct tse_meaning tse_actions_repeated = {
	"actions-repeated", "the root qdisc's actions ran more than once for a packet"
};

const struct tse_meaning tse_misclassified = {
	"misclassified",
	"packets ifb re-injected did not reach the root qdisc class their filter chose"
};

const struct tse_meaning tse_fields_changed = {
	"fields-changed",
	"a BPF program read a field of the packet that differs from what the kernel is meant to give it there"
};

const struct tse_meaning tse_leaked = {
	"leaked", "the kernel kept sent packets that no device sent and nothing dropped"
};

const struct tse_meaning tse_net_ctx_left = {
	"net-ctx-left",
	"a tc hook returned without clearing the task's bpf_net_context: it points into a stack frame that has returned, where the task's next hook keeps its redirect target"
};

const struct tse_meaning tse_kernel_warning = {
	"kernel-warning", "the kernel logged a warning while the test ran"
};

const char *tse_family_name(int family)
{
	return family == TSE_V6 ? "ipv6" : "ipv4";
}

static int set_reason(struct tse_result *res, enum tse_status status,
		      const char *fmt, va_list ap)
{
	int len = sizeof(res->reason);

	if (vsnprintf(res->reason, len, fmt, ap) >= len)
		res->reason[len - 1] = '\0';
	res->status = status;
	if (status == TSE_FAIL)
		res->diagnosis = "setup";
	return -1;
}

__printf(2, 3) int tse_skip(struct tse_test *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_reason(t->res, TSE_SKIP, fmt, ap);
	va_end(ap);
	return -1;
}

__printf(2, 3) int tse_setup_error(struct tse_test *t,
				   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_reason(t->res, TSE_FAIL, fmt, ap);
	va_end(ap);
	return -1;
}

__printf(2, 3) void tse_note(struct tse_test *t, const char *fmt, ...)
{
	size_t used = strlen(t->res->note);
	char *buf = t->res->note + used;
	size_t left = sizeof(t->res->note) - used;
	va_list ap;

	if (used && left > 2) {
		memcpy(buf, "; ", 3);
		buf += 2;
		left -= 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf, left, fmt, ap);
	va_end(ap);
}

bool tse_check_ok(const struct tse_check *c)
{
	if (c->total)
		return c->bad == 0;
	return c->cmp == TSE_GE ? c->got >= c->want : c->got == c->want;
}

void tse_format_check(const struct tse_check *c, char *buf, int len)
{
	const char *op = c->cmp == TSE_GE ? "at least " : "";

	char stock[32] = "";

	if (c->stock >= 0)
		snprintf(stock, sizeof(stock), " (stock: %lld)", c->stock);
	if (tse_check_ok(c))
		snprintf(buf, len, "%s: %lld, as expected", c->what, c->got);
	else if (c->total)
		snprintf(buf, len, "%s: %lld for %d of %d packets, expected %lld%s: %s",
			 c->what, c->got, c->bad, c->total, c->want, stock, c->meaning);
	else
		snprintf(buf, len, "%s: %lld, expected %s%lld%s: %s",
			 c->what, c->got, op, c->want, stock, c->meaning);
}

static struct tse_check *new_check(struct tse_test *t, const char *where,
				   const char *what)
{
	struct tse_result *res = t->res;
	struct tse_check *c;

	if (res->nr_checks == TSE_MAX_CHECKS) {
		/* A scenario with more checks than room is a bug in it. */
		tse_setup_error(t, "more than %d checks", TSE_MAX_CHECKS);
		return NULL;
	}
	c = &res->checks[res->nr_checks++];
	memset(c, 0, sizeof(*c));
	snprintf(c->what, sizeof(c->what), "%s", what);
	snprintf(c->where, sizeof(c->where), "%s:%s", t->s->name, where);
	c->stock = -1;
	return c;
}

static void set_meaning(struct tse_check *c, const struct tse_meaning *more,
			const struct tse_meaning *less)
{
	const struct tse_meaning *m = c->got > c->want ? more : less;

	c->word = m->word;
	c->meaning = m->meaning;
}

static void record(struct tse_test *t, struct tse_check *c)
{
	if (tse_check_ok(c) || t->res->status != TSE_PASS)
		return;
	t->res->status = TSE_FAIL;
	t->res->diagnosis = c->word;
}

struct tse_check *__tse_expect(const char *where, struct tse_test *t,
			       const char *what, long long got, long long want,
			       const struct tse_meaning *more,
			       const struct tse_meaning *less)
{
	struct tse_check *c = new_check(t, where, what);

	if (!c)
		return NULL;
	c->got = got;
	c->want = want;
	set_meaning(c, more, less);
	record(t, c);
	return c;
}

void __tse_expect_at_least(const char *where, struct tse_test *t,
			   const char *what, long long got, long long want,
			   const struct tse_meaning *less)
{
	struct tse_check *c = new_check(t, where, what);

	if (!c)
		return;
	c->got = got;
	c->want = want;
	c->cmp = TSE_GE;
	set_meaning(c, less, less);
	record(t, c);
}

struct tse_check *__tse_expect_each(const char *where, struct tse_test *t,
				    const char *what, const unsigned int *row,
				    unsigned int want,
				    const struct tse_meaning *more,
				    const struct tse_meaning *less)
{
	struct tse_check *c = new_check(t, where, what);
	int seq, len = 0;

	if (!c)
		return NULL;
	c->want = want;
	c->got = want;
	c->total = t->pkts;
	for (seq = 0; seq < t->pkts; seq++) {
		if (len < (int)sizeof(c->values))
			len += snprintf(c->values + len, sizeof(c->values) - len,
					"%s%u", seq ? "," : "", row[seq]);
		if (row[seq] == want)
			continue;
		if (!c->bad++)
			c->got = row[seq];
	}
	set_meaning(c, more, less);
	record(t, c);
	return c;
}

static void record_failed(struct tse_test *t, const char *path,
			  const char *why)
{
	fprintf(stderr, "cannot append the observations of %s.%s to %s (TSE_RECORD): %s\n",
		t->s->name, tse_family_name(t->family), path, why);
	if (t->res->status != TSE_FAIL)
		tse_setup_error(t, "cannot append the observations to %s (TSE_RECORD): %s",
				path, why);
}

/* TSE_RECORD=FILE: one line per check, one write per test (docs/compare.md). */
/* A per-packet check keeps every packet's value, so that make compare can read each. */
static_assert(TSE_MAX_PKTS * 7 <= TSE_VALUES, "values[] cannot hold TSE_MAX_PKTS values");

void tse_record(struct tse_test *t)
{
	static const char *const status[] = { "pass", "fail", "skip" };
	const char *path = getenv("TSE_RECORD");
	const struct tse_result *res = t->res;
	char buf[TSE_MAX_CHECKS * (320 + TSE_VALUES) + 128];
	int i, fd, len = 0, size = sizeof(buf);
	const struct tse_check *c;
	ssize_t n;

	if (!path || !*path || t->recorded)
		return;
	t->recorded = true;
	/* snprintf() returns what it would write: len >= size once cut. */
	for (i = 0; i < res->nr_checks && len < size; i++) {
		c = &res->checks[i];
		len += snprintf(buf + len, size - len,
				"%s.%s\t%s\t%s\t%lld\t%lld\t%lld\t%s\n",
				t->s->name, tse_family_name(t->family), c->where,
				c->what, c->got, c->want, c->stock,
				c->values[0] ? c->values : "-");
	}
	if (len < size)
		len += snprintf(buf + len, size - len, "%s.%s\t.end\t%d\t%s\n",
				t->s->name, tse_family_name(t->family),
				res->nr_checks, status[res->status]);
	if (len >= size) {
		record_failed(t, path, "the row does not fit in the buffer");
		return;
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		record_failed(t, path, strerror(errno));
		return;
	}
	n = write(fd, buf, len);
	if (n != len)
		record_failed(t, path, n < 0 ? strerror(errno) : "short write");
	close(fd);
}

long long tse_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}
