# SPDX-License-Identifier: GPL-2.0
#
# The tables of verdicts in README.md and docs/ are generated from
# vm/expected-matrix*.txt and vm/peers-expected.txt (scripts/docs.sh).
#
#   make docs         rewrite them after a source changed
#   make docs-check   does every generated table equal its source? (also
#                     run by make check, tests/docs-check.sh)

.PHONY: docs docs-check

docs:
	@scripts/docs.sh

docs-check:
	@tests/docs-check.sh
