/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TSE_NETLINK_H
#define __TSE_NETLINK_H

#include "tse_internal.h"

#pragma GCC visibility push(hidden)

int tse_devstats_read(int fd, int ifindex, struct tse_devstats *ds);
int tse_action_read(int fd, const char *kind, __u32 index, struct tse_actstats *as);
int tse_brport_state(int fd, int ifindex);

#pragma GCC visibility pop

#endif /* __TSE_NETLINK_H */
