/* audit_profile.c - the seed's profiles and the costs derived from them
 * (audit_profile.h). */
#include "audit_profile.h"

#include <math.h>
#include <string.h>

#include "audit_consts.h"

/* shared/seeds/001_*: readprofile of the lspp.14 kernel, audit off (noaudit)
 * and on, as printed (functions below 245 / 274 samples are not listed). */
static const struct ss_audit_prof_fn profile[] = {
	{"context_struct_to_string", 0, 2659},
	{"vsnprintf", 0, 2341},
	{"__d_lookup", 1720, 1894},
	{"__link_path_walk", 1509, 1564},
	{"kfree", 0, 1501},
	{"audit_filter_syscall", 0, 1320},
	{"avc_has_perm_noaudit", 1443, 1286},
	{"_atomic_dec_and_lock", 548, 1047},
	{"dput", 382, 922},
	{"_raw_spin_lock", 261, 853},
	{"do_path_lookup", 530, 696},
	{"audit_syscall_exit", 0, 690},
	{"__kmalloc", 0, 634},
	{"mls_sid_to_context", 0, 624},
	{"strnlen", 0, 604},
	{"_raw_read_lock", 0, 567},
	{"link_path_walk", 494, 307},
	{"mls_compute_context_len", 0, 489},
	{"sidtab_search", 0, 468},
	{"selinux_inode_getsecurity", 0, 456},
	{"audit_getname", 0, 456},
	{"kmem_cache_free", 432, 322},
	{"strcmp", 0, 394},
	{"inode_has_perm", 383, 342},
	{"memcmp", 0, 375},
	{"strncpy_from_user", 315, 362},
	{"__audit_inode", 0, 358},
	{"kmem_cache_alloc", 269, 349},
	{"selinux_getsecurity", 0, 348},
	{"generic_permission", 320, 323},
	{"permission", 321, 283},
	{"audit_inode_context", 0, 320},
	{"spin_bug", 0, 280},
	{"sys_faccessat", 245, 274},
	{"system_call", 293, 0},
	{"do_lookup", 283, 0},
	{"memset", 263, 0},
};
#define NR_FNS (sizeof(profile) / sizeof(profile[0]))

/* reference/audit.md: the same test on the lspp.16 kernel. */
static const struct ss_audit_lspp16_point lspp16[] = {
	{0, 49}, {10, 56}, {25, 75}, {50, 115}, {75, 143}, {90, 185},
};
#define NR_LSPP16 (sizeof(lspp16) / sizeof(lspp16[0]))

static const char *const allocator_fns[] = {
	"kfree", "__kmalloc", "kmem_cache_alloc", "kmem_cache_free",
};

/* Which on-run function pays for which label, per event of the label:
 * share = num / den of the function's samples (minus its off samples when
 * minus_off: functions the path walk also calls).  den 2 = two
 * conversions per access(2); _raw_read_lock is split between the two
 * policy read locks and audit_getname's read_lock(&fs->lock). */
static const struct attribution {
	enum ss_audit_label label;
	const char *fn;
	bool minus_off;
	unsigned num, den;
} attributions[] = {
	{AUDIT_L_EXIT, "audit_syscall_exit", false, 1, 1},
	/* audit_syscall_exit's task_lock(); spin_bug is spinlock debugging */
	{AUDIT_L_TASK_LOCK, "_raw_spin_lock", true, 1, 1},
	{AUDIT_L_TASK_LOCK, "spin_bug", false, 1, 1},
	{AUDIT_L_NAME, "audit_getname", false, 1, 1},
	{AUDIT_L_NAME, "__audit_inode", false, 1, 1},
	/* audit_getname: dget(pwd) + mntget; audit_free_names: dput + mntput */
	{AUDIT_L_PWD_REF, "dput", true, 1, 1},
	{AUDIT_L_PWD_REF, "_atomic_dec_and_lock", true, 1, 1},
	{AUDIT_L_PWD_REF, "_raw_read_lock", false, 1, 3},
	{AUDIT_L_INODE_CTX, "audit_inode_context", false, 1, 1},
	{AUDIT_L_GETSECURITY, "selinux_inode_getsecurity", false, 1, 2},
	{AUDIT_L_GETSECURITY, "selinux_getsecurity", false, 1, 2},
	{AUDIT_L_GETSECURITY, "strcmp", false, 1, 2},
	{AUDIT_L_RDLOCK, "_raw_read_lock", false, 1, 3},
	{AUDIT_L_SIDTAB, "sidtab_search", false, 1, 2},
	{AUDIT_L_FORMAT, "context_struct_to_string", false, 1, 2},
	{AUDIT_L_FORMAT, "vsnprintf", false, 1, 2},
	{AUDIT_L_FORMAT, "strnlen", false, 1, 2},
	{AUDIT_L_MLS, "mls_sid_to_context", false, 1, 2},
	{AUDIT_L_MLS, "mls_compute_context_len", false, 1, 2},
};
#define NR_ATTR (sizeof(attributions) / sizeof(attributions[0]))

/* Events of each attributed label in one seed syscall (access(2)). */
static unsigned seed_events(enum ss_audit_label l)
{
	switch (l) {
	case AUDIT_L_GETSECURITY: case AUDIT_L_RDLOCK: case AUDIT_L_SIDTAB:
	case AUDIT_L_FORMAT: case AUDIT_L_MLS:
		return 2;
	default:
		return 1;
	}
}

const struct ss_audit_prof_fn *ss_audit_profile(size_t *n)
{
	*n = NR_FNS;
	return profile;
}

const struct ss_audit_lspp16_point *ss_audit_lspp16(size_t *n)
{
	*n = NR_LSPP16;
	return lspp16;
}

static const struct ss_audit_prof_fn *find_fn(const char *name)
{
	for (size_t i = 0; i < NR_FNS; i++)
		if (!strcmp(profile[i].name, name))
			return &profile[i];
	return NULL;
}

double ss_audit_off_sample_s(void)
{
	return AUDIT_SEED_OFF_SYS_US / 1e6 / AUDIT_SEED_OFF_SAMPLES;
}

double ss_audit_on_sample_s(void)
{
	return AUDIT_SEED_ON_SYS_US / 1e6 / AUDIT_SEED_ON_SAMPLES;
}

static unsigned off_allocator_samples(void)
{
	unsigned s = 0;

	for (size_t i = 0; i < sizeof(allocator_fns) / sizeof(allocator_fns[0]); i++)
		s += find_fn(allocator_fns[i])->off;
	return s;
}

double ss_audit_label_samples(enum ss_audit_label l)
{
	double s = 0;

	if (l == AUDIT_L_BASE)
		return AUDIT_SEED_OFF_SAMPLES - off_allocator_samples();
	for (size_t i = 0; i < NR_ATTR; i++) {
		const struct attribution *a = &attributions[i];
		const struct ss_audit_prof_fn *f = find_fn(a->fn);

		if (a->label != l)
			continue;
		s += ((double)f->on - (a->minus_off ? f->off : 0)) * a->num / a->den;
	}
	return s;
}

bool ss_audit_label_scaled(enum ss_audit_label l)
{
	return l != AUDIT_L_BASE && ss_audit_label_samples(l) > 0;
}

double ss_audit_implied_seed_syscalls(void)
{
	double s = find_fn("vsnprintf")->on + find_fn("strnlen")->on;

	return s * ss_audit_on_sample_s() / (2 * AUDIT_VSNPRINTF_NS * 1e-9);
}

double ss_audit_lspp16_seconds_per_rule(void)
{
	double sxy = 0, sxx = 0;

	for (size_t i = 0; i < NR_LSPP16; i++) {
		double x = lspp16[i].rules;

		sxy += x * ((double)lspp16[i].seconds - lspp16[0].seconds);
		sxx += x * x;
	}
	return sxy / sxx;
}

unsigned ss_audit_implied_rules(void)
{
	double s = find_fn("audit_filter_syscall")->on * ss_audit_on_sample_s();

	return (unsigned)lround(s / ss_audit_lspp16_seconds_per_rule());
}

static bool is_allocator(const char *name)
{
	for (size_t i = 0; i < sizeof(allocator_fns) / sizeof(allocator_fns[0]); i++)
		if (!strcmp(allocator_fns[i], name))
			return true;
	return false;
}

void ss_audit_profile_hit_split(double out[AUDIT_NR_CATEGORIES + 1])
{
	double claimed = 0;

	memset(out, 0, sizeof(double) * (AUDIT_NR_CATEGORIES + 1));
	for (int l = 0; l < AUDIT_NR_LABELS; l++) {
		if (l == AUDIT_L_BASE)
			continue;
		out[ss_audit_label_category(l)] += ss_audit_label_samples(l) * seed_events(l);
	}
	out[AUDIT_CAT_RULES] += find_fn("audit_filter_syscall")->on;
	for (size_t i = 0; i < NR_FNS; i++)
		if (is_allocator(profile[i].name))
			out[AUDIT_CAT_ALLOCATOR] += (double)profile[i].on - profile[i].off;
	for (int c = 0; c < AUDIT_NR_CATEGORIES; c++)
		claimed += out[c];
	out[AUDIT_PROFILE_UNATTRIBUTED] =
		(double)AUDIT_SEED_ON_SAMPLES - AUDIT_SEED_OFF_SAMPLES - claimed;
}

double ss_audit_samples_to_cycles(double samples, double sample_s)
{
	return samples * sample_s * AUDIT_CLOCK_MHZ * 1e6 / AUDIT_SEED_SYSCALLS;
}

static uint64_t cyc(double c)
{
	return c <= 0 ? 0 : (uint64_t)llround(c);
}

void ss_audit_costs_derive(struct ss_audit_costs *c, unsigned scale_permille)
{
	double scale = scale_permille / 1000.0;

	memset(c, 0, sizeof(*c));
	c->scale_permille = scale_permille;
	for (int l = 0; l < AUDIT_NR_LABELS; l++)
		if (ss_audit_label_scaled(l))
			c->cycles[l] = cyc(ss_audit_samples_to_cycles(ss_audit_label_samples(l),
								   ss_audit_on_sample_s()) * scale);
	c->cycles[AUDIT_L_BASE] = cyc(ss_audit_samples_to_cycles(
		ss_audit_label_samples(AUDIT_L_BASE), ss_audit_off_sample_s()));
	/* the loop's user time (not profiled), per iteration */
	c->cycles[AUDIT_L_USER] = cyc(AUDIT_SEED_OFF_USER_US * (double)AUDIT_CLOCK_MHZ /
				      AUDIT_SEED_SYSCALLS);
	c->rule_cycles = cyc(ss_audit_lspp16_seconds_per_rule() * 1e6 * AUDIT_CLOCK_MHZ /
			     AUDIT_SEED_SYSCALLS);
	c->cycles[AUDIT_L_SID_COPY] = AUDIT_SID_COPY_CYCLES;
	c->cycles[AUDIT_L_CACHE_LRU] = AUDIT_STR_CACHE_LRU_CYCLES;
	c->cycles[AUDIT_L_BOUNCE] = AUDIT_LINE_BOUNCE_CYCLES;
	c->cycles[AUDIT_L_KAUDITD] = AUDIT_KAUDITD_SKB_CYCLES;
}
