/* recon.c - a run's reconciliation (recon.h): the model's hooks, and the
 * prior frees and kernel slabs seen freed through the model's
 * initial-state interface (model_recon.h). */
#include "recon.h"

#include <stdlib.h>

#include "grow.h"
#include "model_recon.h"
#include "sheaf_start.h"
#include "slab_prior.h"

struct ss_recon {
	struct ss_recon_spec spec;
	struct ss_recon_hooks hooks;
	const struct ss_model_recon *mo; /* the model's interface; NULL: none */
	struct ss_model *model;
	/* every cache's state made, freed with the run's */
	struct ss_recon_cache **caches;
	uint32_t nr_caches, cap_caches;
	/* the slab bytes the initial state gave the caches it has loaded so
	 * far (ss_recon_initial_bytes) */
	uint64_t initial_bytes;
};

/* SLUB cache s's state, made empty on first use; NULL when out of memory. */
static struct ss_recon_cache *cache_of(struct ss_recon *r, struct ss_kcache *s)
{
	struct ss_recon_cache *rc;

	if (s->recon)
		return s->recon;
	if (r->nr_caches == r->cap_caches &&
	    ss_grow_zeroed((void **)&r->caches, &r->cap_caches, r->nr_caches,
			   sizeof(*r->caches), 32))
		return NULL;
	if (!(rc = ss_recon_cache_new(s, r->spec.draw_seed)))
		return NULL;
	rc->kernel = r->spec.kernel;
	r->caches[r->nr_caches++] = rc;
	return rc;
}

/* model_recon.h created: the kernel's cache of that name, if it had one. */
static int hook_created(void *ctx, const char *name, struct ss_kcache *s, bool *changed,
			struct ss_error *err)
{
	struct ss_recon *r = ctx;
	const struct ss_snap_cache *k = ss_snap_find(r->spec.initial, name);
	struct ss_recon_cache *rc;
	uint64_t before;

	if (!k)
		return 0;
	if (!(rc = cache_of(r, s)))
		return ss_errorf(err, "out of memory");
	before = s->slab_bytes;
	if (ss_recon_take_geometry(rc, k, err) || ss_recon_populate(rc, k, err))
		return -1;
	ss_recon_start_sheaves(rc, k);
	r->initial_bytes += s->slab_bytes - before;
	*changed = true;
	return 0;
}

/* model_recon.h joined: kname's objects packed into s's slabs. */
static int hook_joined(void *ctx, const char *kname, struct ss_kcache *s, bool *changed,
		       struct ss_error *err)
{
	struct ss_recon *r = ctx;
	const struct ss_snap_cache *k = ss_snap_find(r->spec.initial, kname);
	struct ss_recon_cache *rc;
	uint64_t before;

	if (!k)
		return 0;
	if (!(rc = cache_of(r, s)))
		return ss_errorf(err, "out of memory");
	before = s->slab_bytes;
	if (ss_recon_add_prior(rc, k, err))
		return -1;
	r->initial_bytes += s->slab_bytes - before;
	*changed = true;
	return 0;
}

/* model_recon.h grows: the initial objects are counted in s's
 * requested_live at object_size each (slab_prior.c push_prior; a prior
 * free takes that much off), so they grow with it, as sim/account.c's
 * regeometry() prices them; else frees of objects counted at the smaller
 * size and taken off at the larger would wrap requested_live. */
static void hook_grows(void *ctx, struct ss_kcache *s, unsigned object_size)
{
	const struct ss_recon_cache *rc = s->recon;

	(void)ctx;
	if (rc && object_size > s->geo.object_size)
		s->requested_live += rc->prior_live * (object_size - s->geo.object_size);
}

int ss_recon_create(struct ss_recon **out, const struct ss_recon_spec *spec,
		    struct ss_error *err)
{
	struct ss_recon *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return ss_errorf(err, "out of memory");
	r->spec = *spec;
	r->hooks = (struct ss_recon_hooks){.ctx = r, .created = hook_created,
					   .joined = hook_joined, .grows = hook_grows};
	*out = r;
	return 0;
}

const struct ss_recon_hooks *ss_recon_hooks(struct ss_recon *r)
{
	return r && r->spec.initial ? &r->hooks : NULL;
}

void ss_recon_bind(struct ss_recon *r, const struct ss_model_desc *desc, struct ss_model *m)
{
	r->mo = desc->ops->recon;
	r->model = m;
}

void ss_recon_destroy(struct ss_recon *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nr_caches; i++)
		ss_recon_cache_free(r->caches[i]);
	free(r->caches);
	free(r);
}

/* One initial object of model cache c (SLUB cache rc->s) out, as ki says
 * which; false when none was left. */
static bool take_one(struct ss_recon *r, struct ss_recon_cache *rc, uint32_t c, unsigned cpu,
		     const struct ss_kslab_info *ki, struct ss_op *op)
{
	struct ss_kcache *s = rc->s;
	struct ss_slab *sl = ss_recon_take_prior(rc, ki);

	if (!sl) /* (counted there: missing, or a listed slab's unseen) */
		return false;
	rc->prior_freed++;
	s->requested_live -= s->geo.object_size; /* as push_prior counted it */
	r->mo->free_on_slab(r->model, c, cpu, sl, op);
	return true;
}

int ss_recon_free_prior(struct ss_recon *r, const struct ss_event *ev, struct ss_op *op,
			uint32_t *cache, bool *took, struct ss_error *err)
{
	struct ss_kslab_info ki;
	struct ss_recon_cache *rc;
	struct ss_kcache *s;
	int c;

	*took = false;
	if (!r || !r->mo)
		return 0;
	if (r->mo->prior_cache(r->model, ev, op, &c, err))
		return -1;
	if (c < 0)
		return 0;
	/* set even when no object is left: with op->resync the replay reads
	 * the cache again (its route may have given it the kernel's) */
	*cache = (uint32_t)c;
	if (!(s = r->mo->slub_cache(r->model, (uint32_t)c, NULL)))
		return 0;
	if (!(rc = cache_of(r, s)))
		return ss_errorf(err, "out of memory");
	ss_prior_counts_about(r->spec.counts, ev, &ki);
	*took = take_one(r, rc, (uint32_t)c, ev->cpu, &ki, op);
	return 0;
}

int ss_recon_kslab_freed(struct ss_recon *r, const struct ss_event *ev, struct ss_op *op,
			 uint32_t *cache, uint32_t *taken, struct ss_error *err)
{
	struct ss_kslab_info ki;
	struct ss_recon_cache *rc;
	struct ss_kcache *s;
	uint32_t left, n = 0;
	bool sheaves = false;
	int c;

	*taken = 0;
	if (!r || !r->mo)
		return 0;
	/* found as the prior frees of its kernel slab, which came first,
	 * found and placed it */
	if (r->mo->prior_cache(r->model, ev, NULL, &c, err))
		return -1;
	if (c < 0)
		return 0;
	*cache = (uint32_t)c;
	if (!(s = r->mo->slub_cache(r->model, (uint32_t)c, &sheaves)) || !(rc = s->recon))
		return 0;
	ss_prior_counts_about(r->spec.counts, ev, &ki);
	/* (with sheaves the objects would go to a sheaf, not empty the slab) */
	left = sheaves ? 0 : ss_recon_kslab_left(rc, &ki);
	while (n < left && take_one(r, rc, (uint32_t)c, ev->cpu, &ki, op))
		n++;
	/* (taken above, put back: not freed) */
	rc->prior_freed -= ss_recon_prior_respread(rc, n);
	*taken = n;
	return 0;
}

bool ss_recon_has_initial(const struct ss_recon *r)
{
	return r && r->spec.initial;
}

uint64_t ss_recon_initial_bytes(const struct ss_recon *r)
{
	return r ? r->initial_bytes : 0;
}

/* Model cache c's state, or NULL when the initial state never touched it. */
static const struct ss_recon_cache *state_of(const struct ss_recon *r, uint32_t c)
{
	const struct ss_kcache *s;

	if (!r || !r->mo || !(s = r->mo->slub_cache(r->model, c, NULL)))
		return NULL;
	return s->recon;
}

void ss_recon_objects(const struct ss_recon *r, uint32_t cache, uint64_t *live,
		      uint64_t *freed)
{
	const struct ss_recon_cache *rc = state_of(r, cache);

	*live = rc ? rc->prior_live : 0;
	*freed = rc ? rc->prior_freed : 0;
}

bool ss_recon_report(const struct ss_recon *r, uint32_t cache, struct ss_recon_report *out)
{
	const struct ss_recon_cache *rc = state_of(r, cache);

	*out = (struct ss_recon_report){0};
	if (!rc)
		return false;
	ss_recon_cache_report(rc, out);
	return true;
}

void ss_recon_relaid(const struct ss_recon *r, uint32_t *relaid, uint32_t *kept)
{
	*relaid = *kept = 0;
	for (uint32_t i = 0; r && i < r->nr_caches; i++) {
		*relaid += r->caches[i]->relaid;
		*kept += r->caches[i]->relaid_not;
	}
}

const struct ss_target *ss_recon_kernel(const struct ss_recon *r)
{
	return r ? r->spec.kernel : NULL;
}
