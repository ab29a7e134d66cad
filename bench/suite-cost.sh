#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite's own cost, per test: a host run, and the VM matrix with its
# kernels built (docs/benchmark.md, "The suite's own cost").
#
#   bench/suite-cost.sh DIR [KERNEL...]
#
# Writes DIR/suite-cost.csv and suite-cost.md. KERNEL... are the matrix's
# columns (default: vm/vmtest.sh's own list); give only built ones, or the
# time includes their builds. Needs root and a built suite (make suite).

set -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/vm/lib.sh"
out=${1:?usage: $0 DIR}

# TAP with "# took X s" before each test's result line -> "test seconds".
tap_times()
{
	awk '/^# took [0-9.]+ s/ { t = $3 }
	     /^(not )?ok [0-9]+ / {
		name = $1 == "not" ? $4 : $3
		if (t != "") print name, t
		t = "" }' "$@"
}

# The cold matrix is the warm one plus its kernel builds from an empty
# build/vm: this script does not remove build/vm to time them, make bench
# does (run.info) when it starts cold.
cold_line()
{
	local info=$out/run.info build kernels

	if [ "$(awk '$1 == "build_cold" { print $2 }' "$info" 2>/dev/null)" != yes ]; then
		echo "- VM matrix cold: not measured (make bench found its kernels built)."
		return
	fi
	build=$(awk '$1 == "build_wall" { print $2 }' "$info")
	kernels=$(awk '$1 == "kernels" { $1 = ""; print substr($0, 2) }' "$info")
	echo "- VM matrix cold: ${build} s of kernel builds from an empty build/vm" \
		"($kernels, timed by make bench) + the warm matrix = $((build + ${1%.*})) s."
}

main()
{
	local tmp t0 host_wall vm_wall vm_rc tap k

	[ "$(id -u)" = 0 ] || die "needs root"
	shift
	mkdir -p "$out"
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT

	echo "suite-cost: the suite on the host" >&2
	t0=$(vm_now)
	(cd "$ROOT" && scripts/run-suite.sh) > "$tmp/host.tap" 2>&1
	host_wall=$(vm_since "$t0")
	echo "where,test,seconds" > "$out/suite-cost.csv"
	tap_times "$tmp/host.tap" | awk '{ print "host," $1 "," $2 }' >> "$out/suite-cost.csv"

	echo "suite-cost: the VM matrix, kernels cached (warm)" >&2
	touch "$tmp/start"
	t0=$(vm_now)
	(cd "$ROOT" && vm/vmtest.sh "$@") > "$tmp/vmtest.out" 2>&1
	vm_rc=$?
	vm_wall=$(vm_since "$t0")
	for tap in "${VM_RESULTS:-$VM_BUILD/results}"/*.tap; do
		# Only this run's columns, not an older run's leftovers.
		[ "$tap" -nt "$tmp/start" ] || continue
		k=${tap##*/}
		k=${k%.tap}
		tap_times "$tap" | awk -v k="$k" '{ print "vm-" k "," $1 "," $2 }'
	done >> "$out/suite-cost.csv"

	{
		echo "# The suite's own cost"
		echo
		echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) on a $(nproc)-core host" \
			"shared with other work, kernel $(uname -r)."
		echo
		echo "- Host run (\`scripts/run-suite.sh\`, all tests): ${host_wall} s wall."
		echo "- VM matrix warm (\`vm/vmtest.sh ${*:-}\`, kernels already" \
			"built, two VMs at a time, qemu $(cat "$VM_BUILD/accel" 2>/dev/null || echo tcg)): ${vm_wall} s wall," \
			"exit $vm_rc."
		[ "$vm_rc" = 0 ] || grep -iE 'differ|unexpected|expected' "$tmp/vmtest.out" |
			head -n 5 | sed 's/^/  - vmtest: /'
		cold_line "$vm_wall"
		echo
		echo "Per test (\`# took\` lines; VM times are TCG emulation times where" \
			"the accelerator is tcg):"
		echo
		# Columns: host, then the VMs in name order.
		awk -F, -v wheres="$(tail -n +2 "$out/suite-cost.csv" | cut -d, -f1 |
			LC_ALL=C sort -u)" '
		NR > 1 { s[$2, $1] = $3; if (!($2 in seen)) { seen[$2] = 1; t[++n] = $2 } }
		END {
			nw = split(wheres, ws, "\n")
			printf "| test |"; for (i = 1; i <= nw; i++) printf " %s s |", ws[i]; print ""
			printf "|---|"; for (i = 1; i <= nw; i++) printf "---|"; print ""
			for (k = 1; k <= n; k++) {
				printf "| %s |", t[k]
				for (i = 1; i <= nw; i++) {
					printf " %s |", s[t[k], ws[i]]; tot[i] += s[t[k], ws[i]]
				}
				print ""
			}
			printf "| **sum** |"; for (i = 1; i <= nw; i++) printf " %.2f |", tot[i]; print ""
		}' "$out/suite-cost.csv"
	} > "$out/suite-cost.md"
	cat "$out/suite-cost.md"
	[ -s "$out/suite-cost.csv" ] && [ "$(wc -l < "$out/suite-cost.csv")" -gt 1 ] ||
		{ echo "suite-cost: no test times (is the suite built?)" >&2; exit 1; }
}

main "$@"; exit
