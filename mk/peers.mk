# SPDX-License-Identifier: GPL-2.0
#
# The 6.12 tree's own tc and redirect selftests on stock, seed and fix
# kernels, each in its own VM (vm/peers.sh; README, "The tree's own
# selftests: make peers").
#
#   make peers                          stock, seed and fix (where it exists)
#   make peers PEERS_KERNELS='stock fix'
#   make peers TEST_PROGS=PATH          with test_progs -a tc_redirect, from
#                                       the tree's full BPF build (make
#                                       full-build: build/bpf-full/out/test_progs)
#
# Exits 1 when a test passes on stock and not on fix. Not part of
# make check. Included by the top-level Makefile, which defines KDIR.

PEERS_KERNELS ?=

.PHONY: peers

peers: kdir
	@scripts/deps.sh --peers
	@KDIR="$(KDIR)" TEST_PROGS="$(TEST_PROGS)" vm/peers.sh $(PEERS_KERNELS)
