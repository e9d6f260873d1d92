/* registry.c - the allocator models, one row each. */
#include <string.h>

#include "model.h"
#include "placement.h"

static const struct ss_model_desc models[] = {
	{"traced", "each allocation where the traced kernel made it (kmalloc class or named cache)",
	 &ss_slub_model_ops, &ss_placement_traced, false},
	{"kmalloc-buckets", "every allocation in the kmalloc class of its size, named caches included",
	 &ss_slub_model_ops, &ss_placement_buckets, false},
	{"kmem_cache", "every fixed-size kmalloc site gets its own exact cache (SLUB merging applies)",
	 &ss_slub_model_ops, &ss_placement_kmem_cache, true},
};

unsigned ss_model_count(void)
{
	return sizeof(models) / sizeof(models[0]);
}

const struct ss_model_desc *ss_model_at(unsigned i)
{
	return i < ss_model_count() ? &models[i] : NULL;
}

const struct ss_model_desc *ss_model_find(const char *name)
{
	for (unsigned i = 0; i < ss_model_count(); i++)
		if (!strcmp(models[i].name, name))
			return &models[i];
	return NULL;
}
