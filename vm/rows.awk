# SPDX-License-Identifier: GPL-2.0
#
# tse_row(NAME): the matrix row (scenario.family, e.g. egress_mirred.ipv4)
# of a test as either front end names it. A library: load it before the
# script that calls it (awk -f vm/rows.awk -f vm/tap2cells.awk). Forms:
#   egress_mirred.ipv4.verdict           harness, a fixture per scenario
#   tc_skip_egress.ipv4.egress_mirred    harness, one fixture, a TEST_F per
#                                        scenario, variants ipv4 and ipv6
#   tc_redirect_ifb/egress_mirred_ipv4   test_progs subtest
#   egress_mirred.ipv4                   already a row
# Anything else is returned as it is, so that it shows up as a row no
# expected matrix has.

function tse_row(name,	part, n)
{
	if (name ~ /\//) {
		sub(/^.*\//, "", name)
		sub(/_ipv6$/, ".ipv6", name)
		sub(/_ipv4$/, ".ipv4", name)
		return name
	}
	n = split(name, part, ".")
	if (n != 3)
		return name
	if (part[3] == "verdict")
		return part[1] "." part[2]
	return part[3] "." part[2]
}
