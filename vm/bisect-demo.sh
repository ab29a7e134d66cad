#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show that bisect-run.sh finds the commit that breaks a scenario.
#
#   vm/bisect-demo.sh
#
# On a branch of build/vm/src (the 6.12 tree build-kernel.sh uses, so every
# step is an incremental build) make five commits: two that do not change
# behaviour, the series' 1/3 (iif), the seed patch (2/3), one more harmless
# commit. The seed makes root_qdisc_mirred_with_clsact loop where stock
# passes. "git bisect run bisect-run.sh" must name the seed commit.

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

# The five commits; prints the one that should be found.
make_history()
{
	git_src checkout -q -f -B "$BRANCH" vm-base &&
	git_src clean -q -f -d -x &&
	commit_change "Documentation: ifb: note on tc_skip_classify" \
		Documentation/networking/index.rst "" &&
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

main()
{
	local start found expected

	start=$(vm_now)
	vm_lock
	vm_src_init || vm_die "cannot make $SRC"
	make_history || vm_die "cannot make the demo history"
	expected=$(cat "$VM_BUILD/bisect-demo.expected")
	bisect | grep -E 'is the first bad commit' >&2
	found=$(git_src rev-parse refs/bisect/bad 2>/dev/null)
	git_src bisect reset -q 2>/dev/null
	git_src checkout -q -f --detach vm-base
	vm_log "bisect took $(vm_since "$start") s"
	[ "$found" = "$expected" ] ||
		vm_die "FAIL: bisect found ${found:-nothing}, expected $expected"
	vm_log "OK: bisect found $(git_src log -1 --format='%h %s' "$found")"
}

main "$@"; exit
