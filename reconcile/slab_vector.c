/* slab_vector.c - see slab_vector.h. */
#include "slab_vector.h"

#include <string.h>

/* By era: 6.10+ free_slab_obj_exts() (inlined into __free_slab or
 * unaccount_slab), 5.9-6.9 memcg_free_slab_cgroups() /
 * memcg_free_page_obj_cgroups(), and free_slab for builds that inline
 * __free_slab. */
static const char *const vector_sites[] = {
	"__free_slab", "free_slab", "unaccount_slab", "free_slab_obj_exts",
	"memcg_free_slab_cgroups", "memcg_free_page_obj_cgroups",
};

static const char *const vector_alloc_sites[] = {
	"alloc_slab_obj_exts", "memcg_alloc_slab_cgroups", "memcg_alloc_page_obj_cgroups",
};

/* site's function is one of names[0..nr). */
static bool site_is(const char *site, const char *const *names, size_t nr)
{
	size_t n = site ? strcspn(site, "+") : 0;

	for (size_t i = 0; i < nr; i++)
		if (n == strlen(names[i]) && !strncmp(site, names[i], n))
			return true;
	return false;
}

bool ss_site_frees_slab_vector(const char *site)
{
	return site_is(site, vector_sites, sizeof(vector_sites) / sizeof(vector_sites[0]));
}

bool ss_site_allocs_slab_vector(const char *site)
{
	return site_is(site, vector_alloc_sites,
		       sizeof(vector_alloc_sites) / sizeof(vector_alloc_sites[0]));
}

bool ss_site_named(const char *site)
{
	return site && site[strspn(site, "0123456789abcdefABCDEFx")] != '\0';
}
