// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's page permissions, checked by doing what they forbid through
 * the exception fixup table: every forbidden access must fault and come back
 * as -EFAULT, and the allowed twin of each must succeed.
 */
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/fixmap.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/text-sync.h>
#include <kunit/test.h>

static int paging_test_ro_after_init __ro_after_init = 42;
static u8 paging_test_data[64] __aligned(16);

static noinline void paging_test_text_fn(void)
{
	barrier();
}

static void paging_test_text_not_writable(struct kunit *test)
{
	u8 *text = (u8 *)paging_test_text_fn, before = *text, b = 0xcc;

	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(text, &b, 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, *text, before);
	/* Nor through the direct map's alias of the same page. */
	text = __va(__pa_symbol(text));
	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(text, &b, 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, *text, before);
}

static void paging_test_rodata_not_writable(struct kunit *test)
{
	static const u8 ro[8] = { 1, 2, 3 };
	u8 b = 9;

	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault((void *)ro, &b, 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, ro[0], 1);
}

static void paging_test_data_writable(struct kunit *test)
{
	u8 b = 7;

	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(paging_test_data, &b, 1), 0);
	KUNIT_EXPECT_EQ(test, paging_test_data[0], 7);
}

static void paging_test_data_not_executable(struct kunit *test)
{
	paging_test_data[0] = 0xc3; /* ret */
	KUNIT_EXPECT_EQ(test, call_nofault((void (*)(void))paging_test_data),
			-EFAULT);
	/* The same call to real text returns normally. */
	KUNIT_EXPECT_EQ(test, call_nofault(paging_test_text_fn), 0);
}

static void paging_test_pte_flags(struct kunit *test)
{
	bool large;
	pteval_t *t = lookup_pte((unsigned long)paging_test_text_fn, &large);
	pteval_t *d = lookup_pte((unsigned long)paging_test_data, &large);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_EQ(test, *t & (_PAGE_RW | _PAGE_NX), 0);
	KUNIT_EXPECT_EQ(test, *d & (_PAGE_RW | _PAGE_NX), _PAGE_RW | _PAGE_NX);
	KUNIT_EXPECT_TRUE(test, read_cr0() & X86_CR0_WP);
	KUNIT_EXPECT_TRUE(test, rdmsr(MSR_EFER) & EFER_NX);
}

static void paging_test_ro_after_init_sealed(struct kunit *test)
{
	int v = 1;

	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(&paging_test_ro_after_init,
						     &v, sizeof(v)), -EFAULT);
	KUNIT_EXPECT_EQ(test, paging_test_ro_after_init, 42);
}

static void paging_test_init_freed(struct kunit *test)
{
	u8 b;
	bool large;

	KUNIT_EXPECT_FALSE(test, init_mem_available);
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(&b, __init_text_begin, 1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(&b, __init_data_begin, 1),
			-EFAULT);
	KUNIT_EXPECT_NULL(test, lookup_pte((unsigned long)__init_begin, &large));
}

static void paging_test_unmapped_read(struct kunit *test)
{
	unsigned long v;

	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(&v, NULL, sizeof(v)), -EFAULT);
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(&v, (void *)0x1000, 1), -EFAULT);
}

/* A temporary writable alias changes what the real mapping reads. */
static void paging_test_fixmap_alias(struct kunit *test)
{
	phys_addr_t pa = alloc_zeroed_frame();
	u8 *alias, *direct;

	KUNIT_ASSERT_NE(test, pa, 0);
	direct = __va(pa);
	alias = set_fixmap(FIX_TEST, pa + 100);
	KUNIT_EXPECT_EQ(test, (unsigned long)alias, fix_to_virt(FIX_TEST) + 100);
	*alias = 0x77;
	KUNIT_EXPECT_EQ(test, direct[100], 0x77);
	clear_fixmap(FIX_TEST);
	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(alias, alias, 1), -EFAULT);
	free_frame(pa);
}

/*
 * A CPU that is idle when a kernel mapping changes is not interrupted: it
 * flushes its whole TLB when it comes back into the kernel, before it can
 * read through the mapping (<asm/text-sync.h>). Another CPU reads the
 * fixmap slot, so that its TLB maps it to frame A, and goes idle; the slot
 * moves to frame B and is flushed on every CPU; that CPU then reads B, not
 * A. Tried until one such flush skipped every other CPU, that one among
 * them (the count is of all CPUs skipped), or 20 times.
 */
static u8 paging_test_read;

static void paging_test_read_slot(void *va)
{
	WRITE_ONCE(paging_test_read, *(volatile u8 *)va);
}

/* Until cpu is idle, or 100 ms pass. */
static void paging_test_wait_idle(unsigned int cpu)
{
	u64 deadline = ktime_get_ns() + 100 * NSEC_PER_MSEC;

	while (text_sync_state(cpu) != CT_IDLE && ktime_get_ns() < deadline)
		cpu_relax();
}

static void paging_test_idle_cpu_flushes_on_entry(struct kunit *test)
{
	phys_addr_t a = alloc_zeroed_frame(), b = alloc_zeroed_frame();
	unsigned long va = fix_to_virt(FIX_TEST), deferred = 0;
	unsigned long others = num_online_cpus() - 1;
	unsigned int cpu, other = NR_CPUS, tries, wrong = 0;
	struct text_sync_stats s0;

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			other = cpu;
	if (other == NR_CPUS)
		kunit_skip(test, "needs a second CPU, idle");
	KUNIT_ASSERT_TRUE(test, a && b);
	*(u8 *)__va(a) = 0xaa;
	*(u8 *)__va(b) = 0xbb;
	for (tries = 0; tries < 20 && deferred < others; tries++) {
		set_fixmap(FIX_TEST, a);
		flush_tlb_kernel_range(va, va + PAGE_SIZE);
		smp_call_function_single(other, paging_test_read_slot,
					 (void *)va, 1);
		wrong += READ_ONCE(paging_test_read) != 0xaa;
		paging_test_wait_idle(other);
		s0 = text_sync_get_stats();
		set_fixmap(FIX_TEST, b);
		flush_tlb_kernel_range(va, va + PAGE_SIZE);
		deferred = text_sync_get_stats().tlb_deferred - s0.tlb_deferred;
		smp_call_function_single(other, paging_test_read_slot,
					 (void *)va, 1);
		wrong += READ_ONCE(paging_test_read) != 0xbb;
	}
	clear_fixmap(FIX_TEST);
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_GT(test, deferred, 0UL);
	free_frame(a);
	free_frame(b);
}

static void paging_test_symbolize(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kallsyms_lookup_name("paging_test_text_fn"),
			(unsigned long)paging_test_text_fn);
	KUNIT_EXPECT_STREQ(test,
			   kallsyms_lookup((unsigned long)paging_test_data + 3,
					   NULL, NULL),
			   "paging_test_data");
}

static struct kunit_case paging_test_cases[] = {
	KUNIT_CASE(paging_test_text_not_writable),
	KUNIT_CASE(paging_test_rodata_not_writable),
	KUNIT_CASE(paging_test_data_writable),
	KUNIT_CASE(paging_test_data_not_executable),
	KUNIT_CASE(paging_test_pte_flags),
	KUNIT_CASE(paging_test_ro_after_init_sealed),
	KUNIT_CASE(paging_test_init_freed),
	KUNIT_CASE(paging_test_unmapped_read),
	KUNIT_CASE(paging_test_fixmap_alias),
	KUNIT_CASE(paging_test_idle_cpu_flushes_on_entry),
	KUNIT_CASE(paging_test_symbolize),
	{}
};

static struct kunit_suite paging_test_suite = {
	.name = "paging",
	.test_cases = paging_test_cases,
};
kunit_test_suite(paging_test_suite);
