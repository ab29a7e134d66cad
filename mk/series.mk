# SPDX-License-Identifier: GPL-2.0
#
# make series writes the patch series to $(BUILD)/series (vm/series.sh);
# make series-check applies, checks, builds and boots it
# (vm/series-check.sh). See docs/series.md. Included by the top-level
# Makefile, which defines KDIR, BUILD and kdir.

.PHONY: series series-check

series: deps-series kdir
	@KDIR="$(KDIR)" vm/series.sh "$(BUILD)/series"

series-check: deps-vm series
	@KDIR="$(KDIR)" vm/series-check.sh "$(BUILD)/series"
