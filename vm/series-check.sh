#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove the series that vm/series.sh wrote is what a contributor can post
# (make series-check; default SERIES build/series):
#
#   vm/series-check.sh [SERIES]
#
# Its steps, git am on series-base, checkpatch --strict, the kernel and
# both front ends built from that tree, both front ends booted and every
# test a pass, are in docs/series.md; when it takes the fix's image and
# the fix column's runs (SERIES_FIX_RUNS) instead, in docs/checkers.md.
# Exits 0 only if every step passed; a failing step is named, the others
# still run where they can, and a step that could not run fails. Builds
# under build/series-check/; build/vm/src is used under vm_lock and left
# at vm-base, as build-kernel.sh leaves it.

# No -e: each step's status is taken and judged; a failed step is named.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

CHECK=${SERIES_CHECK_DIR:-$VM_ROOT/build/series-check}
SERIES_FIX_RUNS=${SERIES_FIX_RUNS:-}
failed=()
kernel_is_fix=

step_failed()
{
	log "FAIL: $*"
	failed+=("$1")
}

# The series' patches, without the cover letter.
patches()
{
	find "$1" -maxdepth 1 -name '0*.patch' ! -name '0000-*' | sort
}

apply_series()
{
	local src=$VM_BUILD/src

	git -C "$src" checkout -q -f --detach series-base &&
	git -C "$src" clean -q -f -d -x &&
	git -C "$src" -c user.name=series-check -c user.email=vm@localhost \
		am -q "$@"
}

# The errors and warnings of checkpatch --show-types output, one block
# each, except the one the kernel's own BPF selftests all have:
# "const volatile" is how a BPF program declares the read-only data its
# loader sets (libbpf .rodata), so VOLATILE in bpf/progs/ is not counted.
complaints()
{
	awk '
		function flush() {
			if (block != "" && !(type == "VOLATILE" && file ~ /selftests\/bpf\/progs\//))
				printf "%s", block
			block = ""
		}
		/^(ERROR|WARNING):/ {
			flush()
			type = $0
			sub(/^(ERROR|WARNING):/, "", type)
			sub(/:.*/, "", type)
			block = $0 "\n"
			file = ""
			next
		}
		/^(CHECK:|total:)/ || /^$/ { flush(); next }
		block != "" {
			if ($0 ~ /FILE: /)
				file = $0
			block = block $0 "\n"
		}
		END { flush() }'
}

# checkpatch from the tree itself, with its spdxcheck; Debian's python3
# has the modules spdxcheck.py needs (python3-ply, python3-git), a pyenv
# one first in PATH may not. CHECKs (--strict) are printed, not counted.
run_checkpatch()
{
	local src=$VM_BUILD/src p out total bad cp_rc rc=0

	if [ ! -x "$src/scripts/checkpatch.pl" ]; then
		log "checkpatch: no $src/scripts/checkpatch.pl: no patch was checked"
		return 1
	fi
	for p in "$@"; do
		out=$(cd "$src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl \
			--strict --show-types "$p" 2>&1)
		cp_rc=$?
		# Its last word on every patch it read is a total; without
		# one it did not check the patch, whatever it exited with.
		total=$(grep '^total:' <<< "$out")
		if [ -z "$total" ]; then
			echo "${p##*/}: checkpatch.pl gave no total (exit $cp_rc): not checked"
			tail -n 3 <<< "$out" | sed 's/^/    /'
			rc=1
			continue
		fi
		echo "${p##*/}: $total"
		bad=$(complaints <<< "$out")
		if grep -q 'WARNING:VOLATILE' <<< "$out"; then
			echo "    (const volatile in bpf/progs: the BPF .rodata idiom, not counted)"
		fi
		[ -z "$bad" ] && continue
		sed 's/^/    /' <<< "$bad"
		rc=1
	done
	return $rc
}

# The tree of vm-base with the reference fix applied (vm/kernels/fix/), as
# build-kernel.sh builds bzImage-fix: written to the object store only,
# through a scratch index; the working copy is not touched.
fix_tree()
{
	local src=$VM_BUILD/src idx rc

	idx=$(mktemp) || return 1
	GIT_INDEX_FILE=$idx git -C "$src" read-tree vm-base &&
	GIT_INDEX_FILE=$idx git -C "$src" apply --cached "$VM_DIR"/kernels/fix/*.patch &&
	GIT_INDEX_FILE=$idx git -C "$src" write-tree
	rc=$?
	rm -f "$idx"
	return $rc
}

# The fix's image ($1, from build-kernel.sh, whose key holds vm-base, the
# fix's patches and the config) is the series' kernel when the series'
# tree (HEAD of build/vm/src) has the fix's very files outside the
# selftests and MAINTAINERS, which no kernel build reads, and the
# series' config fragment is the repo's. Prints what differs, if anything.
fix_image_differs()
{
	local src=$VM_BUILD/src tree files

	[ -f "$1" ] || { echo "no fix image"; return 0; }
	tree=$(fix_tree) || { echo "the fix does not apply to vm-base"; return 0; }
	files=$(git -C "$src" diff --name-only "$tree" HEAD -- . \
		':(exclude)tools/testing/selftests' ':(exclude)MAINTAINERS')
	[ -n "$files" ] && { echo "kernel files differ:" $files; return 0; }
	cmp -s "$VM_FRAGMENT" "$src/tools/testing/selftests/net/tc_skip_egress/config" ||
		echo "the series' config fragment differs from the repo's"
}

# The series' kernel: the fix's image when it is the same kernel (above),
# else built from the series' tree.
build_kernel()
{
	local src=$VM_BUILD/src log=$CHECK/build-kernel.log fix=$1 why

	why=$(fix_image_differs "$fix")
	if [ -z "$why" ]; then
		log "kernel: the series' kernel files and config are those of $fix: reused"
		cp "$fix" "$CHECK/bzImage" && kernel_is_fix=1
		return
	fi
	log "kernel: built from the series' tree ($why)"
	# The config fragment as the series carries it.
	VM_FRAGMENT=$src/tools/testing/selftests/net/tc_skip_egress/config \
		vm_make "$src" "$VM_OBJ" "$log" ||
		{ log "kernel: $(vm_make_error "$log")"; return 1; }
	cp "$VM_OBJ/arch/x86/boot/bzImage" "$CHECK/bzImage"
}

# libbpf and bpftool: when the series changes no file of tools/ outside
# tools/testing, they are built from the same sources as the ones make
# suite built into BUILD, which are then taken (a minute of CPU saved);
# otherwise kdir.sh builds the series' own.
take_tools()
{
	local build=${BUILD:-$VM_ROOT/build}

	git -C "$VM_BUILD/src" diff --quiet vm-base HEAD -- tools ':!tools/testing' &&
		[ -f "$build/libbpf/libbpf.a" ] && [ -x "$build/bpftool/bpftool" ] &&
		cp -a "$build/libbpf" "$build/bpftool" "$CHECK/" &&
		log "selftests: the series leaves libbpf and bpftool as in $build: taken"
}

build_selftests()
{
	local src=$VM_BUILD/src log=$CHECK/build-selftests.log dirty

	take_tools
	make -C "$VM_ROOT" --no-print-directory KDIR="$src" BUILD="$CHECK" \
		suite test_progs > "$log" 2>&1 ||
		{ log "selftests: $(vm_make_error "$log")"; return 1; }
	dirty=$(git -C "$src" status --porcelain --untracked-files=no)
	[ -z "$dirty" ] && return 0
	log "the repo's files differ from the series' (regenerate it):" $dirty
	return 1
}

# Boot the image and run one front end: NAME and a shell line for the guest.
run_front()
{
	local name=$1 cmd=$2 rc

	vm_run_cells "$CHECK" "$name" -l "$CHECK/console-$name.log" \
		"$CHECK/bzImage" -- "$cmd"
	rc=$?
	verdicts "$name" "$rc"
}

# SERIES_FIX_RUNS=DIR (make check passes it): the fix column's runs that
# vm/vmtest.sh has just made, DIR/fix.* (kselftest) and
# DIR-test_progs/fix.* (test_progs). When the series' kernel is the
# fix's image (build_kernel) and the series' files are the repo's
# (build_selftests: the tree is clean after the repo's files went in),
# such a run is the series' own: the same kernel, the suite built from
# the same files. It is taken when it ran that very image (its key) and
# every test (no -t), and judged below as a run of the series': nothing
# boots twice.
fix_run_dir()
{
	case $1 in
	kselftest)	echo "$SERIES_FIX_RUNS" ;;
	test_progs)	echo "$SERIES_FIX_RUNS-test_progs" ;;
	esac
}

fix_run_taken()
{
	local dir

	dir=$(fix_run_dir "$1")
	[ -s "$dir/fix.tap" ] && [ -s "$dir/fix.rc" ] && [ -f "$dir/fix.args" ] &&
		[ ! -s "$dir/fix.args" ] && [ -s "$dir/fix.key" ] &&
		cmp -s "$dir/fix.key" "$2.key"
}

# Judge the fix column's run of front end $1 as the series' own.
take_fix_run()
{
	local name=$1 dir

	dir=$(fix_run_dir "$name")
	cp "$dir/fix.tap" "$CHECK/$name.tap" && cp "$dir/fix.err" "$CHECK/$name.err" || return 1
	vm_cells "$CHECK/$name.tap" > "$CHECK/$name.cells"
	log "$name: the fix column's run in $dir, of the same image, is the series' run"
	verdicts "$name" "$(cat "$dir/fix.rc")"
}

# Every cell pass, from a whole TAP and a VM that exited 0. A skip is
# printed with its reason and fails: that test did not check the series;
# only a row whose fix column in the expected matrix is skip (a point
# that skips on every kernel, docs/grid.md) may skip.
verdicts()
{
	local name=$1 rc=$2 n bad whole ok=0

	n=$(wc -l < "$CHECK/$name.cells") || n=0
	bad=$(awk 'FNR == NR && /^test / { for (i = 2; i <= NF; i++) if ($i == "fix") col = i; next }
		   FNR == NR && !/^#/ && col && $col == "skip" { skip[$1] = 1; next }
		   FNR == NR { next }
		   $2 != "pass" && !($2 == "skip" && $1 in skip)' \
		  "$(vm_expected_matrix)" "$CHECK/$name.cells")
	grep -h '# SKIP' "$CHECK/$name.tap" | sed "s/^/$name: /"
	log "$name: $n tests, $(grep -c ' pass$' "$CHECK/$name.cells") pass," \
		"$(grep -c ' skip$' "$CHECK/$name.cells") skip (VM exit $rc)"
	if [ "$rc" != 0 ]; then
		log "$name: the VM exited $rc, not 0 (253 timeout, 254 the kernel died," \
			"255 no boot, 1 a test failed); see $CHECK/$name.err"
		ok=1
	fi
	if ! whole=$(awk -f "$VM_DIR/tap-plan.awk" "$CHECK/$name.tap"); then
		log "$name: the TAP is not whole: $whole"
		ok=1
	fi
	if [ "$n" -eq 0 ]; then
		log "$name: no verdicts; see $CHECK/$name.err"
		ok=1
	elif [ -n "$bad" ]; then
		echo "$bad" | sed "s/^/$name: not a pass: /"
		ok=1
	fi
	return $ok
}

main()
{
	local series=${1:-$VM_ROOT/build/series} start t fix pid rc selftests_built=
	local -a list

	start=$(vm_now)
	mapfile -t list < <(patches "$series")
	[ ${#list[@]} -gt 0 ] || die "no patches in $series (make series)"
	rm -rf "$CHECK"
	mkdir -p "$CHECK"

	vm_lock
	vm_src_init || die "cannot make $VM_BUILD/src"
	# The fix's image, cached or built (make check has just built it).
	fix=$("$VM_DIR/build-kernel.sh" fix) || fix=
	t=$(vm_now)
	apply_series "${list[@]}" ||
		{ git -C "$VM_BUILD/src" am --abort 2>/dev/null
		  die "git am: the series does not apply to series-base"; }
	log "git am: ${#list[@]} patches applied ($(vm_since "$t") s)"
	t=$(vm_now)
	run_checkpatch "${list[@]}" || step_failed checkpatch
	log "checkpatch --strict: done ($(vm_since "$t") s)"
	t=$(vm_now)
	if build_kernel "$fix"; then
		log "kernel: built ($(vm_since "$t") s)"
	else
		step_failed kernel
	fi
	t=$(vm_now)
	if build_selftests; then
		log "selftests: kselftest and test_progs built ($(vm_since "$t") s)"
		selftests_built=1
	else
		step_failed selftests
	fi
	# Leave the shared tree as build-kernel.sh expects it; release it.
	git -C "$VM_BUILD/src" checkout -q -f --detach vm-base
	exec 9>&-
	unset VM_LOCKED

	# A checkpatch complaint does not stop the boot; a build failure does.
	if [ -n "$SERIES_FIX_RUNS" ] && [ -n "$kernel_is_fix" ] && [ -n "$selftests_built" ] &&
	   fix_run_taken kselftest "$fix" && fix_run_taken test_progs "$fix"; then
		take_fix_run kselftest || step_failed kselftest
		take_fix_run test_progs || step_failed test_progs
	elif [ -f "$CHECK/bzImage" ] && [ -x "$CHECK/test_progs/test_progs" ]; then
		# Two VMs at once, as vmtest.sh runs them; each one's lines
		# are printed when both are done, one front end after the other.
		t=$(vm_now)
		run_front kselftest \
			"SUITE=$CHECK/net/tc_skip_egress/tc_skip_egress scripts/run-suite.sh" \
			> "$CHECK/kselftest.verdict" 2>&1 &
		pid=$!
		run_front test_progs "BUILD=$CHECK mk/test_progs-tap.sh" \
			> "$CHECK/test_progs.verdict" 2>&1
		rc=$?
		wait $pid || step_failed kselftest
		[ $rc = 0 ] || step_failed test_progs
		cat "$CHECK/kselftest.verdict" "$CHECK/test_progs.verdict"
		log "boot and run both front ends: $(vm_since "$t") s"
	fi

	log "total $(vm_since "$start") s"
	if [ ${#failed[@]} -gt 0 ]; then
		log "series-check FAILED: ${failed[*]}"
		return 1
	fi
	log "series-check passed: applies, checkpatch clean, builds, boots, all tests pass"
}

main "$@"; exit
