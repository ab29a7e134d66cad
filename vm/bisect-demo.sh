#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show that bisect-run.sh finds the commit that breaks a scenario (make
# bisect-demo; its seven commits and what it checks: docs/vm.md,
# "Bisecting").
#
#   vm/bisect-demo.sh
#
# The commits go on a branch of build/vm/src, the 6.12 tree
# build-kernel.sh uses, so every step is an incremental build.

set -o pipefail
. "$(dirname "$0")/lib.sh"

SRC=$VM_BUILD/src
BRANCH=vm-bisect-demo
TEST=root_qdisc_mirred_with_clsact.ipv4

git_src()
{
	git -C "$SRC" -c user.name=vm -c user.email=vm@localhost "$@"
}

# commit_change SUBJECT FILE TEXT: append TEXT to FILE (a harmless change).
commit_change()
{
	echo "$3" >> "$SRC/$2"
	git_src commit -q -a -m "$1"
}

commit_patch()
{
	git_src apply --index "$2" && git_src commit -q -m "$1"
}

# A commit whose kernel has no usable ifb: the test must skip there.
commit_no_ifb()
{
	sed -i 's/\.kind\t\t= "ifb"/.kind\t\t= "ifb-off"/' "$SRC/drivers/net/ifb.c" &&
	git_src commit -q -a -m "ifb: rename the link kind (no ifb for ip link)" &&
	git_src rev-parse HEAD > "$VM_BUILD/bisect-demo.skip" &&
	git_src revert --no-edit HEAD >/dev/null
}

# The seven commits; the one to be found goes to bisect-demo.expected.
make_history()
{
	git_src checkout -q -f -B "$BRANCH" vm-base &&
	git_src clean -q -f -d -x &&
	commit_change "Documentation: ifb: note on tc_skip_classify" \
		Documentation/networking/index.rst "" &&
	commit_no_ifb &&
	commit_patch "net: core: set skb_iif in __bpf_tx_skb" \
		"$VM_DIR/kernels/iif.patch" &&
	commit_patch "net: sched: check tc_skip_classify in sch egress" \
		"$VM_DIR/kernels/seed.patch" &&
	git_src rev-parse HEAD > "$VM_BUILD/bisect-demo.expected" &&
	commit_change "MAINTAINERS: whitespace" MAINTAINERS "" &&
	commit_change "Documentation: more notes" \
		Documentation/networking/index.rst ""
}

bisect()
{
	git_src bisect start "$BRANCH" vm-base >/dev/null 2>&1 &&
	(cd "$SRC" && git bisect run "$VM_DIR/bisect-run.sh" -t "$TEST")
}

# bisect-run.sh on the ifb-less commit: 125, whatever bisect visited.
check_skip()
{
	local rc

	git_src checkout -q -f --detach "$(cat "$VM_BUILD/bisect-demo.skip")" || return 1
	(cd "$SRC" && "$VM_DIR/bisect-run.sh" -t "$TEST")
	rc=$?
	[ $rc = 125 ] && return 0
	log "FAIL: bisect-run.sh answered $rc on the commit without ifb, expected 125"
	return 1
}

main()
{
	local start found expected skip_ok

	start=$(vm_now)
	vm_lock
	vm_src_init || die "cannot make $SRC"
	make_history || die "cannot make the demo history"
	expected=$(cat "$VM_BUILD/bisect-demo.expected")
	bisect | grep -E 'is the first bad commit' >&2
	found=$(git_src rev-parse refs/bisect/bad 2>/dev/null)
	git_src bisect reset -q 2>/dev/null
	log "bisect took $(vm_since "$start") s"
	check_skip
	skip_ok=$?
	git_src checkout -q -f --detach vm-base
	[ "$found" = "$expected" ] ||
		die "FAIL: bisect found ${found:-nothing}, expected $expected"
	[ $skip_ok = 0 ] || exit 1
	log "OK: bisect found $(git_src log -1 --format='%h %s' "$found");" \
		"the commit without ifb answered 125"
}

main "$@"; exit
