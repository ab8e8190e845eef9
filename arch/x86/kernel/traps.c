// SPDX-License-Identifier: GPL-2.0
/*
 * The GDT, the TSS with its IST stacks, the IDT and exception dispatch.
 *
 * Double faults and NMIs run on their own IST stacks so that they work even
 * when the kernel stack is gone. Every other vector uses the current stack.
 * A task's stack overflow ends in a double fault (the #PF frame cannot be
 * pushed on the guard page), whose handler names the task and the guard.
 * Each CPU has its own GDT, TSS and IST stacks (a struct cpu_entry_area:
 * static for the boot CPU, allocated for the others); the IDT is shared.
 */
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/extable.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>
#include <asm/traps.h>
#include <asm/user.h>
#include <trace/events/irq.h>

#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_TSS 0x18
/* null, code, data, TSS (two slots), then user code32, data, code64 */
#define GDT_ENTRIES 8

#define IST_DF 1
#define IST_NMI 2
#define IST_STACK_SIZE (2 * PAGE_SIZE)

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __packed;

struct desc_ptr {
	u16 size;
	u64 address;
} __packed;

struct cpu_entry_area {
	u64 gdt[GDT_ENTRIES] __aligned(16);
	struct tss tss __aligned(16);
	u8 ist_stacks[2][IST_STACK_SIZE] __aligned(16);
};

static struct cpu_entry_area boot_entry_area __aligned(PAGE_SIZE);
static struct idt_gate idt[256] __aligned(16);
static struct int3_hook *int3_hooks;
static bool (*debug_trap_hook)(struct pt_regs *regs);
static irq_handler_t irq_handlers[256];

extern const char idt_stubs[];

static const char *const exception_names[X86_TRAP_NR_EXCEPTIONS] = {
	"divide error", "debug", "NMI", "int3", "overflow", "bounds",
	"invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack segment", "general protection fault", "page fault", "reserved",
	"x87 floating point", "alignment check", "machine check",
	"SIMD floating point", "virtualization", "control protection",
};

static void gdt_init(struct cpu_entry_area *cea)
{
	u64 *gdt = cea->gdt;
	u64 base = (u64)&cea->tss;
	u64 limit = sizeof(cea->tss) - 1;
	struct desc_ptr gdtr = { sizeof(cea->gdt) - 1, (u64)gdt };

	gdt[1] = 0x00af9a000000ffffULL; /* 64-bit code, DPL 0 */
	gdt[2] = 0x00cf92000000ffffULL; /* data, DPL 0 */
	/* A 16-byte available 64-bit TSS descriptor (type 9, present). */
	gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[4] = base >> 32;
	/* SYSRET's order (MSR_STAR): 32-bit code, data, 64-bit code. */
	gdt[5] = 0x00cffa000000ffffULL; /* 32-bit code, DPL 3 */
	gdt[6] = 0x00cff2000000ffffULL; /* data, DPL 3: 0x33 */
	gdt[7] = 0x00affa000000ffffULL; /* 64-bit code, DPL 3: 0x3b */
	cea->tss.ist[IST_DF - 1] = (u64)cea->ist_stacks[0] + IST_STACK_SIZE;
	cea->tss.ist[IST_NMI - 1] = (u64)cea->ist_stacks[1] + IST_STACK_SIZE;
	cea->tss.iomap_base = sizeof(cea->tss);

	asm volatile("lgdt %0" : : "m"(gdtr));
	/*
	 * Reload CS through a far return, then the data segments and TR;
	 * and a null LDT: the LDTR a CPU comes out of reset with has base 0
	 * and limit 0xffff, so a user selector with TI set (a far jump, a
	 * segment load, a frame rt_sigreturn took) would read descriptors,
	 * call gates to ring 0 included, from user address 0..0xffff.
	 */
	asm volatile("pushq %[cs]\n\t"
		     "leaq 1f(%%rip), %%rax\n\t"
		     "pushq %%rax\n\t"
		     "lretq\n"
		     "1:\n\t"
		     "mov %[ds], %%ds\n\t"
		     "mov %[ds], %%es\n\t"
		     "mov %[ds], %%ss\n\t"
		     "ltr %w[tr]\n\t"
		     "lldt %w[ldt]"
		     :
		     : [cs] "i"(GDT_KERNEL_CS), [ds] "r"(GDT_KERNEL_DS),
		       [tr] "r"(GDT_TSS), [ldt] "r"(0)
		     : "rax", "memory");
}

static void set_gate(unsigned int vector, unsigned int ist)
{
	u64 addr = (u64)idt_stubs + 16 * vector;
	struct idt_gate *g = &idt[vector];

	g->offset_low = addr & 0xffff;
	g->selector = GDT_KERNEL_CS;
	g->ist = ist;
	g->type_attr = 0x8e; /* present, DPL 0, 64-bit interrupt gate */
	g->offset_mid = (addr >> 16) & 0xffff;
	g->offset_high = addr >> 32;
}

void cpu_load_idt(void)
{
	struct desc_ptr idtr = { sizeof(idt) - 1, (u64)idt };

	asm volatile("lidt %0" : : "m"(idtr));
}

struct cpu_entry_area *cpu_entry_area_alloc(void)
{
	return kzalloc(sizeof(struct cpu_entry_area), GFP_KERNEL);
}

static DEFINE_PER_CPU(struct cpu_entry_area *, cpu_cea);

void cpu_init_exception_handling(struct cpu_entry_area *cea)
{
	gdt_init(cea);
	cpu_load_idt();
	/* The boot CPU's lands in the template, which every copy starts as. */
	this_cpu_write(cpu_cea, cea);
	syscall_cpu_init();
}

/* Where the CPU switches to on an interrupt from user mode. */
void cpu_set_rsp0(unsigned long sp)
{
	this_cpu_read(cpu_cea)->tss.rsp[0] = sp;
}

void __init trap_init(void)
{
	unsigned int v;

	for (v = 0; v < 256; v++)
		set_gate(v, 0);
	set_gate(X86_TRAP_DF, IST_DF);
	set_gate(X86_TRAP_NMI, IST_NMI);
	/*
	 * int3 and into from user mode are a breakpoint (SIGTRAP) and an
	 * overflow (SIGSEGV), not a #GP: Linux's DPL-3 gates (its third,
	 * int $0x80, is not a gate here: no 32-bit ABI).
	 */
	idt[X86_TRAP_BP].type_attr = 0xee; /* present, DPL 3 */
	idt[X86_TRAP_OF].type_attr = 0xee;
	cpu_init_exception_handling(&boot_entry_area);
}

void register_int3_hook(struct int3_hook *hook)
{
	hook->next = int3_hooks;
	int3_hooks = hook;
}

void unregister_int3_hook(struct int3_hook *hook)
{
	struct int3_hook **p;

	for (p = &int3_hooks; *p; p = &(*p)->next) {
		if (*p == hook) {
			*p = hook->next;
			return;
		}
	}
}

void set_debug_trap_hook(bool (*hook)(struct pt_regs *regs))
{
	WRITE_ONCE(debug_trap_hook, hook);
}

void __init set_irq_handler(unsigned int vector, irq_handler_t handler)
{
	BUG_ON(vector < X86_TRAP_NR_EXCEPTIONS || vector > 255);
	irq_handlers[vector] = handler;
}

void __noreturn die(const char *str, struct pt_regs *regs, unsigned long err)
{
	struct task_struct *tsk = current;

	local_irq_disable();
	console_verbose();
	pr_emerg("Oops: %s, error code 0x%lx (vector %lu) on CPU%u in task %s/%d\n",
		 str, err, regs->vector, smp_processor_id(),
		 tsk ? tsk->comm : "?", tsk ? tsk->pid : -1);
	show_regs(regs);
	show_stack_regs(regs, KERN_EMERG);
	if (regs->vector == X86_TRAP_DF) /* on the IST stack: no way back */
		panic("Fatal exception: %s", str);
	oops_end(str);
}

static void do_page_fault(struct pt_regs *regs, unsigned long err)
{
	unsigned long cr2 = read_cr2();

	if (fixup_exception(regs, X86_TRAP_PF, err))
		return;
	console_verbose();
	pr_emerg("BUG: unable to handle page fault for address: %016lx\n", cr2);
	pr_emerg("#PF: %s %s access in kernel mode (%s)\n",
		 err & X86_PF_INSTR ? "instruction fetch" :
		 err & X86_PF_WRITE ? "write" : "read",
		 err & X86_PF_INSTR ? "" : "data",
		 err & X86_PF_PROT ? "permissions violation" : "not-present page");
	die("page fault", regs, err);
}

/* On the IST stack: a fault on a task's guard page is a stack overflow. */
static void __noreturn do_double_fault(struct pt_regs *regs, unsigned long err)
{
	unsigned long cr2 = read_cr2();
	struct task_struct *tsk = current;

	console_verbose();
	if (tsk && kernel_stack_guard_hit(cr2))
		pr_emerg("BUG: kernel stack overflow in task %s/%d: stack guard page hit at %016lx (stack %016lx-%016lx)\n",
			 tsk->comm, tsk->pid, cr2, tsk->stack,
			 tsk->stack + THREAD_SIZE);
	die("double fault", regs, err);
}

/*
 * A device interrupt or IPI, counted in the preempt count's hardirq bits.
 * On the way out, a pending reschedule preempts the interrupted task if
 * it ran with preemption and interrupts enabled.
 */
static noinline void do_irq(struct pt_regs *regs, unsigned long v)
{
	irq_handler_t handler = irq_handlers[v];

	preempt_count_add(HARDIRQ_OFFSET);
	trace_irq_handler_entry(v, handler);
	if (handler)
		handler(regs);
	else
		pr_warn("spurious interrupt on vector %lu\n", v);
	trace_irq_handler_exit(v, handler != NULL);
	preempt_count_sub(HARDIRQ_OFFSET);
	sched_fold_need_resched();
	if (need_resched() && !preempt_count() && (regs->flags & X86_EFLAGS_IF))
		preempt_schedule_irq();
}

/* Called from int3_entry in entry_64.S for an int3 in the kernel. */
__visible void do_int3(struct pt_regs *regs);
__visible void do_int3(struct pt_regs *regs)
{
	struct int3_hook *h;

	for (h = int3_hooks; h; h = h->next)
		if (h->handler(regs))
			return;
	die("int3", regs, 0);
}

/* Called from common_entry in entry_64.S for every vector. */
__visible void do_exception(struct pt_regs *regs);
__visible void do_exception(struct pt_regs *regs)
{
	unsigned long v = regs->vector;

	if (v >= X86_TRAP_NR_EXCEPTIONS) {
		do_irq(regs, v);
		if (user_mode(regs))
			exit_to_user_mode(regs);
		return;
	}
	if (user_mode(regs)) {
		user_exception(regs, v, exception_names[v]);
		return;
	}
	switch (v) {
	case X86_TRAP_PF:
		do_page_fault(regs, regs->error_code);
		return;
	case X86_TRAP_DF:
		do_double_fault(regs, regs->error_code);
	case X86_TRAP_NMI:
		smp_stop_nmi_check(); /* no return if panic() stops CPUs */
		break;
	case X86_TRAP_NP:
	case X86_TRAP_SS:
	case X86_TRAP_GP:
		if (bad_iret(regs))
			return;
		if (v == X86_TRAP_GP &&
		    fixup_exception(regs, v, regs->error_code))
			return;
		break;
	case X86_TRAP_UD:
		if (fixup_exception(regs, v, regs->error_code))
			return;
		break;
	}
	if (v == X86_TRAP_DB && debug_trap_hook && debug_trap_hook(regs))
		return;
	die(exception_names[v] ? exception_names[v] : "reserved exception",
	    regs, regs->error_code);
}
