/* trace_text_reader.c - the text format (docs/trace-format.md), one line
 * at a time out of the input buffer: memory is the interned tables plus
 * the longest line, whatever the trace length. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "trace_backend.h"
#include "trace_bin.h"
#include "trace_tables.h"

#define MAX_TOKENS 8

#define BAD(r, err, ...) ss_error_at(err, (r)->path, (r)->lineno, __VA_ARGS__)

static int parse_num(struct ss_trace_reader *r, const char *tok,
		     const char *what, uint64_t max, uint64_t *out,
		     struct ss_error *err)
{
	if (ss_parse_u64(tok, max, out))
		return BAD(r, err, "bad %s '%s' (want an integer 0..%llu)", what,
			   tok, (unsigned long long)max);
	return 0;
}

static int intern(struct ss_trace_reader *r, const char *s, uint32_t *out,
		  struct ss_error *err)
{
	if (!ss_trace_name_ok(s))
		return BAD(r, err, "bad name '%.40s'", s);
	*out = ss_strtab_intern(&r->tb.names, s);
	return *out == UINT32_MAX ? BAD(r, err, "out of memory") : 0;
}

static int parse_header(struct ss_trace_reader *r, char **tok, int n,
			struct ss_error *err)
{
	uint64_t v;

	if (n != 2 || strcmp(tok[0], SS_TRACE_MAGIC))
		return BAD(r, err, "not a slabsim trace (first line must be '%s %d')",
			   SS_TRACE_MAGIC, SS_TRACE_VERSION);
	if (ss_parse_u64(tok[1], 1000, &v) || v != SS_TRACE_VERSION)
		return BAD(r, err, "unsupported trace version '%s' (this slabsim reads %d)",
			   tok[1], SS_TRACE_VERSION);
	r->seen_header = 1;
	return 0;
}

/* cache NAME size=N [align=N] [flags=a,b]: the kmem_cache_create() arguments. */
static int parse_cache(struct ss_trace_reader *r, char **tok, int n,
		       struct ss_error *err)
{
	unsigned size = 0, align = 0, flags = 0;
	uint32_t old;
	uint64_t v;

	if (n < 3)
		return BAD(r, err, "cache: want 'cache NAME size=N [align=N] [flags=...]'");
	if (!ss_trace_name_ok(tok[1]) || !strcmp(tok[1], "kmalloc"))
		return BAD(r, err, "cache: bad cache name '%.40s'", tok[1]);
	for (int i = 2; i < n; i++) {
		if (!strncmp(tok[i], "size=", 5)) {
			if (parse_num(r, tok[i] + 5, "cache size", 1u << 30, &v, err))
				return -1;
			size = (unsigned)v;
		} else if (!strncmp(tok[i], "align=", 6)) {
			if (parse_num(r, tok[i] + 6, "cache align", 1u << 20, &v, err))
				return -1;
			align = (unsigned)v;
			if (align & (align - 1))
				return BAD(r, err, "cache: align %u is not a power of two", align);
		} else if (!strncmp(tok[i], "flags=", 6)) {
			if (ss_cache_flags_parse(tok[i] + 6, &flags))
				return BAD(r, err, "cache: bad flags '%s' (known: hwcache,rcu,ctor,kmalloc,freeptr)",
					   tok[i] + 6);
		} else {
			return BAD(r, err, "cache: unknown attribute '%s'", tok[i]);
		}
	}
	if (!size)
		return BAD(r, err, "cache %s: size= missing or 0", tok[1]);
	old = ss_strtab_find(&r->tb.cache_names, tok[1]);
	if (old != UINT32_MAX) {
		const struct ss_trace_cache *c = &r->tb.caches[old];

		if (c->object_size != size || c->align != align || c->flags != flags)
			return BAD(r, err, "cache %s declared again with other arguments", tok[1]);
		return 0;
	}
	if (ss_trace_tables_add_cache(&r->tb, tok[1], size, align, flags) < 0)
		return BAD(r, err, "out of memory");
	r->decls++;
	return 0;
}

static int parse_meta(struct ss_trace_reader *r, char *line,
		      struct ss_error *err)
{
	char *key, *val;

	key = line + strspn(line, " \t") + 4; /* after "meta" */
	key += strspn(key, " \t");
	val = key + strcspn(key, " \t");
	if (val == key || !*val)
		return BAD(r, err, "meta: want 'meta KEY VALUE'");
	*val++ = '\0';
	val += strspn(val, " \t");
	if (*val && val[strlen(val) - 1] == '\r') /* a CRLF line */
		val[strlen(val) - 1] = '\0';
	if (!ss_trace_name_ok(key))
		return BAD(r, err, "meta: bad key '%.40s'", key);
	/* the value goes into summary.csv and .json as it is: it must be
	 * one field that reads back the same (a '\r' inside was cut here) */
	if (!ss_trace_meta_value_ok(val))
		return BAD(r, err, "meta %s: bad value (want UTF-8 without control bytes, at most %u bytes)",
			   key, SS_BIN_MAX_META);
	if (ss_trace_tables_set_meta(&r->tb, key, val))
		return BAD(r, err, "out of memory");
	r->decls++;
	return 0;
}

/* SITE API SIZE [gfp=FLAGS] of alloc and prior lines, and a prior line's
 * [slab=K] (tok points at SITE, n counts from there). */
static int parse_site_api_size(struct ss_trace_reader *r, const char *what,
			       char **tok, int n, struct ss_event *ev,
			       struct ss_error *err)
{
	bool prior = !strcmp(what, "prior free");

	for (int i = 3; i < n; i++) {
		uint64_t k;

		if (!strncmp(tok[i], "gfp=", 4) && !ev->gfp && !ss_gfp_parse(tok[i] + 4, &ev->gfp))
			continue;
		if (prior && !strncmp(tok[i], "slab=", 5) && !ev->id &&
		    !ss_parse_u64(tok[i] + 5, SS_TRACE_MAX_ID, &k)) {
			ev->id = k + 1;
			continue;
		}
		return BAD(r, err, "%s: bad '%.40s' (want gfp=account,reclaimable,dma%s)",
			   what, tok[i], prior ? " or slab=N" : "");
	}
	if (intern(r, tok[0], &ev->site, err) ||
	    parse_num(r, tok[2], "size", SS_TRACE_MAX_SIZE, &ev->value, err))
		return -1;
	ev->api = ss_strtab_find(&r->tb.cache_names, tok[1]);
	if (ev->api == UINT32_MAX)
		return BAD(r, err, "%s: cache '%.40s' was not declared (want kmalloc or a 'cache' line before use)",
			   what, tok[1]);
	return 0;
}

static int parse_alloc(struct ss_trace_reader *r, char **tok, int n,
		       struct ss_event *ev, struct ss_error *err)
{
	uint64_t v;

	if (n != 6 && n != 7)
		return BAD(r, err, "alloc: want 'a CPU ID SITE API SIZE [gfp=FLAGS]', got %d fields", n);
	if (parse_num(r, tok[1], "cpu", SS_TRACE_MAX_CPU, &v, err))
		return -1;
	ev->cpu = (uint32_t)v;
	if (parse_num(r, tok[2], "object id", SS_TRACE_MAX_ID, &ev->id, err) ||
	    parse_site_api_size(r, "alloc", tok + 3, n - 3, ev, err))
		return -1;
	ev->kind = SS_EV_ALLOC;
	return 0;
}

static int parse_free_prior(struct ss_trace_reader *r, char **tok, int n,
			    struct ss_event *ev, struct ss_error *err)
{
	uint64_t v;

	if (n < 5 || n > 7)
		return BAD(r, err, "prior free: want 'u CPU SITE API SIZE [gfp=FLAGS] [slab=K]', got %d fields", n);
	if (parse_num(r, tok[1], "cpu", SS_TRACE_MAX_CPU, &v, err) ||
	    parse_site_api_size(r, "prior free", tok + 2, n - 2, ev, err))
		return -1;
	ev->cpu = (uint32_t)v;
	ev->kind = SS_EV_FREE_PRIOR;
	return 0;
}

/* d CPU API SIZE [gfp=FLAGS] slab=K: the kernel freed slab K's pages */
static int parse_slab_freed(struct ss_trace_reader *r, char **tok, int n, struct ss_event *ev,
			    struct ss_error *err)
{
	uint64_t v, k;

	if (n < 5 || n > 6)
		return BAD(r, err, "slab freed: want 'd CPU API SIZE [gfp=FLAGS] slab=K', got %d fields", n);
	if (parse_num(r, tok[1], "cpu", SS_TRACE_MAX_CPU, &v, err) ||
	    parse_num(r, tok[3], "size", SS_TRACE_MAX_SIZE, &ev->value, err))
		return -1;
	if (n == 6 && (strncmp(tok[4], "gfp=", 4) || ss_gfp_parse(tok[4] + 4, &ev->gfp)))
		return BAD(r, err, "slab freed: bad '%.40s' (want gfp=account,reclaimable,dma)", tok[4]);
	if (strncmp(tok[n - 1], "slab=", 5) || ss_parse_u64(tok[n - 1] + 5, SS_TRACE_MAX_ID, &k))
		return BAD(r, err, "slab freed: bad '%.40s' (want slab=K)", tok[n - 1]);
	ev->api = ss_strtab_find(&r->tb.cache_names, tok[2]);
	if (ev->api == UINT32_MAX)
		return BAD(r, err, "slab freed: cache '%.40s' was not declared (want kmalloc or a 'cache' line before use)",
			   tok[2]);
	ev->id = k + 1;
	ev->cpu = (uint32_t)v;
	ev->kind = SS_EV_SLAB_FREED;
	return 0;
}

static int parse_free(struct ss_trace_reader *r, char **tok, int n,
		      struct ss_event *ev, struct ss_error *err)
{
	uint64_t v;

	if (n != 3)
		return BAD(r, err, "free: want 'f CPU ID', got %d fields", n);
	if (parse_num(r, tok[1], "cpu", SS_TRACE_MAX_CPU, &v, err) ||
	    parse_num(r, tok[2], "object id", SS_TRACE_MAX_ID, &ev->id, err))
		return -1;
	ev->cpu = (uint32_t)v;
	ev->kind = SS_EV_FREE;
	return 0;
}

static int parse_work(struct ss_trace_reader *r, char **tok, int n,
		      struct ss_event *ev, struct ss_error *err)
{
	uint64_t v;

	if (n != 4)
		return BAD(r, err, "work: want 'w CPU CYCLES LABEL', got %d fields", n);
	if (parse_num(r, tok[1], "cpu", SS_TRACE_MAX_CPU, &v, err) ||
	    parse_num(r, tok[2], "cycles", SS_TRACE_MAX_CYCLES, &ev->value, err) ||
	    intern(r, tok[3], &ev->site, err))
		return -1;
	ev->cpu = (uint32_t)v;
	ev->kind = SS_EV_WORK;
	return 0;
}

static int parse_phase(struct ss_trace_reader *r, char **tok, int n,
		       struct ss_event *ev, struct ss_error *err)
{
	if (n != 2)
		return BAD(r, err, "phase: want 'p NAME'");
	if (intern(r, tok[1], &ev->site, err))
		return -1;
	ev->kind = SS_EV_PHASE;
	return 0;
}

/* One line: 1 = event, 0 = declaration or comment, -1 = error. */
static int parse_line(struct ss_trace_reader *r, struct ss_event *ev,
		      struct ss_error *err)
{
	char *tok[MAX_TOKENS];
	const char *first = r->line + strspn(r->line, " \t");
	int n;

	if (*first == '#')
		return 0;
	if (!strncmp(r->line, "meta", 4) && (r->line[4] == ' ' || r->line[4] == '\t'))
		return r->seen_header ? parse_meta(r, r->line, err)
				      : BAD(r, err, "meta before the '%s' header", SS_TRACE_MAGIC);
	n = ss_split(r->line, tok, MAX_TOKENS);
	if (n < 0)
		return BAD(r, err, "too many fields");
	if (n == 0)
		return 0;
	if (!r->seen_header)
		return parse_header(r, tok, n, err);
	memset(ev, 0, sizeof(*ev));
	ev->line = r->lineno;
	if (!tok[0][1]) {
		switch (tok[0][0]) {
		case 'a': return parse_alloc(r, tok, n, ev, err) ? -1 : 1;
		case 'f': return parse_free(r, tok, n, ev, err) ? -1 : 1;
		case 'u': return parse_free_prior(r, tok, n, ev, err) ? -1 : 1;
		case 'd': return parse_slab_freed(r, tok, n, ev, err) ? -1 : 1;
		case 'w': return parse_work(r, tok, n, ev, err) ? -1 : 1;
		case 'p': return parse_phase(r, tok, n, ev, err) ? -1 : 1;
		}
	}
	if (!strcmp(tok[0], "cache"))
		return parse_cache(r, tok, n, err);
	return BAD(r, err, "unknown record '%.20s' (want a, f, u, d, w, p, cache, meta or #)", tok[0]);
}

/* The next line into r->line: 1 = line, 0 = end of the stream, -1 = error. */
static int read_line(struct ss_trace_reader *r, struct ss_error *err)
{
	size_t len;
	int rc = ss_inbuf_line(&r->in, &r->line, &len, r->path, err);

	if (rc <= 0)
		return rc;
	r->lineno++;
	if (memchr(r->line, '\0', len))
		return BAD(r, err, "NUL byte in line");
	return 1;
}

static int text_next(struct ss_trace_reader *r, struct ss_event *ev,
		     struct ss_error *err)
{
	for (;;) {
		int rc = read_line(r, err);

		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (!r->seen_header)
				return ss_error_at(err, r->path, 0,
						   "empty file: not a slabsim trace");
			return 0;
		}
		rc = parse_line(r, ev, err);
		if (rc)
			return rc;
	}
}

int ss_text_reader_init(struct ss_trace_reader *r, struct ss_error *err)
{
	(void)err;
	r->next = text_next;
	return 0;
}
