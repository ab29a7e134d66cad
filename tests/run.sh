#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The project's own tests (make check; docs/checkers.md): the suite builds,
# lists every test with a verdict, explains each failure, passes its
# controls, cleans up and tells kernels apart; and these checks fail when
# fed broken input (tests/selftest.sh). They do not assume how the running
# kernel treats re-injected packets: that is the suite's job.
# CHECK_VM=0 leaves out the VM part (kernel builds and qemu boots);
# CHECK_STRESS=1 adds the light stress run (tests/stress.sh, see t_stress;
# .ci/run sets it): its 4 minutes would take a second clone's make check
# past its budget of 12 minutes (docs/checkers.md).
# CHECK_BENCH=0 the fast-path gate (make bench-check, in the VM part);
# CHECK_SERIES=0 make series-check (in the VM part);
# CHECK_LTS=1 adds make vmtest-lts, the stable lines and their backports
# (in the VM part; .ci/run sets it): their cold kernels would take make
# check past its budget of 30 minutes on a new 2-core machine
# (docs/checkers.md). CHECK_LTS_FRONT (default kselftest; empty: both)
# is the front end it runs on them.
# CHECK_RUN_LIMIT (default 60) is the bound on the suite's run, in seconds.
# No -e: every check takes its commands' statuses and judges them.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
LINE=$(line_first)

run_suite()
{
	local start end

	snapshot "$OUT/before" || echo "# cannot take a snapshot of namespaces and BPF objects"
	start=$(date +%s.%N)
	"$SUITE" >"$OUT/tap" 2>&1
	echo $? >"$OUT/rc"
	end=$(date +%s.%N)
	tap_verdicts <"$OUT/tap" >"$OUT/verdicts"
	echo "$start $end" | awk '{printf "%.1f\n", $2 - $1}' >"$OUT/seconds"
}

t_builds()
{
	[ -x "$SUITE" ] && pass "suite binary built" ||
		fail "suite binary $SUITE missing"
}

# The library's parts use only the parts tse_internal.h lists above them.
t_library_layered()
{
	local out

	out=$("$TOP/tests/layers.sh" "${SUITE%/*}" 2>&1) &&
		pass "the scenario library is layered as tse_internal.h lists it" ||
		fail "the scenario library is not layered: $(echo $out)"
}

# Every two axes meet in every pair of values that can be (docs/grid.md).
t_grid_pairs()
{
	local out

	out=$("$TOP/tests/grid-pairs.sh" 2>&1) &&
		pass "the grid: every pair of values that can be is in a point (${out##*$'\n'})" ||
		fail "the grid: $(echo "$out" | head -n -1 | tr '\n' ';')"
}

# The model has a rule for every observer at every point that can be.
t_model_rules()
{
	local out

	out=$("$TOP/tests/model-rules.sh" 2>&1) &&
		pass "the model: a rule for every observer at every point (${out##*$'\n'})" ||
		fail "the model: $(echo "$out" | head -n 3 | tr '\n' ';')"
}

t_lists_every_test()
{
	local missing

	missing=$(missing_verdicts "$OUT/verdicts") && [ -z "$missing" ] &&
		pass "every test the suite lists (-l) has a verdict" ||
		fail "no verdict for: $(echo $missing)"
}

# The TAP is whole, and the exit code says what it says.
t_exit_code_matches_tap()
{
	local rc want=0 whole

	rc=$(cat "$OUT/rc")
	if ! whole=$(awk -f "$TOP/vm/tap-plan.awk" "$OUT/tap"); then
		fail "the TAP is not whole (exit code $rc): $whole"
		return
	fi
	grep -q ' fail:' "$OUT/verdicts" && want=1
	[ "$rc" = "$want" ] && pass "exit code $rc agrees with the whole TAP" ||
		fail "exit code $rc, TAP says $want"
}

# The controls the suite lists, each with a verdict; what each verdict must
# be depends on the kernel line (tests/lib.sh, controls_bad): on 6.1
# ingress_bpf_redirect is dropped by ifb.
t_controls_pass()
{
	local controls missing bad kver what="ingress controls pass"

	controls=$(expected_tests | grep -E '^ingress_(mirred|bpf_redirect)\.')
	if [ -z "$controls" ]; then
		fail "the suite lists no ingress control (ingress_mirred.*, ingress_bpf_redirect.*)"
		return
	fi
	missing=$(awk 'FILENAME == ARGV[1] { v[$1]; next } !($1 in v) { print $1 }' \
		      "$OUT/verdicts" - <<<"$controls")
	if [ -n "$missing" ]; then
		fail "ingress controls with no verdict: $(echo $missing)"
		return
	fi
	kver=$(uname -r)
	before_6_4 "$kver" &&
		what="ingress controls hold on $kver: ingress_mirred passes, ingress_bpf_redirect passes or is dropped by ifb for the redirected mark (bpf_redirect() sets it since 6.4)"
	bad=$(controls_bad "$OUT/verdicts" "$OUT/tap" "$kver")
	[ -z "$bad" ] && pass "$what ($(echo $controls))" ||
		fail "ingress controls do not hold on $kver: $(echo $bad)"
}

t_failures_diagnosed()
{
	local words='reclassified|skipped|looped|not-redirected|misredirected|dropped-by-ifb|wrong-device|duplicated|not-delivered|corrupted|retransmitted|actions-skipped|actions-repeated|misclassified|fields-changed|tstamp-kept|not-hairpinned|not-batched|not-shaped|not-gso|not-timed|leaked|drop-uncounted|drop-counted-twice|sent-again|verdict-lost|xmit-limit-ignored|xmit-limit-early|sent-past-limit|unlogged|xmit-limit|net-ctx-left|wrong-home|queue-ignored|kernel-warning'
	local bad

	if [ ! -s "$OUT/verdicts" ]; then
		fail "no verdicts: no failure to find a diagnosis in"
		return
	fi
	bad=$(grep ' fail:' "$OUT/verdicts" | grep -vE " fail:($words)$")
	[ -z "$bad" ] && pass "every failure names a known diagnosis" ||
		fail "failures that name no diagnosis of the kernel (setup and noisy are the suite's own faults): $bad"
}

t_skips_say_why()
{
	local bad

	if ! grep -qE '^(not )?ok [0-9]+ ' "$OUT/tap"; then
		fail "no result lines in the TAP: no skip to read"
		return
	fi
	bad=$(grep -E '^ok [0-9]+ .* # SKIP *$' "$OUT/tap")
	[ -z "$bad" ] && pass "every skip gives a reason" ||
		fail "skips without a reason: $bad"
}

# CHECK_RUN_LIMIT: a guest under emulation (vm/check-lts.sh) runs the
# suite some 50 times slower than a host.
t_bounded()
{
	local s limit=${CHECK_RUN_LIMIT:-60}

	s=$(cat "$OUT/seconds")
	within_limit "$s" "$limit" &&
		pass "whole run took ${s}s (limit ${limit}s)" ||
		fail "whole run took ${s}s, over ${limit}s"
}

t_cleans_up()
{
	local left

	left=$(wait_no_leftovers "$OUT/before") &&
		pass "nothing left behind (network namespaces, devices, BPF programs, links, maps)" ||
		fail "left behind: $(echo $left)"
}

t_test_progs_agrees()
{
	if "$TOP/mk/test_progs-check.sh" >"$OUT/tp" 2>&1; then
		pass "test_progs front end gives the kselftest verdicts"
	else
		fail "test_progs and kselftest verdicts differ"
		sed 's/^/# /' "$OUT/tp" | tail -20
	fi
}

# The VM part's kernels (stock and fix of the first line, and with
# CHECK_LTS of each stable line), built while the host part runs, niced
# below it: the host part mostly waits on its network tests, and the
# builds are most of the VM part's CPU time. The first line and the
# stable ones build side by side (docs/checkers.md has the figures; the
# whole run is CPU-bound either way). Only a cache: each VM step still
# asks vm/build-kernel.sh for its images (found by their keys, in this
# clone or in the image cache another clone filled, or built there after
# all, under the same build lock) and judges its own runs;
# what this job prints is in $OUT/prebuild, for a step that fails. Its
# stable lines' builds take their folders' locks, not the first line's:
# series-check, which needs the first line's tree and builds no kernel
# when the fix's image is the series' (measured: it waited for a whole
# stable stock build), must not queue behind them. Once the first line's
# images are there it niced itself again: its VM steps come first, the
# stable lines' builds take what they leave, and a guest never waits
# behind a compiler (under emulation a
# starved guest costs twice its CPU time: docs/vm.md).
# setsid gives it a session of its own, which the kernel's autogroups
# (CONFIG_SCHED_AUTOGROUP, on in Debian's kernels) make a scheduling group
# of its own: nice then only ranks the group's own tasks, and the group
# gets half the CPU against make check's. The group's nice
# (/proc/PID/autogroup) ranks it below; where there are no autogroups the
# file is missing and nice alone does it. Measured at 825b49f, with nice
# alone: the 6.1 build took half the cores beside the 6.12 VM steps.
# group_nice PGID N: the prebuild's tasks and its autogroup at nice N.
group_nice()
{
	renice -n "$2" -g "$1" >/dev/null 2>&1
	echo "$2" 2>/dev/null >"/proc/$1/autogroup"
	return 0
}
export -f group_nice

vm_prebuild()
{
	[ "${CHECK_VM:-1}" != 0 ] || return 0
	# Its own process group (setsid), for the trap below to end it.
	setsid nice -n 19 bash -c '
		group_nice $$ 19
		[ "$1" = 0 ] || {
			"$0/vm/vmtest-lts.sh" --build
			echo "prebuild: stable lines, stock and fix, exit $? ($SECONDS s)"
		} &
		"$0/vm/vmtest.sh" --build stock fix
		echo "prebuild: first line stock and fix, exit $? ($SECONDS s)"
		group_nice $$ 19
		[ "$2" = 0 ] || {
			"$0/vm/build-kernel.sh" --tree
			echo "prebuild: first line git copy for series-check, exit $? ($SECONDS s)"
		}
		wait' \
		"$TOP" "${CHECK_LTS:-0}" "${CHECK_SERIES:-1}" \
		>"$OUT/prebuild" 2>&1 &
	PREBUILD=$!
}

# bg_start NAME CHECK...: run a check function in the background, its
# lines into $OUT/bg-NAME; bg_join NAME waits for it and counts its
# results here, in order. The VM steps go two at a time, one VM each
# (VM_JOBS=1), or the bench gate's 2 icount VMs, whose figures are
# instruction counts that the host's load does not enter, beside
# series-check, which boots nothing.
declare -A BG=()

bg_start()
{
	local name=$1

	shift
	"$@" >"$OUT/bg-$name" 2>&1 &
	BG[$name]=$!
}

bg_join()
{
	local line

	wait "${BG[$1]}"
	unset "BG[$1]"
	while IFS= read -r line; do
		case $line in
		"ok - "*)	pass "${line#ok - }" ;;
		"not ok - "*)	fail "${line#not ok - }" ;;
		*)		printf '%s\n' "$line" ;;
		esac
	done <"$OUT/bg-$1"
}

# Once the host part is done, and again once only the stable lines are left,
# nothing of ours is left for the prebuild to yield to: the VM steps wait
# for its images, so it runs at their priority (other users' jobs on a
# shared machine would starve a niced build).
vm_prebuild_unnice()
{
	[ -n "${PREBUILD:-}" ] || return 0
	group_nice "$PREBUILD" 0
}

vm_prebuild_wait()
{
	[ -n "${PREBUILD:-}" ] || return 0
	wait "$PREBUILD"
	PREBUILD=
	# Its own lines, and where each kernel came from (build-kernel.sh).
	sed -n -e 's/^prebuild: /# prebuild: /p' \
		-e 's/^build-kernel\.sh: \(.*: \(built in\|taken from\) .*\)/# prebuild: \1/p' \
		"$OUT/prebuild"
}

# The VM matrices' TAP and logs stay in this clone's build/ even when the
# kernel images come from a shared VM_BUILD (another clone's build/vm):
# two clones' runs must not overwrite each other's results.
VM_RESULTS=${VM_RESULTS:-$TOP/build/vm/results}

# The suite must tell kernels apart: on a stock and on a fixed (fix, the
# reference fix of vm/kernels/fix/) kernel of the first line, built from
# source and booted in qemu, the verdicts must be those of its expected
# matrix (vm/expected-matrix-LINE.txt), and test_progs must agree with
# kselftest. Both front ends, one VM each, start with the host part, in
# sessions of their own niced below it as the prebuild is: they take the
# cycles its waits leave, and its timed runs (t_bounded, make stress) do
# not feel them. A guest that gets no CPU only runs slower (docs/vm.md).
# Once those runs are done, vm_matrices_unnice gives them the host part's
# priority.
declare -A VM_MATRIX=()

vm_matrices_start()
{
	local front

	[ "${CHECK_VM:-1}" != 0 ] || return 0
	for front in kselftest test_progs; do
		VM_RESULTS=$VM_RESULTS VM_JOBS=1 setsid nice -n 19 \
			bash -c 'group_nice $$ 19; exec "$@"' matrix \
			"$TOP/vm/vmtest.sh" --front "$front" stock fix >"$OUT/vm-$front" 2>&1 &
		VM_MATRIX[$front]=$!
	done
}

vm_matrices_unnice()
{
	local front

	for front in "${!VM_MATRIX[@]}"; do
		group_nice "${VM_MATRIX[$front]}" 0
	done
}

t_vm_matrices()
{
	if wait "${VM_MATRIX[kselftest]}"; then
		pass "VM matrix for stock and fix matches vm/expected-matrix-$LINE.txt"
	else
		fail "VM matrix for stock and fix differs from the expected one"
	fi
	sed 's/^/# /' "$OUT/vm-kselftest" | tail -25
	if wait "${VM_MATRIX[test_progs]}"; then
		pass "VM matrix of the test_progs front end (stock, fix) matches too"
	else
		fail "test_progs in VMs differs from the expected matrix"
		sed 's/^/# /' "$OUT/vm-test_progs" | tail -25
	fi
	VM_MATRIX=()
}

# Each line's series (vm/kernels/fix/ on the first, the backport
# fix-LINE/ on the others) applies to that line's tree with no fuzz
# (vm/mainline-check.sh): a Debian point release that moves the code
# under a patch turns main red here. A stable line's tree is checked where
# it is (make vmtest-lts makes them).
t_series_applies()
{
	local line kdir dir out

	for line in $(lines_all); do
		kdir=$TOP/build/linux-source-$line
		# KDIR stands for its own line's tree, whichever line that is.
		[ -n "${KDIR:-}" ] && [ "$(tree_line "$KDIR")" = "$line" ] && kdir=$KDIR
		dir=fix-$line
		[ "$line" = "$LINE" ] && dir=fix
		[ -f "$kdir/Makefile" ] || continue
		if out=$("$TOP/vm/mainline-check.sh" "$kdir" "$TOP/vm/kernels/$dir" 2>&1); then
			pass "vm/kernels/$dir applies to $(tree_release "$kdir") with no fuzz"
		else
			fail "vm/kernels/$dir does not apply to $(tree_release "$kdir") as it is"
			grep -v '^alone: applies' <<< "$out" | sed 's/^/# /'
		fi
	done
}

# make run_tests KDIR=TREE on each stable line's tree (CHECK_LTS makes
# them): the suite builds against that tree's harness and libbpf, in a
# BUILD of its own, and gives a verdict for every test the first line's
# build lists, in a whole TAP. 6.1's harness names no skipped test, so
# the plan and the results are counted, not the names.
t_stable_trees()
{
	local line kdir b n tests rc

	tests=$(expected_tests | wc -l)
	for line in $(lines_stable); do
		kdir=$TOP/build/linux-source-$line
		[ -f "$kdir/Makefile" ] || continue
		b=$OUT/build-$line
		make -s -C "$TOP" run_tests KDIR="$kdir" BUILD="$b" >"$OUT/tap-$line" 2>&1
		rc=$?
		n=$(grep -cE '^(not )?ok [0-9]+' "$OUT/tap-$line")
		if awk -f "$TOP/vm/tap-plan.awk" "$OUT/tap-$line" >/dev/null 2>&1 &&
		   [ "$n" = "$tests" ]; then
			pass "make run_tests KDIR=<$line tree> builds, and its TAP has all $n verdicts (make exit $rc)"
		else
			fail "make run_tests KDIR=<$line tree>: $n verdicts of $tests, or no whole TAP (make exit $rc)"
			grep -E 'error|Error' "$OUT/tap-$line" | head -n 5 | sed 's/^/# /'
		fi
		rm -rf "$b"
	done
}

# Runs make TARGET ($1) into $OUT/TARGET and passes with $2 or fails with
# $3, each followed by the time it took; returns make's status.
make_step()
{
	local target=$1 s=$SECONDS rc

	make -s -C "$TOP" "$target" >"$OUT/$target" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		pass "$target: $2 ($((SECONDS - s)) s)"
	else
		fail "$target: $3 ($((SECONDS - s)) s)"
	fi
	return "$rc"
}

# The fast-path gate (make bench-check): one icount round of stock and fix,
# instruction counts, not times. It reuses the two kernels built above and
# adds two boots, about a minute each alone. Its verdict's own self-test
# runs first, in it.
t_bench_check()
{
	BENCH_OUT="$OUT/bench" make_step bench-check \
		"fix costs the fast path under 0.1 %, classifies once per packet" \
		"fix costs the fast path 0.1 % or more, classifies a packet other than once, or a cell is missing"
	grep '^bench-check: \(fast path\|FAIL\|.*missing\|.*expected\)' "$OUT/bench-check" | sed 's/^/# /'
}

# make series-check: the series applies to the first line's clean tree, checkpatch
# --strict is clean on every patch, the kernel and both front ends build
# from it, and every test passes in its VM. Run here so that a warning
# added to the suite turns main red at once, not at the next posting.
# When the series' kernel is the fix's image and its files the repo's, the
# fix column's runs above are its runs (SERIES_FIX_RUNS, vm/series-check.sh).
t_series_check()
{
	SERIES_FIX_RUNS=$VM_RESULTS make_step series-check \
		"the series applies, is checkpatch --strict clean, builds and passes" \
		"the series does not apply, checkpatch warns, or a build or a VM test failed" ||
		grep -E 'FAIL|WARNING|ERROR|CHECK:' "$OUT/series-check" | head -n 20 | sed 's/^/# /'
}

# make vmtest-lts: on each stable line, stock and the backport
# (vm/kernels/fix-LINE/), built from linux-source-LINE, give
# vm/expected-matrix-LINE.txt in the front end CHECK_LTS_FRONT names. One
# front end by default: the first line's matrices show both front ends
# agree, and on a machine whose TCG is slow the stable lines' two would
# take .ci/run past its 90 minutes (docs/checkers.md). Two VMs at once
# either way.
t_vm_lts()
{
	local front=${CHECK_LTS_FRONT-kselftest} jobs=1 fronts="both front ends"

	[ -n "$front" ] && jobs=2 fronts="the $front front end"
	FRONT=$front VM_JOBS=$jobs make_step vmtest-lts \
		"stock and the backport of each stable line ($(lines_stable)) match their expected matrices, $fronts" \
		"a stable line differs from its expected matrix or did not run" ||
		sed 's/^/# /' "$OUT/vmtest-lts" | tail -25
}

# A light make stress (tests/stress.sh), so that it cannot rot unseen:
# every part of it but the VM one, with fewer kills and runs. Each of its
# results counts here. Its kernel warnings go to a private /dev/kmsg
# (STRESS_KMSG=private): in the host's log they would fail any other run
# of the suite on the machine as kernel-warning.
t_stress()
{
	local line rc runs=${CHECK_STRESS_RUNS:-3} kills=${CHECK_STRESS_KILLS:-3}

	RUNS=$runs KILLS=$kills STRESS_VM=0 STRESS_KMSG=private "$TOP/tests/stress.sh" \
		>"$OUT/stress" 2>&1
	rc=$?
	echo "# stress (RUNS=$runs KILLS=$kills STRESS_VM=0 STRESS_KMSG=private), exit $rc:"
	while IFS= read -r line; do
		case $line in
		"ok - "*)	pass "stress: ${line#ok - }" ;;
		"not ok - "*)	fail "stress: ${line#not ok - }" ;;
		*)		echo "# $line" ;;
		esac
	done <"$OUT/stress"
	# An exit code its results do not explain: it stopped half way.
	[ "$rc" = 0 ] || grep -q '^not ok - ' "$OUT/stress" ||
		fail "stress: exit $rc with no failed result: it stopped before the end"
	grep -qE '^(not )?ok - ' "$OUT/stress" || fail "stress: no result at all"
}

# Where make check spends its time, in its own log: seconds since it
# started at each phase's start (docs/checkers.md keeps the figures).
phase()
{
	echo "# phase at ${SECONDS} s: $*"
}

main()
{
	phase "host part"
	t_builds
	[ -x "$SUITE" ] || { summary; exit 1; }
	t_library_layered
	t_grid_pairs
	t_model_rules
	vm_prebuild
	vm_matrices_start
	phase "the suite on the host"
	run_suite
	cat "$OUT/verdicts" | sed 's/^/# /'
	t_lists_every_test
	t_exit_code_matches_tap
	t_controls_pass
	t_failures_diagnosed
	t_skips_say_why
	t_bounded
	t_cleans_up
	phase "test_progs on the host"
	t_test_progs_agrees
	t_series_applies
	[ "${CHECK_STRESS:-0}" != 0 ] && phase "stress" && t_stress
	# The rest of the host part times nothing.
	if [ "${CHECK_VM:-1}" != 0 ]; then
		# Its first line's builds are what the VM steps wait for; once
		# done (cached images: before the host part ends), it stays below.
		grep -q '^prebuild: first line' "$OUT/prebuild" 2>/dev/null || vm_prebuild_unnice
		vm_matrices_unnice
	fi
	# The checks above, fed broken input, must fail (tests/selftest.sh).
	phase "self-tests"
	selftests
	phase "docs check"
	. "$TOP/tests/docs-check.sh"
	if [ "${CHECK_VM:-1}" != 0 ]; then
		phase "waiting for the first line's matrices"
		t_vm_matrices
		phase "bench-check and series-check"
		[ "${CHECK_BENCH:-1}" != 0 ] && bg_start bench t_bench_check
		[ "${CHECK_SERIES:-1}" != 0 ] && t_series_check
		[ "${CHECK_BENCH:-1}" != 0 ] && bg_join bench
		phase "waiting for the prebuild"
		vm_prebuild_unnice
		vm_prebuild_wait
		[ "${CHECK_LTS:-0}" != 0 ] && phase "stable lines" && t_vm_lts
	fi
	[ "${CHECK_LTS:-0}" != 0 ] && phase "stable trees" && t_stable_trees
	phase "end"
	summary
}

# Sourced (tests/selftest.sh), only the functions are wanted.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
. "$TOP/tests/selftest.sh"
OUT=$(mktemp -d)
PREBUILD=
trap 'selftests_cleanup; for g in $PREBUILD "${VM_MATRIX[@]}"; do kill -- -"$g" 2>/dev/null; done; rm -rf "$OUT"' EXIT
main "$@"
