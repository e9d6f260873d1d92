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

bool ss_site_frees_slab_vector(const char *site)
{
	size_t n = site ? strcspn(site, "+") : 0;

	for (size_t i = 0; i < sizeof(vector_sites) / sizeof(vector_sites[0]); i++)
		if (n == strlen(vector_sites[i]) && !strncmp(site, vector_sites[i], n))
			return true;
	return false;
}
