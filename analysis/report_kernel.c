/* report_kernel.c - the replay against the live kernel (report_kernel.h). */
#include "report_kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "md_table.h"
#include "slabsnap.h"
#include "sort.h"

int64_t ss_report_kernel_delta(uint64_t before, uint64_t after)
{
	/* snapshot figures are below 2^56 (slabsnap.c), so both fit and the
	 * difference cannot overflow */
	return (int64_t)after - (int64_t)before;
}

double ss_report_kernel_err_pct(int64_t kernel, int64_t model)
{
	if (!kernel)
		return NAN;
	return 100.0 * (double)(model - kernel) / fabs((double)kernel);
}

static int64_t k_dobj(const struct ss_report_kernel_row *r) { return ss_report_kernel_delta(r->k_obj0, r->k_obj1); }
static int64_t m_dobj(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_delta(r->own_start ? r->m_obj0 : r->k_obj0, r->m_obj1);
}

static int64_t k_dslab(const struct ss_report_kernel_row *r) { return ss_report_kernel_delta(r->k_slab0, r->k_slab1); }
static int64_t m_dslab(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_delta(r->own_start ? r->m_slab0 : r->k_slab0, r->m_slab1);
}

int64_t ss_report_kernel_model_dobj(const struct ss_report_kernel_row *r)
{
	return m_dobj(r);
}

int64_t ss_report_kernel_model_dslab(const struct ss_report_kernel_row *r)
{
	return m_dslab(r);
}

int64_t ss_report_kernel_model_dpages(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_delta(r->own_start ? r->m_pages0 : r->k_pages0, r->m_pages1);
}

bool ss_report_kernel_row_held(const struct ss_report_kernel_row *r)
{
	return llabs(k_dobj(r)) >= SS_REPORT_KERNEL_MIN_DELTA;
}

static bool objects_ok(int64_t kobj, int64_t mobj)
{
	return fabs(ss_report_kernel_err_pct(kobj, mobj)) <= SS_REPORT_KERNEL_OBJ_TOL;
}

/* A slab change of 0 against 0 is right; against anything else the error
 * is infinite. */
static bool slabs_ok(int64_t kslab, int64_t mslab)
{
	double es = ss_report_kernel_err_pct(kslab, mslab);

	if (isnan(es))
		es = mslab ? INFINITY : 0.0;
	return fabs(es) <= SS_REPORT_KERNEL_SLAB_TOL;
}

static bool changes_ok(int64_t kobj, int64_t mobj, int64_t kslab, int64_t mslab)
{
	return objects_ok(kobj, mobj) && slabs_ok(kslab, mslab);
}

bool ss_report_kernel_row_objects_ok(const struct ss_report_kernel_row *r)
{
	return objects_ok(k_dobj(r), m_dobj(r));
}

bool ss_report_kernel_row_slabs_ok(const struct ss_report_kernel_row *r)
{
	return slabs_ok(k_dslab(r), m_dslab(r));
}

bool ss_report_kernel_row_ok(const struct ss_report_kernel_row *r)
{
	return changes_ok(k_dobj(r), m_dobj(r), k_dslab(r), m_dslab(r));
}

bool ss_report_kernel_row_within(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_row_held(r) && !r->settled && ss_report_kernel_row_ok(r);
}

bool ss_report_kernel_row_ok_unsettled(const struct ss_report_kernel_row *r)
{
	return changes_ok(k_dobj(r), ss_report_kernel_delta(r->own_start ? r->m_obj0 : r->k_obj0, r->u_obj1),
			  k_dslab(r),
			  ss_report_kernel_delta(r->own_start ? r->m_slab0 : r->k_slab0, r->u_slab1));
}

static struct ss_report_kernel_row *row_for(struct ss_report_kernel *k, const char *name, size_t *cap)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->rows[i].name, name))
			return &k->rows[i];
	if (strlen(name) >= sizeof(k->rows[0].name))
		return NULL;
	if (k->n == *cap) {
		size_t c = *cap ? 2 * *cap : 256;
		struct ss_report_kernel_row *r = realloc(k->rows, c * sizeof(*r));

		if (!r)
			return NULL;
		k->rows = r;
		*cap = c;
	}
	memset(&k->rows[k->n], 0, sizeof(k->rows[0]));
	strcpy(k->rows[k->n].name, name);
	return &k->rows[k->n++];
}

void ss_report_kernel_kslab_cols(const struct ss_csv *c, int col[SS_REPORT_KERNEL_KSLAB_COLS])
{
	static const char *const name[SS_REPORT_KERNEL_KSLAB_COLS] = {
		"kslabs_freed_from", "kslabs_whole", "prior_slabs_not_full", "prior_slabs_freed",
		"kslabs_listed", "prior_listed_unseen", "cpu_slabs_listed",
	};

	for (unsigned i = 0; i < SS_REPORT_KERNEL_KSLAB_COLS; i++)
		col[i] = ss_csv_col(c, name[i]);
}

int ss_report_kernel_kslab_read(const struct ss_csv *c, const int col[SS_REPORT_KERNEL_KSLAB_COLS],
			 uint64_t v[SS_REPORT_KERNEL_KSLAB_COLS], struct ss_error *err)
{
	for (unsigned i = 0; i < SS_REPORT_KERNEL_KSLAB_COLS; i++) {
		v[i] = 0;
		if (col[i] >= 0 && ss_csv_u64(c, (unsigned)col[i], &v[i], err))
			return -1;
	}
	if (v[1] > v[0])
		return ss_errorf(err, "%s:%lu: kslabs_whole %llu is more than kslabs_freed_from %llu",
				 c->path, c->line, (unsigned long long)v[1],
				 (unsigned long long)v[0]);
	if (v[4] > v[0])
		return ss_errorf(err, "%s:%lu: kslabs_listed %llu is more than kslabs_freed_from %llu",
				 c->path, c->line, (unsigned long long)v[4],
				 (unsigned long long)v[0]);
	return 0;
}

/* prior.csv and settled.csv of the run, when it wrote them. */
static int load_run_csv(struct ss_report_kernel *k, const char *dir, const char *file,
			size_t *cap, struct ss_error *err)
{
	char path[1100];
	struct ss_csv c;
	unsigned name, a = 0, b = 0;
	bool prior = !strcmp(file, "prior.csv");
	int rc, u = -1, ce = -1, cm = -1, un = -1, fe = -1, fs = -1, io = -1, is = -1;
	int ks[SS_REPORT_KERNEL_KSLAB_COLS] = {-1, -1, -1, -1, -1, -1, -1};

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (access(path, F_OK))
		return 0;
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "cache", &name, err) ||
	    ss_csv_need(&c, prior ? "prior_freed" : "objects", &a, err) ||
	    (prior && ss_csv_need(&c, "prior_missing", &b, err))) {
		ss_csv_close(&c);
		return -1;
	}
	if (prior) { /* (runs before them have no such columns) */
		fs = ss_csv_col(&c, "from_snapshot");
		io = ss_csv_col(&c, "initial_objects");
		is = ss_csv_col(&c, "initial_slabs");
		u = ss_csv_col(&c, "untraced_allocs");
		ce = ss_csv_col(&c, "cpu_free_estimated");
		cm = ss_csv_col(&c, "cpu_free_measured");
		un = ss_csv_col(&c, "prior_freed_unseen");
		fe = ss_csv_col(&c, "cpu_free_end");
		ss_report_kernel_kslab_cols(&c, ks);
	}
	while ((rc = ss_csv_next(&c, err)) == 1) {
		struct ss_report_kernel_row *r = row_for(k, ss_csv_get(&c, name), cap);
		uint64_t x, y = 0, z = 0, e = 0, m = 0, w = 0, f = 0, kv[SS_REPORT_KERNEL_KSLAB_COLS];
		uint64_t own = 1, o0 = 0, s0 = 0;

		if (!r) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
		if (ss_csv_u64(&c, a, &x, err) || (prior && ss_csv_u64(&c, b, &y, err)) ||
		    (u >= 0 && ss_csv_u64(&c, (unsigned)u, &z, err)) ||
		    (ce >= 0 && ss_csv_u64(&c, (unsigned)ce, &e, err)) ||
		    (cm >= 0 && ss_csv_u64(&c, (unsigned)cm, &m, err)) ||
		    (un >= 0 && ss_csv_u64(&c, (unsigned)un, &w, err)) ||
		    (fe >= 0 && ss_csv_u64(&c, (unsigned)fe, &f, err)) ||
		    (fs >= 0 && ss_csv_u64(&c, (unsigned)fs, &own, err)) ||
		    (io >= 0 && ss_csv_u64(&c, (unsigned)io, &o0, err)) ||
		    (is >= 0 && ss_csv_u64(&c, (unsigned)is, &s0, err)) ||
		    ss_report_kernel_kslab_read(&c, ks, kv, err)) {
			rc = -1;
			break;
		}
		if (prior) {
			r->prior_freed += x;
			r->prior_missing += y;
			r->untraced_allocs += z;
			r->cpu_free_est += e;
			r->cpu_free_meas += m;
			r->prior_freed_unseen += w;
			r->kslabs_freed_from += kv[0];
			r->kslabs_whole += kv[1];
			r->prior_not_full += kv[2];
			r->prior_slabs_freed += kv[3];
			r->kslabs_listed += kv[4];
			r->prior_listed_unseen += kv[5];
			r->cpu_slabs_listed += kv[6];
			r->m_cpu_free1 += f;
			r->m_cpu_free1_known = fe >= 0;
			/* a geometry of the run's own: its change from its own
			 * start (the kernel's objects in its slabs) */
			if (!own && s0 && s0 < (1ull << 48)) {
				r->own_start = true;
				r->m_obj0 = o0;
				r->m_slab0 = s0;
				r->m_pages0 = s0 << r->m_order;
			}
			k->prior_freed += x;
			k->prior_missing += y;
		} else {
			r->settled += x;
			k->settled += x;
		}
	}
	ss_csv_close(&c);
	return rc < 0 ? -1 : 0;
}

static int by_kernel_change(const void *a, const void *b)
{
	const struct ss_report_kernel_row *x = a, *y = b;
	int64_t dx = llabs(k_dobj(x)), dy = llabs(k_dobj(y));

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Which caches the run gave sheaves: from 7.0 every cache SLUB (not
 * SLUB_TINY) gives a capacity, its kernel.txt's era= and allocator=
 * say; before, its config names each one's sheaf_capacity.NAME
 * (allocators/kconfig.c; a run before kernel.txt, or on a target before
 * 6.18, gives none). */
static int load_sheaf_config(struct ss_report_kernel *k, const char *run_dir, struct ss_error *err)
{
	char path[1100], line[8192];
	unsigned major = 0, minor = 0;
	bool slub = false;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/kernel.txt", run_dir);
	if (!(fp = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		char *save = NULL;

		if (!strncmp(line, "era=", 4) && sscanf(line + 4, "%u.%u", &major, &minor) != 2)
			major = 0;
		if (!strcmp(line, "allocator=slub\n"))
			slub = true;
		if (strncmp(line, "config=", 7))
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (char *t = strtok_r(line + 7, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(t, '=');

			if (strncmp(t, "sheaf_capacity.", 15) || !eq)
				continue;
			*eq = '\0';
			for (size_t i = 0; i < k->n; i++)
				if (!strcmp(k->rows[i].name, t + 15))
					k->rows[i].sheaves_modelled = strcmp(eq + 1, "0") != 0;
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		return ss_errorf(err, "%s: read error", path);
	}
	fclose(fp);
	for (size_t i = 0; slub && major >= 7 && i < k->n; i++)
		k->rows[i].sheaves_modelled = true;
	return 0;
}

/* The run's slabinfo before settling, when it settled (cmd_run.c). */
static int load_unsettled(struct ss_report_kernel *k, const char *run_dir, struct ss_error *err)
{
	char path[1100];
	struct ss_snap u;

	snprintf(path, sizeof(path), "%s/slabinfo.unsettled", run_dir);
	if (access(path, F_OK))
		return 0;
	if (ss_snap_load(&u, path, err))
		return -1;
	k->unsettled = true;
	for (size_t i = 0; i < k->n; i++) {
		const struct ss_snap_cache *c = ss_snap_find(&u, k->rows[i].name);

		if (c) {
			k->rows[i].u_obj1 = c->objects;
			k->rows[i].u_slab1 = c->slabs;
		}
	}
	ss_snap_release(&u);
	return 0;
}

int ss_report_kernel_load(struct ss_report_kernel *k, const char *before, const char *after,
		   const char *run_dir, const char *model, struct ss_error *err)
{
	struct ss_snap b, a, m;
	char path[1100];
	size_t cap = 0;
	int rc = -1;

	memset(k, 0, sizeof(*k));
	snprintf(k->before, sizeof(k->before), "%s", before);
	snprintf(k->after, sizeof(k->after), "%s", after);
	snprintf(k->run, sizeof(k->run), "%s", run_dir);
	snprintf(k->model, sizeof(k->model), "%s", model);
	snprintf(path, sizeof(path), "%s/slabinfo", run_dir);
	if (ss_snap_load(&b, before, err))
		return -1;
	if (ss_snap_load_in(&a, after, "slab-after.txt", err)) {
		ss_snap_release(&b);
		return -1;
	}
	if (ss_snap_load(&m, path, err))
		goto out_ab;
	/* every cache the kernel had afterwards, and any the replay made */
	for (unsigned i = 0; i < a.nr + m.nr; i++) {
		const char *name = i < a.nr ? a.caches[i].name : m.caches[i - a.nr].name;
		const struct ss_snap_cache *cb = ss_snap_find(&b, name);
		const struct ss_snap_cache *ca = ss_snap_find(&a, name);
		const struct ss_snap_cache *cm = ss_snap_find(&m, name);
		struct ss_report_kernel_row *r;

		if (i >= a.nr && ca)
			continue; /* done with the kernel's */
		if (!(r = row_for(k, name, &cap))) {
			ss_errorf(err, "out of memory");
			goto out;
		}
		r->k_obj0 = cb ? cb->objects : 0;
		r->k_slab0 = cb ? cb->slabs : 0;
		r->k_obj1 = ca ? ca->objects : 0;
		r->k_slab1 = ca ? ca->slabs : 0;
		r->in_model = cm != NULL;
		r->m_obj1 = cm ? cm->objects : r->k_obj0;
		r->m_slab1 = cm ? cm->slabs : r->k_slab0;
		r->u_obj1 = r->m_obj1;
		r->u_slab1 = r->m_slab1;
		r->sheaf_capacity = cb ? cb->sheaf_capacity : 0;
		r->k_pages0 = cb ? cb->slabs << cb->order : 0;
		r->k_pages1 = ca ? ca->slabs << ca->order : 0;
		r->m_pages1 = cm ? cm->slabs << cm->order : r->k_pages0;
		/* (the model's order, for a before of its own: prior.csv) */
		r->m_order = cm ? cm->order : 0;
	}
	if (load_sheaf_config(k, run_dir, err) ||
	    load_run_csv(k, run_dir, "prior.csv", &cap, err) ||
	    load_run_csv(k, run_dir, "settled.csv", &cap, err) ||
	    load_unsettled(k, run_dir, err))
		goto out;
	ss_sort(k->rows, k->n, sizeof(*k->rows), by_kernel_change);
	rc = 0;
out:
	ss_snap_release(&m);
out_ab:
	ss_snap_release(&a);
	ss_snap_release(&b);
	if (rc)
		ss_report_kernel_free(k);
	return rc;
}

void ss_report_kernel_free(struct ss_report_kernel *k)
{
	free(k->rows);
	k->rows = NULL;
	k->n = 0;
}

void ss_report_kernel_err_cell(struct ss_md_table *t, int64_t kernel, int64_t model)
{
	double e = ss_report_kernel_err_pct(kernel, model);

	if (isnan(e))
		ss_mdtable_cell(t, "%s", model ? "n/a" : "0");
	else
		ss_mdtable_cell(t, "%+.1f%%", e);
}

/* A held cache, not settled, whose objects miss: where the notes on what
 * moves the objects apply. */
static bool objects_miss(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_row_held(r) && !r->settled && !ss_report_kernel_row_objects_ok(r);
}

/* Where a held cache's objects miss and the trace shows tasks allocating
 * in it without events (untraced_allocs): a free of a pointer seen only
 * once is either of an initial object or of one such a task allocated,
 * and nothing in the trace tells which (docs/own-trace.md, "Objects
 * allocated without an event").  The replay takes the first for every
 * one (prior_freed); the note gives the objects' change under the
 * second, so that the two ends of what the trace allows are both shown.
 * Slabs are not bounded so: where the objects would go is not known. */
static size_t untraced_bound_note(const struct ss_report_kernel_row *r, char *buf, size_t size)
{
	int64_t m = m_dobj(r);

	if (!r->untraced_allocs || !r->prior_freed || !objects_miss(r) ||
	    r->prior_freed > (uint64_t)(INT64_MAX - (m > 0 ? m : 0)))
		return 0;
	return (size_t)snprintf(buf, size,
				"if the %llu frees that took initial objects were of objects such "
				"tasks allocated, the model's change would be %+lld; ",
				(unsigned long long)r->prior_freed, (long long)(m + (int64_t)r->prior_freed));
}

/* Where a held cache's objects miss and both sides' CPU slabs are known
 * at the end: how many free slots each side's CPU slabs held then, which
 * `objects` counts as in use, and the change of the objects in use. */
static size_t cpu_free_after_note(const struct ss_report_kernel_row *r, char *buf, size_t size)
{
	int64_t k, m;
	size_t n;

	if (!objects_miss(r) || !ss_report_kernel_in_use_deltas(r, &k, &m))
		return 0;
	n = (size_t)snprintf(buf, size,
			     "after, the CPU slabs had %llu free slots in the kernel and %llu in "
			     "the model, counted in `objects` as in use: the objects in use "
			     "changed by %+lld and %+lld",
			     (unsigned long long)r->k_cpu_free1, (unsigned long long)r->m_cpu_free1,
			     (long long)k, (long long)m);
	if (!isnan(ss_report_kernel_err_pct(k, m)) && n < size)
		n += (size_t)snprintf(buf + n, size - n, " (%+.1f%%)", ss_report_kernel_err_pct(k, m));
	if (n < size)
		n += (size_t)snprintf(buf + n, size - n, "; ");
	return n; /* (as snprintf: size or more when cut short) */
}

size_t ss_report_kernel_note(const struct ss_report_kernel_row *r, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	if (r->sheaf_capacity && !r->sheaves_modelled)
		n += (size_t)snprintf(buf + n, size - n, "sheaves (%u) not modelled; ",
				      r->sheaf_capacity);
	if (!r->in_model && k_dobj(r) && n < size)
		n += (size_t)snprintf(buf + n, size - n, "no event in the trace; ");
	if (r->settled && n < size) {
		int64_t u = ss_report_kernel_delta(r->own_start ? r->m_obj0 : r->k_obj0, r->u_obj1);

		n += (size_t)snprintf(buf + n, size - n, "%llu settled (before: %+lld",
				      (unsigned long long)r->settled, (long long)u);
		if (!isnan(ss_report_kernel_err_pct(k_dobj(r), u)) && n < size)
			n += (size_t)snprintf(buf + n, size - n, ", %+.1f%%",
					      ss_report_kernel_err_pct(k_dobj(r), u));
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "); ");
	}
	if (r->prior_missing && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%llu prior frees found none; ",
				      (unsigned long long)r->prior_missing);
	if (r->untraced_allocs && n < size)
		n += (size_t)snprintf(buf + n, size - n,
				      "%llu freed that no event allocated (the kernel may hold more); ",
				      (unsigned long long)r->untraced_allocs);
	if (n < size)
		n += untraced_bound_note(r, buf + n, size - n);
	if (r->prior_freed_unseen && n < size)
		n += (size_t)snprintf(buf + n, size - n,
				      "%llu initial objects left with their kernel slab's pages (no free event); ",
				      (unsigned long long)r->prior_freed_unseen);
	/* where a held cache's objects miss: the initial state's guess that
	 * `objects` cannot check (it counts CPU slabs' free slots as used) */
	if (objects_miss(r) && r->cpu_free_est && n < size) {
		n += (size_t)snprintf(buf + n, size - n,
				      "CPU slabs started with %llu free slots by SLUB's half-full estimate",
				      (unsigned long long)r->cpu_free_est);
		if (r->cpu_free_meas && n < size)
			n += (size_t)snprintf(buf + n, size - n, " and %llu measured",
					      (unsigned long long)r->cpu_free_meas);
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "; ");
	}
	if (n < size)
		n += cpu_free_after_note(r, buf + n, size - n);
	/* where its slabs miss: which kernel slabs the trace's frees of
	 * initial objects emptied depends on how full each was, which the
	 * snapshot does not say beyond the whole ones */
	if (ss_report_kernel_row_held(r) && !r->settled && !ss_report_kernel_row_slabs_ok(r) &&
	    r->kslabs_freed_from && n < size) {
		/* (a listed slab whose unseen objects made its frees a slab's
		 * worth counts as whole too: the rest, not below none) */
		uint64_t known = r->kslabs_whole + r->kslabs_listed;
		uint64_t other = r->kslabs_freed_from > known ? r->kslabs_freed_from - known : 0;

		n += (size_t)snprintf(buf + n, size - n,
				      "the trace freed initial objects from %llu of the kernel's slabs, "
				      "%llu of which held a whole slab",
				      (unsigned long long)r->kslabs_freed_from,
				      (unsigned long long)r->kslabs_whole);
		if (r->kslabs_listed && n < size)
			n += (size_t)snprintf(buf + n, size - n,
					      " and %llu of which were on the node partial list%s, "
					      "their fill measured (slab-fill)",
					      (unsigned long long)r->kslabs_listed,
					      r->cpu_slabs_listed ? " or a CPU's" : "");
		/* (with the kernel's lists: the others were on none -- full,
		 * or, when the CPU slabs were not read, a CPU's) */
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n,
					      "; %s %llu %s (%s%llu slabs started partial): the model "
					      "freed %llu of its initial slabs; ",
					      r->kslabs_listed ? "the other" : "how full the other",
					      (unsigned long long)other,
					      !r->kslabs_listed ? "were the snapshot does not say"
					      : r->cpu_slabs_listed ? "were full when the lists were read"
								    : "were full or CPU slabs when the list was read",
					      r->kslabs_listed && !r->cpu_slabs_listed
						      ? "a CPU slab's fill no file shows; " : "",
					      (unsigned long long)r->prior_not_full,
					      (unsigned long long)r->prior_slabs_freed);
	}
	/* the kernel's own list shows objects allocated with no event */
	if (r->prior_listed_unseen && n < size)
		n += (size_t)snprintf(buf + n, size - n,
				      "%llu frees of listed kernel slabs beyond the objects they "
				      "held when listed (all but one, where the slab outlived "
				      "them): allocated there with no event, dropped; ",
				      (unsigned long long)r->prior_listed_unseen);
	if (n >= size) /* cut short: the whole text would not fit */
		n = size - 1;
	else if (n >= 2)
		buf[n -= 2] = '\0'; /* the last "; " */
	return n;
}

static void note_cell(struct ss_md_table *t, const struct ss_report_kernel_row *r)
{
	char buf[SS_REPORT_KERNEL_NOTE_MAX];

	ss_report_kernel_note(r, buf, sizeof(buf));
	ss_mdtable_cell(t, "%s", buf);
}

static void table_row(struct ss_md_table *t, const struct ss_report_kernel_row *r, bool verdict)
{
	ss_mdtable_cell(t, "%s", r->name);
	ss_mdtable_cell(t, "%llu", (unsigned long long)r->k_obj0);
	ss_mdtable_cell(t, "%+lld", (long long)k_dobj(r));
	ss_mdtable_cell(t, "%+lld", (long long)m_dobj(r));
	ss_report_kernel_err_cell(t, k_dobj(r), m_dobj(r));
	ss_mdtable_cell(t, "%+lld", (long long)k_dslab(r));
	ss_mdtable_cell(t, "%+lld", (long long)m_dslab(r));
	ss_report_kernel_err_cell(t, k_dslab(r), m_dslab(r));
	if (verdict)
		ss_mdtable_cell(t, "%s", r->settled ? "settled" : ss_report_kernel_row_ok(r) ? "yes" : "no");
	note_cell(t, r);
}

static void table_head(struct ss_md_table *t, bool verdict)
{
	ss_mdtable_init(t, verdict ? "lrrrrrrrll" : "lrrrrrrrl");
	ss_mdtable_cell(t, "cache");
	ss_mdtable_cell(t, "objects before");
	ss_mdtable_cell(t, "kernel Δobjects");
	ss_mdtable_cell(t, "model Δobjects");
	ss_mdtable_cell(t, "error");
	ss_mdtable_cell(t, "kernel Δslabs");
	ss_mdtable_cell(t, "model Δslabs");
	ss_mdtable_cell(t, "error");
	if (verdict)
		ss_mdtable_cell(t, "within");
	ss_mdtable_cell(t, "what the model leaves out");
}

#define OTHER_ROWS 25
#define OTHER_MIN 100

int ss_report_kernel_load_meta(struct ss_report_kernel *k, const char *meta, struct ss_error *err)
{
	if (ss_capture_meta_load(&k->meta, meta, err))
		return -1;
	k->has_meta = true;
	return 0;
}

/* Who reaped the processes CMD orphaned (scripts/capture-orphans.sh):
 * each reaping frees a sighand_cache object in the reaper's context, and
 * where that is init no tracepoint may fire for it. */
static void write_orphans(FILE *fp, const struct ss_capture_meta *m)
{
	if (m->subreaper < 0)
		fprintf(fp, "  CMD did not run under `slabsim reap` (the capture was made before "
			    "`make capture` did so): processes it orphaned were reaped by init, and "
			    "where no tracepoint fires for init (as on the machines slabsim was built "
			    "on) each took a sighand_cache object out of the kernel's counts with no "
			    "event.");
	else if (m->subreaper == 0)
		fprintf(fp, "  CMD ran without `slabsim reap`: processes it orphaned were reaped by "
			    "init, possibly untraced.");
	else if (m->orphans_reaped > 0)
		fprintf(fp, "  CMD ran under `slabsim reap`: the %lld %s it orphaned %s reaped there, "
			    "traced, not by init.", m->orphans_reaped,
			m->orphans_reaped == 1 ? "process" : "processes",
			m->orphans_reaped == 1 ? "was" : "were");
	if (m->orphans_left > 0)
		fprintf(fp, "  %lld orphaned %s of CMD's %s still running after it ended: init "
			    "reaps %s, and the objects that frees leave with no event where init is "
			    "untraced.", m->orphans_left,
			m->orphans_left == 1 ? "process" : "processes",
			m->orphans_left == 1 ? "was" : "were", m->orphans_left == 1 ? "it" : "them");
	if (m->init_zombies_before > 0)
		fprintf(fp, "  init still had %lld zombies to reap at the before-snapshot: the "
			    "objects their reaping freed (a sighand_cache object each) left the "
			    "counts with no event.", m->init_zombies_before);
}

/* What no replay of the trace can predict, as the capture measured it. */
static void write_unseen(FILE *fp, const struct ss_capture_meta *m)
{
	fprintf(fp, "### What the trace cannot show\n\n");
	if (m->untraced_tasks < 0)
		fprintf(fp, "The capture (`%s`) did not check for tasks that run with no "
			    "tracepoint firing for them (made before `make capture` did, or on a "
			    "kernel without sched:sched_switch).", m->path);
	else if (m->untraced_tasks == 0)
		fprintf(fp, "Every task that ran during the capture was seen by the tracepoints "
			    "(sched:sched_switch, checked by `make capture`, docs/capture.md).");
	else
		fprintf(fp, "%lld %s ran %.1f ms during the capture with no tracepoint firing for "
			    "%s (TID/name@PID:ms: %s; from `%s`, docs/capture.md).  The slab objects "
			    "they allocated and still held at the end are in the kernel's after-snapshot "
			    "and in no trace, so no replay predicts them: where the model's change falls "
			    "short of the kernel's, they may be the difference (on the machines slabsim "
			    "was built on, the init process reads /proc after each new process: about six "
			    "proc_inode_cache, dentry and lsm_inode_cache objects per process).",
			m->untraced_tasks, m->untraced_tasks == 1 ? "task" : "tasks",
			m->untraced_cpu_ms, m->untraced_tasks == 1 ? "it" : "them",
			m->untraced_list[0] ? m->untraced_list : "not listed", m->path);
	if (m->untraced_sched_lost)
		fprintf(fp, "  %llu sched_switch events were lost: a task named may have been seen.",
			(unsigned long long)m->untraced_sched_lost);
	if (m->lossy)
		fprintf(fp, "  The capture lost kmem events (%s): their objects are missing from "
			    "the replay too.", m->lossy_reason[0] ? m->lossy_reason : "see meta");
	write_orphans(fp, m);
	if (m->page_frees)
		fprintf(fp, "  It recorded page frees (kmem:mm_page_free): the replay knew which "
			    "of the kernel's slabs died (docs/import.md).");
	else
		fprintf(fp, "  It did not record page frees (`PAGE_FREES=0`, hashed pointers, or "
			    "made before `make capture` did): which of the kernel's slabs died the "
			    "replay knew only where obj_exts vectors showed it, and a slab change that "
			    "misses may be that (docs/own-trace.md).");
	fprintf(fp, "\n\n");
}

int ss_report_kernel_write_md(FILE *fp, const struct ss_report_kernel *k)
{
	struct ss_md_table t;
	size_t held = 0, ok = 0, settled = 0, ok_unsettled = 0, others = 0;

	fprintf(fp, "## The live kernel and the simulator\n\n");
	fprintf(fp, "The kernel's caches before and after the capture (`%s`, `%s`) beside model `%s` "
		    "(`%s/slabinfo`), whose caches started as the before-snapshot shows them. "
		    "`objects` is SLUB's count on both sides: object slots less the free slots on "
		    "node partial lists (free slots of CPU slabs count as objects). "
		    "Δ = after - before; error = (model Δ - kernel Δ) / |kernel Δ|.\n\n",
		k->before, k->after, k->model, k->run);
	for (size_t i = 0; i < k->n; i++)
		if (ss_report_kernel_row_held(&k->rows[i])) {
			held++;
			settled += k->rows[i].settled > 0;
			ok += ss_report_kernel_row_within(&k->rows[i]);
			ok_unsettled += ss_report_kernel_row_ok_unsettled(&k->rows[i]);
		}
	fprintf(fp, "### Caches whose objects changed by %d or more\n\n", SS_REPORT_KERNEL_MIN_DELTA);
	if (!held) {
		fprintf(fp, "No cache's objects changed by %d or more.\n\n", SS_REPORT_KERNEL_MIN_DELTA);
	} else {
		table_head(&t, true);
		for (size_t i = 0; i < k->n; i++)
			if (ss_report_kernel_row_held(&k->rows[i]))
				table_row(&t, &k->rows[i], true);
		if (ss_mdtable_print(fp, &t))
			return -1;
		fprintf(fp, "%zu of %zu within ±%.0f%% (objects) and ±%.0f%% (slabs) of the kernel's change",
			ok, held - settled, SS_REPORT_KERNEL_OBJ_TOL, SS_REPORT_KERNEL_SLAB_TOL);
		if (settled)
			fprintf(fp, " (predictions only: %zu more held %s settled, fitted to the "
				    "after-snapshot, and not counted)",
				settled, settled == 1 ? "cache was" : "caches were");
		/* the replay's own figures, every held cache, no settling (a
		 * run that settled without keeping them has none to give) */
		if (k->unsettled || !k->settled)
			fprintf(fp, ".  Without settling%s: %zu of %zu",
				k->unsettled ? " (`slabinfo.unsettled`, the replay before the rule)" : "",
				k->unsettled ? ok_unsettled : ok, held);
		fprintf(fp, ".\n\n");
	}
	table_head(&t, false);
	for (size_t i = 0; i < k->n && others < OTHER_ROWS; i++) {
		const struct ss_report_kernel_row *r = &k->rows[i];

		if (ss_report_kernel_row_held(r) ||
		    (llabs(k_dobj(r)) < OTHER_MIN && llabs(m_dobj(r)) < OTHER_MIN))
			continue;
		table_row(&t, r, false);
		others++;
	}
	if (others) {
		fprintf(fp, "### Other caches that moved by %d objects or more (kernel or model, the %d largest)\n\n",
			OTHER_MIN, OTHER_ROWS);
		if (ss_mdtable_print(fp, &t))
			return -1;
	} else {
		ss_mdtable_free(&t);
	}
	fprintf(fp, "### Frees the trace could not place\n\n");
	fprintf(fp, "Frees of objects allocated before the capture took %llu objects out of the "
		    "caches' initial state; %llu found no such object left in their cache (or the "
		    "cache had no initial state). ",
		(unsigned long long)k->prior_freed, (unsigned long long)k->prior_missing);
	if (k->settled)
		fprintf(fp, "At the end, %llu objects allocated at sites the import found freed "
			    "without a free event (kfree_rcu() batches, bulk and sheaf frees) were "
			    "released where the model held more than the kernel's after-snapshot "
			    "(the settling rule of docs/own-trace.md; `settled.csv` lists them by "
			    "site): their caches' object changes are fitted to the kernel, not "
			    "predicted.\n\n",
			(unsigned long long)k->settled);
	else
		fprintf(fp, "No object was settled (docs/own-trace.md).\n\n");
	if (k->has_meta)
		write_unseen(fp, &k->meta);
	fprintf(fp, "All caches: `kernel.csv`.\n\n");
	return 0;
}

void ss_report_kernel_csv_pct(FILE *fp, double e)
{
	if (isnan(e))
		fputc(',', fp);
	else
		fprintf(fp, ",%.2f", e);
}

void ss_report_kernel_csv_err(FILE *fp, int64_t kernel, int64_t model)
{
	ss_report_kernel_csv_pct(fp, ss_report_kernel_err_pct(kernel, model));
}

/* A count's CSV field, empty when not known. */
static void csv_known(FILE *fp, bool known, uint64_t v)
{
	if (known)
		fprintf(fp, ",%llu", (unsigned long long)v);
	else
		fputc(',', fp);
}

int ss_report_kernel_write_csv(FILE *fp, const struct ss_report_kernel *k)
{
	fprintf(fp, "cache,kernel_objects_before,kernel_objects_after,model_objects_after,"
		    "kernel_delta_objects,model_delta_objects,objects_error_pct,"
		    "kernel_slabs_before,kernel_slabs_after,model_slabs_after,"
		    "kernel_delta_slabs,model_delta_slabs,slabs_error_pct,held,within,"
		    "in_model,prior_freed,prior_missing,settled,"
		    "model_objects_unsettled,model_slabs_unsettled,within_unsettled,untraced_allocs,"
		    "cpu_free_estimated,cpu_free_measured,sheaf_capacity,kslabs_freed_from,"
		    "kslabs_whole,prior_slabs_not_full,prior_slabs_freed,kslabs_listed,"
		    "prior_listed_unseen,cpu_slabs_listed,kernel_cpu_free_after,"
		    "model_cpu_free_after,objects_in_use_error_pct,sheaves_modelled\n");
	for (size_t i = 0; i < k->n; i++) {
		const struct ss_report_kernel_row *r = &k->rows[i];
		int64_t kin, min;

		ss_csv_put(fp, r->name);
		fprintf(fp, ",%llu,%llu,%llu,%lld,%lld", (unsigned long long)r->k_obj0,
			(unsigned long long)r->k_obj1, (unsigned long long)r->m_obj1,
			(long long)k_dobj(r), (long long)m_dobj(r));
		ss_report_kernel_csv_err(fp, k_dobj(r), m_dobj(r));
		fprintf(fp, ",%llu,%llu,%llu,%lld,%lld", (unsigned long long)r->k_slab0,
			(unsigned long long)r->k_slab1, (unsigned long long)r->m_slab1,
			(long long)k_dslab(r), (long long)m_dslab(r));
		ss_report_kernel_csv_err(fp, k_dslab(r), m_dslab(r));
		fprintf(fp, ",%d,%d,%d,%llu,%llu,%llu,%llu,%llu,%d,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu,"
			    "%llu,%llu,%llu",
			ss_report_kernel_row_held(r),
			ss_report_kernel_row_within(r), r->in_model,
			(unsigned long long)r->prior_freed, (unsigned long long)r->prior_missing,
			(unsigned long long)r->settled, (unsigned long long)r->u_obj1,
			(unsigned long long)r->u_slab1,
			ss_report_kernel_row_held(r) && ss_report_kernel_row_ok_unsettled(r),
			(unsigned long long)r->untraced_allocs, (unsigned long long)r->cpu_free_est,
			(unsigned long long)r->cpu_free_meas, r->sheaf_capacity,
			(unsigned long long)r->kslabs_freed_from, (unsigned long long)r->kslabs_whole,
			(unsigned long long)r->prior_not_full,
			(unsigned long long)r->prior_slabs_freed,
			(unsigned long long)r->kslabs_listed,
			(unsigned long long)r->prior_listed_unseen,
			(unsigned long long)r->cpu_slabs_listed);
		csv_known(fp, r->k_cpu_free1_known, r->k_cpu_free1);
		csv_known(fp, r->m_cpu_free1_known, r->m_cpu_free1);
		if (ss_report_kernel_in_use_deltas(r, &kin, &min))
			ss_report_kernel_csv_err(fp, kin, min);
		else
			fputc(',', fp);
		fprintf(fp, ",%d\n", r->sheaves_modelled);
	}
	return ferror(fp) ? -1 : 0;
}
