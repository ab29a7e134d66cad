# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # observe, suite_cmd, STOP: bisect-run.sh's
#
# vm/bisect-run.sh --observe ROW:OBSERVER=VALUE: bisect on one observation
# of the suite's records, not on the verdict (docs/compare.md, "Bisecting
# on one observation", gives the answers). bisect-run.sh sources this
# after parsing its options: it runs ROW alone through
# vm/records-guest.sh and answers from the records.

observe_row=${observe%%:*}
observe_what=${observe#*:}
observe_value=${observe_what#*=}
observe_what=${observe_what%%=*}
if [ "$observe_row" = "$observe" ] || [ "$observe_value" = "${observe#*:}" ] ||
   [ -z "$observe_row" ] || [ -z "$observe_what" ] || [ -z "$observe_value" ]; then
	log "--observe $observe: ROW:OBSERVER=VALUE, e.g. root_qdisc_mirred_solo.ipv4:model.peer=1,1,1,1,1"
	exit "$STOP"
fi
[ ${#suite_args[@]} -eq 0 ] || { log "--observe runs its own row: no -t"; exit "$STOP"; }
suite_cmd=("$VM_DIR/records-guest.sh" "$VM_SUITE")
suite_args=("$observe_row")

# The observation in a run's output ($1): "value V", "cut", "skip N
# STATUS", "absent OBSERVERS...", "norow" (no line of ROW) or "none" (no
# records).
observe_in()
{
	awk -F'\t' -v row="$observe_row" -v what="$observe_what" '
		/^TSE-RECORDS-BEGIN / { on = 1; next }
		/^TSE-RECORDS-END$/ { on = 0; done = 1; next }
		!on || $1 != row { next }
		{ any = 1 }
		$2 == ".end" { ended = 1; n = $3; status = $4; next }
		{
			site = $2
			sub(/^[^:]*:/, "", site)
			seen = seen " " site
			if (site == what)
				value = $7 != "-" ? $7 : $4
		}
		END {
			if (!done)
				print "none"
			else if (!any)
				print "norow"
			else if (!ended)
				print "cut"
			else if (value != "")
				print "value " value
			else if (seen == "")
				print "skip " n " " status
			else
				print "absent" seen
		}' "$1"
}

# ROW's verdict in the run's TAP ($1): pass, skip, fail:WORD or nothing.
observe_cell()
{
	vm_cells "$1" | awk -v r="$observe_row" '$1 == r { print $2 }'
}

# bisect-run.sh's answer, from the observation instead of the verdicts.
answer()
{
	local out=$1 rc=$2 got

	answer_rc "$rc"
	got=$(observe_in "$out") || verdict skip "cannot read $out"
	case $got in
	value\ "$observe_value")
		verdict good "$observe_row $observe_what = $observe_value" ;;
	value\ *)
		verdict bad "$observe_row $observe_what = ${got#value }, good is $observe_value" ;;
	none)	verdict skip "no records: the run was cut off (exit $rc)" ;;
	norow)	got=$(observe_cell "$out")
		verdict skip "$observe_row not in the records (its TAP: ${got:-no verdict})" ;;
	cut)	verdict skip "$observe_row cut short: no .end in its records" ;;
	skip\ *)
		verdict skip "$observe_row has no observations (.end ${got#skip })" ;;
	absent*)
		log "$observe_row has no observer $observe_what; it has:${got#absent}"
		exit "$STOP" ;;
	esac
}
