// SPDX-License-Identifier: GPL-2.0
/*
 * The text batch (<linux/text_batch.h>): what its inline functions leave
 * out of line. The locks are taken by text_batch_lock(), in the header,
 * so that a constant set of locks costs only the calls that take them;
 * here are its refusal of a lock out of order, its assertion of a
 * caller's hotplug lock, and the refusal of a queue or an apply made
 * without the batch's locks.
 *
 * Misuse WARNs once per caller and kind, at the caller (the code that
 * called the batch), naming the locks, and changes nothing: no lock is
 * taken, nothing is queued or written.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/text_batch.h>
#include <linux/warn_record.h>

/* The locks of a batch, by bit (TEXT_BATCH_CPUS is bit 0). */
static const char *const text_batch_lock_name[] = {
	"cpu_hotplug_lock",
	"jump_label_mutex",
	"static_call_mutex",
	"text_mutex",
};

DEFINE_WARN_RECORD(text_batch_warned, 16);

enum { TB_MISORDERED, TB_UNLOCKED_QUEUE, TB_UNLOCKED_APPLY, TB_NX_APPLY };

/* The name of the first lock of @locks, in the order. */
static const char *tb_first(unsigned int locks)
{
	return text_batch_lock_name[__builtin_ctz(locks)];
}

/* The name of the last lock of @locks, in the order. */
static const char *tb_last(unsigned int locks)
{
	return text_batch_lock_name[31 - __builtin_clz(locks)];
}

noinline void text_batch_misordered(struct text_batch *b, unsigned int take)
{
	unsigned long caller = _RET_IP_;

	if (!warn_record_first(&text_batch_warned, (void *)caller,
			       TB_MISORDERED))
		return;
	__warn(NULL, 0, caller,
	       "text_batch: %s asked for while holding %s: the order is cpu_hotplug_lock -> jump_label_mutex -> static_call_mutex -> text_mutex; nothing taken\n",
	       tb_first(take), tb_last(b->held));
}
EXPORT_SYMBOL_GPL(text_batch_misordered);

noinline void text_batch_cpus_held(struct text_batch *b)
{
	lockdep_assert_cpus_held();
	b->held |= TEXT_BATCH_CPUS;
}
EXPORT_SYMBOL_GPL(text_batch_cpus_held);

noinline void text_batch_refuse(struct text_batch *b, const char *what,
				unsigned int need)
{
	unsigned long caller = _RET_IP_;
	bool queue = !strcmp(what, "queue");
	unsigned int kind = queue ? TB_UNLOCKED_QUEUE : TB_UNLOCKED_APPLY;

	if (b->nx && !(b->held & TEXT_BATCH_CPUS))
		kind = TB_NX_APPLY;
	if (!warn_record_first(&text_batch_warned, (void *)caller, kind))
		return;
	if (kind == TB_NX_APPLY)
		__warn(NULL, 0, caller,
		       "text_batch: %s by a TEXT_BATCH_NX batch without cpu_hotplug_lock: nothing %s\n",
		       what, queue ? "queued" : "written");
	else
		__warn(NULL, 0, caller,
		       "text_batch: %s without %s held: nothing %s\n", what,
		       tb_first(need & ~b->held), queue ? "queued" : "written");
}
EXPORT_SYMBOL_GPL(text_batch_refuse);
