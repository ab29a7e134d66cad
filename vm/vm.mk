# SPDX-License-Identifier: GPL-2.0
#
# VM targets (docs/vm.md; vmtest-lts and check-lts, the stable lines', in
# docs/kernels.md); the top-level Makefile includes this after setting
# KDIR and LINE (scripts/lines). T='egress_mirred.ipv4 ...' limits a run
# to those tests, FRONT=test_progs runs that front end, KERNEL=IMAGE boots
# that bzImage, LTS_LINE=6.12 runs one stable line.

VM_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VM_TESTS = $(foreach t,$(T),-t $(t))

# The line whose kernels the 2021 series and the mutants are written for
# (vm/lib.sh, VM_MUTANT_LINE), its tree and build folder.
MUTANT_LINE := $(shell bash -c '. $(VM_MK_DIR)/lib.sh && echo $$VM_MUTANT_LINE')
KDIR_MUTANT ?= $(BUILD)/linux-source-$(MUTANT_LINE)
VM_BUILD_MUTANT ?= $(BUILD)/vm-$(MUTANT_LINE)

.PHONY: vmtest vmtest-mutants vmtest-lts check-lts vm-kdir-line bisect-demo mutate \
	kdir-mutant

# make vmtest runs the first line: a tree of a stable line is make
# vmtest-lts's. A missing tree is kdir.sh's to make (the default) or refuse.
vm-kdir-line:
	@[ -f "$(KDIR)/Makefile" ] || exit 0; \
	line=$$(KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh --line) || exit 2; \
	[ "$$line" = $(LINE) ] || { echo "vmtest: KDIR=$(KDIR) is the $$line line: \
make vmtest-lts KDIR_LTS=$(KDIR) runs it, with the suite built against $(LINE)" >&2; exit 2; }

vmtest: deps-vm $(if $(KERNEL),,vm-kdir-line) suite $(if $(filter test_progs,$(FRONT)),test_progs)
	@KDIR="$(KDIR)" $(VM_MK_DIR)/vmtest.sh $(VM_TESTS) \
		$(if $(FRONT),--front $(FRONT)) \
		$(if $(KERNEL),--kernel "$(KERNEL)")

vmtest-lts: deps-vm suite test_progs
	@$(if $(KDIR_LTS),KDIR_LTS="$(KDIR_LTS)") $(VM_MK_DIR)/vmtest-lts.sh \
		$(VM_TESTS) $(if $(FRONT),--front $(FRONT)) \
		$(if $(LTS_LINE),--line $(LTS_LINE))

check-lts: deps-vm suite test_progs
	@$(VM_MK_DIR)/check-lts.sh $(if $(KERNEL),--kernel "$(KERNEL)")

kdir-mutant: deps
	@scripts/trees.sh $(MUTANT_LINE) "$(KDIR_MUTANT)" >/dev/null

# The mutants and the 2021 series' kernels are the 6.12 line's (docs/vm.md
# says why that is enough); the suite is built against KDIR as always.
vmtest-mutants: deps-vm kdir-mutant suite
	@KDIR="$(KDIR_MUTANT)" VM_BUILD="$(VM_BUILD_MUTANT)" \
		$(VM_MK_DIR)/vmtest.sh --mutants $(VM_TESTS)

bisect-demo: deps-vm kdir-mutant suite
	@KDIR="$(KDIR_MUTANT)" VM_BUILD="$(VM_BUILD_MUTANT)" $(VM_MK_DIR)/bisect-demo.sh

# make mutate [MUTATE_ARGS='-n 20']: mutation testing on the mutants'
# line (vm/mutate.sh, docs/mutation.md); it resumes where it stopped. A
# mutant only make bench-check kills is judged on the first line's tree.
mutate: deps-vm kdir-mutant suite test_progs bench-tools
	@KDIR="$(KDIR_MUTANT)" VM_BUILD="$(VM_BUILD_MUTANT)" \
		BENCH_KDIR="$(BUILD)/linux-source-$(LINE)" \
		$(VM_MK_DIR)/mutate.sh $(MUTATE_ARGS)
