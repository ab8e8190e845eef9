/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_MODULE_INTERNAL_H
#define _KERNEL_MODULE_INTERNAL_H

/*
 * Between the loader (main.c) and its tracing part (tracing.c), which is
 * linked after the benchmarks so that it moves none of their code.
 */
struct load_info;
struct module;

/* Step 6: finds __tracepoints_ptrs and _ftrace_events; 0 or -ENOEXEC. */
int module_find_tracing(struct load_info *info, struct module *mod);
/* Step 8, under module_mutex: its tracepoints and events join the kernel's. */
void module_tracing_coming(struct module *mod);
/* Step 10, before the init text is freed: stray probes in it removed. */
void module_tracing_init_done(struct module *mod);
/* After exit or a failed init, under module_mutex: undoes the above. */
void module_tracing_going(struct module *mod);

/*
 * Step 8, under module_mutex, before its final protections: every site of
 * its text (jump labels and static calls) linked and set in one write
 * (text_sites.c). 0, or -errno after a message with nothing linked or
 * written.
 */
int module_set_text_sites(struct module *mod);

/*
 * Its parameters (params.c). Step 6: finds __param (0 or -ENOEXEC). Step
 * 9, before init, without module_mutex: args set them (0, or -errno after
 * one line). Freeing the module frees the copy of args.
 */
int module_find_params(struct load_info *info, struct module *mod);
int module_parse_params(struct module *mod, const char *args);
void module_free_params(struct module *mod);

/*
 * Its per-CPU section (percpu.c), under module_mutex. Step 3, once the
 * struct module exists: a chunk of the reserve (0, or -ENOMEM after one
 * line). Step 5, after the relocations: every CPU's copy initialised.
 * Freeing the module zeroes the chunk and gives it back.
 */
int module_percpu_alloc(struct load_info *info, struct module *mod);
void module_percpu_populate(struct module *mod);
void module_percpu_free(struct module *mod);

#endif /* _KERNEL_MODULE_INTERNAL_H */
