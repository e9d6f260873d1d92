/* rule_site_share.c - rule site-share: an unknown free at a call site
 * whose frees of objects the capture saw allocated the learn pass
 * counted: the n-th unknown free at the site goes to the place its
 * learned share says (largest remainder, deterministic: with 700
 * kmalloc-32 and 300 kmalloc-64 learned, the frees go 32, 64, 32, 32,
 * 64, ...).  A site that freed nothing the capture saw allocated teaches
 * nothing: the rule does not apply. */
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"

static int begin(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_rule_site_share *s = &x->rule.site_share;
	uint32_t nr = x->run->learned.sites.nr;

	if (!nr)
		return 0;
	s->seen = calloc(nr, sizeof(*s->seen));
	s->given = calloc(nr, sizeof(*s->given));
	if (!s->seen || !s->given)
		return ss_errorf(err, "out of memory");
	s->nr = nr;
	return 0;
}

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	struct ss_import_rule_site_share *ss = &x->rule.site_share;
	const struct ss_import_learned *l = &x->run->learned;
	uint32_t i = ss_strtab_find(&l->sites, rec->call_site), best = 0;
	const struct ss_import_site *s;
	double best_gap = 0;

	if (i == UINT32_MAX || i >= ss->nr || !l->site[i].total)
		return 0;
	s = &l->site[i];
	if (!ss->given[i] && !(ss->given[i] = calloc(s->nr, sizeof(*ss->given[i]))))
		return SS_IMPORT_BAD(x, err, "out of memory");
	ss->seen[i]++;
	for (uint32_t j = 0; j < s->nr; j++) {
		double gap = (double)s->c[j].n * (double)ss->seen[i] / (double)s->total -
			     (double)ss->given[i][j];

		if (!j || gap > best_gap) {
			best = j;
			best_gap = gap;
		}
	}
	ss->given[i][best]++;
	ss_import_place_decode(&x->run->places, s->c[best].key, d->name, &d->size, &d->gfp);
	d->slab = ss_import_slab_id(x, rec->ptr, s->c[best].key);
	d->verdict = SS_IMPORT_PRIOR;
	return 0;
}

static void end(struct ss_import_pass *x)
{
	struct ss_import_rule_site_share *s = &x->rule.site_share;

	for (uint32_t i = 0; i < s->nr; i++)
		free(s->given[i]);
	free(s->given);
	free(s->seen);
	memset(s, 0, sizeof(*s));
}

const struct ss_import_free_rule ss_import_rule_site_share = {
	.name = "site-share",
	.counter = "prior_frees",
	.unknown = true,
	.begin = begin,
	.decide = decide,
	.end = end,
};
