# SPDX-License-Identifier: GPL-2.0
#
# make full-build: test_progs from the tree's full BPF selftests build
# (mk/full-build.sh, docs/full-build.md). make vmtest-distro [T='ROW ...']:
# both front ends on Debian's own kernels (vm/vmtest-distro.sh,
# docs/distro.md).

.PHONY: full-build vmtest-distro

full-build: deps-full-build
	@mk/full-build.sh

vmtest-distro: deps-vm suite test_progs
	@vm/vmtest-distro.sh $(foreach t,$(T),-t $(t))
