# SPDX-License-Identifier: GPL-2.0
#
# What a patch changes: the grid's observations on two kernels or more,
# side by side (vm/compare-kernels.sh, docs/compare.md).
#
#   make compare KERNELS='stock fix'
#   make compare KERNELS='fix fix-action-skip-keep-mark'
#   make compare KERNELS='stock path/to/bzImage distro' T='egress_mirred.ipv4'
#
# KERNELS: variants, mutant names, bzImage paths, distro or distro-6.1
# (Debian's kernel with its modules); the first is the one the others are
# compared with. T limits it to those grid rows. Prints every observation
# that differs from the first kernel's, labelled expected or unexpected
# from the model; records and compare.csv in build/compare/. The script
# exits 0 (only expected differences), 1 (an unexpected one) or 2 (no
# whole comparison); make reports the last two as Error 1 and Error 2.
# Included by the top-level Makefile, which defines KDIR.

KERNELS ?=

.PHONY: compare

compare: deps-vm suite
	@KDIR="$(KDIR)" vm/compare-kernels.sh $(foreach t,$(T),-t $(t)) $(KERNELS)
