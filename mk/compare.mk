# SPDX-License-Identifier: GPL-2.0
#
# make compare KERNELS='stock fix' [T='ROW ...']: the grid's observations
# on two kernels or more, side by side (vm/compare-kernels.sh;
# docs/compare.md). Included by the top-level Makefile, which defines KDIR.

KERNELS ?=

.PHONY: compare

compare: deps-vm suite
	@KDIR="$(KDIR)" vm/compare-kernels.sh $(foreach t,$(T),-t $(t)) $(KERNELS)
