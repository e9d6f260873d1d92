/* trace_tables.c - the interned tables a trace reader builds, shared with
 * the writer (cache declarations, meta pairs) and the name rules both use. */
#include "trace_tables.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "trace_bin.h"


struct flag_name {
	const char *name;
	unsigned flag;
};

static const struct flag_name cache_flag_names[] = {
	{"hwcache", SS_CF_HWCACHE}, {"rcu", SS_CF_RCU}, {"ctor", SS_CF_CTOR},
	{"kmalloc", SS_CF_KMALLOC}, {"freeptr", SS_CF_FREEPTR},
};

static const struct flag_name gfp_names[] = {
	{"account", SS_GFP_ACCOUNT}, {"reclaimable", SS_GFP_RECLAIMABLE},
	{"dma", SS_GFP_DMA},
};

#define NR_OF(a) (sizeof(a) / sizeof((a)[0]))

int ss_trace_tables_init(struct ss_trace_tables *tb)
{
	memset(tb, 0, sizeof(*tb));
	return ss_trace_tables_add_cache(tb, "kmalloc", 0, 0, 0) == 0 ? 0 : -1;
}

void ss_trace_tables_release(struct ss_trace_tables *tb)
{
	for (uint32_t i = 0; i < tb->meta_keys.nr; i++)
		free(tb->meta_values[i]);
	free(tb->meta_values);
	free(tb->caches);
	ss_strtab_release(&tb->names);
	ss_strtab_release(&tb->cache_names);
	ss_strtab_release(&tb->meta_keys);
}

int ss_trace_tables_add_cache(struct ss_trace_tables *tb, const char *name,
			      unsigned size, unsigned align, unsigned flags)
{
	uint32_t idx = ss_strtab_find(&tb->cache_names, name);

	if (idx != UINT32_MAX)
		return (int)idx;
	idx = ss_strtab_intern(&tb->cache_names, name);
	if (idx == UINT32_MAX)
		return -1;
	if (idx >= tb->cap_caches) {
		uint32_t cap = tb->cap_caches ? tb->cap_caches * 2 : 16;
		struct ss_trace_cache *c = realloc(tb->caches, cap * sizeof(*c));

		if (!c)
			return -1;
		tb->caches = c;
		tb->cap_caches = cap;
	}
	tb->caches[idx] = (struct ss_trace_cache){size, align, flags};
	return (int)idx;
}

int ss_trace_tables_set_meta(struct ss_trace_tables *tb, const char *key,
			     const char *value)
{
	uint32_t idx = ss_strtab_intern(&tb->meta_keys, key);
	char *v;

	if (idx == UINT32_MAX)
		return -1;
	if (idx >= tb->cap_meta) {
		uint32_t cap = tb->cap_meta ? tb->cap_meta * 2 : 8;
		char **vals = realloc(tb->meta_values, cap * sizeof(*vals));

		if (!vals)
			return -1;
		memset(vals + tb->cap_meta, 0, (cap - tb->cap_meta) * sizeof(*vals));
		tb->meta_values = vals;
		tb->cap_meta = cap;
	}
	v = strdup(value);
	if (!v)
		return -1;
	free(tb->meta_values[idx]);
	tb->meta_values[idx] = v;
	return 0;
}

/* The strings src holds past dst's, interned into dst in order. */
static int sync_strtab(struct ss_strtab *dst, const struct ss_strtab *src)
{
	for (uint32_t i = dst->nr; i < src->nr; i++)
		if (ss_strtab_intern(dst, src->strs[i]) != i)
			return -1;
	return 0;
}

int ss_trace_tables_sync(struct ss_trace_tables *dst, const struct ss_trace_tables *src)
{
	if (sync_strtab(&dst->names, &src->names))
		return -1;
	for (uint32_t api = dst->cache_names.nr; api < src->cache_names.nr; api++) {
		const struct ss_trace_cache *c = &src->caches[api];

		if (ss_trace_tables_add_cache(dst, src->cache_names.strs[api], c->object_size,
					      c->align, c->flags) != (int)api)
			return -1;
	}
	for (uint32_t k = 0; k < src->meta_keys.nr; k++) {
		const char *have = ss_trace_meta(dst, src->meta_keys.strs[k]);

		if ((!have || strcmp(have, src->meta_values[k])) &&
		    ss_trace_tables_set_meta(dst, src->meta_keys.strs[k], src->meta_values[k]))
			return -1;
	}
	return 0;
}

const char *ss_trace_name(const struct ss_trace_tables *tb, uint32_t idx)
{
	return idx < tb->names.nr ? tb->names.strs[idx] : "?";
}

const char *ss_trace_cache_name(const struct ss_trace_tables *tb, uint32_t api)
{
	return api < tb->cache_names.nr ? tb->cache_names.strs[api] : "?";
}

const char *ss_trace_meta(const struct ss_trace_tables *tb, const char *key)
{
	uint32_t idx = ss_strtab_find(&tb->meta_keys, key);

	return idx == UINT32_MAX ? NULL : tb->meta_values[idx];
}

/* A name is a non-empty token of printable non-space bytes: it must survive
 * a round trip through a whitespace-separated line. */
int ss_trace_name_ok(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if ((unsigned char)s[n] <= ' ' || (unsigned char)s[n] > '~')
			return 0;
	return n > 0 && n <= SS_MAX_NAME;
}

int ss_trace_meta_value_ok(const char *s)
{
	return ss_label_ok(s) && strlen(s) <= SS_BIN_MAX_META;
}

/* "a,b,c" -> the OR of the named flags; -1 for an unknown or empty name. */
static int flags_parse(const struct flag_name *names, size_t nr, const char *s,
		       unsigned *out)
{
	char buf[256];
	char *save = NULL;

	*out = 0;
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < nr; i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == nr)
			return -1;
		*out |= names[i].flag;
	}
	return 0;
}

static void flags_str(const struct flag_name *names, size_t nr, unsigned flags,
		      char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		if (!(flags & names[i].flag))
			continue;
		int w = snprintf(buf + used, n - used, "%s%s", used ? "," : "",
				 names[i].name);
		if (w < 0 || (size_t)w >= n - used)
			return;
		used += (size_t)w;
	}
}

int ss_cache_flags_parse(const char *s, unsigned *out)
{
	return flags_parse(cache_flag_names, NR_OF(cache_flag_names), s, out);
}

void ss_cache_flags_str(unsigned flags, char *buf, size_t n)
{
	flags_str(cache_flag_names, NR_OF(cache_flag_names), flags, buf, n);
}

int ss_gfp_parse(const char *s, uint32_t *out)
{
	unsigned v;

	if (!*s || flags_parse(gfp_names, NR_OF(gfp_names), s, &v))
		return -1;
	*out = v;
	return 0;
}

void ss_gfp_str(uint32_t gfp, char *buf, size_t n)
{
	flags_str(gfp_names, NR_OF(gfp_names), gfp, buf, n);
}
