/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The grid's rows (tse_grid.c): one setup and one judge for all of them,
 * driven by the row's point, and the model the judge checks against.
 */
#ifndef __TSE_GRID_H
#define __TSE_GRID_H

#include "tse_internal.h"

/* For the library's other parts only: hidden from the front ends. */
#pragma GCC visibility push(hidden)

int tse_grid_prepare(struct tse_test *t);
int tse_grid_setup(struct tse_test *t);
void tse_grid_judge(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_GRID_H */
