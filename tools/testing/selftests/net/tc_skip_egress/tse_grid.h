/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_GRID_H
#define __TSE_GRID_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

void tse_grid_prepare(struct tse_test *t);
int tse_grid_setup(struct tse_test *t);
void tse_grid_judge(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_GRID_H */
