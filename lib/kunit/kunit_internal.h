/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KUNIT_INTERNAL_H
#define _KUNIT_INTERNAL_H
/*
 * Between the runner (test.c) and its test modules (modules.c): the
 * modules are counted before the plan line and run after the built-in
 * suites, one loaded at a time.
 */
#include <linux/types.h>
#include <kunit/test.h>

bool kunit_suite_selected(struct kunit_suite *suite);
int kunit_run_suite(struct kunit_suite *suite, int nr);

struct kunit_modules {
	bool *bad; /* per module blob: a test module that did not load */
	int failed; /* how many */
};

#ifdef CONFIG_MODULES
/* Loads each test module once: its selected suites; unloads it. */
int kunit_modules_count(struct kunit_modules *m);
/* Runs them, numbered from *nr on; the failed cases and modules. */
int kunit_modules_run(struct kunit_modules *m, int *nr);
#else
static inline int kunit_modules_count(struct kunit_modules *m)
{
	m->bad = NULL;
	m->failed = 0;
	return 0;
}

static inline int kunit_modules_run(struct kunit_modules *m, int *nr)
{
	return 0;
}
#endif

#endif /* _KUNIT_INTERNAL_H */
