#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-check, the fast-path gate: one icount round of stock and
# KERNEL, TCP_RR on the fast path and with 5 filters, then a verdict
# (docs/benchmark.md says when it fails, and why).
#
#   bench/check.sh [-o DIR] [KERNEL]
#   bench/check.sh --judge DIR KERNEL     (the verdict alone, on DIR/raw.csv)
#   bench/check.sh --selftest             (the verdict fed made-up runs)
#
# KERNEL     what is compared with stock (default $BENCH_CHECK_KERNEL or
#            fix; fix-fastpath-cost is a mutant that must fail)
# DIR        where bench/run.sh writes (default $BENCH_OUT or
#            build/bench/check)
#
# Before booting anything it runs its own self-test: the verdict must fail
# on each way a run can be wrong, made up, and pass on a made-up good run.

set -uo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
. "$ROOT/scripts/lib.sh"
SHAPES="fast filters5"
# No stream: it repeats to 0.2 % (TCP_NODELAY) or 0.6 % (Nagle) only.
WORKLOADS="rr"
MIN_RATIO=0.999

# judge RAW KERNEL: the verdict on a raw.csv; one line per failure.
judge()
{
	local raw=$1 kernel=$2

	[ -s "$raw" ] || { echo "bench-check: no figures: $raw is missing or empty"; return 1; }
	awk -F, -v k="$kernel" -v shapes="$SHAPES" -v workloads="$WORKLOADS" \
	    -v min="$MIN_RATIO" '
	function bad(msg) {
		print "bench-check: " msg
		failed = 1
	}
	NR == 1 { next }
	$5 == "tps" || $5 == "Mbit/s" { v[$2, $3, $4] = $6; unit[$4] = $5 }
	$5 == "classifier_runs" { runs[$2, $3, $4] = $6 }
	$5 == "packets_counted" { pkts[$2, $3, $4] = $6 }
	END {
		ns = split(shapes, S, " "); nw = split(workloads, W, " ")
		kern[1] = "stock"; kern[2] = k
		want["stock"] = 2; want[k] = 1
		for (i = 1; i <= ns; i++)
			for (j = 1; j <= nw; j++) {
				s = S[i]; w = W[j]
				for (n = 1; n <= 2; n++) {
					kk = kern[n]
					if (!((kk, s, w) in v) || v[kk, s, w] + 0 <= 0)
						bad(sprintf("missing cell: no %s figure for %s, %s", w, kk, s))
					if (s == "fast")
						continue
					if (!((kk, s, w) in runs) || !((kk, s, w) in pkts) || pkts[kk, s, w] + 0 <= 0) {
						bad(sprintf("missing cell: no classifier count for %s, %s, %s", kk, s, w))
						continue
					}
					why = "packets ifb re-injects are classified again, or a packet skipped the hook"
					if (want[kk] == 2)
						why = "stock classifies each re-injected packet again; the reference is wrong"
					if (runs[kk, s, w] != want[kk] * pkts[kk, s, w])
						bad(sprintf("%s, %s, %s: %d classifier runs for %d packets (%.4f per packet), expected exactly %d: %s",
							kk, s, w, runs[kk, s, w], pkts[kk, s, w],
							runs[kk, s, w] / pkts[kk, s, w], want[kk], why))
				}
				if (s == "fast" && v["stock", s, w] > 0 && v[k, s, w] > 0) {
					r = v[k, s, w] / v["stock", s, w]
					if (r < min)
						bad(sprintf("fast path, %s: %s / stock = %.5f (%s vs %s %s), below %s: %s executes %.3f %% more instructions per unit of work with no tc hook",
							w, k, r, v[k, s, w], v["stock", s, w], unit[w], min, k, 100 * (1 / r - 1)))
					else
						printf "bench-check: fast path, %s: %s / stock = %.5f (gate %s)\n", w, k, r, min
				}
			}
		exit failed
	}' "$raw"
}

# Made-up raw.csv rows for the self-test: a good run, then one broken thing.
fake_raw()
{
	local kernel=$1 fast_ratio=$2 stock_runs=$3 kernel_runs=$4 drop=${5:-} s w k v

	echo "round,kernel,shape,workload,metric,value"
	for k in stock "$kernel"; do
		for s in $SHAPES; do
			for w in $WORKLOADS; do
				[ "$k,$s,$w" = "$drop" ] && continue
				v=1000
				[ "$k" != stock ] && [ "$s" = fast ] && v=$(awk -v r="$fast_ratio" 'BEGIN { print 1000 * r }')
				echo "1,$k,$s,$w,tps,$v"
				[ "$s" = fast ] && continue
				[ "$k" = stock ] && echo "1,$k,$s,$w,classifier_runs,$stock_runs" ||
					echo "1,$k,$s,$w,classifier_runs,$kernel_runs"
				echo "1,$k,$s,$w,packets_counted,100"
			done
		done
	done
}

# expect pass|fail WHAT SAYS: the verdict on $tmp/raw.csv must pass (or
# fail), and its output must contain SAYS (a failure for the right reason).
expect()
{
	local want=$1 what=$2 says=$3 got=pass

	judge "$tmp/raw.csv" fix > "$tmp/out" 2>&1 || got=fail
	if [ "$got" = "$want" ] && grep -qF -- "$says" "$tmp/out"; then
		echo "bench-check: self-test: $what: ${got/%s/se}s as it should"
		return 0
	fi
	echo "bench-check: self-test: $what: ${got/%s/se}s, should ${want} saying '$says':"
	sed 's/^/    /' "$tmp/out"
	return 1
}

selftest()
{
	local tmp fails=0 want what says args

	tmp=$(mktemp -d) || exit 1
	while IFS='|' read -r want what says args; do
		# shellcheck disable=SC2086
		fake_raw fix $args > "$tmp/raw.csv"
		expect "$want" "$what" "$says" || fails=1
	done <<-EOF
	pass|a good run|fix / stock = 1.00000|1.0 200 100
	pass|fast path 0.05 % slower (inside the gate)|fix / stock = 0.99950|0.9995 200 100
	fail|fast path 0.2 % slower|below 0.999|0.998 200 100
	fail|stock classifies once (a reference that is not stock)|expected exactly 2|1.0 100 100
	fail|the kernel classifies twice|expected exactly 1|1.0 200 200
	fail|the kernel classifies one packet twice|expected exactly 1|1.0 200 101
	fail|a missing cell (fix, filters5, rr)|missing cell: no rr figure for fix, filters5|1.0 200 100 fix,filters5,rr
	fail|a missing cell (stock, fast, rr)|missing cell: no rr figure for stock, fast|1.0 200 100 stock,fast,rr
	EOF
	: > "$tmp/raw.csv"
	expect fail "an empty raw.csv" "no figures" || fails=1
	rm -rf "$tmp"
	return $fails
}

main()
{
	local out=${BENCH_OUT:-$ROOT/build/bench/check} kernel

	case ${1:-} in
	--judge)
		judge "${2:?--judge DIR KERNEL}/raw.csv" "${3:?--judge DIR KERNEL}"
		exit ;;
	--selftest)
		selftest
		exit ;;
	-o)	out=${2:?-o DIR}; shift 2 ;;
	-h|--help)	usage ;;
	esac
	kernel=${1:-${BENCH_CHECK_KERNEL:-fix}}
	mkdir -p "$out" || exit 1
	selftest > "$out/selftest.log" 2>&1 || {
		cat "$out/selftest.log" >&2
		die "the verdict's self-test failed: it cannot be trusted"
	}
	echo "bench-check: the verdict's self-test passed ($out/selftest.log)"
	rm -f "$out/raw.csv"
	BENCH_CLOCK=icount BENCH_SHAPES=$SHAPES BENCH_WORKLOADS=$WORKLOADS \
		"$BENCH_DIR/run.sh" -r 1 -j "${BENCH_JOBS:-2}" \
		-o "$out" stock "$kernel" > "$out/summary.log" ||
		echo "bench-check: bench/run.sh failed; judging what it measured" >&2
	if judge "$out/raw.csv" "$kernel"; then
		echo "bench-check: pass: stock and $kernel, one icount round ($out)"
	else
		# A verdict, not die's "check.sh:" error: make check's summary
		# (tests/run.sh) picks "bench-check: FAIL" out of the output.
		echo "bench-check: FAIL: stock and $kernel, one icount round; figures in $out/results.md" >&2
		exit 1
	fi
}

main "$@"; exit
