# SPDX-License-Identifier: GPL-2.0
#
# make peers [PEERS_KERNELS='stock fix'] [PEERS_TEST_PROGS=[PATH]]: the
# 6.12 tree's own tc and redirect selftests in VMs (vm/peers.sh,
# docs/peers.md), on the 6.12 line's kernels, seed among them (vm/vm.mk's
# KDIR_MUTANT). Included by the top-level Makefile.

PEERS_KERNELS ?=
PEERS_TEST_PROGS ?= $(BUILD)/bpf-full/out/test_progs

.PHONY: peers

# The full build is long (12 to 26 min measured on 2 cores): only when
# test_progs is missing, never to refresh it.
$(BUILD)/bpf-full/out/test_progs: | deps-full-build
	@mk/full-build.sh >/dev/null

peers: deps-peers kdir-mutant $(PEERS_TEST_PROGS)
	@KDIR="$(KDIR_MUTANT)" VM_BUILD="$(VM_BUILD_MUTANT)" \
		PEERS_TEST_PROGS="$(PEERS_TEST_PROGS)" vm/peers.sh $(PEERS_KERNELS)
