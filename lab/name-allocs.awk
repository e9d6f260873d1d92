# name-allocs.awk - a lab trace of a kernel whose kmem_cache_alloc event has
# no name= (6.1): each event gets the name= of its cache from the kprobe
# line the guest recorded at the entry of the allocation function that
# ends with it (lab/guest/capture.sh), and the kprobe lines go.  The
# function and its event run in one task, and an allocation inside
# another (an interrupt's, on the same task's stack) ends before it: so
# each task keeps a stack of kprobe names, and an event takes its task's
# latest.  Counts to stderr:
#   named=N unnamed=N unmatched=N
# (unnamed: events whose task had no kprobe line waiting; unmatched:
# kprobe lines no event took).
function task_of(line) { # the "comm-PID" column's PID
	return match(line, /-[0-9]+ +\[[0-9]+\]/) ? substr(line, RSTART + 1, RLENGTH - 1) + 0 : -1
}
/: slabsim_kca[a-z_]*: / {
	t = task_of($0)
	s = $0
	if (!match(s, / name=[^ ]*/)) {
		next
	}
	s = substr(s, RSTART + 6, RLENGTH - 6)
	gsub(/"/, "", s)
	kname[t, ++depth[t]] = s
	next
}
/: kmem_cache_alloc: / && !/ name=/ {
	t = task_of($0)
	if (depth[t] > 0) {
		print $0 " name=" kname[t, depth[t]--]
		named++
	} else {
		print
		unnamed++
	}
	next
}
{ print }
END {
	for (t in depth)
		unmatched += depth[t]
	printf "named=%d unnamed=%d unmatched=%d\n", named, unnamed, unmatched > "/dev/stderr"
}
