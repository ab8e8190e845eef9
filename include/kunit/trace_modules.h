/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KUNIT_TRACE_MODULES_H
#define _KUNIT_TRACE_MODULES_H

/*
 * The tracepoint test modules (tests/modules/trace/) and the suite that loads
 * them (kernel/trace/module_trace_test.c):
 *
 *   tpm_events  defines its own tracepoint and event, tpm_fire (system
 *               tpm), and hands the suite a function that fires it;
 *   tpm_probe   registers a probe on sched_switch in its init and
 *               unregisters it in its exit;
 *   tpm_forget  registers one too and "forgets" to unregister it: the
 *               loader must remove it at unload;
 *   tpm_init_fail  registers one and fails its init without
 *               unregistering it: undoing the load must remove it;
 *   tpm_init_text  registers a probe of its init text and leaves it: the
 *               loader must remove it before freeing the init text.
 *
 * The probes count their calls in tpm_probe_hits[], which lives in the
 * kernel so that it can be read after the module is gone.
 */
#include <linux/atomic.h>

enum tpm_probe_id {
	TPM_PROBE, /* tpm_probe's */
	TPM_FORGET, /* tpm_forget's */
	TPM_INIT_FAIL, /* tpm_init_fail's */
	TPM_INIT_TEXT, /* tpm_init_text's */
	TPM_NR_PROBES,
};

extern atomic_t tpm_probe_hits[TPM_NR_PROBES];

/* What tpm_events hands the suite from its init. */
struct tpm_ops {
	/* Fires tpm_fire(value, cookie) at its one site. */
	void (*fire)(int value, unsigned long cookie);
};

int tpm_register(const struct tpm_ops *ops);
void tpm_unregister(const struct tpm_ops *ops);

#endif /* _KUNIT_TRACE_MODULES_H */
