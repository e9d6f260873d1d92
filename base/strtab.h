/* strtab.h - string interning: each distinct string gets a dense index.
 * Used for site names, work labels, phase names and cache names, so events
 * carry small integers and the replay loop never compares strings. */
#ifndef SS_STRTAB_H
#define SS_STRTAB_H

#include <stdint.h>

struct ss_strtab {
	char **strs;	 /* index -> string (owned) */
	uint32_t nr, cap;
	uint32_t *slots; /* open addressing: index + 1, 0 = empty */
	uint32_t nr_slots;
};

/* Index of s, adding it if new; UINT32_MAX on allocation failure. */
uint32_t ss_strtab_intern(struct ss_strtab *t, const char *s);
/* Index of s or UINT32_MAX if absent. */
uint32_t ss_strtab_find(const struct ss_strtab *t, const char *s);
void ss_strtab_release(struct ss_strtab *t);

#endif
