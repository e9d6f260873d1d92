/* target_pick.c - the default target of a capture (target_pick.h). */
#include "target_pick.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "target.h"

#define MAX_TARGETS 64

int ss_kernel_release_era(const char *release)
{
	char mm[32];
	size_t n = 0;
	int dots = 0;

	if (!release)
		return -1;
	/* MAJOR.MINOR, or 2.6.N (the third number is the 2.6 series' release) */
	while (release[n] && n < sizeof(mm) - 1 &&
	       ((release[n] >= '0' && release[n] <= '9') || release[n] == '.')) {
		if (release[n] == '.' && ++dots == (strncmp(release, "2.6.", 4) ? 2 : 3))
			break;
		n++;
	}
	memcpy(mm, release, n);
	mm[n] = '\0';
	return ss_era_parse(mm);
}

/* The family of a machine (uname -m): its targets are named FAMILY-*;
 * NULL for one with no targets. */
static const char *family_of(const char *machine)
{
	if (!machine || !*machine)
		return NULL;
	if (!strcmp(machine, "x86_64"))
		return "x86_64";
	if (!strncmp(machine, "arm", 3)) /* armv7l, armv6l; aarch64 is not */
		return "arm32";
	return NULL;
}

struct cand {
	char name[64];
	struct ss_target t;
};

/* Rule 4: a before b when a is of a later era, or of the same era with
 * no inferred parameter where b has one, or of the same by name. */
static bool better(const struct cand *a, const struct cand *b, bool newest)
{
	if (a->t.era != b->t.era)
		return newest ? a->t.era > b->t.era : a->t.era < b->t.era;
	if (!a->t.ninferred != !b->t.ninferred)
		return !a->t.ninferred;
	return strcmp(a->name, b->name) < 0;
}

/* Whether a run of target t under allocator a can be (the era has a, a
 * replay models it there, t's options go with it): what ss_kconfig_finish()
 * says of t with --allocator a, so that the pick never names a target the
 * runs would refuse; its reason in why (n bytes) when not. */
static bool runs_under(const struct ss_target *t, enum ss_allocator a, char *why, size_t n)
{
	struct ss_target copy = *t;
	struct ss_error e;

	copy.kc.allocator = a;
	if (!ss_kconfig_finish(&copy, &e))
		return true;
	snprintf(why, n, "%.255s", e.msg);
	return false;
}

/* A target of the family left out although its era is nearer the
 * kernel's than the one chosen: it is named, with the reason. */
struct left_out {
	char name[64];
	int era;
	char why[256];
};

/* The shipped targets of family fam (their names FAM-*) that run every
 * allocator of want (a bit per enum ss_allocator) into c; the newest one
 * left out whose era is not after at into *lo (its era -1 when none). */
static int load_family(const char *fam, unsigned want, int at, struct cand *c, unsigned *nr,
		       struct left_out *lo, struct ss_error *err)
{
	char names[2048], *save = NULL;
	size_t fl = strlen(fam);

	*nr = 0;
	lo->era = -1;
	ss_target_names(names, sizeof(names));
	for (char *n = strtok_r(names, " ", &save); n && *nr < MAX_TARGETS;
	     n = strtok_r(NULL, " ", &save)) {
		bool ok = true;
		char why[256] = "";

		if (strncmp(n, fam, fl) || n[fl] != '-')
			continue;
		if (ss_target_load(n, &c[*nr].t, err))
			return -1;
		for (int a = 0; a < SS_NR_ALLOCATORS && ok; a++)
			if (want & (1u << a))
				ok = runs_under(&c[*nr].t, (enum ss_allocator)a, why, sizeof(why));
		if (!ok) {
			if (c[*nr].t.era > lo->era && c[*nr].t.era <= at) {
				snprintf(lo->name, sizeof(lo->name), "%s", n);
				snprintf(lo->why, sizeof(lo->why), "%s", why);
				lo->era = c[*nr].t.era;
			}
			continue;
		}
		snprintf(c[*nr].name, sizeof(c[*nr].name), "%s", n);
		(*nr)++;
	}
	return 0;
}

/* The best of c[0..nr) whose era is in [lo, hi], newest or oldest; NULL
 * when none is. */
static const struct cand *choose(const struct cand *c, unsigned nr, int lo, int hi, bool newest)
{
	const struct cand *best = NULL;

	for (unsigned i = 0; i < nr; i++)
		if (c[i].t.era >= lo && c[i].t.era <= hi && (!best || better(&c[i], best, newest)))
			best = &c[i];
	return best;
}

/* Whether some cache name of the snapshot (aliases included) starts with
 * prefix. */
static bool snap_has_prefix(const struct ss_snap *s, const char *prefix)
{
	size_t n = strlen(prefix);

	for (unsigned i = 0; s && i < s->nr_alias; i++)
		if (!strncmp(s->alias[i], prefix, n))
			return true;
	return false;
}

static void add_item(char *buf, size_t n, const char *item)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, "%s%s", len ? "," : "", item);
}

/* The sheaf capacity the target gives a snapshot's cache: 6.18, what the
 * target asks for it (sheaf_capacity.NAME, 0 for none); 7.0+,
 * calculate_sheaf_capacity() of its stride with that request. */
static unsigned target_capacity(const struct ss_target *t, const struct ss_snap_cache *c)
{
	struct ss_geometry g = {.size = c->slab_size};
	unsigned asked = ss_kconfig_sheaf_capacity(t, c->name);

	if (t->era < SS_ERA_7_0 || !c->slab_size)
		return asked;
	return ss_sheaf_capacity(t, &g, asked, ss_sheaf_none_named(c->name));
}

/* Rule 5 on the chosen target t: the options the snapshot shows otherwise,
 * into cfg (n bytes), and what was seen into seen (m bytes); slub: the
 * SLUB-only ones too. */
static void options_of(const struct ss_snap *s, const struct ss_target *t, bool slub,
		       char *cfg, size_t n, char *seen, size_t m)
{
	char item[SS_SNAP_NAME + 48];

	cfg[0] = seen[0] = '\0';
	if (!s)
		return;
	/* create_kmalloc_caches() makes kmalloc-cg-N (5.14+) with CONFIG_MEMCG only */
	if (t->era >= SS_ERA_5_14) {
		bool memcg = snap_has_prefix(s, "kmalloc-cg-");

		if (memcg != t->kc.memcg)
			add_item(cfg, n, memcg ? "CONFIG_MEMCG=y" : "CONFIG_MEMCG=n");
	}
	if (!slub)
		return;
	if (t->era >= SS_ERA_6_6) {
		bool rnd = snap_has_prefix(s, "kmalloc-rnd-");

		if (rnd != t->kc.random_kmalloc)
			add_item(cfg, n, rnd ? "CONFIG_RANDOM_KMALLOC_CACHES=y"
					     : "CONFIG_RANDOM_KMALLOC_CACHES=n");
	}
	if (t->era >= SS_ERA_6_11) {
		bool buckets = snap_has_prefix(s, "memdup_user-");

		if (buckets != t->kc.slab_buckets)
			add_item(cfg, n, buckets ? "CONFIG_SLAB_BUCKETS=y" : "CONFIG_SLAB_BUCKETS=n");
	}
	for (unsigned i = 0; i < s->nr; i++) {
		const struct ss_snap_cache *c = &s->caches[i];

		/* 7.0+: every cache has sheaves; only a capacity the target
		 * would not give the cache's stride is a request of its own */
		if (!c->sheaf_capacity ||
		    (t->era >= SS_ERA_7_0 && c->sheaf_capacity == target_capacity(t, c)))
			continue;
		snprintf(item, sizeof(item), "%s%s (%u)", seen[0] ? ", " : "sheaf caches ",
			 c->name, c->sheaf_capacity);
		if (strlen(seen) + strlen(item) < m)
			strcat(seen, item);
		if (t->era >= SS_ERA_6_18 && c->sheaf_capacity != target_capacity(t, c) &&
		    strlen(c->name) < sizeof(t->kc.sheaf[0].name)) {
			snprintf(item, sizeof(item), "sheaf_capacity.%s=%u", c->name,
				 c->sheaf_capacity);
			add_item(cfg, n, item);
		}
	}
}

/* Whether any cache of the snapshot has sheaves (6.18+). */
static bool snap_has_sheaves(const struct ss_snap *s)
{
	for (unsigned i = 0; s && i < s->nr; i++)
		if (s->caches[i].sheaf_capacity)
			return true;
	return false;
}

/* "SLUB", "SLUB and SLAB": the allocators of want. */
static void allocator_list(unsigned want, char *buf, size_t n)
{
	static const char *const upper[SS_NR_ALLOCATORS] = {"SLUB", "SLUB_TINY", "SLAB"};
	size_t len = 0;

	buf[0] = '\0';
	for (int a = 0; a < SS_NR_ALLOCATORS; a++)
		if (want & (1u << a) && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " and " : "", upper[a]);
}

int ss_target_pick(const char *kernel, const char *machine, const struct ss_snap *snap,
		   unsigned allocators, const char *dflt, struct ss_target_pick *out,
		   struct ss_error *err)
{
	struct cand *c = calloc(MAX_TARGETS, sizeof(*c));
	const char *fam = family_of(machine);
	const char *release = kernel && *kernel ? kernel : snap && snap->kernel[0] ? snap->kernel : NULL;
	const unsigned want = allocators ? allocators : 1u << SS_ALLOCATOR_SLUB;
	const bool slub_only = want == 1u << SS_ALLOCATOR_SLUB;
	const struct cand *best = NULL;
	const int era = ss_kernel_release_era(release);
	/* rule 3: sheaves date a kernel that names no version */
	const int at = era >= 0 ? era : snap_has_sheaves(snap) ? SS_ERA_6_18 : -1;
	struct left_out lo;
	unsigned nr = 0;
	char e[16], seen[384] = "", tail[1000] = "", alist[48];

	memset(out, 0, sizeof(*out));
	if (!c)
		return ss_errorf(err, "out of memory");
	allocator_list(want, alist, sizeof(alist));
	if (load_family(fam ? fam : "x86_64", want, at, c, &nr, &lo, err)) {
		free(c);
		return -1;
	}

	if (at >= 0) {
		best = choose(c, nr, 0, at, true);
		if (!best)
			best = choose(c, nr, at, 100000, false);
	}
	if (!best && at >= 0) {
		free(c);
		return ss_errorf(err, "no %s target has %s in its era", fam ? fam : "x86_64", alist);
	}
	if (!best) {
		struct ss_target t;

		if (ss_target_load(dflt, &t, err)) {
			free(c);
			return -1;
		}
		snprintf(out->target, sizeof(out->target), "%s", dflt);
		options_of(snap, &t, slub_only, out->config, sizeof(out->config), seen, sizeof(seen));
		snprintf(out->why, sizeof(out->why), "the default target: the capture names no kernel "
			 "version and shows no sheaf cache");
	} else {
		snprintf(out->target, sizeof(out->target), "%s", best->name);
		options_of(snap, &best->t, slub_only, out->config, sizeof(out->config), seen,
			   sizeof(seen));
		ss_era_str(best->t.era, e, sizeof(e));
		if (era < 0)
			snprintf(out->why, sizeof(out->why), "the capture names no kernel version; "
				 "its %s date it 6.18 or later: the %s %s target of an era with %s",
				 seen, best->t.era <= at ? "newest" : "oldest",
				 fam ? fam : "x86_64", alist);
		else
			snprintf(out->why, sizeof(out->why), "its kernel %s%s%s%s: the %s %s target "
				 "of an era with %s %s it (%s)", release, fam ? " (" : "",
				 fam ? machine : "", fam ? ")" : "",
				 best->t.era <= era ? "newest" : "oldest", fam ? fam : "x86_64", alist,
				 best->t.era <= era ? "not after" : "after (none is as old as)", e);
		if (!fam && machine && *machine)
			snprintf(tail, sizeof(tail), "; %s has no targets of its own: x86_64's", machine);
		else if (!fam)
			snprintf(tail, sizeof(tail), "; the capture names no machine: x86_64's targets");
		if (lo.era > best->t.era)
			snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail),
				 "; %s is nearer, but %s", lo.name, lo.why);
		if (era >= 0 && seen[0])
			snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), "; %s", seen);
	}
	if (out->config[0])
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail),
			 "; the snapshot's options over the target's: %s", out->config);
	snprintf(out->why + strlen(out->why), sizeof(out->why) - strlen(out->why), "%s", tail);
	free(c);
	return 0;
}

int ss_target_pick_boot(const char *params, struct ss_target_pick *out, struct ss_error *err)
{
	char buf[1024], taken[512] = "", left[512] = "", why[160], *save = NULL;
	struct ss_target scratch;

	if (!params || !*params)
		return 0;
	snprintf(buf, sizeof(buf), "%s", params);
	ss_target_defaults(&scratch);
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(w, '=');
		const char *val = eq ? eq + 1 : "y";
		size_t n = strlen(out->boot);
		char *list = left;
		int rc;

		if (eq)
			*eq = '\0';
		/* (a boot parameter: never a CONFIG_ name, never a list) */
		rc = strncmp(w, "CONFIG_", 7) && !strchr(val, ',')
			? ss_kconfig_set(&scratch, w, val, why, sizeof(why)) : 1;
		if (!rc) {
			if (snprintf(out->boot + n, sizeof(out->boot) - n, "%s%s=%s", n ? "," : "",
				     w, val) >= (int)(sizeof(out->boot) - n))
				return ss_errorf(err, "the boot parameters '%s' do not fit a --config list",
						 params);
			list = taken;
		}
		snprintf(list + strlen(list), 512 - strlen(list), "%s%s%s%s", *list ? " " : "", w,
			 eq ? "=" : "", eq ? val : "");
	}
	if (taken[0])
		snprintf(out->why + strlen(out->why), sizeof(out->why) - strlen(out->why),
			 "; the kernel's boot parameters: %s", taken);
	if (left[0])
		snprintf(out->why + strlen(out->why), sizeof(out->why) - strlen(out->why),
			 "; not run options (not taken): %s", left);
	return 0;
}
