#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the patch series a contributor posts, from the repo's current
# files (make series): its mails, series-base (the clean tree of the
# first line, KDIR, they apply to) and how the commits are made: docs/series.md.
#
#   vm/series.sh [OUT]            (OUT defaults to build/series)

# No -e: every step that can fail is followed by || die, naming it.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# Debian's pristine tarball of KDIR's line: the clean files come from it.
TARBALL=${TARBALL:-}
SERIES_DIR=$VM_DIR/series
# Files outside the suite that scripts/tree-edits.sh edits.
TREE_FILES=(tools/testing/selftests/Makefile
	    tools/testing/selftests/net/Makefile tools/testing/selftests/bpf/Makefile
	    tools/testing/selftests/bpf/config tools/testing/selftests/net/config
	    MAINTAINERS)
TP_FILES=(tools/testing/selftests/bpf/prog_tests/tc_redirect_ifb.c)

# The suite's files as the repo has them now (tracked or new, not ignored),
# like the top Makefile's SUITE_FILES.
suite_files()
{
	git -C "$VM_ROOT" ls-files --cached --others --exclude-standard tools |
		while read -r f; do [ -f "$VM_ROOT/$f" ] && echo "$f"; done
}

# Make (once) the clean base commit in build/vm/src and tag it series-base.
# Only objects and a tag are written: nothing another user of the tree sees.
make_base()
{
	local src=$VM_BUILD/src top tmp idx f blob msg

	if [ -z "$TARBALL" ]; then
		TARBALL=$("$VM_ROOT/scripts/trees.sh" --tarball "$(vm_kernel_line)") ||
			die "no tarball of KDIR's line to take the clean files from"
	fi
	msg="clean $(tree_release "$KDIR"): vm-base, ${TREE_FILES[*]} from ${TARBALL##*/}"
	# Remade when the list of files changes; the message records it.
	[ "$(git -C "$src" log -1 --format=%B series-base 2>/dev/null)" = "$msg" ] &&
		return 0
	[ -f "$TARBALL" ] || die "no $TARBALL to take the clean files from"
	top=$(tar -tJf "$TARBALL" | head -1)
	top=${top%%/*}
	tmp=$(mktemp -d)
	log "taking ${TREE_FILES[*]} from $TARBALL (once, about 30 s)"
	tar -xJf "$TARBALL" -C "$tmp" "${TREE_FILES[@]/#/$top/}" "$top/Makefile" ||
		{ rm -rf "$tmp"; die "cannot extract from $TARBALL"; }
	git -C "$src" show vm-base:Makefile | cmp -s - "$tmp/$top/Makefile" ||
		{ rm -rf "$tmp"; die "$TARBALL is not the tree vm-base was made from"; }
	idx=$tmp/index
	export GIT_INDEX_FILE=$idx
	git -C "$src" read-tree vm-base || return 1
	git -C "$src" rm -r -q --cached --ignore-unmatch -- \
		tools/testing/selftests/net/tc_skip_egress \
		'tools/testing/selftests/bpf/*tc_redirect_ifb*' || return 1
	while read -r f; do
		git -C "$src" rm -q --cached --ignore-unmatch -- "$f" || return 1
	done < <(suite_files)
	for f in "${TREE_FILES[@]}"; do
		blob=$(git -C "$src" hash-object -w "$tmp/$top/$f") &&
		git -C "$src" update-index --cacheinfo "100644,$blob,$f" || return 1
	done
	f=$(git -C "$src" write-tree) &&
	f=$(GIT_AUTHOR_DATE=2000-01-01T00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00Z git -C "$src" \
		-c user.name=vm -c user.email=vm@localhost \
		commit-tree -p vm-base -m "$msg" "$f") &&
	git -C "$src" tag -f series-base "$f" >/dev/null
	local rc=$?
	unset GIT_INDEX_FILE
	rm -rf "$tmp"
	return $rc
}

# A scratch clone of build/vm/src at series-base, checking out only what
# the series touches.
make_work()
{
	local work=$1 f

	rm -rf "$work"
	git clone -q --shared --no-checkout "$VM_BUILD/src" "$work" || return 1
	{
		# tree-edits.sh looks at both to know a kernel tree.
		echo /tools/testing/selftests/lib.mk
		echo /tools/testing/selftests/Makefile
		for f in "${TREE_FILES[@]}"; do echo "/$f"; done
		suite_files | sed 's|^|/|'
		sed -n 's|^diff --git a/\([^ ]*\) .*|/\1|p' "$VM_DIR"/kernels/fix/*.patch
	} | sort -u > "$work.sparse"
	git -C "$work" sparse-checkout set --no-cone --stdin < "$work.sparse" &&
	git -C "$work" checkout -q -b series series-base &&
	git -C "$work" config user.name "$(git -C "$VM_ROOT" config user.name)" &&
	git -C "$work" config user.email "$(git -C "$VM_ROOT" config user.email)"
}

# The selftests' files go to the TC subsystem's MAINTAINERS entry (which
# already lists tc-testing): tc people get the mails, and checkpatch has no
# "does MAINTAINERS need updating?" for the new files. F: lines are kept in
# alphabetical order.
maintainers_add()
{
	local file=$1/MAINTAINERS pattern=$2

	grep -qxF "F:	$pattern" "$file" && return 0
	awk -v new="F:	$pattern" '
		/^TC subsystem$/ { in_tc = 1 }
		in_tc && !done && (/^F:/ && $0 > new || /^$/) {
			print new
			done = 1
		}
		{ print }
		END { if (!done) exit 1 }' "$file" > "$file.tse" && mv "$file.tse" "$file"
}

# The suite's tests (scripts/scenarios.sh), wrapped for a commit message.
scenario_list()
{
	"$VM_ROOT/scripts/scenarios.sh" | paste -sd, - | sed 's/,/, /g' |
		fold -s -w 70 | sed 's/^/  /; s/ *$//'
}

# A commit message of vm/series/, its @SCENARIOS@ line replaced by the list.
commit_message()
{
	awk -v l="$(scenario_list)" '$0 == "@SCENARIOS@" { print l; next } { print }' "$1"
}

commit_suite()
{
	local work=$1 f
	local -a ksft=() tp=()

	while read -r f; do
		mkdir -p "$work/${f%/*}" && cp "$VM_ROOT/$f" "$work/$f" || return 1
		case $f in
		"${TP_FILES[0]}")	tp+=("$f") ;;
		*)			ksft+=("$f") ;;
		esac
	done < <(suite_files)
	"$VM_ROOT/scripts/tree-edits.sh" "$work" || return 1
	maintainers_add "$work" "tools/testing/selftests/bpf/progs/test_tc_redirect_ifb.*" &&
	maintainers_add "$work" tools/testing/selftests/net/tc_skip_egress/ &&
	git -C "$work" add -f -- "${ksft[@]}" tools/testing/selftests/net/Makefile \
		tools/testing/selftests/net/config MAINTAINERS &&
	commit_message "$SERIES_DIR/kselftest.txt" |
		git -C "$work" commit -q -s -F - &&
	maintainers_add "$work" "${TP_FILES[0]}" &&
	git -C "$work" add -f -- "${tp[@]}" tools/testing/selftests/bpf/Makefile \
		tools/testing/selftests/bpf/config MAINTAINERS &&
	git -C "$work" commit -q -s -F "$SERIES_DIR/test_progs.txt" &&
	[ -z "$(git -C "$work" status --porcelain --untracked-files=no)" ]
}

# The measured matrix for the cover letter, a row per test and IP
# version: stock and fix of the line the series is posted against (its
# expected matrix), then the 2021 series' seed, iif and both, which
# exist on VM_MUTANT_LINE only (its expected matrix).
matrix()
{
	local first=$VM_DIR/expected-matrix-$(line_first).txt
	local old=$VM_DIR/expected-matrix-$VM_MUTANT_LINE.txt

	awk -v first="$first" '
		/^#/ || NF == 0 { next }
		$1 == "test" {
			delete col
			for (i = 2; i <= NF; i++)
				col[$i] = i
			if (FILENAME == first) {
				n = split("stock fix", want, " ")
				line = sprintf("%-36s", "test")
				for (j = 1; j <= n; j++)
					line = line sprintf(" %-19s", want[j])
				head = line
			} else {
				m = split("seed iif both", more, " ")
				for (j = 1; j <= m; j++)
					head = head sprintf(" %-19s", more[j])
			}
			next
		}
		FILENAME == first {
			rows[++nr] = $1
			line = sprintf("%-36s", $1)
			for (j = 1; j <= n; j++)
				line = line sprintf(" %-19s", (want[j] in col) ? $col[want[j]] : "-")
			cells[$1] = line
			next
		}
		{
			line = ""
			for (j = 1; j <= m; j++)
				line = line sprintf(" %-19s", (more[j] in col) ? $col[more[j]] : "-")
			old[$1] = line
		}
		END {
			sub(/ +$/, "", head)
			print head
			for (r = 1; r <= nr; r++) {
				line = cells[rows[r]] (rows[r] in old ? old[rows[r]] : \
					sprintf(" %-19s %-19s %-19s", "-", "-", "-"))
				sub(/ +$/, "", line)
				print line
			}
		}' "$first" "$old"
}

# Which tree each column was measured on, for the cover letter: the
# release of each line's tree where it is here, else the line.
tested_on()
{
	local line tree rel

	for line in $(lines_all); do
		tree=$VM_ROOT/build/linux-source-$line
		[ "$line" = "$(line_first)" ] && tree=$KDIR
		rel=$(tree_release "$tree")
		case $line in
		"$(line_first)")	echo " - ${rel:-$line} (this series): stock and fix;" ;;
		"$VM_MUTANT_LINE")	echo " - ${rel:-$line} (its backport): stock, seed (the first version), iif" \
					"(its 1/3 alone), both (seed and iif) and fix;" ;;
		*)			echo " - ${rel:-$line} (its backport): stock and fix;" ;;
		esac
	done | sed '$s/;$/./'
}

# Put the cover letter's subject and text in place of format-patch's blurbs.
cover_letter()
{
	local file=$1 subject body

	subject=$(head -1 "$SERIES_DIR/cover-letter.txt")
	body=$(mktemp)
	tail -n +3 "$SERIES_DIR/cover-letter.txt" |
		awk -v m="$(matrix)" -v t="$(tested_on)" '
			$0 == "@MATRIX@" { print m; next }
			$0 == "@TESTED@" { print t; next }
			{ print }' > "$body"
	awk -v s="$subject" -v b="$body" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, s) }
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline l < b) > 0)
				print l
			next
		}
		{ print }' "$file" > "$file.tmp" && mv "$file.tmp" "$file"
	rm -f "$body"
}

main()
{
	local out=${1:-$VM_ROOT/build/series} work start

	start=$(vm_now)
	work=$out.work
	if [ ! -d "$VM_BUILD/src/.git" ]; then
		vm_lock
		vm_src_init || die "cannot make $VM_BUILD/src"
	fi
	make_base || die "cannot make the clean base commit series-base"
	make_work "$work" || die "cannot make the scratch clone $work"
	git -C "$work" am -q "$VM_DIR"/kernels/fix/*.patch ||
		die "the fix does not apply to series-base"
	commit_suite "$work" || die "cannot commit the suite in $work"
	rm -rf "$out"
	git -C "$work" format-patch -q --cover-letter --thread=shallow \
		-o "$out" series-base..series || die "format-patch failed"
	cover_letter "$out/0000-cover-letter.patch"
	log "$(find "$out" -name '*.patch' | wc -l) mails in $out ($(vm_since "$start") s)"
}

main "$@"; exit
