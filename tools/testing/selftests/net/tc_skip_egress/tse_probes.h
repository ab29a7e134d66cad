/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feature probes (tse_probes.c).
 */
#ifndef __TSE_PROBES_H
#define __TSE_PROBES_H

#include "tse_internal.h"

/* For the library's other parts only: hidden from the front ends. */
#pragma GCC visibility push(hidden)

int tse_check_features(struct tse_test *t);
int tse_probe_tcx(struct tse_test *t);

#pragma GCC visibility pop

#endif /* __TSE_PROBES_H */
