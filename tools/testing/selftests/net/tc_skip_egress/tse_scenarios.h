/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_SCENARIOS_H
#define __TSE_SCENARIOS_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

const struct tse_scenario *tse_find(const char *name);

#pragma GCC visibility pop

#endif /* __TSE_SCENARIOS_H */
