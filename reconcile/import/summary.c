/* summary.c - what `slabsim import` prints (perf kmem stat's summary,
 * then what the import repaired) and its --totals CSV (docs/import.md,
 * "Totals"). */
#include "atomic_file.h"
#include "import_rules.h"

double ss_import_frag_pct(const struct ss_import_totals *t)
{
	if (!t->bytes_alloc)
		return 0.0;
	return 100.0 - 100.0 * (double)t->bytes_req / (double)t->bytes_alloc;
}

/* The kmem event records read: allocations, and frees as the free rules
 * took them (null, traced and unknown pointers). */
static uint64_t kmem_records(const struct ss_import_totals *t)
{
	return t->allocs + t->null_frees + t->frees + t->unknown_frees;
}

/* Each free rule's decisions, in the order the import asks them
 * (rules.c): every free record is counted by exactly one rule. */
static void print_rules(FILE *out, const struct ss_import_totals *t)
{
	const char *name;

	fputs("Free rules, in order (records each decided):", out);
	for (unsigned i = 0; (name = ss_import_free_rule_name(i)); i++)
		fprintf(out, "%s %s %llu", i ? "," : "", name, (unsigned long long)t->rule_frees[i]);
	fputc('\n', out);
}

void ss_import_print(FILE *out, const struct ss_import_totals *t)
{
	fprintf(out, "SUMMARY (SLAB allocator)\n========================\n");
	fprintf(out, "Total bytes requested: %llu\n", (unsigned long long)t->bytes_req);
	fprintf(out, "Total bytes allocated: %llu\n", (unsigned long long)t->bytes_alloc);
	fprintf(out, "Total bytes freed:     %llu\n", (unsigned long long)t->bytes_freed);
	if (t->bytes_alloc > t->bytes_freed)
		fprintf(out, "Net total bytes allocated: %llu\n",
			(unsigned long long)(t->bytes_alloc - t->bytes_freed));
	/* no wrap: every record has bytes_req <= bytes_alloc (payload()) */
	fprintf(out, "Total bytes wasted on internal fragmentation: %llu\n",
		(unsigned long long)(t->bytes_alloc - t->bytes_req));
	fprintf(out, "Internal fragmentation: %f%%\n", ss_import_frag_pct(t));
	fprintf(out, "Cross CPU frees (ping-pong): %llu/%llu\n",
		(unsigned long long)t->cross_cpu_frees, (unsigned long long)t->frees);
	fprintf(out, "\nIMPORT\n======\n");
	fprintf(out, "Lines read: %llu (%llu other events, %llu not events)\n",
		(unsigned long long)t->lines, (unsigned long long)t->other_events,
		(unsigned long long)t->skipped_lines);
	fprintf(out, "Events written: %llu (%llu allocs, %llu frees), CPUs 0-%u, %llu caches declared\n",
		(unsigned long long)t->events, (unsigned long long)(t->allocs - t->failed_allocs),
		(unsigned long long)t->frees, t->max_cpu, (unsigned long long)t->caches);
	if (t->tool_counted)
		fprintf(out, "Events of the capture tool's own processes (--tool-pids): %llu of %llu (%.2f%%), "
			     "replayed like the others\n", (unsigned long long)t->tool_events,
			(unsigned long long)kmem_records(t),
			kmem_records(t) ? 100.0 * (double)t->tool_events / (double)kmem_records(t) : 0.0);
	fprintf(out, "Frees of unknown pointers: %llu (%llu written as prior frees, %llu of an unknown cache skipped,\n"
		     "  %llu of an object allocated without an event)\n",
		(unsigned long long)t->unknown_frees, (unsigned long long)t->prior_frees,
		(unsigned long long)t->prior_unattributed, (unsigned long long)t->untraced_allocs);
	if (t->untraced_allocs)
		fprintf(out, "  (%llu of those replayed: an allocation written where the trace places it,\n"
			     "  %llu after their slab's last traced allocation; the rest dropped)\n",
			(unsigned long long)t->untraced_placed, (unsigned long long)t->untraced_anchored);
	if (t->slab_pages_used)
		fprintf(out, "  (%llu of those on pages no slab held as tracing began: slab-pages)\n",
			(unsigned long long)t->new_slab_frees);
	else if (t->slab_pages_why)
		fprintf(out, "  (the slab-pages file not used: %s)\n", t->slab_pages_why);
	if (t->free_slots_used)
		fprintf(out, "  (%llu of those of objects a listed slab had free as tracing began: "
			     "free-objects)\n", (unsigned long long)t->free_slot_frees);
	if (t->walk_allocs)
		fprintf(out, "  (%llu of them the before-snapshot walk's objects, of %llu it allocated: skipped)\n",
			(unsigned long long)t->walk_frees, (unsigned long long)t->walk_allocs);
	if (t->listed_frees)
		fprintf(out, "  (%llu unknown kfree()s on slabs the slab-fill listed and no event had named: "
			     "the listed cache's)\n", (unsigned long long)t->listed_frees);
	if (t->vector_frees)
		fprintf(out, "  (%llu freed slabs' obj_exts vectors after a kfree() of an object the capture "
			     "saw allocated: its cache's objects per slab x %u)\n",
			(unsigned long long)t->vector_frees, SS_OBJEXT_BYTES);
	if (t->stride_frees)
		fprintf(out, "  (%llu unknown kfree()s placed by their offsets in %llu slabs: the stride rule)\n",
			(unsigned long long)t->stride_frees, (unsigned long long)t->stride_slabs);
	fprintf(out, "kfree(NULL) (skipped): %llu\n", (unsigned long long)t->null_frees);
	fprintf(out, "Allocations of a live pointer (lost free, old object freed): %llu\n",
		(unsigned long long)t->realloc_live);
	fprintf(out, "Failed allocations (ptr 0, skipped): %llu\n", (unsigned long long)t->failed_allocs);
	fprintf(out, "Lost events: %llu reported by [LOST] markers, %llu overwritten in the ring buffer\n",
		(unsigned long long)t->lost_events, (unsigned long long)t->overwritten);
	fprintf(out, "Live at end: %llu objects (peak %llu)\n", (unsigned long long)t->live_at_end,
		(unsigned long long)t->peak_live);
	fprintf(out, "kmalloc records whose bytes_alloc is not the target's class: %llu\n",
		(unsigned long long)t->kmalloc_class_mismatch);
	fprintf(out, "Caches whose traced stride the target's rules do not reproduce: %llu\n",
		(unsigned long long)t->geometry_mismatch);
	fprintf(out, "Phase markers (slabsim-phase): %llu\n", (unsigned long long)t->phases);
	if (t->page_frees && t->page_base_found) {
		fprintf(out, "Page frees (mm_page_free): %llu, of them %llu kernel slabs prior frees named (slab freed events)\n",
			(unsigned long long)t->page_frees, (unsigned long long)t->kslabs_freed);
		if (t->page_base_from_fill)
			fprintf(out, "  (the direct map at %#llx, from the slab-fill's slabs and the page "
				     "frees' struct pages", (unsigned long long)t->page_base);
		if (t->page_base_from_fill && t->page_votes_wrong)
			fprintf(out, "; the frees-then-page-free votes had put it at %#llx",
				(unsigned long long)t->page_votes_base);
		if (t->page_base_from_fill)
			fputs(")\n", out);
	} else if (t->page_frees)
		fprintf(out, "Page frees (mm_page_free): %llu, not used: no direct-map base found (hashed pointers, or too few frees right before a page free)\n",
			(unsigned long long)t->page_frees);
	if (t->no_cpu_lines)
		fprintf(out, "Events without a [CPU] column (put on CPU 0): %llu\n",
			(unsigned long long)t->no_cpu_lines);
	print_rules(out, t);
}

int ss_import_write_totals(const char *path, const struct ss_import_totals *t,
			   struct ss_error *err)
{
	struct ss_atomic_file f;

	char tool[24] = ""; /* empty: not counted (no --tool-pids) */

	if (t->tool_counted)
		snprintf(tool, sizeof(tool), "%llu", (unsigned long long)t->tool_events);
	if (ss_atomic_open(&f, path, err))
		return -1;
	fprintf(f.fp, "lines,events,allocs,frees,bytes_requested,bytes_allocated,bytes_freed,"
		      "internal_fragmentation_pct,cross_cpu_frees,unknown_frees,null_frees,"
		      "realloc_live,failed_allocs,lost_events,overwritten_events,other_events,"
		      "skipped_lines,live_at_end,peak_live,max_cpu,caches,"
		      "kmalloc_class_mismatch,geometry_mismatch,phases,prior_frees,prior_unattributed,"
		      "untraced_allocs,walk_allocs,walk_frees,page_frees,kslabs_freed,untraced_placed,"
		      "tool_events");
	/* then one column per free rule, rule_NAME, in the table's order */
	for (unsigned i = 0; ss_import_free_rule_name(i); i++)
		fprintf(f.fp, ",rule_%s", ss_import_free_rule_name(i));
	fputc('\n', f.fp);
	fprintf(f.fp, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
		      "%llu,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s",
		(unsigned long long)t->lines, (unsigned long long)t->events,
		(unsigned long long)t->allocs, (unsigned long long)t->frees,
		(unsigned long long)t->bytes_req, (unsigned long long)t->bytes_alloc,
		(unsigned long long)t->bytes_freed, ss_import_frag_pct(t),
		(unsigned long long)t->cross_cpu_frees, (unsigned long long)t->unknown_frees,
		(unsigned long long)t->null_frees, (unsigned long long)t->realloc_live,
		(unsigned long long)t->failed_allocs, (unsigned long long)t->lost_events,
		(unsigned long long)t->overwritten, (unsigned long long)t->other_events,
		(unsigned long long)t->skipped_lines, (unsigned long long)t->live_at_end,
		(unsigned long long)t->peak_live, t->max_cpu, (unsigned long long)t->caches,
		(unsigned long long)t->kmalloc_class_mismatch,
		(unsigned long long)t->geometry_mismatch, (unsigned long long)t->phases,
		(unsigned long long)t->prior_frees, (unsigned long long)t->prior_unattributed,
		(unsigned long long)t->untraced_allocs, (unsigned long long)t->walk_allocs,
		(unsigned long long)t->walk_frees, (unsigned long long)t->page_frees,
		(unsigned long long)t->kslabs_freed, (unsigned long long)t->untraced_placed,
		tool);
	for (unsigned i = 0; ss_import_free_rule_name(i); i++)
		fprintf(f.fp, ",%llu", (unsigned long long)t->rule_frees[i]);
	fputc('\n', f.fp);
	return ss_atomic_commit(&f, err);
}
