# SPDX-License-Identifier: GPL-2.0
#
# tc_skip_egress selftests, built against a kernel tree's selftest framework.
#
#   make run_tests     run the suite (kselftest, TAP) against the running kernel
#                      (T='egress_mirred.ipv4 ...' runs only those)
#   make test_progs    build the test_progs front end (tc_redirect_ifb)
#   make check         the project's own tests
#   make stress        cleanup, parallel, repeat, warnings, bad input (slow)
#   make overlay       put the suite into $(KDIR) and list it in net/Makefile
#
# KDIR is a kernel tree; by default the first line of scripts/lines, from
# Debian's linux-source package, extracted under build/. The suite's files are copied into it (the "overlay"); every
# build then runs under the tree's own lib.mk.

LINE := $(shell awk '!/^\#/ && NF { print $$1; exit }' scripts/lines)
KDIR ?= $(CURDIR)/build/linux-source-$(LINE)
BUILD ?= $(CURDIR)/build
OUT := $(BUILD)/net/tc_skip_egress
SELFTESTS := $(KDIR)/tools/testing/selftests
TSE_TARGET := net/tc_skip_egress
SUITE_FILES := $(shell git ls-files --cached --others --exclude-standard tools 2>/dev/null || find tools -type f)

export KDIR BUILD

.PHONY: all deps deps-vm deps-bench deps-peers deps-series deps-full-build kdir overlay suite run_tests check stress clean

all: suite

# The Debian packages each target needs (scripts/deps.sh): deps is the
# suite's alone (make run_tests installs nothing more); the VM, benchmark,
# peers, series and full-build targets add their own group.
deps:
	@scripts/deps.sh

deps-vm: deps
	@scripts/deps.sh --vm

deps-bench: deps-vm
	@scripts/deps.sh --bench

deps-peers: deps-vm
	@scripts/deps.sh --peers

deps-series: deps
	@scripts/deps.sh --series

deps-full-build: deps
	@scripts/deps.sh --full-build

kdir: deps
	@scripts/kdir.sh "$(KDIR)"

# Copy the suite into the tree; scripts/tree-edits.sh lists it in
# net/Makefile (so TARGETS=net runs it) and adds the options the tests
# need to bpf/config and net/config, once.
overlay: kdir
	@# rsync -a keeps the checkout's times: an unchanged file must not
	@# look new to the tree's make (every BPF object depends on
	@# progs/*.h). It writes nothing when nothing changed, so an
	@# up-to-date tree on a read-only file system (the VMs' 9p root,
	@# make check-lts) passes. --delete on the suite's folder: a file
	@# renamed or removed here must not stay behind in the tree (the
	@# library is tse_*.c), nor an in-tree build's skeleton, which would
	@# shadow the one this build generates.
	@mkdir -p $(SELFTESTS)/$(TSE_TARGET)
	@rsync -a --delete tools/testing/selftests/$(TSE_TARGET)/ $(SELFTESTS)/$(TSE_TARGET)/
	@rsync -a --relative $(SUITE_FILES) $(KDIR)/
	@scripts/tree-edits.sh $(KDIR)

suite: overlay
	@mkdir -p $(OUT)
	@$(MAKE) -s -C $(SELFTESTS)/$(TSE_TARGET) OUTPUT=$(OUT) \
		LIBBPF_OUT=$(BUILD)/libbpf BPFTOOL=$(BUILD)/bpftool/bpftool

# T names tests to run, e.g. T='egress_mirred.ipv4 root_qdisc_mirred_solo.ipv6'.
run_tests: suite
	@SUITE=$(OUT)/tc_skip_egress scripts/run-suite.sh $(foreach t,$(T),-t $(t))

# The VM part (CHECK_VM=0 leaves it out) and its bench gate (CHECK_BENCH=0)
# need their own packages.
check: suite test_progs $(if $(filter 0,$(CHECK_VM)),,deps-vm \
	$(if $(filter 0,$(CHECK_BENCH)),,deps-bench))
	@tests/run.sh

# Its VM part (STRESS_VM=0 leaves it out) boots kernels.
stress: suite $(if $(filter 0,$(STRESS_VM)),,deps-vm)
	@tests/stress.sh

clean:
	rm -rf $(OUT)

# Front ends and runners beyond the kselftest target keep their rules beside
# their code.
-include mk/*.mk
-include vm/vm.mk
