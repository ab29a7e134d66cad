/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic: the flows a scenario sends and the wait for their outcome
 * (tse_traffic.c).
 */
#ifndef __TSE_TRAFFIC_H
#define __TSE_TRAFFIC_H

#include "tse_internal.h"

/* For the library's other parts only: hidden from the front ends. */
#pragma GCC visibility push(hidden)

int tse_traffic_open(struct tse_test *t);
void tse_traffic_close(struct tse_test *t);
int tse_traffic_run(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_TRAFFIC_H */
