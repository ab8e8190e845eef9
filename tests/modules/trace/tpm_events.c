// SPDX-License-Identifier: GPL-2.0
/*
 * A module with a tracepoint and a trace event of its own (tpm_fire), and
 * one site that fires it, which the suite calls through tpm_ops.
 */
#include <linux/module.h>
#include <fixtures/trace_modules.h>

#define CREATE_TRACE_POINTS
#include "tpm_events_trace.h"

/* noinline: exactly one site, in this module's text. */
static noinline void tpm_events_fire(int value, unsigned long cookie)
{
	trace_tpm_fire(value, cookie);
}

static const struct tpm_ops tpm_events_ops = {
	.fire = tpm_events_fire,
};

static int __init tpm_events_init(void)
{
	return tpm_register(&tpm_events_ops);
}

static void __exit tpm_events_exit(void)
{
	tpm_unregister(&tpm_events_ops);
}

module_init(tpm_events_init);
module_exit(tpm_events_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracepoint test: a tracepoint and an event in a module");
