/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A module with JLM_KEYS keys of its own (the includer defines JLM_KEYS:
 * 1, 16 or 64), one unlikely site on each and one site on the kernel's
 * jlm_core_false, and a static call of its own called once per key: what
 * its load must patch grows with JLM_KEYS, for the sync rounds and
 * instructions of a load (kernel/bench/jump_label_module_bench.c) and the
 * suite's check of them (jlm_test_load_k_keys). Its init runs every site
 * and refuses the load if one takes the wrong way.
 */
#include <linux/module.h>
#include <linux/static_call.h>
#include <fixtures/jump_label_modules.h>

static int jlm_keys_add1(int x)
{
	return x + 1;
}

DEFINE_STATIC_CALL(jlm_keys_call, jlm_keys_add1);

/* Key n, and a function with a site on it and a static call site. */
#define JLM_KEY(n)                                            \
	static DEFINE_STATIC_KEY_FALSE(jlm_keys_key##n);      \
	static noinline int jlm_keys_site##n(int x)           \
	{                                                     \
		if (static_branch_unlikely(&jlm_keys_key##n)) \
			return -1;                            \
		return static_call(jlm_keys_call)(x);         \
	}
#define JLM_KEY4(n) JLM_KEY(n##0) JLM_KEY(n##1) JLM_KEY(n##2) JLM_KEY(n##3)
#define JLM_KEY16(n) JLM_KEY4(n##0) JLM_KEY4(n##1) JLM_KEY4(n##2) JLM_KEY4(n##3)

#define JLM_CALL(n) jlm_keys_site##n,
#define JLM_CALL4(n) JLM_CALL(n##0) JLM_CALL(n##1) JLM_CALL(n##2) JLM_CALL(n##3)
#define JLM_CALL16(n) \
	JLM_CALL4(n##0) JLM_CALL4(n##1) JLM_CALL4(n##2) JLM_CALL4(n##3)

#define JLM_KEY64 JLM_KEY16(0) JLM_KEY16(1) JLM_KEY16(2) JLM_KEY16(3)
#define JLM_CALL64 JLM_CALL16(0) JLM_CALL16(1) JLM_CALL16(2) JLM_CALL16(3)

#if JLM_KEYS == 1
JLM_KEY(0)
static int (*const jlm_keys_sites[])(int) = { JLM_CALL(0) };
#elif JLM_KEYS == 16
JLM_KEY16(0)
static int (*const jlm_keys_sites[])(int) = { JLM_CALL16(0) };
#elif JLM_KEYS == 64
JLM_KEY64
static int (*const jlm_keys_sites[])(int) = { JLM_CALL64 };
#else
#error "JLM_KEYS is 1, 16 or 64"
#endif

static noinline bool jlm_keys_core_site(void)
{
	return static_branch_unlikely(&jlm_core_false);
}

static int __init jlm_keys_init(void)
{
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(jlm_keys_sites) != JLM_KEYS);
	for (i = 0; i < JLM_KEYS; i++)
		if (jlm_keys_sites[i](41) != 42)
			return -EINVAL;
	return jlm_keys_core_site() == static_key_enabled(&jlm_core_false) ?
		       0 :
		       -EINVAL;
}

static void __exit jlm_keys_exit(void)
{
}

module_init(jlm_keys_init);
module_exit(jlm_keys_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jump label test: a module with many keys of its own");
