# sysfs-slab - a copy of the guest's /sys/kernel/slab into the capture's
# extra/sys-kernel-slab/: every cache directory with the attribute files
# `slabsim validate --sys` and the snapshot reader use, and every alias
# symlink (a fixture of a kernel's caches, read by tests).  Bash builtins
# for the files: a fork per file would fill the trace.
d=$LAB_OUT/sys-kernel-slab
mkdir -p "$d"
cd /sys/kernel/slab || exit 1
dirs=() links=()
for c in *; do
	if [ -L "$c" ]; then links+=("$c"); else dirs+=("$d/$c"); fi
done
mkdir "${dirs[@]}"
# each alias and its target, one find for all
find . -mindepth 1 -maxdepth 1 -type l -printf '%f %l\n' > "$d/.links"
while read -r l t; do ln -s "${t##*/}" "$d/$l"; done < "$d/.links"
rm -f "$d/.links"
for dd in "${dirs[@]}"; do
	c=${dd##*/}
	for a in object_size slab_size objs_per_slab order align objects slabs total_objects \
		partial objects_partial cpu_slabs slabs_cpu_partial min_partial cpu_partial \
		sheaf_capacity ctor hwcache_align destroy_by_rcu reclaim_account cache_dma poison \
		red_zone store_user sanity_checks aliases; do
		[ -r "$c/$a" ] || continue
		IFS= read -r v < "$c/$a" || true
		printf '%s\n' "$v" > "$dd/$a"
	done
done
