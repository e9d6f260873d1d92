/* registry.c - the allocator models, one row each, and the one parser of
 * the names users give them ("MODEL+LETTERS", slub_debug specs). */
#include <stdio.h>
#include <string.h>

#include "geometry.h"
#include "model.h"
#include "placement.h"

static const struct ss_model_desc models[] = {
	{"traced", "each allocation where the traced kernel made it (kmalloc class or named cache)",
	 &ss_cache_model_ops, &ss_placement_traced, false},
	{"kmalloc-buckets", "every allocation in the kmalloc class of its size, named caches included",
	 &ss_cache_model_ops, &ss_placement_buckets, false},
	{"kmem_cache", "every fixed-size kmalloc site gets its own exact cache (SLUB merging applies)",
	 &ss_cache_model_ops, &ss_placement_kmem_cache, true},
};

unsigned ss_model_count(void)
{
	return sizeof(models) / sizeof(models[0]);
}

const struct ss_model_desc *ss_model_at(unsigned i)
{
	return i < ss_model_count() ? &models[i] : NULL;
}

/* a[0..n) equals b, with '-' and '_' taken as one letter */
static bool same_name(const char *a, size_t n, const char *b)
{
	size_t i;

	for (i = 0; i < n && b[i]; i++) {
		char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];

		if (x != y)
			return false;
	}
	return i == n && !b[i];
}

static const struct ss_model_desc *find_n(const char *name, size_t n)
{
	for (unsigned i = 0; i < ss_model_count(); i++)
		if (same_name(name, n, models[i].name))
			return &models[i];
	return NULL;
}

const struct ss_model_desc *ss_model_find(const char *name)
{
	return find_n(name, strlen(name));
}

void ss_model_canon(char *list)
{
	for (char *w = list; *w;) {
		size_t len = strcspn(w, " \t\n"), mlen = strcspn(w, "+. \t\n");
		const struct ss_model_desc *d = find_n(w, mlen);

		/* same_name() matched letter for letter: the same length; a
		 * name already spelled so is not written (it may be read-only) */
		if (d && memcmp(w, d->name, mlen))
			memcpy(w, d->name, mlen);
		w += len;
		w += strspn(w, " \t\n");
	}
}

/* "traced, kmalloc-buckets, kmem_cache" for error messages */
static void model_names(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ss_model_count() && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", models[i].name);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

int ss_model_parse(const char *arg, const struct ss_model_desc **desc,
		   char *debug, size_t n, struct ss_error *err)
{
	const char *plus = strchr(arg, '+');
	size_t len = plus ? (size_t)(plus - arg) : strlen(arg);
	struct ss_model_config check;

	*desc = find_n(arg, len);
	if (!*desc) {
		char names[256];

		model_names(names, sizeof(names));
		return ss_errorf(err, "unknown model '%.*s' (models: %s)", (int)len, arg, names);
	}
	debug[0] = '\0';
	if (!plus)
		return 0;
	if (strlen(plus + 1) >= n)
		return ss_errorf(err, "slub_debug spec too long in '%s'", arg);
	if (ss_model_config_debug(&check, plus + 1, err))
		return -1;
	strcpy(debug, plus + 1);
	return 0;
}

int ss_model_config_debug(struct ss_model_config *cfg, const char *spec,
			  struct ss_error *err)
{
	char letters[32];
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);

	if (n >= sizeof(letters))
		goto bad;
	memcpy(letters, spec, n);
	letters[n] = '\0';
	if (ss_debug_parse(letters, &cfg->debug))
		goto bad;
	cfg->debug_caches[0] = '\0';
	if (comma) {
		int w = snprintf(cfg->debug_caches, sizeof(cfg->debug_caches), "%s,", comma);

		if (w < 0 || (size_t)w >= sizeof(cfg->debug_caches))
			goto bad;
	}
	return 0;
bad:
	return ss_errorf(err, "bad slub_debug '%s' (want letters of FZPUTO, or '-', then ,cache names)",
			 spec);
}
