// SPDX-License-Identifier: GPL-2.0
/*
 * Writing kernel text while other CPUs run it.
 *
 * Text is mapped read-only and has no writable alias (the direct map's copy
 * of it is read-only too), so every write goes through a fixmap alias: the
 * page is mapped writable at FIX_TEXT_POKE0 (and the next one right after
 * it, at FIX_TEXT_POKE1, when a write straddles the boundary), written and
 * unmapped again. A pass of a batch writes many sites under one mapping per
 * page, and the alias stays for the batch's next pass (text_mutex keeps it
 * ours); the batch's last pass reads every site back through the text
 * mapping. text_poke() is one write, for one CPU, read back at once.
 *
 * A batch changes many instructions at once, safely for CPUs that may be
 * executing them, with the int3 protocol:
 *
 *   1. publish the batch, sorted by address, and arm every CPU's reference;
 *   2. write int3 (0xcc) over the first byte of every site;   sync all CPUs
 *   3. write the rest of every site's new instruction;        sync all CPUs
 *   4. write the first byte of every site's new instruction;  sync all CPUs
 *      (with the other CPUs parked during the write, see below)
 *   5. drop every CPU's reference (waiting for any still in the handler)
 *      and retire the batch.
 *
 * Between 2 and 4 a CPU may execute an int3 at a site; poke_int3_handler()
 * finds the site by binary search in the batch and emulates the new
 * instruction, so every CPU sees either the old or the new instruction and
 * never a torn one. "Sync" runs sync_core() through an IPI on every online
 * CPU that is in the kernel, and waits: three rounds a batch, whatever its
 * size. A CPU that is idle or in user mode is not interrupted: it
 * serializes when it enters the kernel again, if a round moved the text
 * generation meanwhile (text_sync.c). There is no limit on the size of a
 * batch (Linux flushes every 256 sites).
 *
 * Each CPU takes a reference on the batch in its own per-CPU counter before
 * looking at it, so the patching CPU can tell when no CPU is still inside
 * the handler without a counter that every CPU writes.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/irqflags.h>
#include <linux/jump_label_arch.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <asm/fixmap.h>
#include <asm/nmi.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/static_call.h>
#include <asm/text-patching.h>
#include <asm/text-patching-stats.h>
#include <asm/text-sync.h>
#include <asm/traps.h>
#include <trace/events/text_poke.h>

/* The numbers the events give the batch and the round in flight. */
#define TP_BATCH (text_poke_stats.batches + 1)
#define TP_ROUND (text_poke_stats.sync_rounds + 1)

DEFINE_MUTEX(text_mutex);

struct text_poke_stats text_poke_stats;
EXPORT_SYMBOL_GPL(text_poke_stats);
static DEFINE_PER_CPU(unsigned long, int3_hits);
static DEFINE_PER_CPU(unsigned long, int3_nmi_hits); /* in NMI context */

/* text_poke.batch=0: one site per batch, three syncs each (for comparison). */
bool text_poke_batching = true;
core_param_named("text_poke.batch", text_poke_batching, bool);

#ifdef CONFIG_TEXT_PATCH_TEST_HOOKS
void (*text_poke_test_hook)(enum text_poke_step step);
#endif

/*
 * text_poke.park=auto|on|off: whether step 4 of a batch parks the other
 * CPUs (see text_poke_bp_batch()). auto, the default, parks under QEMU's
 * TCG, which needs it, and nowhere else, where the protocol does not.
 */
static const char *const tp_park_names[] = {
	[TEXT_POKE_PARK_AUTO] = "auto",
	[TEXT_POKE_PARK_ON] = "on",
	[TEXT_POKE_PARK_OFF] = "off",
};
static int tp_park_mode = TEXT_POKE_PARK_AUTO;
static bool tp_park = true; /* what tp_park_mode means here, from init */

int text_poke_param_park(const char *val, const struct kernel_param *kp)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(tp_park_names); i++) {
		if (!strcmp(val, tp_park_names[i])) {
			*(int *)kp->arg = i;
			return 0;
		}
	}
	return -EINVAL;
}
core_param_cb("text_poke.park", text_poke_param_park, tp_park_mode);

/* Set at boot: the int3 handler's rewrite of a stale int3 is for TCG. */
static bool tp_under_tcg __ro_after_init;

/* QEMU's TCG says so in CPUID's hypervisor leaf: "TCGTCGTCGTCG". */
bool text_poke_under_tcg(void)
{
	u32 sig[3], a, c, d, b;

	cpuid(1, &a, &b, &c, &d);
	if (!(c & (1U << 31))) /* no hypervisor */
		return false;
	cpuid(0x40000000, &a, &sig[0], &sig[1], &sig[2]);
	return !memcmp(sig, "TCGTCGTCGTCG", sizeof(sig));
}

bool text_poke_parks(void)
{
	return tp_park;
}

/*
 * The queue. It starts in a static array, so queueing never fails: when a
 * bigger array cannot be had, what is queued is applied and the array is
 * reused. A grown array is freed when its batch is done.
 */
#define TP_STATIC_CAP 16

static struct text_poke_loc tp_static[TP_STATIC_CAP];
struct text_poke_loc *tp_vec = tp_static;
unsigned int tp_nr, tp_cap = TP_STATIC_CAP;
bool tp_unsorted;

/* The batch being applied, as the int3 handler sees it. */
static struct {
	struct text_poke_loc *vec;
	unsigned int nr;
} bp_desc;
static DEFINE_PER_CPU(atomic_t, bp_refs);
/* Stale int3s run again (tp_int3_stale()): the last one, and how many. */
static DEFINE_PER_CPU(unsigned long, stale_int3_ip);
static DEFINE_PER_CPU(unsigned long, stale_int3_batch);
static DEFINE_PER_CPU(unsigned long, stale_int3s);

/* A module's text: the page tables' walk. */
static noinline phys_addr_t text_virt_to_phys_walk(unsigned long va)
{
	unsigned long mask;
	pteval_t *pte;
	bool large;

	pte = lookup_pte(va, &large);
	mask = large ? PMD_SIZE - 1 : PAGE_SIZE - 1;
	if (!pte)
		panic("text_poke: %pS (%#lx) is not mapped", (void *)va, va);
	return (*pte & PTE_PFN_MASK & ~(u64)mask) | (va & mask);
}

/* The kernel image is mapped at a fixed offset; modules need the walk. */
static __always_inline phys_addr_t text_virt_to_phys(unsigned long va)
{
	if (va >= (unsigned long)_text && va < (unsigned long)_end)
		return __pa_symbol(va);
	return text_virt_to_phys_walk(va);
}

/*
 * The writable alias of one text page, and of the next one if needed: the
 * two fixmap slots are adjacent, so [page, page + mapped) is written at
 * base + offset.
 */
struct tp_alias {
	unsigned long page;	/* the text page mapped at FIX_TEXT_POKE0 */
	u8 *base;		/* its alias */
	unsigned long mapped;	/* 0, PAGE_SIZE, or 2 pages (FIX_TEXT_POKE1) */
};

static void tp_alias_unmap(struct tp_alias *a)
{
	if (a->mapped > PAGE_SIZE)
		clear_fixmap(FIX_TEXT_POKE1);
	if (a->mapped)
		clear_fixmap(FIX_TEXT_POKE0);
	a->mapped = 0;
	a->page = 0; /* text is far above: its offsets are huge */
}

/* The mapping for [va, va + len) when the current one does not hold it. */
static noinline u8 *tp_alias_remap(struct tp_alias *a, unsigned long va,
				   size_t len)
{
	unsigned long page = va & PAGE_MASK;

	BUILD_BUG_ON(FIX_TEXT_POKE1 != FIX_TEXT_POKE0 + 1);
	tp_alias_unmap(a);
	a->page = page;
	a->base = set_fixmap(FIX_TEXT_POKE0, text_virt_to_phys(page));
	a->mapped = PAGE_SIZE;
	if (va + len > page + PAGE_SIZE) {
		set_fixmap(FIX_TEXT_POKE1, text_virt_to_phys(page + PAGE_SIZE));
		a->mapped = 2 * PAGE_SIZE;
	}
	return a->base + (va - page);
}

/*
 * Where to write len bytes of text at va, va at or above the mapped page
 * (a pass goes up through a sorted batch); maps only when the mapping does
 * not hold them. One compare per write.
 */
static __always_inline u8 *tp_alias_map_up(struct tp_alias *a,
					   unsigned long va, size_t len)
{
	unsigned long off = va - a->page;

	if (likely(off + len <= a->mapped))
		return a->base + off;
	return tp_alias_remap(a, va, len);
}

/* The same for any va (a va below page wraps around to a huge offset). */
static __always_inline u8 *tp_alias_map(struct tp_alias *a, unsigned long va,
					size_t len)
{
	if (va < a->page)
		tp_alias_unmap(a);
	return tp_alias_map_up(a, va, len);
}

/* The pieces a batch writes are 1 to 5 bytes; text_poke() may write more. */
static __always_inline bool tp_same(const u8 *a, const u8 *b, size_t len)
{
	if (len <= POKE_MAX_OPCODE_SIZE)
		return text_insn_same(a, b, len);
	return !memcmp(a, b, len);
}

static __always_inline void tp_check(const void *addr, const void *bytes,
				     size_t len)
{
	if (unlikely(!tp_same(addr, bytes, len)))
		panic("text_poke: %pS reads %*ph after writing %*ph", addr,
		      (int)len, addr, (int)len, bytes);
}

void text_poke(void *addr, const void *opcode, size_t len)
{
	struct tp_alias alias = {};
	unsigned long flags;

	lockdep_assert_held(&text_mutex);
	BUG_ON(len > PAGE_SIZE);
	local_irq_save(flags);
	memcpy(tp_alias_map(&alias, (unsigned long)addr, len), opcode, len);
	tp_alias_unmap(&alias);
	sync_core();
	tp_check(addr, opcode, len);
	text_poke_stats.passes++;
	local_irq_restore(flags);
}

/* The three writes of the protocol: steps 2, 3 and 4. */
enum tp_pass { TP_INT3, TP_TAILS, TP_FIRST };

/* The read-back of a site through the text mapping, whole. */
static __always_inline void tp_check_site(const struct text_poke_loc *tp)
{
	u32 x, y;
	u16 p, q;

	if (tp->len == 5) {
		__builtin_memcpy(&x, tp->addr, 4);
		__builtin_memcpy(&y, tp->opcode, 4);
		if (likely(x == y && ((u8 *)tp->addr)[4] == tp->opcode[4]))
			return;
	} else if (tp->len == 2) {
		__builtin_memcpy(&p, tp->addr, 2);
		__builtin_memcpy(&q, tp->opcode, 2);
		if (likely(p == q))
			return;
	}
	tp_check(tp->addr, tp->opcode, tp->len);
}

/*
 * The writes of one pass: each pass its own loop (they run per site), the
 * alias in registers between two changes of page. A tail is 4 bytes (a
 * 5-byte site) or 1 (a 2-byte one), rarely anything else. The last pass
 * reads each site back through the text mapping as soon as it is whole:
 * x86 orders a load after this CPU's store to the same physical byte,
 * whichever mapping each goes through.
 */
static __always_inline void tp_pass_write(struct tp_alias *alias,
					  struct text_poke_loc *vec,
					  unsigned int nr, enum tp_pass pass)
{
	struct text_poke_loc *tp, *end = vec + nr;
	unsigned long va, page, mapped, off;
	unsigned int len;
	u8 *base, *dst;

	/* The previous pass ended higher up: start again from below. */
	if (nr && (unsigned long)vec[0].addr < alias->page)
		tp_alias_unmap(alias);
	/*
	 * A batch on exactly two pages maps both at its first pass, for all
	 * three, instead of remapping from one to the other twice a pass.
	 */
	if (pass == TP_INT3 && nr > 1 && !alias->mapped &&
	    ((unsigned long)vec[nr - 1].addr & PAGE_MASK) ==
		    ((unsigned long)vec[0].addr & PAGE_MASK) + PAGE_SIZE &&
	    (unsigned long)vec[nr - 1].addr + vec[nr - 1].len <=
		    ((unsigned long)vec[0].addr & PAGE_MASK) + 2 * PAGE_SIZE)
		tp_alias_remap(alias, (unsigned long)vec[0].addr & PAGE_MASK,
			       PAGE_SIZE + 1);
	page = alias->page;
	base = alias->base;
	mapped = alias->mapped;
	for (tp = vec; tp < end; tp++) {
		va = (unsigned long)tp->addr;
		len = 1;
		if (pass == TP_TAILS) {
			len = tp->len - 1;
			if (!len)
				continue;
			va++;
		}
		off = va - page;
		if (likely(off + len <= mapped)) {
			dst = base + off;
		} else {
			dst = tp_alias_remap(alias, va, len);
			page = alias->page;
			base = alias->base;
			mapped = alias->mapped;
		}
		if (pass == TP_INT3) {
			*dst = INT3_INSN_OPCODE;
		} else if (pass == TP_FIRST) {
			*dst = tp->opcode[0];
			tp_check_site(tp);
		} else if (len == 4)
			__builtin_memcpy(dst, tp->opcode + 1, 4);
		else if (len == 1)
			*dst = tp->opcode[1];
		else
			text_insn_copy(dst, tp->opcode + 1, len);
	}
}

/*
 * One pass over vec[0..nr), sorted by address: every write under one
 * mapping per page (kept in @alias from pass to pass of a batch), then one
 * serialization. The last pass reads every site back, whole.
 */
static __always_inline void text_poke_pass(struct tp_alias *alias,
					   struct text_poke_loc *vec,
					   unsigned int nr, enum tp_pass pass)
{
	unsigned long flags;

	local_irq_save(flags);
	__trace_call_outline(text_poke_pass_begin, TP_BATCH, pass, nr);
	tp_pass_write(alias, vec, nr, pass);
	sync_core();
	__trace_call_outline(text_poke_pass_end, TP_BATCH, pass, nr);
	text_poke_stats.passes++;
	local_irq_restore(flags);
}

static void do_sync_core(void *info)
{
	sync_core();
	__trace_call_outline(text_poke_sync_done, TP_ROUND, 0);
}

/*
 * One round: every online CPU in the kernel serializes its instruction
 * stream (this one did after its pass); the others will on their way
 * back in, the generation having moved (text_sync_targets()).
 */
static __always_inline void text_poke_sync(void)
{
	struct cpumask cpus;

	if (text_sync_targets(&cpus))
		smp_call_function_many(&cpus, do_sync_core, NULL, 1);
	text_poke_stats.sync_rounds++;
}

/*
 * A sync round in which the other CPUs in the kernel are parked while
 * this one writes the first bytes: each one, in its sync IPI, checks in
 * and spins until released, then serializes; a CPU entering the kernel
 * meanwhile waits at the fence the park raises (text_sync.c). Still one
 * IPI per CPU in the kernel, one round. On hardware the plain round would
 * do; see step 4 in text_poke_bp_batch() for why the last write of a
 * batch is made with everyone parked.
 */
static void do_park(void *info)
{
	__trace_call_outline(text_poke_park_begin, TP_ROUND, 1);
	text_sync_park_here();
	__trace_call_outline(text_poke_park_end, TP_ROUND, 1);
	__trace_call_outline(text_poke_sync_done, TP_ROUND, 1);
}

static void text_poke_sync_parked(struct tp_alias *alias,
				  struct text_poke_loc *vec, unsigned int nr)
{
	struct cpumask cpus;

	__trace_call_outline(text_poke_sync_begin, TP_ROUND, 1);
	if (text_sync_park_begin(&cpus))
		smp_call_function_many(&cpus, do_park, NULL, 0);
	text_sync_park_wait(&cpus);
	text_poke_pass(alias, vec, nr, TP_FIRST);
	text_sync_park_end(&cpus);
	__trace_call_outline(text_poke_sync_end, TP_ROUND, 1);
	text_poke_stats.sync_rounds++;
}

struct text_poke_stats text_poke_get_stats(void)
{
	struct text_poke_stats s = text_poke_stats;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		s.stale_int3s += READ_ONCE(per_cpu(stale_int3s, cpu));
	return s;
}
EXPORT_SYMBOL_GPL(text_poke_get_stats);

unsigned long text_poke_cpu_int3_hits(unsigned int cpu)
{
	return READ_ONCE(per_cpu(int3_hits, cpu));
}

unsigned long text_poke_cpu_int3_nmi_hits(unsigned int cpu)
{
	return READ_ONCE(per_cpu(int3_nmi_hits, cpu));
}

unsigned long text_poke_int3_hits(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(int3_hits, cpu));
	return sum;
}

/*
 * A reference on the published batch, or false when there is none. The
 * patcher reads and drops other CPUs' references (bp_retire()), so the
 * operations are locked; they address this CPU's copy through %gs, with
 * no this_cpu_ptr().
 */
static bool bp_get(void)
{
	int v = this_cpu_read(bp_refs.counter);

	while (v) {
		/* v + 1 if it is still v, else v is reloaded: try again. */
		asm goto("lock cmpxchgl %[new], %%gs:%[refs]\n\t"
			 "jz %l[got]"
			 : [refs] "+m"(bp_refs.counter), "+a"(v)
			 : [new] "r"(v + 1)
			 : "memory", "cc"
			 : got);
	}
	return false;
got:
	return true;
}

/* Drops it; a locked op, so a release: the batch was read before. */
static void bp_put(void)
{
	asm volatile("lock decl %%gs:%0"
		     : "+m"(bp_refs.counter)
		     :
		     : "memory", "cc");
}

/*
 * The batch's entry for ip into *tpp, or false if ip is none of its
 * sites: the last entry at or below ip, found by halving the range
 * without a branch on the compare (a cmov), then one compare.
 */
static bool bp_find(unsigned long ip, struct text_poke_loc **tpp)
{
	struct text_poke_loc *base = READ_ONCE(bp_desc.vec);
	unsigned long n = READ_ONCE(bp_desc.nr);

	if (unlikely(!n))
		return false;
	while (n > 1) {
		unsigned long half = n / 2;

		if ((unsigned long)base[half].addr <= ip)
			base += half;
		n -= half;
	}
	*tpp = base;
	return (unsigned long)base->addr == ip;
}

/*
 * Runs the new instruction of tp for the CPU that hit its int3: a NOP or
 * jmp (jump labels), or one of a static call site's (<asm/static_call.h>):
 * a call pushes its return address (int3_entry in entry_64.S left room
 * below the interrupted stack), a ret pops it, "mov $0, %eax" clears %rax.
 */
static void text_poke_emulate(struct pt_regs *regs,
			      const struct text_poke_loc *tp)
{
	unsigned long next = (unsigned long)tp->addr + tp->len;
	u8 op = tp->opcode[0];
	s32 rel32;
	u32 imm;

	/* A jump label's jmp first: a flip's int3 hits are mostly these. */
	if (op == JMP32_INSN_OPCODE || op == JMP8_INSN_OPCODE) {
		regs->ip = text_insn_dest(tp->opcode, tp->len,
					  (unsigned long)tp->addr);
		return;
	}
	switch (op) {
	case CALL_INSN_OPCODE:
		__builtin_memcpy(&rel32, tp->opcode + 1, sizeof(rel32));
		regs->sp -= sizeof(unsigned long);
		*(unsigned long *)regs->sp = next;
		regs->ip = next + rel32;
		break;
	case RET_INSN_OPCODE:
		regs->ip = *(unsigned long *)regs->sp;
		regs->sp += sizeof(unsigned long);
		break;
	case MOV_EAX_IMM_OPCODE:
		__builtin_memcpy(&imm, tp->opcode + 1, sizeof(imm));
		regs->rax = imm;
		regs->ip = next;
		break;
	default: /* a NOP */
		regs->ip = next;
	}
}

/*
 * The text_poke_int3 event, without a site of its own: a site in this
 * handler that the batch in flight rewrites (this event's, when it is
 * switched, or one on the tracer's path) would be an int3 the handler
 * hits again and again. So the caller reads the key, which is not
 * patched, and an int3 taken inside the tracer's path (nested) is not
 * traced, nor one taken in an NMI, which may have interrupted the tracer
 * between its check and its mark. Cold, as every event's call here: out
 * of the engine's text.
 */
static DEFINE_PER_CPU(int, int3_tracing);

static __cold noinline void tp_trace_int3(void *site, unsigned long to)
{
	if (in_nmi() || this_cpu_read(int3_tracing))
		return;
	this_cpu_write(int3_tracing, 1);
	__traceiter_text_poke_int3(NULL, site, to);
	this_cpu_write(int3_tracing, 0);
}

/*
 * An int3 that no batch in flight holds, at a byte that is no longer
 * 0xcc: the int3 was removed after this CPU fetched it, and the CPU runs
 * what is there now, backing up over it (as Linux's kprobes do for a
 * breakpoint removed under them). On hardware the batch's last sync
 * round rules this out. Under QEMU's TCG it happens on a loaded host
 * (about once in 250,000 flips of the nmi_watchdog=1 entry stress, two
 * stresses at once): a translation of the int3 outlives the write that
 * removed it, the parked one included, and every CPU that runs the site
 * traps on it. A write of the byte as it is (a locked cmpxchg), through
 * a fresh mapping of this CPU's own, takes QEMU's slow path for written
 * code, which drops that translation. If the same int3 comes back within
 * the same batch count, the rewrite did not help: the caller dies. No
 * printk here (an NMI may be the one trapping): text_poke_get_stats()
 * counts them, and the stress tests report the count.
 *
 * Only with the park: text_poke.park=off is there to show what the park
 * prevents (Linux's stray int3, which make stress expects), and without
 * the park, as on hardware, a stale int3 means a bug, to die of.
 */
static __cold noinline bool tp_int3_stale(struct pt_regs *regs)
{
	unsigned long site = regs->ip - 1;
	unsigned long batch = READ_ONCE(text_poke_stats.batches);
	enum fixed_addresses slot;
	u8 now = READ_ONCE(*(u8 *)site);
	u8 *alias, old;

	if (!tp_park || now == INT3_INSN_OPCODE)
		return false;
	if (this_cpu_read(stale_int3_ip) == regs->ip &&
	    this_cpu_read(stale_int3_batch) == batch)
		return false;
	this_cpu_write(stale_int3_ip, regs->ip);
	this_cpu_write(stale_int3_batch, batch);
	this_cpu_inc(stale_int3s);
	if (tp_under_tcg) {
		slot = FIX_INT3_REWRITE0 + 2 * smp_processor_id() + !!in_nmi();
		alias = set_fixmap(slot, text_virt_to_phys(site));
		old = now;
		/* A batch that wrote the byte since leaves it alone. */
		__atomic_compare_exchange_n(alias, &old, now, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
		clear_fixmap(slot);
	}
	regs->ip = site;
	return true;
}

/*
 * The int3 hook: an int3 at a site of the batch in flight. NMI-safe: an
 * NMI may take it on top of itself on the same CPU (the NMI handler
 * passing a site), so it keeps nothing of its own but the per-CPU
 * reference, which it takes and drops with atomic instructions, and
 * reads the batch, which stays still while any reference is held.
 */
static bool poke_int3_handler(struct pt_regs *regs)
{
	struct text_poke_loc *tp;
	bool handled = false;

	if (!bp_get())
		return tp_int3_stale(regs);
	if (bp_find(regs->ip - 1, &tp)) {
		text_poke_emulate(regs, tp);
		this_cpu_inc(int3_hits);
		if (in_nmi())
			this_cpu_inc(int3_nmi_hits);
		if (static_key_enabled(&__tracepoint_text_poke_int3.key))
			tp_trace_int3(tp->addr, regs->ip);
		handled = true;
	}
	bp_put();
	return handled || tp_int3_stale(regs);
}

static struct int3_hook poke_int3_hook = { .handler = poke_int3_handler };

void __init text_poke_init(void)
{
	bool tcg = text_poke_under_tcg();

	tp_under_tcg = tcg;
	register_int3_hook(&poke_int3_hook);
	tp_park = tp_park_mode == TEXT_POKE_PARK_ON ||
		  (tp_park_mode == TEXT_POKE_PARK_AUTO && tcg);
	pr_info("text_poke: park=%s%s: the last write of a batch %s\n",
		tp_park_names[tp_park_mode], tcg ? " (under QEMU's TCG)" : "",
		tp_park ? "parks the other CPUs" : "is a plain sync round");
}

/*
 * Every possible CPU's reference, as in Linux: an offline CPU runs no
 * kernel text, so it never takes a second one, and retiring drops its 1
 * at once. So CPU hotplug needs no step of the patcher's: batches run
 * under the hotplug lock (held for reading, or for writing by a hotplug
 * callback), so no CPU comes or goes during one, and between batches
 * every reference is 0.
 */
static void bp_arm(struct text_poke_loc *vec, unsigned int nr)
{
	unsigned int cpu;

	lockdep_assert_cpus_held();
	for_each_possible_cpu(cpu)
		atomic_set(&per_cpu(bp_refs, cpu), 1);
	WRITE_ONCE(bp_desc.vec, vec);
	WRITE_ONCE(bp_desc.nr, nr);
	barrier(); /* x86 keeps stores in order: int3 after the batch */
}

static void bp_retire(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		atomic_t *refs = &per_cpu(bp_refs, cpu);

		if (!atomic_dec_and_test(refs))
			while (atomic_read_acquire(refs))
				cpu_relax();
	}
	WRITE_ONCE(bp_desc.nr, 0);
	WRITE_ONCE(bp_desc.vec, NULL);
}

/* The text_poke_site event of every site of the batch about to start. */
static __cold noinline void tp_trace_sites(struct text_poke_loc *vec,
					   unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		__trace_call_outline(text_poke_site, TP_BATCH, vec[i].addr,
				     vec[i].len, vec[i].opcode);
}

static void bp_step(enum text_poke_step step)
{
	if (IS_ENABLED(CONFIG_TEXT_PATCH_TEST_HOOKS) && text_poke_test_hook)
		text_poke_test_hook(step);
}

/*
 * Steps 1-5 of the protocol for vec[0..nr), sorted by address.
 *
 * Step 4 writes with the other CPUs parked (text_poke.park=, under TCG
 * by default). Real CPUs need only the
 * serializing IPI, but under QEMU's multi-threaded TCG a CPU that was
 * translating a site while it was written can keep a translation of the
 * old bytes -- with the int3 -- that no later serialization discards, and
 * run it after the batch is gone. With every CPU parked no translation is
 * in flight, and the write discards every translation of the site. A CPU
 * alone (text_sync_alone) has no one to park: a plain round.
 */
static void text_poke_bp_batch(struct text_poke_loc *vec, unsigned int nr)
{
	struct tp_alias alias = {};

	/*
	 * Not preemptible, although text_mutex sleeps: in step 4 the other
	 * CPUs spin, parked, until this one releases them, and the alias
	 * mapping is flushed from this CPU's TLB only.
	 */
	preempt_disable();
	__trace_call_outline(text_poke_batch_begin, TP_BATCH, nr, vec[0].addr,
			     vec[nr - 1].addr, TP_ROUND);
	if (trace_text_poke_site_enabled())
		tp_trace_sites(vec, nr);
	bp_arm(vec, nr);
	text_poke_pass(&alias, vec, nr, TP_INT3);
	__trace_call_outline(text_poke_sync_begin, TP_ROUND, 0);
	text_poke_sync();
	__trace_call_outline(text_poke_sync_end, TP_ROUND - 1, 0);
	bp_step(TEXT_POKE_INT3_WRITTEN);
	text_poke_pass(&alias, vec, nr, TP_TAILS);
	__trace_call_outline(text_poke_sync_begin, TP_ROUND, 0);
	text_poke_sync();
	__trace_call_outline(text_poke_sync_end, TP_ROUND - 1, 0);
	bp_step(TEXT_POKE_TAILS_WRITTEN);
	if (tp_park && !static_branch_unlikely(&text_sync_alone)) {
		text_poke_sync_parked(&alias, vec, nr);
		text_poke_stats.parked_rounds++;
	} else {
		text_poke_pass(&alias, vec, nr, TP_FIRST);
		__trace_call_outline(text_poke_sync_begin, TP_ROUND, 0);
		text_poke_sync();
		__trace_call_outline(text_poke_sync_end, TP_ROUND - 1, 0);
	}
	tp_alias_unmap(&alias);
	bp_retire();
	__trace_call_outline(text_poke_batch_end, TP_BATCH, nr);
	text_poke_stats.batches++;
	text_poke_stats.sites += nr;
	preempt_enable();
}

/* Eight times the room, or false if memory ran out. */
static bool text_poke_grow(void)
{
	unsigned int cap = 8 * tp_cap;
	struct text_poke_loc *v = kmalloc(cap * sizeof(*v), GFP_KERNEL);

	if (!v)
		return false;
	memcpy(v, tp_vec, tp_nr * sizeof(*v));
	if (tp_vec != tp_static)
		kfree(tp_vec);
	tp_vec = v;
	tp_cap = cap;
	return true;
}

noinline void text_poke_make_room(void)
{
	if (text_poke_grow())
		return;
	text_poke_stats.early_flushes++;
	text_poke_finish();
}

void text_poke_queue(void *addr, const void *opcode, size_t len)
{
	struct text_poke_loc *tp;

	lockdep_assert_held(&text_mutex);
	BUG_ON(len > POKE_MAX_OPCODE_SIZE || !len);
	tp = text_poke_queue_reserve();
	text_poke_queue_commit(tp, addr, len);
	text_insn_copy(tp->opcode, opcode, len);
}

static int tp_cmp(const void *a, const void *b)
{
	unsigned long x = (unsigned long)((const struct text_poke_loc *)a)->addr;
	unsigned long y = (unsigned long)((const struct text_poke_loc *)b)->addr;

	return x < y ? -1 : x > y;
}

/* The queue emptied after a batch, its grown array given back. */
static void tp_reset(void)
{
	tp_nr = 0;
	tp_unsorted = false;
	if (tp_vec != tp_static) {
		kfree(tp_vec);
		tp_vec = tp_static;
		tp_cap = TP_STATIC_CAP;
	}
}

void text_poke_finish(void)
{
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	if (!tp_nr)
		return;
	/* A key's sites come in address order: sorting is rarely needed. */
	if (tp_unsorted)
		sort(tp_vec, tp_nr, sizeof(*tp_vec), tp_cmp, NULL);
	if (text_poke_batching)
		text_poke_bp_batch(tp_vec, tp_nr);
	else
		for (i = 0; i < tp_nr; i++)
			text_poke_bp_batch(&tp_vec[i], 1);
	tp_reset();
}

/* True if no CPU can fetch an instruction at va: its page is mapped NX. */
static bool tp_not_executable(unsigned long va)
{
	bool large;
	pteval_t *pte = lookup_pte(va, &large);

	return pte && (*pte & _PAGE_NX);
}

/* The same for every page the queue writes: a walk per change of page. */
static bool tp_queue_not_executable(void)
{
	unsigned long page = 1, first, last; /* no page starts at 1 */
	unsigned int i;

	for (i = 0; i < tp_nr; i++) {
		first = (unsigned long)tp_vec[i].addr & PAGE_MASK;
		last = ((unsigned long)tp_vec[i].addr + tp_vec[i].len - 1) &
		       PAGE_MASK;
		if (first != page && !tp_not_executable(first))
			return false;
		if (last != first && !tp_not_executable(last))
			return false;
		page = last;
	}
	return true;
}

void text_poke_finish_nx(void)
{
	struct tp_alias alias = {};
	unsigned long flags;
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	if (!tp_nr)
		return;
	if (!tp_queue_not_executable()) {
		text_poke_finish();
		return;
	}
	/* No int3 handler searches this queue: it need not be sorted. */
	local_irq_save(flags);
	for (i = 0; i < tp_nr; i++)
		text_insn_copy(tp_alias_map(&alias,
					    (unsigned long)tp_vec[i].addr,
					    tp_vec[i].len),
			       tp_vec[i].opcode, tp_vec[i].len);
	tp_alias_unmap(&alias);
	for (i = 0; i < tp_nr; i++)
		tp_check(tp_vec[i].addr, tp_vec[i].opcode, tp_vec[i].len);
	local_irq_restore(flags);
	text_poke_stats.passes++;
	text_poke_stats.sites += tp_nr;
	text_poke_stats.nx_sites += tp_nr;
	tp_reset();
}

/* The text batch's one apply hook (<linux/jump_label_arch.h>). */
void arch_text_batch_apply(enum text_batch_mode mode)
{
	if (mode == TEXT_BATCH_NOT_LIVE)
		text_poke_finish_nx();
	else
		text_poke_finish();
}
