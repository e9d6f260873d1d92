/* target.c - loading and parsing target files (see docs/targets.md). */
#include "target.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "sort.h"

void ss_target_defaults(struct ss_target *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "x86_64-6.x");
	t->ptr_size = 8;
	t->page_size = 4096;
	t->cache_line = 64;
	t->dma_minalign = 8;
	t->slab_minalign = 8;
	t->cpus = 8;
	t->nodes = 1;
	t->era = SS_ERA_6_11;
	t->clock_mhz = 3000;
	t->track_size = 32; /* struct track with CONFIG_STACKDEPOT, 64-bit */
	t->slub_min_order = 0;
	t->slub_max_order = 3; /* PAGE_ALLOC_COSTLY_ORDER */
	t->slub_min_objects = 0;
	t->large_in_slab_stat = true;
	ss_kconfig_defaults(&t->kc);
	t->cmpxchg_double = true;
}

unsigned ss_target_nr_cpu_ids(const struct ss_target *t)
{
	return t->nr_cpu_ids > t->cpus ? t->nr_cpu_ids : t->cpus;
}

void ss_era_str(int era, char *buf, unsigned long n)
{
	if (era < 0)
		snprintf(buf, n, "?");
	else if (era >= SS_ERA_2_6_0 && era < SS_ERA_3_0)
		snprintf(buf, n, "2.6.%d", era - SS_ERA_2_6_0);
	else
		snprintf(buf, n, "%d.%d", era / 100, era % 100);
}

/* A decimal number without leading zeros ("0" alone is fine). */
static bool plain_decimal(const char *s, size_t len)
{
	if (!len || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

int ss_era_parse(const char *s)
{
	unsigned major, minor, sub;
	const char *dot, *dot2;
	char tmp[16];

	if (!s)
		return -1;
	dot = strchr(s, '.');
	if (!dot || dot == s || (size_t)(dot - s) >= sizeof(tmp))
		return -1;
	dot2 = strchr(dot + 1, '.');
	memcpy(tmp, s, (size_t)(dot - s));
	tmp[dot - s] = '\0';
	/* Plain decimal only: "6.01" or "0x6.1" are not eras. */
	if (!plain_decimal(tmp, strlen(tmp)) || tmp[0] == '0' ||
	    !plain_decimal(dot + 1, dot2 ? (size_t)(dot2 - dot - 1) : strlen(dot + 1)))
		return -1;
	if (ss_parse_uint(tmp, 99, &major))
		return -1;
	if (dot2) { /* only 2.6.N: the series before 3.0 numbered its releases so */
		if (major != 2 || strncmp(dot + 1, "6.", 2) ||
		    !plain_decimal(dot2 + 1, strlen(dot2 + 1)) ||
		    ss_parse_uint(dot2 + 1, 39, &sub))
			return -1;
		return SS_ERA_2_6_0 + (int)sub;
	}
	if (ss_parse_uint(dot + 1, 99, &minor) || major < 3)
		return -1;
	return (int)(major * 100 + minor);
}

static bool is_pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

/* One "key = value" setting.  Returns 0, or -1 with err naming file:line. */
struct key_ctx {
	const char *path;
	unsigned long line;
	struct ss_error *err;
};

static int parse_uint_key(const struct key_ctx *c, const char *key,
			  const char *val, unsigned min, unsigned max,
			  unsigned *out)
{
	unsigned v;

	if (ss_parse_uint(val, max, &v) || v < min)
		return ss_error_at(c->err, c->path, c->line,
				   "%s: bad value '%s' (want an integer %u..%u)",
				   key, val, min, max);
	*out = v;
	return 0;
}

/* "LOW HIGH": two clock values, LOW <= HIGH. */
static int parse_range_key(const struct key_ctx *c, const char *key,
			   const char *val, unsigned *lo, unsigned *hi)
{
	char buf[64], *tok[3];

	snprintf(buf, sizeof(buf), "%s", val);
	if (strlen(val) >= sizeof(buf) || ss_split(buf, tok, 3) != 2 ||
	    ss_parse_uint(tok[0], 100000, lo) || ss_parse_uint(tok[1], 100000, hi) ||
	    !*lo || *lo > *hi)
		return ss_error_at(c->err, c->path, c->line,
				   "%s: bad value '%s' (want LOW HIGH, 1 <= LOW <= HIGH <= 100000)",
				   key, val);
	return 0;
}

static int parse_pow2_key(const struct key_ctx *c, const char *key,
			  const char *val, unsigned min, unsigned max,
			  unsigned *out)
{
	if (parse_uint_key(c, key, val, min, max, out))
		return -1;
	if (!is_pow2(*out))
		return ss_error_at(c->err, c->path, c->line,
				   "%s: %s is not a power of two", key, val);
	return 0;
}

static int parse_bool_key(const struct key_ctx *c, const char *key,
			  const char *val, bool *out)
{
	if (!strcmp(val, "yes") || !strcmp(val, "true") || !strcmp(val, "1"))
		*out = true;
	else if (!strcmp(val, "no") || !strcmp(val, "false") ||
		 !strcmp(val, "0"))
		*out = false;
	else
		return ss_error_at(c->err, c->path, c->line,
				   "%s: bad value '%s' (want yes or no)", key,
				   val);
	return 0;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

/* Keys in the order docs/targets.md lists them; index = bit in `seen`. */
enum {
	K_NAME, K_PTR_SIZE, K_PAGE_SIZE, K_CACHE_LINE, K_DMA_MINALIGN,
	K_SLAB_MINALIGN, K_CPUS, K_NODES, K_ERA, K_CLOCK_MHZ, K_TRACK_SIZE,
	K_MIN_ORDER, K_MAX_ORDER, K_MIN_OBJECTS, K_LARGE_IN_SLAB,
	K_NR_CPU_IDS, K_CMPXCHG_DOUBLE, K_CLOCK_RANGE,
};

static const char *const keys[] = {
	"name",		  "ptr_size",	    "page_size",	"cache_line",
	"dma_minalign",	  "slab_minalign",  "cpus",		"nodes",
	"era",		  "clock_mhz",	    "track_size",	"slub_min_order",
	"slub_max_order", "slub_min_objects", "large_in_slab_stat",
	"nr_cpu_ids",	  "cmpxchg_double",   "clock_mhz_range",
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static int set_key(const struct key_ctx *c, int k, const char *val,
		   struct ss_target *t)
{
	const char *key = keys[k];

	switch (k) {
	case K_NAME:
		if (!valid_name(val) || strlen(val) >= sizeof(t->name))
			return ss_error_at(c->err, c->path, c->line,
					   "name: bad value '%s' (letters, digits, . _ -; < 64 chars)",
					   val);
		snprintf(t->name, sizeof(t->name), "%s", val);
		return 0;
	case K_PTR_SIZE:
		if (strcmp(val, "4") && strcmp(val, "8"))
			return ss_error_at(c->err, c->path, c->line,
					   "ptr_size: bad value '%s' (want 4 or 8)",
					   val);
		t->ptr_size = (unsigned)atoi(val);
		return 0;
	case K_PAGE_SIZE:
		return parse_pow2_key(c, key, val, 1024, 1u << 20, &t->page_size);
	case K_CACHE_LINE:
		return parse_pow2_key(c, key, val, 8, 1024, &t->cache_line);
	case K_DMA_MINALIGN:
		return parse_pow2_key(c, key, val, 1, 256, &t->dma_minalign);
	case K_SLAB_MINALIGN:
		return parse_pow2_key(c, key, val, 1, 256, &t->slab_minalign);
	case K_CPUS:
		return parse_uint_key(c, key, val, 1, 8192, &t->cpus);
	case K_NODES:
		return parse_uint_key(c, key, val, 1, 1024, &t->nodes);
	case K_ERA:
		t->era = ss_era_parse(val);
		if (t->era < 0)
			return ss_error_at(c->err, c->path, c->line,
					   "era: bad value '%s' (want MAJOR.MINOR, e.g. 3.10 or 6.11, or 2.6.N)",
					   val);
		return 0;
	case K_CLOCK_MHZ:
		return parse_uint_key(c, key, val, 1, 100000, &t->clock_mhz);
	case K_TRACK_SIZE:
		return parse_uint_key(c, key, val, 1, 4096, &t->track_size);
	case K_MIN_ORDER:
		return parse_uint_key(c, key, val, 0, 10, &t->slub_min_order);
	case K_MAX_ORDER:
		return parse_uint_key(c, key, val, 0, 10, &t->slub_max_order);
	case K_MIN_OBJECTS:
		return parse_uint_key(c, key, val, 0, 32767, &t->slub_min_objects);
	case K_LARGE_IN_SLAB:
		return parse_bool_key(c, key, val, &t->large_in_slab_stat);
	case K_NR_CPU_IDS:
		return parse_uint_key(c, key, val, 1, 8192, &t->nr_cpu_ids);
	case K_CMPXCHG_DOUBLE:
		return parse_bool_key(c, key, val, &t->cmpxchg_double);
	case K_CLOCK_RANGE:
		return parse_range_key(c, key, val, &t->clock_mhz_low,
				       &t->clock_mhz_high);
	}
	return ss_error_at(c->err, c->path, c->line, "internal: key %d", k);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

#define INFERRED_PREFIX "inferred."

/* "inferred.KEY = evidence": KEY must be a target key (not name), given
 * once; the evidence is free text. */
static int set_inferred(const struct key_ctx *c, const char *key,
			const char *val, struct ss_target *t)
{
	const char *k = key + strlen(INFERRED_PREFIX);
	struct ss_target_inferred *in;
	unsigned i;

	for (i = 1; i < NR_KEYS && strcmp(k, keys[i]); i++)
		;
	if (i == NR_KEYS)
		return ss_error_at(c->err, c->path, c->line,
				   "%s: '%s' is not a target key", key, k);
	for (i = 0; i < t->ninferred; i++)
		if (!strcmp(t->inferred[i].key, k))
			return ss_error_at(c->err, c->path, c->line,
					   "%s: duplicate key", key);
	if (t->ninferred == SS_TARGET_MAX_INFERRED)
		return ss_error_at(c->err, c->path, c->line,
				   "%s: more than %d inferred keys", key,
				   SS_TARGET_MAX_INFERRED);
	if (strlen(val) >= sizeof(in->evidence))
		return ss_error_at(c->err, c->path, c->line,
				   "%s: evidence longer than %zu characters",
				   key, sizeof(in->evidence) - 1);
	in = &t->inferred[t->ninferred++];
	snprintf(in->key, sizeof(in->key), "%s", k);
	snprintf(in->evidence, sizeof(in->evidence), "%s", val);
	return 0;
}

/* Parse one non-empty, comment-stripped line. */
static int parse_line(const struct key_ctx *c, char *line, unsigned *seen,
		      struct ss_target *t)
{
	char *eq = strchr(line, '=');
	char *key, *val;

	if (!eq)
		return ss_error_at(c->err, c->path, c->line,
				   "expected 'key = value', got '%s'", line);
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!*val)
		return ss_error_at(c->err, c->path, c->line,
				   "%s: missing value", key);
	if (!strncmp(key, INFERRED_PREFIX, strlen(INFERRED_PREFIX)))
		return set_inferred(c, key, val, t);
	for (unsigned k = 0; k < NR_KEYS; k++) {
		if (strcmp(key, keys[k]))
			continue;
		if (*seen & (1u << k))
			return ss_error_at(c->err, c->path, c->line,
					   "%s: duplicate key", key);
		*seen |= 1u << k;
		return set_key(c, (int)k, val, t);
	}
	{ /* the allocator and kernel options (kconfig.h) */
		char why[160];
		int rc = ss_kconfig_set(t, key, val, why, sizeof(why));

		if (rc < 0)
			return ss_error_at(c->err, c->path, c->line, "%s: %s", key, why);
		if (rc == 0)
			return 0;
	}
	return ss_error_at(c->err, c->path, c->line, "unknown key '%s'", key);
}

/* File name without directory and ".target" (the default target name). */
static void name_from_path(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 7 && !strcmp(base + len - 7, ".target"))
		len -= 7;
	if (len >= n)
		len = n - 1;
	memcpy(buf, base, len);
	buf[len] = '\0';
}

/* Cross-key checks after the whole file is read. */
static int check_target(const char *path, const struct ss_target *t,
			struct ss_error *err)
{
	if (t->slub_min_order > t->slub_max_order)
		return ss_error_at(err, path, 0,
				   "slub_min_order %u > slub_max_order %u",
				   t->slub_min_order, t->slub_max_order);
	if (t->track_size % t->ptr_size)
		return ss_error_at(err, path, 0,
				   "track_size %u is not a multiple of ptr_size %u",
				   t->track_size, t->ptr_size);
	if (t->clock_mhz_low &&
	    (t->clock_mhz < t->clock_mhz_low || t->clock_mhz > t->clock_mhz_high))
		return ss_error_at(err, path, 0,
				   "clock_mhz %u is outside clock_mhz_range %u %u",
				   t->clock_mhz, t->clock_mhz_low, t->clock_mhz_high);
	if (t->nr_cpu_ids && t->nr_cpu_ids < t->cpus)
		return ss_error_at(err, path, 0,
				   "nr_cpu_ids %u < cpus %u (present CPUs are possible ones)",
				   t->nr_cpu_ids, t->cpus);
	return 0;
}

int ss_target_parse_file(const char *path, struct ss_target *t,
			 struct ss_error *err)
{
	struct ss_target tmp;
	struct key_ctx c = {.path = path, .line = 0, .err = err};
	unsigned seen = 0;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;
	int rc = 0;

	fp = fopen(path, "r");
	if (!fp)
		return ss_error_at(err, path, 0, "cannot open: %s",
				   strerror(errno));
	tmp = *t;
	while ((len = getline(&buf, &cap, fp)) >= 0) {
		char *hash, *line;

		c.line++;
		if (strlen(buf) != (size_t)len) { /* the rest would be ignored */
			rc = ss_error_at(err, path, c.line, "NUL byte in line");
			break;
		}
		if (len > 1023) {
			rc = ss_error_at(err, path, c.line, "line too long");
			break;
		}
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		line = trim(buf);
		if (!*line)
			continue;
		rc = parse_line(&c, line, &seen, &tmp);
		if (rc)
			break;
	}
	if (!rc && ferror(fp))
		rc = ss_error_at(err, path, c.line + 1, "read error: %s", strerror(errno));
	free(buf);
	fclose(fp);
	if (rc)
		return -1;
	if (!(seen & (1u << K_NAME)))
		name_from_path(path, tmp.name, sizeof(tmp.name));
	if (check_target(path, &tmp, err))
		return -1;
	*t = tmp;
	return 0;
}

static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* Directory of /proc/self/exe, or "" if unknown. */
static void exe_dir(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", buf, n - 1);
	char *slash;

	if (len <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[len] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		buf[0] = '\0';
}

/* Append "<dir>/allocators/targets/<name>.target" to out[*n] unless the
 * path would not fit (then it is skipped: it cannot exist anyway). */
static void add_candidate(char out[][PATH_MAX], int *n, int max,
			  const char *dir, const char *name)
{
	int len;

	if (*n >= max)
		return;
	len = snprintf(out[*n], PATH_MAX, "%s/allocators/targets/%s.target",
		       dir, name);
	if (len > 0 && len < PATH_MAX)
		(*n)++;
}

/* Candidate files for a bare target name, in search order.  The binary may
 * sit in build/, build/asan/ or build/tests/, so the executable's ancestors
 * are tried up to three levels above its own directory. */
static int candidates(const char *name, char out[][PATH_MAX], int max)
{
	static const char *const up[] = {"/..", "/../..", "/../../.."};
	const char *home = getenv("SLABSIM_HOME");
	char dir[PATH_MAX], anc[PATH_MAX];
	int n = 0;

	if (home && *home)
		add_candidate(out, &n, max, home, name);
	exe_dir(dir, sizeof(dir));
	for (int i = 0; dir[0] && i < 3; i++) {
		size_t dl = strlen(dir), ul = strlen(up[i]);

		if (dl + ul >= sizeof(anc))
			break;
		memcpy(anc, dir, dl);
		memcpy(anc + dl, up[i], ul + 1);
		add_candidate(out, &n, max, anc, name);
	}
	add_candidate(out, &n, max, ".", name);
	return n;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ss_target_names(char *buf, size_t n)
{
	char cand[5][PATH_MAX], *names[64];
	unsigned k = 0;
	size_t len = 0;
	DIR *d = NULL;
	struct dirent *e;
	int nc = candidates("x", cand, 5);

	buf[0] = '\0';
	/* the first candidate directory that exists is the one searched */
	for (int i = 0; i < nc && !d; i++) {
		char *slash = strrchr(cand[i], '/');

		*slash = '\0';
		d = opendir(cand[i]);
	}
	while (d && (e = readdir(d)) && k < 64) {
		size_t l = strlen(e->d_name);

		if (l > 7 && !strcmp(e->d_name + l - 7, ".target") &&
		    (names[k] = strndup(e->d_name, l - 7)))
			k++;
	}
	if (d)
		closedir(d);
	ss_sort(names, k, sizeof(*names), cmp_name);
	for (unsigned i = 0; i < k; i++) {
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
}

int ss_target_load(const char *name_or_path, struct ss_target *t,
		   struct ss_error *err)
{
	char known[512];

	char cand[5][PATH_MAX];
	int n;

	if (!name_or_path || !*name_or_path)
		return ss_errorf(err, "target: empty name");
	ss_target_defaults(t);
	if (strchr(name_or_path, '/'))
		return ss_target_parse_file(name_or_path, t, err);
	if (!valid_name(name_or_path))
		return ss_errorf(err, "target '%s': bad name", name_or_path);
	n = candidates(name_or_path, cand, 5);
	for (int i = 0; i < n; i++)
		if (readable(cand[i]))
			return ss_target_parse_file(cand[i], t, err);
	ss_target_names(known, sizeof(known));
	return ss_errorf(err,
			 "target '%s': no %s.target under $SLABSIM_HOME, the "
			 "executable's tree or ./allocators/targets (known: %s)",
			 name_or_path, name_or_path, known[0] ? known : "none found");
}

int ss_target_key_value(const struct ss_target *t, const char *key,
			char *buf, unsigned long n)
{
	const unsigned *u = NULL;
	const bool *b = NULL;
	unsigned k;

	for (k = 0; k < NR_KEYS && strcmp(key, keys[k]); k++)
		;
	switch (k) {
	case K_NAME: snprintf(buf, n, "%s", t->name); return 0;
	case K_PTR_SIZE: u = &t->ptr_size; break;
	case K_PAGE_SIZE: u = &t->page_size; break;
	case K_CACHE_LINE: u = &t->cache_line; break;
	case K_DMA_MINALIGN: u = &t->dma_minalign; break;
	case K_SLAB_MINALIGN: u = &t->slab_minalign; break;
	case K_CPUS: u = &t->cpus; break;
	case K_NODES: u = &t->nodes; break;
	case K_ERA: ss_era_str(t->era, buf, n); return 0;
	case K_CLOCK_MHZ: u = &t->clock_mhz; break;
	case K_TRACK_SIZE: u = &t->track_size; break;
	case K_MIN_ORDER: u = &t->slub_min_order; break;
	case K_MAX_ORDER: u = &t->slub_max_order; break;
	case K_MIN_OBJECTS: u = &t->slub_min_objects; break;
	case K_LARGE_IN_SLAB: b = &t->large_in_slab_stat; break;
	case K_NR_CPU_IDS: snprintf(buf, n, "%u", ss_target_nr_cpu_ids(t)); return 0;
	case K_CMPXCHG_DOUBLE: b = &t->cmpxchg_double; break;
	case K_CLOCK_RANGE:
		snprintf(buf, n, "%u %u", t->clock_mhz_low, t->clock_mhz_high);
		return 0;
	default: return -1;
	}
	if (u)
		snprintf(buf, n, "%u", *u);
	else
		snprintf(buf, n, "%s", *b ? "yes" : "no");
	return 0;
}
