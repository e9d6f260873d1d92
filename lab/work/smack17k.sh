# smack17k - the SMACK seed's load on a kernel with SMACK (make lab-kernel):
# the rules of /lab/in/rules.txt (`slabsim gen smack17k --write-rules`,
# load2 format, `#` lines skipped) written to smackfs's load2 as
# smackctl does (libsmack accesses_apply(): the file opened once, one
# rule per write(2), "%s %s %s" with the access padded to five characters
# with '-', no newline; docs/workloads/smack17k.md).  A rule the kernel
# refuses is counted and named on the console; the workload then fails.
[ -r /lab/in/rules.txt ] || { echo "smack17k: no /lab/in/rules.txt (make lab-smack gives it)" >&2; exit 1; }
grep -qw smackfs /proc/filesystems || { echo "smack17k: this kernel has no smackfs (CONFIG_SECURITY_SMACK)" >&2; exit 1; }
mkdir -p /sys/fs/smackfs
grep -q " /sys/fs/smackfs " /proc/mounts || mount -t smackfs smackfs /sys/fs/smackfs
exec 3> /sys/fs/smackfs/load2
n=0 bad=0
while read -r s o a _; do
	case $s in '#'* | '') continue ;; esac
	a5=$a-----
	if printf '%s %s %s' "$s" "$o" "${a5:0:5}" >&3 2> /dev/null; then
		n=$((n + 1))
	else
		bad=$((bad + 1))
		[ $bad -gt 3 ] || echo "smack17k: load2 refused '$s $o ${a5:0:5}'" >&2
	fi
done < /lab/in/rules.txt
exec 3>&-
echo "smack17k: $n rules written, $bad refused"
[ $bad = 0 ]
