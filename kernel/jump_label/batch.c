// SPDX-License-Identifier: GPL-2.0
/*
 * The text batch (<linux/text_batch.h>): what its inline functions leave
 * out of line. The locks are taken by __text_batch_lock(), in the header,
 * so that a constant set of locks costs only the calls that take them;
 * here are its out-of-line form for the cold paths, its refusal of a lock
 * out of order, its assertion of a caller's hotplug lock, and the refusal
 * of a queue or an apply made without the batch's locks.
 *
 * Misuse WARNs once per caller and kind, at the caller (the code that
 * called the batch), naming the locks, and changes nothing: no lock is
 * taken, nothing is queued or written.
 *
 * Nothing here is exported: modules change text only through the key and
 * static call APIs (a module load's lookups walk the export tables).
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/text_batch.h>
#include <linux/warn_record.h>

/* The locks of a batch, by bit (TEXT_BATCH_CPUS is bit 0). */
static const char *const text_batch_lock_name[] = {
	"cpu_hotplug_lock",
	"jump_label_mutex",
	"static_call_mutex",
	"text_mutex",
};

static const char *const text_batch_op_name[] = {
	[TEXT_BATCH_OP_QUEUE] = "queue",
	[TEXT_BATCH_OP_APPLY] = "apply",
	[TEXT_BATCH_OP_APPLY_NX] = "apply_nx",
};

/* Kinds of refusal, each WARNed once per caller; then the ops. */
#define TB_MISORDERED 8

DEFINE_WARN_RECORD(text_batch_warned, 16);

void text_batch_lock(struct text_batch *b, unsigned int locks)
{
	__text_batch_lock(b, locks);
}

void text_batch_unlock(struct text_batch *b, unsigned int locks)
{
	__text_batch_unlock(b, locks);
}

noinline void text_batch_misordered(struct text_batch *b, unsigned int take)
{
	unsigned long caller = _RET_IP_;

	if (warn_record_first(&text_batch_warned, (void *)caller,
			      TB_MISORDERED))
		__warn(NULL, 0, caller,
		       "text_batch: %s asked for while holding %s: out of order, not taken\n",
		       text_batch_lock_name[__builtin_ctz(take)],
		       text_batch_lock_name[31 - __builtin_clz(b->held)]);
}

noinline void text_batch_cpus_held(struct text_batch *b)
{
	lockdep_assert_cpus_held();
	b->held |= TEXT_BATCH_CPUS;
}

noinline void text_batch_refuse(struct text_batch *b, enum text_batch_op op)
{
	unsigned int missing = TEXT_BATCH_QUEUE & ~b->held;
	unsigned long caller = _RET_IP_;

	if (!missing ||
	    !warn_record_first(&text_batch_warned, (void *)caller, op))
		return;
	__warn(NULL, 0, caller, "text_batch: %s without %s held%s: refused\n",
	       text_batch_op_name[op],
	       text_batch_lock_name[__builtin_ctz(missing)],
	       b->nx ? " (TEXT_BATCH_NX)" : "");
}
