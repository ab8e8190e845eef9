// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel the static key engine runs on in its host fuzzer: what
 * kernel/jump_label/, kernel/static_call/, kernel/module/text_sites.c and
 * the x86 site encoders (arch/x86/kernel/{jump_label,static_call}.c) call,
 * built against the kernel's own headers and implemented over host.h
 * (pthreads). Everything here keeps the contract of the kernel's version
 * that the engine relies on:
 *
 *   - per-CPU data through %gs, as in the kernel: each thread has its own
 *     copy of the fuzz_percpu section, its GS base pointing at it, so the
 *     headers' inline this_cpu_*() and current work unchanged;
 *   - mutexes that sleep and record their owner (lockdep_assert_held());
 *   - the CPU hotplug lock: nested reads granted, one writer, and
 *     cpus_lock_held() true for a reader or the writer;
 *   - kmalloc() that can be told to fail, and counts what is live;
 *   - a delayed-work queue with one worker thread and a 1 ms jiffy;
 *   - a patch engine that writes queued bytes into fake text under
 *     text_mutex (the int3 protocol itself is the SPIN model's, not this);
 *   - WARNs counted (and printed): the driver says how many it expects.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <asm/text-patching.h>
#include "host.h"
#include "fuzz.h"

/* Per-CPU data: the template every thread's copy starts from. */
#define FUZZ_PERCPU __section("fuzz_percpu")
FUZZ_PERCPU struct task_struct *current_task;
FUZZ_PERCPU unsigned int cpu_number;
FUZZ_PERCPU int __preempt_count = PREEMPT_ENABLED;
FUZZ_PERCPU int sched_need_resched;
FUZZ_PERCPU unsigned long this_cpu_off;
extern char __start_fuzz_percpu[], __stop_fuzz_percpu[];

_Thread_local unsigned long fuzz_irq_flags = X86_EFLAGS_IF;

/*
 * Every thread's area and task, kept for the whole run: a thread's last
 * message may still read current.
 */
#define FUZZ_THREADS 80
static struct {
	char *area;
	struct task_struct *task;
} threads[FUZZ_THREADS];

unsigned long fuzz_thread_gs(unsigned int cpu, const char *name)
{
	unsigned long size = __stop_fuzz_percpu - __start_fuzz_percpu;
	static atomic_t pids = ATOMIC_INIT(0);
	int n = atomic_inc_return(&pids);
	struct task_struct *t;
	unsigned long off;
	char *area;

	if (n > FUZZ_THREADS)
		panic("fuzz: more than %d threads", FUZZ_THREADS);
	area = host_malloc(size);
	t = host_malloc(sizeof(*t));
	if (!area || !t)
		panic("fuzz: out of host memory for a thread");
	threads[n - 1].area = area;
	threads[n - 1].task = t;
	off = (unsigned long)area - (unsigned long)__start_fuzz_percpu;
	memcpy(area, __start_fuzz_percpu, size);
	memset(t, 0, sizeof(*t));
	t->pid = n;
	t->cpu = cpu;
	memcpy(t->comm, name, min(strlen(name) + 1, sizeof(t->comm) - 1));
	*(struct task_struct **)((char *)&current_task + off) = t;
	*(unsigned int *)((char *)&cpu_number + off) = cpu;
	*(unsigned long *)((char *)&this_cpu_off + off) = off;
	return off;
}

void preempt_schedule(void)
{
}

void spin_lock_slowpath(spinlock_t *lock)
{
	while (!do_raw_spin_trylock(lock))
		host_yield();
}

/* ---- messages ---------------------------------------------------------- */

static void *print_lock;
atomic_t fuzz_warnings = ATOMIC_INIT(0);
bool fuzz_quiet;

static int fuzz_vprint(const char *fmt, va_list args)
{
	char buf[512];
	int n = vsnprintf(buf, sizeof(buf), fmt, args);
	const char *s = buf;

	if (s[0] == KERN_SOH[0] && s[1])
		s += 2;
	host_lock(print_lock);
	host_write(s, strlen(s));
	host_unlock(print_lock);
	return n;
}

int fuzz_print(const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = fuzz_vprint(fmt, args);
	va_end(args);
	return n;
}

/* The engine's messages: said with -v only (the refusals the runs provoke). */
int vprintk(const char *fmt, va_list args)
{
	char buf[512];

	if (fuzz_quiet)
		return vsnprintf(buf, sizeof(buf), fmt, args);
	return fuzz_vprint(fmt, args);
}

int printk(const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vprintk(fmt, args);
	va_end(args);
	return n;
}

void __warn(const char *file, int line, unsigned long caller, const char *fmt,
	    ...)
{
	va_list args;

	atomic_inc(&fuzz_warnings);
	if (file)
		fuzz_print("WARNING: at %s:%d, caller %pS\n", file, line,
			   (void *)caller);
	else
		fuzz_print("WARNING: caller %pS\n", (void *)caller);
	if (fmt) {
		va_start(args, fmt);
		fuzz_vprint(fmt, args);
		va_end(args);
	}
}

void panic(const char *fmt, ...)
{
	va_list args;

	fuzz_print("Kernel panic - not syncing: ");
	va_start(args, fmt);
	fuzz_vprint(fmt, args);
	va_end(args);
	fuzz_print("\n");
	host_fail();
}

/* %pS: the fuzzer's own objects by name (fuzz_lookup()), others as hex. */
static int fuzz_symbol(char *buf, size_t size, unsigned long addr, bool offset)
{
	unsigned long base, len;
	const char *name;

	name = fuzz_lookup(addr, &base, &len);
	if (!name)
		return snprintf(buf, size, "0x%lx", addr);
	if (!offset)
		return snprintf(buf, size, "%s", name);
	return snprintf(buf, size, "%s+0x%lx/0x%lx", name, addr - base, len);
}

int sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	return fuzz_symbol(buf, size, addr, true);
}

int sprint_symbol_no_offset(char *buf, size_t size, unsigned long addr)
{
	return fuzz_symbol(buf, size, addr, false);
}

int sprint_backtrace(char *buf, size_t size, unsigned long addr)
{
	return fuzz_symbol(buf, size, addr - 1, true);
}

/* ---- memory ------------------------------------------------------------ */

atomic_t fuzz_live_allocs = ATOMIC_INIT(0);
_Thread_local unsigned int fuzz_fail_alloc_after; /* 0: never; n: the nth */

void *kmalloc(size_t size, gfp_t flags)
{
	void *p;

	if (fuzz_fail_alloc_after && !--fuzz_fail_alloc_after)
		return NULL;
	p = host_malloc(size ? size : 1);
	if (!p)
		panic("fuzz: out of host memory");
	if (flags & __GFP_ZERO)
		memset(p, 0, size);
	atomic_inc(&fuzz_live_allocs);
	return p;
}

void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size, flags);
}

void kfree(const void *p)
{
	if (!p)
		return;
	atomic_dec(&fuzz_live_allocs);
	host_free((void *)p);
}

/* ---- sleeping locks ---------------------------------------------------- */

/*
 * struct mutex keeps the kernel's layout (its owner is read inline by
 * lockdep_assert_held()); the host lock behind each one is found in a
 * small table by the mutex's address, made on first use.
 */
#define FUZZ_MUTEXES 64
static struct {
	struct mutex *m;
	void *host;
} mutexes[FUZZ_MUTEXES];
static void *mutexes_lock;

static void *mutex_host(struct mutex *m)
{
	unsigned int i;
	void *h = NULL;

	host_lock(mutexes_lock);
	for (i = 0; i < FUZZ_MUTEXES && mutexes[i].m; i++)
		if (mutexes[i].m == m)
			break;
	if (i == FUZZ_MUTEXES)
		panic("fuzz: more than %d mutexes", FUZZ_MUTEXES);
	if (!mutexes[i].m) {
		mutexes[i].m = m;
		mutexes[i].host = host_lock_new();
	}
	h = mutexes[i].host;
	host_unlock(mutexes_lock);
	return h;
}

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
{
	memset(lock, 0, sizeof(*lock));
	lock->name = name;
	INIT_LIST_HEAD(&lock->wait_list);
}

void mutex_lock(struct mutex *lock)
{
	if (mutex_is_owner(lock))
		panic("fuzz: %s/%d takes %s again: a deadlock", current->comm,
		      current->pid, lock->name);
	host_lock(mutex_host(lock));
	WRITE_ONCE(lock->owner_pid, current->pid);
	WRITE_ONCE(lock->owner, (unsigned long)current);
}

int mutex_trylock(struct mutex *lock)
{
	mutex_lock(lock); /* the engine only tries locks it can wait for */
	return 1;
}

void mutex_unlock(struct mutex *lock)
{
	if (!mutex_is_owner(lock))
		panic("fuzz: %s/%d unlocks %s, which it does not hold",
		      current->comm, current->pid, lock->name);
	WRITE_ONCE(lock->owner, 0);
	WRITE_ONCE(lock->owner_pid, 0);
	host_unlock(mutex_host(lock));
}

/* The CPU hotplug lock, with kernel/cpu.c's semantics the engine uses. */
static void *hotplug_rw;
static _Thread_local unsigned int cpus_reads;
static struct task_struct *cpus_writer;

void cpus_read_lock(void)
{
	if (READ_ONCE(cpus_writer) == current)
		return; /* the writer's own reads are no-ops */
	if (!cpus_reads++)
		host_read_lock(hotplug_rw);
}

void cpus_read_unlock(void)
{
	if (READ_ONCE(cpus_writer) == current)
		return;
	if (!cpus_reads)
		panic("fuzz: cpus_read_unlock() without a hold");
	if (!--cpus_reads)
		host_read_unlock(hotplug_rw);
}

void cpus_write_lock(void)
{
	if (cpus_reads)
		panic("fuzz: cpus_write_lock() under a read hold: a deadlock");
	host_write_lock(hotplug_rw);
	WRITE_ONCE(cpus_writer, current);
}

void cpus_write_unlock(void)
{
	if (READ_ONCE(cpus_writer) != current)
		panic("fuzz: cpus_write_unlock() by a task that does not hold it");
	WRITE_ONCE(cpus_writer, NULL);
	host_write_unlock(hotplug_rw);
}

bool cpus_lock_held(void)
{
	return cpus_reads || READ_ONCE(cpus_writer) == current;
}

/* ---- delayed work ------------------------------------------------------ */

/*
 * One worker runs the items in order of their due time; a jiffy is a
 * millisecond of the host's clock. flush_delayed_work() makes a pending
 * item due now and waits until it has run, as the kernel's does.
 */
static struct workqueue_struct fuzz_wq = { .name = "fuzz_wq" };
struct workqueue_struct *system_wq = &fuzz_wq;
static void *wq_lock, *wq_cond;
static LIST_HEAD(wq_items);
static bool wq_stop;
static void *wq_thread;
#define FUZZ_JIFFY_NS 1000000ull

void delayed_work_timer_fn(struct timer_list *t)
{
	panic("fuzz: a delayed work's timer fired outside the fuzz workqueue");
}

void __timer_setup(struct timer_list *timer, void (*func)(struct timer_list *),
		   unsigned int flags)
{
	memset(timer, 0, sizeof(*timer));
	timer->function = func;
	timer->flags = flags;
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	struct work_struct *w = &dwork->work;
	bool queued = false;

	host_lock(wq_lock);
	if (!w->pending) {
		WRITE_ONCE(w->pending, true);
		dwork->timer.expires = host_now_ns() + delay * FUZZ_JIFFY_NS;
		list_add_tail(&w->entry, &wq_items);
		host_cond_broadcast(wq_cond);
		queued = true;
	}
	host_unlock(wq_lock);
	return queued;
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	struct work_struct *w = &dwork->work;
	bool waited = false;

	host_lock(wq_lock);
	if (w->pending) {
		dwork->timer.expires = 0;
		host_cond_broadcast(wq_cond);
	}
	while (w->pending || w->running) {
		waited = true;
		host_cond_wait(wq_cond, wq_lock);
	}
	host_unlock(wq_lock);
	return waited;
}

unsigned int fuzz_work_pending(void)
{
	unsigned int n = 0;
	struct work_struct *w;

	host_lock(wq_lock);
	list_for_each_entry(w, &wq_items, entry)
		n++;
	host_unlock(wq_lock);
	return n;
}

/* The next due item, removed and marked running; NULL once stopped. */
static struct work_struct *wq_next(void)
{
	struct work_struct *w, *first;
	unsigned long long now, due;

	for (;;) {
		if (wq_stop && list_empty(&wq_items))
			return NULL;
		first = NULL;
		list_for_each_entry(w, &wq_items, entry)
			if (!first ||
			    to_delayed_work(w)->timer.expires <
				    to_delayed_work(first)->timer.expires)
				first = w;
		now = host_now_ns();
		if (!first) {
			host_cond_wait(wq_cond, wq_lock);
			continue;
		}
		due = to_delayed_work(first)->timer.expires;
		if (due > now && !wq_stop) {
			host_cond_wait_until(wq_cond, wq_lock, due);
			continue;
		}
		list_del_init(&first->entry);
		WRITE_ONCE(first->pending, false);
		first->running++;
		return first;
	}
}

static void wq_worker(void *unused)
{
	struct work_struct *w;

	host_lock(wq_lock);
	while ((w = wq_next())) {
		host_unlock(wq_lock);
		w->func(w);
		host_lock(wq_lock);
		w->running--;
		host_cond_broadcast(wq_cond);
	}
	host_unlock(wq_lock);
}

/* ---- modules ----------------------------------------------------------- */

DEFINE_MUTEX(module_mutex);
LIST_HEAD(modules);

struct module *__module_address(unsigned long addr)
{
	struct module *mod;
	int t;

	list_for_each_entry(mod, &modules, list)
		for (t = 0; t < MOD_MEM_NUM_TYPES; t++)
			if (within_module_mem_type(addr, mod, t))
				return mod;
	return NULL;
}

const char *module_kallsyms_lookup(unsigned long addr, unsigned long *size,
				   unsigned long *offset, const char **modname)
{
	struct module *mod = __module_address(addr);
	unsigned long base;
	const char *name;

	if (!mod)
		return NULL;
	name = fuzz_lookup(addr, &base, size);
	if (!name)
		return NULL;
	*offset = addr - base;
	*modname = mod->name;
	return name;
}

/* The ELF half of static_call/module.c: the fuzzer fills the sites itself. */
u64 module_section_addr(const struct load_info *info, unsigned int i)
{
	panic("fuzz: module_section_addr() called: no ELF here");
}

unsigned int module_find_section(const struct load_info *info, const char *name)
{
	panic("fuzz: module_find_section() called: no ELF here");
}

/* ---- the patch engine -------------------------------------------------- */

DEFINE_MUTEX(text_mutex);

/*
 * The queue of <asm/text-patching.h>, which the arch's encoders write in
 * place (text_poke_queue_reserve(), text_poke_queue_commit()):
 * text_poke_finish() writes every queued change, in order, under
 * text_mutex, and counts the batch: the int3 dance has nothing to protect
 * here (no thread executes the fake text).
 */
struct text_poke_loc *tp_vec;
unsigned int tp_nr, tp_cap;
bool tp_unsorted;
unsigned long fuzz_batches, fuzz_poked_sites, fuzz_drop_write;

void text_poke_make_room(void)
{
	unsigned int cap = tp_cap ? 2 * tp_cap : 64;
	struct text_poke_loc *v;

	lockdep_assert_held(&text_mutex);
	v = host_malloc(cap * sizeof(*v));
	if (!v)
		panic("fuzz: out of host memory for the batch");
	if (tp_nr)
		memcpy(v, tp_vec, tp_nr * sizeof(*v));
	host_free(tp_vec);
	tp_vec = v;
	tp_cap = cap;
}

void text_poke_queue(void *addr, const void *opcode, size_t len)
{
	struct text_poke_loc *tp;

	lockdep_assert_held(&text_mutex);
	tp = text_poke_queue_reserve();
	text_poke_queue_commit(tp, addr, len);
	memcpy(tp->opcode, opcode, len);
}

void text_poke_finish(void)
{
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	if (!tp_nr)
		return;
	for (i = 0; i < tp_nr; i++) {
		if (!fuzz_in_text(tp_vec[i].addr, tp_vec[i].len))
			panic("fuzz: a poke of %u bytes at %pS, outside the fake text",
			      tp_vec[i].len, tp_vec[i].addr);
		if (fuzz_poked_sites + i + 1 != fuzz_drop_write)
			memcpy(tp_vec[i].addr, tp_vec[i].opcode, tp_vec[i].len);
	}
	fuzz_batches++;
	fuzz_poked_sites += tp_nr;
	tp_nr = 0;
	tp_unsorted = false;
}

void text_poke_finish_nx(void)
{
	text_poke_finish();
}

/* The text batch's apply hook, as arch/x86/kernel/text_patch.c has it. */
void arch_text_batch_apply(enum text_batch_mode mode)
{
	if (mode == TEXT_BATCH_NOT_LIVE)
		text_poke_finish_nx();
	else
		text_poke_finish();
}

/* ---- boot -------------------------------------------------------------- */

void fuzz_kernel_init(void)
{
	print_lock = host_lock_new();
	mutexes_lock = host_lock_new();
	hotplug_rw = host_rwlock_new();
	wq_lock = host_lock_new();
	wq_cond = host_cond_new();
	wq_thread = host_thread_start(wq_worker, NULL,
				      fuzz_thread_gs(0, "kworker/0"));
}

void fuzz_kernel_exit(void)
{
	host_lock(wq_lock);
	wq_stop = true;
	host_cond_broadcast(wq_cond);
	host_unlock(wq_lock);
	host_thread_join(wq_thread);
}
