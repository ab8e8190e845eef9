/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KUNIT_JUMP_LABEL_MODULES_H
#define _KUNIT_JUMP_LABEL_MODULES_H

/*
 * The jump-label test modules (tests/modules/jump_label/) and the suite that
 * loads them (kernel/jump_label_module_test.c), after Linux's
 * lib/test_static_key_base.c: the kernel exports two keys, jlm_base
 * defines and exports two more, and every module hands the suite a probe
 * from its init: its branch functions, each with the key it tests.
 * A branch function returns 1 when its branch is taken, which is when its
 * key is enabled, whatever the macro (likely or unlikely).
 */
#include <linux/jump_label.h>
#include <linux/types.h>

#define JLM_MAX_BRANCHES 12

struct jlm_probe {
	const char *name;
	unsigned int nr;
	int (*branch[JLM_MAX_BRANCHES])(void);
	struct static_key *key[JLM_MAX_BRANCHES];
	/* jlm_init_sites: what its init text's sites saw, -1 if none ran. */
	int init_branch;
	/* jlm_init_sites: an address in its init text, for the checks. */
	unsigned long init_text;
};

/* The keys the kernel exports to the test modules. */
extern struct static_key_false jlm_core_false;
extern struct static_key_true jlm_core_true;
/* __ro_after_init, disabled at boot by the suite's initcall. */
extern struct static_key_true jlm_core_ro;

/* Called from a module's init and exit. */
int jlm_register(struct jlm_probe *probe);
void jlm_unregister(struct jlm_probe *probe);

#endif /* _KUNIT_JUMP_LABEL_MODULES_H */
