/* slabsnap_cpufree.c - a trace's evidence of the CPU slabs' free slots,
 * added to a snapshot's caches (slabsnap.h, ss_snap_take_cpu_free). */
#include "slabsnap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* One item "CACHE:CPU:N[+]" (modified in place); the cache's name may
 * hold ':' itself, so CPU and N are the last two fields. */
static int take_item(struct ss_snap *s, char *item, unsigned *skipped, struct ss_error *err)
{
	char *n = strrchr(item, ':'), *cpu, orig[96];
	struct ss_snap_cache *c;
	unsigned v, k;
	bool atleast;

	snprintf(orig, sizeof(orig), "%s", item);
	if (!n || n == item)
		goto bad;
	*n++ = '\0';
	if (!(cpu = strrchr(item, ':')) || cpu == item)
		goto bad;
	*cpu++ = '\0';
	atleast = *n && n[strlen(n) - 1] == '+';
	if (atleast)
		n[strlen(n) - 1] = '\0';
	if (ss_parse_uint(cpu, SS_SNAP_MAX_CPUS - 1, &k) || ss_parse_uint(n, 1u << 30, &v))
		goto bad;
	/* another kernel's snapshot than the trace's (a what-if): what does
	 * not fit it is skipped */
	c = (struct ss_snap_cache *)ss_snap_find(s, item);
	if (!c || v > c->objs_per_slab) {
		++*skipped;
		return 0;
	}
	if (k >= c->nr_cpu_free) {
		uint32_t *a = realloc(c->cpu_free, (k + 1) * sizeof(*a));

		if (!a)
			return ss_errorf(err, "out of memory");
		for (unsigned i = c->nr_cpu_free; i <= k; i++)
			a[i] = SS_SNAP_FREE_UNKNOWN;
		c->cpu_free = a;
		c->nr_cpu_free = k + 1;
	}
	c->cpu_free[k] = v | (atleast ? SS_SNAP_FREE_ATLEAST : 0);
	return 0;
bad:
	return ss_errorf(err, "trace meta cpu_slab_free: bad item '%.80s' (CACHE:CPU:N or CACHE:CPU:N+)",
			 orig);
}

int ss_snap_take_cpu_free(struct ss_snap *s, const char *meta, unsigned *skipped,
			  struct ss_error *err)
{
	char *copy = strdup(meta), *save = NULL;
	int rc = 0;

	*skipped = 0;
	if (!copy)
		return ss_errorf(err, "out of memory");
	for (char *t = strtok_r(copy, " ", &save); t && !rc; t = strtok_r(NULL, " ", &save))
		rc = take_item(s, t, skipped, err);
	free(copy);
	return rc;
}
