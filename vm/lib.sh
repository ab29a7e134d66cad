# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers shared by the vm/ scripts; source it, do not run it. The build
# folder's layout, VM_EXTRA_CONFIG, VM_OBJ and VM_LOCK: docs/vm.md.
# The scripts end in 'main "$@"; exit': bash reads a script as it runs, and
# the exit keeps it from reading on into a file edited meanwhile.

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_ROOT=$(cd "$VM_DIR/.." && pwd)
VM_BUILD=${VM_BUILD:-$VM_ROOT/build/vm}
KDIR=${KDIR:-$VM_ROOT/build/linux-source-7.3}
VM_FRAGMENT=${VM_FRAGMENT:-$VM_ROOT/tools/testing/selftests/net/tc_skip_egress/config}
VM_SUITE=${VM_SUITE:-$VM_ROOT/build/net/tc_skip_egress/tc_skip_egress}
VM_EXTRA_CONFIG=${VM_EXTRA_CONFIG:-}
VM_EXTRA_NAME=
if [ -n "$VM_EXTRA_CONFIG" ]; then
	VM_EXTRA_NAME=${VM_EXTRA_CONFIG##*/}
	VM_EXTRA_NAME=${VM_EXTRA_NAME%.config}
fi
VM_OBJ=${VM_OBJ:-$VM_BUILD/obj${VM_EXTRA_NAME:+-$VM_EXTRA_NAME}}
VM_LOCK=${VM_LOCK:-$VM_BUILD/src.lock}
VM_ARCH=x86_64
VM_CCACHE_DIR=${VM_CCACHE_DIR:-/var/cache/tc-skip-egress/ccache}
VM_IMAGE_CACHE=${VM_IMAGE_CACHE-/var/cache/tc-skip-egress/images}

. "$VM_ROOT/scripts/lib.sh"

# Timings the scripts print: vm_now, then vm_since START (seconds, 0.1 s).
vm_now()
{
	echo "$EPOCHREALTIME"
}

vm_since()
{
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }'
}

# Run the rest of the script holding an exclusive lock on the source tree:
# variants share one working copy and one object dir. Children of the
# holder (bisect-demo.sh -> bisect-run.sh) inherit it through VM_LOCKED.
vm_lock()
{
	[ -n "${VM_LOCKED:-}" ] && return 0
	mkdir -p "$VM_BUILD" "${VM_LOCK%/*}"
	exec 9>"$VM_LOCK"
	flock 9
	export VM_LOCKED=1
}

# The kernel line of the tree at $1 (default KDIR), from its Makefile:
# one of scripts/lines.sh's. Anything else is refused with one line: its
# verdicts would be compared with another line's expected matrix. The
# line names the tree by the variable that gave it, $2 (default KDIR:
# KDIR_LTS for vmtest-lts.sh).
vm_kernel_line()
{
	local kdir=${1:-$KDIR} var=${2:-KDIR} v r

	[ -f "$kdir/Makefile" ] || die "no kernel tree at $var=$kdir"
	v=$(tree_line "$kdir")
	if ! line_known "$v"; then
		r=$(tree_release "$kdir")
		die "$var=$kdir is Linux ${r:-of no version}: the VM runner knows $(lines_all) only"
	fi
	echo "$v"
}

# The expected matrix of the line at KDIR.
vm_expected_matrix()
{
	local line

	line=$(vm_kernel_line) || return 1
	echo "$VM_DIR/expected-matrix-$line.txt"
}

# The line whose kernels the 2021 series (seed, iif, both) and the
# mutants (vm/mutants/, based on its fix) are written for.
VM_MUTANT_LINE=6.12

# The fix's patches on a line: the series as posted (vm/kernels/fix/) on
# the first line, the backport (vm/kernels/fix-LINE/) on the others.
vm_fix_dir()
{
	if [ "$1" = "$(line_first)" ]; then
		echo "$VM_DIR/kernels/fix"
	else
		echo "$VM_DIR/kernels/fix-$1"
	fi
}

# The kernels a line builds when none are named: stock and fix, and on
# VM_MUTANT_LINE the 2021 series' too.
vm_line_variants()
{
	if [ "$1" = "$VM_MUTANT_LINE" ]; then
		echo stock seed iif both fix
	else
		echo stock fix
	fi
}

# Patches for a variant, in the order they are applied: git format-patch
# mails, applied in name order. Only VM_MUTANT_LINE has the 2021 series'
# variants.
vm_variant_patches()
{
	local line

	line=$(vm_kernel_line) || return 1
	case $1 in
	stock)	return 0 ;;
	fix)	echo "$(vm_fix_dir "$line")"/*.patch; return 0 ;;
	esac
	[ "$line" = "$VM_MUTANT_LINE" ] || return 1
	case $1 in
	both)	echo "$VM_DIR/kernels/seed.patch" "$VM_DIR/kernels/iif.patch" ;;
	*)	[ -f "$VM_DIR/kernels/$1.patch" ] || return 1
		echo "$VM_DIR/kernels/$1.patch" ;;
	esac
}

# A kernel word names a mutant by its file name, vm/mutants/NAME.patch;
# the variant it applies on top of is its "# base: NAME" line.
vm_is_mutant()
{
	[ -f "$VM_DIR/mutants/$1.patch" ]
}

vm_mutant_base()
{
	sed -n '1s/^# base: *\([a-z]*\).*/\1/p' "$VM_DIR/mutants/$1.patch"
}

vm_mutants()
{
	local p

	for p in "$VM_DIR"/mutants/*.patch; do
		# A cost, not a behaviour: make bench-check kills it, the suite
		# cannot.
		grep -q '^# killed-by: make bench-check' "$p" && continue
		p=${p##*/}
		echo "${p%.patch}"
	done
}

# Make the git copy of $KDIR once. A copy, not hard links: the pristine
# tree must survive whatever is done to the working copy.
vm_src_init()
{
	local src=$VM_BUILD/src key

	[ -f "$KDIR/Makefile" ] || die "no kernel tree at KDIR=$KDIR"
	if [ -f "$src/.git/vm-tree-key" ]; then
		# Images are keyed by KDIR's files: the copy must be of them.
		[ "$(cat "$src/.git/vm-tree-key")" = "${TREE_KEY:-$(vm_tree_key)}" ] &&
			return 0
		die "$src is not a copy of KDIR=$KDIR as it is now; remove $VM_BUILD to remake it"
	fi
	if [ -d "$src/.git" ]; then
		# Same top Makefile, same kernel version: good enough.
		cmp -s "$KDIR/Makefile" <(git -C "$src" show vm-base:Makefile) &&
			return 0
		die "$src is not a copy of KDIR=$KDIR; remove $VM_BUILD to remake it"
	fi
	log "making $src from $KDIR (once, under a minute)"
	key=${TREE_KEY:-$(vm_tree_key)} || return 1
	mkdir -p "$VM_BUILD"
	rm -rf "$src.tmp"
	cp -a "$KDIR" "$src.tmp" || return 1
	# Debian's tree ignores its own top level, hence add -f.
	git -C "$src.tmp" init -q &&
	git -C "$src.tmp" config gc.auto 0 &&
	git -C "$src.tmp" add -f -A . &&
	git -C "$src.tmp" -c user.name=vm -c user.email=vm@localhost \
		commit -q -m "pristine $(make -s -C "$KDIR" kernelversion)" &&
	git -C "$src.tmp" tag vm-base &&
	echo "$key" > "$src.tmp/.git/vm-tree-key" &&
	mv "$src.tmp" "$src"
}

# What identifies the tree at KDIR in an image's key: each file's path,
# size and mtime. Debian's tarball extracts to the same ones in every
# clone, and an edited file gets a new mtime. tools/testing is left out:
# the suite's builds write there, and no kernel object is made from it.
# Under a second for the 6.12 tree's 82,000 files. vm/build-kernel.sh
# takes it once, as TREE_KEY, which vm_src_init then reuses.
vm_tree_key()
{
	[ -f "$KDIR/Makefile" ] || die "no kernel tree at KDIR=$KDIR"
	(cd "$KDIR" && find . -path ./tools/testing -prune -o \
		\( -type f -o -type l \) -printf '%p %s %T@ %l\n') |
		LC_ALL=C sort | sha256sum | cut -c1-16
}

# The fragments of the config, in merge order, one a line: the suite's,
# the VM's, the line's own (vm/kernel-6.1.config: 6.1's BPF_JIT needs
# MODULES) and VM_EXTRA_CONFIG.
vm_config_files()
{
	local line

	line=$(vm_kernel_line) || return 1
	echo "$VM_FRAGMENT"
	echo "$VM_DIR/kernel.config"
	[ -f "$VM_DIR/kernel-$line.config" ] && echo "$VM_DIR/kernel-$line.config"
	[ -z "$VM_EXTRA_CONFIG" ] || echo "$VM_EXTRA_CONFIG"
}

# Hash of everything the config depends on.
vm_config_key()
{
	local -a files

	mapfile -t files < <(vm_config_files)
	cat "${files[@]}" | sha256sum | cut -c1-16
}

# The config symbols the tree at $1 defines, one a line.
vm_config_symbols()
{
	find "$1" -name 'Kconfig*' -exec \
		awk '$1 == "config" || $1 == "menuconfig" { print $2 }' {} + | sort -u
}

# Check that every "CONFIG_X=y" line of the fragments made it to .config:
# Kconfig silently drops an option whose dependencies are not met. On a
# line other than the first, an option the tree does not have at all (6.1
# has no NET_XGRESS) is named and passed over; on the first it fails, as a
# typo.
vm_config_check()
{
	local src=$1 obj=$2 line sym missing=0 known=

	[ "$(vm_kernel_line "$src")" = "$(line_first)" ] || known=$(vm_config_symbols "$src")
	while read -r line; do
		case $line in CONFIG_*) ;; *) continue ;; esac
		grep -qx "$line" "$obj/.config" && continue
		sym=${line%%=*}
		if [ -n "$known" ] && ! grep -qx "${sym#CONFIG_}" <<< "$known"; then
			log "config: $sym is no option of this tree: passed over"
			continue
		fi
		log "config: $line did not stick (dependency missing?)"
		missing=1
	done < <(vm_config_files | xargs cat)
	return $missing
}

# tinyconfig + the suite's fragment + what qemu needs, into $obj/.config.
# Only redone when the fragments change, so a rebuild stays incremental.
vm_config()
{
	local src=$1 obj=$2 key
	local -a files

	key=$(vm_config_key)
	[ -f "$obj/.config" ] && [ "$(cat "$obj/.vm-config-key" 2>/dev/null)" = "$key" ] &&
		return 0
	mapfile -t files < <(vm_config_files)
	mkdir -p "$obj"
	vm_kmake -s -C "$src" O="$obj" tinyconfig >/dev/null &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"${files[@]}" >/dev/null &&
	vm_kmake -s -C "$src" O="$obj" olddefconfig >/dev/null &&
	vm_config_check "$src" "$obj" &&
	echo "$key" > "$obj/.vm-config-key"
}

# The kernel's make, its compiler behind ccache when there is one. The
# cache lives outside the clone (VM_CCACHE_DIR), so that a fresh clone on
# the same machine, CI's among them, finds the objects an earlier one
# built. Paths are taken relative to the clone (CCACHE_BASEDIR), so that
# two clones in different folders share hits; the working copy is checked
# out anew for every variant, so mtimes say nothing (sloppiness). Depend
# mode takes the headers from the compiler's own -MMD list instead of
# running the preprocessor once more on a miss: a whole kernel with an
# empty cache took 374 s against 503 s (976 objects, this machine).
vm_kmake()
{
	if ! command -v ccache >/dev/null; then
		make ARCH=$VM_ARCH "$@"
		return
	fi
	CCACHE_DIR=$VM_CCACHE_DIR CCACHE_BASEDIR=$VM_ROOT CCACHE_NOHASHDIR=1 \
	CCACHE_MAXSIZE=${VM_CCACHE_SIZE:-10G} CCACHE_DEPEND=1 \
	CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime \
		make ARCH=$VM_ARCH CC="ccache gcc" "$@"
}

# ccache keys piggy.o on piggy.S, which only .incbin's the compressed
# vmlinux, and depend mode does not see the .incbin: a hit hands back the
# kernel of another build with a payload of the same size (2026-12-05:
# mutants booted other mutants' kernels). Assemble it again without
# ccache, from the command Kbuild saved, so the image holds this build.
vm_fresh_payload()
{
	local obj=$1 cmd

	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$obj/arch/x86/boot/compressed/.piggy.o.cmd")
	case $cmd in
	"ccache "*)	(cd "$obj" && eval "${cmd#ccache }") ;;
	*)		return 0 ;;
	esac
}

# The version string of an x86 boot image ($1), from its setup header:
# "RELEASE (USER@HOST) #N ... DATE", the setup code's copy of the banner,
# built outside the compressed payload, so always this build's. Nothing
# for a file without a setup header (no "HdrS" at 0x202).
vm_image_version()
{
	local image=$1 off

	[ "$(dd if="$image" bs=1 skip=$((0x202)) count=4 2>/dev/null)" = HdrS ] ||
		return 0
	off=$(od -An -tu2 -j $((0x20e)) -N2 "$image" | tr -d ' ')
	[ -n "$off" ] || return 0
	dd if="$image" bs=1 skip=$((off + 0x200)) count=256 2>/dev/null |
		tr '\0' '\n' | head -n 1
}

# Is the banner a kernel printed ($2, "... Linux version RELEASE (USER@HOST)
# (COMPILER) #N ... DATE") that of the image version $1? Its release and
# its "#N ... DATE" must both be the image's: a payload of another build
# (vm_fresh_payload) names another build number or date.
vm_banner_is()
{
	local version=$1 banner=$2 release=${1%% *} uts

	uts="#${version#*#}"
	[[ $version == *"#"* && $banner == *"Linux version $release "* &&
	   ${banner%"${banner##*[![:space:]]}"} == *" $uts" ]]
}

# Build $obj/arch/x86/boot/bzImage from $src; output goes to $log.
vm_make()
{
	local src=$1 obj=$2 log=$3

	mkdir -p "${log%/*}"
	vm_config "$src" "$obj" >"$log" 2>&1 &&
	vm_kmake -C "$src" O="$obj" -j"$(nproc)" bzImage >>"$log" 2>&1 &&
	vm_fresh_payload "$obj" >>"$log" 2>&1 &&
	vm_kmake -C "$src" O="$obj" -j"$(nproc)" bzImage >>"$log" 2>&1
}

# The first error in a build log, for a one-line message.
vm_make_error()
{
	local err

	err=$(grep -m1 -E 'error:|Error [0-9]|did not stick' "$1")
	echo "${err:-see the log}; log: $1"
}

# The cells of a suite's TAP (files "$@", else stdin), a "ROW CELL" line
# per test: CELL is pass, skip or fail:WORD (vm/rows.awk names the row,
# vm/tap2cells.awk reads the verdict).
vm_cells()
{
	awk -f "$VM_DIR/rows.awk" -f "$VM_DIR/tap2cells.awk" "$@"
}

# What a column's missing cells say, from how its run ended: "build" (the
# kernel did not build) or run-vm.sh's exit code.
vm_fill()
{
	case $1 in
	build)	echo fail:build ;;
	255)	echo fail:boot ;;
	254)	echo fail:crash ;;
	253)	echo fail:timeout ;;
	252)	echo fail:stale ;;
	*)	echo missing ;;
	esac
}

# --save FILE ($1, none when empty) writes a new file: saving onto the
# expected matrix (or any file) would lose it, and a matrix judged against
# itself always passes. Refused before anything runs.
vm_check_save()
{
	[ -z "$1" ] || [ ! -e "$1" ] || DIE_STATUS=2 die "--save $1: the file exists;" \
		"--save writes a new file (remove it first, or name another)"
	[ -z "$1" ] || [ -d "$(dirname "$1")" ] || DIE_STATUS=2 die "--save $1: no such directory"
}

# The guest's command for a front end, from the repo's top.
vm_front_cmd()
{
	case $1 in
	kselftest)	echo scripts/run-suite.sh ;;
	test_progs)	echo mk/test_progs-tap.sh ;;
	*)		die "unknown front end '$1' (kselftest, test_progs)" ;;
	esac
}

# run-vm.sh, run from the repo's top: the command's output on stdout, its
# exit code (tests/selftest.sh stands in for it here).
vm_boot()
{
	"$VM_DIR/run-vm.sh" -C "$VM_ROOT" "$@"
}

# vm_run_cells DIR NAME [run-vm.sh options] IMAGE -- COMMAND...: boot
# IMAGE, run COMMAND from the repo's top, and leave DIR/NAME.tap, .err
# (run-vm.sh's lines), .rc (its exit code), .cells, .fill and .whole
# (empty, or why the run is not all it had to say: vm_run_not_whole).
# Returns run-vm.sh's exit code.
vm_run_cells()
{
	local dir=$1 name=$2 rc

	shift 2
	vm_boot "$@" > "$dir/$name.tap" 2> "$dir/$name.err"
	rc=$?
	echo $rc > "$dir/$name.rc"
	vm_cells "$dir/$name.tap" > "$dir/$name.cells"
	vm_fill $rc > "$dir/$name.fill"
	vm_run_not_whole "$dir/$name.tap" $rc "$dir/$name.cells" > "$dir/$name.whole"
	return $rc
}

# run-vm.sh's own lines of a run (DIR/NAME.err), joined: boot and run times.
vm_run_times()
{
	sed -n 's/^vm: //p' "$1/$2.err" | paste -sd ';'
}

# The matrix of the columns "$@" from DIR ($1): their NAME.cells and
# NAME.fill files (vm/table.awk, vm/matrix.awk).
vm_matrix()
{
	local dir=$1 name fills

	shift
	fills=$(cd "$dir" && cat "${@/%/.fill}" | paste -sd ' ')
	for name in "$@"; do
		sed "s/^/$name /" "$dir/$name.cells"
	done | awk -v cols="$*" -v fills="$fills" \
		-f "$VM_DIR/table.awk" -f "$VM_DIR/matrix.awk"
}

# Wait until fewer than $1 background jobs run: up to N VMs at once.
vm_throttle()
{
	while [ "$(jobs -pr | wc -l)" -ge "$1" ]; do
		wait -n
	done
}

# " (killed by SIGNAME)" for an exit code above 128, the way a shell
# reports a process a signal killed; nothing for any other.
vm_signal_of()
{
	local sig

	[ "$1" -gt 128 ] 2>/dev/null && sig=$(kill -l $(($1 - 128)) 2>/dev/null) &&
		echo " (killed by SIG$sig)"
}

# Is a column's run all it had to say? Its TAP ($1), run-vm.sh's exit code
# ($2) and the column's cells ($3, from the TAP): nothing when the TAP is
# whole (vm/tap-plan.awk: its plan, every result, no "Bail out!") and the
# exit code says what the TAP says (0: no failure in it, 1: a failure);
# else one line saying what is wrong. Verdicts from a run cut off, or one
# whose exit code the TAP does not explain, are not all of its verdicts.
vm_run_not_whole()
{
	local tap=$1 rc=$2 cells=$3 why sig

	sig=$(vm_signal_of "$rc")
	if ! why=$(awk -f "$VM_DIR/tap-plan.awk" "$tap" 2>&1); then
		echo "the TAP is not whole (exit $rc$sig): $why"
		return
	fi
	case $rc in
	0)	grep -q ' fail:' "$cells" && echo "exit 0, but its TAP has a failure" ;;
	1)	grep -q ' fail:' "$cells" || echo "exit 1 (a failure), but its TAP shows none" ;;
	*)	echo "exit $rc$sig, not 0 or 1: its TAP is not all it had to say" ;;
	esac
	return 0
}

# The requested rows of -t options "$@" (-t ROW -t ROW ...), one a line.
vm_requested_rows()
{
	while [ $# -ge 2 ]; do
		[ "$1" = -t ] && echo "$2"
		shift 2
	done
}

# The options the front-end scripts share (vmtest-lts.sh, vmtest-distro.sh,
# check-lts.sh), into globals the scripts read: -t TEST (ARG_TESTS+=(-t
# TEST), repeatable), --front FRONT (ARG_FRONTS, default both), --line
# LINE (ARG_LINES, default every stable line), --kernel IMAGE (ARG_KERNEL).
# vm_parse_args "-t --front" "$@": the first word lists the options the
# script takes. Any other argument, or an option without its value, prints
# the usage; a front end or line that does not exist is one line, exit 1.
vm_parse_args()
{
	local accept=" $1 "

	shift
	ARG_TESTS=()
	ARG_FRONTS=()
	ARG_LINES=()
	ARG_KERNEL=
	while [ $# -gt 0 ]; do
		[[ $accept == *" $1 "* ]] && [ $# -ge 2 ] || usage
		case $1 in
		-t)		ARG_TESTS+=(-t "$2") ;;
		--front)	case $2 in
				kselftest|test_progs) ARG_FRONTS+=("$2") ;;
				*)	die "unknown front end '$2' (kselftest, test_progs)" ;;
				esac ;;
		--line)		line_known "$2" && [ "$2" != "$(line_first)" ] ||
					die "--line $2: the stable lines are $(lines_stable)"
				ARG_LINES+=("$2") ;;
		--kernel)	# shellcheck disable=SC2034 # read by check-lts.sh
				ARG_KERNEL=$2 ;;
		esac
		shift 2
	done
	[ ${#ARG_FRONTS[@]} -gt 0 ] || ARG_FRONTS=(kselftest test_progs)
	# shellcheck disable=SC2207 # the lines are words
	[ ${#ARG_LINES[@]} -gt 0 ] || ARG_LINES=($(lines_stable))
}
