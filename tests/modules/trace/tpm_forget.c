// SPDX-License-Identifier: GPL-2.0
/*
 * A module that registers a probe on sched_switch and forgets to
 * unregister it: rmmod is refused while the probe is registered (the
 * module_trace suite then removes it, with the WARN the loader gives for
 * probes left in init text, and the unload goes through).
 */
#include <linux/module.h>
#include <fixtures/trace_modules.h>
#include <trace/events/sched.h>

static void tpm_forget_switch(void *data, bool preempt,
			      struct task_struct *prev,
			      struct task_struct *next, unsigned int prev_state)
{
	atomic_inc(&tpm_probe_hits[TPM_FORGET]);
}

static int __init tpm_forget_init(void)
{
	return register_trace_sched_switch(tpm_forget_switch, NULL);
}

/* The bug under test: no unregister_trace_sched_switch() here. */
static void __exit tpm_forget_exit(void)
{
}

module_init(tpm_forget_init);
module_exit(tpm_forget_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracepoint test: a probe its module forgets");
