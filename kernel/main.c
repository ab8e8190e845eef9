// SPDX-License-Identifier: GPL-2.0
/*
 * The boot story, top to bottom. start_kernel() is __init and never
 * returns: rest_init() frees the init sections and must not come back.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/static_call.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/process.h>
#include <linux/shell.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <linux/timer.h>
#include <asm/reboot.h>
#include <asm/setup.h>
#include <kunit/test.h>

void start_kernel(void);

extern initcall_t __initcall_early_start[], __initcall_early_end[];
extern initcall_t __initcall_start[], __initcall_end[];

static void __init do_initcall_range(initcall_t *start, initcall_t *end)
{
	initcall_t *fn;

	for (fn = start; fn < end; fn++) {
		int ret = (*fn)();

		if (ret)
			pr_warn("initcall %pS returned %d\n", *fn, ret);
	}
}

void __init do_early_initcalls(void)
{
	do_initcall_range(__initcall_early_start, __initcall_early_end);
}

void __init do_initcalls(void)
{
	do_initcall_range(__initcall_start, __initcall_end);
}

/*
 * bench=GLOB on the command line runs benchmarks instead of the tests.
 * Returns the number of failures, or -ENOENT if nothing was selected.
 */
static int run_tests(void)
{
	if (bench_requested())
		return bench_run_all();
	if (!IS_ENABLED(CONFIG_KUNIT))
		return 0;
	return kunit_run_all_tests();
}

/*
 * The first kthread, on the boot CPU: the console if the command line
 * says "shell" (make run), else the tests, then power off.
 */
static int kernel_init(void *unused)
{
	int failed;

	system_state = SYSTEM_RUNNING;
	if (init_requested())
		run_init_process();
	if (shell_requested())
		shell_main();
	failed = run_tests();

	pr_notice("reboot: Power down\n");
	if (failed < 0)
		machine_power_off(QEMU_EXIT_NO_TESTS);
	machine_power_off(failed ? QEMU_EXIT_TESTS_FAILED : QEMU_EXIT_SUCCESS);
}

/* The boot context ends as the boot CPU's idle task, swapper/0. */
static noinline void __noreturn rest_init(void)
{
	struct task_struct *init;

	jump_label_init_ro();
	free_initmem();
	mark_rodata_ro();
	init = kthread_create(kernel_init, NULL, "init");
	if (IS_ERR(init))
		panic("cannot create the init thread: %ld", PTR_ERR(init));
	kthread_bind(init, 0);
	system_state = SYSTEM_SCHEDULING;
	wake_up_process(init);
	cpu_idle();
}

/* The whole line, however long: printk() stops a message at 1 KiB. */
static void __init print_command_line(const char *s)
{
	const size_t piece = 512;
	size_t n = min(strlen(s), piece);

	pr_info("Command line: %.*s", (int)n, s);
	for (s += n; *s; s += n) {
		n = min(strlen(s), piece);
		pr_cont("%.*s", (int)n, s);
	}
	pr_cont("\n");
}

void __init start_kernel(void)
{
	static char cmdline[SAVED_COMMAND_LINE_SIZE] __initdata;
	const char *sep = CONFIG_CMDLINE_DEFAULT[0] ? " " : "";

	pr_notice("Booting x86_64 static-keys kernel (%s)\n",
		  boot_params.loader_name[0] ? boot_params.loader_name :
					       "unknown loader");
	scnprintf(cmdline, sizeof(cmdline), "%s%s%s", CONFIG_CMDLINE_DEFAULT,
		  sep, boot_params.cmdline);
	parse_args(cmdline);
	print_command_line(saved_command_line);
	setup_arch();
	sched_init(); /* this context becomes swapper/0 */
	init_timers();
	smp_init();
	time_init(); /* the clock; the tick on every CPU, unless tick=off */
	local_irq_enable(); /* the boot CPU takes IPIs and ticks like the others */
	do_early_initcalls();
	jump_label_init();
	static_call_init();
	do_initcalls();
	rest_init();
}
