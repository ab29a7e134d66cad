/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_TRAFFIC_H
#define __TSE_TRAFFIC_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

int tse_traffic_open(struct tse_test *t);
void tse_traffic_close(struct tse_test *t);
int tse_traffic_run(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_TRAFFIC_H */
