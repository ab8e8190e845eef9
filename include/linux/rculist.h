/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RCULIST_H
#define _LINUX_RCULIST_H

/*
 * Lists that readers walk under rcu_read_lock() while one writer (holding
 * the writer's lock) adds and removes entries, as in Linux. A new entry is
 * published with a release store, so a reader that sees it sees it whole;
 * a removed entry keeps its next pointer, so a reader standing on it goes
 * on, and it may be freed only after synchronize_rcu().
 */
#include <linux/list.h>
#include <linux/rcupdate.h>

static inline void list_add_tail_rcu(struct list_head *n,
				     struct list_head *head)
{
	struct list_head *prev = head->prev;

	n->next = head;
	n->prev = prev;
	rcu_assign_pointer(prev->next, n);
	head->prev = n;
}

static inline void list_del_rcu(struct list_head *n)
{
	n->next->prev = n->prev;
	WRITE_ONCE(n->prev->next, n->next);
}

#define list_for_each_entry_rcu(pos, head, member)                        \
	for (pos = list_entry(rcu_dereference((head)->next), typeof(*pos), \
			      member);                                     \
	     &pos->member != (head);                                       \
	     pos = list_entry(rcu_dereference(pos->member.next),           \
			      typeof(*pos), member))

#endif /* _LINUX_RCULIST_H */
