/* memcap.c - simulated memory against its cap (see memcap.h). */
#include "memcap.h"

#include <string.h>

void ss_memcap_init(struct ss_memcap *m, uint64_t max_bytes, unsigned page_size)
{
	memset(m, 0, sizeof(*m));
	m->max_bytes = max_bytes ? max_bytes : SS_MEMCAP_DEFAULT;
	m->page_size = page_size;
}

void ss_memcap_release(struct ss_memcap *m)
{
	(void)m; /* nothing held: kept for the callers' pairing */
}

void ss_memcap_note_large(struct ss_memcap *m, const struct ss_model_desc *desc,
			  const struct ss_model *model)
{
	struct ss_large_report lr;

	desc->ops->large_report(model, &lr);
	m->large_bytes = lr.page_bytes;
}
