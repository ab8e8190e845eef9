// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred static keys (<linux/jump_label_ratelimit.h>): the last dec of
 * a key waits in its delayed work. Built with CONFIG_JUMP_LABEL=n too,
 * where the API is there and a deferred dec is a plain one.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include "internal.h"

/*
 * The last dec is the key's delayed work; the count stays 1 until it runs, so
 * an inc within the window takes the fast path and nothing is patched.
 */
void jump_label_update_timeout(struct work_struct *work)
{
	BUILD_BUG_ON(offsetof(struct static_key_true_deferred, work) !=
		     offsetof(struct static_key_deferred, work));
	BUILD_BUG_ON(offsetof(struct static_key_false_deferred, work) !=
		     offsetof(struct static_key_deferred, work));
	struct static_key_deferred *key =
		container_of(work, struct static_key_deferred, work.work);

	static_key_slow_dec(&key->key);
}
EXPORT_SYMBOL_GPL(jump_label_update_timeout);

/*
 * n > 1 -> n - 1 without the lock: true if done. False at 1 (the dec that
 * would patch) or -1 (a first enable under way: the work's slow dec waits
 * for it). At 0 the dec is unbalanced, below -1 the count is broken: WARN
 * and report it done.
 */
static bool static_key_dec_not_one(struct static_key *key, unsigned long caller)
{
	int v = atomic_read(&key->enabled);
	enum static_key_misuse kind;

	do {
		if (v == 0 || v < -1) {
			kind = v ? MISUSE_NEGATIVE : MISUSE_UNDERFLOW;
			static_key_misuse(key, kind, caller);
			return true;
		}
		if (v <= 1)
			return false;
	} while (!atomic_try_cmpxchg(&key->enabled, &v, v - 1));
	return true;
}

void __static_key_slow_dec_deferred(struct static_key *key,
				    struct delayed_work *work,
				    unsigned long timeout)
{
	if (!static_key_check_use(key, _RET_IP_))
		return;
	if (static_key_dec_not_one(key, _RET_IP_))
		return;
	schedule_delayed_work(work, timeout);
}
EXPORT_SYMBOL_GPL(__static_key_slow_dec_deferred);

void __static_key_deferred_flush(void *key, struct delayed_work *work)
{
	flush_delayed_work(work);
}
EXPORT_SYMBOL_GPL(__static_key_deferred_flush);

void jump_label_rate_limit(struct static_key_deferred *key, unsigned long rl)
{
	key->timeout = rl;
	INIT_DELAYED_WORK(&key->work, jump_label_update_timeout);
}
EXPORT_SYMBOL_GPL(jump_label_rate_limit);

#ifdef CONFIG_MODULES
/*
 * Runs now the pending last dec of each deferred key mod defines: its
 * delayed work lives in mod's memory, which is about to be freed. Called
 * after its exit, without module_mutex (the work takes the hotplug lock
 * and jump_label_mutex).
 */
void jump_label_module_flush(struct module *mod)
{
	const struct static_key_def *def;
	struct static_key_deferred *dk;
	unsigned int i;

	for (i = 0; i < mod->num_static_keys; i++) {
		def = &mod->static_keys[i];
		if (!(def->flags & STATIC_KEY_DEF_DEFERRED))
			continue;
		dk = container_of(def->key, struct static_key_deferred, key);
		static_key_deferred_flush(dk);
	}
}
#endif
