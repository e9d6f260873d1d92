/* slabsnap_fill.c - each cache's partial and CPU slabs as the kernel
 * listed them (`slab-fill`, capture/slabfill.c), added to a snapshot's
 * caches (slabsnap.h, ss_snap_take_fill).  /sys/kernel/slab shows those
 * slabs only as counts and a sum; this file has each one's objects in
 * use, in the order get_partial_node() and the CPU partial list take
 * them. */
#include "slabsnap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL /* (header-only, as trace/trace_hash.c uses it) */
#include <xxhash.h>

#include "grow.h"

#define FILL_PAGE_SIZE 4096ull /* the slab's order counts these (x86_64) */

/* Version 3's last field: a hex digit per four objects (bit 0: the
 * lowest) into f, or "-" (not known).  Its length must be the objects';
 * bits that disagree with the line's counts (the lists are read without
 * their locks) leave the objects unknown.  -1: malformed. */
static int free_field(struct ss_snap_fill *f, const char *text, unsigned objects, int *len)
{
	unsigned n = 0, digits = (objects + 3) / 4, set = 0;

	*len = (int)strcspn(text, " ");
	if (!strcmp(text, "-"))
		return 0;
	if ((unsigned)*len != digits || objects > 64 * SS_FILL_FREE_WORDS)
		return -1;
	for (n = 0; n < digits; n++) {
		const char *d = strchr("0123456789abcdef", text[n]);
		uint64_t v;

		if (!d || !text[n])
			return -1;
		v = (uint64_t)(d - "0123456789abcdef");
		if (4 * n + 4 > objects && v >> (objects - 4 * n))
			return -1; /* a bit past the last object */
		f->free_bits[n / 16] |= v << (n % 16 * 4);
		set += (unsigned)__builtin_popcountll(v);
	}
	/* a listed partial slab's free objects are objects - inuse; an
	 * active slab's are its CPU freelist's and more (remote frees) */
	f->free_known = f->kind == SS_FILL_CPU ? f->cpu_free == SS_SNAP_FREE_UNKNOWN || set >= f->cpu_free
					       : set == objects - f->inuse;
	return 0;
}

/* "n NODE SLAB FREE INUSE OBJECTS", "c CPU SLAB FREE INUSE OBJECTS
 * CPUFREE" or "p CPU SLAB FREE INUSE OBJECTS", each followed by FREEBITS
 * in version 3, into c (NULL: a cache skipped).  Node partial slabs come
 * first: the trace's kernel slab ids number them before the CPU slabs. */
static int slab_line(struct ss_snap_cache *c, char *line, unsigned version, const char *path,
		     unsigned long ln, struct ss_error *err)
{
	static const char *const what[] = {
		[SS_FILL_NODE] = "n NODE SLAB FREE INUSE OBJECTS",
		[SS_FILL_CPU] = "c CPU SLAB FREE INUSE OBJECTS CPUFREE",
		[SS_FILL_CPU_PARTIAL] = "p CPU SLAB FREE INUSE OBJECTS",
	};
	struct ss_snap_fill f = {.cpu_free = SS_SNAP_FREE_UNKNOWN};
	unsigned where, inuse, objects, cpu_free;
	unsigned long long slab, free_obj;
	int end = 0, tail = 0;

	f.kind = line[0] == 'n' ? SS_FILL_NODE : line[0] == 'c' ? SS_FILL_CPU : SS_FILL_CPU_PARTIAL;
	if (f.kind != SS_FILL_NODE && version < 2)
		return ss_error_at(err, path, ln, "a CPU slab in a version 1 file");
	if (sscanf(line + 1, " %u %llx %llx %u %u %n", &where, &slab, &free_obj, &inuse, &objects,
		   &end) != 5)
		return ss_error_at(err, path, ln, "expected '%s'", what[f.kind]);
	if (f.kind == SS_FILL_CPU) {
		if (line[1 + end] == '-' && (!line[2 + end] || line[2 + end] == ' '))
			tail = 1;
		else if (sscanf(line + 1 + end, "%u%n", &cpu_free, &tail) == 1 && cpu_free <= objects)
			f.cpu_free = cpu_free;
		else
			tail = 0;
		if (!tail)
			return ss_error_at(err, path, ln, "expected '%s' (CPUFREE a count up to "
						    "OBJECTS, or -)", what[f.kind]);
	}
	f.inuse = inuse;
	if (version >= 3) {
		int len = 0;
		const char *rest = line + 1 + end + tail + (f.kind == SS_FILL_CPU);

		if ((f.kind == SS_FILL_CPU && line[1 + end + tail] != ' ') ||
		    free_field(&f, rest, objects, &len))
			return ss_error_at(err, path, ln, "expected '%s FREEBITS' (a hex digit per "
						      "4 objects, or -)", what[f.kind]);
		tail += len + (f.kind == SS_FILL_CPU);
	}
	if (line[1 + end + tail])
		return ss_error_at(err, path, ln, "expected '%s'", what[f.kind]);
	if (!c)
		return 0;
	if (f.kind == SS_FILL_NODE && c->nr_fill > c->nr_fill_node)
		return ss_error_at(err, path, ln, "cache %s: a node partial slab after a CPU slab",
				   c->name);
	/* an active slab may be full; a listed partial slab has a free slot
	 * (or had, a moment before: a CPU partial slab is read without its
	 * CPU's lock, and one filled since is taken as it is) */
	if (objects != c->objs_per_slab || inuse > objects ||
	    (inuse == objects && f.kind == SS_FILL_NODE) ||
	    (f.cpu_free != SS_SNAP_FREE_UNKNOWN && f.cpu_free > inuse))
		return ss_error_at(err, path, ln,
				   "cache %s: a slab of %u objects with %u in use%s, where the snapshot "
				   "has %u objects per slab (another kernel's fill?)",
				   c->name, objects, inuse,
				   f.kind == SS_FILL_NODE ? " on a partial list" : "", c->objs_per_slab);
	f.where = where;
	f.page = slab;
	f.base = free_obj ? free_obj & ~((FILL_PAGE_SIZE << c->order) - 1) : 0;
	if (ss_grow_zeroed((void **)&c->fill, &c->cap_fill, c->nr_fill, sizeof(*c->fill), 16))
		return ss_errorf(err, "out of memory");
	c->fill[c->nr_fill++] = f;
	c->nr_fill_node += f.kind == SS_FILL_NODE;
	return 0;
}

/* One count of an "s" line: a number, or "-" (no sheaf); *at moves past
 * it.  -1: malformed. */
static int sheaf_count(const char **at, uint32_t *v)
{
	unsigned long n;
	char *end;

	if (**at != ' ')
		return -1;
	++*at;
	if (**at == '-' && ((*at)[1] == ' ' || !(*at)[1])) {
		*v = SS_SNAP_NO_SHEAF;
		++*at;
		return 0;
	}
	if (**at < '0' || **at > '9')
		return -1;
	n = strtoul(*at, &end, 10);
	if (n >= SS_SNAP_NO_SHEAF)
		return -1;
	*v = (uint32_t)n;
	*at = end;
	return 0;
}

/* Version 4: "s CPU MAIN SPARE RCU" (a CPU's sheaves) or "b NODE FULL
 * EMPTY OBJECTS" (a node's barn; OBJECTS "-" when not read) into c (NULL:
 * a cache skipped).  A count above the cache's capacity, a CPU or node
 * listed twice, is an error. */
static int sheaf_line(struct ss_snap_cache *c, const char *line, unsigned version,
		      const char *path, unsigned long ln, struct ss_error *err)
{
	const bool pcs = line[0] == 's';
	const char *at = line + 1;
	uint32_t where, v[3];
	unsigned long w;
	char *end;

	if (version < 4)
		return ss_error_at(err, path, ln, "a sheaves line in a version %u file", version);
	w = strtoul(at + (*at == ' '), &end, 10);
	at = end;
	if (line[1] != ' ' || line[2] < '0' || line[2] > '9' || w >= 1u << 20 || sheaf_count(&at, &v[0]) ||
	    sheaf_count(&at, &v[1]) || sheaf_count(&at, &v[2]) || *at ||
	    (!pcs && (v[0] == SS_SNAP_NO_SHEAF || v[1] == SS_SNAP_NO_SHEAF)))
		return ss_error_at(err, path, ln, "expected '%s'",
				   pcs ? "s CPU MAIN SPARE RCU (counts, or -)"
				       : "b NODE FULL EMPTY OBJECTS (OBJECTS a count, or -)");
	where = (uint32_t)w;
	if (!c)
		return 0;
	for (unsigned i = 0; pcs && c->sheaf_capacity && i < 3; i++)
		if (v[i] != SS_SNAP_NO_SHEAF && v[i] > c->sheaf_capacity)
			return ss_error_at(err, path, ln, "cache %s: a sheaf of %u objects, above its "
						      "capacity %u (another kernel's fill?)",
					   c->name, v[i], c->sheaf_capacity);
	if (!pcs && v[2] != SS_SNAP_NO_SHEAF && c->sheaf_capacity &&
	    v[2] > (uint64_t)v[0] * c->sheaf_capacity)
		return ss_error_at(err, path, ln, "cache %s: %u objects in %u full sheaves of %u",
				   c->name, v[2], v[0], c->sheaf_capacity);
	if (pcs) {
		if (ss_grow_zeroed((void **)&c->pcs, &c->nr_pcs, where, sizeof(*c->pcs), 4))
			return ss_errorf(err, "out of memory");
		if (c->pcs[where].listed)
			return ss_error_at(err, path, ln, "cache %s: CPU %u listed twice", c->name, where);
		c->pcs[where] = (struct ss_snap_pcs){v[0], v[1], v[2], true};
	} else {
		if (ss_grow_zeroed((void **)&c->barns, &c->nr_barns, where, sizeof(*c->barns), 4))
			return ss_errorf(err, "out of memory");
		if (c->barns[where].listed)
			return ss_error_at(err, path, ln, "cache %s: node %u listed twice", c->name, where);
		c->barns[where] = (struct ss_snap_barn){v[0], v[1], v[2], true};
	}
	c->have_sheaves = true;
	return 0;
}

uint64_t ss_snap_sheaf_objects(const struct ss_snap_cache *c, bool *unknown)
{
	uint64_t n = 0;

	*unknown = false;
	for (uint32_t i = 0; i < c->nr_pcs; i++) {
		const struct ss_snap_pcs *p = &c->pcs[i];

		if (!p->listed)
			continue;
		n += (p->main != SS_SNAP_NO_SHEAF ? p->main : 0) +
		     (p->spare != SS_SNAP_NO_SHEAF ? p->spare : 0) +
		     (p->rcu != SS_SNAP_NO_SHEAF ? p->rcu : 0);
	}
	for (uint32_t i = 0; i < c->nr_barns; i++) {
		if (!c->barns[i].listed)
			continue;
		if (c->barns[i].objects == SS_SNAP_NO_SHEAF)
			*unknown = true;
		else
			n += c->barns[i].objects;
	}
	return n;
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
	unsigned version = 0;
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
			if (sscanf(line, "slabsim-slabfill %u", &version) != 1 || version < 1 ||
			    version > 4)
				rc = ss_error_at(err, path, ln, "not a slab-fill file (expected "
							      "'slabsim-slabfill 1' to '4')");
		} else if (!strncmp(line, "cache=", 6)) {
			c = (struct ss_snap_cache *)ss_snap_find(s, line + 6);
			in_cache = true;
			if (!c)
				++*skipped;
			else if (c->nr_fill)
				rc = ss_error_at(err, path, ln, "cache %s listed twice", line + 6);
			else if (version >= 2)
				c->fill_cpus = true;
		} else if ((line[0] == 'n' || line[0] == 'c' || line[0] == 'p') && line[1] == ' ' &&
			   in_cache) {
			rc = slab_line(c, line, version, path, ln, err);
		} else if ((line[0] == 's' || line[0] == 'b') && line[1] == ' ' && in_cache) {
			rc = sheaf_line(c, line, version, path, ln, err);
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
