# SPDX-License-Identifier: GPL-2.0
#
# make docs rewrites the generated tables of README.md and docs/
# (scripts/docs.sh); make docs-check checks them and the docs' references
# (tests/docs-check.sh, also run by make check). See docs/README.md.

.PHONY: docs docs-check

docs:
	@scripts/docs.sh

docs-check:
	@tests/docs-check.sh
