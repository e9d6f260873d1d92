/* waste_md.c - waste rankings by cache and by site (waste_md.h). */
#include "waste_md.h"

#include <stdbool.h>
#include <string.h>

#include "md_table.h"

#define KIB(b) ((double)(b) / 1024.0)

/* The run's label cells, and the alignment letters they need. */
static void label_head(struct ss_md_table *t, const struct ss_wastemd_run *runs)
{
	if (runs[0].variant)
		ss_mdtable_cell(t, "variant");
	ss_mdtable_cell(t, "model");
}

static void label_cells(struct ss_md_table *t, const struct ss_wastemd_run *r)
{
	if (r->variant)
		ss_mdtable_cell(t, "%s", r->variant);
	ss_mdtable_cell(t, "%s", r->model);
}

static void init(struct ss_md_table *t, const struct ss_wastemd_run *runs, const char *rest)
{
	char align[SS_MDTABLE_MAX_COLS + 1];

	snprintf(align, sizeof(align), "%s%s", runs[0].variant ? "ll" : "l", rest);
	ss_mdtable_init(t, align);
	label_head(t, runs);
}

int ss_wastemd_caches_table(FILE *fp, const struct ss_wastemd_run *runs, unsigned n,
		    unsigned top)
{
	static const char *const head[] = {
		"cache", "objects", "objsize", "requested", "rounding", "align",
		"debug", "free slots", "slab tail", "waste", "waste %", "Loss",
	};
	struct ss_md_table t;
	unsigned have = 0;

	for (unsigned i = 0; i < n; i++)
		have += runs[i].cc != NULL;
	if (!have) {
		fputs("No run has a caches.csv (runs written by an older slabsim).\n\n", fp);
		return 0;
	}
	init(&t, runs, "lrrrrrrrrrrr");
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		ss_mdtable_cell(&t, "%s", head[k]);
	for (unsigned i = 0; i < n; i++)
		for (size_t r = 0; runs[i].cc && r < runs[i].cc->n && r < top; r++) {
			const struct ss_compare_cache *c = &runs[i].cc->c[r];

			label_cells(&t, &runs[i]);
			ss_mdtable_cell(&t, "%s", c->name);
			ss_mdtable_cell(&t, "%llu", (unsigned long long)c->objects);
			ss_mdtable_cell(&t, "%llu", (unsigned long long)c->object_size);
			ss_mdtable_cell(&t, "%.1f", KIB(c->requested_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(c->rounding_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(c->align_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(c->debug_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(c->free_slot_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(c->lpadd_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(c->waste_bytes));
			ss_mdtable_cell(&t, "%.0f", c->space_bytes ? 100.0 * (double)c->waste_bytes /
							(double)c->space_bytes : 0.0);
			ss_mdtable_cell(&t, "%.1f", KIB(c->loss_bytes));
		}
	return ss_mdtable_print(fp, &t);
}

int ss_wastemd_sites_table(FILE *fp, const struct ss_wastemd_run *runs, unsigned n,
		   unsigned top)
{
	static const char *const head[] = {
		"site", "cache", "live (peak)", "allocs", "live requested",
		"rounding", "align", "debug", "waste", "rounding %",
	};
	struct ss_md_table t;
	bool any = false;
	unsigned have = 0;

	for (unsigned i = 0; i < n; i++)
		have += runs[i].ss != NULL;
	if (!have) {
		fputs("No run has a sites.csv (runs written by an older slabsim).\n\n", fp);
		return 0;
	}
	init(&t, runs, "llrrrrrrrr");
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		ss_mdtable_cell(&t, "%s", head[k]);
	for (unsigned i = 0; i < n; i++)
		for (size_t r = 0; runs[i].ss && r < runs[i].ss->n && r < top; r++) {
			const struct ss_compare_site *s = &runs[i].ss->s[r];

			if (s->waste_bytes <= 0)
				break;
			any = true;
			label_cells(&t, &runs[i]);
			ss_mdtable_cell(&t, "%s", s->site);
			ss_mdtable_cell(&t, "%s", s->cache);
			ss_mdtable_cell(&t, "%llu (%llu)", (unsigned long long)s->live_objects,
				 (unsigned long long)s->peak_live);
			ss_mdtable_cell(&t, "%llu", (unsigned long long)s->allocs);
			ss_mdtable_cell(&t, "%.1f", KIB(s->live_requested));
			ss_mdtable_cell(&t, "%.1f", KIB(s->rounding_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(s->align_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(s->debug_bytes));
			ss_mdtable_cell(&t, "%.1f", KIB(s->waste_bytes));
			ss_mdtable_cell(&t, "%.1f", s->allocated ? 100.0 - 100.0 * (double)s->requested /
								      (double)s->allocated : 0.0);
		}
	if (!any) {
		ss_mdtable_free(&t);
		fputs("No site holds padding or debug bytes in an object live at the end.\n\n", fp);
		return 0;
	}
	return ss_mdtable_print(fp, &t);
}
