/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MODTEST_H
#define _MODTEST_H

/*
 * What the test modules (tests/modules/loader/modtest_*.c) and the suites
 * that load them (kernel/module/module_test.c) share: the suites export
 * these functions, the modules call them to say what they saw.
 */
#include <linux/types.h>

struct module;

/* One address of every region of modtest_basic, as the module sees them. */
struct modtest_report {
	struct module *this_module; /* THIS_MODULE */
	int (*add)(int a, int b); /* .text, exported */
	void *init_text; /* its init function */
	const char *rodata;
	int *data, *bss, *ro_after_init, *init_data;
};

void modtest_report(const struct modtest_report *r);
void modtest_value(const char *who, int value);
void modtest_exit(const char *who);
/* request_module(name), for a module's init. */
int modtest_request(const char *name);
/* EXPORT_SYMBOL_GPL: for GPL-compatible modules only. */
int modtest_gpl_only(int x);
/* EXPORT_SYMBOL: one that a module must not export again. */
int modtest_kernel_export(int x);

/* Exported by modtest_basic. */
int modtest_basic_add(int a, int b);
int modtest_basic_gpl_twice(int x);
/* Exported by modtest_initfail, whose init fails. */
int modtest_initfail_export(int x);

#endif /* _MODTEST_H */
