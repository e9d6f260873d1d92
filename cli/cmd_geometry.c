/* cmd_geometry.c - `slabsim geometry`: the SLUB layout of one cache. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "geometry.h"
#include "kmalloc.h"
#include "parse.h"
#include "target.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim geometry --target T --size S [OPTIONS]\n"
		"\n"
		"Print the SLUB layout of one cache (calculate_sizes() and\n"
		"calculate_order() of the target's era) as key=value lines:\n"
		"target era cpus object_size slab_size align inuse offset\n"
		"red_left_pad order objs_per_slab slab_bytes min_partial cpu_partial\n"
		"cpu_partial_slabs debug size_nodebug min_order min_objects flags.\n"
		"\n"
		"  --target T       target name (allocators/targets/T.target) or a\n"
		"                   path containing '/' (required)\n"
		"  --size S         object size in bytes; with --kmalloc the request\n"
		"                   size (required)\n"
		"  --align A        align argument of kmem_cache_create(), a power of\n"
		"                   two (default 0 = none)\n"
		"  --hwcache        SLAB_HWCACHE_ALIGN\n"
		"  --rcu            SLAB_TYPESAFE_BY_RCU (SLAB_DESTROY_BY_RCU)\n"
		"  --ctor           the cache has a constructor\n"
		"  --freeptr OFF    explicit free pointer offset (kmem_cache_args\n"
		"                   .freeptr_offset, 6.12+); needs --rcu or --ctor\n"
		"  --kmalloc        use the kmalloc cache a request of --size bytes\n"
		"                   goes to; also prints request= and cache= (cache=zero\n"
		"                   for 0, cache=kmalloc_large above the largest class)\n"
		"  --debug LETTERS  slub_debug letters F Z P U T O; \"\" = FZPU,\n"
		"                   \"-\" = none (default none)\n"
		"  --cpus N         CPU count instead of the target's (1..8192)\n"
		"  --era E          kernel era instead of the target's (e.g. 3.10, 6.1)\n"
		"  -h, --help       this text\n"
		"\n"
		"Exit status: 0 ok, 1 bad target or impossible cache, 2 bad usage.\n");
}

struct geo_opts {
	const char *target;
	const char *debug;
	const char *era;
	uint64_t size;
	unsigned align, cpus, freeptr;
	unsigned flags;
	bool have_size, have_cpus, have_freeptr, kmalloc;
};

enum { OPT_ALIGN = 256, OPT_HWCACHE, OPT_RCU, OPT_CTOR, OPT_FREEPTR,
       OPT_KMALLOC, OPT_DEBUG, OPT_CPUS, OPT_ERA, OPT_TARGET, OPT_SIZE };

static int bad_value(const char *opt, const char *val)
{
	fprintf(stderr, "slabsim geometry: %s: bad value '%s'\n", opt, val);
	return 2;
}

/* Returns -1 to continue, else the exit code (0 after --help). */
static int parse_opts(int argc, char **argv, struct geo_opts *o)
{
	static const struct option longopts[] = {
		{"target", required_argument, NULL, OPT_TARGET},
		{"size", required_argument, NULL, OPT_SIZE},
		{"align", required_argument, NULL, OPT_ALIGN},
		{"hwcache", no_argument, NULL, OPT_HWCACHE},
		{"rcu", no_argument, NULL, OPT_RCU},
		{"ctor", no_argument, NULL, OPT_CTOR},
		{"freeptr", required_argument, NULL, OPT_FREEPTR},
		{"kmalloc", no_argument, NULL, OPT_KMALLOC},
		{"debug", required_argument, NULL, OPT_DEBUG},
		{"cpus", required_argument, NULL, OPT_CPUS},
		{"era", required_argument, NULL, OPT_ERA},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 0; /* GNU: re-initialise, argv[0] is the command name */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case OPT_TARGET:
			o->target = optarg;
			break;
		case OPT_SIZE:
			if (ss_parse_u64(optarg, 1ull << 40, &o->size))
				return bad_value("--size", optarg);
			o->have_size = true;
			break;
		case OPT_ALIGN:
			if (ss_parse_uint(optarg, 1u << 20, &o->align) ||
			    (o->align & (o->align - 1)))
				return bad_value("--align", optarg);
			break;
		case OPT_HWCACHE:
			o->flags |= SS_CF_HWCACHE;
			break;
		case OPT_RCU:
			o->flags |= SS_CF_RCU;
			break;
		case OPT_CTOR:
			o->flags |= SS_CF_CTOR;
			break;
		case OPT_FREEPTR:
			if (ss_parse_uint(optarg, 1u << 30, &o->freeptr))
				return bad_value("--freeptr", optarg);
			o->have_freeptr = true;
			break;
		case OPT_KMALLOC:
			o->kmalloc = true;
			break;
		case OPT_DEBUG:
			o->debug = optarg;
			break;
		case OPT_CPUS:
			if (ss_parse_uint(optarg, 8192, &o->cpus) || !o->cpus)
				return bad_value("--cpus", optarg);
			o->have_cpus = true;
			break;
		case OPT_ERA:
			if (ss_era_parse(optarg) < 0)
				return bad_value("--era", optarg);
			o->era = optarg;
			break;
		default:
			fprintf(stderr, "slabsim geometry: see --help\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "slabsim geometry: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (!o->target || !o->have_size) {
		fprintf(stderr, "slabsim geometry: --target and --size are required (see --help)\n");
		return 2;
	}
	if (o->kmalloc && (o->flags || o->align || o->have_freeptr)) {
		fprintf(stderr, "slabsim geometry: --kmalloc caches take no --align, --hwcache, --rcu, --ctor or --freeptr\n");
		return 2;
	}
	if (!o->kmalloc && (o->size == 0 || o->size > UINT32_MAX))
		return bad_value("--size", "out of range");
	return -1;
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

int cmd_geometry(int argc, char **argv)
{
	struct geo_opts o = {0};
	struct ss_target t;
	struct ss_cache_spec spec = {0};
	struct ss_geometry g;
	struct ss_error err;
	unsigned debug = 0;
	char era[16], cache[32];
	int rc, idx = 0;

	rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.debug && ss_debug_parse(o.debug, &debug))
		return bad_value("--debug", o.debug);
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
	spec.debug = debug;
	spec.freeptr_offset = o.freeptr;
	if (o.kmalloc)
		idx = kmalloc_class(&t, o.size, debug, cache, sizeof(cache),
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
	if (idx == SS_KMALLOC_LARGE) {
		unsigned order = ss_get_order(&t, (unsigned long)o.size);

		printf("order=%u\nslab_bytes=%lu\n", order,
		       (unsigned long)t.page_size << order);
	}
	if (idx >= 0)
		print_geometry(&t, &spec, &g);
	return 0;
}
