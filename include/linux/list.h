/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H

#include <linux/compiler.h>
#include <linux/kernel.h>

/*
 * Circular doubly linked lists: the head is a node of the list that holds
 * no entry; an empty list is a head pointing at itself. No locking.
 */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

/* Links n between prev and next, which must be adjacent. */
static inline void __list_link(struct list_head *n, struct list_head *prev,
			       struct list_head *next)
{
	n->next = next;
	n->prev = prev;
	prev->next = n;
	next->prev = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_link(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_link(n, head->prev, head);
}

/* Unlinks n and leaves it an empty list of its own. */
static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

/* Moves every entry of list to the tail of head; list becomes empty. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	struct list_head *first = list->next, *last = list->prev;

	if (first == list)
		return;
	first->prev = head->prev;
	head->prev->next = first;
	last->next = head;
	head->prev = last;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, typeof(*(pos)), member)

/* Every entry of head; the _safe one allows removing pos meanwhile. */
#define list_for_each_entry(pos, head, member)                          \
	for (pos = list_first_entry(head, typeof(*pos), member);        \
	     &pos->member != (head); pos = list_next_entry(pos, member))

#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_first_entry(head, typeof(*pos), member),        \
	     n = list_next_entry(pos, member);                          \
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))

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
