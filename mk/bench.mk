# SPDX-License-Identifier: GPL-2.0
#
# The seed's benchmark in VMs (bench/): make bench, bench-check,
# bench-smoke, bench-suite-cost. docs/benchmark.md is its manual (targets,
# BENCH_* overrides). Included by the top-level Makefile (BUILD, KDIR, kdir).

BENCH_BUILD := $(BUILD)/bench
BENCH_TOOLS := $(BENCH_BUILD)/rr $(BENCH_BUILD)/runcnt $(BENCH_BUILD)/count.bpf.o

.PHONY: bench bench-check bench-smoke bench-tools bench-suite-cost

bench-tools: kdir $(BENCH_TOOLS)

$(BENCH_BUILD)/%: bench/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -o $@ $<

$(BENCH_BUILD)/count.bpf.o: bench/count.bpf.c | kdir
	@mkdir -p $(@D)
	clang -O2 -target bpf -I/usr/include/$(shell $(CC) -dumpmachine) \
		-I$(BUILD)/libbpf/include -c $< -o $@

# The suite's cost is measured on the kernels the benchmark just built, so
# that the VM matrix is warm.
# make bench compares the 2021 seed too: the 6.12 line's kernels
# (vm/vm.mk's KDIR_MUTANT). make bench-check, in make check, is stock and
# fix of the first line.
bench: deps-bench bench-tools suite kdir-mutant
	@KDIR="$(KDIR_MUTANT)" VM_BUILD="$(VM_BUILD_MUTANT)" bench/run.sh $(BENCH_KERNELS)
	@KDIR="$(KDIR_MUTANT)" VM_BUILD="$(VM_BUILD_MUTANT)" \
		bench/suite-cost.sh bench/results $(or $(BENCH_KERNELS),stock seed fix)

bench-check: deps-bench bench-tools
	@bench/check.sh

bench-smoke: deps-bench bench-tools
	@BENCH_ROUNDS=$(or $(BENCH_ROUNDS),1) BENCH_SECONDS=$(or $(BENCH_SECONDS),1) \
		BENCH_OUT=$(BENCH_BUILD)/smoke bench/run.sh $(BENCH_KERNELS)

bench-suite-cost: deps-vm suite
	@bench/suite-cost.sh bench/results
