# SPDX-License-Identifier: GPL-2.0
#
# The seed's benchmark, reproduced side by side in VMs (bench/).
#
#   make bench             stock, seed and fix kernels in qemu, 5 rounds of
#                          rr and stream on the fast path and with 100
#                          egress filters; writes bench/results/ (CSV,
#                          markdown, PNG); then the suite's own cost
#   make bench-smoke       the same, 1 round of 2 s runs, into
#                          $(BUILD)/bench/smoke (a few minutes, kernels built)
#   make bench-suite-cost  only the suite's own cost: host run per test,
#                          VM matrix warm
#
# BENCH_ROUNDS, BENCH_SECONDS and BENCH_KERNELS override the defaults.
# Included by the top-level Makefile, which defines BUILD, KDIR and kdir.

BENCH_BUILD := $(BUILD)/bench
BENCH_TOOLS := $(BENCH_BUILD)/rr $(BENCH_BUILD)/runcnt $(BENCH_BUILD)/count.bpf.o

.PHONY: bench bench-smoke bench-tools bench-suite-cost

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
bench: bench-tools suite
	@bench/run.sh $(BENCH_KERNELS)
	@bench/suite-cost.sh bench/results $(or $(BENCH_KERNELS),stock seed fix)

bench-smoke: bench-tools
	@BENCH_ROUNDS=$(or $(BENCH_ROUNDS),1) BENCH_SECONDS=$(or $(BENCH_SECONDS),2) \
		BENCH_OUT=$(BENCH_BUILD)/smoke bench/run.sh $(BENCH_KERNELS)

bench-suite-cost: suite
	@bench/suite-cost.sh bench/results
