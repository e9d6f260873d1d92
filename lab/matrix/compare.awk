# compare.awk - one cell of make lab-matrix (docs/lab.md): the booted
# kernel B's change between its before- and after-counts beside slabsim's
# predicted change, per cache and in total.
#
#   awk -v cell=W,C -v rows=ROWS.csv -f compare.awk B/slab-after.txt \
#       B/slabinfo-before B/slabinfo-after MODEL_START MODEL_END [A/slabinfo-before \
#       [MODEL_PRIOR]]
#
# The slabinfo files are /proc/slabinfo 2.1 (the kernel's, and slabsim's
# runs/*/slabinfo.1-start, taken at the capture's start marker, and
# runs/*/slabinfo at the end).  A model cache is counted under the name B
# lists it under: B's snapshot maps every alias to its cache (a cache B
# merged is one row, as /proc/slabinfo shows it).  A cache the replay had
# not touched by the start marker is not in MODEL_START: its start is
# what the replay started it from, A's before-count (A/slabinfo-before),
# or where the replay laid it out in a geometry of its own (a what-if's
# order, a slub_debug layout: the run's prior.csv, MODEL_PRIOR, row with
# from_snapshot 0) the objects and slabs its initial state made
# (initial_objects, initial_slabs; counted in the last output field).
# objects are slabinfo's
# active_objs (what SLUB counts: slots less the free ones on node partial
# lists), slabs num_slabs, memory num_slabs x pagesperslab x 4 KiB.
# Rows (to ROWS) for every cache whose objects changed by 1,500 or more in
# B or in the model: WORK,CELL,cache,kernel_dobjects,model_dobjects,
# objects_error_pct,kernel_dslabs,model_dslabs,slabs_error_pct,within
# (objects within 10%, slabs within 15%).  stdout: one line,
# WORK,CELL,kernel_dslab_kb,model_dslab_kb,kernel_slab_kb_after,
# model_slab_kb_after,dslab_error_pct,total_error_pct,big,big_within,
# model_caches_not_in_B, model_starts_relaid: the model's total after is
# B's before-count plus the model's change (slabsim lists only the caches
# its trace touched).
BEGIN { FS = "[ \t]+"; file = 0 }
FNR == 1 { file++ }
file == 7 {
	# the run's prior.csv: cache,from_snapshot,...,initial_objects,initial_slabs
	n = split($0, f, ",")
	if (FNR == 1) { for (i = 1; i <= n; i++) pcol[f[i]] = i; next }
	if (("initial_slabs" in pcol) && f[pcol["from_snapshot"]] == 0 && f[pcol["initial_slabs"]] > 0) {
		own_obj[f[1]] = f[pcol["initial_objects"]]; own_slabs[f[1]] = f[pcol["initial_slabs"]]
	}
	next
}
file == 1 {
	# B's snapshot: cache=DIR name=NAME ..., alias=NAME target=DIR
	if ($1 ~ /^cache=/) {
		dir = substr($1, 7); nm = substr($2, 6)
		name_of[dir] = nm; canon[nm] = nm
	} else if ($1 ~ /^alias=/) {
		al[substr($1, 7)] = substr($2, 8)
	}
	next
}
/^slabinfo/ || /^#/ { next }
{
	n = $1; act = $2; slabs = $15; pages = $6
	if (file == 2) { kb_obj[n] = act; kb_slabs[n] = slabs; kmem0 += slabs * pages * 4 }
	else if (file == 3) { ka_obj[n] = act; ka_slabs[n] = slabs; kmem += slabs * pages * 4; kseen[n] = 1 }
	else if (file == 4) { mb_obj[n] = act; mb_slabs[n] = slabs; mmem0 += slabs * pages * 4; mseen[n] = 1 }
	else if (file == 5) { ma_obj[n] = act; ma_slabs[n] = slabs; mmem += slabs * pages * 4; mseen[n] = 1; m_per[n] = $5; m_pages[n] = pages }
	else if (file == 6) { a_obj[n] = act; a_slabs[n] = slabs; a_per[n] = $5 }
}
function bname(m) {
	if (m in canon) return m
	if ((m in al) && (al[m] in name_of)) return name_of[al[m]]
	return ""
}
function pct(model, kernel) {
	if (kernel == 0) return model == 0 ? "0.0" : "inf"
	return sprintf("%.1f", 100 * (model - kernel) / (kernel < 0 ? -kernel : kernel))
}
function abs(x) { return x < 0 ? -x : x }
END {
	for (m in ma_obj) {
		if ((m in mb_obj) || !(m in a_obj))
			continue
		if (m in own_slabs) {
			mb_obj[m] = own_obj[m]; mb_slabs[m] = own_slabs[m]; relaid++
		} else {
			mb_obj[m] = a_obj[m]; mb_slabs[m] = a_slabs[m]
		}
		mmem0 += mb_slabs[m] * m_pages[m] * 4
	}
	for (m in mseen) {
		b = bname(m)
		if (b == "") { notin++; continue }
		md_obj[b] += ma_obj[m] - mb_obj[m]
		md_slabs[b] += ma_slabs[m] - mb_slabs[m]
	}
	split(cell, wc, ",")
	for (n in kseen) {
		kd_obj = ka_obj[n] - kb_obj[n]
		kd_slabs = ka_slabs[n] - kb_slabs[n]
		if (abs(kd_obj) < 1500 && abs(md_obj[n]) < 1500)
			continue
		big++
		eo = pct(md_obj[n], kd_obj); es = pct(md_slabs[n], kd_slabs)
		ok = (eo != "inf" && abs(eo + 0) <= 10 && es != "inf" && abs(es + 0) <= 15) ? "yes" : "no"
		if (ok == "yes") big_ok++
		printf "%s,%s,%s,%d,%d,%s,%d,%d,%s,%s\n", wc[1], wc[2], n, kd_obj, md_obj[n], eo, kd_slabs, md_slabs[n], es, ok > rows
	}
	# the total: B's own before-count plus the change each side gives
	# (slabsim lists only the caches its trace touched)
	kd_mem = kmem - kmem0; md_mem = mmem - mmem0
	printf "%s,%s,%d,%d,%d,%s,%d,%s,%d,%d,%d,%d\n", wc[1], wc[2], kd_mem, md_mem, kmem, kmem0 + md_mem, pct(md_mem, kd_mem), pct(kmem0 + md_mem, kmem), big, big_ok, notin, relaid
}
