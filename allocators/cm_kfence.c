/* cm_kfence.c - CONFIG_KFENCE (5.12+, mm/kfence/core.c) in the cache model.
 *
 * Every kfence.sample_interval ms (CONFIG_KFENCE_SAMPLE_INTERVAL, 100)
 * toggle_allocation_gate() opens the gate; the next slab allocation of at
 * most a page (slab_alloc_node() -> kfence_alloc()) then comes from the
 * KFENCE pool instead of its cache, and the timer waits another interval.
 * The pool is CONFIG_KFENCE_NUM_OBJECTS (255) objects, each on its own
 * page beside a guard page, plus one leading pair:
 * (255 + 1) * 2 * 4096 = 2 MiB, reserved at boot whether used or not.
 * It is reported as the cache "kfence": one page object and one guard
 * page per slot (the guard counts as debug bytes), so the footprint holds
 * the whole pool.  Clocks are per CPU: the gate opens for the first
 * allocation of any CPU whose clock has passed it.
 */
#include "cache_model_int.h"

#include <string.h>

bool ss_cm_kfence_wants(const struct ss_cmodel *m, unsigned cpu, uint64_t size)
{
	const struct ss_target *t = m->cfg.target;

	return size <= t->page_size && m->now_ns[cpu] >= m->kfence.next_ns &&
	       m->kfence.live < t->kc.kfence_objects;
}

int ss_cm_kfence_init(struct ss_cmodel *m, struct ss_error *err)
{
	struct ss_cache_spec spec = {.object_size = m->cfg.target->page_size};

	m->kfence.next_ns = m->cfg.target->kc.kfence_interval_ms * 1e6;
	m->kfence.cache = ss_cm_add_cache(m, "kfence", &spec, false, err);
	return m->kfence.cache < 0 ? -1 : 0;
}

void ss_cm_kfence_alloc(struct ss_cmodel *m, unsigned cpu, struct ss_obj *obj,
		     struct ss_op *op)
{
	struct ss_cm_kfence *k = &m->kfence;

	k->next_ns = m->now_ns[cpu] + m->cfg.target->kc.kfence_interval_ms * 1e6;
	k->live++;
	op->stats = k->stats;
	ss_step(op, SS_STEP_KFENCE_ALLOC, 1);
	obj->slab = NULL;
	obj->cache = (uint32_t)k->cache;
	obj->state = SS_OBJ_LIVE;
	obj->mflags |= SS_CM_KFENCE;
	m->caches[k->cache]->requested_live += obj->size;
}

void ss_cm_kfence_free(struct ss_cmodel *m, struct ss_obj *obj, struct ss_op *op)
{
	struct ss_cm_kfence *k = &m->kfence;

	k->live--;
	m->caches[k->cache]->requested_live -= obj->size;
	op->stats = k->stats;
	ss_step(op, SS_STEP_KFENCE_FREE, 1);
	if (obj->mflags & SS_CM_ACCOUNTED)
		ss_step(op, SS_STEP_MEMCG_UNCHARGE, 1);
}

void ss_cm_kfence_report(const struct ss_cmodel *m, struct ss_cache_report *r)
{
	const struct ss_target *t = m->cfg.target;
	uint64_t slots = t->kc.kfence_objects;

	*r = (struct ss_cache_report){
		.name = "kfence",
		.object_size = t->page_size,
		.slab_size = 2 * t->page_size,	/* the object's page and its guard */
		.size_nodebug = t->page_size,
		.objs_per_slab = 1,
		.order = 1,
		.live = m->kfence.live,
		.nr_slabs = slots,
		.total_objects = slots,
		.slab_bytes = (slots + 1) * 2 * t->page_size,
		.peak_slab_bytes = (slots + 1) * 2 * t->page_size,
		.node_partial_free = slots - m->kfence.live,
		.stats = m->kfence.stats,
	};
}
