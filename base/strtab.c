/* strtab.c - string interning with an open-addressing hash. */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static uint32_t probe(const struct ss_strtab *t, const char *s)
{
	uint32_t mask = t->nr_slots - 1;
	uint32_t i = hash_str(s) & mask;

	while (t->slots[i] && strcmp(t->strs[t->slots[i] - 1], s))
		i = (i + 1) & mask;
	return i;
}

static int grow_slots(struct ss_strtab *t)
{
	uint32_t n = t->nr_slots ? t->nr_slots * 2 : 64;
	uint32_t *old = t->slots, old_n = t->nr_slots;

	t->slots = calloc(n, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return -1;
	}
	t->nr_slots = n;
	for (uint32_t i = 0; i < old_n; i++)
		if (old[i])
			t->slots[probe(t, t->strs[old[i] - 1])] = old[i];
	free(old);
	return 0;
}

uint32_t ss_strtab_find(const struct ss_strtab *t, const char *s)
{
	uint32_t i;

	if (!t->nr_slots)
		return UINT32_MAX;
	i = probe(t, s);
	return t->slots[i] ? t->slots[i] - 1 : UINT32_MAX;
}

uint32_t ss_strtab_intern(struct ss_strtab *t, const char *s)
{
	uint32_t i;
	char *copy;

	if ((t->nr + 1) * 2 > t->nr_slots && grow_slots(t))
		return UINT32_MAX;
	i = probe(t, s);
	if (t->slots[i])
		return t->slots[i] - 1;
	if (t->nr == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 32;
		char **strs = realloc(t->strs, cap * sizeof(*strs));

		if (!strs)
			return UINT32_MAX;
		t->strs = strs;
		t->cap = cap;
	}
	copy = strdup(s);
	if (!copy)
		return UINT32_MAX;
	t->strs[t->nr] = copy;
	t->slots[i] = ++t->nr;
	return t->nr - 1;
}

void ss_strtab_release(struct ss_strtab *t)
{
	for (uint32_t i = 0; i < t->nr; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
