/* trace_text_writer.c - the text format (docs/trace-format.md), one
 * fprintf per record; the common checks are in trace_writer.c. */
#include <inttypes.h>
#include <stdio.h>

#include "trace_backend.h"
#include "trace_tables.h"

int ss_text_writer_start(struct ss_trace_writer *w)
{
	return fprintf(w->fp, "%s %d\n", SS_TRACE_MAGIC, SS_TRACE_VERSION) < 0 ? -1 : 0;
}

static int text_meta(struct ss_trace_writer *w, const char *key, const char *value)
{
	return fprintf(w->fp, "meta %s %s\n", key, value) < 0 ? -1 : 0;
}

static int text_cache(struct ss_trace_writer *w, const char *name,
		      unsigned object_size, unsigned align, unsigned flags)
{
	char fl[128];

	ss_cache_flags_str(flags, fl, sizeof(fl));
	return fprintf(w->fp, "cache %s size=%u align=%u%s%s\n", name, object_size,
		       align, fl[0] ? " flags=" : "", fl) < 0 ? -1 : 0;
}

/* The gfp= token only when a flag is set: traces without flags read the
 * same as before they existed. */
static int text_alloc(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
		      const char *site, uint32_t api, uint64_t size, uint32_t gfp)
{
	char fl[64];

	ss_gfp_str(gfp, fl, sizeof(fl));
	return fprintf(w->fp, "a %" PRIu32 " %" PRIu64 " %s %s %" PRIu64 "%s%s\n",
		       cpu, id, site, w->tb.cache_names.strs[api], size,
		       gfp ? " gfp=" : "", fl) < 0 ? -1 : 0;
}

static int text_free(struct ss_trace_writer *w, uint32_t cpu, uint64_t id)
{
	return fprintf(w->fp, "f %" PRIu32 " %" PRIu64 "\n", cpu, id) < 0 ? -1 : 0;
}

static int text_free_prior(struct ss_trace_writer *w, uint32_t cpu, const char *site,
			   uint32_t api, uint64_t size, uint32_t gfp, uint64_t slab)
{
	char fl[64], sl[32] = "";

	ss_gfp_str(gfp, fl, sizeof(fl));
	if (slab)
		snprintf(sl, sizeof(sl), " slab=%" PRIu64, slab - 1);
	return fprintf(w->fp, "u %" PRIu32 " %s %s %" PRIu64 "%s%s%s\n", cpu, site,
		       w->tb.cache_names.strs[api], size, gfp ? " gfp=" : "", fl, sl) < 0 ? -1 : 0;
}

static int text_slab_freed(struct ss_trace_writer *w, uint32_t cpu, uint32_t api,
			   uint64_t size, uint32_t gfp, uint64_t slab)
{
	char fl[64];

	ss_gfp_str(gfp, fl, sizeof(fl));
	return fprintf(w->fp, "d %" PRIu32 " %s %" PRIu64 "%s%s slab=%" PRIu64 "\n", cpu,
		       w->tb.cache_names.strs[api], size, gfp ? " gfp=" : "", fl,
		       slab - 1) < 0 ? -1 : 0;
}

static int text_work(struct ss_trace_writer *w, uint32_t cpu, uint64_t cycles,
		     const char *label)
{
	return fprintf(w->fp, "w %" PRIu32 " %" PRIu64 " %s\n", cpu, cycles,
		       label) < 0 ? -1 : 0;
}

static int text_phase(struct ss_trace_writer *w, const char *name)
{
	return fprintf(w->fp, "p %s\n", name) < 0 ? -1 : 0;
}

static int text_comment(struct ss_trace_writer *w, const char *text)
{
	return fprintf(w->fp, "# %s\n", text) < 0 ? -1 : 0;
}

const struct ss_trace_writer_ops ss_text_writer_ops = {
	.meta = text_meta,
	.cache = text_cache,
	.alloc = text_alloc,
	.free_obj = text_free,
	.free_prior = text_free_prior,
	.slab_freed = text_slab_freed,
	.work = text_work,
	.phase = text_phase,
	.comment = text_comment,
	/* no .finish: a text trace just stops */
};
