// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario library as one translation unit, so that each front end
 * builds it the same way: the kselftest target compiles this file, and
 * bpf/prog_tests/tc_redirect_ifb.c includes it, which lets the BPF
 * selftests build it under their own rules (and with their skeleton).
 * Each part uses only the parts above it (tse_internal.h).
 */
#include "result.c"
#include "netlink.c"
#include "topology.c"
#include "traffic.c"
#include "oracles.c"
#include "scenarios.c"
#include "runner.c"
