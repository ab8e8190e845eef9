// SPDX-License-Identifier: GPL-2.0
/*
 * Backtraces by frame pointer: every function compiled here keeps rbp as a
 * frame record {saved rbp, return address}; the chain ends at rbp == 0,
 * which head_64.S sets before the first call. Each read goes through
 * copy_from_kernel_nofault() so a corrupt chain ends the trace, not the
 * kernel.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/uaccess.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>

static void show_frames(unsigned long bp, const char *lvl)
{
	unsigned long frame[2];
	int depth;

	for (depth = 0; bp && depth < CONFIG_PANIC_BACKTRACE_DEPTH; depth++) {
		if (!IS_ALIGNED(bp, sizeof(long)) ||
		    copy_from_kernel_nofault(frame, (void *)bp, sizeof(frame)))
			break;
		if (!frame[1])
			break;
		printk("%s [<%016lx>] %pB\n", lvl, frame[1], (void *)frame[1]);
		if (frame[0] <= bp)
			break; /* stacks grow down: a caller's frame is above */
		bp = frame[0];
	}
}

void show_stack_from(unsigned long bp, const char *lvl)
{
	printk("%sCall Trace:\n", lvl);
	show_frames(bp, lvl);
}

static bool kernel_text_address(unsigned long addr)
{
	if (addr >= (unsigned long)_text && addr < (unsigned long)_etext)
		return true;
	if (init_mem_available && addr >= (unsigned long)__init_text_begin &&
	    addr < (unsigned long)__init_text_end)
		return true;
	return is_module_text_address(addr);
}

/*
 * The trace of an exception. gcc builds leaf functions without a frame
 * record, so the frame chain starts at the caller's caller; the word on top
 * of the stack, when it points into text, is probably the missing return
 * address. It is printed first, marked "?" as not certain, as Linux does
 * for addresses its unwinder cannot vouch for.
 */
void show_stack_regs(struct pt_regs *regs, const char *lvl)
{
	unsigned long top;

	printk("%sCall Trace:\n", lvl);
	if (!copy_from_kernel_nofault(&top, (void *)regs->sp, sizeof(top)) &&
	    kernel_text_address(top))
		printk("%s ? [<%016lx>] %pB\n", lvl, top, (void *)top);
	show_frames(regs->rbp, lvl);
}

noinline void dump_stack(void)
{
	show_stack_from((unsigned long)__builtin_frame_address(0), KERN_ERR);
}

void show_regs(struct pt_regs *regs)
{
	pr_err("RIP: %04lx:%016lx %pS\n", regs->cs, regs->ip, (void *)regs->ip);
	pr_err("RSP: %016lx EFLAGS: %08lx\n", regs->sp, regs->flags);
	pr_err("RAX: %016lx RBX: %016lx RCX: %016lx\n", regs->rax, regs->rbx,
	       regs->rcx);
	pr_err("RDX: %016lx RSI: %016lx RDI: %016lx\n", regs->rdx, regs->rsi,
	       regs->rdi);
	pr_err("RBP: %016lx R08: %016lx R09: %016lx\n", regs->rbp, regs->r8,
	       regs->r9);
	pr_err("R10: %016lx R11: %016lx R12: %016lx\n", regs->r10, regs->r11,
	       regs->r12);
	pr_err("R13: %016lx R14: %016lx R15: %016lx\n", regs->r13, regs->r14,
	       regs->r15);
	pr_err("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n", read_cr0(),
	       read_cr2(), read_cr3(), read_cr4());
}
