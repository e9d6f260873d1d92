/* ptrmap.c - live kernel pointers -> entries (dense id, size, cpu).
 * Linear probing with backward-shift deletion (no tombstones), so a long
 * trace with few live objects keeps a small, clean table. */
#include <stdlib.h>
#include <string.h>

#include "import_read.h"

static uint64_t slot_of(const struct ss_ptrmap *m, uint64_t ptr)
{
	/* Fibonacci hashing: slab pointers share their low bits */
	return (ptr * 0x9e3779b97f4a7c15ull) >> 17 & (m->nr_slots - 1);
}

struct ss_ptr_entry *ss_ptrmap_find(struct ss_ptrmap *m, uint64_t ptr)
{
	if (!m->nr_slots || !ptr)
		return NULL;
	for (uint64_t i = slot_of(m, ptr);; i = (i + 1) & (m->nr_slots - 1)) {
		if (m->slots[i].ptr == ptr)
			return &m->slots[i];
		if (!m->slots[i].ptr)
			return NULL;
	}
}

static struct ss_ptr_entry *place(struct ss_ptrmap *m, uint64_t ptr)
{
	uint64_t i = slot_of(m, ptr);

	while (m->slots[i].ptr)
		i = (i + 1) & (m->nr_slots - 1);
	m->slots[i].ptr = ptr;
	return &m->slots[i];
}

static int grow(struct ss_ptrmap *m)
{
	struct ss_ptrmap bigger = {.nr_slots = m->nr_slots ? m->nr_slots * 2 : 1024};

	bigger.slots = calloc(bigger.nr_slots, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (uint64_t i = 0; i < m->nr_slots; i++)
		if (m->slots[i].ptr)
			*place(&bigger, m->slots[i].ptr) = m->slots[i];
	free(m->slots);
	m->slots = bigger.slots;
	m->nr_slots = bigger.nr_slots;
	return 0;
}

struct ss_ptr_entry *ss_ptrmap_insert(struct ss_ptrmap *m, uint64_t ptr)
{
	struct ss_ptr_entry *e;

	if ((m->live + 1) * 2 > m->nr_slots && grow(m))
		return NULL;
	e = place(m, ptr);
	e->id = e->bytes_alloc = 0;
	e->cpu = 0;
	if (++m->live > m->peak)
		m->peak = m->live;
	return e;
}

void ss_ptrmap_remove(struct ss_ptrmap *m, struct ss_ptr_entry *e)
{
	uint64_t mask = m->nr_slots - 1;
	uint64_t hole = (uint64_t)(e - m->slots);

	/* shift back every following entry that the hole would orphan */
	for (uint64_t i = (hole + 1) & mask; m->slots[i].ptr; i = (i + 1) & mask) {
		uint64_t home = slot_of(m, m->slots[i].ptr);

		if (((i - home) & mask) >= ((i - hole) & mask)) {
			m->slots[hole] = m->slots[i];
			hole = i;
		}
	}
	memset(&m->slots[hole], 0, sizeof(m->slots[hole]));
	m->live--;
}

int ss_ptrmap_copy(struct ss_ptrmap *to, const struct ss_ptrmap *from)
{
	*to = *from;
	if (!from->nr_slots)
		return 0;
	to->slots = malloc(from->nr_slots * sizeof(*to->slots));
	if (!to->slots) {
		memset(to, 0, sizeof(*to));
		return -1;
	}
	memcpy(to->slots, from->slots, from->nr_slots * sizeof(*to->slots));
	return 0;
}

void ss_ptrmap_release(struct ss_ptrmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
