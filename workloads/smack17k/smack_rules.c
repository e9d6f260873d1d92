/* smack_rules.c - the rule set container, access strings, the pair map and
 * the load2 writer.  The reader is smack_parse.c. */
#include "smack_rules.h"

#include <stdlib.h>
#include <string.h>

#include "smack_consts.h"
#include "smack_label.h"

/* FNV-1a: a fixed hash keeps the generator's output independent of the
 * host (only lookups use it, never the output order). */
static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

void ss_smack_ruleset_init(struct ss_smack_ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void ss_smack_ruleset_release(struct ss_smack_ruleset *rs)
{
	for (uint32_t i = 0; i < rs->nr_labels; i++)
		free(rs->labels[i].name);
	free(rs->labels);
	free(rs->label_slots);
	free(rs->rules);
	memset(rs, 0, sizeof(*rs));
}

static int64_t slot_of(const struct ss_smack_ruleset *rs, const char *s,
		       size_t n, uint32_t *slot)
{
	uint32_t mask = rs->nr_label_slots - 1;
	uint32_t i = hash_bytes(s, n) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t v = rs->label_slots[i];
		const struct ss_smack_label *l;

		if (!v) {
			*slot = i;
			return -1;
		}
		l = &rs->labels[v - 1];
		if (l->len == n && !memcmp(l->name, s, n))
			return v - 1;
	}
}

static int grow_label_slots(struct ss_smack_ruleset *rs)
{
	uint32_t n = rs->nr_label_slots ? rs->nr_label_slots * 2 : 256;
	uint32_t *slots = calloc(n, sizeof(*slots));
	uint32_t slot;

	if (!slots || n < rs->nr_label_slots) {
		free(slots);
		return -1;
	}
	free(rs->label_slots);
	rs->label_slots = slots;
	rs->nr_label_slots = n;
	for (uint32_t i = 0; i < rs->nr_labels; i++) {
		slot_of(rs, rs->labels[i].name, rs->labels[i].len, &slot);
		rs->label_slots[slot] = i + 1;
	}
	return 0;
}

int64_t ss_smack_ruleset_find(const struct ss_smack_ruleset *rs,
			      const char *s, size_t n)
{
	uint32_t slot;

	if (!rs->nr_label_slots)
		return -1;
	return slot_of(rs, s, n, &slot);
}

int64_t ss_smack_ruleset_intern(struct ss_smack_ruleset *rs, const char *s,
				size_t n)
{
	struct ss_smack_label *l;
	uint32_t slot;
	int64_t idx;

	if (n >= UINT32_MAX)
		return -1;
	/* keep the table at most half full */
	if ((uint64_t)(rs->nr_labels + 1) * 2 > rs->nr_label_slots &&
	    grow_label_slots(rs))
		return -1;
	idx = slot_of(rs, s, n, &slot);
	if (idx >= 0)
		return idx;
	if (rs->nr_labels == UINT32_MAX - 1)
		return -1;
	if (rs->nr_labels == rs->cap_labels) {
		uint32_t cap = rs->cap_labels ? rs->cap_labels * 2 : 64;
		void *p = realloc(rs->labels, (size_t)cap * sizeof(*rs->labels));

		if (!p)
			return -1;
		rs->labels = p;
		rs->cap_labels = cap;
	}
	l = &rs->labels[rs->nr_labels];
	l->name = malloc(n + 1);
	if (!l->name)
		return -1;
	memcpy(l->name, s, n);
	l->name[n] = '\0';
	l->len = (uint32_t)n;
	l->builtin = ss_smack_builtin_pos(s, n);
	rs->label_slots[slot] = rs->nr_labels + 1;
	return rs->nr_labels++;
}

int ss_smack_ruleset_add(struct ss_smack_ruleset *rs, uint32_t subject,
			 uint32_t object, uint32_t access, uint32_t line)
{
	if (rs->nr_rules == rs->cap_rules) {
		size_t cap = rs->cap_rules ? rs->cap_rules * 2 : 1024;
		void *p = realloc(rs->rules, cap * sizeof(*rs->rules));

		if (!p)
			return -1;
		rs->rules = p;
		rs->cap_rules = cap;
	}
	rs->rules[rs->nr_rules++] = (struct ss_smack_rule){
		.subject = subject, .object = object, .access = access, .line = line,
	};
	return 0;
}

uint32_t ss_smack_ruleset_new_labels(const struct ss_smack_ruleset *rs)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < rs->nr_labels; i++)
		n += !rs->labels[i].builtin;
	return n;
}

/* smk_perm_from_str() of later kernels; 3.10's parser took r w x a t. */
int ss_smack_access_parse(const char *s, uint32_t *out, char *bad)
{
	static const char letters[] = SS_SMACK_ACCESS_LETTERS;
	uint32_t bits = 0;

	if (!*s) {
		*bad = '\0';
		return -1;
	}
	for (; *s; s++) {
		const char *p;
		char c = *s;

		if (c == '-')
			continue;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		p = strchr(letters, c);
		if (!p || !c) {
			*bad = *s;
			return -1;
		}
		bits |= 1u << (p - letters);
	}
	*out = bits;
	return 0;
}

void ss_smack_access_str(uint32_t access, char *buf)
{
	static const char letters[] = SS_SMACK_ACCESS_LETTERS;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(letters) - 1; i++)
		if (access & (1u << i))
			buf[n++] = letters[i];
	if (!n)
		buf[n++] = '-';
	buf[n] = '\0';
}

size_t ss_smack_write_len(uint32_t subject_len, uint32_t object_len)
{
	return (size_t)subject_len + 1 + object_len + 1 + SMACK_ACCESSLEN;
}

int ss_smack_rules_write(const struct ss_smack_ruleset *rs, FILE *fp,
			 const char *const *header)
{
	char acc[8];

	for (; header && *header; header++)
		if (fprintf(fp, "# %s\n", *header) < 0)
			return -1;
	for (size_t i = 0; i < rs->nr_rules; i++) {
		const struct ss_smack_rule *r = &rs->rules[i];

		ss_smack_access_str(r->access, acc);
		if (fprintf(fp, "%s %s %s\n", rs->labels[r->subject].name,
			    rs->labels[r->object].name, acc) < 0)
			return -1;
	}
	return 0;
}

/* ---- pair map ---- */

void ss_smack_pairmap_init(struct ss_smack_pairmap *m)
{
	memset(m, 0, sizeof(*m));
}

void ss_smack_pairmap_release(struct ss_smack_pairmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t pair_slot(const struct ss_smack_pairmap *m, uint64_t key)
{
	size_t mask = m->nr_slots - 1;
	size_t i = (size_t)hash_u64(key) & mask;

	while (m->keys[i] && m->keys[i] != key + 1)
		i = (i + 1) & mask;
	return i;
}

static int pairmap_grow(struct ss_smack_pairmap *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : 1024;
	struct ss_smack_pairmap nm = { .nr_slots = n, .nr = m->nr };

	nm.keys = calloc(n, sizeof(*nm.keys));
	nm.vals = calloc(n, sizeof(*nm.vals));
	if (!nm.keys || !nm.vals) {
		ss_smack_pairmap_release(&nm);
		return -1;
	}
	for (size_t i = 0; i < m->nr_slots; i++) {
		size_t j;

		if (!m->keys[i])
			continue;
		j = pair_slot(&nm, m->keys[i] - 1);
		nm.keys[j] = m->keys[i];
		nm.vals[j] = m->vals[i];
	}
	ss_smack_pairmap_release(m);
	*m = nm;
	return 0;
}

int ss_smack_pairmap_put(struct ss_smack_pairmap *m, uint32_t s, uint32_t o,
			 uint32_t val)
{
	uint64_t key = (uint64_t)s << 32 | o;
	size_t i;

	if ((m->nr + 1) * 2 > m->nr_slots && pairmap_grow(m))
		return -1;
	i = pair_slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key + 1;
		m->nr++;
	}
	m->vals[i] = val;
	return 0;
}

int ss_smack_pairmap_get(const struct ss_smack_pairmap *m, uint32_t s,
			 uint32_t o, uint32_t *val)
{
	uint64_t key = (uint64_t)s << 32 | o;
	size_t i;

	if (!m->nr_slots)
		return 0;
	i = pair_slot(m, key);
	if (!m->keys[i])
		return 0;
	if (val)
		*val = m->vals[i];
	return 1;
}
