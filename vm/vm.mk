# SPDX-License-Identifier: GPL-2.0
#
# VM targets (docs/vm.md; vmtest-lts and check-lts, the 6.1 line's, in
# docs/kernels.md); the top-level Makefile includes this after setting
# KDIR. T='egress_mirred.ipv4 ...' limits a run to those tests,
# FRONT=test_progs runs that front end, KERNEL=IMAGE boots that bzImage.

VM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VM_TESTS = $(foreach t,$(T),-t $(t))

# The 6.1 line's tree and build folder (vm/vmtest-lts.sh).
KDIR_LTS ?= $(BUILD)/linux-source-6.1
VM_BUILD_LTS ?= $(BUILD)/vm-6.1

.PHONY: vmtest vmtest-mutants vmtest-lts check-lts vm-kdir-line bisect-demo

# The suite builds against KDIR: make vmtest takes a 6.12 tree only (the
# 6.1 line's kernels are vmtest-lts's, with the suite built against 6.12).
# A missing tree is kdir.sh's to extract (the default) or refuse.
vm-kdir-line:
	@[ -f "$(KDIR)/Makefile" ] || exit 0; \
	line=$$(KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh --line) || exit 2; \
	[ "$$line" = 6.12 ] || { echo "vmtest: KDIR=$(KDIR) is the $$line line: \
make vmtest-lts KDIR_LTS=$(KDIR) runs it, with the suite built against 6.12" >&2; exit 2; }

vmtest: deps-vm $(if $(KERNEL),,vm-kdir-line) suite $(if $(filter test_progs,$(FRONT)),test_progs)
	@KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh $(VM_TESTS) \
		$(if $(FRONT),--front $(FRONT)) \
		$(if $(KERNEL),--kernel "$(KERNEL)")

vmtest-lts: deps-vm suite test_progs
	@KDIR_LTS="$(KDIR_LTS)" VM_BUILD_LTS="$(VM_BUILD_LTS)" $(VM_MK_DIR)/vmtest-lts.sh \
		$(VM_TESTS) $(if $(FRONT),--front $(FRONT))

check-lts: deps-vm suite test_progs
	@$(VM_MK_DIR)/check-lts.sh $(if $(KERNEL),--kernel "$(KERNEL)")

vmtest-mutants: deps-vm vm-kdir-line suite
	@KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh --mutants $(VM_TESTS)

bisect-demo: deps-vm suite
	@KDIR="$(KDIR)" $(VM_MK_DIR)/bisect-demo.sh
