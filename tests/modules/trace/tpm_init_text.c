// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose init registers a probe that lives in its init text and
 * leaves it: the loader must remove it before the init text is freed.
 */
#include <linux/module.h>
#include <fixtures/trace_modules.h>
#include <trace/events/sched.h>

static void __init tpm_init_text_switch(void *data, bool preempt,
					struct task_struct *prev,
					struct task_struct *next,
					unsigned int prev_state)
{
	atomic_inc(&tpm_probe_hits[TPM_INIT_TEXT]);
}

/* The bug under test: a probe in text that is freed after init. */
static int __init tpm_init_text_init(void)
{
	return register_trace_sched_switch(tpm_init_text_switch, NULL);
}

static void __exit tpm_init_text_exit(void)
{
}

module_init(tpm_init_text_init);
module_exit(tpm_init_text_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracepoint test: a probe in init text left registered");
