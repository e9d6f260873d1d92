#!/bin/bash
# progress.sh - progress of a make job made of many units (sensitivity
# settings, compare runs, sweep points, captures), told by the units as
# they finish, in whatever order and from parallel make jobs:
#
#   progress.sh start FILE LABEL TOTAL   a job of TOTAL units begins
#   progress.sh grow FILE N              N more units than said
#   progress.sh done FILE NAME [N]       unit NAME finished (N units: 1)
#   progress.sh end FILE                 the job is over: its time, FILE removed
#
# Each `done` prints, on stderr, the units finished of the total, the time
# so far and, from the mean time per unit, about how long is left: a line
# per unit, or on a terminal one line redrawn (a bar).  A unit told twice
# (a make rule run again with nothing to do) counts and prints once.  FILE holds the
# state; a job without `start` prints nothing.  Never fails its caller:
# progress is not a result.
set -u
cmd=${1:-}
file=${2:-}
[ -n "$cmd" ] && [ -n "$file" ] || { echo "usage: progress.sh start|done|end FILE ..." >&2; exit 0; }

now() { date +%s.%N; }
# seconds as "42 s" or "3 min 5 s"
human() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); if (s < 60) printf "%d s", s; else printf "%d min %d s", s / 60, s % 60 }'; }

case $cmd in
start)
	mkdir -p "$(dirname "$file")" 2>/dev/null || exit 0
	printf '%s %s %s\n' "$(now)" "${4:-0}" "${3:-job}" >"$file" 2>/dev/null
	exit 0 ;;
grow)
	[ -f "$file" ] || exit 0
	exec 9>>"$file" || exit 0
	flock 9 2>/dev/null
	printf '+ %s\n' "${3:-0}" >&9
	exit 0 ;;
done)
	[ -f "$file" ] || exit 0
	name=${3:-unit}
	n=${4:-1}
	exec 9>>"$file" || exit 0
	flock 9 2>/dev/null
	# (a unit told again says nothing: a make rule run again with
	# nothing to do)
	grep -q "^= $name " "$file" && exit 0
	printf '= %s %s\n' "$name" "$n" >&9
	read -r start total label <"$file"
	total=$(awk -v t="$total" '$1 == "+" { t += $2 } END { print t }' "$file")
	done_n=$(awk '$1 == "=" { n += $3 } END { print n + 0 }' "$file")
	el=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')
	left=$(awk -v e="$el" -v d="$done_n" -v t="$total" 'BEGIN { if (d > 0 && t > d) print e / d * (t - d); else print 0 }')
	msg="$label: $done_n of $total done ($name), $(human "$el")"
	[ "$done_n" -lt "$total" ] && msg="$msg, about $(human "$left") left"
	if [ -t 2 ]; then
		w=20
		f=$((total > 0 ? done_n * w / total : 0))
		[ $f -gt $w ] && f=$w
		bar=$(printf '%*s' "$f" '' | tr ' ' '#')$(printf '%*s' $((w - f)) '' | tr ' ' '-')
		printf '\r\033[K[%s] %s' "$bar" "$msg" >&2
	else
		printf '%s\n' "$msg" >&2
	fi
	exit 0 ;;
end)
	[ -f "$file" ] || exit 0
	read -r start total label <"$file"
	total=$(awk -v t="$total" '$1 == "+" { t += $2 } END { print t }' "$file")
	el=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')
	[ -t 2 ] && printf '\r\033[K' >&2
	printf '%s: %s units in %s\n' "$label" "$total" "$(human "$el")" >&2
	rm -f "$file"
	exit 0 ;;
*)
	echo "progress.sh: unknown command '$cmd'" >&2
	exit 0 ;;
esac
