/* list.h - an intrusive doubly linked list with a count, the shape of
 * the kernel's list_head lists of slabs (n->partial, c->partial, n->full):
 * a structure joins a list through a struct ss_link member, and
 * ss_list_entry() gets the structure back.  Header-only: the slab paths
 * call these on every refill. */
#ifndef SS_LIST_H
#define SS_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ss_link {
	struct ss_link *prev, *next;
};

struct ss_list {
	struct ss_link *head, *tail;
	uint32_t nr;
};

/* The structure of type `type` whose member `member` is link (or NULL). */
#define ss_list_entry(link, type, member) \
	((link) ? (type *)(void *)((char *)(link) - offsetof(type, member)) : (type *)NULL)

/* list_add() (head) or list_add_tail() (tail). */
static inline void ss_list_add(struct ss_list *l, struct ss_link *n, bool tail)
{
	n->prev = n->next = NULL;
	if (!l->head) {
		l->head = l->tail = n;
	} else if (tail) {
		n->prev = l->tail;
		l->tail->next = n;
		l->tail = n;
	} else {
		n->next = l->head;
		l->head->prev = n;
		l->head = n;
	}
	l->nr++;
}

/* list_del(): n must be on l. */
static inline void ss_list_del(struct ss_list *l, struct ss_link *n)
{
	if (n->prev)
		n->prev->next = n->next;
	else
		l->head = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		l->tail = n->prev;
	n->prev = n->next = NULL;
	l->nr--;
}

#endif
