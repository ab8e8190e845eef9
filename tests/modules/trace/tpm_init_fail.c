// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose init registers a probe on sched_switch, then fails
 * without unregistering it: undoing the load must remove the probe.
 */
#include <linux/module.h>
#include <fixtures/trace_modules.h>
#include <trace/events/sched.h>

static void tpm_init_fail_switch(void *data, bool preempt,
				 struct task_struct *prev,
				 struct task_struct *next,
				 unsigned int prev_state)
{
	atomic_inc(&tpm_probe_hits[TPM_INIT_FAIL]);
}

/* The bug under test: the error path forgets the probe. */
static int __init tpm_init_fail_init(void)
{
	int ret = register_trace_sched_switch(tpm_init_fail_switch, NULL);

	return ret ?: -ENODEV;
}

module_init(tpm_init_fail_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracepoint test: a failed init that leaves a probe");
