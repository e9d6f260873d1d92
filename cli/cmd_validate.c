/* cmd_validate.c - `slabsim validate`: check the geometry model against a
 * kernel's own caches (/sys/kernel/slab or a saved /proc/slabinfo). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "geometry.h"
#include "opts.h"
#include "parse.h"
#include "slab_oracle.h"
#include "slab_order.h"
#include "target.h"

#define DEFAULT_SYS "/sys/kernel/slab"
/* this project's machine (6.18: the 6.11+ layout rules, and sheaves) */
#define DEFAULT_TARGET "x86_64-6.18"
#define PRESENT_CPUS "/sys/devices/system/cpu/present"

enum { O_SYS, O_SLABINFO, O_CPUS, O_TARGET, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_SYS] = {"sys", NULL, "DIR", "a /sys/kernel/slab tree (default " DEFAULT_SYS ").\n"
		"Every cache directory that is not a symlink (aliases\n"
		"are) is recomputed from object_size, align,\n"
		"hwcache_align, destroy_by_rcu, ctor, the debug flags\n"
		"and the kmalloc-* name, and compared on slab_size,\n"
		"order, objs_per_slab, min_partial and cpu_partial;\n"
		"then sheaf_capacity (6.18) against the target's."},
	[O_SLABINFO] = {"slabinfo", NULL, "FILE", "a saved /proc/slabinfo 2.1 instead: objsize there is\n"
		"the stride, so each line is checked for objsize a\n"
		"multiple of the pointer size, pagesperslab a power of\n"
		"two, objperslab = (PAGE << order) / objsize, and\n"
		"order = the model's calculate_order(objsize)."},
	[O_CPUS] = {"cpus", NULL, "N", "CPU count for calculate_order() (default: the CPUs in\n"
		PRESENT_CPUS ", else the target's)"},
	[O_TARGET] = {"target", NULL, "T", "target (default " DEFAULT_TARGET ")"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"validate", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim validate [--sys DIR | --slabinfo FILE] [--cpus N] [--target T]\n"
		"\n"
		"Recompute every cache of a kernel with the geometry model and compare.\n"
		"\n");
	ss_opt_help(out, &opt_set);
	fprintf(out,
		"\n"
		"flags, as tools/mm/slabinfo.c's Flg column where it has a letter: A\n"
		"SLAB_HWCACHE_ALIGN, then the slub_debug letters F Z P U T.  slabinfo has\n"
		"none for these, so they are slabsim's: R SLAB_TYPESAFE_BY_RCU, C a\n"
		"constructor, K a kmalloc-* cache; - for none.\n"
		"\n"
		"Verdicts: match; mismatch; freeptr (an RCU cache that matches only\n"
		"with its free pointer inside the object: created with an explicit\n"
		"freeptr_offset, 6.12+).  Last line:\n"
		"  validate: N caches, M match, K mismatch, E explicit-freeptr\n"
		"followed, when the kernel shows sheaves, by \"; sheaf_capacity: C checked,\n"
		"X mismatch\".\n"
		"Exit status: 0 no mismatch, 1 mismatch or unreadable input, 2 bad usage.\n");
}

struct val_opts {
	const char *val[NR_OPTS]; /* the last value given, NULL if absent */
	unsigned cpus;
};

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse_opts(int argc, char **argv, struct val_opts *o)
{
	int rc;

	if ((rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, o->val)))
		return rc;
	if (ss_opt_uint(&opt_set, O_CPUS, o->val[O_CPUS], 1, 8192, &o->cpus))
		return -1;
	if (o->val[O_SYS] && o->val[O_SLABINFO])
		return ss_opt_usage_err(&opt_set, "--sys and --slabinfo are exclusive");
	return 0;
}

/* CPUs in /sys/devices/system/cpu/present; 0 if unreadable. */
static unsigned present_cpus(void)
{
	char buf[4096];
	unsigned n = 0;
	FILE *fp = fopen(PRESENT_CPUS, "r");

	if (!fp)
		return 0;
	if (!fgets(buf, sizeof(buf), fp) || ss_parse_cpulist(buf, &n))
		n = 0;
	fclose(fp);
	return n;
}

static void flag_str(const struct ss_oracle_cache *c, char *buf, size_t n)
{
	char dbg[16];
	size_t k = 0;

	if (c->hwcache)
		buf[k++] = 'A';
	if (c->rcu)
		buf[k++] = 'R';
	if (c->ctor)
		buf[k++] = 'C';
	if (c->kmalloc)
		buf[k++] = 'K';
	buf[k] = '\0';
	if (c->debug) {
		ss_debug_str(c->debug, dbg, sizeof(dbg));
		snprintf(buf + k, n - k, "%s", dbg);
	} else if (!k) {
		snprintf(buf, n, "-");
	}
}

static const char *verdict_str(enum ss_verdict v)
{
	switch (v) {
	case SS_VERDICT_MATCH:
		return "match";
	case SS_VERDICT_FREEPTR:
		return "freeptr";
	default:
		return "MISMATCH";
	}
}

struct tally {
	unsigned n, match, mismatch, freeptr;
	unsigned sheaf_n, sheaf_mismatch;
};

static void count(struct tally *t, enum ss_verdict v)
{
	t->n++;
	if (v == SS_VERDICT_MATCH)
		t->match++;
	else if (v == SS_VERDICT_FREEPTR)
		t->freeptr++;
	else
		t->mismatch++;
}

/* "# validate: target T era E cpus N source S", printed once the input
 * has been read. */
static void print_banner(const struct ss_target *t, const char *src)
{
	char era[16];

	ss_era_str(t->era, era, sizeof(era));
	printf("# validate: target %s era %s cpus %u source %s\n", t->name, era,
	       t->cpus, src);
}

/* sheaf_capacity of every cache that has one in the kernel or the
 * model: "sheaf NAME kernel K model M match|MISMATCH".  The model's is
 * the target's sheaf_capacity.NAME in 6.18, calculate_sheaf_capacity()
 * of the cache's layout from 7.0 (ss_oracle_check()). */
static int validate_sheaves(const struct ss_target *t, const struct ss_oracle *o,
			    struct tally *tl)
{
	bool shown = false;
	char era[16];

	ss_era_str(t->era, era, sizeof(era));
	for (size_t i = 0; i < o->nr; i++) {
		const struct ss_oracle_cache *c = &o->caches[i];
		struct ss_oracle_result r;
		struct ss_error err;
		unsigned model;

		if (!c->have_sheaf_capacity)
			continue;
		if (ss_oracle_check(t, c, &r, &err)) {
			fprintf(stderr, "slabsim validate: %s\n", err.msg);
			return -1;
		}
		model = r.sheaf_capacity;
		if (!shown)
			printf("# sheaf_capacity (target %s)\n", t->name);
		shown = true;
		if (!c->sheaf_capacity && !model)
			continue;
		if (t->era < SS_ERA_6_18) {
			printf("sheaf %-28s kernel %4u model    - not checked: era %s has no sheaves\n",
			       c->name, c->sheaf_capacity, era);
			continue;
		}
		tl->sheaf_n++;
		tl->sheaf_mismatch += c->sheaf_capacity != model;
		printf("sheaf %-28s kernel %4u model %4u %s\n", c->name, c->sheaf_capacity, model,
		       c->sheaf_capacity == model ? "match" : "MISMATCH");
	}
	for (unsigned k = 0; shown && k < t->kc.nr_sheaf; k++) {
		bool found = false;

		for (size_t i = 0; i < o->nr && !found; i++)
			found = !strcmp(o->caches[i].name, t->kc.sheaf[k].name);
		if (!found)
			printf("sheaf %-28s kernel    - model %4u not checked: no such cache (or an alias)\n",
			       t->kc.sheaf[k].name, t->kc.sheaf[k].capacity);
	}
	return 0;
}

static int validate_sys(const struct ss_target *t, const char *dir,
			struct tally *tl)
{
	struct ss_oracle o;
	struct ss_error err;

	if (ss_oracle_read_sysfs(dir, &o, &err)) {
		fprintf(stderr, "slabsim validate: %s\n", err.msg);
		return 1;
	}
	print_banner(t, dir);
	printf("%-28s %6s %5s %-6s | %9s %5s %4s (kernel) | %9s %5s %4s (model) | %s\n",
	       "name", "objsz", "align", "flags", "slab_size", "order", "objs",
	       "slab_size", "order", "objs", "verdict reason");
	for (size_t i = 0; i < o.nr; i++) {
		const struct ss_oracle_cache *c = &o.caches[i];
		struct ss_oracle_result r;
		char flags[16];

		if (ss_oracle_check(t, c, &r, &err)) {
			fprintf(stderr, "slabsim validate: %s\n", err.msg);
			ss_oracle_release(&o);
			return 1;
		}
		flag_str(c, flags, sizeof(flags));
		printf("%-28s %6u %5u %-6s | %9u %5u %4u          | %9u %5u %4u         | %s%s%s\n",
		       c->name, c->object_size, c->align, flags, c->slab_size,
		       c->order, c->objs_per_slab, r.model.size, r.model.order,
		       r.model.objs_per_slab, verdict_str(r.verdict),
		       r.reason[0] ? " " : "", r.reason);
		count(tl, r.verdict);
	}
	if (validate_sheaves(t, &o, tl)) {
		ss_oracle_release(&o);
		return 1;
	}
	ss_oracle_release(&o);
	return 0;
}

static int validate_slabinfo(const struct ss_target *t, const char *path,
			     struct tally *tl)
{
	struct ss_slabinfo_line *l;
	struct ss_error err;
	size_t n;

	if (ss_slabinfo_read(path, &l, &n, &err)) {
		fprintf(stderr, "slabsim validate: %s\n", err.msg);
		return 1;
	}
	print_banner(t, path);
	printf("%-28s %6s | %5s %4s (kernel) | %5s %4s (model) | %s\n", "name",
	       "objsz", "order", "objs", "order", "objs", "verdict reason");
	for (size_t i = 0; i < n; i++) {
		char reason[160];
		int morder;
		unsigned mobjs;
		enum ss_verdict v = ss_slabinfo_check(t, &l[i], &morder, &mobjs,
						      reason, sizeof(reason));

		printf("%-28s %6u | %5u %4u          | %5d %4u         | %s%s%s\n",
		       l[i].name, l[i].objsize, ss_fls(l[i].pagesperslab) - 1,
		       l[i].objperslab, morder, mobjs, verdict_str(v),
		       reason[0] ? " " : "", reason);
		count(tl, v);
	}
	free(l);
	return 0;
}

int ss_cmd_validate(int argc, char **argv)
{
	struct val_opts o = {0};
	struct ss_target t;
	struct ss_error err;
	struct tally tl = {0};
	const char *src;
	int rc;

	rc = parse_opts(argc, argv, &o);
	if (rc)
		return ss_opt_exit(rc);
	if (ss_target_load(o.val[O_TARGET] ? o.val[O_TARGET] : DEFAULT_TARGET, &t, &err)) {
		fprintf(stderr, "slabsim validate: %s\n", err.msg);
		return 1;
	}
	if (o.val[O_CPUS]) {
		t.cpus = o.cpus;
	} else {
		unsigned n = present_cpus();

		if (n)
			t.cpus = n;
		else
			fprintf(stderr, "slabsim validate: %s unreadable, using the target's %u CPUs\n",
				PRESENT_CPUS, t.cpus);
	}
	src = o.val[O_SLABINFO] ? o.val[O_SLABINFO] : o.val[O_SYS] ? o.val[O_SYS] : DEFAULT_SYS;
	if (o.val[O_SLABINFO])
		rc = validate_slabinfo(&t, src, &tl);
	else
		rc = validate_sys(&t, src, &tl);
	if (rc)
		return rc;
	printf("validate: %u caches, %u match, %u mismatch, %u explicit-freeptr",
	       tl.n, tl.match, tl.mismatch, tl.freeptr);
	if (tl.sheaf_n)
		printf("; sheaf_capacity: %u checked, %u mismatch", tl.sheaf_n, tl.sheaf_mismatch);
	printf("\n");
	return tl.mismatch || tl.sheaf_mismatch ? 1 : 0;
}
