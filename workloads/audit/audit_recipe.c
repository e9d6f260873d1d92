/* audit_recipe.c - one loop iteration's events under each variant
 * (audit_recipe.h has the recipe; docs/workloads/audit.md the sources). */
#include "audit_recipe.h"

#include <stdlib.h>
#include <string.h>

#include "audit_consts.h"
#include "geometry.h"

struct audit_cpu {
	uint64_t work;		/* work cycles written on this CPU */
	uint64_t last_tick;	/* work at the last RCU grace period */
	uint64_t *rcu;		/* filps waiting for call_rcu's callback */
	size_t nrcu, cap;
};

static const char *const variant_names[AUDIT_NR_VARIANTS] = {
	[AUDIT_OFF] = "off", [AUDIT_ON_2616] = "on-2.6.16",
	[AUDIT_ON_SID] = "on-sid", [AUDIT_ON_CACHED] = "on-cached",
	[AUDIT_ON_CTXCACHE] = "on-ctxcache",
};
static const char *const kind_names[AUDIT_NR_KINDS] = {
	[AUDIT_STAT] = "stat", [AUDIT_ACCESS] = "access", [AUDIT_OPEN] = "open",
};

const char *ss_audit_variant_name(enum ss_audit_variant v)
{
	return variant_names[v];
}

int ss_audit_variant_parse(const char *s, enum ss_audit_variant *out)
{
	for (int v = 0; v < AUDIT_NR_VARIANTS; v++)
		if (!strcmp(s, variant_names[v])) {
			*out = v;
			return 0;
		}
	return -1;
}

const char *ss_audit_kind_name(enum ss_audit_kind k)
{
	return kind_names[k];
}

int ss_audit_kind_parse(const char *s, enum ss_audit_kind *out)
{
	for (int k = 0; k < AUDIT_NR_KINDS; k++)
		if (!strcmp(s, kind_names[k])) {
			*out = k;
			return 0;
		}
	return -1;
}

/* ---- event helpers ---- */

/* names the trace and the errno (ss_trace_writer_failed) */
#define WRITE_FAILED(e, err) ss_trace_writer_failed((e)->w, err)

static int work(struct ss_audit_emitter *e, unsigned c, enum ss_audit_label l,
		uint64_t cycles, struct ss_error *err)
{
	if (!cycles)
		return 0;
	if (ss_trace_write_work(e->w, c, cycles, ss_audit_label_name(l)))
		return WRITE_FAILED(e, err);
	e->cpu[c].work += cycles;
	return 0;
}

static int fixed(struct ss_audit_emitter *e, unsigned c, enum ss_audit_label l,
		 struct ss_error *err)
{
	return work(e, c, l, e->costs.cycles[l], err);
}

static int alloc(struct ss_audit_emitter *e, unsigned c, const char *site,
		 uint32_t api, uint64_t size, uint64_t *id, struct ss_error *err)
{
	*id = ss_idpool_get(&e->ids);
	if (ss_trace_write_alloc(e->w, c, *id, site, api, size))
		return WRITE_FAILED(e, err);
	return 0;
}

static int release(struct ss_audit_emitter *e, unsigned c, uint64_t id,
		   struct ss_error *err)
{
	if (ss_trace_write_free(e->w, c, id))
		return WRITE_FAILED(e, err);
	ss_idpool_put(&e->ids, id);
	return 0;
}

/* A line another CPU wrote last: x (cpus - 1) / cpus of a transfer. */
static int bounce(struct ss_audit_emitter *e, unsigned c, struct ss_error *err)
{
	unsigned n = e->p->cpus;

	return work(e, c, AUDIT_L_BOUNCE,
		    (e->costs.cycles[AUDIT_L_BOUNCE] * (n - 1) + n / 2) / n, err);
}

static bool audit_on(const struct ss_audit_emitter *e)
{
	return e->p->variant != AUDIT_OFF;
}

/* The api every context-string kmalloc() goes to. */
static uint32_t ctx_api(const struct ss_audit_emitter *e)
{
	return e->p->variant == AUDIT_ON_CTXCACHE ? e->api_ctx : SS_API_KMALLOC;
}

/* ---- conversions ---- */

/* context_struct_to_string(): kmalloc(L), sprintf, mls_sid_to_context;
 * mls_compute_context_len() and the write walk the bits twice. */
static int format(struct ss_audit_emitter *e, unsigned c,
		  const struct ss_audit_context *x, uint64_t *id,
		  struct ss_error *err)
{
	uint64_t bits = 2ull * ss_audit_mls_walk_bits(x) * e->p->est.mls_bit;

	if (alloc(e, c, "context_struct_to_string", ctx_api(e),
		  ss_audit_context_len(x), id, err) ||
	    fixed(e, c, AUDIT_L_FORMAT, err))
		return -1;
	if (!x->mls)
		return 0;
	return fixed(e, c, AUDIT_L_MLS, err) ||
	       work(e, c, AUDIT_L_MLS_BITS, bits, err);
}

/* The lock and lookup every security_sid_to_context() starts with. */
static int lookup_sid(struct ss_audit_emitter *e, unsigned c, bool wrapped,
		      struct ss_error *err)
{
	if (wrapped && fixed(e, c, AUDIT_L_GETSECURITY, err))
		return -1;
	if (fixed(e, c, AUDIT_L_RDLOCK, err) || bounce(e, c, err))
		return -1;
	return fixed(e, c, AUDIT_L_SIDTAB, err);
}

/* 2.6.16 security_sid_to_context(); the caller (selinux_getsecurity,
 * audit_log_exit) frees the string once copied or printed.  wrapped =
 * called through selinux_inode_getsecurity / selinux_getsecurity. */
static int convert(struct ss_audit_emitter *e, unsigned c,
		   const struct ss_audit_context *x, bool wrapped,
		   struct ss_error *err)
{
	uint64_t id;

	if (lookup_sid(e, c, wrapped, err) || format(e, c, x, &id, err))
		return -1;
	return release(e, c, id, err);
}

/* 5.6 security_sid_to_context_core() with the sidtab string cache
 * (sidtab_sid2str_get / sidtab_sid2str_put, commit d97bd23c2d7d).  slot
 * names the SID (a file context or the task). */
static int convert_cached(struct ss_audit_emitter *e, unsigned c,
			  const struct ss_audit_context *x, unsigned slot,
			  bool wrapped, struct ss_error *err)
{
	unsigned len = ss_audit_context_len(x);
	uint64_t id, entry;

	if (lookup_sid(e, c, wrapped, err))
		return -1;
	if (!e->sid_cached[slot]) {
		e->sid_cached[slot] = true;
		return format(e, c, x, &id, err) ||
		       alloc(e, c, "sidtab_sid2str_put", SS_API_KMALLOC,
			     AUDIT_SIDTAB_STR_CACHE_HDR + len, &entry, err) ||
		       release(e, c, id, err);
	}
	return alloc(e, c, "sidtab_sid2str_get", ctx_api(e), len, &id, err) ||
	       work(e, c, AUDIT_L_STR_COPY,
		    e->p->est.copy_start + len / e->p->est.copy_bytes_per_cycle, err) ||
	       fixed(e, c, AUDIT_L_CACHE_LRU, err) || bounce(e, c, err) ||
	       release(e, c, id, err);
}

static bool cached_variant(const struct ss_audit_emitter *e)
{
	return e->p->variant == AUDIT_ON_CACHED;
}

static int convert_any(struct ss_audit_emitter *e, unsigned c,
		       const struct ss_audit_context *x, unsigned slot,
		       bool wrapped, struct ss_error *err)
{
	if (cached_variant(e))
		return convert_cached(e, c, x, slot, wrapped, err);
	return convert(e, c, x, wrapped, err);
}

/* audit_inode_context() (2.6.16): security_inode_getsecurity() for the
 * length, kmalloc(len), again to fill it; the copy stays in the
 * audit_names slot until audit_free_names().  The 2.6.17 fix stores the
 * SID instead (selinux_get_inode_sid). */
static int lookup(struct ss_audit_emitter *e, unsigned c, unsigned f,
		  uint64_t *kept, struct ss_error *err)
{
	unsigned slot = f % e->p->nctx;
	const struct ss_audit_context *x = &e->p->ctx[slot];

	*kept = UINT64_MAX;
	switch (e->p->variant) {
	case AUDIT_OFF:
		return 0;
	case AUDIT_ON_SID:
		return fixed(e, c, AUDIT_L_SID_COPY, err);
	default:
		return fixed(e, c, AUDIT_L_INODE_CTX, err) ||
		       convert_any(e, c, x, slot, true, err) ||
		       alloc(e, c, "audit_inode_context", ctx_api(e),
			     ss_audit_context_len(x), kept, err) ||
		       convert_any(e, c, x, slot, true, err);
	}
}

/* ---- records and kauditd ---- */

static int queue_skb(struct ss_audit_emitter *e, uint64_t skb, uint64_t data,
		     unsigned c, struct ss_error *err)
{
	if (e->nskbs + 3 > e->cap_skbs) {
		size_t cap = e->cap_skbs ? e->cap_skbs * 2 : 3 * 2 * AUDIT_BACKLOG_LIMIT;
		uint64_t *q = realloc(e->skbs, cap * sizeof(*q));

		if (!q)
			return ss_errorf(err, "out of memory");
		e->skbs = q;
		e->cap_skbs = cap;
	}
	e->skbs[e->nskbs++] = skb;
	e->skbs[e->nskbs++] = data;
	e->skbs[e->nskbs++] = c;
	return 0;
}

/* kauditd_thread: send every queued skb to auditd, which frees it, on the
 * CPU after the one that queued it. */
static int drain_kauditd(struct ss_audit_emitter *e, struct ss_error *err)
{
	for (size_t i = 0; i < e->nskbs; i += 3) {
		unsigned k = (unsigned)((e->skbs[i + 2] + 1) % e->p->cpus);

		if (fixed(e, k, AUDIT_L_KAUDITD, err) ||
		    release(e, k, e->skbs[i + 1], err) ||
		    release(e, k, e->skbs[i], err))
			return -1;
	}
	e->nskbs = 0;
	return 0;
}

/* audit_log_start() .. audit_log_end() of one record with `formats`
 * audit_log_format() calls, d_path = audit_log_d_path(). */
static int record(struct ss_audit_emitter *e, unsigned c, unsigned formats,
		  bool d_path, struct ss_error *err)
{
	uint64_t skb, data, buf;
	const struct ss_audit_estimates *est = &e->p->est;
	uint64_t cycles = (uint64_t)formats * est->log_format + est->log_end +
			  (d_path ? est->d_path : 0);

	if (alloc(e, c, "audit_log_start:skb", e->api_skb, AUDIT_SIZEOF_SKB, &skb, err) ||
	    alloc(e, c, "alloc_skb:data", SS_API_KMALLOC,
		  ((AUDIT_BUFSIZ + 63) & ~63u) + AUDIT_SIZEOF_SHINFO, &data, err))
		return -1;
	if (d_path && (alloc(e, c, "audit_log_d_path", SS_API_KMALLOC,
			     AUDIT_D_PATH_BUF, &buf, err) ||
		       release(e, c, buf, err)))
		return -1;
	if (work(e, c, AUDIT_L_RECORD, cycles, err) ||
	    queue_skb(e, skb, data, c, err))
		return -1;
	return e->nskbs / 3 >= AUDIT_BACKLOG_LIMIT ? drain_kauditd(e, err) : 0;
}

/* subj=: audit_log_task_context -> security_getprocattr ->
 * selinux_getsecurity twice (length, then into kmalloc(len)). */
static int subject(struct ss_audit_emitter *e, unsigned c, struct ss_error *err)
{
	const struct ss_audit_context *x = &e->p->task;
	unsigned slot = AUDIT_MAX_CONTEXTS;
	uint64_t id;

	return convert_any(e, c, x, slot, true, err) ||
	       alloc(e, c, "audit_log_task_context", ctx_api(e),
		     ss_audit_context_len(x), &id, err) ||
	       convert_any(e, c, x, slot, true, err) ||
	       release(e, c, id, err);
}

/* audit_log_exit(): SYSCALL, CWD, one PATH. */
static int records(struct ss_audit_emitter *e, unsigned c, unsigned f,
		   struct ss_error *err)
{
	unsigned slot = f % e->p->nctx;

	if (record(e, c, AUDIT_SYSCALL_RECORD_FORMATS, true, err) ||
	    subject(e, c, err) ||
	    record(e, c, AUDIT_CWD_RECORD_FORMATS, true, err) ||
	    record(e, c, AUDIT_PATH_RECORD_FORMATS, false, err))
		return -1;
	/* obj=: 2.6.16 prints the string audit_inode_context() kept */
	if (e->p->variant != AUDIT_ON_SID && !cached_variant(e))
		return 0;
	return convert_any(e, c, &e->p->ctx[slot], slot, false, err);
}

/* ---- the syscalls ---- */

/* file_free_rcu() for the filps c queued, and kauditd. */
static int grace_period(struct ss_audit_emitter *e, unsigned c, struct ss_error *err)
{
	struct audit_cpu *cp = &e->cpu[c];

	for (size_t i = 0; i < cp->nrcu; i++)
		if (release(e, c, cp->rcu[i], err))
			return -1;
	cp->nrcu = 0;
	return drain_kauditd(e, err);
}

/* A grace period ends once per AUDIT_RCU_GRACE_US of the CPU's work. */
static int tick(struct ss_audit_emitter *e, unsigned c, struct ss_error *err)
{
	struct audit_cpu *cp = &e->cpu[c];

	if (cp->work - cp->last_tick < e->grace_cycles)
		return 0;
	cp->last_tick = cp->work;
	return grace_period(e, c, err);
}

static int queue_rcu(struct ss_audit_emitter *e, unsigned c, uint64_t id,
		     struct ss_error *err)
{
	struct audit_cpu *cp = &e->cpu[c];

	if (cp->nrcu == cp->cap) {
		size_t cap = cp->cap ? cp->cap * 2 : 256;
		uint64_t *q = realloc(cp->rcu, cap * sizeof(*q));

		if (!q)
			return ss_errorf(err, "out of memory");
		cp->rcu = q;
		cp->cap = cap;
	}
	cp->rcu[cp->nrcu++] = id;
	return 0;
}

/* audit_syscall_entry(): both filter lists, priced together. */
static int entry(struct ss_audit_emitter *e, unsigned c, struct ss_error *err)
{
	if (!audit_on(e))
		return 0;
	return work(e, c, AUDIT_L_RULES, (uint64_t)e->p->rules * e->costs.rule_cycles, err);
}

/* audit_syscall_exit() without names: audit_get_context's task_lock. */
static int leave(struct ss_audit_emitter *e, unsigned c, struct ss_error *err)
{
	if (!audit_on(e))
		return 0;
	return fixed(e, c, AUDIT_L_EXIT, err) || fixed(e, c, AUDIT_L_TASK_LOCK, err);
}

static uint64_t base_cycles(const struct ss_audit_emitter *e, unsigned permille)
{
	return (e->costs.cycles[AUDIT_L_BASE] * permille + 500) / 1000;
}

/* close(2) of the file an open(2) returned: __fput frees the security
 * blob, file_free() defers the filp to RCU. */
static int close_file(struct ss_audit_emitter *e, unsigned c, uint64_t filp,
		      uint64_t fsec, struct ss_error *err)
{
	return entry(e, c, err) ||
	       work(e, c, AUDIT_L_BASE, base_cycles(e, AUDIT_CLOSE_BASE_PERMILLE), err) ||
	       release(e, c, fsec, err) || queue_rcu(e, c, filp, err) ||
	       leave(e, c, err);
}

static const unsigned base_permille[AUDIT_NR_KINDS] = {
	[AUDIT_STAT] = AUDIT_STAT_BASE_PERMILLE,
	[AUDIT_ACCESS] = 1000,
	[AUDIT_OPEN] = AUDIT_OPEN_BASE_PERMILLE,
};

/* getname() .. putname() around one lookup; on: audit_getname,
 * __audit_inode and the deferred putname of audit_free_names(). */
static int path_syscall(struct ss_audit_emitter *e, enum ss_audit_kind k,
			unsigned f, unsigned c, bool rec, struct ss_error *err)
{
	uint64_t names, kept, filp = 0, fsec = 0;

	if (entry(e, c, err) ||
	    work(e, c, AUDIT_L_BASE, base_cycles(e, base_permille[k]), err) ||
	    alloc(e, c, "getname", e->api_names, AUDIT_PATH_MAX, &names, err))
		return -1;
	if (audit_on(e) && (fixed(e, c, AUDIT_L_NAME, err) ||
			    fixed(e, c, AUDIT_L_PWD_REF, err) || bounce(e, c, err)))
		return -1;
	if (lookup(e, c, f, &kept, err))
		return -1;
	if (k == AUDIT_OPEN &&
	    (alloc(e, c, "get_empty_filp", e->api_filp, AUDIT_SIZEOF_FILE, &filp, err) ||
	     alloc(e, c, "file_alloc_security", SS_API_KMALLOC,
		   AUDIT_SIZEOF_FILE_SECURITY, &fsec, err)))
		return -1;
	if (!audit_on(e)) {
		if (release(e, c, names, err))
			return -1;
	} else if ((rec && records(e, c, f, err)) || leave(e, c, err) ||
		   (kept != UINT64_MAX && release(e, c, kept, err)) ||
		   release(e, c, names, err)) {
		return -1;
	}
	return k == AUDIT_OPEN ? close_file(e, c, filp, fsec, err) : 0;
}

int ss_audit_emit_iteration(struct ss_audit_emitter *e, enum ss_audit_kind k,
			 unsigned f, unsigned c, bool rec, struct ss_error *err)
{
	if (fixed(e, c, AUDIT_L_USER, err) || path_syscall(e, k, f, c, rec, err))
		return -1;
	return tick(e, c, err);
}

/* ---- set-up ---- */

unsigned ss_audit_max_context_len(const struct ss_audit_params *p)
{
	unsigned m = ss_audit_context_len(&p->task);

	for (unsigned i = 0; i < p->nctx; i++)
		if (ss_audit_context_len(&p->ctx[i]) > m)
			m = ss_audit_context_len(&p->ctx[i]);
	return m;
}

static int declare(struct ss_audit_emitter *e, const char *name, unsigned size,
		   unsigned flags, uint32_t *api, struct ss_error *err)
{
	int a = ss_trace_write_cache(e->w, name, size, 0, flags);

	if (a < 0)
		return WRITE_FAILED(e, err);
	*api = (uint32_t)a;
	return 0;
}

/* The caches as the kernel creates them (kmem_cache_create arguments):
 * names_cache and skbuff_head_cache SLAB_HWCACHE_ALIGN, filp likewise;
 * audit_ctx (the what-if) with no flags. */
static int declare_caches(struct ss_audit_emitter *e, struct ss_error *err)
{
	const struct ss_audit_params *p = e->p;

	if (declare(e, "names_cache", AUDIT_PATH_MAX, SS_CF_HWCACHE, &e->api_names, err))
		return -1;
	if (p->mix[AUDIT_OPEN] &&
	    declare(e, "filp", AUDIT_SIZEOF_FILE, SS_CF_HWCACHE, &e->api_filp, err))
		return -1;
	if (p->record_pct && p->variant != AUDIT_OFF &&
	    declare(e, "skbuff_head_cache", AUDIT_SIZEOF_SKB, SS_CF_HWCACHE, &e->api_skb, err))
		return -1;
	if (p->variant == AUDIT_ON_CTXCACHE &&
	    declare(e, "audit_ctx", ss_audit_max_context_len(p), 0, &e->api_ctx, err))
		return -1;
	return 0;
}

int ss_audit_emitter_init(struct ss_audit_emitter *e, struct ss_trace_writer *w,
		       const struct ss_audit_params *p, struct ss_error *err)
{
	memset(e, 0, sizeof(*e));
	e->w = w;
	e->p = p;
	ss_audit_costs_derive(&e->costs, p->scale_permille);
	/* the estimated labels as this run has them (--estimate) */
	e->costs.cycles[AUDIT_L_SID_COPY] = p->est.sid_copy;
	e->costs.cycles[AUDIT_L_CACHE_LRU] = p->est.str_cache_lru;
	e->costs.cycles[AUDIT_L_BOUNCE] = p->est.line_bounce;
	e->costs.cycles[AUDIT_L_KAUDITD] = p->est.kauditd_skb;
	e->grace_cycles = p->est.rcu_grace_us * AUDIT_CLOCK_MHZ;
	e->cpu = calloc(p->cpus, sizeof(*e->cpu));
	if (!e->cpu)
		return ss_errorf(err, "out of memory");
	return declare_caches(e, err);
}

int ss_audit_emit_finish(struct ss_audit_emitter *e, struct ss_error *err)
{
	for (unsigned c = 0; c < e->p->cpus; c++)
		if (grace_period(e, c, err))
			return -1;
	return 0;
}

void ss_audit_emitter_release(struct ss_audit_emitter *e)
{
	for (unsigned c = 0; e->cpu && c < e->p->cpus; c++)
		free(e->cpu[c].rcu);
	free(e->cpu);
	free(e->skbs);
	ss_idpool_release(&e->ids);
	memset(e, 0, sizeof(*e));
}
