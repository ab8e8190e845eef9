/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The static calls sca_provider.ko defines and exports to
 * static_call_api_mod_test.ko (Linux's <linux/static_call.h> API only).
 */
#ifndef _SCA_PROVIDER_H
#define _SCA_PROVIDER_H

#include <linux/static_call.h>

typedef long sca_six_fn(long a, long b, long c, long d, long e, long f);
struct sca_prov_ops {
	void (*hook)(int v);
};

long sca_prov_sum6(long a, long b, long c, long d, long e, long f);
const char *sca_prov_name(int i);
void sca_prov_note(int v);
extern struct sca_prov_ops sca_prov_ops;

/* Key and trampoline exported: callers may update it. */
DECLARE_STATIC_CALL(sca_prov_six, sca_prov_sum6);
DECLARE_STATIC_CALL(sca_prov_hook, *sca_prov_ops.hook);
/* Trampoline only: callers use static_call_mod() and cannot update. */
DECLARE_STATIC_CALL(sca_prov_ptr, sca_prov_name);
DECLARE_STATIC_CALL(sca_prov_void, sca_prov_note);

/* The provider's own sites of each call, and its retargeting. */
long sca_prov_call_six(long a, long b, long c, long d, long e, long f);
const char *sca_prov_call_ptr(int i);
void sca_prov_call_hook(int v);
void sca_prov_call_void(int v);
/* sca_prov_ptr to sca_prov_name (1), return 0 (0); sca_prov_void to
 * sca_prov_note (1), another function (0). */
void sca_prov_set(int ptr, int v);
extern int sca_prov_noted;

#endif /* _SCA_PROVIDER_H */
