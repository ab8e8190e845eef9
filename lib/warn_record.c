// SPDX-License-Identifier: GPL-2.0
/* Warn once per (object, kind): <linux/warn_record.h>. */
#include <linux/kernel.h>
#include <linux/warn_record.h>

bool warn_record_first(struct warn_record *r, const void *obj,
		       unsigned int kind)
{
	unsigned long flags;
	bool first = true;
	unsigned int i;

	spin_lock_irqsave(&r->lock, flags);
	for (i = 0; i < r->nr && first; i++)
		first = r->seen[i].obj != obj || r->seen[i].kind != kind;
	if (first && r->nr < r->max)
		r->seen[r->nr++] = (struct warn_record_entry){ obj, kind };
	spin_unlock_irqrestore(&r->lock, flags);
	return first;
}
