/* audit_gen.c - the trace of one variant (audit_gen.h). */
#include "audit_gen.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "audit_consts.h"
#include "estimate.h"
#include "parse.h"

void ss_audit_estimates_table(struct ss_audit_estimates *e, struct ss_estimate *t)
{
	const struct ss_estimate v[AUDIT_NR_ESTIMATES] = {
		{"AUDIT_MLS_BIT_CYCLES", &e->mls_bit, 0},
		{"AUDIT_SID_COPY_CYCLES", &e->sid_copy, 0},
		{"AUDIT_COPY_START_CYCLES", &e->copy_start, 0},
		{"AUDIT_COPY_BYTES_PER_CYCLE", &e->copy_bytes_per_cycle, 1}, /* a divisor */
		{"AUDIT_STR_CACHE_LRU_CYCLES", &e->str_cache_lru, 0},
		{"AUDIT_LINE_BOUNCE_CYCLES", &e->line_bounce, 0},
		{"AUDIT_LOG_FORMAT_CYCLES", &e->log_format, 0},
		{"AUDIT_D_PATH_CYCLES", &e->d_path, 0},
		{"AUDIT_LOG_END_CYCLES", &e->log_end, 0},
		{"AUDIT_KAUDITD_SKB_CYCLES", &e->kauditd_skb, 0},
		{"AUDIT_RCU_GRACE_US", &e->rcu_grace_us, 1},
	};

	memcpy(t, v, sizeof(v));
}

static void estimates_defaults(struct ss_audit_estimates *e)
{
	*e = (struct ss_audit_estimates){
		.mls_bit = AUDIT_MLS_BIT_CYCLES,
		.sid_copy = AUDIT_SID_COPY_CYCLES,
		.copy_start = AUDIT_COPY_START_CYCLES,
		.copy_bytes_per_cycle = AUDIT_COPY_BYTES_PER_CYCLE,
		.str_cache_lru = AUDIT_STR_CACHE_LRU_CYCLES,
		.line_bounce = AUDIT_LINE_BOUNCE_CYCLES,
		.log_format = AUDIT_LOG_FORMAT_CYCLES,
		.d_path = AUDIT_D_PATH_CYCLES,
		.log_end = AUDIT_LOG_END_CYCLES,
		.kauditd_skb = AUDIT_KAUDITD_SKB_CYCLES,
		.rcu_grace_us = AUDIT_RCU_GRACE_US,
	};
}

void ss_audit_params_defaults(struct ss_audit_params *p)
{
	struct ss_error err;

	memset(p, 0, sizeof(*p));
	p->variant = AUDIT_OFF;
	p->syscalls = AUDIT_DEFAULT_SYSCALLS;
	p->mix[AUDIT_ACCESS] = 100;
	p->rules = ss_audit_implied_rules();
	p->cpus = 1;
	p->files = 1;
	p->nctx = 1;
	p->scale_permille = AUDIT_PROFILE_SCALE_PERMILLE;
	estimates_defaults(&p->est);
	/* constants: cannot fail */
	ss_audit_context_parse(AUDIT_DEFAULT_CONTEXT, &p->ctx[0], &err);
	ss_audit_context_parse(AUDIT_DEFAULT_TASK_CONTEXT, &p->task, &err);
}

int ss_audit_mix_parse(const char *s, unsigned mix[AUDIT_NR_KINDS],
		    struct ss_error *err)
{
	char buf[256], *save = NULL;
	unsigned total = 0;

	memset(mix, 0, sizeof(unsigned) * AUDIT_NR_KINDS);
	if (strlen(s) >= sizeof(buf))
		return ss_errorf(err, "mix '%s' is too long", s);
	strcpy(buf, s);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		enum ss_audit_kind k;
		unsigned w;

		if (!colon)
			return ss_errorf(err, "mix '%s': want kind:weight, got '%s'", s, tok);
		*colon = '\0';
		if (ss_audit_kind_parse(tok, &k))
			return ss_errorf(err, "mix '%s': '%s' is not stat, access or open", s, tok);
		if (ss_parse_uint(colon + 1, 1000000, &w))
			return ss_errorf(err, "mix '%s': weight '%s' is not 0..1000000", s, colon + 1);
		if (mix[k])
			return ss_errorf(err, "mix '%s': %s given twice", s, tok);
		mix[k] = w;
		total += w;
	}
	if (!total)
		return ss_errorf(err, "mix '%s': every weight is 0", s);
	return 0;
}

void ss_audit_mix_string(const unsigned mix[AUDIT_NR_KINDS], char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 0; k < AUDIT_NR_KINDS && at < n; k++)
		if (mix[k])
			at += (size_t)snprintf(buf + at, n - at, "%s%s:%u", at ? "," : "",
					       ss_audit_kind_name(k), mix[k]);
}

enum ss_audit_kind ss_audit_mix_next(struct ss_audit_mix_state *s,
			       const unsigned mix[AUDIT_NR_KINDS])
{
	long long total = 0;
	int best = -1;

	for (int k = 0; k < AUDIT_NR_KINDS; k++) {
		if (!mix[k])
			continue;
		s->credit[k] += mix[k];
		total += mix[k];
		if (best < 0 || s->credit[k] > s->credit[best])
			best = k;
	}
	s->credit[best] -= total;
	return best;
}

int ss_audit_records_at(unsigned long long i, unsigned pct)
{
	return (i + 1) * pct / 100 > i * pct / 100;
}

static int meta_u(struct ss_trace_writer *w, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return ss_trace_write_meta(w, key, buf);
}

/* The header: every option, so a trace says how it was made. */
static int write_meta(struct ss_trace_writer *w, const struct ss_audit_params *p,
		      struct ss_error *err)
{
	char mix[128], ctx[AUDIT_MAX_CONTEXTS * 64], one[4096];
	size_t at = 0;

	ss_audit_mix_string(p->mix, mix, sizeof(mix));
	ctx[0] = '\0';
	for (unsigned i = 0; i < p->nctx && at < sizeof(ctx); i++) {
		ss_audit_context_string(&p->ctx[i], one);
		at += (size_t)snprintf(ctx + at, sizeof(ctx) - at, "%s%s", i ? " " : "", one);
	}
	ss_audit_context_string(&p->task, one);
	if (ss_trace_write_meta(w, "workload", "audit") ||
	    ss_trace_write_meta(w, "variant", ss_audit_variant_name(p->variant)) ||
	    meta_u(w, "syscalls", p->syscalls) || ss_trace_write_meta(w, "mix", mix) ||
	    meta_u(w, "rules", p->rules) || meta_u(w, "records_pct", p->record_pct) ||
	    meta_u(w, "cpus", p->cpus) || meta_u(w, "files", p->files) ||
	    ss_trace_write_meta(w, "contexts", ctx) ||
	    ss_trace_write_meta(w, "task_context", one) ||
	    meta_u(w, "profile_scale_permille", p->scale_permille) ||
	    meta_u(w, "seed_syscalls", AUDIT_SEED_SYSCALLS) ||
	    meta_u(w, "clock_mhz", AUDIT_CLOCK_MHZ) ||
	    ss_trace_write_meta(w, "target", "x86_64-6.1"))
		return ss_trace_writer_failed(w, err);
	return 0;
}

int ss_audit_emit_trace(struct ss_trace_writer *w, const struct ss_audit_params *p,
		     struct ss_error *err)
{
	struct ss_audit_mix_state mix = {{0}};
	struct ss_audit_emitter e;
	int rc = -1;

	memset(&e, 0, sizeof(e));
	if (write_meta(w, p, err) || ss_audit_emitter_init(&e, w, p, err))
		goto out;
	if (ss_trace_write_phase(w, "loop")) {
		ss_trace_writer_failed(w, err);
		goto out;
	}
	for (unsigned long long i = 0; i < p->syscalls; i++) {
		enum ss_audit_kind k = ss_audit_mix_next(&mix, p->mix);

		if (ss_audit_emit_iteration(&e, k, (unsigned)(i % p->files),
					 (unsigned)(i % p->cpus),
					 ss_audit_records_at(i, p->record_pct), err))
			goto out;
	}
	rc = ss_audit_emit_finish(&e, err);
out:
	ss_audit_emitter_release(&e);
	return rc;
}
