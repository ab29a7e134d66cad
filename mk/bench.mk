# SPDX-License-Identifier: GPL-2.0
#
# The seed's benchmark, reproduced side by side in VMs (bench/;
# docs/benchmark.md is its manual).
#
#   make bench             stock, seed, fix and the two other designs
#                          (fix-keep-mark, fix-mirred-only) in
#                          qemu: rr, stream and nodelay (32-byte messages, sends)
#                          on the fast path, with an egress hook elsewhere,
#                          with 5 and with 100 egress filters; under icount
#                          (the default without KVM) 3 rounds of 2 s of
#                          guest time; writes bench/results/ (CSV, markdown,
#                          PNG); then the suite's own cost
#   make bench-check       the fast-path gate: one icount round of stock and
#                          fix (BENCH_CHECK_KERNEL), TCP_RR on the fast
#                          path and with 5 filters; fails on a fast-path cost over 0.1 %,
#                          on classifier runs per packet other than 2
#                          (stock) and 1 (fix), on a missing cell
#   make bench-smoke       the same as bench, 1 round of 1 s runs, into
#                          $(BUILD)/bench/smoke
#   make bench-suite-cost  only the suite's own cost: host run per test,
#                          VM matrix warm
#
# BENCH_CLOCK (icount, tcg, kvm), BENCH_ROUNDS, BENCH_SECONDS, BENCH_KERNELS,
# BENCH_SHAPES, BENCH_WORKLOADS and BENCH_JOBS override the defaults.
# Included by the top-level Makefile, which defines BUILD, KDIR and kdir.

BENCH_BUILD := $(BUILD)/bench
BENCH_TOOLS := $(BENCH_BUILD)/rr $(BENCH_BUILD)/runcnt $(BENCH_BUILD)/count.bpf.o

.PHONY: bench bench-check bench-smoke bench-tools bench-suite-cost

bench-tools: kdir $(BENCH_TOOLS)

$(BENCH_BUILD)/rr: bench/rr.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -o $@ $<

$(BENCH_BUILD)/runcnt: bench/runcnt.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -o $@ $<

$(BENCH_BUILD)/count.bpf.o: bench/count.bpf.c | kdir
	@mkdir -p $(@D)
	clang -O2 -target bpf -I/usr/include/$(shell $(CC) -dumpmachine) \
		-I$(BUILD)/libbpf/include -c $< -o $@

# The suite's cost is measured on the kernels the benchmark just built, so
# that the VM matrix is warm.
bench: deps-bench bench-tools suite
	@bench/run.sh $(BENCH_KERNELS)
	@bench/suite-cost.sh bench/results $(or $(BENCH_KERNELS),stock seed fix)

bench-check: deps-bench bench-tools
	@bench/check.sh

bench-smoke: deps-bench bench-tools
	@BENCH_ROUNDS=$(or $(BENCH_ROUNDS),1) BENCH_SECONDS=$(or $(BENCH_SECONDS),1) \
		BENCH_OUT=$(BENCH_BUILD)/smoke bench/run.sh $(BENCH_KERNELS)

bench-suite-cost: deps-vm suite
	@bench/suite-cost.sh bench/results
