/* slab_oracle.c - read /sys/kernel/slab and /proc/slabinfo, compare with
 * the geometry model (see docs/geometry.md, "What validate checks"). */
#include "slab_oracle.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "slab_order.h"
#include "sort.h"

bool ss_oracle_is_kmalloc_name(const char *name)
{
	return !strncmp(name, "kmalloc-", 8) ||
	       !strncmp(name, "dma-kmalloc-", 12);
}

/* The model's sheaf capacity of c laid out as g. */
static unsigned model_sheaf_capacity(const struct ss_target *t,
				     const struct ss_oracle_cache *c,
				     const struct ss_geometry *g)
{
	return ss_sheaf_capacity(t, g, ss_kconfig_sheaf_capacity(t, c->name),
				 ss_sheaf_none_named(c->name));
}

/* Read a small sysfs file into buf, trailing whitespace removed.
 * 1 if it does not exist, 0 ok, -1 error (err set). */
enum attr_read { ATTR_ERROR = -1, ATTR_READ, ATTR_ABSENT };

/* dir/cache/attr into buf, or ATTR_ABSENT: the kernel has no such file. */
static enum attr_read read_attr(const char *dir, const char *cache, const char *attr,
				char *buf, size_t n, struct ss_error *err)
{
	char path[4096];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, cache, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		if (errno == ENOENT)
			return ATTR_ABSENT;
		ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
		return ATTR_ERROR;
	}
	len = read(fd, buf, n - 1);
	close(fd);
	if (len < 0) {
		ss_errorf(err, "%s: cannot read: %s", path, strerror(errno));
		return ATTR_ERROR;
	}
	buf[len] = '\0';
	while (len > 0 && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return ATTR_READ;
}

/* A numeric attribute.  Some sysfs numbers carry a per-node suffix
 * ("12 N0=12"); only the leading total is used. */
static int read_uint(const char *dir, const char *cache, const char *attr,
		     bool required, bool *found, unsigned *out,
		     struct ss_error *err)
{
	char buf[256];
	enum attr_read rc = read_attr(dir, cache, attr, buf, sizeof(buf), err);
	char *sp;

	if (rc == ATTR_ERROR)
		return -1;
	if (rc == ATTR_ABSENT) {
		if (found)
			*found = false;
		if (required)
			return ss_errorf(err, "%s/%s/%s: missing", dir, cache,
					 attr);
		return 0;
	}
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	if (ss_parse_uint(buf, 0xffffffffu, out))
		return ss_errorf(err, "%s/%s/%s: bad number '%s'", dir, cache,
				 attr, buf);
	if (found)
		*found = true;
	return 0;
}

static int read_flag(const char *dir, const char *cache, const char *attr,
		     bool required, bool *out, struct ss_error *err)
{
	unsigned v = 0;

	if (read_uint(dir, cache, attr, required, NULL, &v, err))
		return -1;
	if (v > 1)
		return ss_errorf(err, "%s/%s/%s: expected 0 or 1, got %u", dir,
				 cache, attr, v);
	*out = v;
	return 0;
}

static int read_debug(const char *dir, const char *cache, unsigned *debug,
		      struct ss_error *err)
{
	static const struct {
		const char *attr;
		unsigned flag;
		bool required;
	} tab[] = {
		{"sanity_checks", SS_DBG_F, false}, {"red_zone", SS_DBG_Z, true},
		{"poison", SS_DBG_P, true},	    {"store_user", SS_DBG_U, true},
		{"trace", SS_DBG_T, false},
	};

	*debug = 0;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		bool on = false;

		if (read_flag(dir, cache, tab[i].attr, tab[i].required, &on,
			      err))
			return -1;
		if (on)
			*debug |= tab[i].flag;
	}
	return 0;
}

/* destroy_by_rcu (every kernel so far) or typesafe_by_rcu. */
static int read_rcu(const char *dir, const char *cache, bool *rcu,
		    struct ss_error *err)
{
	char buf[16];
	enum attr_read rc = read_attr(dir, cache, "destroy_by_rcu", buf, sizeof(buf), err);

	if (rc == ATTR_ABSENT)
		return read_flag(dir, cache, "typesafe_by_rcu", true, rcu, err);
	if (rc == ATTR_ERROR)
		return -1;
	return read_flag(dir, cache, "destroy_by_rcu", true, rcu, err);
}

static int read_cache(const char *dir, const char *name,
		      struct ss_oracle_cache *c, struct ss_error *err)
{
	char buf[512];
	enum attr_read rc;

	memset(c, 0, sizeof(*c));
	if (strlen(name) >= sizeof(c->name))
		return ss_errorf(err, "%s/%s: name too long", dir, name);
	strcpy(c->name, name);
	if (read_uint(dir, name, "object_size", true, NULL, &c->object_size, err) ||
	    read_uint(dir, name, "slab_size", true, NULL, &c->slab_size, err) ||
	    read_uint(dir, name, "order", true, NULL, &c->order, err) ||
	    read_uint(dir, name, "objs_per_slab", true, NULL, &c->objs_per_slab, err) ||
	    read_uint(dir, name, "align", true, NULL, &c->align, err) ||
	    read_flag(dir, name, "hwcache_align", true, &c->hwcache, err) ||
	    read_rcu(dir, name, &c->rcu, err) || read_debug(dir, name, &c->debug, err) ||
	    read_uint(dir, name, "min_partial", false, &c->have_min_partial,
		      &c->min_partial, err) ||
	    read_uint(dir, name, "cpu_partial", false, &c->have_cpu_partial,
		      &c->cpu_partial, err) ||
	    read_uint(dir, name, "sheaf_capacity", false, &c->have_sheaf_capacity,
		      &c->sheaf_capacity, err))
		return -1;
	rc = read_attr(dir, name, "ctor", buf, sizeof(buf), err);
	if (rc == ATTR_ERROR)
		return -1;
	if (rc == ATTR_ABSENT)
		return ss_errorf(err, "%s/%s/ctor: missing", dir, name);
	c->ctor = buf[0] != '\0';
	c->kmalloc = ss_oracle_is_kmalloc_name(name);
	return 0;
}

static int cmp_cache(const void *a, const void *b)
{
	return strcmp(((const struct ss_oracle_cache *)a)->name,
		      ((const struct ss_oracle_cache *)b)->name);
}

static struct ss_oracle_cache *oracle_add(struct ss_oracle *o)
{
	if (o->nr == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		void *p = realloc(o->caches, cap * sizeof(*o->caches));

		if (!p)
			return NULL;
		o->caches = p;
		o->cap = cap;
	}
	return &o->caches[o->nr++];
}

int ss_oracle_read_sysfs(const char *dir, struct ss_oracle *o,
			 struct ss_error *err)
{
	struct dirent *de;
	DIR *d;
	int rc = 0;

	memset(o, 0, sizeof(*o));
	d = opendir(dir);
	if (!d)
		return ss_errorf(err, "%s: cannot open: %s", dir,
				 strerror(errno));
	while (!rc && (de = readdir(d))) {
		char path[4096];
		struct ss_oracle_cache *c;
		struct stat st;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st)) {
			rc = ss_errorf(err, "%s: %s", path, strerror(errno));
			break;
		}
		if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode))
			continue; /* an alias of a merged cache */
		c = oracle_add(o);
		if (!c)
			rc = ss_errorf(err, "out of memory");
		else
			rc = read_cache(dir, de->d_name, c, err);
	}
	closedir(d);
	if (rc) {
		ss_oracle_release(o);
		return -1;
	}
	if (!o->nr) {
		ss_oracle_release(o);
		return ss_errorf(err, "%s: no cache directories", dir);
	}
	ss_sort(o->caches, o->nr, sizeof(*o->caches), cmp_cache);
	return 0;
}

void ss_oracle_release(struct ss_oracle *o)
{
	free(o->caches);
	memset(o, 0, sizeof(*o));
}

/* The spec the kernel created c with, as far as sysfs shows it.  sysfs
 * align is s->align after calculate_alignment(), which is idempotent, so it
 * is passed as the align argument and HWCACHE is not applied again. */
static void oracle_spec(const struct ss_oracle_cache *c,
			struct ss_cache_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->object_size = c->object_size;
	s->align = c->align;
	s->flags = (c->rcu ? SS_CF_RCU : 0) | (c->ctor ? SS_CF_CTOR : 0) |
		   (c->kmalloc ? SS_CF_KMALLOC : 0);
	s->debug = c->debug;
}

/* First difference between kernel and model, "" if none. */
static void diff_reason(const struct ss_oracle_cache *c,
			const struct ss_geometry *g, char *buf, size_t n)
{
	buf[0] = '\0';
	if (g->size != c->slab_size)
		snprintf(buf, n, "slab_size: model %u, kernel %u", g->size, c->slab_size);
	else if (g->order != c->order)
		snprintf(buf, n, "order: model %u, kernel %u", g->order, c->order);
	else if (g->objs_per_slab != c->objs_per_slab)
		snprintf(buf, n, "objs_per_slab: model %u, kernel %u", g->objs_per_slab,
			 c->objs_per_slab);
	else if (c->have_min_partial && g->min_partial != c->min_partial)
		snprintf(buf, n, "min_partial: model %u, kernel %u", g->min_partial,
			 c->min_partial);
	else if (c->have_cpu_partial && g->cpu_partial != c->cpu_partial)
		snprintf(buf, n, "cpu_partial: model %u, kernel %u", g->cpu_partial,
			 c->cpu_partial);
}

int ss_oracle_check(const struct ss_target *t, const struct ss_oracle_cache *c,
		    struct ss_oracle_result *r, struct ss_error *err)
{
	struct ss_cache_spec spec;
	struct ss_geometry fp;
	char why[sizeof(r->reason)];

	memset(r, 0, sizeof(*r));
	oracle_spec(c, &spec);
	if (ss_geometry_compute(t, &spec, &r->model, err)) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return ss_errorf(err, "%s: %s", c->name, msg);
	}
	diff_reason(c, &r->model, why, sizeof(why));
	r->sheaf_capacity = model_sheaf_capacity(t, c, &r->model);
	if (!why[0]) {
		r->verdict = SS_VERDICT_MATCH;
		return 0;
	}
	r->verdict = SS_VERDICT_MISMATCH;
	snprintf(r->reason, sizeof(r->reason), "%s", why);
	/* An RCU cache created with an explicit freeptr_offset (6.12+) keeps
	 * its free pointer inside the object unless it also has a ctor, and
	 * from 7.0 a ctor cache with one does too (ext4_inode_cache in 7.x);
	 * sysfs does not show the offset, so try that layout (any valid
	 * offset gives the same size). */
	if ((spec.debug & SS_DBG_P) ||
	    !((spec.flags & SS_CF_RCU) || (spec.flags & SS_CF_CTOR)) ||
	    ((spec.flags & SS_CF_CTOR) && t->era < SS_ERA_7_0))
		return 0;
	spec.flags |= SS_CF_FREEPTR;
	spec.freeptr_offset = 0;
	if (ss_geometry_compute(t, &spec, &fp, NULL))
		return 0;
	diff_reason(c, &fp, why, sizeof(why));
	if (!why[0]) {
		r->sheaf_capacity = model_sheaf_capacity(t, c, &fp);
		r->verdict = SS_VERDICT_FREEPTR;
		snprintf(r->reason, sizeof(r->reason),
			 "explicit freeptr_offset (%s): matches with the free pointer inside",
			 (spec.flags & SS_CF_CTOR) ? "7.0+, constructor" : "6.12+");
	}
	return 0;
}

static bool pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

static int parse_slabinfo_line(const char *path, unsigned long ln, char *buf,
			       struct ss_slabinfo_line *l, struct ss_error *err)
{
	char *tok[32];
	unsigned long long v[5];
	int n = ss_split(buf, tok, 32);

	if (n < 6)
		return ss_error_at(err, path, ln,
				   "expected 'name active_objs num_objs objsize objperslab pagesperslab ...'");
	if (strlen(tok[0]) >= sizeof(l->name))
		return ss_error_at(err, path, ln, "cache name too long");
	for (int i = 0; i < 5; i++) {
		uint64_t x;

		if (ss_parse_u64(tok[i + 1], 0xffffffffffffull, &x))
			return ss_error_at(err, path, ln, "bad number '%s'",
					   tok[i + 1]);
		v[i] = x;
	}
	if (v[2] == 0 || v[2] > 0xffffffffu || v[3] > 0xffffffffu ||
	    v[4] == 0 || v[4] > 0xffffffffu)
		return ss_error_at(err, path, ln, "objsize/pagesperslab out of range");
	if (n > 6 && strcmp(tok[6], ":"))
		return ss_error_at(err, path, ln, "expected ':' after pagesperslab, got '%s'",
				   tok[6]);
	strcpy(l->name, tok[0]);
	l->active_objs = (unsigned long)v[0];
	l->num_objs = (unsigned long)v[1];
	l->objsize = (unsigned)v[2];
	l->objperslab = (unsigned)v[3];
	l->pagesperslab = (unsigned)v[4];
	return 0;
}

/* Header: "slabinfo - version: 2.x". */
static int check_slabinfo_header(const char *path, const char *buf,
				 struct ss_error *err)
{
	if (strncmp(buf, "slabinfo - version: 2.", 22))
		return ss_error_at(err, path, 1,
				   "not a /proc/slabinfo 2.x file (first line: '%.40s')",
				   buf);
	return 0;
}

int ss_slabinfo_read(const char *path, struct ss_slabinfo_line **lines,
		     size_t *nr, struct ss_error *err)
{
	struct ss_slabinfo_line *arr = NULL;
	size_t n = 0, cap = 0;
	unsigned long ln = 0;
	char buf[1024];
	FILE *fp = fopen(path, "r");
	int rc = 0;

	*lines = NULL;
	*nr = 0;
	if (!fp)
		return ss_error_at(err, path, 0, "cannot open: %s",
				   strerror(errno));
	while (!rc && fgets(buf, sizeof(buf), fp)) {
		ln++;
		if (!strchr(buf, '\n') && !feof(fp)) {
			rc = ss_error_at(err, path, ln, "line too long");
			break;
		}
		if (ln == 1) {
			rc = check_slabinfo_header(path, buf, err);
			continue;
		}
		if (buf[0] == '#' || buf[strspn(buf, " \t\r\n")] == '\0')
			continue;
		if (n == cap) {
			void *p;

			cap = cap ? 2 * cap : 128;
			p = realloc(arr, cap * sizeof(*arr));
			if (!p) {
				rc = ss_errorf(err, "out of memory");
				break;
			}
			arr = p;
		}
		rc = parse_slabinfo_line(path, ln, buf, &arr[n], err);
		if (!rc)
			n++;
	}
	if (!rc && ferror(fp))
		rc = ss_error_at(err, path, ln, "read error");
	if (!rc && ln == 0)
		rc = ss_error_at(err, path, 0, "empty file");
	fclose(fp);
	if (rc) {
		free(arr);
		return -1;
	}
	*lines = arr;
	*nr = n;
	return 0;
}

enum ss_verdict ss_slabinfo_check(const struct ss_target *t,
				  const struct ss_slabinfo_line *l,
				  int *model_order, unsigned *model_objs,
				  char *reason, size_t n)
{
	unsigned order = ss_fls(l->pagesperslab) - 1;
	unsigned kobjs;

	reason[0] = '\0';
	*model_order = ss_calculate_order(t, l->objsize);
	*model_objs = *model_order < 0 ? 0 :
		ss_order_objects(t, (unsigned)*model_order, l->objsize);
	if (l->objsize % t->ptr_size) {
		snprintf(reason, n, "objsize %u not a multiple of %u",
			 l->objsize, t->ptr_size);
		return SS_VERDICT_MISMATCH;
	}
	if (!pow2(l->pagesperslab)) {
		snprintf(reason, n, "pagesperslab %u not a power of two",
			 l->pagesperslab);
		return SS_VERDICT_MISMATCH;
	}
	kobjs = ss_order_objects(t, order, l->objsize);
	if (l->objperslab != kobjs) {
		snprintf(reason, n, "objperslab %u != (PAGE << %u) / %u = %u",
			 l->objperslab, order, l->objsize, kobjs);
		return SS_VERDICT_MISMATCH;
	}
	if (*model_order != (int)order) {
		snprintf(reason, n, "order: model %d, kernel %u", *model_order, order);
		return SS_VERDICT_MISMATCH;
	}
	return SS_VERDICT_MATCH;
}

int ss_parse_cpulist(const char *s, unsigned *count)
{
	unsigned total = 0;
	char buf[4096];
	char *save = NULL, *part;

	if (!s || strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (char *e = buf + strlen(buf); e > buf && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	if (!buf[0])
		return -1;
	for (part = strtok_r(buf, ",", &save); part;
	     part = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(part, '-');
		unsigned a, b;

		if (dash)
			*dash = '\0';
		if (ss_parse_uint(part, 1u << 20, &a))
			return -1;
		b = a;
		if (dash && ss_parse_uint(dash + 1, 1u << 20, &b))
			return -1;
		if (b < a)
			return -1;
		total += b - a + 1;
	}
	*count = total;
	return 0;
}
