/* kconfig.c - kernel options by Kconfig name and boot parameter (kconfig.h). */
#include "kconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "slab_order.h"
#include "target.h"

/* random_kmalloc_seed is get_random_u64() at boot (create_kmalloc_caches(),
 * 6.6); a simulation wants the same copies every run, so it is fixed
 * (the 64-bit golden ratio's fractional digits, nothing special). */
#define DEFAULT_RANDOM_SEED 0x9e3779b97f4a7c15ull

static const char *const allocator_names[SS_NR_ALLOCATORS] = {
	[SS_ALLOCATOR_SLUB] = "slub",
	[SS_ALLOCATOR_SLUB_TINY] = "slub-tiny",
	[SS_ALLOCATOR_SLAB] = "slab",
};

const char *ss_allocator_name(enum ss_allocator a)
{
	return (unsigned)a < SS_NR_ALLOCATORS ? allocator_names[a] : "?";
}

int ss_allocator_parse(const char *s, enum ss_allocator *out)
{
	for (int a = 0; a < SS_NR_ALLOCATORS; a++)
		if (!strcmp(s, allocator_names[a]) ||
		    (a == SS_ALLOCATOR_SLUB_TINY && !strcmp(s, "slub_tiny"))) {
			*out = (enum ss_allocator)a;
			return 0;
		}
	return -1;
}

static void add_bucket_set(struct ss_kconfig *kc, const char *name, bool account,
			   const char *const *sites, unsigned nr)
{
	struct ss_bucket_set *b = &kc->buckets[kc->nr_buckets++];

	snprintf(b->name, sizeof(b->name), "%s", name);
	b->account = account;
	b->nr_sites = nr;
	for (unsigned i = 0; i < nr; i++)
		snprintf(b->site[i], sizeof(b->site[i]), "%s", sites[i]);
}

void ss_kconfig_defaults(struct ss_kconfig *kc)
{
	/* mm/util.c init_user_buckets(): memdup_user() and vmemdup_user();
	 * ipc/msgutil.c init_msg_buckets(): alloc_msg(), SLAB_ACCOUNT. */
	static const char *const user_sites[] = {"memdup_user", "vmemdup_user"};
	static const char *const msg_sites[] = {"alloc_msg"};

	memset(kc, 0, sizeof(*kc));
	kc->allocator = SS_ALLOCATOR_SLUB;
	kc->zone_dma = true; /* x86_64 selects ZONE_DMA by default */
	kc->random_seed = DEFAULT_RANDOM_SEED;
	kc->kfence_interval_ms = 100; /* CONFIG_KFENCE_SAMPLE_INTERVAL */
	kc->kfence_objects = 255;     /* CONFIG_KFENCE_NUM_OBJECTS */
	kc->cpu_partial = true;
	kc->memcg_kmem_online = true;
	add_bucket_set(kc, "memdup_user", false, user_sites, 2);
	add_bucket_set(kc, "msg_msg", true, msg_sites, 1);
}

/* y/n, 1/0 (boot parameters), yes/no */
static int parse_yn(const char *v, bool *out)
{
	if (!strcmp(v, "y") || !strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true"))
		*out = true;
	else if (!strcmp(v, "n") || !strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false"))
		*out = false;
	else
		return -1;
	return 0;
}

/* CONFIG_SLAB / CONFIG_SLUB / CONFIG_SLUB_TINY choose the allocator: =y
 * selects it; =n on the one in force falls back to SLUB (SLUB_TINY=n) or
 * is an error (there must be one). */
static int set_allocator_option(struct ss_kconfig *kc, enum ss_allocator a,
				bool on, char *why, size_t n)
{
	if (on) {
		kc->allocator = a;
		return 0;
	}
	if (kc->allocator != a)
		return 0;
	if (a == SS_ALLOCATOR_SLUB_TINY) {
		kc->allocator = SS_ALLOCATOR_SLUB;
		return 0;
	}
	snprintf(why, n, "the allocator in force cannot be turned off (choose another with =y)");
	return -1;
}

struct bool_opt {
	const char *key;
	size_t off;
};

#define KC_BOOL(k, field) {k, offsetof(struct ss_kconfig, field)}
static const struct bool_opt bool_opts[] = {
	KC_BOOL("CONFIG_MEMCG", memcg),
	KC_BOOL("memcg_kmem_online", memcg_kmem_online),
	KC_BOOL("CONFIG_ZONE_DMA", zone_dma),
	KC_BOOL("CONFIG_RANDOM_KMALLOC_CACHES", random_kmalloc),
	KC_BOOL("CONFIG_SLAB_BUCKETS", slab_buckets),
	KC_BOOL("CONFIG_INIT_ON_ALLOC_DEFAULT_ON", init_on_alloc),
	KC_BOOL("init_on_alloc", init_on_alloc),
	KC_BOOL("CONFIG_INIT_ON_FREE_DEFAULT_ON", init_on_free),
	KC_BOOL("init_on_free", init_on_free),
	KC_BOOL("CONFIG_KFENCE", kfence),
	KC_BOOL("CONFIG_SLUB_CPU_PARTIAL", cpu_partial),
	/* mm/slab_common.c: slab_nomerge (slub_nomerge, its name before
	 * 3.18, still taken) makes find_mergeable() find none */
	KC_BOOL("slab_nomerge", nomerge),
	KC_BOOL("slub_nomerge", nomerge),
};

/* sheaf_capacity.NAME = N */
static int set_sheaf(struct ss_kconfig *kc, const char *name, const char *val,
		     char *why, size_t n)
{
	unsigned cap, i;

	if (!*name || strlen(name) >= sizeof(kc->sheaf[0].name) ||
	    ss_parse_uint(val, 1024, &cap)) {
		snprintf(why, n, "want sheaf_capacity.CACHE=N (N 0..1024, cache name < %zu chars)",
			 sizeof(kc->sheaf[0].name));
		return -1;
	}
	for (i = 0; i < kc->nr_sheaf && strcmp(kc->sheaf[i].name, name); i++)
		;
	if (i == kc->nr_sheaf) {
		if (i == SS_MAX_SHEAF_CACHES) {
			snprintf(why, n, "more than %d caches with a sheaf capacity", SS_MAX_SHEAF_CACHES);
			return -1;
		}
		kc->nr_sheaf++;
		snprintf(kc->sheaf[i].name, sizeof(kc->sheaf[i].name), "%s", name);
	}
	kc->sheaf[i].capacity = cap;
	return 0;
}

/* kmem_buckets.NAME = site+site+... (replaces that set's sites) */
static int set_buckets(struct ss_kconfig *kc, const char *name, const char *val,
		       char *why, size_t n)
{
	struct ss_bucket_set *b = NULL;
	char buf[512], *save = NULL, *tok;

	for (unsigned i = 0; i < kc->nr_buckets; i++)
		if (!strcmp(kc->buckets[i].name, name))
			b = &kc->buckets[i];
	if (!b) {
		if (kc->nr_buckets == SS_MAX_BUCKET_SETS || !*name ||
		    strlen(name) >= sizeof(b->name)) {
			snprintf(why, n, "bad or too many kmem_buckets sets");
			return -1;
		}
		b = &kc->buckets[kc->nr_buckets++];
		memset(b, 0, sizeof(*b));
		snprintf(b->name, sizeof(b->name), "%s", name);
	}
	if (strlen(val) >= sizeof(buf)) {
		snprintf(why, n, "site list too long");
		return -1;
	}
	strcpy(buf, val);
	b->nr_sites = 0;
	for (tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		if (b->nr_sites == SS_MAX_BUCKET_SITES || strlen(tok) >= sizeof(b->site[0])) {
			snprintf(why, n, "at most %d sites of < %zu chars per set",
				 SS_MAX_BUCKET_SITES, sizeof(b->site[0]));
			return -1;
		}
		strcpy(b->site[b->nr_sites++], tok);
	}
	return 0;
}

static int set_uint(const char *val, unsigned min, unsigned max, unsigned *out,
		    char *why, size_t n)
{
	unsigned v;

	if (ss_parse_uint(val, max, &v) || v < min) {
		snprintf(why, n, "want an integer %u..%u", min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* The slub_* boot parameters are target keys too; the 6.x slab_* names
 * are accepted as the kernel accepts both. */
static int set_order_param(struct ss_target *t, const char *key, const char *val,
			   char *why, size_t n)
{
	const char *p = !strncmp(key, "slub_", 5) || !strncmp(key, "slab_", 5) ? key + 5 : "";

	if (!strcmp(p, "min_order"))
		return set_uint(val, 0, 10, &t->slub_min_order, why, n);
	if (!strcmp(p, "max_order")) {
		t->kc.max_order_given = true;
		return set_uint(val, 0, 10, &t->slub_max_order, why, n);
	}
	if (!strcmp(p, "min_objects"))
		return set_uint(val, 0, 32767, &t->slub_min_objects, why, n);
	return 1;
}

int ss_kconfig_set(struct ss_target *t, const char *key, const char *val,
		   char *why, size_t n)
{
	struct ss_kconfig *kc = &t->kc;
	bool on;

	why[0] = '\0';
	if (!strcmp(key, "allocator")) {
		if (ss_allocator_parse(val, &kc->allocator)) {
			snprintf(why, n, "want slub, slub-tiny or slab");
			return -1;
		}
		return 0;
	}
	if (!strncmp(key, "sheaf_capacity.", 15))
		return set_sheaf(kc, key + 15, val, why, n);
	if (!strncmp(key, "kmem_buckets.", 13))
		return set_buckets(kc, key + 13, val, why, n);
	if (!strcmp(key, "CONFIG_KFENCE_SAMPLE_INTERVAL") || !strcmp(key, "kfence.sample_interval"))
		return set_uint(val, 1, 1000000, &kc->kfence_interval_ms, why, n);
	if (!strcmp(key, "CONFIG_KFENCE_NUM_OBJECTS"))
		return set_uint(val, 1, 65535, &kc->kfence_objects, why, n);
	if (!strcmp(key, "random_kmalloc_seed")) {
		uint64_t v;

		if (ss_parse_u64(val, UINT64_MAX, &v)) {
			snprintf(why, n, "want an unsigned 64-bit integer");
			return -1;
		}
		kc->random_seed = v;
		return 0;
	}
	if (!strcmp(key, "CONFIG_SLAB") || !strcmp(key, "CONFIG_SLUB") ||
	    !strcmp(key, "CONFIG_SLUB_TINY")) {
		if (parse_yn(val, &on)) {
			snprintf(why, n, "want y or n");
			return -1;
		}
		return set_allocator_option(kc, !strcmp(key, "CONFIG_SLAB") ? SS_ALLOCATOR_SLAB :
						!strcmp(key, "CONFIG_SLUB") ? SS_ALLOCATOR_SLUB
									    : SS_ALLOCATOR_SLUB_TINY,
					    on, why, n);
	}
	for (size_t i = 0; i < sizeof(bool_opts) / sizeof(bool_opts[0]); i++) {
		if (strcmp(key, bool_opts[i].key))
			continue;
		if (parse_yn(val, (bool *)((char *)kc + bool_opts[i].off))) {
			snprintf(why, n, "want y or n (or 1 or 0)");
			return -1;
		}
		return 0;
	}
	return set_order_param(t, key, val, why, n);
}

int ss_kconfig_apply_list(struct ss_target *t, const char *list,
			  struct ss_error *err)
{
	char buf[2048], *save = NULL, *item;

	if (strlen(list) >= sizeof(buf))
		return ss_errorf(err, "--config: list too long");
	strcpy(buf, list);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), why[160];
		const char *val = eq ? eq + 1 : "y";
		int rc;

		if (eq)
			*eq = '\0';
		rc = ss_kconfig_set(t, item, val, why, sizeof(why));
		if (rc > 0)
			return ss_errorf(err, "--config: unknown option '%s' (docs/strategies.md lists them)",
					 item);
		if (rc < 0)
			return ss_errorf(err, "--config: %s=%s: %s", item, val, why);
		if (!strcmp(item, "CONFIG_RANDOM_KMALLOC_CACHES") || !strcmp(item, "CONFIG_SLAB_BUCKETS"))
			t->kc.hardening_given = true;
		if (!strcmp(item, "CONFIG_MEMCG"))
			t->kc.memcg_given = true;
		if (!strcmp(item, "memcg_kmem_online"))
			t->kc.memcg_kmem_given = true;
	}
	return 0;
}

unsigned ss_kconfig_sheaf_capacity(const struct ss_target *t, const char *name)
{
	const struct ss_kconfig *kc = &t->kc;

	/* do_kmem_cache_create() (6.18) ignores sheaf_capacity under
	 * SLUB_TINY; SLAB and older SLUB have no sheaves. */
	if (kc->allocator != SS_ALLOCATOR_SLUB || t->era < SS_ERA_6_18)
		return 0;
	for (unsigned i = 0; i < kc->nr_sheaf; i++)
		if (!strcmp(kc->sheaf[i].name, name))
			return kc->sheaf[i].capacity;
	return 0;
}

/* ---- consistency with the era and the allocator ---- */

struct era_need {
	bool on;
	int era;	  /* first era that has it */
	const char *what; /* "CONFIG_X (6.6)" */
};

static int check_era(const struct ss_target *t, const struct era_need *need,
		     size_t nr, struct ss_error *err)
{
	char era[16];

	ss_era_str(t->era, era, sizeof(era));
	for (size_t i = 0; i < nr; i++)
		if (need[i].on && t->era < need[i].era)
			return ss_errorf(err, "target %s (era %s): %s is not in that kernel",
					 t->name, era, need[i].what);
	return 0;
}

int ss_kconfig_finish(struct ss_target *t, struct ss_error *err)
{
	struct ss_kconfig *kc = &t->kc;
	const bool slab = kc->allocator == SS_ALLOCATOR_SLAB;
	const bool tiny = kc->allocator == SS_ALLOCATOR_SLUB_TINY;
	const struct era_need need[] = {
		{tiny, SS_ERA_6_2, "SLUB_TINY (6.2, \"mm, slub: add CONFIG_SLUB_TINY\")"},
		{!slab, SS_ERA_3_10, "SLUB as modelled (the model covers 3.10 and later)"},
		{kc->random_kmalloc, SS_ERA_6_6, "CONFIG_RANDOM_KMALLOC_CACHES (6.6)"},
		{kc->slab_buckets, SS_ERA_6_11, "CONFIG_SLAB_BUCKETS (6.11)"},
		{kc->memcg, SS_ERA_5_9, "CONFIG_MEMCG as modelled (per-object accounting, 5.9; "
					"the per-memcg cache clones before it are not modelled)"},
		{kc->init_on_alloc || kc->init_on_free, SS_ERA_5_3, "init_on_alloc/init_on_free (5.3)"},
		{kc->kfence, SS_ERA_5_12, "CONFIG_KFENCE (5.12)"},
		{kc->nr_sheaf > 0 && !slab && !tiny, SS_ERA_6_18, "per-CPU sheaves (6.18)"},
	};
	char era[16];

	ss_era_str(t->era, era, sizeof(era));
	if (check_era(t, need, sizeof(need) / sizeof(need[0]), err))
		return -1;
	if (slab && t->era > SS_ERA_6_7)
		return ss_errorf(err, "target %s (era %s): SLAB was removed in 6.8 (mm/slab.c, 2.6.16 .. 6.7)",
				 t->name, era);
	if (slab && t->era < SS_ERA_2_6_16)
		return ss_errorf(err, "target %s (era %s): the SLAB model starts at 2.6.16",
				 t->name, era);
	/* Both depend on !SLUB_TINY: Kconfig drops them when SLUB_TINY is
	 * chosen (a target file's settings); asked for with it, an error. */
	if (tiny && (kc->random_kmalloc || kc->slab_buckets)) {
		if (kc->hardening_given)
			return ss_errorf(err, "slub-tiny: CONFIG_RANDOM_KMALLOC_CACHES and CONFIG_SLAB_BUCKETS depend on !SLUB_TINY");
		kc->random_kmalloc = kc->slab_buckets = false;
	}
	if (slab && !kc->cpu_partial)
		return ss_errorf(err, "CONFIG_SLUB_CPU_PARTIAL is a SLUB option");
	/* mm/Kconfig 6.6-6.7: RANDOM_KMALLOC_CACHES depends on SLUB &&
	 * !SLUB_TINY; SLAB still existed there, but never with it */
	if (slab && kc->random_kmalloc)
		return ss_errorf(err, "slab: CONFIG_RANDOM_KMALLOC_CACHES depends on SLUB (mm/Kconfig 6.6)");
	/* mm/slub.c: slub_max_order = IS_ENABLED(CONFIG_SLUB_TINY) ? 1 :
	 * PAGE_ALLOC_COSTLY_ORDER, unless the boot parameter says. */
	if (tiny && !kc->max_order_given) {
		t->slub_max_order = 1;
		if (t->slub_min_order > 1)
			t->slub_min_order = 1;
	}
	/* SLUB_CPU_PARTIAL depends on !SLUB_TINY */
	if (tiny)
		kc->cpu_partial = false;
	if (t->slub_min_order > t->slub_max_order)
		return ss_errorf(err, "slub_min_order %u > slub_max_order %u", t->slub_min_order,
				 t->slub_max_order);
	return 0;
}

void ss_kconfig_str(const struct ss_kconfig *kc, char *buf, size_t n)
{
	struct ss_kconfig d;
	size_t used = 0;

	ss_kconfig_defaults(&d);
	buf[0] = '\0';
#define ADD(...)                                                                  \
	do {                                                                      \
		int w_ = snprintf(buf + used, used < n ? n - used : 0, "%s", used ? "," : ""); \
		if (w_ > 0)                                                       \
			used += (size_t)w_;                                       \
		w_ = snprintf(buf + used, used < n ? n - used : 0, __VA_ARGS__);  \
		if (w_ > 0)                                                       \
			used += (size_t)w_;                                       \
	} while (0)
	for (size_t i = 0; i < sizeof(bool_opts) / sizeof(bool_opts[0]); i++) {
		bool v = *(const bool *)((const char *)kc + bool_opts[i].off);
		bool dv = *(const bool *)((const char *)&d + bool_opts[i].off);

		/* the boot-parameter spellings share a field with CONFIG_* */
		if (v != dv && !strncmp(bool_opts[i].key, "CONFIG_", 7))
			ADD("%s=%s", bool_opts[i].key, v ? "y" : "n");
	}
	if (kc->nomerge)
		ADD("slab_nomerge=y");
	if (kc->memcg && !kc->memcg_kmem_online)
		ADD("memcg_kmem_online=n");
	if (kc->kfence && kc->kfence_interval_ms != d.kfence_interval_ms)
		ADD("kfence.sample_interval=%u", kc->kfence_interval_ms);
	if (kc->kfence && kc->kfence_objects != d.kfence_objects)
		ADD("CONFIG_KFENCE_NUM_OBJECTS=%u", kc->kfence_objects);
	if (kc->random_kmalloc && kc->random_seed != d.random_seed)
		ADD("random_kmalloc_seed=%llu", (unsigned long long)kc->random_seed);
	for (unsigned i = 0; i < kc->nr_sheaf; i++)
		ADD("sheaf_capacity.%s=%u", kc->sheaf[i].name, kc->sheaf[i].capacity);
#undef ADD
	if (used >= n && n)
		buf[n - 1] = '\0';
}
