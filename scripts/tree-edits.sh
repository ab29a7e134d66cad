#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/tree-edits.sh KDIR: the edits a kernel tree needs outside the
# suite's own files, for `make overlay` and the patch series: the suite
# listed in net/Makefile, its library in bpf/Makefile's test_progs, its
# options in bpf/config and net/config (docs/kernel-tree.md says which and
# why). Each edit checks first: a second run changes nothing.
set -euo pipefail

KDIR=${1:?usage: $0 KDIR}
SELFTESTS=$KDIR/tools/testing/selftests
TARGET=net/tc_skip_egress

. "$(dirname "$0")/lib.sh"

# net/Makefile: the program in TEST_GEN_PROGS, before lib.mk is included,
# and the rule that builds it at the end. net's own libbpf (BPFOBJ, its
# headers in SCRATCH_DIR; from bpf.mk since 6.6, in the Makefile itself
# before) serves it where the Makefile has one; else the suite builds its
# own.
list_in_net()
{
	local mk=$SELFTESTS/net/Makefile prog=${TARGET#net/}/${TARGET#net/} libbpf=0

	grep -q "^TEST_GEN_PROGS += $prog\$" "$mk" && return 0
	grep -qx 'include ../lib.mk' "$mk" || die "$mk has no 'include ../lib.mk' line"
	grep -qx 'include bpf.mk' "$mk" || grep -q '^BPFOBJ :=' "$mk" && libbpf=1
	awk -v p="$prog" -v d="${TARGET#net/}" -v libbpf=$libbpf '
		$0 == "include ../lib.mk" {
			print "# " d " has its own folder and Makefile; built below."
			print "TEST_GEN_PROGS += " p
			print ""
		}
		{ print }
		END {
			print ""
			print "$(OUTPUT)/" p ":" (libbpf ? " $(BPFOBJ)" : "") " \\"
			print "\t\t$(wildcard " d "/*.[ch] " d "/Makefile \\"
			print "\t\t\t   ../bpf/progs/test_tc_redirect_ifb.[ch])"
			print "\t$(Q)mkdir -p $(OUTPUT)/" d
			if (libbpf) {
				print "\t$(Q)$(MAKE) -C " d " OUTPUT=$(OUTPUT)/" d " \\"
				print "\t\tLIBBPF_A=$(BPFOBJ) LIBBPF_INC=$(SCRATCH_DIR)/include"
			} else {
				print "\t$(Q)$(MAKE) -C " d " OUTPUT=$(OUTPUT)/" d
			}
			print ""
			print ".PHONY: clean_" d
			print "clean: clean_" d
			print "clean_" d ":"
			print "\t$(Q)$(MAKE) -C " d " OUTPUT=$(OUTPUT)/" d " clean"
		}' "$mk" > "$mk.tse" && mv "$mk.tse" "$mk"
}

# bpf/Makefile: the library's sources join test_progs' extra sources
# just before its runners are defined (the first DEFINE_TEST_RUNNER line,
# the same from 6.1 to 7.3), after the runner's own list is set.
link_in_bpf()
{
	local mk=$SELFTESTS/bpf/Makefile anchor

	anchor='$(eval $(call DEFINE_TEST_RUNNER,test_progs))'
	grep -q '^TSE_DIR := ' "$mk" && return 0
	grep -qxF "$anchor" "$mk" || die "$mk has no line '$anchor'"
	awk -v anchor="$anchor" -v d="$TARGET" '
		$0 == anchor && !done {
			print "# tc_redirect_ifb runs the scenarios of " d ": its library"
			print "# (tse_*.c) is built here, with this runner'"'"'s skeleton."
			print "TSE_DIR := ../" d
			print "TSE_SOURCES := $(notdir $(wildcard $(TSE_DIR)/tse_*.c))"
			print "vpath tse_%.c $(TSE_DIR)"
			print "TRUNNER_EXTRA_SOURCES += $(TSE_SOURCES)"
			print "$(foreach d,$(OUTPUT) $(addprefix $(OUTPUT)/,no_alu32 cpuv4 bpf_gcc), \\"
			print "\t$(TSE_SOURCES:%.c=$(d)/%.o)): $(OUTPUT)/test_tc_redirect_ifb.skel.h \\"
			print "\t$(wildcard $(TSE_DIR)/*.h)"
			print ""
			done = 1
		}
		{ print }' "$mk" > "$mk.tse" && mv "$mk.tse" "$mk"
}

# Insert CONFIG_X=val into bpf/config, which is kept roughly in
# alphabetical order: among the lines that share the longest prefix with
# it (CONFIG_NET_SCH_ for CONFIG_NET_SCH_PRIO), after the last one that
# sorts before it, else before the first of them; with no such family,
# before the first line that sorts after it.
add_sorted()
{
	local file=$1 line=$2

	awk -v new="$line" '
		{ l[NR] = $0 }
		END {
			key = new
			sub(/=.*/, "", key)
			at = 0
			while (!at && match(key, /_[^_]*$/)) {
				key = substr(key, 1, RSTART)
				first = 0
				for (i = 1; i <= NR; i++) {
					if (index(l[i], key) != 1)
						continue
					# No closer family: before the first
					# line that sorts after it.
					if (key == "CONFIG_") {
						if (l[i] > new) {
							at = i
							break
						}
						continue
					}
					if (!first)
						first = i
					if (l[i] < new)
						at = i + 1
				}
				if (!at && first)
					at = first
				key = substr(key, 1, length(key) - 1)
			}
			for (i = 1; i <= NR; i++) {
				if (i == at)
					print new
				print l[i]
			}
			if (!at || at > NR)
				print new
		}' "$file" > "$file.tse" && mv "$file.tse" "$file"
}

# Add each option the fragment does not set yet (as y or m).
add_options()
{
	local file=$1 sorted=$2 opt
	shift 2

	[ -f "$file" ] || die "$file does not exist"
	for opt in "$@"; do
		grep -q "^CONFIG_${opt%%=*}=[ym]\$" "$file" && continue
		if [ "$sorted" = sorted ]; then
			add_sorted "$file" "CONFIG_$opt"
		else
			echo "CONFIG_$opt" >> "$file"
		fi
	done
}

if [ ! -f "$SELFTESTS/Makefile" ] || [ ! -f "$SELFTESTS/lib.mk" ]; then
	die "KDIR=$KDIR is not a kernel tree with tools/testing/selftests"
fi

list_in_net
link_in_bpf
# bpf/config sets its options =y; VETH, VLAN_8021Q and NAMESPACES (so
# NET_NS) are in every tree's config.<arch> already. An option a fragment
# has already, as y or m, is left as it is.
add_options "$SELFTESTS/bpf/config" sorted \
	IFB=y NET_ACT_MIRRED=y NET_ACT_GACT=y NET_CLS_ACT=y NET_CLS_BPF=y \
	NET_CLS_U32=y NET_SCH_HTB=y NET_SCH_INGRESS=y NET_SCH_PRIO=y \
	NET_SCH_TBF=y MACVLAN=y BONDING=y NET_IPIP=y IPV6_TUNNEL=y PACKET=y \
	NETFILTER_EGRESS=y NF_TABLES=y NF_TABLES_NETDEV=y
# net/config is not kept sorted; its tc options are modules.
add_options "$SELFTESTS/net/config" appended \
	NET_CLS_ACT=y NET_SCH_TBF=m NET_IPIP=y IPV6_TUNNEL=y PACKET=y \
	NETFILTER_EGRESS=y NF_TABLES_NETDEV=y
