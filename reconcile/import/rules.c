/* rules.c - the free rules, in the order the import asks them, and what
 * their verdicts do (README.md and docs/import.md, "The free rules").
 *
 * A free record goes down the table until a rule decides it.  The first
 * two are the capture's own frees; the others are for a pointer the
 * capture never saw allocated (unknown_frees): an object of the
 * before-snapshot's walk (dropped), one the kernel allocated in the window
 * without an event (replayed or dropped: untraced.c), or one from before
 * the capture (a prior free, `u`, at the place the rule names; the last
 * rule drops what no rule places).  A rule reads the pass's shared state
 * and its own (struct ss_import_rule_state), never another rule's.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "import_rules.h"

static const struct ss_import_free_rule *const free_rules[] = {
	&ss_import_rule_null,	      /* kfree(NULL) */
	&ss_import_rule_traced,	      /* an object the capture allocated */
	&ss_import_rule_walk,	      /* the before-snapshot walk's object */
	&ss_import_rule_again,	      /* a pointer freed again, no allocation between */
	&ss_import_rule_slab_pages,   /* on a page no slab held as tracing began */
	&ss_import_rule_free_objects, /* an object a listed slab had free then */
	&ss_import_rule_named,	      /* the cache the event names */
	&ss_import_rule_objext,	      /* a freed slab's obj_exts vector */
	&ss_import_rule_slab_owner,   /* the cache its slab held (learn pass) */
	&ss_import_rule_site_share,   /* where its call site's frees went */
	&ss_import_rule_unattributed, /* none of the above: dropped */
};
#define NR_FREE_RULES (sizeof(free_rules) / sizeof(free_rules[0]))
_Static_assert(NR_FREE_RULES <= SS_IMPORT_MAX_FREE_RULES, "rule_frees[] too small");

const char *ss_import_free_rule_name(unsigned i)
{
	return i < NR_FREE_RULES ? free_rules[i]->name : NULL;
}

const char *ss_import_free_rule_counter(unsigned i)
{
	return i < NR_FREE_RULES ? free_rules[i]->counter : NULL;
}

bool ss_import_rule_frees(const struct ss_import_totals *t, const char *name, uint64_t *n)
{
	for (size_t i = 0; i < NR_FREE_RULES; i++)
		if (!strcmp(free_rules[i]->name, name)) {
			*n = t->rule_frees[i];
			return true;
		}
	return false;
}

int ss_import_rules_begin(struct ss_import_pass *x, struct ss_error *err)
{
	for (size_t i = 0; i < NR_FREE_RULES; i++)
		if (free_rules[i]->begin && free_rules[i]->begin(x, err))
			return -1;
	return 0;
}

void ss_import_rules_end(struct ss_import_pass *x)
{
	for (size_t i = 0; i < NR_FREE_RULES; i++)
		if (free_rules[i]->end)
			free_rules[i]->end(x);
}

int ss_import_rules_note_alloc(struct ss_import_pass *x, const struct ss_kmem_rec *rec)
{
	for (size_t i = 0; i < NR_FREE_RULES; i++)
		if (free_rules[i]->note_alloc && free_rules[i]->note_alloc(x, rec))
			return -1;
	return 0;
}

void ss_import_rules_note_page_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec)
{
	for (size_t i = 0; i < NR_FREE_RULES; i++)
		if (free_rules[i]->note_page_free)
			free_rules[i]->note_page_free(x, rec);
}

/* One more free of cache `name` of an object allocated without an
 * event (meta untraced_allocs). */
static int count_again(struct ss_import_pass *x, const char *name)
{
	uint32_t i = ss_strtab_intern(&x->again, name);

	if (i == UINT32_MAX ||
	    (i >= x->cap_again &&
	     ss_grow_zeroed((void **)&x->again_n, &x->cap_again, i, sizeof(*x->again_n), 64)))
		return -1;
	x->again_n[i]++;
	return 0;
}

/* SS_IMPORT_UNTRACED: counted; a kmem_cache_free is replayed by the name
 * the trace declares the cache under (meta untraced_allocs is matched to
 * it), a kfree (no cache) dropped. */
static int untraced(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	char name[SS_IMPORT_CACHE_NAME];

	x->t->untraced_allocs++;
	if (!rec->name)
		return 0;
	ss_import_cache_name(&x->run->target, rec, name);
	if (count_again(x, name))
		return SS_IMPORT_BAD(x, err, "out of memory");
	return ss_import_untraced_free(x, rec, name, err);
}

/* SS_IMPORT_PRIOR: a prior free (`u`) at the place decided; a cache that
 * nothing gives a size cannot be declared, and the free is dropped as
 * unattributed. */
static int prior(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		 const struct ss_import_decision *d, struct ss_error *err)
{
	char site[SS_MAX_NAME + 1];
	uint64_t size = d->size;
	uint32_t api = SS_API_KMALLOC;

	if (d->name[0]) {
		switch (ss_import_cache_api_named(&x->caches, x->w, d->name,
						  ss_import_learned_first(&x->run->learned, d->name),
						  &api, err)) {
		case SS_IMPORT_CACHE_FOUND: break;
		case SS_IMPORT_CACHE_SIZELESS: x->t->prior_unattributed++; return 0;
		case SS_IMPORT_CACHE_FAILED: return ss_import_at_line(x, err);
		}
		size = 0;
	}
	ss_import_clean_name(rec->call_site, site);
	if (ss_trace_write_free_prior(x->w, rec->cpu, site, api, size, d->gfp, d->slab))
		return ss_trace_writer_failed(x->w, err);
	x->t->prior_frees++;
	x->t->events++;
	return 0;
}

/* What a verdict does.  A pointer freed as an object from before the
 * capture is remembered as freed (rule again), placed or not. */
static int act(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
	       const struct ss_import_decision *d, struct ss_error *err)
{
	switch (d->verdict) {
	case SS_IMPORT_UNTRACED:
		return untraced(x, rec, err);
	case SS_IMPORT_PRIOR:
	case SS_IMPORT_UNATTRIBUTED:
		if (!ss_ptrmap_insert(&x->dead, rec->ptr))
			return SS_IMPORT_BAD(x, err, "out of memory");
		if (d->verdict == SS_IMPORT_UNATTRIBUTED) {
			x->t->prior_unattributed++;
			return 0;
		}
		return prior(x, rec, d, err);
	default: /* SS_IMPORT_DONE */
		return 0;
	}
}

int ss_import_rules_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
			 struct ss_error *err)
{
	struct ss_import_decision d;
	size_t i;

	for (i = 0; i < NR_FREE_RULES; i++) {
		d.verdict = SS_IMPORT_NEXT;
		if (free_rules[i]->decide(x, rec, &d, err))
			return -1;
		if (d.verdict != SS_IMPORT_NEXT)
			break;
	}
	if (i == NR_FREE_RULES) /* (the last rule takes every free) */
		return SS_IMPORT_BAD(x, err, "no free rule took the record");
	x->t->rule_frees[i]++;
	x->t->unknown_frees += free_rules[i]->unknown;
	if (act(x, rec, &d, err))
		return -1;
	for (i = 0; i < NR_FREE_RULES; i++)
		if (free_rules[i]->note_free && free_rules[i]->note_free(x, rec))
			return SS_IMPORT_BAD(x, err, "out of memory");
	return 0;
}
