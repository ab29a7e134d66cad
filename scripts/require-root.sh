#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite creates network namespaces and loads BPF: it needs root.
if [ "$(id -u)" -ne 0 ]; then
	echo "run_tests: needs root (network namespaces, tc and BPF)" >&2
	exit 4
fi
