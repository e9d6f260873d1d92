# sysfs-slab - a copy of the guest's /sys/kernel/slab into the capture's
# extra/sys-kernel-slab/: every cache directory with the attribute files
# `slabsim validate --sys` and the snapshot reader use, and every alias
# symlink (a fixture of a kernel's caches, read by tests).
d=$LAB_OUT/sys-kernel-slab
mkdir -p "$d"
for c in /sys/kernel/slab/*; do
	n=${c##*/}
	if [ -L "$c" ]; then
		ln -s "$(readlink "$c")" "$d/$n"
		continue
	fi
	mkdir "$d/$n"
	for a in object_size slab_size objs_per_slab order align objects slabs total_objects \
		partial objects_partial cpu_slabs slabs_cpu_partial min_partial cpu_partial \
		sheaf_capacity ctor hwcache_align destroy_by_rcu reclaim_account cache_dma poison \
		red_zone store_user sanity_checks aliases; do
		[ -r "$c/$a" ] && cat "$c/$a" > "$d/$n/$a" 2> /dev/null
	done
done
true
