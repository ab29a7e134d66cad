/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_PROBES_H
#define __TSE_PROBES_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

int tse_check_features(struct tse_test *t);
int tse_probe_tcx(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_PROBES_H */
