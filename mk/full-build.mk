# SPDX-License-Identifier: GPL-2.0
#
# The tree's own BPF selftests build, and Debian's own kernel in the VM.
#
#   make full-build      test_progs from the tree's full BPF selftests build
#                        (mk/full-build.sh, docs/full-build.md):
#                        build/bpf-full/out/test_progs
#   make vmtest-distro   both front ends on Debian's 6.12.117 and 6.1.192
#                        kernels and their modules (vm/vmtest-distro.sh):
#                        the stock verdicts of each line
#
# T='egress_mirred.ipv4 ...' limits vmtest-distro to those tests.

.PHONY: full-build vmtest-distro

full-build: deps-full-build
	@mk/full-build.sh

vmtest-distro: deps-vm suite test_progs
	@vm/vmtest-distro.sh $(foreach t,$(T),-t $(t))
