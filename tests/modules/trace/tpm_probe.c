// SPDX-License-Identifier: GPL-2.0
/*
 * A probe in a module on a kernel tracepoint, done right: registered in
 * init, unregistered in exit, then tracepoint_synchronize_unregister()
 * before the text can go.
 */
#include <linux/module.h>
#include <fixtures/trace_modules.h>
#include <trace/events/sched.h>

static void tpm_probe_switch(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	atomic_inc(&tpm_probe_hits[TPM_PROBE]);
}

static int __init tpm_probe_init(void)
{
	return register_trace_sched_switch(tpm_probe_switch, NULL);
}

static void __exit tpm_probe_exit(void)
{
	unregister_trace_sched_switch(tpm_probe_switch, NULL);
	tracepoint_synchronize_unregister();
}

module_init(tpm_probe_init);
module_exit(tpm_probe_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracepoint test: a module's probe on sched_switch");
