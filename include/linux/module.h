/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

/*
 * Loadable modules. A module is an ELF64 relocatable object (.ko) built by
 * "make modules" from modules/ (and any obj-m beside its subsystem); GRUB
 * hands the kernel every .ko of the ISO as a multiboot2 module whose string
 * is the module's name, and the kernel keeps those blobs (module_blob_*).
 * load_module() turns a blob into a running module; delete_module()
 * removes it. See Documentation/modules.rst.
 *
 * Lock order, outermost first (the lock-order checker knows it):
 *   module_mutex -> cpu_hotplug_lock (read) -> jump_label_mutex -> text_mutex
 * and, for a module's tracepoints and events (loaded before init, removed
 * after exit, both under module_mutex):
 *   module_mutex -> event_mutex -> cpu_hotplug_lock (read)
 *     -> tracepoints_mutex -> jump_label_mutex -> text_mutex
 * A module's init and exit run without module_mutex held, so they may
 * flip keys, take the hotplug lock or load other modules.
 */
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/module_mem.h>
#include <linux/moduleparam.h>
#include <linux/tracepoint-defs.h>

#define MODULE_NAME_LEN 56

/* The life of a module, as in Linux. */
enum module_state {
	MODULE_STATE_LIVE,	/* init returned 0 */
	MODULE_STATE_COMING,	/* loaded and linked, init running */
	MODULE_STATE_GOING,	/* exit running or init failed */
	MODULE_STATE_UNFORMED,	/* still being loaded */
};

/*
 * Symbol versions (Documentation/modules.rst, "Versions"): the CRC of the
 * types an export names, computed from DWARF at build time
 * (scripts/symversions.py). The kernel's table is __kernel_crcs[], a
 * module's its __kcrctab section, both sorted by name; a module's
 * __versions section lists the CRC it was built against for each symbol
 * it uses (read from the file, not loaded), and a symbol whose CRC differs
 * from its exporter's refuses the load, as does a vermagic= in .modinfo
 * that is not VERMAGIC_STRING.
 */
struct kernel_crc {
	const char *name;
	u32 crc;
};

struct modversion_info {
	unsigned long crc;
	char name[MODULE_NAME_LEN];
};

extern const struct kernel_crc __kernel_crcs[];
extern const unsigned int __kernel_num_crcs;

struct module_memory {
	void *base;
	unsigned int size;	/* bytes used; mapped rounded up to pages */
};

struct jump_entry;
struct static_call_msite;
struct static_call_tramp_key;
struct elf64_sym;

struct module {
	enum module_state state;
	struct list_head list;		/* all modules, under module_mutex */
	char name[MODULE_NAME_LEN];
	bool gpl_compatible;		/* MODULE_LICENSE() allows GPL symbols */

	int (*init)(void);
	void (*exit)(void);

	struct module_memory mem[MOD_MEM_NUM_TYPES];

	/* What it exports, in its own memory (relocated). */
	const struct kernel_symbol *syms;
	unsigned int num_syms;
	const struct kernel_symbol *gpl_syms;
	unsigned int num_gpl_syms;
	/* The CRC of each of its exports (its __kcrctab), sorted by name. */
	const struct kernel_crc *crcs;
	unsigned int num_crcs;

	/*
	 * References: 1 for being loaded, plus one per try_module_get() and
	 * per module that uses its symbols (those are also on source_list as
	 * struct module_use, and this module on their target_list).
	 */
	atomic_t refcnt;
	/*
	 * Its exit has run, but something still pointed into it then: it
	 * stays, GOING, until an rmmod finds nothing (delete_module()).
	 * unloading: a delete_module() is at work on it. Under module_mutex.
	 */
	bool exit_done;
	bool unloading;
	struct list_head source_list;	/* modules using this one */
	struct list_head target_list;	/* modules this one uses */

	/* Its __jump_table, sorted at load (kernel/jump_label/core.c). */
	struct jump_entry *jump_entries;
	unsigned int num_jump_entries;
	bool jump_init_done;		/* init text gone: skip its sites */
	/* Its __static_keys: its own keys, which its sites may name. */
	const struct static_key_def *static_keys;
	unsigned int num_static_keys;

	/*
	 * Its static call sites, found in its relocations at load and set
	 * before init (kernel/static_call/core.c), and its trampolines' keys.
	 */
	struct static_call_msite *static_call_sites;
	unsigned int num_static_call_sites;
	const struct static_call_tramp_key *static_call_tramp_keys;
	unsigned int num_static_call_tramp_keys;

	/*
	 * Its __tracepoints_ptrs and _ftrace_events, listed by the
	 * tracepoint code and the tracer from before init to after exit.
	 */
	struct tracepoint_table tracepoints;
	struct trace_event_table trace_events;

	/* Its symbols for %pS and kallsyms_lookup(), in module memory. */
	const struct elf64_sym *symtab;
	unsigned int num_symtab;
	const char *strtab;

	/*
	 * Its module_param()s (its __param section) and the copy of the
	 * arguments it was loaded with, which charp values point into
	 * (kmalloc()ed, freed with the module; NULL without arguments).
	 */
	const struct kernel_param *kp;
	unsigned int num_kp;
	char *args;

	/*
	 * Its .data..percpu, in the per-CPU reserve for modules: the
	 * template address of its first byte (per_cpu_ptr() of it is CPU
	 * cpu's copy; NULL: none), its size, and its place on the list of
	 * chunks, by address (kernel/module/percpu.c, under module_mutex).
	 */
	void __percpu *percpu;
	unsigned int percpu_size;
	struct list_head percpu_list;
};

/* One use of a module's symbols by another: on both modules' lists. */
struct module_use {
	struct list_head source_list;
	struct list_head target_list;
	struct module *source, *target;
};

/*
 * The blobs GRUB gave the kernel, by name (the multiboot2 module string).
 * They stay for the kernel's life, read-only; NULL if there is none.
 */
struct module_blob {
	const char *name;
	const void *data;
	size_t size;
};

const struct module_blob *module_blob_find(const char *name);
unsigned int module_blob_count(void);
const struct module_blob *module_blob_get(unsigned int i);

#ifdef CONFIG_MODULES
extern struct mutex module_mutex;
extern struct list_head modules;

/*
 * Loads the blob called name: validates it, lays it out, links it against
 * the kernel's and loaded modules' exports, sets its jump labels and runs
 * its init. The module, or ERR_PTR(-errno) after a one-line message naming
 * the module and what is wrong; a refusal leaves nothing behind.
 */
struct module *load_module_name(const char *name);
/*
 * The same with arguments for its module_param()s, "x=5 s=hi", set before
 * init (NULL or "" for none). An unknown parameter, a bad value or a
 * malformed word refuses the load (-ENOENT, -EINVAL, -ERANGE, -ENOSPC)
 * after one line naming the module, the parameter and the value.
 */
struct module *load_module_args(const char *name, const char *args);
/* load_module(name) or load_module(name, args). */
#define __load_module_pick(_1, _2, fn, ...) fn
#define load_module(...)                                  \
	__load_module_pick(__VA_ARGS__, load_module_args, \
			   load_module_name)(__VA_ARGS__)
/*
 * The same for a blob the caller holds (a test's broken copy, say): its
 * name is the name .modinfo must give. Steps: Documentation/modules.rst.
 */
struct module *load_module_blob(const struct module_blob *blob);
struct module *load_module_blob_args(const struct module_blob *blob,
				     const char *args);
/*
 * Writes "name=value" for each of mod's parameters through emit (the
 * value as its getter shows it, without the '\n'). Needs module_mutex,
 * mod live. 0, or -ENOMEM.
 */
int module_params_show(struct module *mod,
		       void (*emit)(const char *name, const char *value,
				    void *data),
		       void *data);
/*
 * Each "key=value" record of blob's .modinfo, in order, through emit
 * (name=, license=, parm=name:description, parmtype=name:type, ...), after
 * the loader's checks of the whole file: 0, or their -errno.
 */
int module_blob_modinfo(const struct module_blob *blob,
			void (*emit)(const char *key, const char *value,
				     void *data),
			void *data);
/* Loads name unless it is loaded: 0, or load_module()'s error. */
int request_module(const char *name);
/*
 * Runs its exit and frees it: 0, -ENOENT (no such module), -EBUSY (in use:
 * another module uses it or a reference is held; a message names why).
 */
int delete_module(const char *name);
/* The loaded module called name, or NULL. Needs module_mutex. */
struct module *find_module(const char *name);

/*
 * A hook run for every module that goes, after its exit or its failed
 * init and before its memory is freed, without module_mutex held: fn
 * drops what points into mod. Hooks stay for good; fn may not add one.
 */
struct module_going_hook {
	void (*fn)(struct module *mod);
	struct list_head list;
};
void module_going_hook_add(struct module_going_hook *hook);
/* The loader's: runs every hook for mod. */
void module_going_hooks_run(struct module *mod);

bool try_module_get(struct module *mod);
void __module_get(struct module *mod);
void module_put(struct module *mod);
unsigned int module_refcount(struct module *mod);

/* The module whose memory holds addr, or NULL (any region, init too). */
struct module *__module_address(unsigned long addr);
/* Same, for text (MOD_TEXT and, while it exists, MOD_INIT_TEXT). */
struct module *__module_text_address(unsigned long addr);
bool is_module_text_address(unsigned long addr);

static inline bool within_module_mem_type(unsigned long addr,
					  const struct module *mod,
					  enum mod_mem_type type)
{
	unsigned long base = (unsigned long)mod->mem[type].base;

	return base && addr - base < mod->mem[type].size;
}

static inline bool within_module_init(unsigned long addr,
				      const struct module *mod)
{
	return within_module_mem_type(addr, mod, MOD_INIT_TEXT) ||
	       within_module_mem_type(addr, mod, MOD_INIT_RODATA) ||
	       within_module_mem_type(addr, mod, MOD_INIT_DATA);
}

/* The text region of mod holding [addr, addr + len), or MOD_MEM_NUM_TYPES. */
static inline enum mod_mem_type
module_text_region(const struct module *mod, unsigned long addr,
		   unsigned long len)
{
	static const enum mod_mem_type text[] = { MOD_TEXT, MOD_INIT_TEXT };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(text); i++)
		if (within_module_mem_type(addr, mod, text[i]) &&
		    within_module_mem_type(addr + len - 1, mod, text[i]))
			return text[i];
	return MOD_MEM_NUM_TYPES;
}

/* True if [addr, addr + len) lies in one of mod's writable data regions. */
static inline bool within_module_data(unsigned long addr, unsigned long len,
				      const struct module *mod)
{
	static const enum mod_mem_type data[] = { MOD_DATA, MOD_RO_AFTER_INIT };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(data); i++)
		if (within_module_mem_type(addr, mod, data[i]) &&
		    within_module_mem_type(addr + len - 1, mod, data[i]))
			return true;
	return false;
}

/*
 * The per-CPU reserve for modules (CONFIG_MODULE_PERCPU_RESERVE bytes of
 * every possible CPU's area): its size, the bytes no module holds, and
 * whether the template address addr is in a loaded module's chunk.
 */
size_t module_percpu_reserve_size(void);
size_t module_percpu_free_bytes(void);
bool is_module_percpu_address(unsigned long addr);

/* For %pS: the symbol of a module holding addr, and the module's name. */
const char *module_kallsyms_lookup(unsigned long addr, unsigned long *size,
				   unsigned long *offset,
				   const char **modname);
#else
static inline bool try_module_get(struct module *mod)
{
	return true;
}

static inline void __module_get(struct module *mod)
{
}

static inline void module_put(struct module *mod)
{
}

static inline struct module *__module_address(unsigned long addr)
{
	return NULL;
}

static inline struct module *__module_text_address(unsigned long addr)
{
	return NULL;
}

static inline bool is_module_text_address(unsigned long addr)
{
	return false;
}

static inline const char *module_kallsyms_lookup(unsigned long addr,
						 unsigned long *size,
						 unsigned long *offset,
						 const char **modname)
{
	return NULL;
}

/* No module ever goes. */
struct module_going_hook {
	void (*fn)(struct module *mod);
	struct list_head list;
};
static inline void module_going_hook_add(struct module_going_hook *hook)
{
}
#endif /* CONFIG_MODULES */

/* True if addr lies in any region of mod (init ones while they exist). */
static inline bool within_module(unsigned long addr, const struct module *mod)
{
	unsigned long base;
	int t;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++) {
		base = (unsigned long)mod->mem[t].base;
		if (base && addr - base < mod->mem[t].size)
			return true;
	}
	return false;
}

/*
 * What may still point into a module once its exit has run, asked by
 * delete_module() before the memory goes (Documentation/modules.rst,
 * "Unloading"): each returns true after writing into buf, in one phrase,
 * the first it finds whose function or whose own structure lies in mod:
 * a pending or running timer (kernel/time/timer.c), a queued or running
 * work item (kernel/workqueue.c), a queued or running RCU callback
 * (kernel/rcu/tree.c), a kthread that has not exited (kernel/kthread.c),
 * a probe registered on a tracepoint (kernel/tracepoint.c). Each takes
 * its own subsystem's lock only.
 */
bool timers_point_into(const struct module *mod, char *buf, size_t len);
bool work_points_into(const struct module *mod, char *buf, size_t len);
bool rcu_callbacks_point_into(const struct module *mod, char *buf,
			      size_t len);
bool kthreads_point_into(const struct module *mod, char *buf, size_t len);
bool tracepoint_probes_point_into(const struct module *mod, char *buf,
				  size_t len);

/*
 * The module side. Inside a module (built with -DMODULE), THIS_MODULE is
 * the module itself: __this_module is resolved by the loader, not
 * exported. module_init()/module_exit() name init_module/cleanup_module,
 * which the loader looks up (aliases that copy fn's attributes: an __init
 * function is __cold, and an alias may not be less restrictive than its
 * target). .modinfo holds NUL-terminated "key=value"
 * strings: name= (from KBUILD_MODNAME), license=, description=, author=.
 * Built into the kernel, module_init() is a device_initcall and
 * module_exit() is dropped.
 */
#define __MODULE_INFO(tag, info)                                        \
	static const char __UNIQUE_ID(modinfo)[] __used                 \
		__section(".modinfo") __aligned(1) = #tag "=" info

#ifdef MODULE
extern struct module __this_module;
#define THIS_MODULE (&__this_module)

#define module_init(fn)                                                 \
	static inline initcall_t __maybe_unused __inittest(void)        \
	{                                                               \
		return fn;                                              \
	}                                                               \
	int init_module(void) __copy(fn) __attribute__((alias(#fn)))

#define module_exit(fn)                                                 \
	static inline void (*__exittest(void))(void)                   \
	{                                                               \
		return fn;                                              \
	}                                                               \
	void cleanup_module(void) __copy(fn) __attribute__((alias(#fn)))

#define MODULE_INFO(tag, info) __MODULE_INFO(tag, info)
#else
#define THIS_MODULE ((struct module *)0)
#define module_init(fn) device_initcall(fn)
#define module_exit(fn)                                                 \
	static inline void (*__exittest(void))(void)                    \
	{                                                               \
		return fn;                                              \
	}
/* Built in: no .modinfo to carry. */
#define MODULE_INFO(tag, info)
#endif

#define MODULE_LICENSE(l) MODULE_INFO(license, l)
#define MODULE_DESCRIPTION(d) MODULE_INFO(description, d)
#define MODULE_AUTHOR(a) MODULE_INFO(author, a)
/* "pre: a b": modules to load first (modprobe's; the KUnit harness's). */
#define MODULE_SOFTDEP(_softdep) MODULE_INFO(softdep, _softdep)

/*
 * The jump-label hooks of the loader (kernel/jump_label/module.c), called
 * with module_mutex held (they assert it). prepare: checks every entry
 * (site in the module's text holding the JMP the assembler emitted, key
 * in kernel or module data, no two sites overlapping): 0, or after a
 * message naming the module and the entry, -EINVAL (a bad entry), -EBUSY
 * (a key read-only after its owner's init, which has not ended), -ENOMEM.
 * __add, in a text batch holding the hotplug lock, jump_label_mutex and
 * text_mutex (the loader's one write of its text sites,
 * kernel/module/text_sites.c): sorts its table, links its keys and
 * queues into @b each site whose key's state is not the JMP's; 0, or
 * -ENOMEM after a message with nothing linked.
 * init_done: before the init regions are freed. del (__del with the
 * hotplug lock and jump_label_mutex held): when it goes (after exit,
 * after a failed init, or when a later step of the load fails), unlinks
 * every entry; nothing is written.
 */
struct text_batch;
int jump_label_module_prepare(struct module *mod);
int __jump_label_module_add(struct text_batch *b, struct module *mod);
void __jump_label_module_del(struct module *mod);

/*
 * For tests: called by a load with every lock of its sites' write held,
 * before it links its static calls (0) and before it links its keys (1);
 * only with CONFIG_TEXT_PATCH_TEST_HOOKS, else the call compiles away.
 */
extern void (*module_text_sites_test_hook)(unsigned int step);
void jump_label_module_init_done(struct module *mod);
void jump_label_module_del(struct module *mod);
/* After exit: runs the pending dec of each deferred key mod defines. */
void jump_label_module_flush(struct module *mod);

/*
 * The static-call hooks of the loader (kernel/static_call/module.c). find,
 * at step 6: finds the sites in the relocations and checks them (0, or
 * -ENOEXEC after a line). __add, in the text batch of step 8, holding
 * static_call_mutex: resolves, checks and links the sites to their keys
 * (0 or -errno after a line, nothing left behind); __queue queues each
 * site's instruction into @b; __unlink undoes __add. init_done: before the
 * init text is freed its sites go; del: after exit or a failed init, all
 * go; free: frees what find allocated (also when __add was never reached).
 */
struct load_info;
int static_call_module_find(struct load_info *info, struct module *mod);
int __static_call_module_add(struct module *mod);
void __static_call_module_queue(struct text_batch *b, struct module *mod);
void __static_call_module_unlink(struct module *mod);
void static_call_module_init_done(struct module *mod);
void static_call_module_del(struct module *mod);
void static_call_module_free(struct module *mod);

#endif /* _LINUX_MODULE_H */
