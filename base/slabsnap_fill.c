/* slabsnap_fill.c - each cache's node partial slabs as the kernel listed
 * them (`slab-fill`, capture/slabfill.c), added to a snapshot's caches
 * (slabsnap.h, ss_snap_take_fill).  /sys/kernel/slab shows those slabs only
 * as a count and a sum; this file has each one's objects in use, in the
 * order get_partial_node() takes them. */
#include "slabsnap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL /* (header-only, as trace/trace_hash.c uses it) */
#include <xxhash.h>

#include "grow.h"

#define FILL_PAGE_SIZE 4096ull /* the slab's order counts these (x86_64) */

static int add_slab(struct ss_snap_cache *c, uint32_t inuse, uint64_t base, uint64_t page)
{
	uint32_t ci = c->cap_fill, cb = c->cap_fill, cp = c->cap_fill;

	/* (three arrays of one capacity: each grown from the same count) */
	if (ss_grow_zeroed((void **)&c->fill_inuse, &ci, c->nr_fill, sizeof(*c->fill_inuse), 16) ||
	    ss_grow_zeroed((void **)&c->fill_base, &cb, c->nr_fill, sizeof(*c->fill_base), 16) ||
	    ss_grow_zeroed((void **)&c->fill_page, &cp, c->nr_fill, sizeof(*c->fill_page), 16))
		return -1;
	c->cap_fill = ci;
	c->fill_page[c->nr_fill] = page;
	c->fill_inuse[c->nr_fill] = inuse;
	c->fill_base[c->nr_fill++] = base;
	return 0;
}

/* "n NODE SLAB FREE INUSE OBJECTS" into c (NULL: a cache skipped) */
static int slab_line(struct ss_snap_cache *c, char *line, const char *path,
		     unsigned long ln, struct ss_error *err)
{
	unsigned node, inuse, objects;
	unsigned long long slab, free_obj;
	int end = 0;

	if (sscanf(line, "n %u %llx %llx %u %u %n", &node, &slab, &free_obj, &inuse, &objects,
		   &end) != 5 || line[end])
		return ss_error_at(err, path, ln, "expected 'n NODE SLAB FREE INUSE OBJECTS'");
	if (!c)
		return 0;
	if (objects != c->objs_per_slab || inuse >= objects)
		return ss_error_at(err, path, ln,
				   "cache %s: a partial slab of %u objects with %u in use, where the "
				   "snapshot has %u objects per slab (another kernel's fill?)",
				   c->name, objects, inuse, c->objs_per_slab);
	if (add_slab(c, inuse, free_obj ? free_obj & ~((FILL_PAGE_SIZE << c->order) - 1) : 0, slab))
		return ss_errorf(err, "out of memory");
	return 0;
}

int ss_snap_take_fill(struct ss_snap *s, const char *path, uint64_t *hash,
		      unsigned *skipped, struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	XXH3_state_t *h = XXH3_createState();
	struct ss_snap_cache *c = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long ln = 0;
	bool in_cache = false;
	int rc = 0;

	if (!fp || !h) {
		rc = fp ? ss_errorf(err, "out of memory") : ss_error_at(err, path, 0, "%s", strerror(errno));
		goto out;
	}
	XXH3_64bits_reset(h);
	while ((len = getline(&line, &cap, fp)) > 0) {
		ln++;
		XXH3_64bits_update(h, line, (size_t)len);
		line[strcspn(line, "\r\n")] = '\0';
		if (ln == 1) {
			if (strncmp(line, "slabsim-slabfill 1", 18))
				rc = ss_error_at(err, path, ln, "not a slab-fill file (expected 'slabsim-slabfill 1')");
		} else if (!strncmp(line, "cache=", 6)) {
			c = (struct ss_snap_cache *)ss_snap_find(s, line + 6);
			in_cache = true;
			if (!c)
				++*skipped;
			else if (c->nr_fill)
				rc = ss_error_at(err, path, ln, "cache %s listed twice", line + 6);
		} else if (line[0] == 'n' && in_cache) {
			rc = slab_line(c, line, path, ln, err);
		} else if (line[0]) {
			rc = ss_error_at(err, path, ln, "unexpected line '%.60s'", line);
		}
		if (rc)
			goto out;
	}
	if (ferror(fp))
		rc = ss_error_at(err, path, ln, "read error");
	else if (!ln)
		rc = ss_error_at(err, path, 0, "empty file");
	*hash = XXH3_64bits_digest(h);
out:
	if (fp)
		fclose(fp);
	XXH3_freeState(h);
	free(line);
	return rc;
}
