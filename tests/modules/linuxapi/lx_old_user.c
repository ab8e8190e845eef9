// SPDX-License-Identifier: GPL-2.0
/*
 * Sites of the old static-key API (old-api: allowed, a test of it) on
 * lx_old_base's keys and on one of its own: init checks each site against
 * its key's state, flips the keys with the old calls and checks again;
 * -EINVAL (after a line naming the site) on any mismatch.
 */
#include <linux/module.h>
#include <linux/jump_label.h>
#include <linux/printk.h>

extern struct static_key lx_old_on, lx_old_off, lx_old_flipped;
static struct static_key lx_old_own = STATIC_KEY_INIT;

static noinline bool on_true(void)
{
	return static_key_true(&lx_old_on);
}

static noinline bool off_false(void)
{
	return static_key_false(&lx_old_off);
}

static noinline bool flipped_false(void)
{
	return static_key_false(&lx_old_flipped);
}

static noinline bool own_false(void)
{
	return static_key_false(&lx_old_own);
}

static noinline bool own_true(void)
{
	return static_key_true(&lx_old_own);
}

struct lx_site {
	const char *name;
	struct static_key *key;
	bool (*fn)(void);
};

static const struct lx_site lx_sites[] = {
	{ "static_key_true(&lx_old_on)", &lx_old_on, on_true },
	{ "static_key_false(&lx_old_off)", &lx_old_off, off_false },
	{ "static_key_false(&lx_old_flipped)", &lx_old_flipped, flipped_false },
	{ "static_key_false(&lx_old_own)", &lx_old_own, own_false },
	{ "static_key_true(&lx_old_own)", &lx_old_own, own_true },
};

/* Each site agrees with its key: 0, or -EINVAL naming one that does not. */
static int lx_check(const char *when)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lx_sites); i++) {
		bool on = static_key_enabled(lx_sites[i].key);

		if (lx_sites[i].fn() != on) {
			pr_err("lx_old_user: %s: %s is %d, its key is %d\n",
			       when, lx_sites[i].name, !on, on);
			return -EINVAL;
		}
	}
	return 0;
}

static void lx_invert(struct static_key *key)
{
	if (static_key_enabled(key))
		static_key_disable(key);
	else
		static_key_enable(key);
}

static int __init lx_old_user_init(void)
{
	int ret = lx_check("at load");

	if (ret || !static_key_enabled(&lx_old_on) ||
	    static_key_enabled(&lx_old_off) ||
	    !static_key_enabled(&lx_old_flipped) ||
	    static_key_enabled(&lx_old_own))
		return ret ?: -EINVAL;
	lx_invert(&lx_old_on);
	lx_invert(&lx_old_off);
	lx_invert(&lx_old_flipped);
	static_key_slow_inc(&lx_old_own);
	ret = lx_check("inverted");
	if (!ret && static_key_count(&lx_old_own) != 1)
		ret = -EINVAL;
	lx_invert(&lx_old_on);
	lx_invert(&lx_old_off);
	lx_invert(&lx_old_flipped);
	static_key_slow_dec(&lx_old_own);
	return ret ?: lx_check("restored");
}

static void __exit lx_old_user_exit(void)
{
}

module_init(lx_old_user_init);
module_exit(lx_old_user_exit);
MODULE_DESCRIPTION("old-API static-key sites on lx_old_base's keys");
MODULE_LICENSE("GPL");
