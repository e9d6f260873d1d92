/* adv_out.c - advice.csv, advice.md and the placement files (adv_out.h). */
#include "adv_out.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "escape.h"
#include "sort.h"

static const char *const csv_cols =
	"rank,site,current_cache,proposal,object_size,predicted_saving_kib,"
	"replayed_saving_kib,peak_saving_kib,time_delta_ms,kind,cache,merges_into,"
	"slab_pages_saved,footprint_kib,peak_footprint_kib,place";

static const char *const kind_names[] = {
	[SS_ADVISE_DEDICATED] = "dedicated", [ADV_GROUP] = "group", [SS_ADVISE_MERGED] = "merged",
	[ADV_CLASSES] = "classes", [SS_ADVISE_BUCKETS] = "buckets", [ADV_RANDOM] = "random",
};

/* Eras of the words about merging (major*100+minor). */
#define ERA_SLAB_NOMERGE_PARAM 318 /* slab_nomerge, was slub_nomerge (3.18) */
#define ERA_SLAB_NO_MERGE 605	   /* SLAB_NO_MERGE (d0bf7d5759c1, 6.5) */

struct ranked {
	unsigned idx;		/* into props->p */
	double saving, peak;	/* KiB: baseline minus proposal */
	int64_t pages;		/* slab pages saved (signed) */
	double time_ms;		/* proposal minus baseline */
};

struct out {
	const struct ss_advise_report *r;
	struct ranked *rk;
	unsigned nr;
	char era[16];
};

/* A difference as printed: no "-0.000" for a change below the last digit. */
static double shown(double v, double unit)
{
	return v > -unit / 2 && v < unit / 2 ? 0.0 : v;
}

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->saving != y->saving)
		return x->saving > y->saving ? -1 : 1;
	if (x->peak != y->peak)
		return x->peak > y->peak ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int rank_all(struct out *o, struct ss_error *err)
{
	const struct ss_advise_report *r = o->r;

	o->rk = calloc(r->props->nr + 1, sizeof(*o->rk));
	if (!o->rk)
		return ss_errorf(err, "out of memory");
	for (unsigned i = 0; i < r->props->nr; i++) {
		struct ranked *k;

		if (!r->replayed[i])
			continue;
		k = &o->rk[o->nr++];
		k->idx = i;
		k->saving = r->base->footprint_kib - r->res[i].footprint_kib;
		k->peak = r->base->peak_kib - r->res[i].peak_kib;
		k->pages = (int64_t)r->base->slab_pages - (int64_t)r->res[i].slab_pages;
		k->time_ms = r->res[i].sim_ms - r->base->sim_ms;
	}
	ss_sort(o->rk, o->nr, sizeof(*o->rk), cmp_ranked);
	return 0;
}

/* ---- advice.csv ---- */

static void csv_row(FILE *fp, const struct out *o, unsigned rank)
{
	const struct ranked *k = &o->rk[rank];
	const struct ss_advise_prop *p = &o->r->props->p[k->idx];
	const struct ss_advise_result *res = &o->r->res[k->idx];
	char place[32];

	fprintf(fp, "%u,", rank + 1);
	ss_csv_put(fp, p->sites);
	fputc(',', fp);
	ss_csv_put(fp, p->current);
	fputc(',', fp);
	ss_csv_put(fp, p->label);
	fprintf(fp, ",%u,%.2f,%.2f,%.2f,%.3f,%s,", p->object_size, shown(p->predicted_kib, 0.01),
		shown(k->saving, 0.01), shown(k->peak, 0.01), shown(k->time_ms, 0.001),
		kind_names[p->kind]);
	ss_csv_put(fp, p->cache);
	fputc(',', fp);
	ss_csv_put(fp, p->merge_into[0] ? p->merge_into : "-");
	if (p->config[0]) /* a kernel option, no placement: replay_cmd() */
		snprintf(place, sizeof(place), "-");
	else
		snprintf(place, sizeof(place), "proposals/%02u.place", rank + 1);
	fprintf(fp, ",%" PRId64 ",%.2f,%.2f,%s\n", k->pages, res->footprint_kib,
		res->peak_kib, place);
}

/* ---- advice.md ---- */

/* The command that replays proposal `rank` (0: the baseline), whose kernel
 * options add `config` (NULL or "": none) to the baseline's. */
static void replay_cmd(FILE *fp, const struct out *o, unsigned rank, const char *config)
{
	const struct ss_run_spec *s = &o->r->opts->spec;

	fprintf(fp, "`slabsim run --trace %s --model %s --target %s", s->trace, s->model,
		s->target);
	if (s->cpus)
		fprintf(fp, " --cpus %u", s->cpus);
	if (s->nodes)
		fprintf(fp, " --nodes %u", s->nodes);
	if (s->topology)
		fprintf(fp, " --topology '%s'", s->topology);
	if (s->costs)
		fprintf(fp, " --costs %s", s->costs);
	if (s->slub_debug)
		fprintf(fp, " --slub-debug %s", s->slub_debug);
	if (s->no_merge)
		fprintf(fp, " --no-merge");
	if (config && config[0])
		fprintf(fp, " --config %s%s%s", s->config ? s->config : "", s->config ? "," : "",
			config);
	else if (s->config)
		fprintf(fp, " --config %s", s->config);
	if (rank && !(config && config[0]))
		fprintf(fp, " --place %s/proposals/%02u.place --out RUN`", o->r->opts->out, rank);
	else
		fprintf(fp, " --out RUN`");
}

/* "smk_set_access:rule" or "`a`, `b` and `c`" */
static void md_sites(FILE *fp, const char *sites)
{
	const char *p = sites;
	unsigned n = 0, total = 1;

	for (const char *q = sites; *q; q++)
		total += *q == ' ';
	while (*p) {
		size_t len = strcspn(p, " ");

		fprintf(fp, "%s`%.*s`", !n ? "" : n + 1 == total ? " and " : ", ", (int)len, p);
		n++;
		p += len;
		p += *p == ' ';
	}
}

/* How to keep a cache from being merged: the SLAB_NO_MERGE flag
 * ("mm/slab: introduce kmem_cache flag SLAB_NO_MERGE", 6.5), else the
 * boot parameter (slub_nomerge; slab_nomerge from 3.18, when merging
 * moved to mm/slab_common.c, 423c929cbbec). */
static const char *no_merge_words(const struct out *o)
{
	int era = o->r->target->era;

	return era >= ERA_SLAB_NO_MERGE ? "create it with `SLAB_NO_MERGE`"
	       : era >= ERA_SLAB_NOMERGE_PARAM ? "boot with `slab_nomerge` (`SLAB_NO_MERGE` exists from 6.5)"
					  : "boot with `slub_nomerge` (`SLAB_NO_MERGE` exists from 6.5)";
}

static void merge_words(FILE *fp, const struct out *o, const struct ss_advise_prop *p)
{
	if (!p->merge_into[0]) {
		fprintf(fp, "- Merging: on %s, find_mergeable() finds no existing cache to alias it to, so it stays a cache of its own.\n",
			o->era);
	} else if (!strcmp(p->merge_into, p->current)) {
		fprintf(fp, "- Merging: on %s, find_mergeable() aliases it to `%s`, where the objects are now: in the kernel the change does nothing unless you %s.  This row was replayed with the cache kept unmerged: its saving is what the change gives with that done.\n",
			o->era, p->merge_into, no_merge_words(o));
	} else {
		fprintf(fp, "- Merging: on %s, find_mergeable() aliases it to `%s`: the kernel gets the `merged` proposal of this cache unless you %s.\n",
			o->era, p->merge_into, no_merge_words(o));
	}
}

static void cache_words(FILE *fp, const struct out *o, const struct ss_advise_prop *p)
{
	fprintf(fp, "- Create the cache at init: `%s_cachep = kmem_cache_create(\"%s\", sizeof(struct …) /* %u bytes */, __alignof__(struct …), %s, NULL);` (`KMEM_CACHE(…, %s)`).\n",
		p->cache, p->cache, p->object_size, p->hwcache ? "SLAB_HWCACHE_ALIGN" : "0",
		p->hwcache ? "SLAB_HWCACHE_ALIGN" : "0");
	fprintf(fp, "- Switch the allocation site%s ", p->nr_sites > 1 ? "s" : "");
	md_sites(fp, p->sites);
	fprintf(fp, ": `kmalloc(sizeof(struct …), gfp)` becomes `kmem_cache_alloc(%s_cachep, gfp)`, and the matching `kfree()` `kmem_cache_free(%s_cachep, …)`.\n",
		p->cache, p->cache);
	fprintf(fp, "- Objects: %u bytes, now in `%s` (%u bytes each with alignment), then %u bytes each%s.\n",
		p->object_size, p->current, p->cur_stride, p->stride,
		p->hw_same ? " (SLAB_HWCACHE_ALIGN gives the same layout: either way)" : "");
	merge_words(fp, o, p);
}

static void change_words(FILE *fp, const struct out *o, const struct ss_advise_prop *p)
{
	switch (p->kind) {
	case SS_ADVISE_DEDICATED:
	case ADV_GROUP:
		cache_words(fp, o, p);
		break;
	case SS_ADVISE_MERGED:
		fprintf(fp, "- What SLUB does with the dedicated cache of ");
		md_sites(fp, p->sites);
		fprintf(fp, " on %s: find_mergeable() makes it an alias of `%s` (it fits within a pointer and its alignment), so the objects go to `%s` (%u bytes each; now `%s`, %u).\n",
			o->era, p->cache, p->cache, p->stride, p->current, p->cur_stride);
		break;
	case ADV_CLASSES:
		if (!strcmp(p->label, "classes:min8"))
			fprintf(fp, "- Let kmalloc classes start at 8 bytes: ARCH_KMALLOC_MINALIGN 8 instead of ARCH_DMA_MINALIGN (\"mm/slab: decouple ARCH_KMALLOC_MINALIGN from ARCH_DMA_MINALIGN\", 6.5, with DMA bouncing small buffers on non-coherent devices), so `%s` .. `kmalloc-192` all exist.\n",
				p->cache);
		else if (!p->object_size) /* classes:+96,192 */
			fprintf(fp, "- Create `kmalloc-96` and `kmalloc-192` although KMALLOC_MIN_SIZE is above 64 (create_kmalloc_caches() and size_index[]), so requests of 65 to 96 bytes stop going to `%s` and of 129 to 192 to the 256-byte class.\n",
				p->current);
		else
			fprintf(fp, "- Add the kmalloc class `%s`: an entry in kmalloc_info[] and size_index[] (mm/slab_common.c) and its KMALLOC_* index, so requests up to %u bytes stop going to `%s`.\n",
				p->cache, p->object_size, p->current);
		fprintf(fp, "- Every kmalloc site is affected; no call site changes.\n");
		break;
	case SS_ADVISE_BUCKETS:
		fprintf(fp, "- Give ");
		md_sites(fp, p->sites);
		fprintf(fp, " its own bucket set (6.11+, CONFIG_SLAB_BUCKETS): `%s_buckets = kmem_buckets_create(\"%s\", 0, 0, INT_MAX, NULL);` at init and `kmem_buckets_alloc(%s_buckets, size, gfp)` at the site: a private, unmerged copy of every kmalloc class. A hardening change: the saving is negative, its cost.\n",
			p->cache, p->cache, p->cache);
		break;
	case ADV_RANDOM:
		if (!o->r->target->kc.random_kmalloc)
			fprintf(fp, "- Build with `CONFIG_RANDOM_KMALLOC_CACHES=y` (6.6): kmalloc_type() sends each kmalloc call site to one of 16 copies of every kmalloc class (`kmalloc-rnd-01-*` .. `kmalloc-rnd-15-*` and the plain `kmalloc-*`), chosen by a hash of the caller's address and the boot-time `random_kmalloc_seed`, so that objects of different sites rarely share a slab.  A hardening change: the saving is negative, its cost.\n");
		else
			fprintf(fp, "- Build without `CONFIG_RANDOM_KMALLOC_CACHES` (the baseline has it): every kmalloc call site shares the one `kmalloc-*` cache of its class again instead of one of 16 copies chosen by a hash of the caller's address.  The saving is what the hardening costs.\n");
		fprintf(fp, "- Every kmalloc site is affected; no call site changes.\n");
		break;
	}
}

/* Where the CPU count came from (ss_run_setup's cpus_from): an imported
 * capture replays on the CPUs it was taken on. */
static const char *cpus_words(const char *from)
{
	if (!from || !strcmp(from, "target"))
		return "the target's";
	if (!strcmp(from, "trace"))
		return "the trace's `meta cpus`";
	return !strcmp(from, "--cpus") ? "--cpus" : "the topology's";
}

static void md_head(FILE *fp, const struct out *o)
{
	const struct ss_advise_report *r = o->r;
	const struct ss_advise_opts *op = r->opts;

	fprintf(fp, "# slabsim advise: %s\n\n", op->spec.trace);
	fprintf(fp, "Target %s (kernel %s, %u CPUs: %s), model `%s`", r->target->name, o->era,
		r->target->cpus, cpus_words(r->cpus_from), op->spec.model);
	if (op->spec.config)
		fprintf(fp, ", kernel options `%s`", op->spec.config);
	fprintf(fp, "; the trace has %" PRIu64 " events, %" PRIu64 " allocations.\n\n",
		r->scan->events, r->scan->allocs);
	fprintf(fp, "The baseline replay: footprint %.2f KiB at the end, %.2f KiB at the peak, %" PRIu64
		    " slab pages, %.3f ms simulated (",
		r->base->footprint_kib, r->base->peak_kib, r->base->slab_pages, r->base->sim_ms);
	replay_cmd(fp, o, 0, NULL);
	fprintf(fp, ").\n\n");
	fprintf(fp, "Every saving below is the difference between two full replays of the trace, the baseline's and the proposal's; `predicted` is the estimate (objects live at the end times the bytes saved per object) used only to choose what to replay.  %u proposals replayed",
		o->nr);
	if (r->props->dropped)
		fprintf(fp, "; %u more candidates were past --max-proposals (%.1f KiB predicted together)",
			r->props->dropped, r->props->dropped_kib);
	fprintf(fp, ".\n\n");
}

static void md_table(FILE *fp, const struct out *o)
{
	fprintf(fp, "## Ranked by replayed saving\n\n");
	if (!o->nr) {
		fprintf(fp, "No proposal: no fixed-size kmalloc site here would take fewer bytes per object in a cache of its own, and no kmalloc class set would either.\n\n");
		return;
	}
	fprintf(fp, "| rank | proposal | site | now | proposed | object B | predicted KiB | replayed KiB | peak KiB | slab pages | time ms |\n");
	fprintf(fp, "|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (unsigned i = 0; i < o->nr; i++) {
		const struct ranked *k = &o->rk[i];
		const struct ss_advise_prop *p = &o->r->props->p[k->idx];

		fprintf(fp, "| %u | %s | ", i + 1, p->label);
		if (p->nr_sites > 1)
			fprintf(fp, "%u sites of %u bytes", p->nr_sites, p->object_size);
		else
			fprintf(fp, "`%s`", p->sites);
		fprintf(fp, " | %s | %s | %u | %.1f | %.1f | %.1f | %" PRId64 " | %+.3f |\n",
			p->current, p->cache, p->object_size, shown(p->predicted_kib, 0.1),
			shown(k->saving, 0.1), shown(k->peak, 0.1), k->pages, shown(k->time_ms, 0.001));
	}
	fprintf(fp, "\n");
}

static void md_changes(FILE *fp, const struct out *o)
{
	if (!o->nr)
		return;
	fprintf(fp, "## The kernel changes\n\n");
	for (unsigned i = 0; i < o->nr; i++) {
		const struct ranked *k = &o->rk[i];
		const struct ss_advise_prop *p = &o->r->props->p[k->idx];

		fprintf(fp, "### %u. %s: %s (%.1f KiB at the end, %.1f at the peak)\n\n", i + 1,
			p->label, p->nr_sites > 1 ? "a group" : p->sites, shown(k->saving, 0.1),
			shown(k->peak, 0.1));
		change_words(fp, o, p);
		fprintf(fp, "- Replay: ");
		replay_cmd(fp, o, i + 1, p->config);
		fprintf(fp, " (the baseline: the same without `%s`).\n\n",
			p->config[0] ? p->config : "--place");
	}
}

static void md_not_replayed(FILE *fp, const struct out *o)
{
	const struct ss_advise_props *ps = o->r->props;
	bool any = false;

	for (unsigned i = 0; i < ps->nr; i++) {
		if (o->r->replayed[i])
			continue;
		if (!any)
			fprintf(fp, "## Not replayed\n\n");
		any = true;
		fprintf(fp, "- %s (%s): %s.\n", ps->p[i].label, ps->p[i].sites,
			ps->p[i].why[0] ? ps->p[i].why : ps->p[i].needs ? ps->p[i].needs : "not replayed");
	}
	if (any)
		fprintf(fp, "\n");
}

/* ---- savings.dat: the plot's data (sim/advise/advice.gp) ---- */

/* Proposals in the plot: the best ones. */
#define ADV_PLOT_ROWS 25

static void plot_data(FILE *fp, const struct out *o)
{
	fprintf(fp, "# rank replayed_saving_kib peak_saving_kib \"label\" (advice.csv's first %d rows)\n",
		ADV_PLOT_ROWS);
	if (!o->nr) /* gnuplot refuses a file without data */
		fprintf(fp, "0 0 0 \"no proposal\"\n");
	for (unsigned i = 0; i < o->nr && i < ADV_PLOT_ROWS; i++) {
		const struct ranked *k = &o->rk[i];
		const struct ss_advise_prop *p = &o->r->props->p[k->idx];
		char label[256];

		/* short: the site's function (no +offset/size), or the group's cache */
		if (p->nr_sites > 1)
			snprintf(label, sizeof(label), "%u. %s %s (%u sites)", i + 1, p->label,
				 p->cache, p->nr_sites);
		else if (!p->nr_sites)
			snprintf(label, sizeof(label), "%u. kmalloc %s", i + 1, p->label);
		else
			snprintf(label, sizeof(label), "%u. %.*s %s", i + 1,
				 (int)(strcspn(p->sites, "+") < 28 ? strcspn(p->sites, "+") : 28),
				 p->sites, p->label);
		for (char *c = label; *c; c++)
			if (*c == '"' || *c == '\\')
				*c = '\'';
		fprintf(fp, "%u %.2f %.2f \"%s\"\n", i + 1, shown(k->saving, 0.01),
			shown(k->peak, 0.01), label);
	}
}

/* ---- files ---- */

struct files {
	struct ss_atomic_file *f; /* [0] csv, [1] md, [2] dat, [3..] place files */
	unsigned n, opened;
	char **done;		  /* committed paths, removed on failure */
	unsigned nr_done;
};

static int open_at(struct files *fs, const char *dir, const char *name,
		   struct ss_error *err)
{
	char path[4096];
	int w = snprintf(path, sizeof(path), "%s/%s", dir, name);

	if (w < 0 || (size_t)w >= sizeof(path))
		return ss_errorf(err, "%s: path too long", dir);
	if (ss_atomic_open(&fs->f[fs->opened], path, err))
		return -1;
	fs->opened++;
	return 0;
}

/* NN.place files of an earlier run would be taken for this one's */
static void remove_stale(const char *dir)
{
	char path[4600];
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > 6 && !strcmp(e->d_name + len - 6, ".place")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

static int commit_all(struct files *fs, struct ss_error *err)
{
	fs->done = calloc(fs->opened + 1, sizeof(*fs->done));
	if (!fs->done)
		return ss_errorf(err, "out of memory");
	for (unsigned i = 0; i < fs->opened; i++) {
		char *path = strdup(fs->f[i].path);

		if (!path || ss_atomic_commit(&fs->f[i], err)) {
			free(path);
			if (!path)
				ss_errorf(err, "out of memory");
			for (unsigned j = i + 1; j < fs->opened; j++)
				ss_atomic_abort(&fs->f[j]);
			for (unsigned j = 0; j < fs->nr_done; j++)
				unlink(fs->done[j]);
			fs->opened = 0;
			return -1;
		}
		fs->done[fs->nr_done++] = path;
	}
	fs->opened = 0;
	return 0;
}

static void files_release(struct files *fs)
{
	for (unsigned i = 0; i < fs->opened; i++)
		ss_atomic_abort(&fs->f[i]);
	for (unsigned i = 0; i < fs->nr_done; i++)
		free(fs->done[i]);
	free(fs->done);
	free(fs->f);
}

int ss_advise_write_outputs(const struct ss_advise_report *r, struct ss_error *err)
{
	struct out o = {.r = r};
	struct files fs = {0};
	char dir[4200];
	int rc = -1;

	ss_era_str(r->target->era, o.era, sizeof(o.era));
	snprintf(dir, sizeof(dir), "%s/proposals", r->opts->out);
	if (rank_all(&o, err) || ss_mkdirs(dir, err))
		goto out;
	fs.n = o.nr + 3;
	fs.f = calloc(fs.n, sizeof(*fs.f));
	if (!fs.f) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	if (open_at(&fs, r->opts->out, "advice.csv", err) ||
	    open_at(&fs, r->opts->out, "advice.md", err) ||
	    open_at(&fs, r->opts->out, "savings.dat", err))
		goto out;
	plot_data(fs.f[2].fp, &o);
	fprintf(fs.f[0].fp, "%s\n", csv_cols);
	for (unsigned i = 0; i < o.nr; i++)
		csv_row(fs.f[0].fp, &o, i);
	md_head(fs.f[1].fp, &o);
	md_table(fs.f[1].fp, &o);
	md_changes(fs.f[1].fp, &o);
	md_not_replayed(fs.f[1].fp, &o);
	for (unsigned i = 0; i < o.nr; i++) {
		const struct ss_advise_prop *p = &r->props->p[o.rk[i].idx];
		char name[32];

		if (p->config[0]) /* a kernel option: no placement to write */
			continue;
		snprintf(name, sizeof(name), "%02u.place", i + 1);
		if (open_at(&fs, dir, name, err))
			goto out;
		fprintf(fs.f[fs.opened - 1].fp, "# slabsim advise, rank %u: %s (%s)\n", i + 1,
			p->label, p->sites);
		/* a write error stays on the stream: the commit reports it */
		(void)ss_overrides_write(&p->ov, fs.f[fs.opened - 1].fp);
	}
	remove_stale(dir);
	rc = commit_all(&fs, err);
out:
	files_release(&fs);
	free(o.rk);
	return rc;
}
