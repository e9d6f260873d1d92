# trace-counts.awk - meta's counts of a trace (docs/capture.md, "meta"), as
# scripts/capture.sh writes them: lines, events, lost_markers, phases and
# events_EVENT, from the trace text.
/\[LOST [0-9]+ EVENTS\]/ {
	s = $0; sub(/.*\[LOST /, "", s); sub(/ .*/, "", s); lost += s; next
}
match($0, /\] [^ ]+ +[0-9]+\.[0-9]+: [a-z_0-9]+: /) {
	ev = substr($0, RSTART, RLENGTH); sub(/: $/, "", ev); sub(/.* /, "", ev)
	n[ev]++; events++
	# the name as slabsim import makes it: blanks become "_"
	if (ev == "tracing_mark_write" && match($0, /tracing_mark_write: slabsim-phase +[^ ]/)) {
		p = substr($0, RSTART + RLENGTH - 1)
		sub(/[ \t\r]+$/, "", p); gsub(/[ \t]/, "_", p)
		phases = phases (phases == "" ? "" : " ") p
	}
}
END {
	printf "lines=%d\nevents=%d\nlost_markers=%d\nphases=%s\n", NR, events, lost, phases
	for (e in n) printf "events_%s=%d\n", e, n[e]
}
