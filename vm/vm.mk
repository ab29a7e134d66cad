# SPDX-License-Identifier: GPL-2.0
#
# VM targets; the top-level Makefile includes this after setting KDIR.
#
#   make vmtest                 the suite on stock, seed, iif, both and fix kernels
#                               in qemu; prints the matrix, checks it against
#                               vm/expected-matrix.txt
#   make vmtest KERNEL=IMAGE    the suite on one bzImage; prints its TAP
#   make vmtest-mutants         as vmtest, plus every vm/mutants/*.patch
#   make bisect-demo            git bisect run finds the commit that breaks
#                               root_qdisc_mirred_with_clsact
#
# T='egress_mirred.ipv4 ...' limits vmtest to those tests; FRONT=test_progs
# runs the test_progs front end instead, against the same expected matrix.

VM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VM_TESTS = $(foreach t,$(T),-t $(t))

.PHONY: vmtest vmtest-mutants bisect-demo

vmtest: suite $(if $(filter test_progs,$(FRONT)),test_progs)
	@KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh $(VM_TESTS) \
		$(if $(FRONT),--front $(FRONT)) \
		$(if $(KERNEL),--kernel "$(KERNEL)")

vmtest-mutants: suite
	@KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh --mutants $(VM_TESTS)

bisect-demo: suite
	@KDIR="$(KDIR)" $(VM_MK_DIR)/bisect-demo.sh
