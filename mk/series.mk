# SPDX-License-Identifier: GPL-2.0
#
# The patch series a contributor posts: the kernel fix, the kselftest
# target and the test_progs test, with a cover letter.
#
#   make series         write it to $(BUILD)/series from the repo's current
#                       files (vm/series.sh); post it with
#                       git send-email $(BUILD)/series/*.patch
#   make series-check   apply it to a clean 6.12.117 tree, checkpatch
#                       --strict, build kernel and selftests from that tree,
#                       boot, run both front ends (vm/series-check.sh)
#
# Included by the top-level Makefile, which defines KDIR, BUILD and kdir.

.PHONY: series series-check

series: deps-series kdir
	@KDIR="$(KDIR)" vm/series.sh "$(BUILD)/series"

series-check: deps-vm series
	@KDIR="$(KDIR)" vm/series-check.sh "$(BUILD)/series"
