/* cmd_geometry.c - `slabsim geometry`: the SLUB layout of one cache. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "geometry.h"
#include "kmalloc.h"
#include "opts.h"
#include "parse.h"
#include "slab_order.h"
#include "target.h"

enum { O_TARGET, O_SIZE, O_ALIGN, O_HWCACHE, O_RCU, O_CTOR, O_FREEPTR,
       O_KMALLOC, O_DEBUG, O_CPUS, O_ERA, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_TARGET] = {"target", NULL, "T", "target name (allocators/targets/T.target) or a\n"
		"path containing '/' (required)"},
	[O_SIZE] = {"size", NULL, "S", "object size in bytes; with --kmalloc the request\n"
		"size (required)"},
	[O_ALIGN] = {"align", NULL, "A", "align argument of kmem_cache_create(), a power of\n"
		"two (default 0 = none)"},
	[O_HWCACHE] = {"hwcache", NULL, NULL, "SLAB_HWCACHE_ALIGN"},
	[O_RCU] = {"rcu", NULL, NULL, "SLAB_TYPESAFE_BY_RCU (SLAB_DESTROY_BY_RCU)"},
	[O_CTOR] = {"ctor", NULL, NULL, "the cache has a constructor"},
	[O_FREEPTR] = {"freeptr", NULL, "OFF", "explicit free pointer offset (kmem_cache_args\n"
		".freeptr_offset, 6.12+); needs --rcu"},
	[O_KMALLOC] = {"kmalloc", NULL, NULL, "use the kmalloc cache a request of --size bytes\n"
		"goes to; also prints request= and cache= (cache=zero\n"
		"for 0; above KMALLOC_MAX_CACHE_SIZE cache=kmalloc_large,\n"
		"the page order, and result=NULL with a warning above\n"
		"the largest order the page allocator serves)"},
	[O_DEBUG] = {"debug", NULL, "LETTERS", "slub_debug letters F Z P U T O; \"\" = FZPU,\n"
		"\"-\" = none (default none)"},
	[O_CPUS] = {"cpus", NULL, "N", "CPU count instead of the target's (1..8192)"},
	[O_ERA] = {"era", NULL, "E", "kernel era instead of the target's (e.g. 3.10, 6.1)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"geometry", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim geometry --target T --size S [OPTIONS]\n"
		"\n"
		"Print the SLUB layout of one cache (calculate_sizes() and\n"
		"calculate_order() of the target's era) as key=value lines:\n"
		"target era cpus object_size slab_size align inuse offset\n"
		"red_left_pad order objs_per_slab slab_bytes min_partial cpu_partial\n"
		"cpu_partial_slabs debug size_nodebug min_order min_objects flags, and\n"
		"from 7.0 sheaf_capacity (calculate_sheaf_capacity(), no request:\n"
		"docs/sheaves.md).\n"
		"flags: A SLAB_HWCACHE_ALIGN (slabinfo's letter), R SLAB_TYPESAFE_BY_RCU,\n"
		"C a constructor, K a kmalloc cache, E an explicit free pointer offset\n"
		"(slabinfo has no letter for these), - none; debug: the slub_debug letters.\n"
		"\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit status: 0 ok, 1 bad target or impossible cache, 2 bad usage.\n");
}

struct geo_opts {
	const char *target;
	const char *debug;
	const char *era;
	uint64_t size;
	unsigned align, cpus, freeptr;
	unsigned flags, debug_flags;
	bool have_size, have_cpus, have_freeptr, kmalloc;
};

static int take_geo_opt(void *ctx, int id, const char *v)
{
	struct geo_opts *o = ctx;

	switch (id) {
	case O_TARGET: o->target = v; return 0;
	case O_SIZE:
		o->have_size = true;
		return ss_parse_u64(v, 1ull << 40, &o->size) ? SS_OPT_BAD_VALUE : 0;
	case O_ALIGN:
		return ss_parse_uint(v, 1u << 20, &o->align) || (o->align & (o->align - 1)) ?
			SS_OPT_BAD_VALUE : 0;
	case O_HWCACHE: o->flags |= SS_CF_HWCACHE; return 0;
	case O_RCU: o->flags |= SS_CF_RCU; return 0;
	case O_CTOR: o->flags |= SS_CF_CTOR; return 0;
	case O_FREEPTR:
		o->have_freeptr = true;
		return ss_parse_uint(v, 1u << 30, &o->freeptr) ? SS_OPT_BAD_VALUE : 0;
	case O_KMALLOC: o->kmalloc = true; return 0;
	case O_DEBUG: o->debug = v; return 0;
	case O_CPUS:
		o->have_cpus = true;
		return ss_opt_uint(&opt_set, id, v, 1, 8192, &o->cpus);
	default: /* O_ERA */
		o->era = v;
		return ss_era_parse(v) < 0 ? SS_OPT_BAD_VALUE : 0;
	}
}

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse_opts(int argc, char **argv, struct geo_opts *o)
{
	int rc;

	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_geo_opt, o)))
		return rc;
	if (!o->target || !o->have_size)
		return ss_opt_usage_err(&opt_set, "--target and --size are required");
	if (o->kmalloc && (o->flags || o->align || o->have_freeptr))
		return ss_opt_usage_err(&opt_set, "--kmalloc caches take no --align, --hwcache, "
					"--rcu, --ctor or --freeptr");
	if (!o->kmalloc && (o->size == 0 || o->size > UINT32_MAX))
		return ss_opt_usage_err(&opt_set, "bad value '%llu' for --size (want 1..%u "
					"without --kmalloc)", (unsigned long long)o->size,
					UINT32_MAX);
	if (o->debug && ss_debug_parse(o->debug, &o->debug_flags))
		return ss_opt_usage_err(&opt_set, "bad value '%s' for --debug (want slub_debug "
					"letters among F Z P U T O, \"\" for FZPU, - for none)",
					o->debug);
	return 0;
}

static void print_geometry(const struct ss_target *t,
			   const struct ss_cache_spec *spec,
			   const struct ss_geometry *g)
{
	char dbg[16];
	char flags[8];
	int k = 0;

	ss_debug_str(g->debug, dbg, sizeof(dbg));
	if (spec->flags & SS_CF_HWCACHE)
		flags[k++] = 'A';
	if (spec->flags & SS_CF_RCU)
		flags[k++] = 'R';
	if (spec->flags & SS_CF_CTOR)
		flags[k++] = 'C';
	if (spec->flags & SS_CF_KMALLOC)
		flags[k++] = 'K';
	if (spec->flags & SS_CF_FREEPTR)
		flags[k++] = 'E';
	if (!k)
		flags[k++] = '-';
	flags[k] = '\0';
	printf("object_size=%u\nslab_size=%u\nalign=%u\ninuse=%u\noffset=%u\n"
	       "red_left_pad=%u\norder=%u\nobjs_per_slab=%u\nslab_bytes=%lu\n"
	       "min_partial=%u\ncpu_partial=%u\ncpu_partial_slabs=%u\n"
	       "debug=%s\nsize_nodebug=%u\nmin_order=%u\nmin_objects=%u\n"
	       "flags=%s\n",
	       g->object_size, g->size, g->align, g->inuse, g->offset,
	       g->red_left_pad, g->order, g->objs_per_slab,
	       (unsigned long)t->page_size << g->order, g->min_partial,
	       g->cpu_partial, g->cpu_partial_slabs, dbg, g->size_nodebug,
	       g->min_order, g->min_objects, flags);
	/* 7.0+: every cache's sheaf size follows from its stride */
	if (t->era >= SS_ERA_7_0)
		printf("sheaf_capacity=%u\n", ss_sheaf_capacity(t, g, 0, false));
}

/* --kmalloc: the class a request goes to.  Returns the kmalloc index
 * (SS_KMALLOC_ZERO / SS_KMALLOC_LARGE when there is no slab cache) and fills
 * name and spec for a real class. */
static int kmalloc_class(const struct ss_target *t, uint64_t size,
			 unsigned debug, char *name, size_t n,
			 struct ss_cache_spec *spec)
{
	int idx = ss_kmalloc_index(t, (size_t)size);

	if (idx == SS_KMALLOC_ZERO)
		snprintf(name, n, "zero");
	else if (idx == SS_KMALLOC_LARGE)
		snprintf(name, n, "kmalloc_large");
	else {
		ss_kmalloc_class_name(t, idx, name, n);
		ss_kmalloc_spec(t, idx, debug, spec);
	}
	return idx;
}

/* Above KMALLOC_MAX_CACHE_SIZE kmalloc() is kmalloc_large(): whole pages
 * from the page allocator, get_order(size) of them (kmalloc_order() in
 * 3.10 include/linux/slab.h and mm/slab_common.c; __kmalloc_large_node()
 * in 6.1 mm/slab_common.c).  Orders above MAX_ORDER - 1 (MAX_PAGE_ORDER in
 * 6.8+) fail: __alloc_pages_slowpath() (3.10) and __alloc_pages() (6.1)
 * WARN once and return NULL.  The answer is said on stdout, the warning
 * on stderr. */
static void print_large(const struct ss_target *t, uint64_t size, const char *era)
{
	unsigned order = ss_get_order(t, (unsigned long)size);
	bool fails = order > SS_MAX_PAGE_ORDER;

	printf("order=%u\nslab_bytes=%llu\npages=%llu\nmax_order=%u\nresult=%s\n", order,
	       (unsigned long long)t->page_size << order, 1ull << order,
	       SS_MAX_PAGE_ORDER, fails ? "NULL" : "pages");
	fflush(stdout);
	if (fails)
		fprintf(stderr, "slabsim geometry: warning: kmalloc(%llu) needs order %u, above the "
			"page allocator's largest order %u (MAX_ORDER - 1 in %s): the page allocator "
			"warns once (WARN_ON_ONCE) and kmalloc() returns NULL\n",
			(unsigned long long)size, order, SS_MAX_PAGE_ORDER, era);
	else
		fprintf(stderr, "slabsim geometry: note: %llu bytes is above KMALLOC_MAX_CACHE_SIZE "
			"(%u): no slab cache, kmalloc_large() takes %llu page%s (order %u) from the "
			"page allocator\n", (unsigned long long)size,
			ss_kmalloc_max_cache_size(t), 1ull << order, order ? "s" : "", order);
}

int ss_cmd_geometry(int argc, char **argv)
{
	struct geo_opts o = {0};
	struct ss_target t;
	struct ss_cache_spec spec = {0};
	struct ss_geometry g;
	struct ss_error err;
	char era[16], cache[32];
	int idx = 0, rc = parse_opts(argc, argv, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (ss_target_load(o.target, &t, &err)) {
		fprintf(stderr, "slabsim geometry: %s\n", err.msg);
		return 1;
	}
	if (o.have_cpus)
		t.cpus = o.cpus;
	if (o.era)
		t.era = ss_era_parse(o.era);
	ss_era_str(t.era, era, sizeof(era));

	spec.object_size = (unsigned)o.size;
	spec.align = o.align;
	spec.flags = o.flags | (o.have_freeptr ? SS_CF_FREEPTR : 0);
	spec.debug = o.debug_flags;
	spec.freeptr_offset = o.freeptr;
	if (o.kmalloc)
		idx = kmalloc_class(&t, o.size, o.debug_flags, cache, sizeof(cache),
				    &spec);
	/* Compute before printing anything: no half-written answers. */
	if (idx >= 0 && ss_geometry_compute(&t, &spec, &g, &err)) {
		fprintf(stderr, "slabsim geometry: %s\n", err.msg);
		return 1;
	}
	printf("target=%s\nera=%s\ncpus=%u\n", t.name, era, t.cpus);
	if (o.kmalloc)
		printf("request=%llu\ncache=%s\n", (unsigned long long)o.size,
		       cache);
	if (idx == SS_KMALLOC_LARGE)
		print_large(&t, o.size, era);
	if (idx >= 0)
		print_geometry(&t, &spec, &g);
	return 0;
}
