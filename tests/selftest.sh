#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Self-tests of the project's own checks. A check that cannot fail proves
# nothing: each one here is fed broken input (an empty or missing file, a
# leaked namespace, a fake test_progs, a mutant that did not boot) and
# must fail, and fed good input and must pass. Nothing is booted, and of
# the suite one test runs (st_record): make check (tests/run.sh) calls
# selftests, and "bash tests/selftest.sh" runs them alone (as root: the
# leftover checks make a namespace and load a BPF program).
# No -e: each check's status is taken and judged (expect).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# expect fail|pass WHAT CMD...: CMD, fed WHAT, must fail (or pass).
# SELFTEST_VERBOSE=1 shows what each check said, to see that it failed
# for the reason given.
expect()
{
	local want=$1 what=$2 got=pass

	shift 2
	"$@" >"$ST/out" 2>&1 || got=fail
	if [ "$got" = "$want" ]; then
		pass "self-test: $what: ${want/%s/se}s"
		[ "${SELFTEST_VERBOSE:-0}" = 0 ] || sed 's/^/#   /' "$ST/out" | tail -4
	else
		fail "self-test: $what: ${got/%s/se}s, should ${want}"
		sed 's/^/# /' "$ST/out" | head -8
	fi
}

# cases CMD...: one expect per line "WANT|WHAT|ARG|..." of stdin: CMD...
# with the ARGs (given WHAT) must WANT (pass or fail). The commands read
# no line of the table.
cases()
{
	local line
	local -a a

	while IFS= read -r -u 3 line; do
		IFS='|' read -ra a <<<"$line"
		expect "${a[0]}" "${a[1]}" "$@" "${a[@]:2}"
	done 3<&0 </dev/null
}

# stand_in FILE [LINE]...: an executable bash script of the LINEs (of
# stdin when none).
stand_in()
{
	local f=$1

	shift
	mkdir -p "${f%/*}"
	if [ $# -gt 0 ]; then
		printf '%s\n' '#!/bin/bash' "$@"
	else
		echo '#!/bin/bash'
		cat
	fi >"$f"
	chmod +x "$f"
}

# Run a command in a subshell that holds vm/vmtest.sh's functions, with
# its results and expectations in the scratch folder.
in_vmtest()
{
	(
		. "$TOP/vm/vmtest.sh"
		RESULTS=$ST/vm
		EXPECTED=$ST/vm/expected
		"$@"
	)
}

# A column's NAME.cells and NAME.fill, as run_column leaves them: FILL as
# vm_fill gives it, a cell per ROW CELL pair.
fake_column()
{
	local name=$1

	mkdir -p "$ST/vm"
	echo "$2" >"$ST/vm/$name.fill"
	shift 2
	: >"$ST/vm/$name.cells"
	[ $# -eq 0 ] || printf '%s %s\n' "$@" >"$ST/vm/$name.cells"
}

# The matrix of columns "$@" from their cells, then the verdict on it.
judge_columns()
{
	vm_matrix "$RESULTS" "$@" >"$RESULTS/matrix.txt" && judge "$RESULTS/matrix.txt" "$@"
}

st_rows()
{
	local got

	got=$(printf '%s\n' egress_mirred.ipv4.verdict tc_skip_egress.ipv6.egress_mirred \
		tc_redirect_ifb/egress_100_filters_ipv4 peer_ingress_once.ipv6 |
		awk -f "$TOP/vm/rows.awk" -f <(echo '{ print tse_row($1) }') | paste -sd' ')
	expect pass "rows.awk maps both harness namings and test_progs names" \
		test "$got" = "egress_mirred.ipv4 egress_mirred.ipv6 egress_100_filters.ipv4 peer_ingress_once.ipv6"
}

# A stand-in for the suite binary: -l prints the listing in $ST/list.
fake_suite()
{
	stand_in "$ST/suite" "[ \"\$1\" = -l ] && cat \"$ST/list\" >&2 && exit 4" "cat \"$ST/tap\""
}

# The harness's -l layout: "%-20s %-25s %s" of fixture, variant, test.
harness_list()
{
	printf '%-20s %-25s %s\n' "# FIXTURE" VARIANT TEST global "" ""
	echo --------------------------------------------------------------------------------
	printf '%-20s %-25s %s\n' "$@"
}

# The check of run.sh's t_lists_every_test, on $ST/verdicts, the suite
# listing FIXTURE VARIANT TEST... (nothing at all without).
no_verdict_missing()
{
	local missing

	if [ $# -gt 0 ]; then
		harness_list "$@"
	fi >"$ST/list"
	missing=$(missing_verdicts "$ST/verdicts") && [ -z "$missing" ]
}

st_expected_tests()
{
	local SUITE=$ST/suite

	fake_suite
	printf 'egress_mirred.ipv4 pass\negress_mirred.ipv6 fail:reclassified\n' >"$ST/verdicts"
	cases no_verdict_missing <<-'EOF'
	pass|every listed test (one fixture per scenario) has a verdict|egress_mirred|ipv4|verdict||ipv6|
	pass|every listed test (one fixture, a TEST_F per scenario) has a verdict|tc_skip_egress|ipv4|egress_mirred||ipv6|
	fail|a listed test without a verdict|tc_skip_egress|ipv4|egress_mirred||ipv6|peer_ingress_once
	fail|a suite that lists no tests
	EOF
}

st_repeat_and_time()
{
	: >"$ST/empty1"
	: >"$ST/empty2"
	echo "egress_mirred.ipv4 pass" >"$ST/v1"
	echo "egress_mirred.ipv4 fail:reclassified" >"$ST/v2"
	cases same_verdicts <<-EOF
	fail|repeat check, two empty verdict lists|$ST/empty1|$ST/empty2
	fail|repeat check, a missing verdict list|$ST/v1|$ST/nosuch
	fail|repeat check, different verdicts|$ST/v1|$ST/v2
	pass|repeat check, the same verdicts|$ST/v1|$ST/v1
	EOF
	cases within_limit <<-'EOF'
	fail|bounded-time check, an empty time||60
	fail|bounded-time check, a time that is no number|took|60
	fail|bounded-time check, a time over the limit|61.5|60
	pass|bounded-time check, a time within the limit|2.2|15
	EOF
}

# controls_bad on the verdicts and the TAP in $ST ($1, $2) for release
# $3 prints nothing when the controls hold.
controls_hold()
{
	[ -z "$(controls_bad "$ST/$1" "$ST/$2" "$3")" ]
}

# vm/lib.sh's vm_kernel_line on the tree $ST/$1.
kernel_line()
{
	bash -c '. "$1/vm/lib.sh"; vm_kernel_line "$2"' - "$TOP" "$ST/$1"
}

# vmtest-lts.sh on the tree at $ST/k: refused, with one line holding
# TEXT. Nothing is built: the tree is refused first.
lts_refuses()
{
	local out

	out=$(KDIR_LTS=$ST/k VM_BUILD_LTS=$ST/k-build "$TOP/vm/vmtest-lts.sh" 2>&1)
	echo "exit $?: $out"
	[ "$(wc -l <<<"$out")" = 1 ] && grep -qF "$1" <<<"$out"
}

# The ingress controls per kernel line, and the refusal of a tree of
# another line (vm/lib.sh's vm_kernel_line).
st_controls()
{
	local unmarked='ingress_bpf_redirect:packets ifb_tse dropped: 5, expected 0: ifb dropped redirected packets whose skb_iif was set: either the redirect did not set the redirected bit (bpf_redirect() does not on 6.1)'
	local iif='ingress_bpf_redirect:packets ifb_tse dropped: 5, expected 0: ifb dropped redirected packets that arrived with skb_iif 0 (seen by BPF on ifb)'

	printf 'ingress_mirred.ipv4 pass\ningress_bpf_redirect.ipv4 pass\n' >"$ST/c-pass"
	printf 'ingress_mirred.ipv4 pass\ningress_bpf_redirect.ipv4 fail:dropped-by-ifb\n' >"$ST/c-drop"
	printf 'ingress_mirred.ipv4 fail:reclassified\ningress_bpf_redirect.ipv4 pass\n' >"$ST/c-mirred"
	printf 'ingress_mirred.ipv4 pass\ningress_bpf_redirect.ipv4 fail:looped\n' >"$ST/c-loop"
	echo "# $unmarked" >"$ST/tap-unmarked"
	echo "# $iif" >"$ST/tap-iif"
	cases controls_hold <<-'EOF'
	pass|controls on 6.12, both pass|c-pass|tap-unmarked|6.12.117
	fail|controls on 6.12, ingress_bpf_redirect dropped by ifb|c-drop|tap-unmarked|6.12.117
	pass|controls on 6.1, ingress_bpf_redirect dropped for the redirected mark|c-drop|tap-unmarked|6.1.0-41-amd64
	pass|controls on 6.1 with the backport, both pass|c-pass|tap-unmarked|6.1.192
	fail|controls on 6.1, dropped by ifb for skb_iif 0|c-drop|tap-iif|6.1.192
	fail|controls on 6.1, ingress_bpf_redirect looped|c-loop|tap-unmarked|6.1.192
	fail|controls on 6.1, ingress_mirred failed|c-mirred|tap-unmarked|6.1.192
	fail|controls on a release that is no version|c-drop|tap-unmarked|garbage
	EOF
	mkdir -p "$ST/k"
	printf 'VERSION = 6\nPATCHLEVEL = 6\nSUBLEVEL = 30\n' >"$ST/k/Makefile"
	expect fail "the VM runner, a 6.6 KDIR" kernel_line k
	expect pass "vmtest-lts, a 6.6 KDIR_LTS is refused by that name" \
		lts_refuses "KDIR_LTS=$ST/k is Linux 6.6.30"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' >"$ST/k/Makefile"
	expect pass "the VM runner, a 6.1 KDIR" kernel_line k
	expect fail "the VM runner, a KDIR with no Makefile" kernel_line nosuch
}

# vm/compare.awk, the expected matrix $ST/$1 against the actual $ST/$2.
compare_awk()
{
	awk -f "$TOP/vm/compare.awk" "$ST/$1" "$ST/$2"
}

st_compare()
{
	cp "$TOP/vm/expected-matrix-6.12.txt" "$ST/exp"
	: >"$ST/empty"
	grep -v '^#' "$ST/exp" | awk 'NF { print $1, $2 }' >"$ST/stock"
	sed '2s/ [^ ]*$/ pass-or-not/' "$ST/stock" >"$ST/stock-changed"
	head -1 "$ST/stock" >"$ST/head"
	tail -n +2 "$ST/stock" >"$ST/nohead"
	sed '1s/ .*/ Stock/' "$ST/stock" >"$ST/misnamed"
	{
		head -n 2 "$ST/stock-changed"
		tail -n +2 "$ST/stock"
	} >"$ST/twice"
	cases compare_awk <<-'EOF'
	fail|compare.awk, an empty actual matrix|exp|empty
	fail|compare.awk, a missing actual matrix|exp|nosuch
	fail|compare.awk, an empty expected matrix|empty|stock
	fail|compare.awk, a header and no rows|exp|head
	fail|compare.awk, one cell changed|exp|stock-changed
	pass|compare.awk, the expected stock column|exp|stock
	fail|compare.awk, a matrix with no header line|exp|nohead
	fail|compare.awk, every column misnamed|exp|misnamed
	fail|compare.awk, a row given twice, wrong first and right last|exp|twice
	EOF
}

# The judge with -t ROW for each ROW of $1 (a list): the suite was asked
# for those rows only.
with_rows()
{
	local r

	suite_args=()
	for r in $1; do
		suite_args+=(-t "$r")
	done
	shift
	"$@"
}

# run_column on a stand-in run (the TAP in FAKE_TAP, exit code FAKE_RC),
# then the verdict on the column NAME ($1).
ran_and_judged()
{
	vm_boot() { cat "$FAKE_TAP"; return "$FAKE_RC"; }
	run_column "$1" image 0 && judge_columns "$1"
}

# The same in vmtest-distro.sh: one front end, kselftest, on FAKE_TAP and
# FAKE_RC, judged against the stock column of $ST/vm/expected; -t for
# each row of ROWS.
in_distro()
{
	(
		. "$TOP/vm/vmtest-distro.sh"
		RESULTS=$ST/vd
		EXPECTED=$ST/vm/expected
		DISTRO_LINE=6.12
		ARG_FRONTS=(kselftest)
		ARG_TESTS=()
		for r in ${ROWS:-}; do
			ARG_TESTS+=(-t "$r")
		done
		vm_boot() {
			[ -z "${FAKE_SAID:-}" ] || echo "$FAKE_SAID" >&2
			cat "$FAKE_TAP"
			return "$FAKE_RC"
		}
		rm -rf "$RESULTS"
		mkdir -p "$RESULTS"
		run_front kselftest image initrd && judge_line
	)
}

# vmtest.sh's and vmtest-distro.sh's verdict on a run whose TAP is TAP
# ($2: a file under $ST/vm) and exit code RC ($3), WANT ($1) pass or fail.
run_judged()
{
	local want=$1 tap=$2 rc=$3 what=$4

	export FAKE_TAP=$ST/vm/$tap FAKE_RC=$rc
	expect "$want" "vmtest, $what" in_vmtest ran_and_judged stock
	expect "$want" "vmtest-distro, $what" in_distro
	export -n FAKE_TAP FAKE_RC
}

# The mutant column ingress-noskip of FILL ($1) and ROW CELL pairs, judged
# beside the stock column.
mutant_judged()
{
	fake_column ingress-noskip "$@"
	in_vmtest judge_columns stock ingress-noskip
}

st_vmtest_judge()
{
	local e=egress_mirred.ipv4 i=ingress_mirred.ipv4 r=fail:reclassified ROWS=

	rm -rf "$ST/vm"
	fake_column stock missing $e $r $i pass
	fake_column ingress-noskip missing $e $r $i $r
	expect fail "vmtest, the expected matrix missing" in_vmtest judge_columns stock
	printf 'test stock\n%s %s\n%s pass\n' $e $r $i >"$ST/vm/expected"
	expect pass "vmtest, a matrix as expected" in_vmtest judge_columns stock
	expect pass "vmtest, a mutant killed" in_vmtest judge_columns stock ingress-noskip
	fake_column stock missing
	expect fail "vmtest, a column with no verdicts" in_vmtest judge_columns stock
	fake_column stock missing $e pass $i pass
	expect fail "vmtest, a cell that differs" in_vmtest judge_columns stock
	fake_column stock missing $e $r $i pass
	expect fail "vmtest, a mutant that survived" mutant_judged missing $e $r $i pass
	expect fail "vmtest, a mutant that did not boot" mutant_judged fail:boot
	grep -q '^BROKEN mutant ingress-noskip: no verdict: .*fail:boot' "$ST/out" ||
		fail "self-test: a mutant that did not boot is not reported BROKEN: $(cat "$ST/out")"
	cases mutant_judged <<-EOF
	fail|vmtest, a mutant that crashed half way|fail:crash|$e|pass
	fail|vmtest, a mutant that timed out half way|fail:timeout|$e|pass
	fail|vmtest, a mutant with a row missing|missing|$e|pass
	fail|vmtest, a mutant that did not build|fail:build
	EOF
	# -t: every row asked for must be reported (the auditor's case: two
	# rows asked for, one reported, judged a pass).
	fake_column stock missing $e $r
	expect fail "vmtest -t, two rows asked for and one reported" \
		in_vmtest with_rows "$e $i" judge_columns stock
	grep -q "$i / stock" "$ST/out" ||
		fail "self-test: vmtest -t does not name the row not reported: $(cat "$ST/out")"
	expect pass "vmtest -t, one row asked for and reported" in_vmtest with_rows $e judge_columns stock
	expect fail "vmtest -t, a row asked for that the expected matrix has not" \
		in_vmtest with_rows "$e egress_nosuch.ipv4" judge_columns stock
	fake_column stock missing $e $r $i pass
	expect fail "vmtest -t, a row reported that was not asked for" \
		in_vmtest with_rows $e judge_columns stock
	# Each column's TAP must be whole and its exit code say what it says.
	printf '%s\n' 1..2 '# diagnosis: reclassified' 'not ok 1 tc_skip_egress.ipv4.egress_mirred' \
		'ok 2 tc_skip_egress.ipv4.ingress_mirred' >"$ST/vm/whole.tap"
	sed '1s/.*/1..3/' "$ST/vm/whole.tap" >"$ST/vm/cut.tap"
	{ cat "$ST/vm/whole.tap"; echo 'Bail out! cannot make a namespace'; } >"$ST/vm/bail.tap"
	head -3 "$ST/vm/whole.tap" | sed '1s/.*/1..1/' >"$ST/vm/one.tap"
	run_judged pass whole.tap 1 "a whole TAP with a failure, exit 1"
	run_judged fail whole.tap 0 "a whole TAP with a failure, exit 0"
	run_judged fail whole.tap 139 "a whole TAP, then the runner crashed (139)"
	run_judged fail cut.tap 1 "a TAP cut off after test 2 of 3, its verdicts as expected"
	run_judged fail bail.tap 1 "a TAP that bailed out after its verdicts"
	export FAKE_TAP=$ST/vm/whole.tap FAKE_RC=1
	ROWS="$e $i"
	expect pass "vmtest-distro -t, two rows asked for and reported" in_distro
	FAKE_TAP=$ST/vm/one.tap
	expect fail "vmtest-distro -t, two rows asked for and one reported" in_distro
	grep -q "$i / kselftest" "$ST/out" ||
		fail "self-test: vmtest-distro -t does not name the row not reported: $(cat "$ST/out")"
	export -n FAKE_TAP FAKE_RC
	printf 'test stock fix\n%s %s pass\n%s pass pass\n' $e $r $i >"$ST/vm/expected"
	fake_column fix missing $e pass $i pass
	expect fail "vmtest, a stock kernel that did not boot" in_vmtest unbooted_judged
	grep -q '^DIFF stock: 2 rows gave no verdict (fail:boot)$' "$ST/out" &&
		grep -q '^  stock: vm: boot failed' "$ST/out" && ! grep -q ' / stock: ' "$ST/out" ||
		fail "self-test: a column that did not boot is not one line and its reason: $(cat "$ST/out")"
	head -3 "$ST/vm/whole.tap" >"$ST/vm/crash.tap"
	export FAKE_TAP=$ST/vm/crash.tap FAKE_RC=139 FAKE_SAID="vm: qemu exit 0, console: c.log"
	expect fail "vmtest-distro, a kernel that crashed after one row" in_distro
	export -n FAKE_TAP FAKE_RC FAKE_SAID
	grep -q '^DIFF kselftest: 1 rows gave no verdict (missing)$' "$ST/out" &&
		grep -q '^  kselftest: vm: qemu exit 0' "$ST/out" && ! grep -q ' / kselftest: ' "$ST/out" ||
		fail "self-test: vmtest-distro's cut run is not one line and its reason: $(cat "$ST/out")"
}

# The column stock, whose kernel did not boot (run-vm.sh's 255), judged
# beside fix.
unbooted_judged()
{
	vm_boot() { echo "vm: boot failed (qemu exit 0), console: c.log" >&2; return 255; }
	run_column stock image 0 && judge_columns stock fix
}

# A stand-in for test_progs in a scratch BUILD: writes $ST/tp/NAME.json as
# its -J summary, NAME being the one subtest's name (-a tc_redirect_ifb/x)
# where there is such a file, else "all". No file, no summary.
fake_test_progs()
{
	mkdir -p "$ST/tp/net/tc_skip_egress"
	stand_in "$ST/tp/test_progs/test_progs" <<-EOF
	while [ \$# -gt 0 ]; do
		case \$1 in
		-a) names=\$2; shift ;;
		-J) json=\$2; shift ;;
		esac
		shift
	done
	echo "#1/1     tc_redirect_ifb/egress_mirred_ipv4:OK"
	cat "$ST/tp/skips" 2>/dev/null
	echo "\$names" >>"$ST/tp/calls"
	names=\${names#*/}
	[ -f "$ST/tp/\$names.json" ] || names=all
	[ -f "$ST/tp/\$names.json" ] && cp "$ST/tp/\$names.json" "\$json"
	exit \$(cat "$ST/tp/rc" 2>/dev/null || echo 0)
	EOF
	rm -f "$ST"/tp/*.json "$ST/tp/rc" "$ST/tp/skips" "$ST/tp/calls"
}

# tp_json NAME SUCCESS SUBTESTS SKIPPED FAILED [RESULT...]: test_progs'
# JSON summary in $ST/tp/NAME.json, its results the RESULTs.
tp_json()
{
	local IFS=,

	printf '{"success":%s,"success_subtest":%s,"skipped":%s,"failed":%s,"results":[%s]}\n' \
		"$2" "$3" "$4" "$5" "${*:6}" >"$ST/tp/$1.json"
}

# test_progs-tap.sh on rows egress_mirred.ipv4 and ingress_mirred.ipv4.
tp_tap()
{
	BUILD=$ST/tp "$TOP/mk/test_progs-tap.sh" -t egress_mirred.ipv4 \
		-t ingress_mirred.ipv4 >"$ST/tp/tap"
}

# ... and its TAP gives these verdicts.
tp_tap_says()
{
	tp_tap
	[ "$(tap_verdicts <"$ST/tp/tap" | paste -sd' ')" = "$*" ]
}

# ... after running test_progs N ($1) times (once for all rows, once for
# each skip's reason, once for each row run again alone).
tp_tap_runs_says()
{
	local runs=$1

	shift
	rm -f "$ST/tp/calls"
	tp_tap_says "$@" && [ "$(wc -l <"$ST/tp/calls")" = "$runs" ]
}

st_test_progs_tap()
{
	local failed='{"name":"egress_mirred_ipv4","number":1,"failed":true,"message":"clsact counted 10\ndiagnosis: reclassified\n"}'
	local e=egress_mirred.ipv4 i=ingress_mirred.ipv4

	fake_test_progs
	expect fail "test_progs-tap, text and no JSON summary" tp_tap
	tp_json all 1 0 0 0
	expect fail "test_progs-tap, a summary where nothing ran" tp_tap
	tp_json all 1 2 0 0
	expect pass "test_progs-tap, two subtests passed" tp_tap_says $e pass $i pass
	tp_json all 0 1 0 1 '{"name":"tc_redirect_ifb","number":1,"failed":true,"message":"","subtests":['"$failed"']}'
	expect fail "test_progs-tap, a subtest failed" tp_tap
	expect pass "test_progs-tap, a failed subtest's diagnosis" \
		tp_tap_says $e fail:reclassified $i pass
	tp_json all 1 1 1 0
	tp_json egress_mirred_ipv4 1 1 0 0
	tp_json ingress_mirred_ipv4 1 0 1 0
	expect pass "test_progs-tap, a skip found by running the subtests alone" \
		tp_tap_runs_says 4 $e pass $i skip
	echo "#1/2     tc_redirect_ifb/ingress_mirred_ipv4:SKIP" >"$ST/tp/skips"
	expect pass "test_progs-tap, a skip its result line names, as many as counted: no row runs again" \
		tp_tap_runs_says 2 $e pass $i skip
	tp_json all 1 1 2 0
	expect fail "test_progs-tap, more skips counted than named: no verdict from the names" \
		tp_tap_runs_says 2 $e pass $i skip
	tp_json all 1 1 1 0
	rm -f "$ST/tp/skips"
	tp_json ingress_mirred_ipv4 1 0 0 0
	expect fail "test_progs-tap, a subtest that does not run alone" tp_tap
	# The runner's exit code counts: a crash after a summary that
	# looks whole, a failure of the test outside its subtests.
	rm -f "$ST"/tp/*.json
	tp_json all 1 2 0 0
	echo 139 >"$ST/tp/rc"
	expect fail "test_progs-tap, test_progs crashed (exit 139) after a summary of passes" tp_tap
	tp_json all 0 2 0 1 '{"name":"tc_redirect_ifb","number":1,"failed":true,"message":"netns setup failed\ndiagnosis: setup\n","subtests":[]}'
	echo 1 >"$ST/tp/rc"
	expect fail "test_progs-tap, the test failed outside any subtest (exit 1)" tp_tap
	expect pass "test_progs-tap, that failure is a result line of its own" \
		tp_tap_says $e pass $i pass tc_redirect_ifb fail:setup
	tp_json all 1 2 0 0
	expect fail "test_progs-tap, exit 1 and a summary that names no failure" tp_tap
	rm -f "$ST/tp/rc"
}

# A PATH with every command of this one but NAME ($1): links in
# $ST/no-NAME.
path_without()
{
	local dir=$ST/no-$1
	local -a dirs

	if [ ! -d "$dir" ]; then
		mkdir -p "$dir"
		IFS=: read -ra dirs <<<"$PATH"
		# The first of two commands of one name wins, as on PATH.
		find "${dirs[@]}" -mindepth 1 -maxdepth 1 ! -name "$1" -print0 2>/dev/null |
			xargs -0 ln -s -t "$dir" 2>/dev/null
	fi
	echo "$dir"
}

no_jq_path()
{
	path_without jq
}

# CMD... run with jq off the PATH must fail, and say so ("no jq on PATH").
fails_naming_jq()
{
	local nojq rc

	nojq=$(no_jq_path)
	PATH=$nojq "$@" >"$ST/nojq.out" 2>&1
	rc=$?
	cat "$ST/nojq.out"
	echo "exit $rc"
	[ "$rc" != 0 ] && grep -q 'no jq on PATH' "$ST/nojq.out"
}

# A stand-in bpftool that lists nothing, $ST/bpftool-empty.
empty_bpftool()
{
	stand_in "$ST/bpftool-empty" 'echo "[]"'
}

# The leftover check's state (tests/lib.sh's system_state), with a bpftool
# that lists nothing.
state_with_fake_bpftool()
{
	empty_bpftool
	BPFTOOL=$ST/bpftool-empty system_state >/dev/null
}

st_no_jq()
{
	expect pass "the leftover check, bpftool's lists read with jq: passes with jq" \
		state_with_fake_bpftool
	expect pass "the leftover check without jq on PATH fails, naming jq" \
		fails_naming_jq state_with_fake_bpftool
	fake_test_progs
	tp_json all 1 2 0 0
	expect pass "test_progs-tap without jq on PATH fails, naming jq" fails_naming_jq tp_tap
	PATH=$(no_jq_path) bash -c 'command -v awk sed cp ip mktemp >/dev/null && ! command -v jq' ||
		fail "self-test: the PATH in $(no_jq_path) has jq, or lacks more than jq"
}

# scripts/deps.sh where there is no dpkg (DEPS_NO_DPKG=1), run with ARGS.
deps_no_dpkg()
{
	DEPS_NO_DPKG=1 "$TOP/scripts/deps.sh" "$@"
}

# deps.sh without dpkg, after the Debian path has installed the suite's
# packages, says nothing and passes.
deps_silent()
{
	local out

	out=$(deps_no_dpkg 2>&1) || { echo "$out"; return 1; }
	[ -z "$out" ] || { echo "said: $out"; return 1; }
}

# deps.sh without dpkg, with clang off the PATH: must fail, naming clang
# and its Debian package, and nothing else (the PATH hides clang alone).
deps_without_clang()
{
	local nc rc

	nc=$(path_without clang)
	PATH=$nc deps_no_dpkg >"$ST/deps.out" 2>&1
	rc=$?
	cat "$ST/deps.out"
	echo "exit $rc"
	[ "$rc" != 0 ] && grep -qxF "deps.sh: missing, and no dpkg to install it: clang (Debian: clang)" \
		"$ST/deps.out"
}

# What dpkg finds installed, in every group, the probes must find too: a
# probe of a wrong name would otherwise fail on other distributions alone.
deps_probes_agree()
{
	local -a all=(--vm --bench --peers --series --full-build)
	local installed_missing probed p

	command -v dpkg-query >/dev/null || { echo "no dpkg-query: nothing to agree with"; return 0; }
	installed_missing=$(DEPS_DRY_RUN=1 "$TOP/scripts/deps.sh" "${all[@]}" |
		sed -n 's/^deps: would install: //p')
	probed=$(DEPS_DRY_RUN=1 deps_no_dpkg "${all[@]}" | grep '^deps: no dpkg, missing: ') ||
		{ echo "DEPS_NO_DPKG=1 DEPS_DRY_RUN=1 did not probe"; return 1; }
	for p in $(grep -o '(Debian: [^)]*)' <<<"$probed" | sed 's/^(Debian: //; s/)$//' | sort -u); do
		[[ " $installed_missing " == *" $p "* ]] ||
			{ echo "$p: installed, but its probe finds nothing"; return 1; }
	done
}

st_deps()
{
	expect pass "deps.sh without dpkg, the suite's packages installed: passes, silent" \
		deps_silent
	expect pass "deps.sh without dpkg or clang on PATH fails, naming clang (Debian: clang)" \
		deps_without_clang
	expect pass "deps.sh without dpkg finds every group's packages dpkg has installed" \
		deps_probes_agree
}

# test_progs-check.sh with a stand-in kselftest binary that prints $ST/tap
# (TAP lines $1, with \n between them).
tp_check()
{
	printf '%b\n' "$1" >"$ST/tap"
	BUILD=$ST/tp "$TOP/mk/test_progs-check.sh"
}

st_test_progs_check()
{
	fake_test_progs
	fake_suite
	cp "$ST/suite" "$ST/tp/net/tc_skip_egress/tc_skip_egress"
	harness_list egress_mirred ipv4 verdict >"$ST/list"
	tp_json all 1 1 0 0
	cases tp_check <<-'EOF'
	pass|test_progs-check, both front ends pass|1..1\nok 1 egress_mirred.ipv4.verdict
	fail|test_progs-check, the same verdicts from a kselftest TAP cut off|1..2\nok 1 egress_mirred.ipv4.verdict
	fail|test_progs-check, the front ends disagree|1..1\n# diagnosis: reclassified\nnot ok 1 egress_mirred.ipv4.verdict
	EOF
	tp_json all 1 0 0 0
	: >"$ST/tap"
	expect fail "test_progs-check, neither front end ran anything" \
		env BUILD="$ST/tp" "$TOP/mk/test_progs-check.sh"
}

# hold_netns VAR [setsid]: hold a new network namespace, with no name: a
# process in it, its pid in VAR, until it is killed; with setsid, from a
# session of its own (someone else's run, as far as this script can
# tell). Returns once the process is in the namespace.
hold_netns()
{
	local end=$((SECONDS + 5))

	${2:-} unshare -n sleep 600 &
	printf -v "$1" %s $!
	until [ "$(readlink "/proc/${!1}/ns/net")" != "$(readlink /proc/self/ns/net)" ]; do
		kill -0 "${!1}" 2>/dev/null && [ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.05
	done
}

# need_root WHAT: fails, saying so, when not root.
need_root()
{
	[ "$(id -u)" = 0 ] || { fail "self-test: $1 need root"; return 1; }
}

# kmsg_suite DIR: a stand-in suite, $ST/DIR/suite, that lists the control
# ingress_mirred.ipv4 and egress_unrelated.ipv4 and runs the script on
# stdin.
kmsg_suite()
{
	harness_list tc_skip_egress ipv4 ingress_mirred "" "" egress_unrelated >"$ST/$1.list"
	{ echo "[ \"\$1\" = -l ] && cat \"$ST/$1.list\" >&2 && exit 4"; cat; } | stand_in "$ST/$1/suite"
}

# Kill the process that holds a leaked namespace or program.
end_leak()
{
	[ -n "$LEAK" ] || return 0
	kill "$LEAK" 2>/dev/null
	wait "$LEAK" 2>/dev/null
	LEAK=
}

# Hold BPF programs pinned in a bpffs that only a private mount namespace
# sees, LEAK holding that; nothing stays on the host once it is killed.
# 60 s: loading the object's programs took 16 s in a 6.1 guest under TCG
# (vm/check-lts.sh), over 10 s once on a loaded host.
leak_bpf_prog()
{
	local obj=${SUITE%/*}/test_tc_redirect_ifb.bpf.o end=$((SECONDS + 60))

	mkdir -p "$ST/bpffs"
	# The background job opens the file when it starts: make it now, so
	# that the first grep below finds it.
	: >"$ST/bpf-loaded"
	unshare -m --propagation private bash -c '
		mount -t bpf bpf "$1" && "$2" prog load "$3" "$1/leak" &&
			echo "loaded prog $("$2" -j prog show pinned "$1/leak" | jq .id) " &&
			exec sleep 600' _ "$ST/bpffs" "$BPFTOOL" "$obj" >"$ST/bpf-loaded" 2>&1 &
	LEAK=$!
	until grep -q '^loaded prog [0-9]' "$ST/bpf-loaded"; do
		kill -0 "$LEAK" 2>/dev/null && [ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.05
	done
}

# The leftover check, judged on one THING ($2, a line's start): fails
# while THING is among the leftovers since the snapshot FILE ($1). Other
# users of the machine may come and go meanwhile: only THING counts here.
clean_of()
{
	local left

	left=$(leftovers "$1")
	[ $? -lt 2 ] || return 1
	! grep -F "$2" <<<"$left"
}

# ... and until THING has gone, bounded (30 s: a guest under TCG frees a
# BPF program after slow RCU grace periods).
wait_clean_of()
{
	local end=$((SECONDS + 30))

	until clean_of "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# leaked WHAT THE-WHAT THING: the leftover check fails while THING, held by
# LEAK, is there, and passes once LEAK is killed and THING has gone.
leaked()
{
	expect fail "leftover check, $1 left behind" clean_of "$ST/before" "$3"
	end_leak
	expect pass "leftover check, $2 gone" wait_clean_of "$ST/before" "$3"
}

# The leftover check: a snapshot before, leftovers after. What it finds
# must be what "ip netns" and the names of links cannot show.
st_leftovers()
{
	need_root "leftover checks" || return
	expect fail "leftover check, no snapshot to compare with" wait_no_leftovers "$ST/nosuch"
	snapshot "$ST/before" || { fail "self-test: cannot take a snapshot"; return; }
	if hold_netns LEAK; then
		leaked "a namespace with no name" "the namespace" "netns $(readlink "/proc/$LEAK/ns/net")"
	else
		fail "self-test: could not make a namespace to leak"
	fi
	end_leak
	if leak_bpf_prog; then
		leaked "a pinned BPF program" "the BPF program" "$(sed -n 's/^loaded //p' "$ST/bpf-loaded")"
	else
		fail "self-test: could not load a BPF program to leak: $(cat "$ST/bpf-loaded")"
	fi
	end_leak
}

# Run FUNCTION [ARG]... among SCRIPT's functions, in a bash of its own:
# the script with its last line ('main "$@"; exit') left out, sourced with
# $0 set to SCRIPT so that it finds its own lib.sh:
#   bash -c "$SCRIPT_FN" SCRIPT FUNCTION [ARG]...
# shellcheck disable=SC2016
SCRIPT_FN='source <(sed "\$d" "$0") || exit 2
declare -F "$1" >/dev/null || { echo "self-test: no function $1 in $0"; exit 2; }
"$@"'

# expect fail, and the failure is the check's own: its "not ok - " line,
# not a script that could not run.
expect_check_fails()
{
	expect fail "$@"
	grep -q '^not ok - ' "$ST/out" ||
		fail "self-test: $1: the check did not say 'not ok': $(head -3 "$ST/out")"
}

# A stand-in for qemu and for the kernel build, in $ST/fv: the fake qemu
# writes $ST/fv/guest (the guest's output, with init.sh's markers) to
# the second -serial file, as a booted kernel would; the fake make leaves
# a bzImage in O=. vm/run-vm.sh, bisect-run.sh and series-check.sh run
# for real around them.
fake_vm()
{
	mkdir -p "$ST/fv/build" "$ST/fv/obj"
	stand_in "$ST/fv/bin/qemu-system-x86_64" <<-EOF
	serial=()
	while [ \$# -gt 0 ]; do
		[ "\$1" = -serial ] && serial+=("\${2#file:}")
		shift
	done
	cat "$ST/fv/console" >"\${serial[0]}" 2>/dev/null || : >"\${serial[0]}"
	# The first \$(cat noboots) boots end before init: no markers.
	n=\$(cat "$ST/fv/noboots" 2>/dev/null || echo 0)
	[ "\$n" -gt 0 ] && { echo \$((n - 1)) >"$ST/fv/noboots"; exit 0; }
	cat "$ST/fv/guest" >>"\${serial[1]}"
	EOF
	stand_in "$ST/fv/bin/make" <<-'EOF'
	for a; do
		case $a in O=*) mkdir -p "${a#O=}/arch/x86/boot" &&
				echo fake >"${a#O=}/arch/x86/boot/bzImage" ;;
		esac
	done
	EOF
	# The object dir's config is current: vm_make goes straight to make.
	(. "$TOP/vm/lib.sh" && vm_config_key) >"$ST/fv/obj/.vm-config-key"
	: >"$ST/fv/obj/.config"
	git init -q "$ST/fv/linux"
}

# guest EXIT LINE...: the guest's output: booted, the LINEs, then the
# command's exit code EXIT ("-" for none: the kernel died under it).
guest()
{
	local rc=$1

	shift
	{
		echo "VMTEST-BOOTED 1.0"
		printf '%s\n' "$@"
		[ "$rc" = - ] || echo "VMTEST-EXIT $rc 2.0"
	} >"$ST/fv/guest"
}

# Run CMD... in the fake VM's environment.
in_fake_vm()
{
	env PATH="$ST/fv/bin:$PATH" VM_BUILD="$ST/fv/build" VM_ACCEL=tcg \
		VM_BISECT_OBJ="$ST/fv/obj" SERIES_CHECK_DIR="$ST/fv/check" "$@"
}

# bisect_says WANT [ARG]...: bisect-run.sh, run in the fake kernel tree
# with ARGs, answers WANT (0 good, 1 bad, 125 skip, 128 stop: a usage
# error, which git bisect run must not read as bad).
bisect_says()
{
	local want=$1 rc

	shift
	(cd "$ST/fv/linux" && in_fake_vm "$TOP/vm/bisect-run.sh" "$@")
	rc=$?
	echo "bisect-run.sh answered $rc, expected $want"
	[ "$rc" = "$want" ]
}

# guest_says WANT EXIT LINE...: bisect-run.sh, its guest printing the
# LINEs and exiting EXIT, answers WANT.
guest_says()
{
	guest "${@:2}"
	bisect_says "$1"
}

st_bisect()
{
	local pass2=(1..2 'ok 1 tc_skip_egress.ipv4.ingress_mirred' 'ok 2 tc_skip_egress.ipv6.ingress_mirred')
	local t=$ST/fv

	fake_vm
	printf '%s\n' "${pass2[@]}" >"$t/whole.tap"
	printf '1..32\nok 1 tc_skip_egress.ipv4.ingress_mirred\n' >"$t/cut.tap"
	printf '%s\n' "${pass2[@]:0:2}" 'Bail out! cannot make a namespace' >"$t/bail.tap"
	printf '# diagnosis: reclassified\nnot ok 1 tc_skip_egress.ipv4.egress_mirred\n1..32\n' >"$t/bad.tap"
	guest 0 "${pass2[@]}"
	cases bisect_says <<-EOF
	pass|bisect --judge, a whole TAP of passes is good|0|--judge|$t/whole.tap
	pass|bisect --judge, a real failure in a TAP cut short is bad|1|--judge|$t/bad.tap
	pass|bisect --judge, a TAP cut off after test 1 of 32 is no answer (125)|125|--judge|$t/cut.tap
	pass|bisect --judge, passes then Bail out! is no answer (125)|125|--judge|$t/bail.tap
	pass|bisect --judge with no file is a usage error (128), not a build|128|--judge
	pass|bisect --judge, a file that is not there stops the bisection (128)|128|--judge|$t/nosuch.tap
	pass|bisect, an unknown option stops the bisection (128), not bad (2)|128|--bogus
	pass|bisect, -t without its test stops the bisection (128)|128|-t
	pass|bisect --judge --rc x, not a number: stops the bisection (128)|128|--judge|$t/whole.tap|--rc|x
	pass|bisect --rc without --judge stops the bisection (128)|128|--rc|1
	pass|bisect run, the suite passed whole in the VM: good|0
	EOF
	# A partial TAP, or a whole TAP and an exit code that says otherwise.
	cases guest_says <<-EOF
	pass|bisect run, the suite exited 1 after a partial TAP of passes: no answer (125)|125|1|1..2|${pass2[1]}
	pass|bisect run, the suite crashed (139) after a partial TAP: no answer (125)|125|139|1..2|${pass2[1]}
	pass|bisect run, the suite crashed (139) after a whole TAP of passes: no answer (125)|125|139|${pass2[0]}|${pass2[1]}|${pass2[2]}
	pass|bisect run, the suite exited 1 after a whole TAP of passes: no answer (125)|125|1|${pass2[0]}|${pass2[1]}|${pass2[2]}
	pass|bisect run, the suite rejected its arguments (exit 2): stop (128)|128|2|1..0 # unknown test
	EOF
	# The kernel that booted is another build's (run-vm.sh exit 252).
	fake_bzimage "$ST/fv/obj/arch/x86/boot/bzImage" '6.12.57 (root@h) #2 SMP'
	stand_in "$ST/fv/bin/make" 'exit 0'
	echo 'Linux version 6.12.57 (root@h) (gcc) #1 SMP' >"$ST/fv/console"
	guest 0 "${pass2[@]}"
	expect pass "bisect run, the VM booted another build's kernel: no answer (125)" bisect_says 125
	rm -f "$ST/fv/console"
}

# fake_bzimage FILE VERSION: a file with an x86 setup header ("HdrS" at
# 0x202) whose kernel_version field (0x20e) points at VERSION, as in a
# bzImage the kernel's build made.
fake_bzimage()
{
	head -c 1024 /dev/zero >"$1"
	printf 'HdrS' | dd of="$1" bs=1 seek=$((0x202)) conv=notrunc status=none
	printf '\x00\x01' | dd of="$1" bs=1 seek=$((0x20e)) conv=notrunc status=none
	printf '%s\0' "$2" | dd of="$1" bs=1 seek=$((0x300)) conv=notrunc status=none
}

# run_vm_says WANT BANNER [IMAGE]: run-vm.sh boots IMAGE (default: that
# of build #30), whose console prints BANNER, and exits WANT.
run_vm_says()
{
	local rc image=${3:-$ST/fv/bzImage-30}

	printf '[    0.000000] %s\r\n[    0.000000] Command line: x\n' "$2" >"$ST/fv/console"
	in_fake_vm "$TOP/vm/run-vm.sh" -l "$ST/fv/console.log" "$image" -- true
	rc=$?
	echo "run-vm.sh exited $rc, expected $1"
	[ "$rc" = "$1" ]
}

# run-vm.sh refuses a kernel whose banner is another build's than its
# image's (a stale compressed payload booted another build's kernel).
st_run_vm_banner()
{
	local v='6.12.57 (root@h) #30 SMP PREEMPT_DYNAMIC Sat Dec  5 01:02:03 UTC 2026'
	local cc='(root@h) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40)'

	fake_vm
	guest 0 ok
	fake_bzimage "$ST/fv/bzImage-30" "$v"
	expect pass "run-vm, the image header reads back as written" \
		bash -c ". $TOP/vm/lib.sh && [ \"\$(vm_image_version $ST/fv/bzImage-30)\" = '$v' ]"
	cases run_vm_says <<-EOF
	pass|run-vm, the banner of the image's own build: the command's exit (0)|0|Linux version ${v%% *} $cc #${v#*#}
	pass|run-vm, the banner of build #25 from image #30: a stale kernel (252)|252|Linux version ${v%% *} $cc #25 SMP PREEMPT_DYNAMIC Sat Dec  5 01:02:03 UTC 2026
	pass|run-vm, the banner of another date: a stale kernel (252)|252|Linux version ${v%% *} $cc #30 SMP PREEMPT_DYNAMIC Fri Dec  4 01:02:03 UTC 2026
	pass|run-vm, the banner of another release: a stale kernel (252)|252|Linux version 6.1.158 $cc #${v#*#}
	EOF
	echo fake >"$ST/fv/plain"
	expect pass "run-vm, an image with no setup header is not judged by its banner" \
		run_vm_says 0 "Linux version 6.1.158 $cc #1" "$ST/fv/plain"
	rm -f "$ST/fv/console"
}

# boots_say WANT N [VAR=VALUE]...: run-vm.sh, whose first N boots end
# before the command starts, exits WANT.
boots_say()
{
	local want=$1 rc

	echo "$2" >"$ST/fv/noboots"
	shift 2
	in_fake_vm env "$@" "$TOP/vm/run-vm.sh" -l "$ST/fv/console.log" \
		"$ST/fv/plain" -- true 2>"$ST/fv/err"
	rc=$?
	rm -f "$ST/fv/noboots"
	echo "run-vm.sh exited $rc, expected $want: $(paste -sd' ' "$ST/fv/err")"
	[ "$rc" = "$want" ]
}

# A boot that ended before the command started ran no test: run-vm.sh
# boots once more, and a kernel that never boots still fails (255).
st_run_vm_boot_again()
{
	fake_vm
	guest 0 ok
	echo fake >"$ST/fv/plain"
	cases boots_say <<-EOF
	pass|run-vm, the first boot ends early, the second runs the command: its exit (0)|0|1
	pass|run-vm, a kernel that never boots: boot failed (255)|255|2
	pass|run-vm, VM_BOOT_TRIES=1 and a boot that ends early: boot failed (255)|255|1|VM_BOOT_TRIES=1
	EOF
}

# The cover letter's matrix (vm/series.sh's matrix) is the expected one:
# stock and fix of the first line's matrix, then seed, iif and both of
# the mutants' line's, every cell, row for row.
series_matrix()
{
	bash -c "$SCRIPT_FN" "$TOP/vm/series.sh" matrix | awk '{ $1 = $1 } 1'
}

# The columns named ($2...) of expected matrix $1, a row per test.
matrix_columns()
{
	local file=$1

	shift
	awk -v want="$*" '
		/^#/ || NF == 0 { next }
		$1 == "test" {
			n = split(want, w, " ")
			for (i = 2; i <= NF; i++)
				col[$i] = i
		}
		{
			line = $1
			for (j = 1; j <= n; j++)
				line = line " " ($1 == "test" ? w[j] : $col[w[j]])
			print line
		}' "$file"
}

st_series_matrix()
{
	matrix_columns "$TOP/vm/expected-matrix-7.3.txt" stock fix >"$ST/sm-first"
	matrix_columns "$TOP/vm/expected-matrix-6.12.txt" seed iif both >"$ST/sm-old"
	awk 'FNR == NR { old[$1] = $2 " " $3 " " $4; next }
	     { print $0, ($1 in old ? old[$1] : "- - -") }' "$ST/sm-old" "$ST/sm-first" \
		>"$ST/sm-expected"
	series_matrix >"$ST/sm-letter"
	expect pass "series cover letter, its matrix has the columns it names: stock fix seed iif both" \
		grep -qx 'test stock fix seed iif both' "$ST/sm-letter"
	expect pass "series cover letter, its matrix is the expected matrices', cell for cell" \
		cmp "$ST/sm-expected" "$ST/sm-letter"
}

# series-check.sh's function FUNCTION [ARG]... in the fake VM: its verdict
# on one front end run there (run_front), on checkpatch.pl (run_checkpatch).
series_fn()
{
	mkdir -p "$ST/fv/check"
	echo fake >"$ST/fv/check/bzImage"
	in_fake_vm bash -c "$SCRIPT_FN" "$TOP/vm/series-check.sh" "$@"
}

st_series_check()
{
	local pass2=(1..2 'ok 1 tc_skip_egress.ipv4.ingress_mirred' 'ok 2 tc_skip_egress.ipv6.ingress_mirred')

	fake_vm
	guest 0 "${pass2[@]}"
	expect pass "series-check, every test passed, VM exit 0" series_fn run_front kselftest true
	guest - 1..32 "${pass2[1]}"
	expect fail "series-check, a TAP cut off, the kernel died (VM exit 254)" series_fn run_front kselftest true
	guest 0 1..2 'ok 1 tc_skip_egress.ipv4.ingress_mirred # SKIP no ifb' \
		'ok 2 tc_skip_egress.ipv6.ingress_mirred # SKIP no ifb'
	expect fail "series-check, every test skipped" series_fn run_front kselftest true
	echo "From: x" >"$ST/fv/0001-x.patch"
	expect fail "series-check, checkpatch.pl missing" series_fn run_checkpatch "$ST/fv/0001-x.patch"
	grep -q 'checkpatch' "$ST/out" ||
		fail "self-test: series-check does not name the missing checkpatch.pl: $(cat "$ST/out")"
	stand_in "$ST/fv/build/src/scripts/checkpatch.pl" "echo \"Can't locate Term/ANSIColor.pm\"; exit 2"
	expect fail "series-check, checkpatch.pl that cannot run (no total)" \
		series_fn run_checkpatch "$ST/fv/0001-x.patch"
	stand_in "$ST/fv/build/src/scripts/checkpatch.pl" 'echo "total: 0 errors, 0 warnings, 0 checks, 10 lines checked"'
	expect pass "series-check, checkpatch.pl clean" series_fn run_checkpatch "$ST/fv/0001-x.patch"
	st_series_fix_runs
	st_series_tools
}

# series-check's take_tools, on a tree in $ST/tt whose vm-base the last
# commit changed: it takes BUILD's libbpf and bpftool, or builds its own.
takes_tools()
{
	rm -rf "$ST/tt/check" && mkdir -p "$ST/tt/check" &&
	VM_BUILD=$ST/tt BUILD=$ST/tt/build SERIES_CHECK_DIR=$ST/tt/check \
		bash -c "$SCRIPT_FN" "$TOP/vm/series-check.sh" take_tools &&
		[ -x "$ST/tt/check/bpftool/bpftool" ] && [ -f "$ST/tt/check/libbpf/libbpf.a" ]
}

# commit_to_tt FILE: a new line in $ST/tt/src/FILE, committed.
commit_to_tt()
{
	echo "$RANDOM" >>"$ST/tt/src/$1"
	git -C "$ST/tt/src" add -f -A . &&
		git -C "$ST/tt/src" -c user.name=t -c user.email=t@localhost commit -q -m "$1"
}

# The suite's libbpf and bpftool serve the series only when it leaves
# every file they are built from (tools/ outside tools/testing).
st_series_tools()
{
	rm -rf "$ST/tt"
	mkdir -p "$ST/tt/src/tools/lib/bpf" "$ST/tt/src/tools/testing" "$ST/tt/build/libbpf"
	: >"$ST/tt/build/libbpf/libbpf.a"
	stand_in "$ST/tt/build/bpftool/bpftool" true
	git -C "$ST/tt/src" init -q
	commit_to_tt tools/lib/bpf/libbpf.c && git -C "$ST/tt/src" tag vm-base
	commit_to_tt tools/testing/t
	expect pass "series-check takes libbpf and bpftool, the series changing tools/testing only" \
		takes_tools
	commit_to_tt tools/lib/bpf/libbpf.c
	expect fail "series-check builds its own libbpf and bpftool, the series changing tools/lib/bpf" \
		takes_tools
}

# series_takes FRONT: series-check.sh takes the fix column's run in
# $ST/fr (SERIES_FIX_RUNS) as the series' run of bzImage-fix in $ST/fr.
series_takes()
{
	SERIES_FIX_RUNS=$ST/fr/results bash -c "$SCRIPT_FN" "$TOP/vm/series-check.sh" \
		fix_run_taken "$1" "$ST/fr/bzImage-fix"
}

# The fix column's runs stand for the series' only when they ran that very
# image, and every test.
st_series_fix_runs()
{
	local d

	rm -rf "$ST/fr"
	for d in "$ST/fr/results" "$ST/fr/results-test_progs"; do
		mkdir -p "$d"
		printf '1..1\nok 1 tc_skip_egress.ipv4.ingress_mirred\n' >"$d/fix.tap"
		echo 0 >"$d/fix.rc"
		: >"$d/fix.args"
		echo 0123456789abcdef >"$d/fix.key"
	done
	echo 0123456789abcdef >"$ST/fr/bzImage-fix.key"
	expect pass "series-check takes the fix column's run of the same image, every test" \
		series_takes kselftest
	expect pass "series-check takes the fix column's test_progs run of the same image" \
		series_takes test_progs
	printf '%s' '-t ingress_mirred.ipv4' >"$ST/fr/results/fix.args"
	expect fail "series-check, a fix column's run of some tests only (-t) is not the series' run" \
		series_takes kselftest
	: >"$ST/fr/results/fix.args"
	echo fedcba9876543210 >"$ST/fr/bzImage-fix.key"
	expect fail "series-check, a fix column's run of another image is not the series' run" \
		series_takes kselftest
	echo 0123456789abcdef >"$ST/fr/bzImage-fix.key"
	rm "$ST/fr/results-test_progs/fix.rc"
	expect fail "series-check, a fix column's run with no exit code is not taken" \
		series_takes test_progs
}

# vm/peers.awk on TSV cells, against vm/peers-expected.txt; cells FILE
# and the columns.
peers_table()
{
	awk -F '\t' -v cols="$2" -v expected="$TOP/vm/peers-expected.txt" \
		-f "$TOP/vm/table.awk" -f "$TOP/vm/peers.awk" "$1"
}

# Cells that give vm/peers-expected.txt's table: one per row and kernel,
# a tdc file's cells as many cases as its counts say.
peers_cells()
{
	awk '
		/^#/ || NF == 0 { next }
		{ n = split($0, f, /  +/) }
		!ncol { ncol = n; for (i = 2; i <= n; i++) k[i] = f[i]; next }
		{
			for (i = 2; i <= n; i++) {
				if (f[1] !~ /^tdc /) {
					printf "%s\t%s\t%s\t\n", k[i], f[1], f[i]
					continue
				}
				if (match(f[i], /^pass \([0-9]+\)$/)) {
					p = substr(f[i], 7) + 0; s = 0
				} else {
					split(f[i], c, /[ ,]+/); p = c[1]; s = c[3]
				}
				for (j = 1; j <= p; j++)
					printf "%s\t%s p%d\tpass\t\n", k[i], f[1], j
				for (j = 1; j <= s; j++)
					printf "%s\t%s s%d\tskip\tno device\n", k[i], f[1], j
			}
		}' "$TOP/vm/peers-expected.txt"
}

st_peers()
{
	local cols

	mkdir -p "$ST/peers"
	cols=$(grep -v '^#' "$TOP/vm/peers-expected.txt" | awk 'NF { print; exit }' |
	       sed 's/^test *//; s/  */ /g')
	peers_cells >"$ST/peers/good.tsv"
	expect pass "peers.awk, the cells of vm/peers-expected.txt" \
		peers_table "$ST/peers/good.tsv" "$cols"
	: >"$ST/peers/empty.tsv"
	expect fail "peers.awk, an empty cells file" peers_table "$ST/peers/empty.tsv" "$cols"
	{
		grep -v '^stock' "$ST/peers/good.tsv"
		printf 'stock\t(vm)\tfail\tVM exit 254, see build/peers/stock.log\n'
	} >"$ST/peers/died.tsv"
	expect fail "peers.awk, the stock VM died" peers_table "$ST/peers/died.tsv" "$cols"
	grep -v '^fix' "$ST/peers/good.tsv" >"$ST/peers/nofix.tsv"
	expect fail "peers.awk, no fix column" peers_table "$ST/peers/nofix.tsv" "${cols% fix}"
	awk -F '\t' -v OFS='\t' '$1 == "seed" && !done && $3 == "pass" { $3 = "fail"; done = 1 } 1' \
		"$ST/peers/good.tsv" >"$ST/peers/seed.tsv"
	expect fail "peers.awk, a seed cell that differs from vm/peers-expected.txt" \
		peers_table "$ST/peers/seed.tsv" "$cols"
}

st_bench_summarize()
{
	local res=$TOP/bench/results

	mkdir -p "$ST/bench/good" "$ST/bench/header" "$ST/bench/noinfo"
	cp "$res/raw.csv" "$res/run.info" "$ST/bench/good/"
	expect pass "bench/summarize.sh, the committed raw.csv and run.info" \
		"$TOP/bench/summarize.sh" "$ST/bench/good"
	head -n 1 "$res/raw.csv" >"$ST/bench/header/raw.csv"
	cp "$res/run.info" "$ST/bench/header/"
	expect fail "bench/summarize.sh, raw.csv with only its header" \
		"$TOP/bench/summarize.sh" "$ST/bench/header"
	cp "$res/raw.csv" "$ST/bench/noinfo/"
	expect fail "bench/summarize.sh, no run.info" "$TOP/bench/summarize.sh" "$ST/bench/noinfo"
}

# The leftover check, blind: no bpftool, or one that fails.
st_leftovers_blind()
{
	stand_in "$ST/bpftool-fails" 'echo "libbpf: failed" >&2' 'exit 1'
	expect fail "leftover check, a snapshot with no bpftool" \
		env BPFTOOL="$ST/nosuch" bash -c '. "$0" && snapshot "$1"' "$TOP/tests/lib.sh" "$ST/blind1"
	expect fail "leftover check, a snapshot with a failing bpftool" \
		env BPFTOOL="$ST/bpftool-fails" bash -c '. "$0" && snapshot "$1"' "$TOP/tests/lib.sh" "$ST/blind2"
	if snapshot "$ST/seen"; then
		expect fail "leftover check, bpftool failing after the snapshot" \
			env BPFTOOL="$ST/bpftool-fails" bash -c '. "$0" && wait_no_leftovers "$1"' \
			"$TOP/tests/lib.sh" "$ST/seen"
		grep -q bpftool "$ST/out" ||
			fail "self-test: the leftover check does not name bpftool: $(cat "$ST/out")"
	else
		fail "self-test: cannot take a snapshot with $BPFTOOL"
	fi
}

# in_stress CMD...: CMD among tests/stress.sh's functions, in a subshell:
# passes when its checks passed. The kill points of s_kills follow, one
# "# kill point: SIG after Xs" a line. with_snapshot CMD...: CMD after
# the snapshot that s_parallel and s_kills look for leftovers against.
in_stress()
{
	(
		. "$TOP/tests/stress.sh"
		export LEFTOVER_WAIT=2
		"$@"
		[ ! -f "$OUT/kills" ] || sed 's/^/# kill point: /' "$OUT/kills"
		[ "$FAILED" -eq 0 ]
	)
}

with_snapshot()
{
	snapshot "$OUT/before" || exit 2
	"$@"
}

st_stress_bad_input()
{
	stand_in "$ST/calls-nothing" 'exec nosuch-tool-either "$@"'
	expect_check_fails "stress bad-input check, a command that does not exist (127)" \
		in_stress expect_one_line_error self-test "$ST/nosuch-command" --bogus
	expect_check_fails "stress bad-input check, a script whose tool is missing (127)" \
		in_stress expect_one_line_error self-test "$ST/calls-nothing" --bogus
	expect pass "stress bad-input check, a one-line refusal" \
		in_stress expect_one_line_error self-test "$TOP/scripts/run-suite.sh" --bogus
}

# vmtest.sh's main on the columns already in $ST/vm: nothing is built
# or booted.
vmtest_main()
{
	run_columns() { :; }
	main "$@"
}

st_vmtest_save()
{
	rm -rf "$ST/vm"
	fake_column stock missing egress_mirred.ipv4 pass
	printf 'test stock\negress_mirred.ipv4 fail:reclassified\n' >"$ST/vm/expected"
	cp "$ST/vm/expected" "$ST/vm/expected.orig"
	expect fail "vmtest --save onto the expected matrix, a run that differs from it" \
		in_vmtest vmtest_main --save "$ST/vm/expected" stock
	expect pass "vmtest --save onto the expected matrix leaves it as it was" \
		cmp "$ST/vm/expected" "$ST/vm/expected.orig"
	cp "$ST/vm/expected.orig" "$ST/vm/expected"
	expect fail "vmtest --save NEW, a run that differs from the expected matrix" \
		in_vmtest vmtest_main --save "$ST/vm/new" stock
	expect pass "vmtest --save NEW writes the measured matrix" \
		grep -q '^egress_mirred.ipv4  *pass$' "$ST/vm/new"
}

# run.sh's host CHECK ($2) on a copy of the run in DIR ($1: tap, rc,
# verdicts, seconds): passes when the check counted no failure.
host_check()
{
	rm -rf "$ST/hc"
	cp -r "$1" "$ST/hc"
	OUT=$ST/hc bash -c "$SCRIPT_FN"$'\n''[ "$FAILED" -eq 0 ]' "$TOP/tests/run.sh" "$2"
}

# A suite that lists 4 tests (two of them controls) and prints only its
# plan, exit 0: every check that reads the run must fail.
st_host_checks()
{
	local SUITE=$ST/suite t checks="t_lists_every_test t_exit_code_matches_tap t_controls_pass
		t_failures_diagnosed t_skips_say_why"

	export SUITE
	fake_suite
	harness_list tc_skip_egress ipv4 egress_mirred "" ipv6 ingress_mirred >"$ST/list"
	mkdir -p "$ST/host"
	echo 0 >"$ST/host/rc"
	echo 0.1 >"$ST/host/seconds"
	echo 1..4 >"$ST/tap"
	"$SUITE" >"$ST/host/tap" 2>&1
	tap_verdicts <"$ST/host/tap" >"$ST/host/verdicts"
	for t in $checks; do
		expect_check_fails "host check $t, a suite that lists 4 tests and prints only 1..4" \
			host_check "$ST/host" "$t"
	done
	printf '%s\n' 1..4 'ok 1 tc_skip_egress.ipv4.egress_mirred' \
		'ok 2 tc_skip_egress.ipv4.ingress_mirred' 'ok 3 tc_skip_egress.ipv6.egress_mirred' \
		'ok 4 tc_skip_egress.ipv6.ingress_mirred' >"$ST/tap"
	"$SUITE" >"$ST/host/tap" 2>&1
	tap_verdicts <"$ST/host/tap" >"$ST/host/verdicts"
	for t in $checks; do
		expect pass "host check $t, the same suite's whole run" host_check "$ST/host" "$t"
	done
	export -n SUITE
}

# host_check under a stand-in make that prints a FAIL line and exits $1.
with_fake_make()
{
	local rc=$1

	shift
	FAKE_MAKE_RC=$rc PATH="$ST/mk/bin:$PATH" host_check "$@"
}

# make check's steps that run a make target (bench-check, series-check,
# vmtest-lts): the target failing fails the step, and names it; the
# target passing passes it.
st_make_steps()
{
	local step t target

	mkdir -p "$ST/mk/out"
	stand_in "$ST/mk/bin/make" 'echo "FAIL: stand-in make $*"' 'exit "$FAKE_MAKE_RC"'
	for step in t_bench_check:bench-check t_series_check:series-check t_vm_lts:vmtest-lts; do
		t=${step%%:*}
		target=${step#*:}
		expect_check_fails "make check step $t, make $target exits 2" with_fake_make 2 "$ST/mk/out" "$t"
		grep -q "^not ok - $target: " "$ST/out" ||
			fail "self-test: $t does not name make $target: $(head -3 "$ST/out")"
		expect pass "make check step $t, make $target exits 0" with_fake_make 0 "$ST/mk/out" "$t"
	done
}

# Ctrl-C during the kernel-warning check: its /dev/kmsg writer must stop.
# Run in a mount namespace of its own where /dev/kmsg is a file, so that
# nothing is written to the real kernel log; the suite is a stand-in that
# passes at once without a writer and hangs once one writes.
st_kmsg_writer()
{
	local pid end left

	need_root "the kmsg writer checks" || return
	kmsg_suite kw <<-EOF
	for i in 1 2 3 4; do
		[ -s /dev/kmsg ] && exec sleep 60
		sleep 0.05
	done
	echo 1..1
	echo "ok 1 tc_skip_egress.ipv4.ingress_mirred"
	EOF
	: >"$ST/kw/kmsg"
	# A background job of a script starts with SIGINT ignored, and bash
	# cannot undo that: env gives it back its default, as a terminal's
	# foreground job has it.
	setsid env --default-signal=INT unshare -m bash -c 'mount --bind "$1" /dev/kmsg || exit 1
		export SUITE=$2 STRESS_KMSG=real
		. "$3" && s_kernel_warnings' _ "$ST/kw/kmsg" "$ST/kw/suite" \
		"$TOP/tests/stress.sh" >"$ST/kw/log" 2>&1 &
	pid=$!
	end=$((SECONDS + 10))
	until [ -s "$ST/kw/kmsg" ] || [ "$SECONDS" -ge "$end" ]; do
		sleep 0.05
	done
	if [ ! -s "$ST/kw/kmsg" ]; then
		kill -KILL -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		fail "self-test: the kernel-warning check never started its writer: $(head -3 "$ST/kw/log")"
		return
	fi
	# Ctrl-C: SIGINT to the whole process group.
	kill -INT -- "-$pid" 2>/dev/null
	end=$((SECONDS + 5))
	while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.05
	done
	: >"$ST/kw/kmsg"
	sleep 0.3
	left=$(wc -c <"$ST/kw/kmsg")
	kill -KILL -- "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	expect pass "stress kernel-warning check, Ctrl-C: the kmsg writer stops (${left} bytes written after)" \
		test "$left" -eq 0
}

# The kernel-warning check with STRESS_KMSG=private (make check's) must
# catch the warning without writing to the host's /dev/kmsg, which every
# other run of the suite reads. "The host's" here is a file bound over
# /dev/kmsg in a mount namespace of the self-test's own: the real log is
# not written whatever the check does. The stand-in suite fails as
# kernel-warning once its /dev/kmsg holds anything.
st_kmsg_private()
{
	local mode

	need_root "the private kmsg checks" || return
	kmsg_suite kp <<-EOF
	echo 1..1
	for i in \$(seq 20); do
		if [ -s /dev/kmsg ]; then
			echo "# diagnosis: kernel-warning"
			echo "not ok 1 tc_skip_egress.ipv4.ingress_mirred"
			exit 1
		fi
		sleep 0.05
	done
	echo "ok 1 tc_skip_egress.ipv4.ingress_mirred"
	EOF
	for mode in private real; do
		: >"$ST/kp/host-kmsg"
		unshare -m bash -c 'mount --bind "$1" /dev/kmsg || exit 2
			export SUITE=$2 STRESS_KMSG=$3
			. "$4" && s_kernel_warnings && [ "$FAILED" -eq 0 ]' _ \
			"$ST/kp/host-kmsg" "$ST/kp/suite" "$mode" "$TOP/tests/stress.sh" \
			>"$ST/kp/log-$mode" 2>&1
		echo $? >"$ST/kp/rc-$mode"
		wc -c <"$ST/kp/host-kmsg" >"$ST/kp/bytes-$mode"
	done
	expect pass "stress kernel-warning check, STRESS_KMSG=private: it catches the warning" \
		grep -q '^ok - kernel warnings: ' "$ST/kp/log-private"
	expect pass "stress kernel-warning check, STRESS_KMSG=private: nothing written to the host's /dev/kmsg ($(cat "$ST/kp/bytes-private") bytes)" \
		test "$(cat "$ST/kp/bytes-private")" -eq 0
	expect pass "stress kernel-warning check, STRESS_KMSG=real (make stress): it catches the warning in /dev/kmsg" \
		bash -c 'grep -q "^ok - kernel warnings: " "$1" && [ "$2" -gt 0 ]' _ \
		"$ST/kp/log-real" "$(cat "$ST/kp/bytes-real")"
}

# wait_no_leftovers on FILE with SIDs, briefly: does it name THING ($2)?
leftover_named()
{
	local snap=$1 thing=$2 out

	shift 2
	out=$(LEFTOVER_WAIT=2 wait_no_leftovers "$snap" "$@")
	echo "$out"
	grep -qF "$thing" <<<"$out"
}

# The leftover wait counts what this script's session, or the sessions it
# names (a killed run's), hold, or what nothing holds; not what only
# another session's processes hold: on a shared machine that is someone
# else's run, and it made make stress fail for what others did.
st_leftovers_foreign()
{
	local thing

	need_root "leftover attribution checks" || return
	snapshot "$ST/before-foreign" || { fail "self-test: cannot take a snapshot"; return; }
	FOREIGN=
	if hold_netns FOREIGN setsid; then
		thing="netns $(readlink "/proc/$FOREIGN/ns/net")"
		expect fail "leftover wait, a namespace only another session holds is not ours" \
			leftover_named "$ST/before-foreign" "$thing"
		expect pass "leftover wait, the same namespace, its session named as ours (a killed run's)" \
			leftover_named "$ST/before-foreign" "$thing" "$FOREIGN"
	else
		fail "self-test: could not make a namespace in another session"
	fi
	[ -n "$FOREIGN" ] && kill "$FOREIGN" 2>/dev/null && wait "$FOREIGN" 2>/dev/null
	FOREIGN=
	if hold_netns LEAK; then
		thing="netns $(readlink "/proc/$LEAK/ns/net")"
		expect pass "leftover wait, a namespace this session holds is ours" \
			leftover_named "$ST/before-foreign" "$thing"
	else
		fail "self-test: could not make a namespace to leak"
	fi
	end_leak
	# A holder that exits while it is looked at: named, not fatal.
	expect pass "leftover attribution, a holder that has exited: '? -', no error" \
		bash -c ". $TOP/tests/lib.sh; echo 'hold netns net:[1] 999999999' |
			owned | grep -qxF 'hold netns net:[1] 999999999 ? -'"
}

# The leftover check (snapshot, wait_no_leftovers: ARG...) with ip a
# function printing $ST/links as its device listing, as run_suite is one
# in ran_and_judged: the kernel's own listing would need the tunnel
# modules loaded, and they would put their devices in every namespace on
# the host, others' runs included. bpftool lists nothing: others' BPF
# objects come and go on a shared host, the devices are the one input.
with_links()
{
	(
		ip() { cat "$ST/links"; }
		empty_bpftool
		BPFTOOL=$ST/bpftool-empty
		LEFTOVER_WAIT=1
		"$@"
	)
}

# "ip -o link show" lines: INDEX NAME[@LINK] FLAGS LINK-TYPE.
link_lines()
{
	while [ $# -gt 0 ]; do
		printf '%s: %s: %s mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000\\    link/%s\n' \
			"$1" "$2" "$3" "$4"
		shift 4
	done
}

# A tunnel module (ipip, ip6_tunnel) loaded while the suite ran makes its
# fallback device in every namespace, the root one included: not the
# suite's leftover (make check-lts failed on tunl0 and ip6tnl0). A device
# the suite made (ifb_tse) next to them still is, and is the one named:
# the filter must leave out those names and no more.
st_leftovers_tunnels()
{
	local base=(1 lo '<LOOPBACK,UP,LOWER_UP>' 'loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00'
		    2 eth0 '<BROADCAST,MULTICAST,UP,LOWER_UP>' 'ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff')
	local tunnels=(9 tunl0@NONE '<NOARP>' 'ipip 0.0.0.0 brd 0.0.0.0'
		       10 ip6tnl0@NONE '<NOARP>' 'tunnel6 :: brd ::')

	link_lines "${base[@]}" >"$ST/links"
	with_links snapshot "$ST/tun-before" ||
		{ fail "self-test: cannot take a snapshot with a stand-in ip"; return; }
	link_lines "${base[@]}" "${tunnels[@]}" >"$ST/links"
	expect pass "leftover check, tunl0 and ip6tnl0 (tunnel modules' fallback devices) alone: no leftover" \
		with_links wait_no_leftovers "$ST/tun-before"
	link_lines "${base[@]}" "${tunnels[@]}" \
		11 ifb_tse '<BROADCAST,NOARP>' 'ether 02:00:00:00:0e:07 brd ff:ff:ff:ff:ff:ff' >"$ST/links"
	expect fail "leftover check, tunl0 and ip6tnl0 and an ifb_tse left behind" \
		with_links wait_no_leftovers "$ST/tun-before"
	grep -q '^dev 11 ifb_tse,' "$ST/out" && ! grep -qE 'tunl0|ip6tnl0' "$ST/out" ||
		fail "self-test: the leftover check does not name ifb_tse alone: $(cat "$ST/out")"
}

# s_kills of tests/stress.sh on a stand-in suite ($ST/ks/suite), 3 kills:
# TERM, KILL, INT; its kill points follow.
stress_kills()
{
	SUITE=$ST/ks/suite KILLS=3 in_stress with_snapshot s_kills
}

st_stress_kills()
{
	stand_in "$ST/ks/suite" 'sleep 4' 'echo 1..1' 'echo ok 1 x'
	expect pass "stress kill check, a run each signal kills" stress_kills
	stand_in "$ST/ks/suite" 'trap "" INT TERM' 'sleep 4' 'echo 1..1' 'echo ok 1 x'
	expect_check_fails "stress kill check, a run that INT and TERM do not kill" stress_kills
}

# ready_within PID: run_ready of tests/stress.sh says yes for PID within
# 1 s (the bound kill_at_random waits), polled every 10 ms.
ready_within()
{
	(
		. "$TOP/tests/stress.sh"
		for _ in $(seq 100); do
			run_ready "$1" && exit 0
			sleep 0.01
		done
		exit 1
	)
}

# until_true CMD...: CMD succeeds within 1 s; the wait for a process to
# reach the state a case asks about, so that "not ready" is its verdict
# on that state, not on a process that has not yet got there.
until_true()
{
	for _ in $(seq 100); do
		"$@" && return 0
		sleep 0.01
	done
	return 1
}

# PID has exec'd sleep: setsid and env have done what they do.
runs_sleep()
{
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = sleep ]
}

# run_ready, fed runs the kill would miss: one whose SIGINT is ignored (a
# background job's, env not yet run), one in the caller's session (no
# group of its own to signal), one that has ended. A background job of
# a script starts with SIGINT ignored; setsid in it needs no fork.
st_stress_run_ready()
{
	local good ign shared

	setsid env --default-signal=INT sleep 30 &
	good=$!
	setsid sleep 30 &
	ign=$!
	env --default-signal=INT sleep 30 &
	shared=$!
	expect pass "stress run_ready, its own session, SIGINT at its default" ready_within "$good"
	if until_true runs_sleep "$ign"; then
		expect fail "stress run_ready, its own session, SIGINT ignored" ready_within "$ign"
	else
		fail "self-test: stress run_ready: setsid did not run sleep in 1 s"
	fi
	if until_true runs_sleep "$shared"; then
		expect fail "stress run_ready, SIGINT at its default, the caller's session" \
			ready_within "$shared"
	else
		fail "self-test: stress run_ready: env did not run sleep in 1 s"
	fi
	kill "$good" "$ign" "$shared" 2>/dev/null
	wait "$good" "$ign" "$shared" 2>/dev/null
	expect fail "stress run_ready, a run that has ended" ready_within "$good"
}

# The 3 kill points (stress_kills' KILLS) in its output FILE ($2) all lie
# before END ($1, in s): within a stand-in run that takes END s. A run
# that ended by itself before its kill tested no cleanup.
kills_before()
{
	awk -v end="$1" -v n=3 '/^# kill point: / {
			k++
			t = $NF
			sub(/s$/, "", t)
			print
			if (t + 0 >= end + 0)
				late++
		}
		END { exit !(k == n && !late) }' "$2"
}

# The kill points fall within a run timed just before (kill_span): a
# suite that ends well before the old fixed bound of 2 s is still killed
# by each signal. A 1 s run, not shorter: with the build's load on both
# cores, a timed 0.5 s run once took 0.87 s, and kill points past the
# end of the next run would fail this for the load. A suite whose timed
# run is long and whose killed runs end at once is killed by none: the
# check must say so, not count runs that ended by themselves as cleaned
# up.
st_stress_kill_points()
{
	# The stand-ins make no BPF objects: the real bpftool's looks (half
	# a second each, eight here) would only slow the check down.
	local BPFTOOL=$ST/bpftool-empty

	empty_bpftool
	stand_in "$ST/ks/suite" 'sleep 1' 'echo 1..1' 'echo ok 1 x'
	expect pass "stress kill check, a 1 s run: each kill point within it, each run killed by its signal" \
		stress_kills
	cp "$ST/out" "$ST/ks/fast.out"
	expect pass "stress kill check, the kill points of the 1 s run all fall before 1 s" \
		kills_before 1 "$ST/ks/fast.out"
	# The timed run (kill_span's) takes 1 s, the runs it times for end
	# at once: as a suite that ends early, or a host faster after the
	# timing run.
	rm -f "$ST/ks/timed"
	stand_in "$ST/ks/suite" "[ -e \"$ST/ks/timed\" ] || { : >\"$ST/ks/timed\"; sleep 1; }" \
		'echo 1..1' 'echo ok 1 x'
	expect_check_fails "stress kill check, a run timed at 1 s, then runs that end before the kill" \
		stress_kills
	grep -q 'runs were not killed by their signal' "$ST/out" ||
		fail "self-test: a run that ended before the kill is not reported as not killed: $(head -3 "$ST/out")"
}

# One die() for the project's scripts: scripts/lib.sh's (bench/ aside,
# whose scripts run in the guest too). mainline-check.sh used its own.
st_one_die()
{
	local own

	own=$(cd "$TOP" && grep -lE '^[[:space:]]*(function[[:space:]]+)?die[[:space:]]*\(\)' \
		tests/*.sh vm/*.sh scripts/*.sh mk/*.sh | grep -vx scripts/lib.sh)
	expect pass "one die(): no script of tests/ vm/ scripts/ mk/ defines its own (${own:-none})" \
		test -z "$own"
	expect pass "mainline-check.sh, no DIR: usage error 2, said by scripts/lib.sh's die" \
		bash -c 'out=$("$0" 2>&1); rc=$?; echo "exit $rc: $out"
			[ $rc = 2 ] && [[ $out == "mainline-check.sh: usage: "* ]]' "$TOP/vm/mainline-check.sh"
}


# Two runs cut off at the same place agree on every verdict they gave:
# the parallel and repeat checks (RUNS=2) must see that neither is whole.
st_stress_cut_runs()
{
	local t

	stand_in "$ST/sp/suite" 'echo 1..2' \
		'echo "ok 1 tc_skip_egress.ipv4.egress_mirred # took 0.1 s"' \
		'echo "ok 2 tc_skip_egress.ipv4.ingress_mirred # took 0.1 s"'
	for t in s_parallel s_repeat; do
		SUITE=$ST/sp/suite RUNS=2 expect pass "stress $t, two whole runs that agree" \
			in_stress with_snapshot "$t"
	done
	sed -i 's/1\.\.2/1..3/' "$ST/sp/suite"
	for t in s_parallel s_repeat; do
		SUITE=$ST/sp/suite RUNS=2 expect_check_fails \
			"stress $t, two runs cut off the same way after test 2 of 3" in_stress with_snapshot "$t"
	done
}

# Every script of tests/ vm/ scripts/ mk/ that runs on its own sets -u and
# pipefail (set -uo pipefail, "No -e:" saying why not -e), but for those
# named here: sourced ones (tests/lib.sh, tests/docs-check.sh), the
# guest's init (vm/init.sh, PID 1: an unset variable there panics the
# kernel), and the four that have pipefail only, not yet gone through
# for -u (bisect-demo, build-kernel, distro, run-vm).
SET_U_EXCEPT="tests/lib.sh tests/docs-check.sh vm/init.sh vm/bisect-demo.sh vm/build-kernel.sh vm/distro.sh vm/run-vm.sh"
st_set_u()
{
	local f lacking=

	for f in tests/*.sh vm/*.sh scripts/*.sh mk/*.sh; do
		[[ " $SET_U_EXCEPT " == *" $f "* ]] && continue
		head -1 "$TOP/$f" | grep -q '^#!' || continue
		grep -qE '^set -e?uo pipefail$' "$TOP/$f" || lacking+=" $f"
	done
	expect pass "set -uo pipefail in every script that runs on its own (lacking:${lacking:- none})" \
		test -z "$lacking"
	# pipefail and the harness's -l, which exits 4 (KSFT_SKIP) once it
	# has listed: run-suite.sh -t must still find the test.
	harness_list tc_skip_egress ipv4 egress_mirred >"$ST/rs-list"
	stand_in "$ST/rs-suite" "[ \"\$1\" = -l ] && cat \"$ST/rs-list\" >&2 && exit 4" 'echo "ran $*"'
	expect pass "run-suite.sh -t NAME under pipefail, a harness whose -l exits 4" \
		bash -c 'SUITE=$1 "$2" -t egress_mirred.ipv4 | grep -qx "ran -r tc_skip_egress.ipv4.egress_mirred"' _ \
		"$ST/rs-suite" "$TOP/scripts/run-suite.sh"
}

# tests/docs-check.sh FILE...: a doc whose citations, make targets and
# markers all exist passes; the same doc plus one line citing a line past
# a file's end, a file the repository has not, a file two paths end in,
# a make target the Makefile has not (in code, in a make targets column)
# or a misspelt marker fails.
st_docs_refs()
{
	local d=$ST/docs bad what

	mkdir -p "$d"
	cat >"$d/good.md" <<-'DOC'
	The checks live in `vm/lib.sh:1`, and tests/lib.sh:1-2 says what.
	The matrices are `vm/expected-matrix-LINE.txt`, the table `tse_table.h`.

	    make check                        # the project's tests
	    CHECK_VM=0 make vmtest T='a.ipv4 b.ipv6' KERNEL=IMAGE
	    make -C tools/testing/selftests TARGETS=net run_tests

	| page | make targets |
	|---|---|
	| x | `bench`, `docs-check` |
	DOC
	expect pass "docs-check, a doc whose citations and make targets exist" \
		"$TOP/tests/docs-check.sh" "$d/good.md"
	while IFS='|' read -r bad what; do
		{ cat "$d/good.md"; echo "$bad"; } >"$d/bad.md"
		expect fail "docs-check, a doc $what" "$TOP/tests/docs-check.sh" "$d/bad.md"
	done <<-'DOC'
	The check is at `vm/lib.sh:99999`.|citing a line past the end of its file
	The check is at `tse_no_such.c:12`.|citing a file the repository has not
	The check is at `lib.sh:1`.|citing lib.sh, which three paths end in
	Run `make vmtest-no-such`.|naming a make target that does not exist
	The runner is `vm/no-such.sh`.|naming a file the repository has not
	The rows are in `tse_tabel.h`.|naming a library file that does not exist
	    CHECK_VM=0 make chek|naming a make target that does not exist, in a code block
	<!-- generated by make docs, from vm/expected-matrix.txt -->|with a misspelt generated-table marker
	DOC
	{ head -n -1 "$d/good.md"; echo '| x | `bench`, `no-such-target` |'; } >"$d/bad.md"
	expect fail "docs-check, a doc naming a target that does not exist in a make targets column" \
		"$TOP/tests/docs-check.sh" "$d/bad.md"
}

# docs-check's axes and observers check on GRID ($1): prints what it
# found; passes when it found nothing.
grid_names_clean()
{
	local out

	out=$(TOP=$TOP bash -c '. "$TOP/tests/docs-check.sh" >/dev/null 2>&1; docs_grid_names "$1"' \
		grid_names "$1")
	echo "$out"
	[ -z "$out" ]
}

# docs/grid.md's axes and observers tables name what the code has: a copy
# with an axis value or an observer renamed, or a row gone, fails.
st_docs_grid_names()
{
	local g=$TOP/docs/grid.md

	mkdir -p "$ST/grid"
	expect pass "docs-check, docs/grid.md's axes and observers" grid_names_clean "$g"
	sed '/^| device |/s/`BRIDGE`/`BRIDGES`/' "$g" >"$ST/grid/value.md"
	sed 's/^| `split` |/| `splits` |/' "$g" >"$ST/grid/observer.md"
	grep -v '^| `tap` |' "$g" >"$ST/grid/gone.md"
	cases grid_names_clean <<-EOF
	fail|docs-check, grid.md naming an axis value the code has not|$ST/grid/value.md
	fail|docs-check, grid.md naming an observer the code has not|$ST/grid/observer.md
	fail|docs-check, grid.md without a row for an observer of the code|$ST/grid/gone.md
	EOF
}

# docs-check.sh --scenario-rows on the tests of tse_table.h ($1, a list)
# and the tables FILE... ($ST/rows/FILE.md).
scenario_rows()
{
	local names=$1 f
	local -a files=()

	shift
	for f; do
		files+=("$ST/rows/$f.md")
	done
	tr ' ' '\n' <<<"$names" | "$TOP/tests/docs-check.sh" --scenario-rows "${files[@]}"
}

# The docs' scenario tables: each test of tse_table.h a row, once, in
# README's or docs/grid.md's; no row that is no test.
st_scenario_rows()
{
	mkdir -p "$ST/rows"
	printf '## The scenarios\n\n| test |\n|---|\n| `a_row` |\n' >"$ST/rows/README.md"
	printf '## The points\n\n| test |\n|---|\n| `grid_point` |\n' >"$ST/rows/grid.md"
	cases scenario_rows <<-'EOF'
	pass|docs-check, scenario tables with a row for each test|a_row grid_point|README|grid
	fail|docs-check, a test with no row|a_row grid_point new_point|README|grid
	fail|docs-check, a row that is no test|a_row|README|grid
	fail|docs-check, a test with a row in both tables|a_row grid_point|README|README|grid
	EOF
}

# fake_records FILE HOOK CLSACT PEER: a record file (TSE_RECORD's format)
# of two grid rows: egress_mirred.ipv4, whose hook runs HOOK times per
# packet (model: stock 2, correct 1) and whose clsact counts CLSACT
# packets (stock 10, correct 5), and root_qdisc_mirred_solo.ipv4, whose
# peer counts PEER per packet (stock and correct 1).
fake_records()
{
	local t=$'\t' h=$2 p=$4

	cat >"$1" <<-EOF
	egress_mirred.ipv4${t}egress_mirred:tse_expect_quiet${t}packets of no test flow${t}0${t}0${t}-1${t}-
	egress_mirred.ipv4${t}egress_mirred:model.hook${t}runs of the egress hook per packet${t}$h${t}1${t}2${t}$h,$h,$h,$h,$h
	egress_mirred.ipv4${t}egress_mirred:model.clsact${t}test packets the clsact qdisc counted${t}$3${t}5${t}10${t}-
	egress_mirred.ipv4${t}.end${t}3${t}pass
	root_qdisc_mirred_solo.ipv4${t}root_qdisc_mirred_solo:model.peer${t}runs of vb's ingress counter per packet${t}$p${t}1${t}1${t}$p,$p,$p,$p,$p
	root_qdisc_mirred_solo.ipv4${t}.end${t}1${t}pass
	EOF
}

# compare_says WANT FILE...: vm/compare-kernels.sh --records on the
# record files $ST/cmp/FILE.tsv exits WANT (0 only expected differences,
# 1 an unexpected one, 2 no whole comparison); with 2, it must not say
# "no differences".
compare_says()
{
	local want=$1 rc f
	local -a files=()

	shift
	for f; do
		files+=("$ST/cmp/$f.tsv")
	done
	COMPARE_DIR=$ST/cmp "$TOP/vm/compare-kernels.sh" --records "${files[@]}" >"$ST/cmp/out" 2>&1
	rc=$?
	cat "$ST/cmp/out"
	echo "compare-kernels.sh exited $rc, expected $want"
	[ "$rc" = "$want" ] || return 1
	[ "$want" != 2 ] || ! grep -q 'no differences' "$ST/cmp/out"
}

# make compare's comparison (vm/compare-records.awk) on fabricated
# records: expected moves pass, anything else fails, and records that are
# missing, empty, cut short or lack a row are a loud failure (exit 2).
st_kernel_compare()
{
	local d=$ST/cmp solo=root_qdisc_mirred_solo.ipv4

	mkdir -p "$d"
	fake_records "$d/stock.tsv" 2 10 1
	fake_records "$d/fix.tsv" 1 5 1
	fake_records "$d/mutant.tsv" 1 5 0
	fake_records "$d/half.tsv" 2 5 1
	sed '/model.hook/s/,1,1,1,1$/,2,1,1,1/' "$d/fix.tsv" >"$d/mixed.tsv"
	sed 's/egress_mirred:tse_expect_quiet\(.*\)\t0\t0\t-1\t-$/egress_mirred:tse_expect_quiet\1\t3\t0\t-1\t-/' \
		"$d/fix.tsv" >"$d/noisy.tsv"
	: >"$d/empty.tsv"
	grep -v "^$solo"$'\t'".end" "$d/fix.tsv" >"$d/cut.tsv"
	grep -v "^$solo" "$d/fix.tsv" >"$d/lacks.tsv"
	{ cat "$d/lacks.tsv"; printf '%s\t.end\t0\tskip\n' "$solo"; } >"$d/skipped.tsv"
	sed 's/^\(egress_mirred.ipv4\t.end\t\)3/\17/' "$d/fix.tsv" >"$d/miscount.tsv"
	cat "$d/fix.tsv" "$d/fix.tsv" >"$d/twice.tsv"
	cases compare_says <<-'EOF'
	pass|compare, two kernels with the same records: no differences, exit 0|0|stock|stock
	pass|compare, stock to fix, the model's stock values to its correct ones: expected, exit 0|0|stock|fix
	pass|compare, stock to a kernel half-way (hook stock, clsact correct): expected, exit 0|0|stock|half
	pass|compare, a per-packet value the model has for neither kernel: unexpected, exit 1|1|fix|mutant
	pass|compare, three kernels, the third with an unexpected difference: exit 1|1|stock|fix|mutant
	pass|compare, one packet of five stock, the rest correct: expected, exit 0|0|fix|mixed
	pass|compare, a check with no model (STOCK -1) that differs: unexpected, exit 1|1|fix|noisy
	pass|compare, a record file that is missing: loud failure (2)|2|stock|nosuch
	pass|compare, an empty record file: loud failure (2)|2|stock|empty
	pass|compare, a row with observations and no .end (cut short): loud failure (2)|2|stock|cut
	pass|compare, a kernel that lacks a row the other has: loud failure (2)|2|stock|lacks
	pass|compare, a row skipped on one kernel only: loud failure (2)|2|stock|skipped
	pass|compare, a .end that counts other than the row's lines: loud failure (2)|2|stock|miscount
	pass|compare, rows recorded twice (a file appended to): loud failure (2)|2|stock|twice
	EOF
}

# bisect-run.sh --observe: a fake kernel tree, build and VM (fake_vm), whose
# guest prints a TAP and the records of egress_mirred.ipv4 (fake_records:
# the hook runs HOOK times per packet).
observe_guest()
{
	local rc=$1 hook=$2

	fake_records "$ST/fv/rec.tsv" "$hook" 5 1
	guest "$rc" "1..1" "ok 1 tc_skip_egress.ipv4.egress_mirred" \
		"TSE-RECORDS-BEGIN $rc" "$(grep '^egress_mirred.ipv4' "$ST/fv/rec.tsv")" \
		TSE-RECORDS-END
}

st_bisect_observe()
{
	local spec=egress_mirred.ipv4:model.hook=2,2,2,2,2

	fake_vm
	observe_guest 1 2
	expect pass "bisect --observe, the observation shows the good value: good (0)" \
		bisect_says 0 --observe "$spec"
	observe_guest 0 1
	cases bisect_says <<-EOF
	pass|bisect --observe, the observation shows another value: bad (1)|1|--observe|$spec
	pass|bisect --observe, an observer the row has not: stop (128), not skip|128|--observe|egress_mirred.ipv4:model.nosuch=1
	pass|bisect --observe, a row the records do not hold: skip (125)|125|--observe|egress_mirred.ipv6:model.hook=1
	pass|bisect --observe without =VALUE: stop (128)|128|--observe|egress_mirred.ipv4:model.hook
	EOF
	guest 0 "1..1" "ok 1 tc_skip_egress.ipv4.egress_mirred" "TSE-RECORDS-BEGIN 0" \
		"$(grep -v '\.end' "$ST/fv/rec.tsv" | grep '^egress_mirred.ipv4')" TSE-RECORDS-END
	expect pass "bisect --observe, the row cut short (no .end): skip (125)" \
		bisect_says 125 --observe "$spec"
	guest - "1..1" "TSE-RECORDS-BEGIN 0" "$(head -2 "$ST/fv/rec.tsv")"
	expect pass "bisect --observe, the kernel died while printing the records: bad (1)" \
		bisect_says 1 --observe "$spec"
}

# The suite's ingress_mirred.ipv4 with TSE_RECORD=$1.
record_run()
{
	TSE_RECORD=$1 "$SUITE" -r tc_skip_egress.ipv4.ingress_mirred 2>&1
}

# record_refused FILE WHY: the run fails, and says it could not append to
# FILE, and why (strerror's words).
record_refused()
{
	local out

	out=$(record_run "$1") && { echo "$out"; echo "exit 0"; return 1; }
	echo "$out"
	grep -qF "$1 (TSE_RECORD): $2" <<<"$out"
}

# record_taken FILE: no complaint, and FILE holds the row, whole: its
# lines and ".end N STATUS" last, N the lines before it.
record_taken()
{
	local row=ingress_mirred.ipv4 out

	out=$(record_run "$1")
	echo "$out"
	! grep -q 'TSE_RECORD' <<<"$out" &&
		awk -F'\t' -v row="$row" '$1 != row { exit 1 } $2 == ".end" { end = NR; n = $3 }
			END { exit !(end == NR && n == NR - 1) }' "$1"
}

# A test whose row TSE_RECORD cannot take fails, naming the file and why;
# the suite runs one test for it (ingress_mirred.ipv4, a control).
st_record()
{
	need_root "the TSE_RECORD checks" || return
	[ -x "$SUITE" ] || { fail "self-test: the TSE_RECORD checks need the suite: $SUITE"; return; }
	mkdir -p "$ST/rec"
	cases record_refused <<-EOF
	pass|TSE_RECORD in a folder that does not exist: the test fails, saying so|$ST/rec/nosuch/rec.tsv|No such file or directory
	pass|TSE_RECORD a folder: the test fails, saying so|$ST/rec|Is a directory
	pass|TSE_RECORD a full device (the write fails): the test fails, saying so|/dev/full|No space left on device
	EOF
	expect pass "TSE_RECORD a file that can be written: the row, whole, and no complaint" \
		record_taken "$ST/rec/rec.tsv"
}

# two_cpus_skip CPUS: the TWO_CPUS point run on CPUS (taskset) skips, saying
# it needs two CPUs.
two_cpus_skip()
{
	local out

	out=$(taskset -c "$1" "$SUITE" -r \
		tc_skip_egress.ipv4.egress_bpf_redirect_two_cpus_aggregate 2>&1)
	echo "$out"
	grep -q '^ok 1 .* # SKIP two flows sent from two CPUs at once need two CPUs' <<<"$out"
}

# A TWO_CPUS point on one CPU skips, saying why; on two (where the machine
# has them) it runs.
st_two_cpus()
{
	need_root "the two-CPU check" || return
	[ -x "$SUITE" ] || { fail "self-test: the two-CPU check needs the suite: $SUITE"; return; }
	expect pass "TWO_CPUS point on one CPU: it skips, saying it needs two" two_cpus_skip 0
	[ "$(nproc)" -lt 2 ] ||
		expect fail "TWO_CPUS point on two CPUs: it runs, no skip" two_cpus_skip 0,1
}

# Whoever sources this calls selftests_cleanup on exit (run.sh's trap).
selftests_cleanup()
{
	end_leak
	[ -n "${FOREIGN:-}" ] && kill "$FOREIGN" 2>/dev/null
	FOREIGN=
	[ -n "${ST:-}" ] && rm -rf "$ST"
	ST=
}

# vm/header-adds.awk lets vm/build-kernel.sh spare the objects that include
# a header a patch changed: it must refuse every change but whole added
# definitions (and comments). The fixes' own header hunks must pass.
header_adds()
{
	printf '%s\n' '--- a/x.h' '+++ b/x.h' '@@ -1,3 +1,4 @@' "$@" |
		awk -f "$TOP/vm/header-adds.awk"
}

st_header_adds()
{
	expect pass "header-adds, the 6.1 backport's skbuff.h hunk: one static inline" \
		bash -c "awk '/^diff --git a.include.linux.skbuff.h/ { p = 1 } /^diff --git a.net/ { p = 0 } p' \
			$TOP/vm/kernels/fix-6.1/0001-*.patch | awk -f $TOP/vm/header-adds.awk |
			grep -qx skb_set_redirected_noclear"
	cases header_adds <<-'EOF'
	pass|header-adds, an added macro| #include <a.h>|+#define X(a) \|+	((a) + 1)| #include <b.h>
	fail|header-adds, a field added to a struct: other objects' layout changes| struct a {|+	int b;| };
	fail|header-adds, a line removed| struct a {|-	int b;| };
	fail|header-adds, a declaration added| #include <a.h>|+extern int x;| #include <b.h>
	fail|header-adds, a function that does not end in the hunk| #include <a.h>|+static inline int f(void)|+{| 	return 0;
	pass|header-adds, a comment above an added function| #include <a.h>|+/* why|+ * f|+ */|+static inline int f(void)|+{|+	return 0;|+}
	fail|header-adds, code after a comment on its line| #include <a.h>|+/* x */ extern int x;
	fail|header-adds, a comment that does not end in the hunk| #include <a.h>|+/* x
	EOF
	expect pass "header-adds, 6.12's fix: sch_generic.h only adds netif_is_ifb" \
		bash -c "awk '/^diff --git a.include.net.sch_generic.h/ { p = 1 } /^diff --git a.net/ { p = 0 } p' \
			$TOP/vm/kernels/fix/0001-*.patch | awk -f $TOP/vm/header-adds.awk |
			grep -qx netif_is_ifb"
}

# tests/layers.sh reads the library's uses from its objects: the suite's
# own pass, and a header that lists a part too early or not at all fails.
# A table that lacks the one point of a pair, or that has no point.
st_grid_pairs()
{
	local t=$TOP/tools/testing/selftests/net/tc_skip_egress/tse_table.h

	grep -v '^TSE_GRID(egress_bpf_redirect_batch_aggregate,' "$t" >"$ST/no-batch-none.h"
	grep -v '^TSE_GRID' "$t" >"$ST/no-points.h"
	cases "$TOP/tests/grid-pairs.sh" <<-EOF
	pass|grid pairs, the suite's table|$t
	fail|grid pairs, a table without its one point of BATCH over NONE|$ST/no-batch-none.h
	fail|grid pairs, a table of rows only|$ST/no-points.h
	EOF
}

# The model check fails on a model with one row gone.
st_model_rules()
{
	local g=$TOP/tools/testing/selftests/net/tc_skip_egress/tse_grid.c

	[ -x "$SUITE" ] || { fail "self-test: the model check needs the suite's build: $SUITE"; return; }
	grep -v '{ OBS_DELIVERED,.*delivered_once }' "$g" >"$ST/no-delivered-rule.c"
	cases "$TOP/tests/model-rules.sh" <<-EOF
	pass|model rules, the suite's tse_grid.c|$g
	fail|model rules, a tse_grid.c without the delivered observer's last row|$ST/no-delivered-rule.c
	EOF
}

st_layers()
{
	local dir=${SUITE%/*} h=$TOP/tools/testing/selftests/net/tc_skip_egress/tse_internal.h

	awk '/^ \*   tse_result\.c/ { r = $0; next } { print } /^ \*   tse_runner\.c/ { print r }' \
		"$h" >"$ST/late.h"
	grep -v '^ \*   tse_netlink\.c' "$h" >"$ST/unlisted.h"
	: >"$ST/none.h"
	cases "$TOP/tests/layers.sh" <<-EOF
	pass|layers, the library's objects and its header|$dir|$h
	fail|layers, a header that lists the parts everyone uses last|$dir|$ST/late.h
	fail|layers, a header that leaves a used part out|$dir|$ST/unlisted.h
	fail|layers, a header that lists no part|$dir|$ST/none.h
	fail|layers, a folder without the objects|$ST|$h
	EOF
}

# vm/build-kernel.sh takes an image from the image cache only under the
# key of what it would build: another tree, file or config is a build.
# The stand-in tree cannot build, so a build fails fast.
in_image_cache()
{
	KDIR=$ST/kc/tree VM_BUILD=$ST/kc/vm VM_IMAGE_CACHE=$ST/kc/cache "$@"
}

cache_takes()
{
	in_image_cache "$TOP/vm/build-kernel.sh" stock >/dev/null &&
		grep -qx cached "$ST/kc/vm/bzImage-stock"
}

st_image_cache()
{
	local key

	rm -rf "$ST/kc"
	mkdir -p "$ST/kc/tree" "$ST/kc/cache"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' >"$ST/kc/tree/Makefile"
	echo 'int x;' >"$ST/kc/tree/a.c"
	key=$(in_image_cache "$TOP/vm/build-kernel.sh" --key stock)
	echo cached >"$ST/kc/cache/bzImage-$key"
	expect pass "image cache, an image under the kernel's key: taken, no tree copied" \
		bash -c "$(declare -f in_image_cache cache_takes); ST=$ST TOP=$TOP cache_takes &&
			[ ! -e $ST/kc/vm/src ]"
	rm -f "$ST/kc/vm/bzImage-stock"*
	touch -d @1 "$ST/kc/tree/a.c"
	expect fail "image cache, a file of the tree changed since: not taken" \
		bash -c "$(declare -f in_image_cache cache_takes); ST=$ST TOP=$TOP cache_takes"
	rm -rf "$ST/kc/vm"
	echo '# CONFIG_X is not set' >"$ST/kc/extra.config"
	expect fail "image cache, another config: another key" \
		bash -c "[ \"\$(KDIR=$ST/kc/tree VM_EXTRA_CONFIG=$ST/kc/extra.config \
			$TOP/vm/build-kernel.sh --key stock)\" = \"\$(KDIR=$ST/kc/tree \
			$TOP/vm/build-kernel.sh --key stock)\" ]"
}

# vm/mainline-check.sh: a series that applies cleanly passes, one that
# needs fuzz or stops fails.
st_mainline_check()
{
	local d=$ST/mc

	mkdir -p "$d/tree/net" "$d/p"
	printf 'a\nb\nc\nd\ne\nf\ng\n' >"$d/tree/net/x.c"
	cat >"$d/p/0001-x.patch" <<-'EOF'
	--- a/net/x.c
	+++ b/net/x.c
	@@ -2,6 +2,7 @@
	 b
	 c
	 d
	+new
	 e
	 f
	 g
	EOF
	expect pass "mainline-check, a series made against the tree" \
		"$TOP/vm/mainline-check.sh" "$d/tree" "$d/p"
	printf 'a\nB\nc\nd\ne\nf\ng\n' >"$d/tree/net/x.c"
	expect fail "mainline-check, a series that needs fuzz" \
		"$TOP/vm/mainline-check.sh" "$d/tree" "$d/p"
	printf 'a\nB\nc\nD\ne\nF\ng\n' >"$d/tree/net/x.c"
	expect fail "mainline-check, a series that does not apply" \
		"$TOP/vm/mainline-check.sh" "$d/tree" "$d/p"
}

# mutate.sh's run_batch on a stand-in run of the ROWS ($1) of a mutant
# whose guest died (254) after the TAP in $ST/mb/tap: prints the row it
# names, and passes when that is WANT ($2).
batch_names()
{
	local got

	got=$(printf '%s\n' $1 | MUTATE_DIR=$ST/mb bash -c '
		source <(sed -e "\$d" -e "s/\${BASH_SOURCE\[0\]}/\$0/" "$0") || exit 2
		vm_boot() { cat "$MUTATE_DIR/tap"; return 254; }
		run_batch m image kselftest' "$TOP/vm/mutate.sh")
	echo "run_batch named '$got', expected '$2'"
	[ "$got" = "$2" ]
}

# A mutant whose kernel died in a test is killed by that test: the one
# its TAP last started, not the first row asked that gave no verdict.
st_mutate_crash_row()
{
	local k=tc_skip_egress.ipv4

	mkdir -p "$ST/mb/runs"
	printf '%s pass\n' a.ipv4 b.ipv4 c.ipv4 d.ipv4 >"$ST/mb/fix.cells"
	printf '%s\n' 'TAP version 13' 1..3 "#  RUN           $k.a ..." "ok 1 $k.a" \
		"#  RUN           $k.c ..." >"$ST/mb/tap"
	cases batch_names <<-EOF
	pass|mutate, a kernel that died in test c: c killed it|b.ipv4 a.ipv4 c.ipv4|c.ipv4 fail:crash
	EOF
	printf '%s\n' 'TAP version 13' 1..3 "#  RUN           $k.a ..." '# diagnosis: looped' \
		"not ok 1 $k.a" "#  RUN           $k.c ..." >"$ST/mb/tap"
	cases batch_names <<-EOF
	pass|mutate, a test that failed before the kernel died killed it|b.ipv4 a.ipv4 c.ipv4|a.ipv4 fail:looped
	EOF
	printf '%s\n' 'TAP version 13' >"$ST/mb/tap"
	cases batch_names <<-EOF
	pass|mutate, a kernel that died before any test: the first row asked|b.ipv4 a.ipv4|b.ipv4 fail:crash
	EOF
}

# vm/mutate.py: each rule gives its mutant of a small function, each
# mutant a patch that applies to it; a target that is not there fails.
st_mutate()
{
	local d=$ST/mu names

	mkdir -p "$d/src/net" "$d/out"
	# (<<- takes the tabs: the function is indented with spaces.)
	cat >"$d/src/net/x.c" <<-'EOF'
	int f(struct sk_buff *skb, int a)
	{
	        int n;

	        if (a && skb->skb_iif == 3)
	                return 1;
	        skb->mark = a;
	        if (a > 2) {
	                n = 1;
	                return n;
	        }
	        return a != 0 || n;
	}
	EOF
	echo 'net/x.c f' >"$d/targets"
	MUTATE_TARGETS=$d/targets python3 "$TOP/vm/mutate.py" "$d/src" "$d/out" >/dev/null 2>&1
	names=$(cd "$d/out" && ls | sed 's/^gen-x-f-//; s/-[0-9]*\.patch$//' | sort -u | paste -sd' ')
	expect pass "mutate.py, every rule on a small function ($names)" \
		test "$names" = "clear-only cond-false cond-negate cond-true delete drop-and drop-or move-above move-below negate-rel set-only swap-eq"
	expect pass "mutate.py, each mutant applies to the function" \
		bash -c 'cd "$1/src" && for p in "$1"/out/*.patch; do git apply --check "$p" || exit 1; done' - "$d"
	echo 'net/x.c nosuch' >"$d/targets"
	expect fail "mutate.py, a target function that is not there" \
		env MUTATE_TARGETS="$d/targets" python3 "$TOP/vm/mutate.py" "$d/src" "$d/out2"
}

# Where the self-tests spend their time: make check's log says which
# groups took longest (docs/checkers.md keeps the figures).
selftests()
{
	local g start times=''

	ST=$(mktemp -d)
	LEAK=
	for g in rows expected_tests repeat_and_time controls compare \
		  vmtest_judge test_progs_tap test_progs_check no_jq deps leftovers bisect \
		  series_check series_matrix peers bench_summarize leftovers_blind \
		  stress_bad_input vmtest_save host_checks kmsg_writer kmsg_private \
		  leftovers_foreign leftovers_tunnels stress_kills stress_run_ready stress_kill_points \
		  stress_cut_runs one_die set_u make_steps docs_refs scenario_rows \
		  kernel_compare bisect_observe record header_adds layers image_cache \
		  run_vm_banner run_vm_boot_again mainline_check grid_pairs model_rules docs_grid_names \
		  mutate_crash_row two_cpus; do
		start=$SECONDS
		"st_$g"
		times+="$((SECONDS - start)) $g"$'\n'
	done
	echo "# self-tests' slowest groups (s): $(sort -rn <<<"$times" | head -n 6 | tr '\n' ' ')"
	selftests_cleanup
}

LEAK=
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	trap selftests_cleanup EXIT
	selftests
	summary
fi
