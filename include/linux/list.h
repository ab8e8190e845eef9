/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H

#include <linux/compiler.h>
#include <linux/kernel.h>

/*
 * Hash lists: a list whose head is one pointer. Each node points at the
 * pointer that points at it (pprev), so a node unlinks itself in O(1)
 * without knowing its head, whichever list it is on. A node that is on no
 * list has pprev NULL ("unhashed"). No locking: the caller serializes.
 */
struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#define HLIST_HEAD_INIT { .first = NULL }

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	h->first = NULL;
}

static inline void INIT_HLIST_NODE(struct hlist_node *n)
{
	n->next = NULL;
	n->pprev = NULL;
}

/* True if n is on no list. A lockless read: a hint unless serialized. */
static inline bool hlist_unhashed(const struct hlist_node *n)
{
	return !READ_ONCE(n->pprev);
}

static inline bool hlist_empty(const struct hlist_head *h)
{
	return !READ_ONCE(h->first);
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	WRITE_ONCE(h->first, n);
	WRITE_ONCE(n->pprev, &h->first);
}

/* Unlinks n from its list and leaves it unhashed. */
static inline void hlist_del_init(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	if (!pprev)
		return;
	WRITE_ONCE(*pprev, next);
	if (next)
		next->pprev = pprev;
	n->next = NULL;
	WRITE_ONCE(n->pprev, NULL);
}

/* Moves every node of old to new (which it overwrites); old ends empty. */
static inline void hlist_move_list(struct hlist_head *old,
				   struct hlist_head *new)
{
	new->first = old->first;
	if (new->first)
		new->first->pprev = &new->first;
	old->first = NULL;
}

#define hlist_entry(ptr, type, member) container_of(ptr, type, member)

#endif /* _LINUX_LIST_H */
