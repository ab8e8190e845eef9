// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's tracing part (steps 6, 8 and 10 of main.c, and unloading):
 * a module's tracepoints (__tracepoints_ptrs) and trace events
 * (_ftrace_events) join the kernel's before its init and leave after its
 * exit, and no probe in its text outlives the text.
 *
 * Policy at unload (Documentation/tracepoints.rst): the tracer's probes
 * on its events are removed quietly; any other probe whose function is in
 * its text, on any tracepoint, is a probe the module should have
 * unregistered in its exit: removed with a WARN naming it and the
 * tracepoint, then a grace period, so no CPU can call into freed text;
 * probes left on its own tracepoints are removed with them, WARNed about.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/trace.h>
#include <linux/tracepoint.h>
#include "internal.h"

/*
 * A table of pointers (__tracepoints_ptrs, _ftrace_events): its address
 * and number of entries, 0 if the module has none; -ENOEXEC if its size
 * is not a whole number of pointers.
 */
static int find_ptr_table(struct load_info *info, const char *name, u64 *addr,
			  unsigned int *num)
{
	unsigned int i = module_find_section(info, name);
	u64 size = info->sechdrs[i].sh_size;

	*addr = 0;
	*num = 0;
	if (!i)
		return 0;
	if (size % sizeof(void *)) {
		module_elf_err(
			info,
			"%s of 0x%llx bytes is not a whole number of pointers",
			name, size);
		return -ENOEXEC;
	}
	*addr = module_section_addr(info, i);
	*num = size / sizeof(void *);
	return 0;
}

/* Its tracepoints and trace events, for step 8. */
int module_find_tracing(struct load_info *info, struct module *mod)
{
	u64 tps = 0, events = 0;
	int ret;

	INIT_LIST_HEAD(&mod->tracepoints.list);
	INIT_LIST_HEAD(&mod->trace_events.list);
	mod->tracepoints.mod = mod;
	ret = find_ptr_table(info, "__tracepoints_ptrs", &tps,
			     &mod->tracepoints.num);
	if (!ret)
		ret = find_ptr_table(info, "_ftrace_events", &events,
				     &mod->trace_events.num);
	mod->tracepoints.start = (void *)(unsigned long)tps;
	mod->trace_events.start = (void *)(unsigned long)events;
	return ret;
}

/* Probes still registered in one of mod's text regions: removed, WARNed. */
static void remove_stray_probes(struct module *mod, enum mod_mem_type t)
{
	char owner[MODULE_NAME_LEN + 16];

	/* The WARN says what goes: the module, or only its init text. */
	snprintf(owner, sizeof(owner), "%s%s", mod->name,
		 mod->state == MODULE_STATE_GOING ? "" : "'s init text");
	tracepoint_remove_probes_within((unsigned long)mod->mem[t].base,
					mod->mem[t].size, owner);
}

/*
 * Step 8's tracing part: its tracepoints, then its events (whose probes
 * are registered on those tracepoints when enabled). Cannot fail.
 */
void module_tracing_coming(struct module *mod)
{
	tracepoint_module_coming(&mod->tracepoints);
	WARN_ON(trace_module_add_events(&mod->trace_events));
}

/*
 * Its undoing, after exit or a failed init, under module_mutex: the
 * events first (the tracer's probes on them are not the module's fault),
 * then whatever probe of its text is left anywhere (the module's fault),
 * then its tracepoints with any probe still on them. Each removal waits
 * for the probes it removed to finish before the text can go.
 */
void module_tracing_going(struct module *mod)
{
	trace_module_remove_events(&mod->trace_events);
	remove_stray_probes(mod, MOD_INIT_TEXT);
	remove_stray_probes(mod, MOD_TEXT);
	tracepoint_module_going(&mod->tracepoints);
}

void module_tracing_init_done(struct module *mod)
{
	remove_stray_probes(mod, MOD_INIT_TEXT);
}
