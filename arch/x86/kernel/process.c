// SPDX-License-Identifier: GPL-2.0
/*
 * Task stacks and the first frame of a task.
 *
 * Stacks live in their own area of the address space, in slots of twice
 * THREAD_SIZE: the upper half is the stack, mapped read-write; the lower
 * half is never mapped, so a stack that overflows faults there (the guard)
 * instead of writing over its neighbour. The push of the #PF frame on the
 * same overflowed stack faults again, which the CPU turns into a double
 * fault, taken on its own IST stack, whose handler reports the guard hit
 * (kernel_stack_guard_hit()).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/processor.h>

#define STACK_AREA_START 0xffffc90040000000UL /* after the ioremap area */
#define STACK_SLOT_SIZE (2 * THREAD_SIZE)
#define STACK_SLOTS 4096 /* 128 MiB of address space */
#define THREAD_PAGES (THREAD_SIZE / PAGE_SIZE)

static unsigned long stack_slots[STACK_SLOTS / BITS_PER_LONG];
static DEFINE_SPINLOCK(stack_slot_lock);

extern const char ret_from_kthread[];

static long stack_slot_get(void)
{
	unsigned long flags;
	long slot;

	spin_lock_irqsave(&stack_slot_lock, flags);
	for (slot = 0; slot < STACK_SLOTS; slot++) {
		unsigned long bit = 1UL << (slot % BITS_PER_LONG);

		if (!(stack_slots[slot / BITS_PER_LONG] & bit)) {
			stack_slots[slot / BITS_PER_LONG] |= bit;
			break;
		}
	}
	spin_unlock_irqrestore(&stack_slot_lock, flags);
	return slot < STACK_SLOTS ? slot : -1;
}

static void stack_slot_put(long slot)
{
	unsigned long flags;

	spin_lock_irqsave(&stack_slot_lock, flags);
	stack_slots[slot / BITS_PER_LONG] &= ~(1UL << (slot % BITS_PER_LONG));
	spin_unlock_irqrestore(&stack_slot_lock, flags);
}

/* The lowest address of a new mapped stack, or 0. */
unsigned long arch_alloc_task_stack(void)
{
	long slot = stack_slot_get();
	phys_addr_t pa;
	unsigned long va;

	if (slot < 0)
		return 0;
	va = STACK_AREA_START + slot * STACK_SLOT_SIZE + THREAD_SIZE;
	pa = alloc_frames(THREAD_PAGES);
	if (!pa || map_kernel_range(va, pa, THREAD_SIZE, PAGE_KERNEL, true)) {
		if (pa)
			free_frames(pa, THREAD_PAGES);
		stack_slot_put(slot);
		return 0;
	}
	return va;
}

/* Unmaps stack on every CPU, then frees it. Interrupts on. */
void arch_free_task_stack(unsigned long stack)
{
	phys_addr_t pa = 0;
	unsigned long va;
	bool large;

	for (va = stack; va < stack + THREAD_SIZE; va += PAGE_SIZE) {
		pteval_t *e = lookup_pte(va, &large);

		if (WARN_ON_ONCE(!e || large))
			return;
		if (va == stack)
			pa = *e & PTE_PFN_MASK;
		*e = 0;
	}
	flush_tlb_kernel_range(stack, stack + THREAD_SIZE);
	free_frames(pa, THREAD_PAGES);
	stack_slot_put((stack - STACK_AREA_START) / STACK_SLOT_SIZE);
}

/* True if addr is in the guard half of a stack slot. */
bool kernel_stack_guard_hit(unsigned long addr)
{
	unsigned long off = addr - STACK_AREA_START;

	return addr >= STACK_AREA_START &&
	       off < STACK_SLOTS * (unsigned long)STACK_SLOT_SIZE &&
	       off % STACK_SLOT_SIZE < THREAD_SIZE;
}

/*
 * The frame __switch_to_asm() pops for a task that never ran: zeroed
 * callee-saved registers but %r12 = entry and %r13 = arg, %rbp = 0 (the
 * end of backtraces), and ret_from_kthread as the return address, which
 * then runs with %rsp 16-byte aligned at the top of the stack.
 */
void arch_task_init_frame(struct task_struct *t, int (*entry)(void *),
			  void *arg)
{
	unsigned long *sp = (unsigned long *)(t->stack + THREAD_SIZE) - 7;

	memset(sp, 0, 7 * sizeof(*sp));
	sp[2] = (unsigned long)arg;
	sp[3] = (unsigned long)entry;
	sp[6] = (unsigned long)ret_from_kthread;
	t->sp = (unsigned long)sp;
}
