#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The edits a kernel tree needs outside the suite's own files, for
# `make overlay` and for the patch series. Each edit checks first, so
# running this twice changes nothing the second time.
#
# 1. tools/testing/selftests/Makefile: the suite is the kselftest target
#    net/tc_skip_egress. It is listed after net, so a plain
#    `make -C tools/testing/selftests run_tests` runs it. A TARGETS given
#    on the command line replaces that list, and net/Makefile does not
#    descend into subfolders (mainline keeps net/forwarding, net/mptcp,
#    ... as targets of their own; only net/lib is pulled in, as an
#    install dependency whose tests are not run). So TARGETS=net alone
#    would run none of the suite: an `override TARGETS +=` next to the
#    net/lib block adds net/tc_skip_egress wherever net is a target.
#    `override` is what makes an assignment reach a command-line
#    variable; the SKIP_TARGETS block below it uses the same idiom.
# 2. tools/testing/selftests/bpf/config: BPF CI builds its kernels from
#    bpf/config (plus config.<arch> and config.vm), where ifb, mirred,
#    u32, prio, htb and tbf are missing; tc_redirect_ifb needs them.
#    Without them every subtest would SKIP: a green run that tested
#    nothing.
# 3. tools/testing/selftests/net/config: the options of the suite's own
#    config that net/config lacks (TARGETS=net users build from it).
set -euo pipefail

KDIR=${1:?usage: $0 KDIR}
SELFTESTS=$KDIR/tools/testing/selftests
TARGET=net/tc_skip_egress

die() {
	echo "tree-edits: $*" >&2
	exit 2
}

# `TARGETS += net/tc_skip_egress` right after `TARGETS += net`.
register_target() {
	local mk=$SELFTESTS/Makefile

	grep -qx "TARGETS += $TARGET" "$mk" && return 0
	grep -qx 'TARGETS += net' "$mk" || die "$mk has no 'TARGETS += net' line"
	sed -i "s|^TARGETS += net\$|&\nTARGETS += $TARGET|" "$mk"
}

# Run the suite whenever net is a target, also when TARGETS comes from
# the command line. Inserted after the net/lib block, before SKIP_TARGETS,
# so SKIP_TARGETS=net/tc_skip_egress still leaves it out.
run_with_net() {
	local mk=$SELFTESTS/Makefile

	grep -q "^[[:space:]]*override TARGETS += $TARGET\$" "$mk" && return 0
	grep -q '^# User can optionally provide a TARGETS skiplist' "$mk" ||
		die "$mk has no SKIP_TARGETS block to insert before"
	awk -v t="$TARGET" '
		/^# User can optionally provide a TARGETS skiplist/ {
			print "# " t " is a target of its own; net/Makefile does not descend"
			print "# into it. Run it wherever net runs, also with TARGETS=net."
			print "ifneq ($(filter net,$(TARGETS)),)"
			print "ifeq ($(filter " t ",$(TARGETS)),)"
			print "\toverride TARGETS += " t
			print "endif"
			print "endif"
			print ""
		}
		{ print }' "$mk" > "$mk.tse" && mv "$mk.tse" "$mk"
}

# Insert CONFIG_X=val into bpf/config, which is kept roughly in
# alphabetical order: among the lines that share the longest prefix with
# it (CONFIG_NET_SCH_ for CONFIG_NET_SCH_PRIO), after the last one that
# sorts before it, else before the first of them; with no such family,
# before the first line that sorts after it.
add_sorted() {
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
add_options() {
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

register_target
run_with_net
# bpf/config sets its options =y. VETH, VLAN_8021Q and NAMESPACES (so
# NET_NS) are in every config.<arch> of 6.12 already; BONDING in x86_64's.
add_options "$SELFTESTS/bpf/config" sorted \
	IFB=y NET_ACT_MIRRED=y NET_CLS_ACT=y NET_CLS_BPF=y NET_CLS_U32=y \
	NET_SCH_HTB=y NET_SCH_INGRESS=y NET_SCH_PRIO=y NET_SCH_TBF=y \
	MACVLAN=y BONDING=y
# net/config is not sorted in 6.12; its tc options are modules.
add_options "$SELFTESTS/net/config" appended \
	NET_CLS_ACT=y NET_SCH_TBF=m
