/* override.c - placement override tables: the file format, and building
 * one in memory (override.h). */
#include "override.h"

#include <errno.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "trace_tables.h"

void ss_overrides_where(const struct ss_overrides *ov, int i, char *buf,
			size_t n)
{
	unsigned long line = i < 0 ? ov->classes_line : ov->rule[i].line;

	if (!ov->path[0])
		snprintf(buf, n, "placement: ");
	else if (!line)
		snprintf(buf, n, "%s: ", ov->path);
	else
		snprintf(buf, n, "%s:%lu: ", ov->path, line);
}

int ss_overrides_find(const struct ss_overrides *ov, const char *site)
{
	for (unsigned i = 0; i < ov->nr; i++)
		if (!strcmp(ov->rule[i].site, site))
			return (int)i;
	return -1;
}

static bool same_spec(const struct ss_cache_spec *a, const struct ss_cache_spec *b)
{
	return a->object_size == b->object_size && a->align == b->align &&
	       a->flags == b->flags;
}

/* The checks every rule passes, from a file or from memory. */
static int check_rule(const struct ss_overrides *ov, const char *site,
		      enum ss_ov_kind kind, const char *cache,
		      const struct ss_cache_spec *spec, struct ss_error *err)
{
	size_t max = kind == SS_OV_BUCKETS ? SS_OV_NAME_MAX - 8 : SS_OV_NAME_MAX;

	if (!ss_trace_name_ok(site))
		return ss_errorf(err, "bad site name '%.40s'", site);
	if (!ss_trace_name_ok(cache) || strlen(cache) >= max)
		return ss_errorf(err, "bad cache name '%.40s' (printable, no spaces, under %zu bytes)",
				 cache, max);
	if (ss_overrides_find(ov, site) >= 0)
		return ss_errorf(err, "site %s placed twice", site);
	if (kind != SS_OV_CACHE)
		return 0;
	if (!spec->object_size)
		return ss_errorf(err, "cache %s: size= missing or 0", cache);
	if (spec->align & (spec->align - 1))
		return ss_errorf(err, "cache %s: align %u is not a power of two", cache,
				 spec->align);
	for (unsigned i = 0; i < ov->nr; i++)
		if (ov->rule[i].kind == SS_OV_CACHE && !strcmp(ov->rule[i].cache, cache) &&
		    !same_spec(&ov->rule[i].spec, spec))
			return ss_errorf(err, "cache %s given again with other arguments", cache);
	return 0;
}

static int add_rule(struct ss_overrides *ov, const char *site,
		    enum ss_ov_kind kind, const char *cache,
		    const struct ss_cache_spec *spec, unsigned long line,
		    struct ss_error *err)
{
	struct ss_ov_rule *r;

	if (check_rule(ov, site, kind, cache, spec, err))
		return -1;
	if (ov->nr == ov->cap) {
		unsigned cap = ov->cap ? ov->cap * 2 : 8;

		r = realloc(ov->rule, cap * sizeof(*r));
		if (!r)
			return ss_errorf(err, "out of memory");
		ov->rule = r;
		ov->cap = cap;
	}
	r = &ov->rule[ov->nr];
	memset(r, 0, sizeof(*r));
	r->site = strdup(site);
	if (!r->site)
		return ss_errorf(err, "out of memory");
	r->kind = kind;
	snprintf(r->cache, sizeof(r->cache), "%s", cache);
	if (kind == SS_OV_CACHE) {
		r->spec.object_size = spec->object_size;
		r->spec.align = spec->align;
		r->spec.flags = spec->flags;
	}
	r->line = line;
	ov->nr++;
	return 0;
}

int ss_overrides_add(struct ss_overrides *ov, const char *site,
		     enum ss_ov_kind kind, const char *cache,
		     const struct ss_cache_spec *spec, struct ss_error *err)
{
	static const struct ss_cache_spec none;

	return add_rule(ov, site, kind, cache, spec ? spec : &none, 0, err);
}

int ss_overrides_set_classes(struct ss_overrides *ov, const unsigned *classes,
			     unsigned n, unsigned minalign, struct ss_error *err)
{
	if (!n || n > SS_OV_MAX_CLASSES)
		return ss_errorf(err, "classes: want 1 to %d sizes", SS_OV_MAX_CLASSES);
	for (unsigned i = 0; i < n; i++) {
		if (!classes[i] || classes[i] % 8)
			return ss_errorf(err, "classes: %u is not a multiple of 8", classes[i]);
		if (i && classes[i] <= classes[i - 1])
			return ss_errorf(err, "classes: %u after %u (want ascending sizes)",
					 classes[i], classes[i - 1]);
	}
	if (minalign & (minalign - 1))
		return ss_errorf(err, "classes: minalign %u is not a power of two", minalign);
	memcpy(ov->classes, classes, n * sizeof(*classes));
	ov->nr_classes = n;
	ov->minalign = minalign;
	return 0;
}

/* ---- the file ---- */

#define BAD(err, path, line, ...) ss_error_at(err, path, line, __VA_ARGS__)

/* classes 8,16,32 [minalign=8] */
static int parse_classes(struct ss_overrides *ov, char **tok, int n,
			 unsigned long line, struct ss_error *err)
{
	unsigned cls[SS_OV_MAX_CLASSES], nr = 0, minalign = 0;
	struct ss_error why;

	if (n < 2 || n > 3)
		return BAD(err, ov->path, line, "want 'classes N,N,... [minalign=A]'");
	if (ov->nr_classes)
		return BAD(err, ov->path, line, "classes given twice");
	for (char *p = tok[1], *next; p; p = next) {
		next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		if (nr == SS_OV_MAX_CLASSES || ss_parse_uint(p, 1u << 30, &cls[nr]))
			return BAD(err, ov->path, line, "classes: bad size '%s'", p);
		nr++;
	}
	if (n == 3 && (strncmp(tok[2], "minalign=", 9) ||
		       ss_parse_uint(tok[2] + 9, 1u << 20, &minalign) || !minalign))
		return BAD(err, ov->path, line, "classes: bad '%s' (want minalign=A)", tok[2]);
	if (ss_overrides_set_classes(ov, cls, nr, minalign, &why))
		return BAD(err, ov->path, line, "%s", why.msg);
	ov->classes_line = line;
	return 0;
}

/* site NAME cache=C size=N [align=A] [flags=F] | into=C | buckets=S */
static int parse_site(struct ss_overrides *ov, char **tok, int n,
		      unsigned long line, struct ss_error *err)
{
	struct ss_cache_spec spec = {0};
	enum ss_ov_kind kind = SS_OV_CACHE;
	const char *cache = NULL;
	struct ss_error why;

	if (n < 3)
		return BAD(err, ov->path, line, "want 'site NAME cache=C size=N ...', 'into=C' or 'buckets=S'");
	for (int i = 2; i < n; i++) {
		char *v = strchr(tok[i], '=');
		bool ok = true;

		if (!v)
			return BAD(err, ov->path, line, "site %s: bad attribute '%s'", tok[1], tok[i]);
		*v++ = '\0';
		if (!strcmp(tok[i], "cache") || !strcmp(tok[i], "into") ||
		    !strcmp(tok[i], "buckets")) {
			if (cache)
				return BAD(err, ov->path, line, "site %s: give one of cache=, into=, buckets=",
					   tok[1]);
			cache = v;
			kind = tok[i][0] == 'c' ? SS_OV_CACHE : tok[i][0] == 'i' ? SS_OV_INTO
										: SS_OV_BUCKETS;
		} else if (!strcmp(tok[i], "size")) {
			ok = !ss_parse_uint(v, 1u << 30, &spec.object_size);
		} else if (!strcmp(tok[i], "align")) {
			ok = !ss_parse_uint(v, 1u << 20, &spec.align);
		} else if (!strcmp(tok[i], "flags")) {
			ok = !ss_cache_flags_parse(v, &spec.flags);
		} else {
			return BAD(err, ov->path, line, "site %s: unknown attribute '%s'", tok[1], tok[i]);
		}
		if (!ok)
			return BAD(err, ov->path, line, "site %s: bad %s '%s'", tok[1], tok[i], v);
	}
	if (!cache)
		return BAD(err, ov->path, line, "site %s: want cache=, into= or buckets=", tok[1]);
	if (kind != SS_OV_CACHE && (spec.object_size || spec.align || spec.flags))
		return BAD(err, ov->path, line, "site %s: size=, align= and flags= go with cache=",
			   tok[1]);
	if (add_rule(ov, tok[1], kind, cache, &spec, line, &why))
		return BAD(err, ov->path, line, "%s", why.msg);
	return 0;
}

int ss_overrides_load(struct ss_overrides *ov, const char *path,
		      struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	unsigned long line = 0;
	int rc = 0;

	memset(ov, 0, sizeof(*ov));
	if (!fp)
		return ss_errorf(err, "%s: %s", path, strerror(errno));
	snprintf(ov->path, sizeof(ov->path), "%s", path);
	while (!rc) {
		ssize_t len = getline(&buf, &cap, fp);
		char *tok[8];
		int n;

		if (len < 0)
			break;
		line++;
		if ((size_t)len != strlen(buf)) {
			rc = BAD(err, path, line, "NUL byte in line");
			break;
		}
		if (buf[strspn(buf, " \t")] == '#') /* a comment line ('#' may be in a name) */
			continue;
		n = ss_split(buf, tok, 8);
		if (n == 0)
			continue;
		if (n < 0)
			rc = BAD(err, path, line, "too many fields");
		else if (!strcmp(tok[0], "site"))
			rc = parse_site(ov, tok, n, line, err);
		else if (!strcmp(tok[0], "classes"))
			rc = parse_classes(ov, tok, n, line, err);
		else
			rc = BAD(err, path, line, "unknown line '%.40s' (want site or classes)", tok[0]);
	}
	if (!rc && ferror(fp))
		rc = ss_errorf(err, "%s: read error", path);
	free(buf);
	fclose(fp);
	if (rc)
		ss_overrides_release(ov);
	return rc;
}

int ss_overrides_write(const struct ss_overrides *ov, FILE *fp)
{
	for (unsigned i = 0; i < ov->nr; i++) {
		const struct ss_ov_rule *r = &ov->rule[i];
		char flags[64] = "";

		if (r->kind == SS_OV_INTO) {
			fprintf(fp, "site %s into=%s\n", r->site, r->cache);
			continue;
		}
		if (r->kind == SS_OV_BUCKETS) {
			fprintf(fp, "site %s buckets=%s\n", r->site, r->cache);
			continue;
		}
		fprintf(fp, "site %s cache=%s size=%u", r->site, r->cache, r->spec.object_size);
		if (r->spec.align)
			fprintf(fp, " align=%u", r->spec.align);
		if (r->spec.flags) {
			ss_cache_flags_str(r->spec.flags, flags, sizeof(flags));
			fprintf(fp, " flags=%s", flags);
		}
		fputc('\n', fp);
	}
	if (ov->nr_classes) {
		fprintf(fp, "classes ");
		for (unsigned i = 0; i < ov->nr_classes; i++)
			fprintf(fp, "%s%u", i ? "," : "", ov->classes[i]);
		if (ov->minalign)
			fprintf(fp, " minalign=%u", ov->minalign);
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

void ss_overrides_release(struct ss_overrides *ov)
{
	for (unsigned i = 0; i < ov->nr; i++)
		free(ov->rule[i].site);
	free(ov->rule);
	ov->rule = NULL;
	ov->nr = ov->cap = 0;
	ov->nr_classes = 0;
}
