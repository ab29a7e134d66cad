# SPDX-License-Identifier: GPL-2.0
#
# The 6.12 tree's own tc and redirect selftests on stock, seed and fix
# kernels, each in its own VM (vm/peers.sh, docs/peers.md).
#
#   make peers                          stock, seed and fix (where it exists),
#                                       with test_progs -a tc_redirect from
#                                       the tree's full BPF build (built by
#                                       make full-build when missing)
#   make peers PEERS_KERNELS='stock fix'
#   make peers PEERS_TEST_PROGS=        without test_progs: its row says
#                                       "not run"
#   make peers PEERS_TEST_PROGS=PATH    another test_progs
#
# Exits 1 when a test passes on stock and not on fix. Not part of
# make check. Included by the top-level Makefile, which defines KDIR.

PEERS_KERNELS ?=
PEERS_TEST_PROGS ?= $(BUILD)/bpf-full/out/test_progs

.PHONY: peers

# The full build is long (12 to 26 min measured on 2 cores): only when
# test_progs is missing, never to refresh it.
$(BUILD)/bpf-full/out/test_progs: | deps-full-build
	@mk/full-build.sh >/dev/null

peers: deps-peers kdir $(PEERS_TEST_PROGS)
	@KDIR="$(KDIR)" PEERS_TEST_PROGS="$(PEERS_TEST_PROGS)" vm/peers.sh $(PEERS_KERNELS)
