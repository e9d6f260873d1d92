/* smack_gen.c - deterministic Tizen-style rule sets (see smack_gen.h). */
#include "smack_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smack_label.h"

/* ---- PRNG ---- */

void ss_smack_rng_seed(struct ss_smack_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t ss_smack_rng_next(struct ss_smack_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t ss_smack_rng_below(struct ss_smack_rng *r, uint64_t n)
{
	/* reject the top sliver that would make x % n uneven */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = ss_smack_rng_next(r);
	while (x >= limit);
	return x % n;
}

/* ---- label vocabulary (Tizen 2.x/3.x platform and package names) ---- */

/* Platform labels, most popular first. */
static const char *const platform_labels[] = {
	"System", "User", "System::Shared", "System::Run", "System::Log",
	"System::Privileged", "User::Home", "User::App::Shared", "System::Tools",
	"User::Shell", "xorg", "dbus", "pulseaudio", "enlightenment", "sdbd",
	"deviced", "connman", "sys-assert::core", "device::app_logging",
	"device::sys_logging", "tizen::vconf::public::r",
	"tizen::vconf::setting::admin", "ail::db", "pkgmgr::db",
	"sound_server", "telephony_framework", "bluetooth-frwk",
	"contacts-service::db", "msg-service::db", "obexd", "sensord",
	"download-provider", "email-service", "location_fw", "media-server",
	"alarm-server", "notification::db", "badge::db", "security-server",
	"app-svc::db", "aul::terminate", "privacy-manager::db",
	"data-provider-master", "system::vconf", "system::homedir",
	"system::media", "system::share", "system::ext_storage", "cbhm",
	"isf-panel",
};

static const char *const prefixes[] = {
	"org.tizen.", "org.tizen.", "org.tizen.", "com.samsung.",
	"com.samsung.", "com.samsung.", "org.example.", "net.tizen.",
	"com.tizenstore.", "kr.co.",
};

static const char *const words[] = {
	"browser", "message", "consumer", "setting", "camera", "gallery",
	"music", "player", "video", "contacts", "phone", "calendar", "email",
	"clock", "calculator", "memo", "homescreen", "lockscreen", "keyboard",
	"indicator", "quickpanel", "taskmgr", "download", "manager", "service",
	"provider", "widget", "store", "account", "sync", "location", "weather",
	"news", "radio", "voice", "recorder", "notification", "share", "panel",
	"viewer", "editor", "wallpaper", "theme", "backup", "update", "push",
	"dialer", "call", "log", "media", "server", "client", "agent", "daemon",
	"bluetooth", "wifi", "nfc", "usb", "battery", "power", "sensor",
	"health", "fitness", "maps", "navi", "search", "social", "chat", "game",
	"files", "cloud", "print", "scanner", "ime", "font", "accessibility",
	"tts", "stt", "drm", "installer",
};

static const char *const suffixes[] = {
	"::home", "::data", "::shared", "::db", "::resources",
	"::default-resources", "::vconf", "::cache", "::widget", "::ipc",
	"::cert",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(r, a) ((a)[ss_smack_rng_below((r), NELEM(a))])

/* One package label candidate into buf; its length. */
static size_t package_label(struct ss_smack_rng *r, char *buf, size_t n)
{
	int len;

	if (ss_smack_rng_below(r, 10) < 3)
		len = snprintf(buf, n, "%s%s-%s", PICK(r, prefixes),
			       PICK(r, words), PICK(r, words));
	else
		len = snprintf(buf, n, "%s%s", PICK(r, prefixes), PICK(r, words));
	if (len > 0 && (size_t)len < n && ss_smack_rng_below(r, 100) < 35)
		len += snprintf(buf + len, n - (size_t)len, "%s", PICK(r, suffixes));
	return len < 0 ? 0 : (size_t)len;
}

static int label_ok(const struct ss_smack_ruleset *rs, const char *s,
		    size_t n)
{
	char why[128];

	return n >= SS_SMACK_LABEL_MIN && n <= SS_SMACK_LABEL_MAX &&
	       !ss_smack_label_check(s, n, why, sizeof(why)) &&
	       !ss_smack_builtin_pos(s, n) && ss_smack_ruleset_find(rs, s, n) < 0;
}

/* Label i: a platform label while they last, then a package label.  After
 * 16 collisions the name gets "-<i>" (no vocabulary word has a digit, so
 * that is unique). */
static int make_label(struct ss_smack_rng *r, struct ss_smack_ruleset *rs,
		      uint32_t i)
{
	char buf[128];
	size_t n = 0;

	if (i < NELEM(platform_labels)) {
		n = strlen(platform_labels[i]);
		memcpy(buf, platform_labels[i], n + 1);
	} else {
		int tries;

		for (tries = 0; tries < 16; tries++) {
			n = package_label(r, buf, sizeof(buf));
			if (label_ok(rs, buf, n))
				break;
		}
		if (tries == 16) {
			int len = snprintf(buf, sizeof(buf), "%s%s-%u",
					   PICK(r, prefixes), PICK(r, words), i);

			n = len < 0 ? 0 : (size_t)len;
		}
	}
	if (!label_ok(rs, buf, n))
		return -1; /* a vocabulary bug, caught by the tests */
	return ss_smack_ruleset_intern(rs, buf, n) == (int64_t)i ? 0 : -1;
}

/* ---- access strings ---- */

/* Common Tizen access sets (r=1 w=2 x=4 a=8 t=16) and their weights. */
static const struct {
	uint8_t bits, weight;
} access_table[] = {
	{0x00, 2},  /* "-" */
	{0x01, 14}, /* r */
	{0x03, 8},  /* rw */
	{0x05, 16}, /* rx */
	{0x07, 24}, /* rwx */
	{0x0f, 6},  /* rwxa */
	{0x1f, 12}, /* rwxat */
	{0x04, 4},  /* x */
	{0x02, 4},  /* w */
	{0x06, 2},  /* wx */
	{0x0b, 2},  /* rwa */
	{0x17, 1},  /* rwxt */
};

static uint32_t pick_access(struct ss_smack_rng *r)
{
	unsigned total = 0, x;

	/* one rule in 20: any non-empty subset of rwxat */
	if (ss_smack_rng_below(r, 20) == 0)
		return 1 + (uint32_t)ss_smack_rng_below(r, 31);
	for (size_t i = 0; i < NELEM(access_table); i++)
		total += access_table[i].weight;
	x = (unsigned)ss_smack_rng_below(r, total);
	for (size_t i = 0; i < NELEM(access_table); i++) {
		if (x < access_table[i].weight)
			return access_table[i].bits;
		x -= access_table[i].weight;
	}
	return 0x07;
}

/* ---- rules ---- */

struct gen {
	struct ss_smack_rng rng;
	uint32_t nr_labels, nr_rules, nr;
	uint64_t *cum;		/* cumulative popularity weights */
	uint32_t *subj, *obj, *acc;
	struct ss_smack_pairmap taken;
	uint64_t scan;		/* next pair the exhaustive scan looks at */
};

/* Zipf-like: weight of rank i is 2^30 / (i + 2). */
static int make_weights(struct gen *g)
{
	uint64_t sum = 0;

	g->cum = malloc((size_t)g->nr_labels * sizeof(*g->cum));
	if (!g->cum)
		return -1;
	for (uint32_t i = 0; i < g->nr_labels; i++) {
		sum += (1ull << 30) / ((uint64_t)i + 2);
		g->cum[i] = sum;
	}
	return 0;
}

static uint32_t draw_label(struct gen *g)
{
	uint64_t x = ss_smack_rng_below(&g->rng, g->cum[g->nr_labels - 1]);
	uint32_t lo = 0, hi = g->nr_labels - 1;

	while (lo < hi) { /* first i with cum[i] > x */
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->cum[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int take(struct gen *g, uint32_t s, uint32_t o)
{
	if (ss_smack_pairmap_put(&g->taken, s, o, g->nr))
		return -1;
	g->subj[g->nr] = s;
	g->obj[g->nr] = o;
	g->acc[g->nr] = pick_access(&g->rng);
	g->nr++;
	return 0;
}

static int free_pair(const struct gen *g, uint32_t s, uint32_t o)
{
	return s != o && !ss_smack_pairmap_get(&g->taken, s, o, NULL);
}

/* Phase 1: every label in at least one rule.  Invariant: the rules left
 * can still cover the unused labels, ceil(unused / 2), pairing two unused
 * labels when there is no slack for a popular partner. */
static int cover_labels(struct gen *g)
{
	uint8_t *used = calloc(g->nr_labels, 1);
	uint32_t unused = g->nr_labels, next = 0;
	int rc = 0;

	if (!used)
		return -1;
	for (uint32_t i = 0; i < g->nr_labels && !rc; i++) {
		uint32_t p;

		if (used[i])
			continue;
		if (g->nr_rules - g->nr - 1 >= unused / 2) {
			/* ceil((unused - 1) / 2) == unused / 2 */
			do
				p = draw_label(g);
			while (p == i);
		} else {
			if (next <= i)
				next = i + 1;
			while (used[next])
				next++;
			p = next;
		}
		/* i is unused, so no rule names it yet: either way is free */
		if (ss_smack_rng_below(&g->rng, 2))
			rc = take(g, i, p);
		else
			rc = take(g, p, i);
		unused -= 1 + !used[p];
		used[i] = used[p] = 1;
	}
	free(used);
	return rc;
}

/* The first free pair from the scan cursor on (there is one: nr_rules <=
 * labels * (labels - 1) was checked). */
static void scan_pair(struct gen *g, uint32_t *s, uint32_t *o)
{
	uint64_t m = g->nr_labels;

	for (;; g->scan++) {
		*s = (uint32_t)(g->scan / m % m);
		*o = (uint32_t)(g->scan % m);
		if (free_pair(g, *s, *o))
			return;
	}
}

/* Phase 2: popular pairs until nr_rules; after 64 misses in a row, scan. */
static int fill_rules(struct gen *g)
{
	while (g->nr < g->nr_rules) {
		uint32_t s = 0, o = 0;
		int tries;

		for (tries = 0; tries < 64; tries++) {
			s = draw_label(g);
			o = draw_label(g);
			if (free_pair(g, s, o))
				break;
		}
		if (tries == 64)
			scan_pair(g, &s, &o);
		if (take(g, s, o))
			return -1;
	}
	return 0;
}

/* Emit grouped by subject, subjects in a shuffled order, each group in
 * generation order: one accesses.d file per package. */
static int emit_grouped(struct gen *g, struct ss_smack_ruleset *rs)
{
	uint32_t n = g->nr_labels;
	uint32_t *perm = malloc((size_t)n * sizeof(*perm));
	uint64_t *start = calloc((size_t)n + 1, sizeof(*start));
	uint32_t *order = malloc((size_t)g->nr * sizeof(*order));
	int rc = -1;

	if (!perm || !start || !order)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
		uint32_t j = (uint32_t)ss_smack_rng_below(&g->rng, (uint64_t)i + 1);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	/* start[label] = first slot of its group, groups in perm order */
	for (uint32_t r = 0; r < g->nr; r++)
		start[g->subj[r]]++;
	{
		uint64_t at = 0;

		for (uint32_t k = 0; k < n; k++) {
			uint64_t cnt = start[perm[k]];

			start[perm[k]] = at;
			at += cnt;
		}
	}
	for (uint32_t r = 0; r < g->nr; r++)
		order[start[g->subj[r]]++] = r;
	for (uint32_t k = 0; k < g->nr; k++) {
		uint32_t r = order[k];

		if (ss_smack_ruleset_add(rs, g->subj[r], g->obj[r], g->acc[r], 0))
			goto out;
	}
	rc = 0;
out:
	free(perm);
	free(start);
	free(order);
	return rc;
}

int ss_smack_gen_check(const struct ss_smack_gen_params *p,
		       struct ss_error *err)
{
	uint64_t m = p->nr_labels;

	if (m < 2 || m > SS_SMACK_GEN_MAX_LABELS)
		return ss_errorf(err, "--labels %u: want 2..%u", p->nr_labels,
				 SS_SMACK_GEN_MAX_LABELS);
	if (p->nr_rules > SS_SMACK_GEN_MAX_RULES)
		return ss_errorf(err, "--rules %u: want at most %u", p->nr_rules,
				 SS_SMACK_GEN_MAX_RULES);
	if (p->nr_rules < (m + 1) / 2)
		return ss_errorf(err,
				 "--rules %u is too few to use all %u labels (need at least %llu)",
				 p->nr_rules, p->nr_labels,
				 (unsigned long long)((m + 1) / 2));
	if (p->nr_rules > m * (m - 1))
		return ss_errorf(err,
				 "--rules %u is more than the %llu distinct (subject, object) pairs of %u labels",
				 p->nr_rules, (unsigned long long)(m * (m - 1)),
				 p->nr_labels);
	return 0;
}

int ss_smack_generate(const struct ss_smack_gen_params *p,
		      struct ss_smack_ruleset *rs, struct ss_error *err)
{
	struct gen g = { .nr_labels = p->nr_labels, .nr_rules = p->nr_rules };
	int rc = -1;

	if (ss_smack_gen_check(p, err))
		return -1;
	ss_smack_rng_seed(&g.rng, p->seed);
	ss_smack_pairmap_init(&g.taken);
	g.subj = malloc((size_t)g.nr_rules * sizeof(*g.subj));
	g.obj = malloc((size_t)g.nr_rules * sizeof(*g.obj));
	g.acc = malloc((size_t)g.nr_rules * sizeof(*g.acc));
	if (!g.subj || !g.obj || !g.acc || make_weights(&g))
		goto out;
	for (uint32_t i = 0; i < g.nr_labels; i++)
		if (make_label(&g.rng, rs, i))
			goto out;
	if (cover_labels(&g) || fill_rules(&g) || emit_grouped(&g, rs))
		goto out;
	rc = 0;
out:
	if (rc)
		ss_errorf(err, "rule generation failed: out of memory");
	free(g.cum);
	free(g.subj);
	free(g.obj);
	free(g.acc);
	ss_smack_pairmap_release(&g.taken);
	return rc;
}
