/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_RESULT_H
#define __TSE_RESULT_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

struct tse_meaning {
	const char *word;
	const char *meaning;
};

extern const struct tse_meaning tse_reclassified, tse_skipped, tse_looped,
	tse_not_redirected, tse_misredirected, tse_duplicated,
	tse_not_delivered, tse_dropped_by_ifb, tse_dropped_by_ifb_iif0,
	tse_wrong_device, tse_wrong_home, tse_not_hairpinned, tse_actions_skipped,
	tse_actions_repeated,
	tse_misclassified, tse_fields_changed, tse_kernel_warning, tse_leaked,
	tse_net_ctx_left;

__printf(2, 3) int tse_skip(struct tse_test *t, const char *fmt, ...);
__printf(2, 3) int tse_setup_error(struct tse_test *t,
				   const char *fmt, ...);
__printf(2, 3) void tse_note(struct tse_test *t, const char *fmt, ...);
struct tse_check *__tse_expect(const char *where, struct tse_test *t,
			       const char *what, long long got, long long want,
			       const struct tse_meaning *more,
			       const struct tse_meaning *less);
void __tse_expect_at_least(const char *where, struct tse_test *t,
			   const char *what, long long got, long long want,
			   const struct tse_meaning *less);
struct tse_check *__tse_expect_each(const char *where, struct tse_test *t,
				    const char *what, const unsigned int *row,
				    unsigned int want,
				    const struct tse_meaning *more,
				    const struct tse_meaning *less);
void tse_record(struct tse_test *t);
long long tse_now_ms(void);

/* A check is named after the oracle that made it: its caller. */
#define tse_expect(t, ...)	__tse_expect(__func__, t, __VA_ARGS__)
#define tse_expect_at_least(t, ...) \
	__tse_expect_at_least(__func__, t, __VA_ARGS__)
#define tse_expect_each(t, ...) \
	__tse_expect_each(__func__, t, __VA_ARGS__)

#pragma GCC visibility pop

#endif /* __TSE_RESULT_H */
