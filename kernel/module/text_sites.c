// SPDX-License-Identifier: GPL-2.0
/*
 * Step 8 of a load (main.c): every site the loader patches in a module's
 * text -- its jump labels, whatever key they name (the kernel's, its own,
 * another module's), and its static call sites -- set in one write, made
 * before the text is executable:
 *
 *   1. check its jump entries (no lock but module_mutex);
 *   2. take a text batch's locks (<linux/text_batch.h>): the hotplug
 *      lock, jump_label_mutex, static_call_mutex and text_mutex;
 *   3. resolve, check and link its static call sites, then link its keys
 *      (a failure undoes the first: nothing is linked, nothing queued);
 *   4. queue every site whose bytes must change, and write them all in
 *      one pass (text_batch_apply_nx()): the text is still mapped RW NX,
 *      so no CPU can have fetched it; no int3, no sync round;
 *   5. drop the locks. From 3 on, a flip or an update writes the module's
 *      sites too, in its own batch.
 *
 * The final protections (text RX) come after this, so the CPUs that run
 * the module's text first see it executable with every site set: the
 * sites are written as the relocations were (Documentation/modules.rst,
 * "The sites of a load", has why the SDM allows it). Unloading only
 * unlinks them (jump_label_module_del(), static_call_module_del()): it
 * writes text only for what the module left behind.
 */
#include <linux/kernel.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/text_batch.h>
#include <linux/timex.h>
#include "internal.h"

#ifdef CONFIG_TEXT_PATCH_TEST_HOOKS
void (*module_text_sites_test_hook)(unsigned int step);
#endif

static void module_text_sites_step(unsigned int step)
{
	if (IS_ENABLED(CONFIG_TEXT_PATCH_TEST_HOOKS) &&
	    module_text_sites_test_hook)
		module_text_sites_test_hook(step);
}

int module_set_text_sites(struct module *mod)
{
	struct text_batch b = {};
	u64 t0 = get_cycles();
	int ret;

	lockdep_assert_held(&module_mutex);
	ret = jump_label_module_prepare(mod);
	if (ret)
		return ret;
	__text_batch_lock(&b, TEXT_BATCH_ALL);
	module_text_sites_step(0);
	ret = __static_call_module_add(mod);
	if (!ret) {
		module_text_sites_step(1);
		ret = __jump_label_module_add(&b, mod);
		if (ret)
			__static_call_module_unlink(mod);
	}
	if (!ret) {
		__static_call_module_queue(&b, mod);
		text_batch_apply_nx(&b);
	}
	__text_batch_unlock(&b, TEXT_BATCH_ALL);
	jump_label_stats.module_add_cycles = ret ? 0 : get_cycles() - t0;
	return ret;
}
