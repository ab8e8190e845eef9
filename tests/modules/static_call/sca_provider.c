// SPDX-License-Identifier: GPL-2.0
/*
 * A module that defines static calls and exports them, written only
 * against Linux's <linux/static_call.h> API: the provider of
 * static_call_api_mod_test.ko (MODULE_SOFTDEP), also built out of tree.
 *
 * Its init is a selftest in Linux's manner: from __init code it retargets
 * sca_prov_six through an __initdata table of targets (two functions,
 * return 0) and calls it after each update; a wrong result fails the
 * load. It calls the NULL hook from init too (nothing may happen).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/static_call.h>
#include "sca_provider.h"

long sca_prov_sum6(long a, long b, long c, long d, long e, long f)
{
	return a + b + c + d + e + f;
}
EXPORT_SYMBOL_GPL(sca_prov_sum6);

static noinline long sca_prov_mix6(long a, long b, long c, long d, long e,
				   long f)
{
	return a - b + 10 * c - d + 100 * e - f;
}

static const char *const sca_prov_names[] = { "zero", "one", "two" };

noinline const char *sca_prov_name(int i)
{
	return i >= 0 && i < ARRAY_SIZE(sca_prov_names) ? sca_prov_names[i] :
							  "none";
}
EXPORT_SYMBOL_GPL(sca_prov_name);

int sca_prov_noted;
EXPORT_SYMBOL_GPL(sca_prov_noted);

noinline void sca_prov_note(int v)
{
	WRITE_ONCE(sca_prov_noted, v);
}
EXPORT_SYMBOL_GPL(sca_prov_note);

static noinline void sca_prov_note_neg(int v)
{
	WRITE_ONCE(sca_prov_noted, -v);
}

struct sca_prov_ops sca_prov_ops;
EXPORT_SYMBOL_GPL(sca_prov_ops);

DEFINE_STATIC_CALL(sca_prov_six, sca_prov_sum6);
EXPORT_STATIC_CALL_GPL(sca_prov_six);
DEFINE_STATIC_CALL_NULL(sca_prov_hook, *sca_prov_ops.hook);
EXPORT_STATIC_CALL(sca_prov_hook);
DEFINE_STATIC_CALL_RET0(sca_prov_ptr, sca_prov_name);
EXPORT_STATIC_CALL_TRAMP_GPL(sca_prov_ptr);
DEFINE_STATIC_CALL(sca_prov_void, sca_prov_note);
EXPORT_STATIC_CALL_TRAMP(sca_prov_void);

noinline long sca_prov_call_six(long a, long b, long c, long d, long e, long f)
{
	return static_call(sca_prov_six)(a, b, c, d, e, f);
}
EXPORT_SYMBOL_GPL(sca_prov_call_six);

noinline const char *sca_prov_call_ptr(int i)
{
	return static_call(sca_prov_ptr)(i);
}
EXPORT_SYMBOL_GPL(sca_prov_call_ptr);

noinline void sca_prov_call_hook(int v)
{
	static_call_cond(sca_prov_hook)(v);
}
EXPORT_SYMBOL_GPL(sca_prov_call_hook);

noinline void sca_prov_call_void(int v)
{
	static_call(sca_prov_void)(v);
}
EXPORT_SYMBOL_GPL(sca_prov_call_void);

void sca_prov_set(int ptr, int v)
{
	static_call_update(sca_prov_ptr,
			   ptr ? sca_prov_name : (void *)__static_call_return0);
	static_call_update(sca_prov_void,
			   v ? sca_prov_note : sca_prov_note_neg);
}
EXPORT_SYMBOL_GPL(sca_prov_set);

struct sca_prov_case {
	sca_six_fn *func;
	long expect;
};

static struct sca_prov_case sca_prov_cases[] __initdata = {
	{ NULL, 21 }, /* as defined */
	{ sca_prov_mix6, 1 - 2 + 30 - 4 + 500 - 6 },
	{ (void *)__static_call_return0, 0 },
	{ sca_prov_sum6, 21 },
	{ NULL, 21 },
};

static noinline long __init sca_prov_init_call(void)
{
	return static_call(sca_prov_six)(1, 2, 3, 4, 5, 6);
}

static int __init sca_prov_init(void)
{
	unsigned int i;
	long got;

	for (i = 0; i < ARRAY_SIZE(sca_prov_cases); i++) {
		if (sca_prov_cases[i].func)
			static_call_update(sca_prov_six,
					   sca_prov_cases[i].func);
		got = sca_prov_init_call();
		if (got != sca_prov_cases[i].expect) {
			pr_err("sca_provider: init selftest %u: got %ld, expected %ld\n",
			       i, got, sca_prov_cases[i].expect);
			static_call_update(sca_prov_six, sca_prov_sum6);
			return -EINVAL;
		}
	}
	static_call_cond(sca_prov_hook)(7);
	if (static_call_query(sca_prov_hook) || sca_prov_call_ptr(1)) {
		pr_err("sca_provider: init: a _NULL or _RET0 call is set\n");
		return -EINVAL;
	}
	pr_info("sca_provider: init selftest: %zu updates from __init\n",
		ARRAY_SIZE(sca_prov_cases));
	return 0;
}

static void __exit sca_prov_exit(void)
{
}

module_init(sca_prov_init);
module_exit(sca_prov_exit);
MODULE_DESCRIPTION(
	"static calls a module defines and exports (Linux's API only)");
MODULE_LICENSE("GPL");
