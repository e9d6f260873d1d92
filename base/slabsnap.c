/* slabsnap.c - read a kernel slab snapshot (slabsnap.h) in any of its
 * three forms.  Each form is turned into the same attribute list per cache
 * (the /sys/kernel/slab file names, as `make capture` writes them), and
 * one function reads a cache out of that list. */
#include "slabsnap.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "sort.h"

#define MAX_ATTRS 96
#define LINE_MAX_LEN (1u << 20)

struct attrs {
	const char *key[MAX_ATTRS];
	const char *val[MAX_ATTRS];
	unsigned n;
};

static const char *attr(const struct attrs *a, const char *key)
{
	for (unsigned i = 0; i < a->n; i++)
		if (!strcmp(a->key[i], key))
			return a->val[i];
	return NULL;
}

/* %XX -> byte, in place (slab-snapshot.sh encodes % , blanks). */
static void pct_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '%' && isxdigit((unsigned char)s[1]) && isxdigit((unsigned char)s[2])) {
			char hex[3] = {s[1], s[2], 0};

			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The total of a value: the number before the first ',' ("1260,N0=1260"). */
static int total_of(const char *v, uint64_t *out)
{
	char buf[32];
	size_t n = strcspn(v, ",");

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return ss_parse_u64(buf, UINT64_MAX >> 8, out);
}

static int get_u64(const struct attrs *a, const char *key, uint64_t *out)
{
	const char *v = attr(a, key);

	return v ? total_of(v, out) : -1;
}

static int get_uint(const struct attrs *a, const char *key, unsigned *out)
{
	uint64_t v;

	if (get_u64(a, key, &v) || v > UINT32_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* "255(3),C0=85(1),C1=170(2)": slabs per CPU from the "(n)" of each Cx. */
static int cpu_partial_slabs(struct ss_snap_cache *c, const char *v)
{
	const char *p = v;

	while ((p = strchr(p, ','))) {
		unsigned long cpu, slabs;
		char *end;

		p++;
		if (*p != 'C')
			continue;
		cpu = strtoul(p + 1, &end, 10);
		if (*end != '=' || cpu >= SS_SNAP_MAX_CPUS)
			return -1;
		end = strchr(end, '(');
		if (!end)
			return -1;
		slabs = strtoul(end + 1, NULL, 10);
		if (cpu >= c->nr_cpus) {
			uint32_t *a = realloc(c->cpu_partial_slabs, (cpu + 1) * sizeof(*a));

			if (!a)
				return -1;
			memset(a + c->nr_cpus, 0, (cpu + 1 - c->nr_cpus) * sizeof(*a));
			c->cpu_partial_slabs = a;
			c->nr_cpus = (unsigned)cpu + 1;
		}
		c->cpu_partial_slabs[cpu] = (uint32_t)slabs;
	}
	return 0;
}

static const struct {
	const char *key;
	unsigned flag;
} flag_attrs[] = {
	{"hwcache_align", SS_SNAP_HWCACHE}, {"destroy_by_rcu", SS_SNAP_RCU},
	{"reclaim_account", SS_SNAP_RECLAIM}, {"cache_dma", SS_SNAP_DMA},
	{"poison", SS_SNAP_POISON}, {"red_zone", SS_SNAP_RED_ZONE},
	{"store_user", SS_SNAP_STORE_USER}, {"sanity_checks", SS_SNAP_CHECKS},
};

/* mm/slub.c (6.10+) MAX_PARTIAL_TO_SCAN: /proc/slabinfo counts the free
 * slots of longer node partial lists by sampling them
 * (count_partial_free_approx()); sysfs counts every one (count_partial()). */
#define SLABINFO_EXACT_PARTIAL 10000

/* The cache's objects, slots and slabs as /proc/slabinfo gave them, when
 * the snapshot has them (si_*: slab-snapshot.sh reads /proc/slabinfo once,
 * before it opens any sysfs file).  They are the figures of one moment,
 * and the only ones the snapshot does not disturb: every sysfs file it
 * opens makes a kernfs_open_node (72 bytes: kmalloc-96 on 6.18) that
 * kernfs frees by kfree_rcu() when the file closes (fs/kernfs/file.c
 * kernfs_unlink_open_file()), so a cache read late in the walk of ~30
 * files per cache counts hundreds to thousands of them that no trace
 * shows allocated or freed (measured on 6.18: kmalloc-96's sysfs objects
 * 341-4,158 above slabinfo's taken just before, every other cache
 * equal but for what moved in the walk's second). */
static void counts_from_slabinfo(struct ss_snap_cache *c, const struct attrs *a)
{
	uint64_t active, num, slabs;

	if (get_u64(a, "si_active_objs", &active) || get_u64(a, "si_num_objs", &num) ||
	    get_u64(a, "si_num_slabs", &slabs) || active > num)
		return;
	if (c->have_lists && c->partial > SLABINFO_EXACT_PARTIAL)
		return; /* sampled: the exact (if disturbed) sysfs figure is better */
	c->objects = active;
	c->total_objects = num;
	c->slabs = slabs;
}

/* A cache out of its sysfs attributes; the reason for a refusal in *why. */
static int from_attrs(struct ss_snap_cache *c, const struct attrs *a, const char **why)
{
	const char *v;

	if (get_uint(a, "object_size", &c->object_size) ||
	    get_uint(a, "slab_size", &c->slab_size) ||
	    get_uint(a, "objs_per_slab", &c->objs_per_slab) ||
	    get_uint(a, "order", &c->order) || get_uint(a, "align", &c->align))
		return *why = "object_size, slab_size, objs_per_slab, order or align missing or bad", -1;
	if (!c->slab_size || !c->objs_per_slab || c->order > 10 ||
	    c->object_size > c->slab_size)
		return *why = "impossible geometry (slab_size or objs_per_slab 0, order > 10, object_size > slab_size)", -1;
	if (get_u64(a, "objects", &c->objects) || get_u64(a, "slabs", &c->slabs) ||
	    get_u64(a, "total_objects", &c->total_objects))
		return *why = "objects, slabs or total_objects missing or bad", -1;
	c->have_geometry = true;
	for (size_t i = 0; i < sizeof(flag_attrs) / sizeof(flag_attrs[0]); i++) {
		v = attr(a, flag_attrs[i].key);
		if (v && strcmp(v, "0"))
			c->flags |= flag_attrs[i].flag;
	}
	v = attr(a, "ctor");
	if (v && *v)
		c->flags |= SS_SNAP_CTOR;
	get_uint(a, "min_partial", &c->min_partial);
	get_uint(a, "cpu_partial", &c->cpu_partial);
	get_uint(a, "sheaf_capacity", &c->sheaf_capacity);
	c->have_lists = !get_u64(a, "partial", &c->partial) &&
			!get_u64(a, "objects_partial", &c->objects_partial) &&
			!get_u64(a, "cpu_slabs", &c->cpu_slabs);
	counts_from_slabinfo(c, a);
	/* the files are read one after the other while the cache moves: a
	 * live snapshot can be off by a slab here and there */
	if (c->objects > c->total_objects)
		c->total_objects = c->objects;
	if (c->have_lists && c->partial + c->cpu_slabs > c->slabs)
		c->have_lists = false; /* read while the lists moved: not usable */
	v = attr(a, "slabs_cpu_partial");
	if (v && cpu_partial_slabs(c, v))
		return *why = "bad slabs_cpu_partial", -1;
	return 0;
}

/* ---- the table ---- */

static struct ss_snap_cache *add_cache(struct ss_snap *s)
{
	if (s->nr == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 256;
		struct ss_snap_cache *c = realloc(s->caches, cap * sizeof(*c));

		if (!c)
			return NULL;
		s->caches = c;
		s->cap = cap;
	}
	memset(&s->caches[s->nr], 0, sizeof(s->caches[0]));
	return &s->caches[s->nr++];
}

static int add_alias(struct ss_snap *s, const char *name, unsigned idx)
{
	if (strlen(name) >= SS_SNAP_NAME)
		return 0; /* a name no trace can use */
	if (s->nr_alias == s->cap_alias) {
		unsigned cap = s->cap_alias ? 2 * s->cap_alias : 512;
		char(*a)[SS_SNAP_NAME] = realloc(s->alias, cap * sizeof(*a));
		unsigned *o;

		if (a)
			s->alias = a;
		o = realloc(s->alias_of, cap * sizeof(*o));
		if (o)
			s->alias_of = o;
		if (!a || !o)
			return -1;
		s->cap_alias = cap;
	}
	strcpy(s->alias[s->nr_alias], name);
	s->alias_of[s->nr_alias++] = idx;
	return 0;
}

static int find_dir(const struct ss_snap *s, const char *dir)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (!strcmp(s->caches[i].dir, dir))
			return (int)i;
	return -1;
}

const struct ss_snap_cache *ss_snap_find(const struct ss_snap *s, const char *name)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (!strcmp(s->caches[i].name, name))
			return &s->caches[i];
	for (unsigned i = 0; i < s->nr_alias; i++)
		if (!strcmp(s->alias[i], name))
			return &s->caches[s->alias_of[i]];
	return NULL;
}

uint64_t ss_snap_node_partial_free(const struct ss_snap_cache *c)
{
	return c->total_objects - c->objects;
}

void ss_snap_release(struct ss_snap *s)
{
	for (unsigned i = 0; i < s->nr; i++) {
		free(s->caches[i].cpu_partial_slabs);
		free(s->caches[i].cpu_free);
		free(s->caches[i].fill);
		free(s->caches[i].pcs);
		free(s->caches[i].barns);
	}
	free(s->caches);
	free(s->alias);
	free(s->alias_of);
	memset(s, 0, sizeof(*s));
}

/* ---- `slabsim-slab 1` (make capture) ---- */

static int split_attrs(char *line, struct attrs *a)
{
	char *save = NULL;

	a->n = 0;
	for (char *tok = strtok_r(line, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || a->n == MAX_ATTRS)
			return -1;
		*eq = '\0';
		a->key[a->n] = tok;
		a->val[a->n++] = eq + 1;
	}
	return 0;
}

static int snapshot_line(struct ss_snap *s, char *line, unsigned long ln,
			 struct ss_error *err)
{
	struct attrs a;
	const char *why = NULL;
	struct ss_snap_cache *c;
	char name[SS_SNAP_NAME], dir[SS_SNAP_NAME];

	if (split_attrs(line, &a))
		return ss_error_at(err, s->path, ln, "not key=value pairs");
	if (!a.n)
		return 0;
	if (!strcmp(a.key[0], "alias")) {
		const char *t = attr(&a, "target");
		int idx;

		if (!t || strlen(a.val[0]) >= sizeof(name) || strlen(t) >= sizeof(dir))
			return ss_error_at(err, s->path, ln, "alias without target=");
		strcpy(name, a.val[0]);
		strcpy(dir, t);
		pct_decode(name);
		pct_decode(dir);
		idx = find_dir(s, dir);
		if (idx < 0) /* a link to a directory not listed: skip it */
			return 0;
		return add_alias(s, name, (unsigned)idx) ? ss_errorf(err, "out of memory") : 0;
	}
	if (strcmp(a.key[0], "cache"))
		return ss_error_at(err, s->path, ln, "unknown line '%.20s=' (want cache= or alias=)",
				   a.key[0]);
	c = add_cache(s);
	if (!c)
		return ss_errorf(err, "out of memory");
	if (strlen(a.val[0]) >= sizeof(c->dir) || !attr(&a, "name") ||
	    strlen(attr(&a, "name")) >= sizeof(c->name))
		return ss_error_at(err, s->path, ln, "cache= or name= missing or too long");
	strcpy(c->dir, a.val[0]);
	strcpy(c->name, attr(&a, "name"));
	pct_decode(c->dir);
	pct_decode(c->name);
	if (from_attrs(c, &a, &why))
		return ss_error_at(err, s->path, ln, "cache %s: %s", c->name, why);
	return add_alias(s, c->name, s->nr - 1) ? ss_errorf(err, "out of memory") : 0;
}

static int header_kernel(struct ss_snap *s, const char *line)
{
	const char *k = strstr(line, " kernel=");

	if (k)
		snprintf(s->kernel, sizeof(s->kernel), "%.*s", (int)strcspn(k + 8, " \t\r\n"),
			 k + 8);
	return 0;
}

/* ---- /proc/slabinfo 2.1 ---- */

/* name active_objs num_objs objsize objperslab pagesperslab : tunables l b s
 * : slabdata active_slabs num_slabs sharedavail */
static int slabinfo_line(struct ss_snap *s, char *line, unsigned long ln,
			 struct ss_error *err)
{
	char name[SS_SNAP_NAME];
	unsigned long long active, num, objsize, perslab, pages, aslabs, nslabs;
	struct ss_snap_cache *c;
	unsigned order = 0;

	if (line[0] == '#' || !line[strspn(line, " \t\r\n")])
		return 0;
	if (sscanf(line, "%127s %llu %llu %llu %llu %llu : tunables %*u %*u %*u : slabdata %llu %llu",
		   name, &active, &num, &objsize, &perslab, &pages, &aslabs, &nslabs) != 8)
		return ss_error_at(err, s->path, ln, "not a slabinfo 2.1 line");
	while ((1ull << order) < pages && order < 11)
		order++;
	if (!objsize || !perslab || (1ull << order) != pages || active > num ||
	    objsize > UINT32_MAX || perslab > UINT32_MAX)
		return ss_error_at(err, s->path, ln, "%s: impossible figures", name);
	c = add_cache(s);
	if (!c)
		return ss_errorf(err, "out of memory");
	strcpy(c->name, name);
	c->slab_size = (unsigned)objsize;
	c->objs_per_slab = (unsigned)perslab;
	c->order = order;
	c->objects = active;
	c->total_objects = num;
	c->slabs = nslabs;
	(void)aslabs; /* SLUB prints num_slabs twice */
	return add_alias(s, c->name, s->nr - 1) ? ss_errorf(err, "out of memory") : 0;
}

/* ---- files ---- */

static int load_file(struct ss_snap *s, FILE *fp, struct ss_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long ln = 0;
	int kind = 0, rc = 0; /* 1 snapshot, 2 slabinfo */

	while (!rc && (len = getline(&line, &cap, fp)) >= 0) {
		ln++;
		if ((size_t)len >= LINE_MAX_LEN || memchr(line, '\0', (size_t)len)) {
			rc = ss_error_at(err, s->path, ln, "line too long or NUL byte");
		} else if (!kind) {
			if (!strncmp(line, "slabsim-slab 1", 14) && isspace((unsigned char)line[14]))
				kind = 1, rc = header_kernel(s, line);
			else if (!strncmp(line, "slabinfo - version: 2.1", 23))
				kind = 2;
			else
				rc = ss_error_at(err, s->path, ln,
						 "not a slab snapshot (want 'slabsim-slab 1' or 'slabinfo - version: 2.1')");
		} else {
			rc = kind == 1 ? snapshot_line(s, line, ln, err)
				       : slabinfo_line(s, line, ln, err);
		}
	}
	free(line);
	if (!rc && ferror(fp))
		rc = ss_errorf(err, "%s: read error", s->path);
	if (!rc && !kind)
		rc = ss_errorf(err, "%s: empty file: not a slab snapshot", s->path);
	return rc;
}

/* ---- a /sys/kernel/slab tree ---- */

/* One attribute file as make capture encodes it: its first line, each run
 * of blanks a ','. */
static char *read_attr(const char *dir, const char *cache, const char *name)
{
	char path[1024], buf[4096], *o;
	size_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, cache, name);
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	o = buf;
	for (char *p = buf; *p;) {
		if (isspace((unsigned char)*p)) {
			p += strspn(p, " \t\r");
			if (*p && o != buf)
				*o++ = ',';
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return strdup(buf);
}

static const char *const sysfs_attrs[] = {
	"object_size", "slab_size", "objs_per_slab", "order", "align", "objects",
	"slabs", "total_objects", "partial", "objects_partial", "cpu_slabs",
	"slabs_cpu_partial", "min_partial", "cpu_partial", "sheaf_capacity", "ctor",
	"hwcache_align", "destroy_by_rcu", "reclaim_account", "cache_dma", "poison",
	"red_zone", "store_user", "sanity_checks",
};
#define NR_SYSFS_ATTRS (sizeof(sysfs_attrs) / sizeof(sysfs_attrs[0]))

static int sysfs_cache(struct ss_snap *s, const char *dir, const char *cache,
		       struct ss_error *err)
{
	struct attrs a = {.n = 0};
	char *vals[NR_SYSFS_ATTRS];
	struct ss_snap_cache *c;
	const char *why = NULL;
	int rc = 0;

	for (size_t i = 0; i < NR_SYSFS_ATTRS; i++) {
		vals[i] = read_attr(dir, cache, sysfs_attrs[i]);
		if (vals[i]) {
			a.key[a.n] = sysfs_attrs[i];
			a.val[a.n++] = vals[i];
		}
	}
	c = add_cache(s);
	if (!c || strlen(cache) >= sizeof(c->dir)) {
		rc = c ? 0 : ss_errorf(err, "out of memory");
		if (c)
			s->nr--;
	} else {
		strcpy(c->dir, cache);
		strcpy(c->name, cache);
		if (from_attrs(c, &a, &why))
			rc = ss_errorf(err, "%s/%s: %s", dir, cache, why);
	}
	for (size_t i = 0; i < NR_SYSFS_ATTRS; i++)
		free(vals[i]);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Cache directories first, then the symlinks as aliases.  A merged cache
 * (":0000064") is named after its first alias in name order: the name
 * /proc/slabinfo shows is not in the tree. */
static int load_sysfs(struct ss_snap *s, const char *dir, struct ss_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d)
		return ss_errorf(err, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 512) * sizeof(*nn));

			if (!nn) {
				rc = ss_errorf(err, "out of memory");
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (names)
		ss_sort(names, n, sizeof(*names), name_cmp);
	for (int pass = 0; !rc && pass < 2; pass++) {
		for (size_t i = 0; !rc && i < n; i++) {
			char path[1024], target[1024];
			struct stat st;
			ssize_t len;
			int idx;

			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			if (lstat(path, &st))
				continue;
			if (pass == 0 && S_ISDIR(st.st_mode)) {
				rc = sysfs_cache(s, dir, names[i], err);
			} else if (pass == 1 && S_ISLNK(st.st_mode) &&
				   (len = readlink(path, target, sizeof(target) - 1)) > 0) {
				target[len] = '\0';
				idx = find_dir(s, strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
				if (idx < 0)
					continue;
				if (s->caches[idx].name[0] == ':' && strlen(names[i]) < SS_SNAP_NAME)
					strcpy(s->caches[idx].name, names[i]);
				rc = add_alias(s, names[i], (unsigned)idx) ? ss_errorf(err, "out of memory") : 0;
			}
		}
	}
	for (unsigned i = 0; !rc && i < s->nr; i++)
		rc = add_alias(s, s->caches[i].name, i) ? ss_errorf(err, "out of memory") : 0;
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!rc && !s->nr)
		rc = ss_errorf(err, "%s: no cache directories", dir);
	return rc;
}

int ss_snap_load(struct ss_snap *s, const char *path, struct ss_error *err)
{
	return ss_snap_load_in(s, path, "slab-before.txt", err);
}

int ss_snap_load_in(struct ss_snap *s, const char *path, const char *file,
		    struct ss_error *err)
{
	struct stat st;
	char capture[sizeof(s->path)];
	FILE *fp;
	int rc;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st))
		return ss_errorf(err, "%s: %s", path, strerror(errno));
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (S_ISDIR(st.st_mode)) {
		if ((size_t)snprintf(capture, sizeof(capture), "%s/%s", path, file) >=
		    sizeof(capture))
			return ss_errorf(err, "%s: path too long", path);
		if (stat(capture, &st)) {
			rc = load_sysfs(s, path, err);
			goto out;
		}
		memcpy(s->path, capture, sizeof(s->path));
	}
	fp = fopen(s->path, "r");
	if (!fp)
		return ss_errorf(err, "%s: %s", s->path, strerror(errno));
	rc = load_file(s, fp, err);
	fclose(fp);
out:
	if (rc)
		ss_snap_release(s);
	return rc;
}
