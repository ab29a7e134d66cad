#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Mutation testing of the code under test (make mutate, docs/mutation.md):
# write every mutant vm/mutate.py's rules give over vm/mutate.targets,
# build each on the mutants' line and run the suite on it until a test
# tells it from the fix. The hand-written mutants of vm/mutants/ whose
# base is the fix are judged the same way, and reported beside them.
#
#   vm/mutate.sh [-n COUNT] [--seconds S] [--only PATTERN] [--fresh]
#   vm/mutate.sh --report
#
# A mutant is killed at its first test whose verdict differs from the fix
# column of vm/expected-matrix-6.12.txt: the tests run in batches, the
# rows that killed most mutants so far first. A mutant no kselftest batch
# kills runs the whole suite under test_progs too; one that also passes it
# survived. One whose kernel does not build is stillborn (the rules do
# not know C). -n stops after COUNT new mutants, --seconds after S
# seconds, --only runs the mutants whose name matches PATTERN (grep -E).
# Each result is kept (MUTATE_DIR, default build/mutate): a run resumes
# where the last one stopped, and only mutants with no result run. A new
# clone resumes from the committed verdicts of vm/mutate-results.txt;
# --fresh leaves them out and judges every mutant again.
# Every run ends with the report (--report alone: only it): the score,
# mutants, killed, stillborn, argued equivalent (vm/mutants-equivalent.txt:
# "NAME: why no packet tells it from the fix") and survived per rule, into
# vm/mutate-score.txt, and each mutant with the row that killed it into
# vm/mutate-results.txt. Exits 1 if a mutant survived that is not argued
# equivalent.

# No -e: each build's and run's status is taken and judged.
set -uo pipefail
# The mutants' kernels have BTF and BPF on raw tracepoints, so that every
# test checks the task's bpf_net_context on them (vm/kernel-observe.config).
export VM_EXTRA_CONFIG=${VM_EXTRA_CONFIG:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kernel-observe.config}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OUT=${MUTATE_DIR:-$VM_ROOT/build/mutate}
# A mutant's oops or warning ends its VM at once: the rows that gave no
# verdict fail (a crash), where a guest ran on after a refcount warning,
# hung, and met the runner's timeout, 900 s (tcf_mirred_to_dev-cond-false-2,
# 2026-12-06). The fix logs no warning in any test (the suite fails one,
# kernel-warning), so a warning is a mutant's. The boot parameter is
# oops=panic: panic_on_oops is a sysctl, and a 6.12 guest booted with
# panic_on_oops=1 ("unknown parameter") hung after a use after free's oops.
export VM_APPEND="${VM_APPEND:+$VM_APPEND }oops=panic panic_on_warn=1"
# A lock bug is no warning: after "BUG: spinlock recursion" the guest of
# ifb_ri_tasklet-cond-negate-7 hung until the runner's limit, then a fixed
# 900 s (2026-12-07). The limit now grows with the tests a VM runs
# (vm_run_limit): 380 s for the first batch, where such a mutant hangs,
# and room for the whole suite on a machine whose TCG is slow.
export VM_GEN_MUTANTS=$OUT/mutants
EQUIVALENT=$VM_DIR/mutants-equivalent.txt
# The first batches' sizes; the last batch is every other row.
BATCHES=(8 32)

# The files of vm/mutate.targets from KDIR, with the fix applied: what
# the mutants are written against (build-kernel.sh applies them on it).
make_src()
{
	local f

	rm -rf "$OUT/src"
	for f in $(awk '!/^#/ && NF { print $1 }' "$VM_DIR/mutate.targets" | sort -u); do
		mkdir -p "$OUT/src/${f%/*}" && cp "$KDIR/$f" "$OUT/src/$f" || return 1
	done
	# patch, not git apply: inside the clone's work tree git apply would
	# take the paths from its top and pass over these files.
	for f in $(vm_variant_patches fix); do
		patch -s -p1 -d "$OUT/src" --no-backup-if-mismatch < "$f" || return 1
	done
}

# The fix's expected cell of each row, "ROW CELL".
fix_cells()
{
	awk '/^#/ || NF == 0 { next }
	     $1 == "test" { for (i = 2; i <= NF; i++) if ($i == "fix") c = i; next }
	     { print $1, $c }' "$VM_DIR/expected-matrix-$VM_MUTANT_LINE.txt"
}

# Every row, those that killed most mutants so far first. A killer that
# is no row of the matrix (make-bench-check's gate, a row since renamed)
# stays out: the suite would refuse the whole batch for its name.
kill_order()
{
	{
		cat "$OUT"/results/* 2>/dev/null | awk '$1 == "killed" { print $2 }' |
			sort | uniq -c | sort -k1,1nr -k2 | awk '{ print $2 }'
		cut -d' ' -f1 "$OUT/fix.cells"
	} | awk 'FNR == NR { row[$1] = 1; next } row[$0] && !seen[$0]++' "$OUT/fix.cells" -
}

# The rows of the kill order's batch $1 (0, 1, ...), one a line.
batch_rows()
{
	local from=0 i

	for ((i = 0; i < $1; i++)); do
		from=$((from + BATCHES[i]))
	done
	if [ "$1" -lt ${#BATCHES[@]} ]; then
		kill_order | tail -n +$((from + 1)) | head -n "${BATCHES[$1]}"
	else
		kill_order | tail -n +$((from + 1))
	fi
}

# Run ROWS (stdin) of front end $3 on image $2 for mutant $1; print
# "ROW CELL" for the first row whose cell is not the fix's, if any. A run
# that is not whole (crash, timeout) fails its rows that gave no verdict:
# first the one the TAP last started ("#  RUN ... .ipvN.NAME", kselftest),
# which was running when the kernel died, else the first asked. A row that
# gave a verdict unlike the fix's comes before them all.
run_batch()
{
	local name=$1 image=$2 front=$3 dir=$OUT/runs/$1 cmd
	local -a args=()

	mapfile -t rows
	[ ${#rows[@]} -gt 0 ] || return 0
	for r in "${rows[@]}"; do
		args+=(-t "$r")
	done
	mkdir -p "$dir"
	printf '%s\n' "${rows[@]}" > "$dir/$front.rows"
	cmd=$(vm_front_cmd "$front")
	vm_run_cells "$dir" "$front" -l "$dir/console-$front.log" "$image" -- "$cmd" "${args[@]}"
	awk -v fill="$(cat "$dir/$front.fill")" -v rows="$dir/$front.rows" \
	    -v tap="$dir/$front.tap" '
		FNR == NR { want[$1] = $2; next }
		FILENAME == rows { asked[++n] = $1; next }
		FILENAME == tap {
			if ($1 == "#" && $2 == "RUN" && split($3, a, ".") == 3)
				running = a[3] "." a[2]
			next
		}
		{ got[$1] = $2 }
		END {
			for (i = 1; i <= n; i++)
				if ((asked[i] in got) && got[asked[i]] != want[asked[i]]) {
					print asked[i], got[asked[i]]
					exit
				}
			if (running != "" && !(running in got) && running in want &&
			    fill != want[running]) {
				print running, fill
				exit
			}
			for (i = 1; i <= n; i++)
				if (!(asked[i] in got) && fill != want[asked[i]]) {
					print asked[i], fill
					exit
				}
		}' "$OUT/fix.cells" "$dir/$front.rows" "$dir/$front.tap" "$dir/$front.cells"
}

# A hand-written mutant that costs time instead of changing a verdict
# (its "# killed-by: make bench-check" line: fix-fastpath-cost) is judged
# by that gate, as make bench-check runs it: the first line's stock and
# mutant, without the mutants' config. The suite cannot kill it. Killed
# only when the gate fails on the fast path; any other failure is no
# verdict, and it stays not run.
judge_cost()
{
	local name=$1 dir=$OUT/runs/$1/bench-check

	[ -f "${BENCH_KDIR:-}/Makefile" ] || {
		log "$name: no first line's tree (BENCH_KDIR) for make bench-check"
		return
	}
	mkdir -p "$dir"
	env -u VM_EXTRA_CONFIG -u VM_APPEND -u VM_TIMEOUT -u VM_BUILD \
		KDIR="$BENCH_KDIR" "$VM_ROOT/bench/check.sh" -o "$dir" "$name" \
		> "$dir/check.log" 2>&1
	if grep -q '^bench-check: fast path, .*, below ' "$dir/check.log"; then
		echo "killed make-bench-check fast-path" > "$OUT/results/$name"
	elif grep -q '^bench-check: pass: ' "$dir/check.log"; then
		echo survived > "$OUT/results/$name"
	else
		log "$name: make bench-check gave no verdict: $dir/check.log"
	fi
}

# Judge one mutant; its result goes to results/NAME.
judge_mutant()
{
	local name=$1 image err kill b=0 nb=$((${#BATCHES[@]} + 1))

	if vm_mutant_is_cost "$(vm_mutant_file "$name")"; then
		judge_cost "$name"
		return
	fi

	if ! image=$("$VM_DIR/build-kernel.sh" "$name" 2>"$OUT/runs/$name.build"); then
		err=$(tail -n 1 "$OUT/runs/$name.build")
		echo "stillborn ${err#*: }" > "$OUT/results/$name"
		return
	fi
	for ((b = 0; b < nb; b++)); do
		kill=$(batch_rows $b | run_batch "$name" "$image" kselftest)
		if [ -n "$kill" ]; then
			echo "killed $kill kselftest batch $b" > "$OUT/results/$name"
			return
		fi
	done
	kill=$(kill_order | run_batch "$name" "$image" test_progs)
	if [ -n "$kill" ]; then
		echo "killed $kill test_progs" > "$OUT/results/$name"
		return
	fi
	echo "survived" > "$OUT/results/$name"
}

# Every mutant's file: the generated ones, then the hand-written mutants
# of vm/mutants/ whose base is the fix (the others are judged against
# another column, by make vmtest-mutants).
mutant_files()
{
	local f

	ls "$VM_GEN_MUTANTS"/*.patch
	for f in "$VM_DIR"/mutants/*.patch; do
		[ "$(sed -n '1s/^# base: *//p' "$f")" = fix ] && echo "$f"
	done
}

# "NAME RULE RESULT ROW" per mutant (RULE hand-written for vm/mutants/):
# its result (killed, stillborn, equivalent, survived or not-run) and the
# row that killed it ("-" else).
results()
{
	local f name rule res

	for f in $(mutant_files); do
		name=${f##*/}
		name=${name%.patch}
		rule=$(sed -n '2s/.*: rule \([a-z-]*\) at.*/\1/p' "$f")
		rule=${rule:-hand-written}
		res=(not-run)
		[ -f "$OUT/results/$name" ] && read -r -a res < "$OUT/results/$name"
		if [ "${res[0]}" = survived ] && grep -q "^$name:" "$EQUIVALENT" 2>/dev/null; then
			res=(equivalent)
		fi
		echo "$name $rule ${res[0]} $([ "${res[0]}" = killed ] && echo "${res[1]}" || echo -)"
	done
}

# Write the score: vm/mutate-score.txt (a row per rule, and all) and
# vm/mutate-results.txt (a row per mutant, with the row that killed it),
# verdict files that make docs turns into docs/mutation.md's table. Print
# the score and the survivors; fail if a mutant survived.
report()
{
	local hdr='# SPDX-License-Identifier: GPL-2.0\n# Written by make mutate (vm/mutate.sh --report) from its results: docs/mutation.md.'

	results > "$OUT/results.txt"
	{
		printf "$hdr\n"
		printf '%-28s  %-44s  %-10s  %s\n' mutant rule result killed-by
		awk '{ printf "%-28s  %-44s  %-10s  %s\n", $1, $2, $3, $4 }' "$OUT/results.txt"
	} > "$VM_DIR/mutate-results.txt"
	{
		printf "$hdr\n"
		awk '
			{ n[$2]++; r[$2, $3]++; all[$3]++; rules[$2] = 1 }
			END {
				printf "%-12s  %-7s  %-6s  %-9s  %-10s  %-8s  %s\n", "rule", "mutants",
					"killed", "stillborn", "equivalent", "survived", "not-run"
				for (k in rules)
					printf "%-12s  %-7d  %-6d  %-9d  %-10d  %-8d  %d\n", k, n[k],
						r[k, "killed"], r[k, "stillborn"], r[k, "equivalent"],
						r[k, "survived"], r[k, "not-run"] | "sort"
				close("sort")
				printf "%-12s  %-7d  %-6d  %-9d  %-10d  %-8d  %d\n", "all", NR,
					all["killed"], all["stillborn"], all["equivalent"],
					all["survived"], all["not-run"]
			}' "$OUT/results.txt"
	} > "$VM_DIR/mutate-score.txt"
	grep -v '^#' "$VM_DIR/mutate-score.txt"
	if grep -q ' survived ' "$OUT/results.txt"; then
		echo "Survived, neither killed nor argued equivalent ($EQUIVALENT):"
		awk '$3 == "survived" { print "  " $1 }' "$OUT/results.txt"
		return 1
	fi
}

# Take the committed verdicts (vm/mutate-results.txt) of the mutants that
# have no result in $OUT, so that a new clone resumes where the last run
# that committed its report stopped. An equivalent mutant is a survivor
# that vm/mutants-equivalent.txt argues; results() reads it so again.
seed_results()
{
	local name rule res row line

	[ -f "$VM_DIR/mutate-results.txt" ] || return 0
	while read -r name rule res row; do
		[ -f "$OUT/results/$name" ] && continue
		case $res in
		killed)		line="killed $row" ;;
		stillborn)	line=stillborn ;;
		equivalent)	line=survived ;;
		*)		continue ;;
		esac
		echo "$line (vm/mutate-results.txt)" > "$OUT/results/$name"
	done < <(grep -v -e '^#' -e '^mutant ' "$VM_DIR/mutate-results.txt")
}

main()
{
	local limit=-1 seconds=0 only='' fresh=0 start name done=0

	while [ $# -gt 0 ]; do
		case $1 in
		-n)		limit=$2; shift ;;
		--seconds)	seconds=$2; shift ;;
		--only)		only=$2; shift ;;
		--fresh)	fresh=1 ;;
		--report)	ls "$VM_GEN_MUTANTS"/*.patch > /dev/null 2>&1 ||
				die "no mutants in $VM_GEN_MUTANTS: make mutate writes them"
			mkdir -p "$OUT/results"
			[ "$fresh" = 1 ] || seed_results
			report; return ;;
		*)		usage ;;
		esac
		shift
	done
	[ "$(vm_kernel_line)" = "$VM_MUTANT_LINE" ] ||
		die "KDIR=$KDIR is not the mutants' line, $VM_MUTANT_LINE"
	mkdir -p "$OUT/results" "$OUT/runs"
	[ "$fresh" = 1 ] || seed_results
	make_src || die "cannot apply the fix to vm/mutate.targets' files"
	rm -rf "$VM_GEN_MUTANTS"
	python3 "$VM_DIR/mutate.py" "$OUT/src" "$VM_GEN_MUTANTS" >&2 || die "vm/mutate.py failed"
	fix_cells | sort > "$OUT/fix.cells"
	start=$SECONDS
	for f in $(mutant_files); do
		name=${f##*/}
		name=${name%.patch}
		[ -f "$OUT/results/$name" ] && continue
		[ -z "$only" ] || grep -qE "$only" <<< "$name" || continue
		[ "$limit" -ge 0 ] && [ "$done" -ge "$limit" ] && break
		[ "$seconds" -gt 0 ] && [ $((SECONDS - start)) -ge "$seconds" ] && break
		judge_mutant "$name"
		log "$name: $(cat "$OUT/results/$name") ($((SECONDS - start)) s so far)"
		done=$((done + 1))
	done
	log "$done mutants judged in $((SECONDS - start)) s"
	report
}

main "$@"; exit
