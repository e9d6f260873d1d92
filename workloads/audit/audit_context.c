/* audit_context.c - contexts and the 2.6.16 MLS arithmetic
 * (audit_context.h). */
#include "audit_context.h"

#include <stdio.h>
#include <string.h>

/* ---- parsing ---- */

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
}

/* "PREFIX<digits>" without sign or leading zero, value <= max. */
static int parse_index(const char *s, size_t n, char prefix, unsigned max,
		       unsigned *out)
{
	unsigned v = 0;

	if (n < 2 || s[0] != prefix || (s[1] == '0' && n > 2))
		return -1;
	for (size_t i = 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > max)
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static void set_cat(struct ss_audit_level *lv, unsigned cat)
{
	lv->cats[cat / 64] |= 1ull << (cat % 64);
}

/* "cN" or "cN.cM" (N < M, as mls_context_to_sid() requires). */
static int parse_cat_item(const char *ctx, const char *s, size_t n,
			  struct ss_audit_level *lv, struct ss_error *err)
{
	const char *dot = memchr(s, '.', n);
	unsigned a, b;

	if (!dot) {
		if (parse_index(s, n, 'c', AUDIT_MAX_CAT, &a))
			goto bad;
		set_cat(lv, a);
		return 0;
	}
	if (parse_index(s, (size_t)(dot - s), 'c', AUDIT_MAX_CAT, &a) ||
	    parse_index(dot + 1, n - (size_t)(dot - s) - 1, 'c', AUDIT_MAX_CAT, &b))
		goto bad;
	if (a >= b)
		return ss_errorf(err, "context '%s': category range '%.*s' does not go up",
				 ctx, (int)n, s);
	for (unsigned c = a; c <= b; c++)
		set_cat(lv, c);
	return 0;
bad:
	return ss_errorf(err, "context '%s': '%.*s' is not a category c0..c%u or a range cN.cM",
			 ctx, (int)n, s, AUDIT_MAX_CAT);
}

/* "sN" or "sN:cats". */
static int parse_level(const char *ctx, const char *s, size_t n,
		       struct ss_audit_level *lv, struct ss_error *err)
{
	const char *colon = memchr(s, ':', n);
	size_t sn = colon ? (size_t)(colon - s) : n;

	memset(lv, 0, sizeof(*lv));
	if (parse_index(s, sn, 's', AUDIT_MAX_SENS, &lv->sens))
		return ss_errorf(err, "context '%s': '%.*s' is not a sensitivity s0..s%u",
				 ctx, (int)sn, s, AUDIT_MAX_SENS);
	if (!colon)
		return 0;
	for (const char *p = colon + 1, *end = s + n; ; ) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t in = comma ? (size_t)(comma - p) : (size_t)(end - p);

		if (parse_cat_item(ctx, p, in, lv, err))
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static bool level_eq(const struct ss_audit_level *a, const struct ss_audit_level *b)
{
	return a->sens == b->sens && !memcmp(a->cats, b->cats, sizeof(a->cats));
}

/* mls_level_dom(high, low): high.sens >= low.sens, low's cats in high's. */
static bool level_dom(const struct ss_audit_level *h, const struct ss_audit_level *l)
{
	if (h->sens < l->sens)
		return false;
	for (unsigned i = 0; i < AUDIT_CAT_WORDS; i++)
		if (l->cats[i] & ~h->cats[i])
			return false;
	return true;
}

static int parse_range(const char *ctx, const char *s, struct ss_audit_context *c,
		       struct ss_error *err)
{
	const char *dash = strchr(s, '-');
	size_t n = strlen(s);

	if (dash && strchr(dash + 1, '-'))
		return ss_errorf(err, "context '%s': a range has one '-'", ctx);
	if (parse_level(ctx, s, dash ? (size_t)(dash - s) : n, &c->low, err))
		return -1;
	if (!dash) {
		c->high = c->low;
		return 0;
	}
	if (parse_level(ctx, dash + 1, n - (size_t)(dash - s) - 1, &c->high, err))
		return -1;
	if (!level_dom(&c->high, &c->low))
		return ss_errorf(err, "context '%s': the high level does not dominate the low one",
				 ctx);
	return 0;
}

/* user, role or type: 1..255 of [A-Za-z0-9_.-] up to the next ':'. */
static const char *parse_name(const char *ctx, const char *s, char *out,
			      const char *what, bool last, struct ss_error *err)
{
	size_t n = 0;

	while (s[n] && s[n] != ':' && name_char(s[n]) && n <= AUDIT_NAME_MAX)
		n++;
	if (!n || n > AUDIT_NAME_MAX || (s[n] && s[n] != ':') || (!last && !s[n])) {
		ss_errorf(err, "context '%s': want user:role:type[:range], bad %s", ctx, what);
		return NULL;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	return s + n;
}

int ss_audit_context_parse(const char *s, struct ss_audit_context *c,
			struct ss_error *err)
{
	const char *p;

	memset(c, 0, sizeof(*c));
	if (!(p = parse_name(s, s, c->user, "user", false, err)) ||
	    !(p = parse_name(s, p + 1, c->role, "role", false, err)) ||
	    !(p = parse_name(s, p + 1, c->type, "type", true, err)))
		return -1;
	if (!*p)
		return 0;
	c->mls = true;
	return parse_range(s, p + 1, c, err);
}

/* ---- the kernel's walk ---- */

struct walk {
	char *out;	/* NULL: length only (mls_compute_context_len) */
	unsigned len;
	unsigned bits;
};

static void put(struct walk *w, const char *s)
{
	size_t n = strlen(s);

	if (w->out)
		memcpy(w->out + w->len, s, n);
	w->len += (unsigned)n;
}

static void put_cat(struct walk *w, char sep, unsigned cat)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%cc%u", sep, cat);
	put(w, buf);
}

/* One level as mls_sid_to_context() writes it (mls_compute_context_len()
 * counts the same bytes): sensitivity, then ebitmap_for_each_bit over the
 * present nodes with its run logic; i ends at highbit. */
static void walk_level(struct walk *w, const struct ss_audit_level *lv)
{
	unsigned range = 0, i = 0;
	bool wrote_sep = false;
	char sens[16];

	snprintf(sens, sizeof(sens), "s%u", lv->sens);
	put(w, sens);
	for (unsigned n = 0; n < AUDIT_CAT_WORDS; n++) {
		if (!lv->cats[n])
			continue; /* no ebitmap node: skipped, run kept open */
		for (unsigned b = 0; b < AUDIT_EBITMAP_NODE_BITS; b++) {
			i = n * AUDIT_EBITMAP_NODE_BITS + b;
			w->bits++;
			if (lv->cats[n] >> b & 1) {
				if (range++)
					continue;
				put_cat(w, wrote_sep ? ',' : ':', i);
				wrote_sep = true;
			} else {
				if (range > 1)
					put_cat(w, range > 2 ? '.' : ',', i - 1);
				range = 0;
			}
		}
		i = (n + 1) * AUDIT_EBITMAP_NODE_BITS;
	}
	if (range > 1) /* the last category ends a run */
		put_cat(w, range > 2 ? '.' : ',', i - 1);
}

static void walk_range(struct walk *w, const struct ss_audit_context *c)
{
	if (!c->mls)
		return;
	put(w, ":");
	walk_level(w, &c->low);
	if (level_eq(&c->low, &c->high))
		return;
	put(w, "-");
	walk_level(w, &c->high);
}

unsigned ss_audit_mls_len(const struct ss_audit_context *c)
{
	struct walk w = {0};

	walk_range(&w, c);
	return w.len;
}

unsigned ss_audit_mls_walk_bits(const struct ss_audit_context *c)
{
	struct walk w = {0};

	walk_range(&w, c);
	return w.bits;
}

unsigned ss_audit_context_len(const struct ss_audit_context *c)
{
	return (unsigned)(strlen(c->user) + 1 + strlen(c->role) + 1 +
			  strlen(c->type) + 1) + ss_audit_mls_len(c);
}

void ss_audit_context_string(const struct ss_audit_context *c, char *buf)
{
	struct walk w;
	int n = sprintf(buf, "%s:%s:%s", c->user, c->role, c->type);

	w = (struct walk){.out = buf + n};
	walk_range(&w, c);
	buf[n + (int)w.len] = '\0';
}
